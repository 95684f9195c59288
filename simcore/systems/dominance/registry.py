"""The dominance system's names and registry entries: the two restaurant domains, the dialogue
protocol (``dominance-dialogue-v1``, the game :class:`simcore.protocols.dialogue.DialogueGame`)
and the response-tree policies ``dominance-<relation>-v1`` / ``-v2`` / ``-v3``."""

from __future__ import annotations

import attrs

from policies.dominance import V1_EXIT, V2_EXIT, AgentParams
from policies.dominance_state import RELATIONS

SYSTEM = "dominance"
SEATS = ("agent", "user")
VERSIONS = ("v1", "v2", "v3")
PROTOCOL_ID = "dominance-dialogue-v1"
#: the policy a seat holds when none is named
DEFAULT_POLICY = "dominance-peer-v3"

_PARAM_DEFAULTS = attrs.asdict(AgentParams(), recurse=False)

REGISTRY = [
    dict(kind="scenario", id="restaurants-small-v1", entry_point="scenarios.restaurants:make_domain",
         kwargs={"id": "restaurants-small-v1"},
         description="restaurant domain: 5 cuisines x 2 costs x 2 ambiances, 20 named restaurants",
         meta={"system": SYSTEM, "describe": "scenarios.restaurants:describe"}),
    dict(kind="scenario", id="restaurants-420-v1", entry_point="scenarios.restaurants:make_domain",
         kwargs={"id": "restaurants-420-v1"},
         description="restaurant domain: 7 cuisines x 3 costs x 4 atmospheres x 5 locations (420)",
         meta={"system": SYSTEM, "describe": "scenarios.restaurants:describe"}),
    dict(kind="protocol", id=PROTOCOL_ID, entry_point="simcore.protocols.dialogue:DialogueGame",
         kwargs={"max_turns": 40},
         description="utterance-by-utterance cooperative dialogue, Booking / dead end / 40-turn limit",
         meta={"system": SYSTEM, "sources": {
                   "max_turns": "notes (thesis): 'A dialogue fails after 40 turns'; the backstop behind the seed's "
                                "exit (the study's --max-turns)"}}),
] + [
    dict(kind="policy", id=f"dominance-{rel}-v1", entry_point="policies.dominance:DominancePolicy",
         kwargs={"relation": rel, **_PARAM_DEFAULTS, **V1_EXIT},
         description=f"response trees of a {rel} agent (seed Figs. 1-8); exit only when no open option is "
                     "left, counting Reject alone as a refusal",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID})
    for rel in RELATIONS
] + [
    dict(kind="policy", id=f"dominance-{rel}-v3", entry_point="policies.dominance:DominancePolicy",
         kwargs={"relation": rel, **_PARAM_DEFAULTS},
         description=f"response trees of a {rel} agent (seed Figs. 1-8); the seed's dead-end exit, and the "
                     "repeat backstop ending a cycling dialogue as 'stalled'",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID})
    for rel in RELATIONS
] + [
    dict(kind="policy", id=f"dominance-{rel}-v2", entry_point="policies.dominance:DominancePolicy",
         kwargs={"relation": rel, **_PARAM_DEFAULTS, **V2_EXIT},
         description=f"response trees of a {rel} agent (seed Figs. 1-8); the exit also counts counter-proposals "
                     "as refusals (Fig. 4) and ends a repeated exchange with no progress",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID})
    for rel in RELATIONS
]
