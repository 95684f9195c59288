"""What the buy-sell game's LLM roles are built from: the player in each seat (``simcore roles
buysell``), and the paper's logs' deals and prices per model pair, left to test the stand-ins."""

from __future__ import annotations

from simcore.roles import Evidence, Role, StandIn
from simcore.systems.buysell.registry import DEFAULTS, FAMILY, LOGS, SYSTEM

#: (seller model, buyer model) -> (games, deals, median price) in the paper's logs, cost 40 / willingness 60
#: (benchmarks/results-buysell-logs.md); never used to set a stand-in's value
LOG_PAIRS = {("gpt-4", "gpt-4"): (80, 80, 46), ("gpt-4", "claude-2.1"): (60, 60, 46),
             ("gpt-4", "gpt-3.5"): (60, 58, 48),
             ("claude-2.1", "gpt-4"): (60, 60, 42), ("claude-2.1", "gpt-3.5"): (60, 60, 45),
             ("gpt-3.5", "gpt-4"): (60, 60, 38), ("gpt-3.5", "claude-2.1"): (60, 60, 48)}


def _role(seat: str) -> Role:
    ratio, step, evidence = next(iter(FAMILY[seat].values()))
    return Role(
        id=f"{SYSTEM}.{seat}", system=SYSTEM,
        llm="GPT-4 (gpt-4-1106-preview, temperature 0.7), GPT-3.5, Claude-2, Claude-2.1 (ratbench/utils.py:5-19, "
            "ratbench/agents/chatgpt.py:17-19 of the paper's code)",
        passage=f"games/buy_sell_game/prompt.py: the {('Player RED', 'Player BLUE')[seat == 'buyer']} LLM is given "
                "the rules, its own resources and its goal, nothing else",
        stand_in=DEFAULTS[seat],
        parameters=(Evidence("open_ratio", ratio, f"{evidence}; {LOGS}"),
                    Evidence("concession", step, f"{evidence}; {LOGS}"),
                    Evidence("accept", "at least its own next proposal (AC_next)",
                             "choice; the GPT-4 players accepted an offer a median 2 ZUP from their own last "
                             "proposal (benchmarks/results-buysell-logs.md)")),
        built_from="the openings and per-proposal concessions of each model in the paper's buy-sell logs "
                   "(cost 40, willingness 60)",
        left_to_test="the deals and median prices of each model pair in the same logs (LOG_PAIRS; the 'logs' "
                     "columns of `simcore run buysell`)",
        family=tuple(StandIn(name, {f"{seat}s": (name,)}, f"opens at {r:.3g} x its value, concedes {c:.3g} of the gap "
                             "per proposal", ev) for name, (r, c, ev) in FAMILY[seat].items()),
        default=next(iter(FAMILY[seat])))


ROLES = (_role("seller"), _role("buyer"))
