"""The MIND negotiation protocol as a game: item by item, proposer and voters, majority vote.

MIND Algorithm 1, step by step (``observation.step`` names the decision asked):

| step | who, when | decision | source |
|---|---|---|---|
| ``"propose"`` | every member once, in member order, before the first item | its own value for every negotiated item (the one legal decision), in one message | Phase 1, the global initial proposal (Table B6) |
| -- | each item starts: the current proposal is the proposal of the item's *proposer* (one member index per item, drawn by the caller so that variants can share it) | -- | Algorithm 1 line 4 |
| ``"vote"`` | each round, every other member (a *voter*) in member order | AGREE, or DISAGREE with a revised value among the item's options | Phase 2 (B5, B7, B8) |
| -- | consensus when more than half of the voters AGREE (1 of 2 is not enough) | -- | Algorithm 1 line 11 |
| ``"update"`` | the proposer, between rounds, after a round without consensus | KEEP, UPDATE or COMPROMISE, with a value among the options (the new proposal) | Phase 3 (B9) |
| -- | no consensus after ``max_rounds`` (3) rounds: the value of the member with the highest willingness (:func:`~simcore.protocols.travel_moves.fallback_value`) | -- | Algorithm 1 line 16 |

The game (:class:`TravelVoteGame`) starts a :class:`TravelVoteState`; the driver
(:mod:`simcore.driver`) gives the seat to act its :class:`Observation` and applies the
:class:`Action` its agent returns.  Seats are ``"m0" .. "m{n-1}"`` (member index); the
transcript names each member by its persona id, as the group gives it.

What a seat observes (:class:`Observation`): its own value and willingness for the item
(``me``; for ``"propose"`` its own preferences for every item), the current proposal and
who made it, for a vote the proposer's latest words (in round 1 its Phase-1 message), for
an update each dissenter's revised value and words, its own last offer, the round, the
number of voters and the item (its options).  Never another member's willingness or value:
a listener's guess of the speaker's willingness comes from reading the words.

An action carries the decision, the words (the seat's agent puts its decision into words
with its own language client: the game holds no generator and calls no model), the
readings the seat made of other members' words (:class:`Reading`: what the words read as,
the willingness the decision used, and whether the reader's answer was accepted), whether
its words carry its willingness (``toned``: it speaks with tone), and the notes of a role
played on a backend.  The game records an :class:`Appraisal` from each reading (the
speaker's true and meant willingness are the game's to know), the transcript events, each
item's :class:`ItemOutcome`, and at the end a :class:`GroupOutcome` (whose ``variant`` and
``fallbacks`` the set-up fills in: the model fallbacks are counted by the client, not here).

A vote or update whose value is not an option of the item, a decision of the wrong kind,
or a reading that is not one is an :class:`~simcore.errors.IllegalMove` (the driver blames
the agent); so is any action once the negotiation is over.  A KEEP may name any option, as
UPDATE and COMPROMISE do: the value it names is the proposal from then on.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence

import attrs
import numpy as np

from scenarios.travel import CATALOGUE, Group, Item, Preference, band_of, item as get_item
from simcore.contract import Legal, illegal
from simcore.errors import InputError
from simcore.protocols.travel_moves import Me, Update, Vote, fallback_value
from simcore.transcript import MODEL_DECISIONS, Transcript

STEPS = ("propose", "vote", "update")
#: the most options an item of the catalogue has (the finite view's width)
MAX_OPTIONS = max(len(it.options) for it in CATALOGUE)


@attrs.frozen
class Appraisal:
    reader: int
    speaker: int
    true_w: int
    guessed_w: int | None  # what the words read as (None: no intensity marker, or the reading was refused)
    used_w: int            # the inference: the reading, or the policy's no-cue guess
    phase: str             # "2a" (voter reads proposer) or "3" (proposer reads dissenter)
    round: int
    #: the willingness the speaker's words were to carry: its w when it speaks with tone, None
    #: when it speaks plain (its words carry no intensity)
    meant_w: int | None = None
    #: False when the reader's answer was refused and its fallback (no marker) stood in: a
    #: counted fallback, no reading
    accepted: bool = True

    @property
    def right(self) -> bool:
        """An accepted reading in the tone band of the willingness the speaker meant (MIND's
        tone grades the words by band, B5: Strict 9-10, Firm 7-8, Warm 4-6, Neutral 1-3), or
        no marker read from a speaker without tone."""
        if not self.accepted or (self.guessed_w is None) != (self.meant_w is None):
            return False
        return self.meant_w is None or band_of(self.guessed_w) == band_of(self.meant_w)


@attrs.frozen
class ItemOutcome:
    item: str
    values: tuple[str, ...] = attrs.field(converter=tuple)
    ws: tuple[int, ...] = attrs.field(converter=tuple)
    proposer: int
    final: str
    consensus: bool
    rounds: int
    appraisals: tuple[Appraisal, ...] = attrs.field(converter=tuple)


@attrs.frozen
class GroupOutcome:
    """One group's negotiation: each item's outcome and the transcript (``events``, a
    :class:`~simcore.transcript.Transcript`: its events are built when first read).
    ``variant`` names the policy the members played and ``fallbacks`` counts the language
    client's fallbacks (both filled in by the set-up that ran the group)."""

    group: str
    size: int
    variant: str
    items: tuple[ItemOutcome, ...] = attrs.field(converter=tuple)
    events: Any = attrs.field(eq=lambda ev: tuple(ev), repr=lambda ev: repr(tuple(ev)))
    fallbacks: int = 0


class Reading(NamedTuple):
    """A seat's reading of another member's words: the willingness they read as (None: no
    intensity marker, or the reader's answer was refused), the willingness its decision used
    (the reading, or its no-cue guess), and whether the reader's answer was accepted."""

    guessed_w: Optional[int]
    used_w: int
    accepted: bool


class Said(NamedTuple):
    """A dissenter as the proposer hears it: its member index, its revised value (public) and
    its words."""

    voter: int
    revised_value: str
    text: str


class Action(NamedTuple):
    """What a seat does: the decision (``"propose"``: the seat's own values, one per
    negotiated item in order -- :attr:`Observation.opening`; ``"vote"``: a
    :class:`~simcore.protocols.travel_moves.Vote`; ``"update"``: an
    :class:`~simcore.protocols.travel_moves.Update`), its words, the readings it made (a vote: none,
    or one of the proposer's words; an update: none, or one per dissenter in
    :attr:`Observation.dissents` order), whether its words carry its willingness, and the
    notes of a role on a backend (:mod:`mockllm.exchanges`).  (Per-decision value objects are
    named tuples: immutable, and cheap on the path every decision takes.)"""

    decision: Any
    text: str = ""
    readings: tuple = ()
    toned: bool = False
    notes: tuple = ()


class Observation(NamedTuple):
    """What a seat knows when it is asked (``step``; None when nothing is asked of it now).

    ``item`` is the item under negotiation (its key, label and options: public catalogue
    data; None in Phase 1), ``me`` the seat's own value and willingness for it,
    ``preferences`` the seat's own preferences for every negotiated item, in order.
    ``proposal`` is the current proposal and ``proposer`` the seat that made it.  For a vote
    ``words`` are the proposer's latest words (round 1: its Phase-1 message, which states its
    value for every item) and ``last_offer`` the value this seat offered in the previous
    round; for an update ``dissents`` are the dissenters' revised values and words."""

    step: Optional[str]
    seat: str
    member: int
    round: int
    max_rounds: int
    item: Optional[Item]
    me: Optional[Me]
    proposal: Optional[str]
    proposer: Optional[str]
    words: str
    dissents: tuple
    last_offer: Optional[str]
    voters: int
    preferences: tuple

    @property
    def options(self) -> tuple:
        """The item's options (the values a vote or update may name); () in Phase 1."""
        return self.item.options if self.item is not None else ()

    @property
    def opening(self) -> tuple:
        """The one legal ``"propose"`` decision: the seat's own value for every negotiated item."""
        return tuple(p.value for p in self.preferences)


@attrs.frozen
class TravelVoteGame:
    """The MIND protocol (registered as ``travel-vote-v1``): :meth:`start` a group's
    negotiation.  ``max_rounds``: Algorithm 1's round limit (3)."""

    max_rounds: int = attrs.field(default=3, validator=attrs.validators.ge(1), metadata={
        "source": "section 3.2 'If a consensus is not reached via a majority vote within three rounds, a Fallback "
                  "mechanism is applied'; Algorithm 1's Max Rounds T"})
    system = "mind"

    def start(self, group: Group, proposers: Sequence[int], run_id: str) -> "TravelVoteState":
        """The negotiation of ``group``'s items; ``proposers`` one member index per item;
        the transcript's run is ``run_id``."""
        return TravelVoteState(self, group, proposers, run_id)

    def seats(self, state: "TravelVoteState") -> tuple[str, ...]:
        return state.seats

    # -- the finite view (simcore.env, random play) ---------------------------------------
    #: index 0: propose (the one decision), AGREE, or KEEP the proposal; 1..K: DISAGREE with
    #: option k-1, or UPDATE to it; K+1..2K: COMPROMISE on option k-1 (K = MAX_OPTIONS)
    def action_count(self, state: "TravelVoteState", seat: str) -> int:
        return 1 + 2 * MAX_OPTIONS

    def decision(self, state: "TravelVoteState", seat: str, index: int) -> Action:
        """The action of index ``index`` without words (see :meth:`action_count`); an index the
        mask leaves out gives an action whose decision is None (illegal)."""
        obs = state.observe(seat)
        if not state.game.mask(state, seat)[index]:
            return Action(None)
        if obs.step == "propose":
            return Action(obs.opening)
        own = obs.me.value
        if index == 0:
            if obs.step == "vote":
                return Action(Vote("AGREE", "accept" if obs.proposal == own else "yield"))
            return Action(Update("KEEP", obs.proposal))
        value = obs.options[(index - 1) % MAX_OPTIONS]
        if obs.step == "vote":
            return Action(Vote("DISAGREE", "push" if value == own else "compromise", value))
        return Action(Update("UPDATE" if index <= MAX_OPTIONS else "COMPROMISE", value))

    def mask(self, state: "TravelVoteState", seat: str) -> list[bool]:
        obs = state.observe(seat)
        n = len(obs.options)
        if obs.step == "propose":
            return [True] + [False] * (2 * MAX_OPTIONS)
        if obs.step is None:
            return [False] * (1 + 2 * MAX_OPTIONS)
        first = [k < n for k in range(MAX_OPTIONS)]
        return [True] + first + (first if obs.step == "update" else [False] * MAX_OPTIONS)

    def features(self, state: "TravelVoteState", seat: str) -> np.ndarray:
        """The seat's observation as ``7 + 4 * MAX_OPTIONS`` floats:

        * ``[0:3]`` the step asked, one-hot (propose, vote, update; all 0 when none);
        * ``[3]`` round / max_rounds; ``[4]`` own willingness / 10 (0 in Phase 1);
          ``[5]`` voters / 7; ``[6]`` 1 when the seat is the item's proposer;
        * then four blocks of ``MAX_OPTIONS``, one entry per option of the item in catalogue
          order: the item's options (1 where it has one); the seat's own value (one-hot);
          the current proposal (one-hot); for a vote the seat's last offer (one-hot), for
          an update the share of voters whose revised value is that option."""
        obs = state.observe(seat)
        k = MAX_OPTIONS
        out = np.zeros(7 + 4 * k)
        if obs.step in STEPS:
            out[STEPS.index(obs.step)] = 1.0
        out[3] = obs.round / obs.max_rounds
        out[5] = obs.voters / 7
        if obs.item is None:
            return out
        options = obs.options
        out[4] = obs.me.w / 10
        out[6] = float(obs.proposer == seat)
        out[7:7 + len(options)] = 1.0
        out[7 + k + options.index(obs.me.value)] = 1.0
        out[7 + 2 * k + options.index(obs.proposal)] = 1.0
        if obs.step == "vote" and obs.last_offer in options:
            out[7 + 3 * k + options.index(obs.last_offer)] = 1.0
        for d in obs.dissents:
            out[7 + 3 * k + options.index(d.revised_value)] += 1.0 / max(obs.voters, 1)
        return out


_ACTS = {"KEEP": "keep", "UPDATE": "update", "COMPROMISE": "compromise"}


class TravelVoteState:
    """One group's negotiation in progress (the contract's ``State``).

    (Per-decision value objects are made with the named tuples' ``_make``: their own
    constructor from one sequence, without the keyword handling of ``Observation(...)``.)"""

    __slots__ = ("game", "group", "max_rounds", "proposers", "seats", "who", "items", "preferences", "transcript",
                 "outcome", "item", "round", "proposal", "step", "to_act", "_member", "_outcomes", "_opening",
                 "_toned", "_j", "_at", "_mes", "_values", "_ws", "_proposer", "_words", "_voters", "_last",
                 "_appraisals", "_votes", "_texts", "_agrees", "_proposer_seat")

    def __init__(self, game: TravelVoteGame, group: Group, proposers: Sequence[int], run_id: str):
        n = group.size
        if n < 2:
            raise InputError("group", group.id, f"a group needs at least 2 members, got {n}")
        if len(proposers) != len(group.items):
            raise InputError("proposers", str(list(proposers)), f"one proposer index per negotiated item: "
                                                               f"{len(group.items)} needed, {len(proposers)} given")
        bad = [p for p in proposers if not (isinstance(p, (int, np.integer)) and not isinstance(p, bool)
                                            and 0 <= p < n)]
        if bad:
            raise InputError("proposers", str(list(proposers)), f"each must be a member index 0..{n - 1}; "
                                                               f"bad: {bad}")
        self.game, self.group = game, group
        self.max_rounds = game.max_rounds
        self.proposers = tuple(int(p) for p in proposers)
        #: the seats, "m0" .. "m{n-1}" (member index), and each member's persona id (the transcript's speaker)
        self.seats = tuple(f"m{i}" for i in range(n))
        self.who = tuple(m.id for m in group.members)
        self.items = tuple(get_item(k) for k in group.items)
        #: each member's own preferences for the negotiated items, in order
        self.preferences = tuple(tuple(m.pref(k) for k in group.items) for m in group.members)
        self.transcript = Transcript(run_id)
        self.outcome: Optional[GroupOutcome] = None
        #: the item under negotiation (None in Phase 1), the round (0 in Phase 1), the current proposal
        self.item: Optional[Item] = None
        self.round = 0
        self.proposal: Optional[str] = None
        #: the step asked of the seat to act, and that seat (None once over)
        self.step: Optional[str] = "propose"
        self.to_act: Optional[str] = self.seats[0]
        self._member = {s: i for i, s in enumerate(self.seats)}
        self._outcomes: list[ItemOutcome] = []
        self._opening = [""] * n      # each member's Phase-1 words
        self._toned = [False] * n     # whether each member's latest words carry its willingness
        self._j = -1                  # the item under negotiation (index into self.items)
        self._at = 0                  # Phase 1: the member to propose; Phase 2: position in the voters

    # -- the contract --------------------------------------------------------------------
    def observe(self, seat: str) -> Observation:
        i = self._member[seat]
        prefs = self.preferences[i]
        step = self.step if seat == self.to_act else None
        item = self.item
        if item is None:  # Phase 1
            return _observation((step, seat, i, 0, self.max_rounds, None, None, None, None, "", (), None, 0, prefs))
        words, dissents, last = "", (), None
        if step == "vote":
            words, last = self._words, self._last[i]
        elif step == "update":
            votes, texts = self._votes, self._texts
            dissents = tuple(Said(v, votes[v].revised_value, texts[v]) for v in self._voters
                             if votes[v].vote == "DISAGREE")
        return _observation((step, seat, i, self.round, self.max_rounds, item, self._mes[i], self.proposal,
                             self._proposer_seat, words, dissents, last, len(self._voters), prefs))

    def legal(self, seat: str) -> Legal:
        mine = seat == self.to_act
        step = self.step if mine else None

        def check(action: Any) -> str:
            if not mine or seat != self.to_act:
                return f"it is not {seat}'s turn"
            return self._fault(action)

        if step is None:
            return Legal("", "nothing: it is not this seat's turn", check, None)
        mask = self.game.mask(self, seat)
        decisions = tuple(self.game.decision(self, seat, k).decision for k, ok in enumerate(mask) if ok)
        describe = {"propose": "an Action whose decision is the seat's own values (Observation.opening)",
                    "vote": "an Action whose decision is a Vote: AGREE, or DISAGREE with one of the item's options",
                    "update": "an Action whose decision is an Update: KEEP, UPDATE or COMPROMISE with one of the "
                              "item's options"}[step]
        return Legal(step, describe, check, decisions)

    def apply(self, action: Any) -> None:
        if self.to_act is None:
            raise illegal("the negotiation is over", action)
        why = self._fault(action)
        if why:
            raise illegal(why, action)
        step = self.step
        if step == "vote":
            self._apply_vote(action)
        elif step == "update":
            self._apply_update(action)
        else:
            self._apply_propose(action)

    # -- the rules of a move ---------------------------------------------------------------
    def _fault(self, action: Any) -> str:
        """Why ``action`` is not legal for the seat to act now, or ""."""
        if type(action) is not Action and not isinstance(action, Action):
            return f"act() must return a simcore.protocols.travel_vote.Action, not {type(action).__name__}"
        if type(action.text) is not str:
            return f"the words must be a str, not {type(action.text).__name__}"
        step, decision, readings = self.step, action.decision, action.readings
        if step == "vote":
            if type(decision) is not Vote and not isinstance(decision, Vote):
                return f"a vote's decision is a simcore.protocols.travel_moves.Vote, not {type(decision).__name__}"
            if decision.revised_value is not None and decision.revised_value not in self.item.options:
                return self._not_an_option()
            if readings and (len(readings) != 1 or not _reading(readings[0])):
                return "a vote's readings are () or one Reading (of the proposer's words)"
        elif step == "update":
            if type(decision) is not Update and not isinstance(decision, Update):
                return f"an update's decision is a simcore.protocols.travel_moves.Update, not {type(decision).__name__}"
            if decision.value not in self.item.options:
                return self._not_an_option()
            if readings:
                dissents = sum(1 for v in self._voters if self._votes[v].vote == "DISAGREE")
                if len(readings) != dissents or not all(_reading(r) for r in readings):
                    return f"an update's readings are () or one Reading per dissenter ({dissents})"
        else:
            if decision != self.opening_of(self._at):
                return "Phase 1's decision is the member's own values (Observation.opening)"
            if readings:
                return "Phase 1 reads no words"
        if type(action.toned) is not bool:
            return f"toned must be a bool, not {type(action.toned).__name__}"
        if type(action.notes) is not tuple and not isinstance(action.notes, (tuple, list)):
            return f"the notes must be a tuple, not {type(action.notes).__name__}"
        return ""

    def _not_an_option(self) -> str:
        item = self.item
        return f"the value must be an option of {item.key} ({', '.join(item.options)})"

    def opening_of(self, i: int) -> tuple:
        """Member ``i``'s one legal Phase-1 decision: its own values, in item order."""
        return tuple(p.value for p in self.preferences[i])

    # -- Phase 1 --------------------------------------------------------------------------
    def _apply_propose(self, action: Action) -> None:
        i = self._at
        self._opening[i] = action.text
        self._toned[i] = action.toned
        self.transcript.add_made(_propose_event, self.who[i], self.preferences[i], action.text)
        if i + 1 < len(self.seats):
            self._at = i + 1
            self.to_act = self.seats[i + 1]
        else:
            self._start_item(0)

    # -- Phase 2 and 3, per item -----------------------------------------------------------
    def _start_item(self, j: int) -> None:
        if j == len(self.items):
            self.step = self.to_act = None
            self.outcome = GroupOutcome(self.group.id, len(self.seats), "", self._outcomes, self.transcript)
            return
        self._j = j
        item = self.item = self.items[j]
        prefs = [p[j] for p in self.preferences]
        self._mes = [Me(item, p.value, p.w) for p in prefs]
        self._values = values = tuple([p.value for p in prefs])
        self._ws = ws = tuple([p.w for p in prefs])
        p = self._proposer = self.proposers[j]
        self._proposer_seat = self.seats[p]
        self.proposal = values[p]
        self._words = self._opening[p]
        self._voters = [i for i in range(len(prefs)) if i != p]
        self._last = [None] * len(prefs)
        self._appraisals: list[Appraisal] = []
        self.transcript.add_made(_pick_event, item.key, self.who[p], values[p], ws, values)
        self.round = 1
        self._round_starts()

    def _round_starts(self) -> None:
        self._votes: dict[int, Vote] = {}
        self._texts: dict[int, str] = {}
        self._agrees = 0
        self._at = 0
        self.step = "vote"
        self.to_act = self.seats[self._voters[0]]

    def _apply_vote(self, action: Action) -> None:
        voters = self._voters
        at = self._at
        i = voters[at]
        v, rnd = action.decision, self.round
        r = action.readings
        if r:
            p = self._proposer
            w = self._ws[p]
            r = r[0]
            self._appraisals.append(Appraisal(i, p, w, r.guessed_w, r.used_w, "2a", rnd, w if self._toned[p] else None,
                                              r.accepted))
        self._last[i] = v.revised_value
        self._toned[i] = action.toned
        self._votes[i] = v
        self._texts[i] = action.text
        if v.vote == "AGREE":
            self._agrees += 1
        me = self._mes[i]
        self.transcript.add_made(_vote_event, self.who[i], rnd, self.item.key, me.w, me.value, v.vote, v.revised_value,
                                 v.strategy, v.used_w, v.reason, r.guessed_w if r else None, action.text,
                                 action.notes)
        at += 1
        if at < len(voters):
            self._at = at
            self.to_act = self.seats[voters[at]]
            return
        agrees, n = self._agrees, len(voters)
        if agrees * 2 > n:
            self.transcript.add_made(_result_event, rnd, self.item.key, self.proposal, agrees, n)
            self._end_item(self.proposal, True, rnd)
        elif rnd == self.max_rounds:
            final, holder = fallback_value(self._values, self._ws)
            self.transcript.add_made(_fallback_event, rnd, self.item.key, final, self.who[holder], self.proposal)
            self._end_item(final, False, rnd)
        else:
            self.step = "update"
            self.to_act = self._proposer_seat

    def _apply_update(self, action: Action) -> None:
        p, rnd, up = self._proposer, self.round, action.decision
        dissenters = [i for i in self._voters if self._votes[i].vote == "DISAGREE"]
        ws, toned = self._ws, self._toned
        for i, r in zip(dissenters, action.readings):
            self._appraisals.append(Appraisal(p, i, ws[i], r.guessed_w, r.used_w, "3", rnd,
                                              ws[i] if toned[i] else None, r.accepted))
        toned[p] = action.toned
        me, r = self._mes[p], action.readings
        self.transcript.add_made(_update_event, self.who[p], rnd, self.item.key, me.w, me.value, up.action, up.value,
                                 up.reason, tuple([x.guessed_w for x in r]) if r else (None,) * len(dissenters),
                                 action.text, action.notes, len(dissenters), len(self._voters))
        self.proposal = up.value
        self._words = action.text
        self.round = rnd + 1
        self._round_starts()

    def _end_item(self, final: str, consensus: bool, rounds: int) -> None:
        self._outcomes.append(ItemOutcome(self.item.key, self._values, self._ws, self._proposer, final, consensus,
                                          rounds, self._appraisals))
        self._start_item(self._j + 1)


_observation = Observation._make


def _reading(r: Any) -> bool:
    """True when ``r`` is a :class:`Reading` of a willingness on MIND's 1-10 scale."""
    if not isinstance(r, Reading):
        return False
    g, used = r.guessed_w, r.used_w
    return ((g is None or (isinstance(g, (int, np.integer)) and not isinstance(g, bool) and 1 <= g <= 10))
            and isinstance(used, (int, np.integer)) and not isinstance(used, bool) and type(r.accepted) is bool)


# -- the transcript's events (made when the transcript is first read, from plain values: a
# transcript kept unread holds no decision object alive) ---------------------------------------
def _pick_event(key: str, proposer: str, proposal: str, ws: tuple, values: tuple) -> tuple:
    return ("protocol", "1-pick", 0, key, {"proposer": proposer, "proposal": proposal}, "", None,
            {"w": list(ws), "values": list(values)})


def _result_event(rnd: int, key: str, value: str, agrees: int, voters: int) -> tuple:
    return ("protocol", "result", rnd, key, {"outcome": "consensus", "value": value, "agree": agrees,
                                              "voters": voters}, "", None, None)


def _fallback_event(rnd: int, key: str, value: str, holder: str, last: str) -> tuple:
    return ("protocol", "fallback", rnd, key, {"outcome": "fallback", "value": value, "holder": holder,
                                                "last_proposal": last}, "", None, None)


def _propose_event(who: str, prefs: tuple[Preference, ...], text: str) -> tuple:
    return (who, "1-propose", 0, None, {"proposals": {p.item: p.value for p in prefs}}, text, None,
            {"w": {p.item: p.w for p in prefs}})


def _vote_event(who: str, rnd: int, key: str, w: int, own: str, vote: str, revised: Optional[str], strategy: str,
                used_w: Optional[int], reason: str, guessed_w: Optional[int], text: str, notes: tuple) -> tuple:
    hidden = {"w": w, "own_value": own, "guessed_w": guessed_w, "strategy": strategy, "used_w": used_w,
              "reason": reason}
    if notes:
        hidden[MODEL_DECISIONS] = list(notes)
    return who, "2-vote", rnd, key, {"vote": vote, "revised_value": revised}, text, None, hidden


def _update_event(who: str, rnd: int, key: str, w: int, own: str, action: str, value: str, reason: str,
                  read: tuple, text: str, notes: tuple, dissents: int, voters: int) -> tuple:
    hidden = {"w": w, "own_value": own, "dissent": f"{dissents} of {voters}", "read_dissent_w": list(read),
              "reason": reason}
    if notes:
        hidden[MODEL_DECISIONS] = list(notes)
    return who, "3-update", rnd, key, {"action": action, "value": value}, text, None, hidden


def act_word(update: Update) -> str:
    """The speech act an update is said as (``keep``, ``update``, ``compromise``)."""
    return _ACTS[update.action]


__all__ = ["TravelVoteGame", "TravelVoteState", "Observation", "Action", "Reading", "Said", "Appraisal",
           "ItemOutcome", "GroupOutcome", "MAX_OPTIONS", "STEPS", "act_word"]
