"""The buy-sell game in the PettingZoo environment (:mod:`simcore.env`) and in ``check_policy``.

Options (``simcore.make_env("buysell", **options)``): those of
:func:`simcore.systems.buysell.match.episode`: ``seller``, ``buyer``, ``cost``, ``value``,
``budget``, ``turns``, ``enforce_limit``, ``backend``.  Actions of either seat, ``Discrete(budget +
3)``: ``i <= budget`` a proposal at price ``i``, then ACCEPT, REJECT.  Observation:
:meth:`simcore.protocols.buysell.BuySellGame.features` (8 numbers).  Payoff: the seat's payoff
(0 without a trade).
"""

from __future__ import annotations

from typing import Any

from simcore.contract import Match
from simcore.envspec import EnvSpec
from simcore.registry import registered, resolve
from simcore.systems.buysell.match import OPTIONS, VoicedSeat, episode_match
from simcore.systems.buysell.registry import SYSTEM
from simcore.systems.buysell.render import render_run

#: check_policy's turn limit: twice the study's, so that late turns are played
CHECK_TURNS = 20


class BuySellEnv(EnvSpec):
    system, options = SYSTEM, OPTIONS

    def match(self, seq, options: dict) -> Match:
        return episode_match(seq, **options)

    def voice(self, match: Match, seat: str, agent) -> Any:
        return VoicedSeat(agent, match.setups[seat])

    def rewards(self, match: Match, result) -> dict:
        return {"seller": result[0].seller_payoff, "buyer": result[0].buyer_payoff}

    def truncated(self, result) -> bool:
        return result[0].status == "turn_limit"

    def render(self, events) -> str:
        return render_run(events) if events else ""

    def steps(self, seat: str) -> tuple[str, ...]:
        return ("turn",)

    def opponents(self, seat: str, policy: Any) -> list[str]:
        """Every built-in stand-in of the other seat."""
        other = "buyer" if seat == "seller" else "seller"
        return [i for i in registered("policy", system=SYSTEM) if resolve("policy", i).meta.get("role") == other]

    def check_match(self, seq, seat: str, policy: Any, opponent: Any, rounds: Any) -> Match:
        """A game with ``policy`` in ``seat`` against ``opponent`` (None: the default stand-in, replaced
        by random legal play) over :data:`CHECK_TURNS` turns unless told, with the noise-free mock."""
        other = "buyer" if seat == "seller" else "seller"
        return episode_match(seq, turns=rounds or CHECK_TURNS, backend="mock-exact-v1",
                             **{seat: policy, other: opponent})

    def findings(self, match: Match, result, seat: str) -> list[tuple]:
        """The seat's proposals the game refused as invalid (a price it cannot hold)."""
        return [(e.round, f"its proposal was refused as invalid: {e.intent.get('reason')}")
                for e in result[0].events if e.phase == "invalid" and e.intent.get("player") == seat]


ENV = BuySellEnv()
