"""The buy-sell game's names and registry entries: the scenario of the paper's section-one runs, the
protocol, and the family of stand-ins for the LLM player in each seat, each read from the paper's
own logs (``benchmarks/buysell_logs.py``, recorded in ``benchmarks/results-buysell-logs.md``)."""

from __future__ import annotations

SYSTEM = "buysell"
PROTOCOL_ID = "buy-sell-v1"
LOGS = "the paper's logs, cost 40 / willingness 60, no social behaviour (benchmarks/results-buysell-logs.md)"
#: study name -> (open_ratio, concession, evidence), per seat; the first is the default
FAMILY = {
    "seller": {
        "gpt-4": (1.25, 0.2, "GPT-4 as seller: opened at 50 in all 260 games (50/40 = 1.25) and gave up a median 0.2 "
                             "of the gap to its cost per proposal (260 steps; quartiles 0.2, 0.2, 0.5)"),
        "gpt-4-soft": (1.25, 0.5, "GPT-4's opening with its upper-quartile concession, 0.5"),
        "claude-2.1": (1.125, 0.5, "Claude-2.1 as seller: median opening 45 (180 games; 45/40 = 1.125), median "
                                   "concession 0.5 (40 steps); Claude-2 the same"),
        "gpt-3.5": (1.0, 0.0, "GPT-3.5 as seller: opened at its cost, 40, in every quartile (180 games), median "
                              "concession 0 (30 steps)"),
    },
    "buyer": {
        "gpt-4": (0.7, 1 / 15, "GPT-4 as buyer: median opening 42 (253 games; 42/60 = 0.7; quartiles 40, 45), median "
                               "concession 1/15 of the gap to its willingness (87 steps; quartiles 0.056, 0.08)"),
        "gpt-4-tough": (2 / 3, 0.0556, "GPT-4's lower quartiles: opens at 40 (40/60), concedes 0.0556"),
        "claude-2.1": (0.75, 0.1, "Claude-2.1 as buyer: median opening 45 (176 games; 45/60), median concession 0.1 "
                                  "(40 steps); Claude-2 the same"),
        "gpt-3.5": (0.75, 1 / 15, "GPT-3.5 as buyer: median opening 45 (120 games), median concession 1/15 (33 steps)"),
    },
}


def policy_id(seat: str, name: str) -> str:
    return f"buysell-{seat}-{name}-v1"


#: study name -> registry id, per seat
NAMES = {seat: {name: policy_id(seat, name) for name in family} for seat, family in FAMILY.items()}
DEFAULTS = {seat: policy_id(seat, next(iter(family))) for seat, family in FAMILY.items()}

REGISTRY = [
    dict(kind="scenario", id="buysell-40-60-v1", entry_point="simcore.protocols.buysell:Scenario",
         kwargs={"cost": 40, "value": 60, "budget": 100},
         description="NegotiationArena buy-sell: cost 40, willingness 60, the buyer holds 100 ZUP (section one)",
         meta={"system": SYSTEM}),
    dict(kind="protocol", id=PROTOCOL_ID, entry_point="simcore.protocols.buysell:BuySellGame",
         kwargs={"turns": 10, "enforce_limit": True},
         description="one object bought and sold: alternating proposals, ACCEPT or REJECT, a turn limit",
         meta={"system": SYSTEM, "sources": {
             "turns": "experiments/section_one/experiment_buysell.py:46 (iterations=10)",
             "enforce_limit": "choice: the paper's code states the proposal limit in the prompt and checks nothing; "
                              "refusing a proposal beyond it keeps the action set exact"}}),
] + [
    dict(kind="policy", id=policy_id(seat, name), entry_point="policies.buysell:Concession",
         kwargs={"open_ratio": ratio, "concession": step},
         description=f"stand-in for {name} as the {seat} (time-based concession; see `simcore roles buysell`)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": seat,
               "sources": {"open_ratio": f"{evidence}; {LOGS}", "concession": f"{evidence}; {LOGS}"}})
    for seat, family in FAMILY.items() for name, (ratio, step, evidence) in family.items()
]
