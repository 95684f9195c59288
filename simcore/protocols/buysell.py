"""NegotiationArena's buy-sell game (Bianchi et al. 2024, "How Well Can LLMs Negotiate?
NegotiationArena Platform and Analysis"), as a game.

Sources: the authors' code of the paper's experiments, github.com/vinid/NegotiationArena, branch
``paper_experiment_code`` (paths below are in it; ``games/buy_sell_game/`` is ``bs/``).

| rule | source |
|---|---|
| Two seats: the seller (Player RED) holds one object ``X`` and knows its production cost; the buyer (Player BLUE) holds money (ZUP) and knows its willingness to pay. Each is told only its own value. | ``bs/prompt.py:7-9``; ``ratbench/game_objects/goal.py:91-117`` (BuyerGoal, SellerGoal); ``bs/prompt.py:46-51`` (a player's own resources and goal) |
| The seller moves first; turns alternate. | ``ratbench/alternating_game.py:38-39`` (turn 0: Player RED), ``:99-105`` |
| A turn is a message and one answer: PROPOSAL with a trade ``Player RED Gives X: 1 \\| Player BLUE Gives ZUP: amount`` in whole ZUP, ACCEPT, or REJECT. | ``bs/prompt.py:14-26`` |
| The other player sees the message, the answer and the proposed trade; a player's reasoning, resources, goal and proposal count are private. | ``bs/interface.py:15-25, 59-66`` |
| ACCEPT takes the trade proposed in the turn before and ends the game with it. | ``bs/game.py:72, 94-96, 113-121`` |
| REJECT ends the game without a trade. | ``bs/game.py:72, 122-123``; ``bs/prompt.py:24-28`` |
| ACCEPT or REJECT in the first turn ends the game without a trade (nothing was proposed). | ``bs/game.py:81-88`` |
| The game ends after ``turns`` turns (10 in the paper's experiments); a proposal in the last turn goes unanswered. | ``bs/game.py:73``; ``experiments/section_one/experiment_buysell.py:46`` |
| A player makes at most ``turns // 2 - 1`` proposals of its own (4 of its 5 turns); after them it may only ACCEPT or REJECT. | ``bs/prompt.py:30-31``; ``bs/game.py:55`` |
| With a trade at price p the seller's payoff is p - cost and the buyer's value - p; without one both get 0. | ``bs/game.py:113-130``; ``ratbench/game_objects/valuation.py:15-22`` |

Choices (each a parameter):

| choice | why |
|---|---|
| A proposal beyond the limit is illegal (``enforce_limit=True``); ``False`` allows it, as the paper's code does. | the code only tells the model the limit ("DO NOT propose a new trade after ..."); refusing it keeps the finite action set exact |
| A price is a whole number from 0 to ``budget``, the buyer's money (100). | whole ZUP: ``bs/prompt.py:16``; the buyer holds 100 ZUP: ``experiment_buysell.py:53``; bounding the price by it is a choice (the buy-sell game never calls ``Trade.can_accept``) |
| A PROPOSAL whose words state no price, or one outside [0, budget], is an invalid move: recorded with its reason and counted; its words stand and nothing is on the table; ACCEPT then ends the game without a trade. | the paper's code raises on a trade it cannot read and its experiment loop drops the game (``experiment_buysell.py:70-78``): that is the experiment's rule, not the game's, so there is no game parameter for it; a study keeps every game and counts the moves |

The state holds no generator and calls no agent: the driver (:mod:`simcore.driver`) gives the
seat to act its :class:`Observation` and applies the :class:`Action` its agent returns.  The
price a PROPOSAL puts on the table is the one its words state (``stated``, the language model's
trade) when it has words, else the decided ``price`` (a seat that does not speak); a decided
price that is no whole number in [0, budget] is an :class:`~simcore.errors.IllegalMove`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, Optional

import attrs
import numpy as np

from simcore.contract import Legal, illegal
from simcore.transcript import Transcript

SEATS = ("seller", "buyer")  # in turn order: the seller (Player RED) opens
ANSWERS = ("PROPOSAL", "ACCEPT", "REJECT")
_NOTHING: Mapping[str, Any] = MappingProxyType({})
_whole = [attrs.validators.instance_of(int), attrs.validators.ge(0)]


@attrs.frozen
class Market:
    """The public part of a scenario: the buyer's money (the price bound) and the names."""

    budget: int
    item: str
    money: str


@attrs.frozen
class Scenario:
    """One buy-sell game: the seller's cost, the buyer's willingness to pay (both private), the
    buyer's money (the price bound, public) and the names of the object and the money."""

    cost: int = attrs.field(default=40, validator=_whole)
    value: int = attrs.field(default=60, validator=_whole)
    budget: int = attrs.field(default=100, validator=[attrs.validators.instance_of(int), attrs.validators.ge(1)])
    item: str = "X"
    money: str = "ZUP"

    @property
    def market(self) -> Market:
        return Market(self.budget, self.item, self.money)

    def private(self, seat: str) -> int:
        return self.cost if seat == "seller" else self.value


def trade_text(price: Optional[int], item: str = "X", money: str = "ZUP") -> str:
    """A trade as the paper's prompt writes it (``bs/prompt.py:18``), ``NONE`` for none."""
    return "NONE" if price is None else f"Player RED Gives {item}: 1 | Player BLUE Gives {money}: {price}"


class Action(NamedTuple):
    """A turn: the answer (:data:`ANSWERS`), the message, the price as the words state it, the
    structured intent and private notes, and the decided price (a seat without words)."""

    answer: str
    text: str = ""
    stated: Any = None
    intent: Mapping[str, Any] = _NOTHING
    hidden: Mapping[str, Any] = _NOTHING
    price: Optional[int] = None


class Turn(NamedTuple):
    """One turn as both seats saw it; ``price`` is what it put on the table (None: nothing)."""

    speaker: str
    answer: str
    text: str
    stated: Any
    price: Optional[int]
    invalid: str
    turn: int


class Observation(NamedTuple):
    """What the seat to act knows: its role, the turn, the public record, its own value (cost or
    willingness), the price bound and how many proposals it has left."""

    role: str
    turn: int
    turn_limit: int
    history: tuple
    value: int
    budget: int
    proposals_left: int
    step = "turn"  # the one decision of this game

    @property
    def table(self) -> Optional[int]:
        """The price ACCEPT would take: the turn before's, when it put one on the table."""
        return self.history[-1].price if self.history else None


@attrs.frozen
class Episode:
    """One game's result; ``status`` is ``deal``, ``rejected``, ``turn_limit`` or ``nothing_to_accept``."""

    events: Any = attrs.field(eq=lambda ev: tuple(ev), repr=lambda ev: repr(tuple(ev)))
    status: str
    price: Optional[int]
    seller_payoff: int
    buyer_payoff: int
    turns: int
    ended_by: str = ""
    invalid_moves: int = 0


@attrs.frozen
class BuySellGame:
    """The buy-sell game (registered as ``buy-sell-v1``)."""

    turns: int = attrs.field(default=10, validator=attrs.validators.ge(2))
    enforce_limit: bool = True
    system = "buysell"
    seats = SEATS

    @property
    def proposal_limit(self) -> int:
        return self.turns // 2 - 1

    def start(self, scenario: Scenario, run_id: str) -> "BuySellState":
        return BuySellState(self, scenario, run_id)

    # -- the finite view: propose price i (0..budget), accept, reject -----------------------
    def action_count(self, state: "BuySellState", seat: str) -> int:
        return state.scenario.budget + 3

    def decision(self, state: "BuySellState", seat: str, index: int) -> Action:
        budget = state.scenario.budget
        return Action("PROPOSAL", price=index) if index <= budget else Action(ANSWERS[index - budget])

    def mask(self, state: "BuySellState", seat: str) -> list[bool]:
        n = state.scenario.budget + 1
        if state.to_act != seat:
            return [False] * (n + 2)
        return [state.may_propose(seat)] * n + [True, True]

    feature_count = 8

    def features(self, state: "BuySellState", seat: str) -> np.ndarray:
        """The seat's observation as 8 numbers, prices and values divided by the budget: the
        share of the turns played, its own value, 1 for the seller, the share of its proposals
        left, whether a price is on the table and that price, its own latest price and the
        other seat's latest price (0 where there is none)."""
        b, limit = float(state.scenario.budget), self.proposal_limit
        own = [t.price for t in state.history if t.speaker == seat and t.price is not None]
        other = [t.price for t in state.history if t.speaker != seat and t.price is not None]
        table = state.table
        return np.array([(state.turn - 1) / self.turns, state.scenario.private(seat) / b, float(seat == "seller"),
                         state.proposals_left(seat) / limit if limit else 0.0, float(table is not None),
                         (table or 0) / b, (own[-1] if own else 0) / b, (other[-1] if other else 0) / b],
                        dtype=np.float32)


class BuySellState:
    """One buy-sell game in progress (the contract's ``State``)."""

    seats = SEATS

    def __init__(self, game: BuySellGame, scenario: Scenario, run_id: str):
        self.game, self.scenario = game, scenario
        self.transcript = Transcript(run_id)
        self.to_act: Optional[str] = "seller"
        self.outcome: Optional[Episode] = None
        self.turn = 1
        self.history: tuple = ()
        self.table: Optional[int] = None  # the price the turn before put on the table
        self._proposed = {"seller": 0, "buyer": 0}
        self._invalid = 0

    def proposals_left(self, seat: str) -> int:
        return max(0, self.game.proposal_limit - self._proposed[seat])

    def may_propose(self, seat: str) -> bool:
        return not self.game.enforce_limit or self.proposals_left(seat) > 0

    # -- the contract --------------------------------------------------------------------
    def observe(self, seat: str) -> Observation:
        return Observation(seat, self.turn, self.game.turns, self.history, self.scenario.private(seat),
                           self.scenario.budget, self.proposals_left(seat))

    def legal(self, seat: str) -> Legal:
        mine = self.to_act == seat
        answers = (ANSWERS if self.may_propose(seat) else ANSWERS[1:]) if mine else ()

        def check(action: Any) -> str:
            if not mine:
                return f"it is not {seat}'s turn"
            if not isinstance(action, Action):
                return f"expected simcore.protocols.buysell.Action, got {type(action).__name__}"
            if action.answer not in answers:
                return f"{action.answer!r} is not legal now; legal: {', '.join(answers)}"
            if action.answer == "PROPOSAL" and action.stated is None and action.price is None and not action.text:
                return "a PROPOSAL needs a price"
            return self._bad_price(action.price) if action.price is not None else ""

        return Legal("turn", f"an Action answering {', '.join(answers) or '(none: not your turn)'}", check,
                     answers or None)

    def apply(self, action: Any) -> None:
        seat = self.to_act
        if seat is None:
            raise illegal("the negotiation is over", action)
        if not isinstance(action, Action):
            raise illegal(f"act() must return a simcore.protocols.buysell.Action, not {type(action).__name__}",
                          action)
        answer, t = action.answer, self.turn
        if answer == "PROPOSAL":
            if not self.may_propose(seat):
                raise illegal(f"no proposals left (at most {self.game.proposal_limit} of one's own; then only "
                              "ACCEPT or REJECT)", action)
            if action.stated is None and action.price is None and not action.text:
                raise illegal("a PROPOSAL needs a price", action)
            if action.stated is None and action.price is not None:  # a decided price, not stated in words
                reason = self._bad_price(action.price)
                if reason:
                    raise illegal(reason, action)
                stated = action.price
            else:
                stated = action.stated
                reason = self._bad_price(stated) if stated is not None else "the proposal states no price"
            price = None if reason else stated
            self.transcript.add_made(self._turn_event, seat, t, action, stated, price)
            if reason:
                self._invalid += 1
                self.transcript.add("system", "invalid", t, None, {"player": seat, "reason": reason,
                                                                    "stated": stated},
                                    f"{seat}'s proposal refused: {reason}")
            self._proposed[seat] += 1
            self.history += (Turn(seat, answer, action.text, stated, price, reason, t),)
            self.table = price
            if t == self.game.turns:
                self._end("turn_limit", None, "")
            else:
                self.turn, self.to_act = t + 1, SEATS[t % 2]
        elif answer in ("ACCEPT", "REJECT"):
            table = self.table if answer == "ACCEPT" else None
            self.transcript.add_made(self._turn_event, seat, t, action, None, table)
            self.history += (Turn(seat, answer, action.text, None, None, "", t),)
            status = "rejected" if answer == "REJECT" else "deal" if table is not None else "nothing_to_accept"
            self._end(status, table, seat)
        else:
            raise illegal(f"unknown answer {answer!r}; an answer is one of {', '.join(ANSWERS)}", action)

    def _bad_price(self, price: Any) -> str:
        if type(price) is not int or not 0 <= price <= self.scenario.budget:
            s = self.scenario
            return f"the price {price!r} is not a whole number of {s.money} from 0 to {s.budget}"
        return ""

    def _payoffs(self, price: Optional[int]) -> list:
        s = self.scenario
        return [0, 0] if price is None else [price - s.cost, s.value - price]

    def _turn_event(self, seat: str, t: int, action: Action, stated: Any, price: Optional[int]) -> tuple:
        intent, hidden = dict(action.intent), dict(action.hidden)
        intent["answer"] = action.answer
        if action.answer == "PROPOSAL":
            intent["trade"] = trade_text(stated if type(stated) is int else None, self.scenario.item,
                                         self.scenario.money)
        intent["price"] = price
        if price is not None:
            hidden["payoffs"] = self._payoffs(price)
        return seat, action.answer.lower(), t, None, intent, action.text, None, hidden

    def _end(self, status: str, price: Optional[int], ended_by: str) -> None:
        s, t = self.scenario, self.turn
        sp, bp = self._payoffs(price)
        text = {"deal": f"Deal at {price} {s.money}.", "rejected": f"The {ended_by} rejected: no trade.",
                "turn_limit": f"No trade within {self.game.turns} turns.",
                "nothing_to_accept": f"The {ended_by} accepted with nothing proposed: no trade."}[status]
        self.transcript.add("system", "end", t, None, {"status": status, "price": price}, text, None,
                            {"seller_payoff": sp, "buyer_payoff": bp, "cost": s.cost, "value": s.value,
                             "invalid_moves": self._invalid})
        self.to_act = None
        self.outcome = Episode(self.transcript, status, price, sp, bp, t, ended_by, self._invalid)
