"""The utterance-by-utterance cooperative dialogue of the dominance agent.

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

The protocol (:func:`run_dialogue`) holds no RNG: two participants take turns, each
reply answering the other's last utterance as *read from its text*.  It checks every
utterance for legality (:func:`check_legal`, raising :class:`IllegalMove`) against
the public record, logs one :class:`~simcore.transcript.Event` per utterance, and ends
on Booking (success), Quit (dead end) or the turn limit (failure).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, Union

import attrs

from simcore.errors import IllegalMove, InputError
from simcore.transcript import Event


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
@attrs.define
class PublicRecord:
    """What both sides have seen: every utterance with its speaker (add with :meth:`add`)."""

    turns: list = attrs.field(factory=list)  # (speaker, utterance)
    _proposed: dict = attrs.field(factory=dict)  # Proposal -> set of speakers who proposed it
    _accepted: dict = attrs.field(factory=dict)  # Proposal -> set of speakers who accepted it

    def add(self, speaker: str, utt) -> None:
        self.turns.append((speaker, utt))
        if isinstance(utt, Propose):
            self._proposed.setdefault(utt.proposal, set()).add(speaker)
        elif isinstance(utt, Accept):
            self._accepted.setdefault(utt.proposal, set()).add(speaker)

    def proposed_by_other(self, speaker: str, p: Proposal) -> bool:
        return bool(self._proposed.get(p, set()) - {speaker})

    def proposed_by(self, speaker: str, p: Proposal) -> bool:
        return speaker in self._proposed.get(p, ())

    def accepted_by_other(self, speaker: str, p: Proposal) -> bool:
        return bool(self._accepted.get(p, set()) - {speaker})


def check_legal(domain, record: PublicRecord, speaker: str, utt: Any) -> None:
    """Raise :class:`IllegalMove` unless ``utt`` is a legal utterance for ``speaker`` now."""
    if not isinstance(utt, UTTERANCE_TYPES):
        raise IllegalMove(f"{speaker}: {utt!r} is not an utterance")
    if record.turns and record.turns[-1][1].kind in CLOSING:
        raise IllegalMove(f"{speaker}: the dialogue is already closed")
    def value_ok(crit, v):
        if v is not None and domain.criterion_of(v) != crit:
            raise IllegalMove(f"{speaker}: {v!r} is not a value of criterion {crit!r}")

    if isinstance(utt, (StatePreference, AskPreference)):
        if not domain.has_criterion(utt.criterion):
            raise IllegalMove(f"{speaker}: unknown criterion {utt.criterion!r}")
        value_ok(utt.criterion, utt.less)
        value_ok(utt.criterion, utt.more)
    elif isinstance(utt, (Propose, Accept, Reject)):
        p = utt.proposal
        if p.type == domain.topic:
            if domain.option(p.value) is None or domain.option(p.value).name != p.value:
                raise IllegalMove(f"{speaker}: unknown {domain.topic} {p.value!r}")
        elif domain.has_criterion(p.type):
            value_ok(p.type, p.value)
        else:
            raise IllegalMove(f"{speaker}: proposal type {p.type!r} is neither a criterion nor the topic")
        if isinstance(utt, (Accept, Reject)):
            if not record.proposed_by_other(speaker, p):
                raise IllegalMove(f"{speaker}: {utt.kind} of {p.value!r}, which the other side never proposed")
    elif isinstance(utt, Booking):
        opt = domain.option(utt.option)
        if opt is None or opt.name != utt.option:
            raise IllegalMove(f"{speaker}: booking of unknown {domain.topic} {utt.option!r}")
        p = Proposal(domain.topic, utt.option)
        if not record.proposed_by_other(speaker, p) and not (record.accepted_by_other(speaker, p)
                                                             and record.proposed_by(speaker, p)):
            raise IllegalMove(f"{speaker}: booking {utt.option!r}, which the other side neither proposed "
                              "nor accepted")


def check_decision(domain, record: PublicRecord, speaker: "Participant", dec: "Decision") -> None:
    """:func:`check_legal` for a policy's own move; an illegal one is a bug in simcore,
    raised as :class:`IllegalMove` naming the policy (class, side, relation and the rule
    that chose the move), the move and the rule of the protocol it breaks."""
    try:
        check_legal(domain, record, speaker.name, dec.utterance)
    except IllegalMove as exc:
        raise IllegalMove(exc.rule, move=dec.utterance, policy=(
            f"{type(speaker).__name__} {speaker.name!r} ({getattr(speaker, 'relation', '?')}; "
            f"{dec.figure} {dec.rule})")) from exc


def reading_fault(domain, record: PublicRecord, speaker: str, said: Any, reading: Any) -> str:
    """Why ``reading`` -- the listener's reading of what ``speaker`` just said -- cannot be
    right, or "" when it can (an :class:`Unreadable` is never faulted here).

    The reading comes from a language model, so it is checked like any model output: it
    must be a move ``speaker`` could legally have made on the public ``record`` before
    this turn (:func:`check_legal`; e.g. no accept or reject of a proposal the listener
    never made, no value outside its criterion), and it may close the dialogue (booking,
    quit) only when the protocol closes it, since nobody can reply to a closing move.
    A faulted reading is a model error: :func:`run_dialogue` turns it into an
    :class:`Unreadable` (the dialogue ends "unreadable", as after a reader's fallback)
    and counts it in :attr:`DialogueResult.misreadings`; it is never a user's bad input.
    """
    if isinstance(reading, Unreadable):
        return ""
    if not isinstance(reading, UTTERANCE_TYPES):
        return f"the reading {reading!r} is not an utterance"
    try:
        check_legal(domain, record, speaker, reading)
    except IllegalMove as exc:
        return f"the reading is not a legal move of the speaker ({exc})"
    if reading.kind in CLOSING and getattr(said, "kind", None) not in CLOSING:
        return f"the reading is not a legal move of the speaker (a {reading.kind}, but the dialogue goes on)"
    return ""


# the dialogue ---------------------------------------------------------------
@attrs.frozen
class Decision:
    """A reply and the rule that chose it (figure + branch), for the decision log."""

    utterance: Any
    figure: str
    rule: str
    why: str = ""


class Participant(Protocol):
    name: str
    relation: str

    def decide(self, heard: Utterance | None) -> Decision: ...

    def speak(self, utt: Utterance) -> str: ...

    def commit(self, utt: Utterance) -> None: ...

    def hear(self, text: str) -> Utterance | Unreadable: ...


@attrs.frozen
class DialogueResult:
    outcome: str                       # "booked" | "dead-end" | "stalled" | "turn-limit" | "unreadable"
    turns: int
    booked: str | None
    booked_by: str | None
    events: tuple = attrs.field(converter=tuple)
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


def run_dialogue(domain, first: Participant, second: Participant, *, run_id: str,
                 max_turns: int = 40, on_turn: Callable[[Event], None] | None = None,
                 hidden: Callable[[Participant], Mapping[str, Any]] | None = None,
                 record_events: bool = True) -> DialogueResult:
    """Let ``first`` open and the two alternate until Booking, Quit or ``max_turns`` utterances.

    With ``record_events=False`` (and no ``on_turn``) no transcript events are built."""
    record_events = record_events or on_turn is not None
    if max_turns < 1:
        raise InputError("dialogue", "max_turns", f"must be >= 1, got {max_turns}")
    record = PublicRecord()
    events: list[Event] = []
    said: list = []
    speaker, listener = first, second
    heard: Utterance | None = None
    outcome, booked, booked_by = "turn-limit", None, None
    misread = read_n = read_right = 0
    believes_misreading = False  # a reading that is not what was said has reached a participant
    for turn in range(1, max_turns + 1):
        dec = speaker.decide(heard)
        try:
            check_decision(domain, record, speaker, dec)
        except IllegalMove:
            if not believes_misreading:
                raise  # every reading so far was what was said: the policy's own fault (internal error)
            # the move rests on a model's misreading (a heard proposal never made, say):
            # a model error, counted, and the dialogue ends as after a refused reading
            misread += 1
            outcome = "unreadable"
            break
        text = speaker.speak(dec.utterance)
        speaker.commit(dec.utterance)
        reading = listener.hear(text)
        fault = reading_fault(domain, record, speaker.name, dec.utterance, reading)
        if not fault and not (isinstance(reading, Unreadable) and reading.unread):  # an accepted reading
            read_n += 1
            read_right += reading == dec.utterance
        if fault:
            misread += 1
            reading = Unreadable(fault)
        elif not isinstance(reading, Unreadable) and reading != dec.utterance:
            believes_misreading = True
        record.add(speaker.name, dec.utterance)
        said.append((speaker.name, dec.utterance, dec))
        if record_events:
            h = {"relation": speaker.relation, "figure": dec.figure, "rule": dec.rule}
            if dec.why:
                h["why"] = dec.why
            if hidden is not None:
                h.update(hidden(speaker))
            ev = Event(run=run_id, seq=turn - 1, speaker=speaker.name, phase=dec.utterance.kind, round=turn,
                       item=subject(dec.utterance, domain.topic), intent=dec.utterance.to_dict(), text=text,
                       cues={listener.name: reading.to_dict()}, hidden=h)
            events.append(ev)
            if on_turn is not None:
                on_turn(ev)
        if isinstance(dec.utterance, Booking):
            outcome, booked, booked_by = "booked", dec.utterance.option, speaker.name
            break
        if isinstance(dec.utterance, Quit):
            outcome = "stalled" if dec.utterance.reason == STALLED else "dead-end"
            break
        if isinstance(reading, Unreadable):
            outcome = "unreadable"
            break
        heard = reading
        speaker, listener = listener, speaker
    if record_events:
        end = Event(run=run_id, seq=len(events), speaker="protocol", phase="end", round=len(events),
                    intent={"outcome": outcome, "booked": booked, "booked_by": booked_by, "turns": len(said)})
        events.append(end)
        if on_turn is not None:
            on_turn(end)
    return DialogueResult(outcome, len(said), booked, booked_by, tuple(events), tuple(said), misread,
                          read_n, int(read_right))


def replay_record(domain, turns: Sequence[tuple[str, Utterance]]) -> PublicRecord:
    """Check a sequence of (speaker, utterance) for legality; return the record."""
    record = PublicRecord()
    for speaker, utt in turns:
        check_legal(domain, record, speaker, utt)
        record.add(speaker, utt)
    return record
