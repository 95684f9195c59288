"""The stand-in for an LLM player of NegotiationArena's buy-sell game: a time-based concession.

The paper gives both seats to an LLM with only the game's prompt (``games/buy_sell_game/prompt.py``
of its code: the rules, the player's own resources and goal -- "sell ... it costed 40" or "willing
to pay at most 60"); this rule stands in for it, in either seat.  Its reservation value ``r`` is
its own value (the seller's cost, the buyer's willingness).  Each turn it reads the other
player's turn with its language client (``buysell.read``), then, first row that holds:

| # | condition | action | source |
|---|---|---|---|
| 1 | the price it read is at least as good for it as its own next proposal | ACCEPT | choice: accept what the next own offer would ask for (AC_next, Baarslag et al. 2014); the paper's GPT-4 players accepted a median 2 ZUP from their own last proposal |
| 2 | it has a proposal left | PROPOSAL at ``r + (open - r) (1 - concession)^k``, ``open = open_ratio * r``, ``k`` its proposals so far, rounded toward its own side (the seller up, the buyer down) | ``open_ratio``, ``concession``: medians of the paper's logs (the registry entries); rounding: choice (whole ZUP: ``prompt.py:16``) |
| 3 | the price it read leaves it no loss (payoff >= 0) | ACCEPT | the goal: sell above the cost, pay at most the willingness (``ratbench/game_objects/goal.py:95, 117``) |
| 4 | otherwise | REJECT | ``prompt.py:24`` |

It speaks the decided move with ``buysell.speak``; either task's counted fallback is its
template (the move as decided, the price as written).
"""

from __future__ import annotations

import math
from typing import Any, Optional

from mockllm.buysell import READ, SPEAK, public_turn
from simcore.protocols.buysell import Action, Observation, trade_text


def speak(client, rng, seat: str, answer: str, price: Optional[int], market) -> tuple:
    """``(answer, price as the words state it, message)`` of a decided move (``buysell.speak``)."""
    ctx = dict(role=seat, answer=answer, price=price, item=market.item, money=market.money)
    return client.ask(SPEAK, rng, fallback=lambda: SPEAK.expected(ctx), **ctx)


class Concession:
    """A player conceding from ``open_ratio * r`` toward ``r`` by ``concession`` of the gap per proposal."""

    def __init__(self, seat: str, private: int, scenario: Any, client: Any, rng: Any, open_ratio: float = 1.0,
                 concession: float = 0.2):
        self.seat, self.value, self.market, self.client, self.rng = seat, private, scenario, client, rng
        self.open_ratio, self.concession = float(open_ratio), float(concession)
        self.sign = 1 if seat == "seller" else -1  # a higher price is better for the seller

    def target(self, k: int) -> int:
        """The price of its proposal number ``k`` (from 0), rounded toward its own side, within [0, budget]."""
        exact = self.value + (self.open_ratio * self.value - self.value) * (1.0 - self.concession) ** k
        rounded = math.ceil(exact - 1e-9) if self.sign > 0 else math.floor(exact + 1e-9)
        return min(max(0, rounded), self.market.budget)

    def no_worse(self, price: int, than: int) -> bool:
        return self.sign * (price - than) >= 0

    def read(self, obs: Observation) -> Optional[int]:
        """The price the other player's turn before proposed, as its words read (None: no proposal)."""
        if not obs.history or self.client is None:
            return obs.table
        t = obs.history[-1]
        ctx = dict(turn=public_turn(t.text, t.answer, trade_text(t.stated if type(t.stated) is int else None,
                                                               self.market.item, self.market.money)),
                   money=self.market.money, budget=self.market.budget)
        got = self.client.ask(READ, self.rng, fallback=lambda: READ.expected(ctx), **ctx)
        return got["price"] if got["answer"] == "PROPOSAL" else None

    def act(self, obs: Observation) -> Action:
        offered = self.read(obs)
        k = sum(1 for t in obs.history if t.speaker == obs.role and t.answer == "PROPOSAL")
        mine = self.target(k) if obs.proposals_left > 0 else None
        if offered is not None and mine is not None and self.no_worse(offered, mine):
            answer, price, why = "ACCEPT", None, f"{offered} is no worse than my next proposal {mine}"
        elif mine is not None:
            answer, price, why = "PROPOSAL", mine, f"proposal {k + 1}: {mine}"
        elif offered is not None and self.no_worse(offered, self.value):
            answer, price, why = "ACCEPT", None, f"no proposal left; {offered} leaves me no loss"
        else:
            answer, price, why = "REJECT", None, "no proposal left and nothing acceptable"
        hidden = {"read": offered, "next": mine}
        if self.client is None:
            return Action(answer, intent={"why": why}, hidden=hidden, price=price)
        said, stated, text = speak(self.client, self.rng, self.seat, answer, price, self.market)
        return Action(said, text, stated, {"why": why}, hidden)
