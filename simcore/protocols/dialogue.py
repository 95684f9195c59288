"""The utterance-by-utterance cooperative dialogue of the dominance agent, as a game.

Utterances (seed sections 1-5; notes "Utterances")::

    StatePreference(criterion, less, more)   "I prefer <more> to <less>"; one side may be
                                             None: (None, v) "v is my favourite",
                                             (v, None) "v is what I like least"
    AskPreference(criterion[, less, more])   "What cuisine do you like?" / "X or Y?"
    Propose(Proposal(type, value))           type = a criterion (value proposal) or the
                                             topic, e.g. "restaurant" (option proposal)
    Accept(Proposal), Reject(Proposal)
    Booking(option)                          closes the dialogue with success
    Quit(reason)                             the exit condition: no compromise left

``Quit`` is this library's name for the seed's exit condition ("checks if the
negotiation is at a dead end"); the seed gives it no utterance.

| rule | source |
|---|---|
| Two seats, ``agent`` and ``user``, take turns; either may open (the study alternates). | choice: the seed never says who speaks first |
| Each reply answers the other side's last utterance as its speaker's seat *read it from the words*; the listener learns only from the text. | seed sections 2-5 (the agent reacts to what the user says); notes |
| An utterance must be legal on the public record (:func:`why_illegal`): values of their own criterion, known options, an accept or reject only of what the other side proposed, a booking only of what the other side proposed (or accepted after the speaker proposed it), nothing after a booking or a quit. | seed Figs. 4-6 (accept / book what was proposed); choice: the checks a protocol makes |
| A reading is a model's output and is checked (:func:`reading_fault`): one that is no legal move of its speaker ends the dialogue ``unreadable``, counted; so does a move illegal only because its speaker acted on an earlier reading that passed every check but was not what was said. | choice: model output is never trusted |
| The dialogue ends on Booking (``booked``), Quit (``dead-end``; ``stalled`` for the repeat backstop's quit), a reading that cannot be used (``unreadable``) or ``max_turns`` utterances (``turn-limit``, 40). | seed Fig. 5-6 (booking); exit note; notes (thesis): "A dialogue fails after 40 turns" |

The game (:class:`DialogueGame`) starts a :class:`DialogueState`; the driver
(:mod:`simcore.driver`) gives the seat to act its :class:`Observation` and applies the
action its agent returns.  An utterance takes two steps: the speaker's move (``open``, then
``reply``: a :class:`Say`, the decision and its words) and the listener's ``read`` (its
reading of the words: an utterance or :class:`Unreadable`), after which the turn is recorded
as one :class:`~simcore.transcript.Event` with the reading in its ``cues``.  The state holds
no generator and calls no agent and no language client: each seat speaks and reads with its
own.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Union

import attrs
import numpy as np

from simcore.contract import Legal, illegal
from simcore.errors import IllegalMove, InputError
from simcore.transcript import Transcript


def _opt_str(inst, attr, value):
    if value is not None and (not isinstance(value, str) or not value):
        raise ValueError(f"{attr.name} must be a non-empty string or None, got {value!r}")


def _str(inst, attr, value):
    if not isinstance(value, str) or not value:
        raise ValueError(f"{attr.name} must be a non-empty string, got {value!r}")


@attrs.frozen
class Proposal:
    """Proposal(Type, Value) of the seed: ``type`` is a criterion or the topic."""

    type: str = attrs.field(validator=_str)
    value: str = attrs.field(validator=_str)

    def to_dict(self) -> dict:
        return {"type": self.type, "value": self.value}


@attrs.frozen
class StatePreference:
    criterion: str = attrs.field(validator=_str)
    less: Optional[str] = attrs.field(default=None, validator=_opt_str)
    more: Optional[str] = attrs.field(default=None, validator=_opt_str)
    kind = "state"

    def __attrs_post_init__(self):
        if self.less is None and self.more is None:
            raise ValueError("StatePreference needs at least one of less / more")
        if self.less == self.more:
            raise ValueError(f"StatePreference compares {self.less!r} with itself")

    def to_dict(self) -> dict:
        return {"kind": "state", "criterion": self.criterion, "less": self.less, "more": self.more}


@attrs.frozen
class AskPreference:
    criterion: str = attrs.field(validator=_str)
    less: Optional[str] = attrs.field(default=None, validator=_opt_str)
    more: Optional[str] = attrs.field(default=None, validator=_opt_str)
    kind = "ask"

    def __attrs_post_init__(self):
        if self.less is not None and self.less == self.more:
            raise ValueError(f"AskPreference compares {self.less!r} with itself")

    def to_dict(self) -> dict:
        return {"kind": "ask", "criterion": self.criterion, "less": self.less, "more": self.more}


@attrs.frozen
class _ProposalAct:
    """An utterance about one proposal; subclasses differ only in ``kind`` (and are
    never equal to each other: attrs compares classes)."""

    proposal: Proposal = attrs.field(validator=attrs.validators.instance_of(Proposal))
    kind = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, **self.proposal.to_dict()}


@attrs.frozen
class Propose(_ProposalAct):
    kind = "propose"


@attrs.frozen
class Accept(_ProposalAct):
    kind = "accept"


@attrs.frozen
class Reject(_ProposalAct):
    kind = "reject"


@attrs.frozen
class Booking:
    option: str = attrs.field(validator=_str)
    kind = "booking"

    def to_dict(self) -> dict:
        return {"kind": "booking", "option": self.option}


@attrs.frozen
class Quit:
    reason: str = "no compromise left"  # the seed's dead end; STALLED: simcore's repeat backstop
    kind = "quit"

    def to_dict(self) -> dict:
        return {"kind": "quit", "reason": self.reason}


#: a Quit's reason when simcore's repeat backstop ends a cycling dialogue (``exit.repeat`` with
#: ``stall_outcome``, dominance-*-v3): the outcome is "stalled", not the seed's "dead-end"
STALLED = "going round in circles"

Utterance = Union[StatePreference, AskPreference, Propose, Accept, Reject, Booking, Quit]
UTTERANCE_TYPES = (StatePreference, AskPreference, Propose, Accept, Reject, Booking, Quit)
KINDS = tuple(t.kind for t in UTTERANCE_TYPES)
CLOSING = ("booking", "quit")


@attrs.frozen
class Unreadable:
    """A reading that says clearly why a text could not be read as an utterance.

    ``unread``: no reader's answer stands behind it -- the answer was refused (the reader's
    counted fallback) or the participant has no reader -- so it is no reading at all;
    otherwise it is what the reader answered."""

    why: str
    unread: bool = attrs.field(default=False, eq=False, kw_only=True)
    kind = "unreadable"

    def to_dict(self) -> dict:
        return {"kind": "unreadable", "why": self.why}


def utterance_from_dict(d: Mapping[str, Any], source: str = "utterance") -> Utterance | Unreadable:
    """Inverse of ``to_dict``; a malformed dict is an :class:`InputError`."""
    if not isinstance(d, Mapping) or "kind" not in d:
        raise InputError(source, "kind", "missing")
    kind = d["kind"]
    try:
        if kind == "state":
            return StatePreference(d["criterion"], d.get("less"), d.get("more"))
        if kind == "ask":
            return AskPreference(d["criterion"], d.get("less"), d.get("more"))
        if kind in ("propose", "accept", "reject"):
            cls = {"propose": Propose, "accept": Accept, "reject": Reject}[kind]
            return cls(Proposal(d["type"], d["value"]))
        if kind == "booking":
            return Booking(d["option"])
        if kind == "quit":
            return Quit(d.get("reason", "no compromise left"))
        if kind == "unreadable":
            return Unreadable(str(d.get("why", "")))
    except KeyError as exc:
        raise InputError(source, str(exc.args[0]), f"missing for kind {kind!r}") from None
    except (TypeError, ValueError) as exc:
        raise InputError(source, kind, str(exc)) from None
    raise InputError(source, "kind", f"unknown kind {kind!r}; valid: {', '.join(KINDS)}")


def subject(utt: Utterance, topic: str) -> str | None:
    """The criterion (or topic) an utterance is about."""
    if isinstance(utt, (StatePreference, AskPreference)):
        return utt.criterion
    if isinstance(utt, (Propose, Accept, Reject)):
        return utt.proposal.type
    if isinstance(utt, Booking):
        return topic
    return None


# legality -------------------------------------------------------------------
class PublicRecord(NamedTuple):
    """What the legality rules read: who proposed and who accepted which proposal, and
    whether the dialogue is closed (a booking or a quit was said).  A value: :meth:`add`
    returns the record with one more utterance (the same record when the utterance changes
    none of these), so a record an observation holds stays as it was.  (A named tuple, like
    the game's other per-turn values: immutable, and cheap on the path every turn takes.)"""

    proposals: frozenset = frozenset()   # (Proposal, speaker) pairs
    acceptances: frozenset = frozenset()  # (Proposal, speaker) pairs
    speakers: frozenset = frozenset()    # every speaker who proposed or accepted
    closed: bool = False

    def add(self, speaker: str, utt) -> "PublicRecord":
        kind = utt.kind
        if kind == "propose" or kind == "accept":
            speakers = self.speakers if speaker in self.speakers else self.speakers | {speaker}
            if kind == "propose":
                return PublicRecord(self.proposals | {(utt.proposal, speaker)}, self.acceptances, speakers,
                                    self.closed)
            return PublicRecord(self.proposals, self.acceptances | {(utt.proposal, speaker)}, speakers, self.closed)
        if kind in CLOSING:
            return PublicRecord(self.proposals, self.acceptances, self.speakers, True)
        return self

    def proposed_by(self, speaker: str, p: Proposal) -> bool:
        return (p, speaker) in self.proposals

    def proposed_by_other(self, speaker: str, p: Proposal) -> bool:
        proposals = self.proposals
        return any((p, s) in proposals for s in self.speakers if s != speaker)

    def accepted_by_other(self, speaker: str, p: Proposal) -> bool:
        acceptances = self.acceptances
        return any((p, s) in acceptances for s in self.speakers if s != speaker)


def why_illegal(domain, record: PublicRecord, speaker: str, utt: Any) -> str:
    """``""`` when ``utt`` is a legal utterance for ``speaker`` on ``record``, else the rule
    it breaks (named after the speaker, as :class:`IllegalMove` says it)."""
    if not isinstance(utt, UTTERANCE_TYPES):
        if isinstance(utt, Unreadable):  # a text seat's words its reader could not read
            return f"{speaker}: its words could not be read as a move ({utt.why})"
        return f"{speaker}: {utt!r} is not an utterance"
    if record.closed:
        return f"{speaker}: the dialogue is already closed"
    kind = utt.kind
    if kind == "state" or kind == "ask":
        c = utt.criterion
        if not domain.has_criterion(c):
            return f"{speaker}: unknown criterion {c!r}"
        for v in (utt.less, utt.more):
            if v is not None and domain.criterion_of(v) != c:
                return f"{speaker}: {v!r} is not a value of criterion {c!r}"
        return ""
    if kind == "propose" or kind == "accept" or kind == "reject":
        p = utt.proposal
        if p.type == domain.topic:
            opt = domain.option(p.value)
            if opt is None or opt.name != p.value:
                return f"{speaker}: unknown {domain.topic} {p.value!r}"
        elif domain.has_criterion(p.type):
            if domain.criterion_of(p.value) != p.type:
                return f"{speaker}: {p.value!r} is not a value of criterion {p.type!r}"
        else:
            return f"{speaker}: proposal type {p.type!r} is neither a criterion nor the topic"
        if kind != "propose" and not record.proposed_by_other(speaker, p):
            return f"{speaker}: {kind} of {p.value!r}, which the other side never proposed"
        return ""
    if kind == "booking":
        opt = domain.option(utt.option)
        if opt is None or opt.name != utt.option:
            return f"{speaker}: booking of unknown {domain.topic} {utt.option!r}"
        p = Proposal(domain.topic, utt.option)
        if not record.proposed_by_other(speaker, p) and not (record.accepted_by_other(speaker, p)
                                                             and record.proposed_by(speaker, p)):
            return (f"{speaker}: booking {utt.option!r}, which the other side neither proposed "
                    "nor accepted")
    return ""


def check_legal(domain, record: PublicRecord, speaker: str, utt: Any) -> None:
    """Raise :class:`IllegalMove` unless ``utt`` is a legal utterance for ``speaker`` now
    (:func:`why_illegal`)."""
    why = why_illegal(domain, record, speaker, utt)
    if why:
        raise IllegalMove(why)


def reading_fault(domain, record: PublicRecord, speaker: str, said: Any, reading: Any) -> str:
    """Why ``reading`` -- the listener's reading of what ``speaker`` just said -- cannot be
    right, or "" when it can (an :class:`Unreadable` is never faulted here).

    The reading comes from a language model, so it is checked like any model output: it
    must be a move ``speaker`` could legally have made on the public ``record`` before
    this turn (:func:`why_illegal`; e.g. no accept or reject of a proposal the listener
    never made, no value outside its criterion), and it may close the dialogue (booking,
    quit) only when the protocol closes it, since nobody can reply to a closing move.
    A faulted reading is a model error: the game turns it into an :class:`Unreadable`
    (the dialogue ends "unreadable", as after a reader's fallback) and counts it in
    :attr:`DialogueResult.misreadings`; it is never a user's bad input.
    """
    if isinstance(reading, Unreadable):
        return ""
    if not isinstance(reading, UTTERANCE_TYPES):
        return f"the reading {reading!r} is not an utterance"
    why = why_illegal(domain, record, speaker, reading)
    if why:
        return f"the reading is not a legal move of the speaker ({why})"
    if reading.kind in CLOSING and getattr(said, "kind", None) not in CLOSING:
        return f"the reading is not a legal move of the speaker (a {reading.kind}, but the dialogue goes on)"
    return ""


def replay_record(domain, turns: Sequence[tuple[str, Utterance]]) -> PublicRecord:
    """Check a sequence of (speaker, utterance) for legality; return the record."""
    record = PublicRecord()
    for speaker, utt in turns:
        check_legal(domain, record, speaker, utt)
        record = record.add(speaker, utt)
    return record


def catalogue(domain) -> tuple:
    """Every utterance of ``domain``, in a fixed order: the finite set a move or a reading is
    drawn from (the finite view's decisions).  Per criterion in domain order, the stated
    preferences (less, more) then the questions; per proposal -- each criterion's values,
    then each option -- a Propose, an Accept and a Reject; a Booking of each option; the two
    quits (the seed's dead end, the repeat backstop's :data:`STALLED`)."""
    out: list = []
    for c in domain.criteria:
        sides = (None,) + tuple(c.values)
        out += [StatePreference(c.name, less, more) for less in sides for more in sides
                if less != more]
        out += [AskPreference(c.name, less, more) for less in sides for more in sides
                if less is None or less != more]
    proposals = [Proposal(c.name, v) for c in domain.criteria for v in c.values]
    proposals += [Proposal(domain.topic, o.name) for o in domain.options]
    for kind in (Propose, Accept, Reject):
        out += [kind(p) for p in proposals]
    out += [Booking(o.name) for o in domain.options]
    out += [Quit(), Quit(STALLED)]
    return tuple(out)


# the game ---------------------------------------------------------------------
SEATS = ("agent", "user")
_OTHER = MappingProxyType({"agent": "user", "user": "agent"})  # each seat's other side
#: the decisions a seat is asked for (``observation.step``); "wait": nothing (not its turn),
#: "over": the dialogue has ended
OPEN, REPLY, READ, WAIT, OVER = "open", "reply", "read", "wait", "over"
_READINGS = UTTERANCE_TYPES + (Unreadable,)


@attrs.frozen
class Decision:
    """A reply and the rule that chose it (figure + branch), for the decision log."""

    utterance: Any
    figure: str
    rule: str
    why: str = ""


class Say(NamedTuple):
    """A move: the speaker's :class:`Decision` and its words (``text``; ``None`` only for a
    move its speaker found illegal before saying it, which the game refuses or, after a
    misreading, counts)."""

    decision: Decision
    text: Optional[str]

    @property
    def utterance(self):
        return self.decision.utterance


class Observation(NamedTuple):
    """What a seat may know now, and the decision it is asked (``step``).

    * ``seat``, ``relation`` (its relation of dominance, as its agent declares it) and
      ``prefs`` -- its own preferences (``{criterion: Preferences}``; ``None`` for a seat that
      has none, such as a scripted user);
    * ``turn`` -- the number of the utterance being made (open, reply) or read (read), of
      ``max_turns``;
    * ``said`` -- the public record: every utterance so far as ``(speaker, words)``;
    * ``mine`` -- the utterances this seat said, in order (what it meant);
    * ``heard`` -- at ``reply``, this seat's own reading of the other side's last words;
    * ``text`` -- at ``read``, the words to read;
    * ``record`` -- what the legality rules read (:class:`PublicRecord`): whether a move is
      legal is public, as ``legal(seat)`` lists the legal moves; :meth:`why_not` checks one;
    * ``domain`` -- the public scenario (criteria, values, options).

    Nothing of the other side's meaning crosses but through the words: what the other meant
    (its utterances), its preferences and its relation are not here.  (The per-step values of
    this game -- Observation, Say, PublicRecord -- are named tuples: immutable like the frozen
    attrs classes elsewhere, and made several times faster, on the path every step takes.)"""

    seat: str
    step: str
    relation: str
    prefs: Any
    turn: int
    max_turns: int
    said: tuple
    mine: tuple
    heard: Any
    text: str
    record: PublicRecord
    domain: Any

    def why_not(self, utterance: Any) -> str:
        """``""`` when ``utterance`` is a legal move of this seat now, else the rule it breaks."""
        if self.step != OPEN and self.step != REPLY:
            return f"{self.seat} has no move to make now ({self.step})"
        return why_illegal(self.domain, self.record, self.seat, utterance)


@attrs.frozen
class DialogueResult:
    """A dialogue's result (the state's ``outcome`` once it is over)."""

    outcome: str                       # "booked" | "dead-end" | "stalled" | "turn-limit" | "unreadable"
    turns: int
    booked: str | None
    booked_by: str | None
    #: the transcript (a :class:`~simcore.transcript.Transcript`: events built when first read)
    events: Any = attrs.field(eq=lambda ev: tuple(ev), repr=lambda ev: repr(tuple(ev)))
    utterances: tuple = attrs.field(converter=tuple)  # (speaker, Utterance, Decision)
    #: model errors the protocol caught (each ended the dialogue as "unreadable"): a reading
    #: that is no legal move of its speaker (:func:`reading_fault`), or a move that was
    #: illegal only because its participant acted on an earlier misreading (a reading that
    #: passed every check yet was not what was said); a policy's illegal move with every
    #: reading right is still :class:`IllegalMove`, an internal error
    misreadings: int = 0
    #: readings accepted of the utterances said (one per turn whose reading was neither the
    #: reader's fallback nor faulted by :func:`reading_fault`: those are counted fallbacks),
    #: and how many of them were exactly what was said: a parsed reading is not a right one
    readings: int = 0
    readings_right: int = 0

    @property
    def success(self) -> bool:
        return self.outcome == "booked"


def _max_turns(_inst, _attr, value) -> None:
    if type(value) is not int or value < 1:
        raise InputError("dialogue", "max_turns", f"must be an int >= 1, got {value!r}")


@attrs.frozen
class DialogueGame:
    """The dialogue protocol (registered as ``dominance-dialogue-v1``): turns alternate
    until Booking, Quit or ``max_turns`` utterances (the notes' 40).

    Each utterance takes two steps.  The speaker's (``open`` for the first utterance,
    ``reply`` after): a :class:`Say`, its decision and its words.  The listener's (``read``):
    its reading of those words, an utterance or :class:`Unreadable` -- a model output, which
    the game checks (:func:`reading_fault`) and records in the turn's event (``cues``).
    Splitting the turn so keeps the words the agents' business (each speaks and reads with
    its own language client) while the game sees every reading it must check."""

    max_turns: int = attrs.field(default=40, validator=_max_turns)
    system = "dominance"
    seats = SEATS

    def start(self, domain, first_seat: str, run_id: str, *, prefs: Optional[Mapping[str, Any]] = None,
              relations: Optional[Mapping[str, str]] = None) -> "DialogueState":
        """A dialogue on ``domain`` that ``first_seat`` opens, its transcript under ``run_id``;
        ``prefs`` and ``relations`` give each seat its own (its observations hold them)."""
        if first_seat not in SEATS:
            raise InputError("dialogue", "first_seat", f"{first_seat!r}; valid: {', '.join(SEATS)}")
        return DialogueState(self, domain, first_seat, run_id, prefs or {}, relations or {})

    # -- the finite view (simcore.env): the domain's utterances ---------------------------
    def action_count(self, state: "DialogueState", seat: str) -> int:
        return len(state.catalogue())

    def decision(self, state: "DialogueState", seat: str, index: int) -> Any:
        """The utterance of index ``index`` (:func:`catalogue` order): at ``open`` / ``reply`` a
        move without words (the seat's voice says it), at ``read`` a reading."""
        return state.catalogue()[index]

    def mask(self, state: "DialogueState", seat: str) -> list[bool]:
        """Which utterances are legal now: the legal moves at ``open`` / ``reply``, the
        readings :func:`reading_fault` accepts at ``read``; none when it is not ``seat``'s
        turn."""
        cat = state.catalogue()
        if seat != state.to_act:
            return [False] * len(cat)
        domain, record = state.domain, state.record
        if state.step == READ:
            speaker, said = state.other[seat], state.pending.decision.utterance
            return [not reading_fault(domain, record, speaker, said, u) for u in cat]
        return [not why_illegal(domain, record, seat, u) for u in cat]

    def feature_count(self, domain) -> int:
        n_values = sum(len(c.values) for c in domain.criteria)
        return 4 + n_values + len(KINDS) + 5 * (n_values + len(domain.options))

    def features(self, state: "DialogueState", seat: str) -> np.ndarray:
        """The seat's observation as numbers (:meth:`feature_count` of them), with V the
        domain's values (each criterion's, in domain order) and O its options:

        * 0: the share of the turn limit used, ``(turn - 1) / max_turns``;
        * 1-3: the step asked of the seat (open, reply, read; all 0 when none);
        * V: the seat's own score of each value divided by its criterion's best score
          (0 without preferences);
        * 7: the kind of the utterance the seat heard (at reply; :data:`KINDS` order);
        * V + O: what it heard names: a proposal's value or option 1 (a booking's option
          1; a stated preference's preferred value 1, its other value -1; an asked value 1);
        * 4 x (V + O): each value's and option's proposal made by the seat, by the other
          side; accepted by the seat, by the other side (the public record)."""
        index = state.feature_index()
        d = state.domain
        n_values = sum(len(c.values) for c in d.criteria)
        n_props = n_values + len(d.options)
        out = np.zeros(self.feature_count(d), dtype=np.float32)
        out[0] = (state.turn - 1) / self.max_turns
        step = state.step if seat == state.to_act else WAIT
        if step in (OPEN, REPLY, READ):
            out[1 + (OPEN, REPLY, READ).index(step)] = 1.0
        prefs = state.prefs.get(seat)
        at = 4
        if prefs:
            for c in d.criteria:
                scores = prefs[c.name].scores()
                best = max(scores.values()) or 1
                for v in c.values:
                    out[at + index[(c.name, v)]] = scores[v] / best
        at += n_values
        heard = state.heard.get(seat) if step == REPLY else None
        if heard is not None and heard.kind in KINDS:
            out[at + KINDS.index(heard.kind)] = 1.0
        at += len(KINDS)
        if heard is not None:
            for key, x in _named(heard, d.topic):
                if key in index:
                    out[at + index[key]] = x
        at += n_props
        sides = (seat, _OTHER[seat])
        for pairs in (state.record.proposals, state.record.acceptances):
            for p, who in pairs:
                key = (p.type, p.value)
                if who in sides and key in index:
                    out[at + sides.index(who) * n_props + index[key]] = 1.0
            at += 2 * n_props
        return out


def _named(utt, topic: str) -> list:
    """``((type, value), weight)`` of what an utterance names, for :meth:`DialogueGame.features`."""
    kind = utt.kind
    if kind == "state":
        return [((utt.criterion, v), x) for v, x in ((utt.more, 1.0), (utt.less, -1.0)) if v is not None]
    if kind == "ask":
        return [((utt.criterion, v), 1.0) for v in (utt.less, utt.more) if v is not None]
    if kind in ("propose", "accept", "reject"):
        return [((utt.proposal.type, utt.proposal.value), 1.0)]
    if kind == "booking":
        return [((topic, utt.option), 1.0)]
    return []


class DialogueState:
    """One dialogue in progress (the contract's ``State``)."""

    seats = SEATS

    def __init__(self, game: DialogueGame, domain, first_seat: str, run_id: str, prefs: Mapping[str, Any],
                 relations: Mapping[str, str]):
        self.game, self.domain = game, domain
        self.max_turns = game.max_turns
        self.prefs = {"agent": prefs.get("agent"), "user": prefs.get("user")}
        self.relations = {"agent": relations.get("agent", ""), "user": relations.get("user", "")}
        #: each seat's other side
        self.other = _OTHER
        self.transcript = Transcript(run_id)
        #: the seat to act, None once over; the decision asked of it
        self.to_act: Optional[str] = first_seat
        self.step = OPEN
        self.outcome: Optional[DialogueResult] = None
        self.turn = 1
        self.record = PublicRecord()
        self.said: tuple = ()
        self.mine = {"agent": (), "user": ()}
        self.heard: dict = {"agent": None, "user": None}
        #: the move being read (a Say), between the speaker's step and the listener's
        self.pending: Optional[Say] = None
        self.utterances: list = []
        self.misread = self.read_n = self.read_right = 0
        #: a reading that passed every check yet was not what was said has reached a seat
        self.misled = False
        #: the model errors the game caught, ``(turn, seat, what)``: a reading refused, a move
        #: resting on a misreading (each counted in the result's ``misreadings``)
        self.faults: list = []
        self._catalogue: Optional[tuple] = None
        self._index: Optional[dict] = None

    # -- the contract ------------------------------------------------------------------
    def observe(self, seat: str) -> Observation:
        if seat == self.to_act:
            step = self.step
            if step == READ:
                return Observation(seat, step, self.relations[seat], self.prefs[seat], self.turn, self.max_turns,
                                   self.said, self.mine[seat], None, self.pending.text, self.record, self.domain)
            return Observation(seat, step, self.relations[seat], self.prefs[seat], self.turn, self.max_turns,
                               self.said, self.mine[seat], self.heard[seat], "", self.record, self.domain)
        return Observation(seat, OVER if self.to_act is None else WAIT, self.relations[seat], self.prefs[seat],
                           self.turn, self.max_turns, self.said, self.mine[seat], None, "", self.record,
                           self.domain)

    def legal(self, seat: str) -> Legal:
        step = self.step if seat == self.to_act else (OVER if self.to_act is None else WAIT)
        domain, record = self.domain, self.record
        if step == READ:
            speaker, said = _OTHER[seat], self.pending.decision.utterance

            def check_reading(action: Any) -> str:
                if isinstance(action, _READINGS):
                    return ""
                return f"a reading is an utterance or Unreadable, not {type(action).__name__}"

            return Legal(READ, "a reading of the other side's words: an utterance or Unreadable", check_reading,
                         tuple(u for u in self.catalogue() if not reading_fault(domain, record, speaker, said, u)))
        if step in (OPEN, REPLY):
            def check_move(action: Any) -> str:
                if isinstance(action, str):  # words: the seat's reader reads them into the move
                    return "" if action.strip() else "empty words"
                utt = _utterance(action)
                return why_illegal(domain, record, seat, utt) if utt is not None else _not_a_move(action)

            return Legal(step, "a move: Say(Decision(utterance, ...), words), a Decision or an utterance (the "
                               "seat's voice says it), or words (the seat's reader reads them)", check_move,
                         tuple(u for u in self.catalogue() if not why_illegal(domain, record, seat, u)))
        why = "the dialogue is over" if step == OVER else f"it is not {seat}'s turn"
        return Legal(step, f"nothing: {why}", lambda action: why, None)

    def apply(self, action: Any) -> None:
        seat = self.to_act
        if seat is None:
            raise illegal("the dialogue is over", action)
        if self.step == READ:
            self._read(seat, action)
        else:
            self._move(seat, action)

    # -- the two steps -------------------------------------------------------------------
    def _move(self, seat: str, action: Any) -> None:
        worded = type(action) is Say or isinstance(action, Say)
        if worded:
            dec = action.decision
            if not isinstance(dec, Decision):
                raise illegal(f"a Say's decision is a Decision, not {type(dec).__name__}", action)
            utt = dec.utterance
        else:
            utt = _utterance(action)
            if utt is None:
                raise illegal(_not_a_move(action), action)
            dec = action if isinstance(action, Decision) else None
        why = why_illegal(self.domain, self.record, seat, utt)
        if why:
            if self.misled:  # the move may rest on a reading that was not what was said: a model error
                self.misread += 1
                self.faults.append((self.turn, seat, f"its move rests on a misreading: {why}"))
                self._end("unreadable")
                return
            raise illegal(f"{why} (the move of {dec.figure} {dec.rule})" if dec is not None else why, utt)
        if not worded:
            raise illegal("a move needs its words: Say(decision, text) (a seat's voice says a bare decision)",
                          action)
        if type(action.text) is not str:
            raise illegal(f"a move's words are a str, not {type(action.text).__name__}", action)
        self.pending = action
        self.step = READ
        self.to_act = _OTHER[seat]

    def _read(self, seat: str, reading: Any) -> None:
        if not isinstance(reading, _READINGS):
            raise illegal(f"a reading is an utterance or Unreadable, not {type(reading).__name__}", reading)
        say = self.pending
        dec = say.decision
        said = dec.utterance
        speaker = _OTHER[seat]
        if reading == said:  # read right (so it is a legal move of the speaker, as the move was)
            self.read_n += 1
            self.read_right += 1
        else:
            fault = reading_fault(self.domain, self.record, speaker, said, reading)
            if fault:
                self.misread += 1
                self.faults.append((self.turn, seat, f"its reading was refused: {fault}"))
                reading = Unreadable(fault)
            elif not isinstance(reading, Unreadable):  # accepted, and not what was said
                self.read_n += 1
                self.misled = True
            elif not reading.unread:  # an answer that the words are unreadable: a reading, a wrong one
                self.read_n += 1
        turn = self.turn
        self.record = self.record.add(speaker, said)
        self.said += ((speaker, say.text),)
        self.mine[speaker] += (said,)
        self.utterances.append((speaker, said, dec))
        self.heard[seat] = reading
        self.pending = None
        self.transcript.add_made(_turn_event, self.relations[speaker], self.domain.topic, speaker, seat, dec, say.text,
                                 reading, turn)
        kind = said.kind
        if kind == "booking":
            self._end("booked", said.option, speaker)
        elif kind == "quit":
            self._end("stalled" if said.reason == STALLED else "dead-end")
        elif type(reading) is Unreadable:
            self._end("unreadable")
        elif turn == self.max_turns:
            self._end("turn-limit")
        else:
            self.turn = turn + 1
            self.step = REPLY
            self.to_act = seat

    def _end(self, outcome: str, booked: Optional[str] = None, booked_by: Optional[str] = None) -> None:
        n = len(self.utterances)
        self.transcript.add("protocol", "end", n, None,
                            {"outcome": outcome, "booked": booked, "booked_by": booked_by, "turns": n})
        self.to_act, self.step, self.pending = None, OVER, None
        self.outcome = DialogueResult(outcome, n, booked, booked_by, self.transcript, tuple(self.utterances),
                                      self.misread, self.read_n, self.read_right)

    # -- the finite view's tables --------------------------------------------------------
    def catalogue(self) -> tuple:
        """:func:`catalogue` of the domain (made once per dialogue, when first asked)."""
        if self._catalogue is None:
            self._catalogue = catalogue(self.domain)
        return self._catalogue

    def feature_index(self) -> dict:
        """``{(criterion, value) or (topic, option): position}``, values first (made once)."""
        if self._index is None:
            d = self.domain
            keys = [(c.name, v) for c in d.criteria for v in c.values] + [(d.topic, o.name) for o in d.options]
            self._index = {k: i for i, k in enumerate(keys)}
        return self._index


def _turn_event(relation: str, topic: str, speaker: str, listener: str, dec: Decision, text: str, reading: Any,
                turn: int) -> tuple:
    """A turn's event fields (:meth:`Transcript.add_made`): the move, its words, the listener's
    reading in the cues, the rule that chose the move in the hidden part.  (A function of its
    values, not a method of the state: a transcript holds no reference back to its state.)"""
    hidden = {"relation": relation, "figure": dec.figure, "rule": dec.rule}
    if dec.why:
        hidden["why"] = dec.why
    utt = dec.utterance
    return (speaker, utt.kind, turn, subject(utt, topic), utt.to_dict(), text, {listener: reading.to_dict()}, hidden)


def _utterance(action: Any) -> Any:
    """The utterance a move stands for (a Say's, a Decision's, or a bare one), or None."""
    if isinstance(action, Say):
        return action.decision.utterance if isinstance(action.decision, Decision) else None
    if isinstance(action, Decision):
        return action.utterance
    if isinstance(action, UTTERANCE_TYPES):
        return action
    return None


def _not_a_move(action: Any) -> str:
    return (f"a move is a Say(decision, words) (or a Decision or an utterance a seat's voice says), not "
            f"{type(action).__name__}")
