"""Alternating-offers bargaining between an agent and a partner (ASTRA, section 2.2), as a game.

| rule | source |
|---|---|
| Turns alternate; the partner opens (a greeting in the published runs). One *round* is a partner turn then an agent turn. | ASTRA Table 7 ("Hello! let's start the negotiation!"); public code (the partner opens) |
| A turn is an utterance with an optional offer, or ACCEPT, or WALK-AWAY. | section 2.2 (response modes) |
| ACCEPT is legal only when the offer on the table (the latest valid offer) was made by the other side; it ends the negotiation with that outcome. | section 2.2 |
| WALK-AWAY ends the negotiation without agreement. | section 2.2 |
| After ``round_limit`` rounds (default 15) with no agreement the negotiation ends without agreement. | choice (the paper gives no round count): the reference notes' 15 of the published runs (the code's default is 12) |
| At the start of the round in which ``warn_rounds`` (default 2) rounds remain, counting that round, the partner is told that two rounds remain and that no deal scores 0 (the notice is public). | choice from the public code (the paper has no deadline): its moderator speaks after the agent's turn of 0-based round ``n_round - 3``, i.e. just before 1-based round N-1: "After the next 2 rounds ... neither of you will receive anything"; ``warn_rounds=3`` is the reference notes' wording ("three rounds before the end") |
| A stated offer that asks for more units than exist, leaves units unassigned, or names a value an issue does not have is rejected with its reason and recorded as an ``invalid`` event; the turn's words stand but nothing is put on the table. | 5.3, Table 9 ("Item Mis-Specification"); rejecting it: choice (the paper only reports the error) |
| Without agreement both sides score 0 (``no_deal_payoff="zero"``, the paper's Table 1 averages) or their BATNA (``"batna"``, CaSiNo). | Table 1 (0.15 x 24.33 = 3.65 all-case); notes |

The game (:class:`AlternatingGame`) starts an :class:`AlternatingState`; the driver
(:mod:`simcore.driver`) gives the seat to act its :class:`Observation` -- the public history
(words, valid offers, invalid-move reasons, the deadline notice) and its own values -- and
applies the :class:`Action` its agent returns.  The state holds no generator; agents carry
their own.

An action carries the decision and, where the seat speaks, its words.  The offer a turn puts
on the table is the one its words state (``stated``: the language model's statement, from the
speaker's point of view) when they state one -- what was said is what counts -- and otherwise
the decided outcome (``offer``, a seat that does not speak).  An offer move that states a
malformed offer, or none at all, is an invalid move like an over-specified one (Table 9, by
extension; a choice): recorded with its reason and counted, never an exit 2.  An action a
seat may not take (ACCEPT with nothing of the other side's on the table, an unknown kind, an
offer that is not one of the domain's outcomes) is an :class:`~simcore.errors.IllegalMove`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, Optional

import attrs
import numpy as np

from scenarios.bilateral import Domain, IllegalOffer, Valuation
from simcore.contract import Legal, illegal
from simcore.transcript import Transcript

ACTION_KINDS = ("talk", "offer", "accept", "walk_away")
SEATS = ("partner", "agent")  # in turn order: the partner opens


#: the empty payload an Action's intent and hidden notes default to (read-only: never shared state)
_NOTHING: Mapping[str, Any] = MappingProxyType({})


class Action(NamedTuple):
    """What a seat does on its turn: ``kind`` (one of :data:`ACTION_KINDS`), the words, the
    offer as the words state it (speaker's point of view, or None), the structured intent and
    private notes, and the decided outcome (``offer``: the agent's units, as
    :meth:`Domain.outcomes` lists them).  (The per-turn value objects of this game -- Action,
    Turn, Observation -- are named tuples: immutable like the frozen attrs classes elsewhere,
    and made several times faster, on the one path every turn takes.)"""

    kind: str
    text: str = ""
    stated: Optional[Mapping[str, Any]] = None
    intent: Mapping[str, Any] = _NOTHING
    hidden: Mapping[str, Any] = _NOTHING
    offer: Optional[tuple] = None


class Turn(NamedTuple):
    """One public turn as both sides saw it."""

    speaker: str
    kind: str
    text: str
    offer: Optional[tuple] = None  # canonical outcome (agent's units) when a valid offer was made
    invalid: str = ""  # reason when the stated offer was rejected
    round: int = 0


class Observation(NamedTuple):
    """What the seat to act knows: its role, the round, the public history and its own values."""

    role: str
    round: int
    round_limit: int
    history: tuple[Turn, ...]
    deadline_warned: bool
    values: Optional[Valuation] = None
    #: the one decision of this game: a turn
    step = "turn"

    @property
    def rounds_left(self) -> int:
        """Rounds left including the current one."""
        return self.round_limit - self.round + 1

    def offers_by(self, speaker: str) -> list[tuple]:
        return [t.offer for t in self.history if t.speaker == speaker and t.offer is not None]

    @property
    def table(self) -> Optional[Turn]:
        """The latest turn that put a valid offer on the table."""
        for t in reversed(self.history):
            if t.offer is not None:
                return t
        return None

    def last(self, speaker: str) -> Optional[Turn]:
        for t in reversed(self.history):
            if t.speaker == speaker:
                return t
        return None


#: the game's own constructors of its per-turn values from their fields in order (the named
#: tuples' ``_make``: one tuple in, no argument parsing)
_observation, _turn = Observation._make, Turn._make


@attrs.frozen
class Episode:
    """One negotiation's result; ``events`` its transcript."""

    events: Any = attrs.field(eq=lambda ev: tuple(ev), repr=lambda ev: repr(tuple(ev)))
    status: str  # "agreement" | "walk_away" | "no_agreement"
    outcome: Optional[tuple]
    agent_score: float
    partner_score: float
    rounds: int
    walked_by: str = ""
    invalid_moves: int = 0


def _shape_fault(stated: Any) -> str:
    """Why a stated offer is not the shape :meth:`Domain.check_offer` reads, or ""."""
    if type(stated) is not dict and not isinstance(stated, Mapping):  # (a dict skips the ABC check)
        return "the stated offer is not an object"
    for part in ("self", "other", "shared"):
        v = stated.get(part)
        if v is not None and type(v) is not dict and not isinstance(v, Mapping):
            return f"the stated offer's {part!r} is not an object"
    return ""


@attrs.frozen
class AlternatingGame:
    """The alternating-offers protocol (registered as ``alternating-offers-v1``)."""

    round_limit: int = attrs.field(default=15, validator=attrs.validators.ge(1))
    warn_rounds: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    no_deal_payoff: str = attrs.field(default="zero", validator=attrs.validators.in_(("zero", "batna")))
    system = "astra"
    seats = SEATS

    def start(self, domain: Domain, agent_values: Valuation, partner_values: Valuation,
              run_id: str) -> "AlternatingState":
        """A negotiation on ``domain`` with each side's values, its transcript under ``run_id``."""
        return AlternatingState(self, domain, agent_values, partner_values, run_id)

    def notice(self) -> str:
        return f"Only {self.warn_rounds} rounds remain. Without a deal both sides score 0."

    # -- the finite view (simcore.env): offer outcome i, accept, walk away, talk ----------
    def action_count(self, state: "AlternatingState", seat: str) -> int:
        return len(state.domain.outcomes) + 3

    def decision(self, state: "AlternatingState", seat: str, index: int) -> Action:
        """The action of index ``index`` without words: an offer of outcome ``index``, or
        accept / walk away / talk."""
        outcomes = state.domain.outcomes
        if index < len(outcomes):
            return Action("offer", offer=outcomes[index])
        return Action(ACTION_KINDS[(2, 3, 0)[index - len(outcomes)]])

    def mask(self, state: "AlternatingState", seat: str) -> list[bool]:
        n = len(state.domain.outcomes)
        if state.to_act != seat:
            return [False] * (n + 3)
        table = state.table
        can_accept = table is not None and table.speaker != seat
        return [True] * n + [can_accept, True, True]

    def feature_count(self, domain: Domain) -> int:
        return 4 + 3 * len(domain.outcomes)

    def features(self, state: "AlternatingState", seat: str) -> np.ndarray:
        """The seat's observation as numbers (:meth:`feature_count` of them): the share of the
        rounds played, the deadline notice (0/1), whether an offer is on the table and whether
        the other side made it; then, per outcome in :meth:`Domain.outcomes` order, the seat's
        own score of it divided by its best score, a 1 where it is the offer on the table, and
        a 1 where it is the seat's own latest offer."""
        d = state.domain
        n = len(d.outcomes)
        out = np.zeros(4 + 3 * n, dtype=np.float32)
        out[0] = (state.round - 1) / max(1, self.round_limit)
        out[1] = float(state.warned)
        table = state.table
        if table is not None:
            out[2] = 1.0
            out[3] = float(table.speaker != seat)
            out[4 + n + d.outcomes.index(table.offer)] = 1.0
        own = d.scores(state.values[seat], seat)
        best = max(own) or 1.0
        out[4:4 + n] = [x / best for x in own]
        for t in reversed(state.history):
            if t.speaker == seat and t.offer is not None:
                out[4 + 2 * n + d.outcomes.index(t.offer)] = 1.0
                break
        return out


class AlternatingState:
    """One alternating-offers negotiation in progress (the contract's ``State``)."""

    seats = SEATS

    def __init__(self, game: AlternatingGame, domain: Domain, agent_values: Valuation,
                 partner_values: Valuation, run_id: str):
        self.game, self.domain = game, domain
        self.values = {"agent": agent_values, "partner": partner_values}
        self.transcript = Transcript(run_id)
        #: the seat to act (the partner opens), None once over
        self.to_act: Optional[str] = "partner"
        self.outcome: Optional[Episode] = None
        self.round = 1
        self.history: tuple[Turn, ...] = ()
        self.table: Optional[Turn] = None  # the latest turn that put a valid offer on the table
        self.warned = False
        self._invalid = 0
        self._limit = game.round_limit
        #: the round that starts with the deadline notice (0: none)
        self._warn_round = game.round_limit - game.warn_rounds + 1 if game.warn_rounds else 0
        self._outcomes = domain.score_table(agent_values, "agent")  # every outcome, with the agent's score
        self._partner_scores = domain.score_table(partner_values, "partner")
        #: what the transcript's turn events are made from: never the state itself (the transcript
        #: outlives it and refers to nothing that refers back to it, so both go with their last reference)
        self._scoring = (domain, self._outcomes, self._partner_scores)
        self._round_starts()

    # -- the contract ------------------------------------------------------------------
    def observe(self, seat: str) -> Observation:
        return _observation((seat, self.round, self._limit, self.history, self.warned, self.values[seat]))

    def legal(self, seat: str) -> Legal:
        table = self.table
        mine = self.to_act == seat
        can_accept = mine and table is not None and table.speaker != seat
        kinds = (("offer", "talk", "walk_away") + (("accept",) if can_accept else ())) if mine else ()

        def check(action: Any) -> str:
            if not mine:
                return f"it is not {seat}'s turn"
            if not isinstance(action, Action):
                return f"expected simcore.protocols.alternating.Action, got {type(action).__name__}"
            if action.kind not in kinds:
                return f"{action.kind!r} is not legal now; legal: {', '.join(kinds)}"
            if action.offer is not None and action.offer not in self._outcomes:
                return f"the offer {action.offer!r} is not an outcome of {self.domain.id}"
            return ""

        return Legal("turn", f"an Action of kind {', '.join(kinds) or '(none: not your turn)'}", check,
                     kinds or None)

    def apply(self, action: Any) -> None:
        role = self.to_act
        if role is None:
            raise illegal("the negotiation is over", action)
        if type(action) is not Action and not isinstance(action, Action):
            raise illegal(f"act() must return an Action, not {type(action).__name__}", action)
        kind, text, stated, _, _, offer = action
        rnd = self.round
        if kind == "offer" or kind == "talk":
            if stated is None and offer is not None:  # a decided outcome, not stated in words
                if offer not in self._outcomes:
                    raise illegal(f"the offer is not an outcome of {self.domain.id}", action)
                reason = ""
            else:
                offer, reason = _read_offer(self.domain, stated, role, kind)
            self.transcript.add_made(_turn_event, self._scoring, role, rnd, action, offer)
            if offer is not None:
                turn = self.table = _turn((role, "offer", text, offer, "", rnd))
            else:
                turn = _turn((role, kind, text, None, reason, rnd))
                if reason:
                    self._invalid += 1
                    self.transcript.add("system", "invalid", rnd, None,
                                        {"player": role, "reason": reason, "stated": stated},
                                        f"{role}'s offer rejected: {reason}")
            self.history += (turn,)
            if role == "partner":
                self.to_act = "agent"
            elif rnd == self._limit:
                self._end("no_agreement", None, "")
            else:
                self.to_act = "partner"
                self.round = rnd = rnd + 1
                if rnd == self._warn_round:
                    self._round_starts()
        elif kind == "accept":
            table = self.table
            if table is None or table.speaker == role:
                raise illegal("ACCEPT is legal only with an offer of the other side on the table", action)
            self.transcript.add(role, "accept", rnd, None, dict(action.intent), text, None, dict(action.hidden))
            self._end("agreement", table.offer, "")
        elif kind == "walk_away":
            self.transcript.add(role, "walk_away", rnd, None, dict(action.intent), text, None, dict(action.hidden))
            self._end("walk_away", None, role)
        else:
            raise illegal(f"unknown kind {kind!r}; an action is one of {', '.join(ACTION_KINDS)}", action)

    # -- the rules between turns ---------------------------------------------------------
    def _round_starts(self) -> None:
        if self.round == self._warn_round and not self.warned:
            self.warned = True
            self.transcript.add("system", "deadline", self.round, None, None, self.game.notice())

    def _end(self, status: str, outcome: Optional[tuple], walked_by: str) -> None:
        d, rnd = self.domain, self.round
        if outcome is not None:
            sa, sp = self._outcomes[outcome], self._partner_scores[outcome]
        elif self.game.no_deal_payoff == "batna":
            sa = sp = float(d.batna)
        else:
            sa = sp = 0.0
        self.transcript.add_made(_end_event, d, status, outcome, rnd, walked_by, self._invalid, sa, sp)
        self.to_act = None
        self.outcome = Episode(self.transcript, status, outcome, sa, sp, rnd, walked_by, self._invalid)


def _turn_event(scoring: tuple, role: str, rnd: int, action: Action, offer: Optional[tuple]) -> tuple:
    """A talk or offer turn's event (made when the transcript is read): the action's intent
    and notes, and for an offer the outcome and its text in the intent, both sides' true
    scores in the hidden part (``scoring``: the domain, the agent's and the partner's score
    tables)."""
    intent, hidden = dict(action.intent), dict(action.hidden)
    if offer is not None:
        domain, agent_scores, partner_scores = scoring
        intent["offer"] = list(offer)
        intent["offer_text"] = domain.describe_outcome(offer)
        hidden["true_scores"] = [agent_scores[offer], partner_scores[offer]]
    return role, intent.get("mode", action.kind), rnd, None, intent, action.text, None, hidden


def _end_event(d: Domain, status, outcome, rnd, walked_by, invalid, sa, sp) -> tuple:
    """The end event (made when the transcript is read): the status and the outcome, both
    sides' scores and the invalid moves counted in the hidden part."""
    text = {"agreement": "Deal reached.", "walk_away": f"The {walked_by} walked away.",
            "no_agreement": "No agreement within the round limit."}[status]
    intent = {"status": status, "outcome": list(outcome) if outcome is not None else None,
              "outcome_text": d.describe_outcome(outcome) if outcome is not None else None}
    return ("system", "end", rnd, None, intent, text, None,
            {"agent_score": sa, "partner_score": sp, "invalid_moves": invalid})


def _read_offer(domain, stated, role: str, kind: str) -> tuple:
    """``(the outcome, "")`` of a turn's stated offer, or ``(None, why it is rejected)``;
    ``(None, "")`` for a turn that states none and is no offer move (the module docstring's rules)."""
    if stated is not None:
        reason = _shape_fault(stated)
        if reason:
            return None, reason
        try:
            return domain.check_offer(stated, role), ""
        except IllegalOffer as exc:
            return None, str(exc)
    if kind == "offer":  # the offer is as the model stated it: its fault
        return None, "the offer move states no offer"
    return None, ""
