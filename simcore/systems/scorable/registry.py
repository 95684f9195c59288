"""The scorable system's names and registry entries: the shipped games (scenarios), the seven
method configurations (policies ``scorable-<method>-v1``) and the protocol ``scorable-v1``."""

from __future__ import annotations

import attrs

from simcore.protocols.scorable import Settings
from simcore.systems.scorable.methods import METHOD_IDS

SYSTEM = "scorable"
PROTOCOL_ID = "scorable-v1"
GAMES = ("harbour-sport-park", "harbour-sport-park-original")

_POLICY_DESC = {
    "base-llm": "no explicit estimation (seed sec. 4.1); a party values each option of j by its share of all "
                "of j's public deals so far (sec. 2 'the history of d_t')",
    "base-om-p1": "numeric-only Bayes (eq. 3), p1 estimates",
    "base-om-all": "numeric-only Bayes (eq. 3), every party estimates",
    "llm-pe-p1": "language layer's direct table estimate, p1 estimates",
    "llm-pe-all": "language layer's direct table estimate, every party estimates",
    "proposed-p1": "numeric x linguistic Bayes (eq. 5), p1 estimates",
    "proposed-all": "numeric x linguistic Bayes (eq. 5), every party estimates",
}

_SETTINGS_DEFAULTS = attrs.asdict(Settings())

REGISTRY = [
    *[dict(kind="scenario", id=f"{g}-v1", entry_point="scenarios.scorable:load_shipped", kwargs={"name": g},
           description=("Harbour Sport Park, seed thresholds (720 deals, 21 pass, 3 unanimous)" if g == GAMES[0]
                        else "Harbour Sport Park, benchmark thresholds (720 deals, 55 pass, 12 unanimous)"),
           meta={"system": SYSTEM, "describe": "scenarios.scorable:describe"}) for g in GAMES],
    *[dict(kind="policy", id=f"scorable-{m}-v1", entry_point="simcore.systems.scorable.methods:Method",
           kwargs={"method": m}, description=_POLICY_DESC[m],
           meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "method": m}) for m in METHOD_IDS],
    dict(kind="protocol", id=PROTOCOL_ID, entry_point="simcore.protocols.scorable:ScorableGame",
         kwargs=_SETTINGS_DEFAULTS,
         description="N parties, 4N turns in redrawn random orders, p1 opens and closes, veto holders (the parties "
                     "concede from their best own score to their threshold)",
         meta={"system": SYSTEM, "conformance": "simcore.systems.scorable.match:ScorableConformance"}),
]
