"""Alternating-offers bargaining between an agent and a partner (ASTRA, section 2.2).

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

A policy is called as ``policy.act(observation) -> Action`` and sees only the
public history (words, valid offers, invalid-move reasons, the deadline notice) and
its own values.  The protocol holds no RNG; policies carry their own generators.
An action a policy may not take (ACCEPT with nothing of the other side's on the
table, an unknown kind) raises :class:`~simcore.errors.IllegalMove`.  The offer an action
states, though, is the language model's (``astra.speak`` answers it): an offer move
that states none, or a stated offer that is not ``{"self": {...}, "other": {...},
"shared": {...}}``, is an invalid move like an over-specified one (Table 9, by
extension; a choice): recorded with its reason and counted, never an exit 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

import attrs

from scenarios.bilateral import Domain, IllegalOffer, Valuation
from simcore.errors import IllegalMove
from simcore.transcript import Event

ACTION_KINDS = ("talk", "offer", "accept", "walk_away")


@attrs.frozen
class Action:
    """What a policy does on its turn: ``kind``, the words, the offer as stated
    (speaker's point of view, or None), the structured intent and private notes."""

    kind: str = attrs.field(validator=attrs.validators.in_(ACTION_KINDS))
    text: str = ""
    stated: Optional[Mapping[str, Any]] = None
    intent: Mapping[str, Any] = attrs.field(factory=dict)
    hidden: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Turn:
    """One public turn as both sides saw it."""

    speaker: str
    kind: str
    text: str
    offer: Optional[tuple] = None  # canonical outcome (agent's units) when a valid offer was made
    invalid: str = ""  # reason when the stated offer was rejected
    round: int = 0


@attrs.frozen
class Observation:
    role: str
    round: int
    round_limit: int
    history: tuple[Turn, ...]
    deadline_warned: bool

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


def _built(events) -> tuple:
    """An episode's events as a tuple of :class:`Event` (building a deferred log)."""
    return events if type(events) is tuple else events.build()


@attrs.frozen
class Episode:
    """One negotiation's result.  ``events``: its transcript; the offers-only and the words
    paths hand a log the transcript's events are built from on first access (the same events)."""

    _events: Any = attrs.field(alias="events", eq=_built, repr=lambda ev: repr(_built(ev)))
    status: str  # "agreement" | "walk_away" | "no_agreement"
    outcome: Optional[tuple]
    agent_score: float
    partner_score: float
    rounds: int
    walked_by: str = ""
    invalid_moves: int = 0

    @property
    def events(self) -> tuple[Event, ...]:
        events = self._events
        if type(events) is not tuple:
            events = events.build()
            object.__setattr__(self, "_events", events)  # (built once; the same events every time)
        return events


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
class AlternatingProtocol:
    round_limit: int = attrs.field(default=15, validator=attrs.validators.ge(1))
    warn_rounds: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    no_deal_payoff: str = attrs.field(default="zero", validator=attrs.validators.in_(("zero", "batna")))

    def run(self, domain: Domain, agent, partner, agent_values: Valuation, partner_values: Valuation,
            run_id: str) -> Episode:
        """Play one negotiation; ``agent``/``partner`` are policies with ``act(obs)``.

        Two shortcuts give the same episode and transcript (each compared with this full
        path by its test), for two rule-based partners (``rule_moves`` true:
        :class:`policies.partners.Partner` itself, no model in its astra.partner role,
        whose ``act`` is its ``decide`` then its ``say``) in their own seats on this very
        domain:

        * both without a language client (``offers_only``: they neither speak nor read
          words, e.g. two Boulware partners), on a domain whose statements read back:
          the offers-only path, without stating each offer as a dict and checking it back;
        * otherwise (any clients): the words path, without an Observation, an Action, a
          Turn and an Event per turn (both: :meth:`_run_moves`)."""
        if (getattr(agent, "rule_moves", False) is True and getattr(partner, "rule_moves", False) is True
                and agent.role == "agent" and partner.role == "partner"
                and agent.domain is domain and partner.domain is domain):
            words = not (agent.offers_only and partner.offers_only and domain.offers_read_back)
            return self._run_moves(domain, agent, partner, agent_values, partner_values, run_id, words)
        events: list[Event] = []
        history: list[Turn] = []
        warned = False
        invalid = 0
        players = (("partner", partner), ("agent", agent))

        # every score the protocol reports, looked up in the domain's tables (same values as domain.score)
        agent_scores = domain.score_table(agent_values, "agent")
        partner_scores = domain.score_table(partner_values, "partner")

        def emit(speaker, phase, round, text, intent=None, hidden=None):
            # Event's fields in order: run, seq, speaker, phase, round, item, intent, text, cues, hidden
            events.append(Event(run_id, len(events), speaker, phase, round, None,
                                {} if intent is None else intent, text, {}, {} if hidden is None else hidden))

        for rnd in range(1, self.round_limit + 1):
            if not warned and self.warn_rounds and self.round_limit - rnd + 1 == self.warn_rounds:
                warned = True
                emit(speaker="system", phase="deadline", round=rnd, text=self._notice())
            for role, policy in players:
                obs = Observation(role, rnd, self.round_limit, tuple(history), warned)
                action = policy.act(obs)
                if not isinstance(action, Action):
                    raise IllegalMove(f"act() must return an Action, not {type(action).__name__}",
                                      policy=f"{type(policy).__name__} ({role})", move=action)
                intent = dict(action.intent)
                if action.kind == "accept":
                    table = obs.table
                    if table is None or table.speaker == role:
                        raise IllegalMove("ACCEPT is legal only with an offer of the other side on the table",
                                          policy=f"{type(policy).__name__} ({role})", move=action)
                    emit(speaker=role, phase="accept", round=rnd, intent=intent, text=action.text,
                         hidden=action.hidden)
                    return self._end(domain, events, emit, "agreement", table.offer, agent_values,
                                     partner_values, rnd, "", invalid)
                if action.kind == "walk_away":
                    emit(speaker=role, phase="walk_away", round=rnd, intent=intent, text=action.text,
                         hidden=action.hidden)
                    return self._end(domain, events, emit, "walk_away", None, agent_values,
                                     partner_values, rnd, role, invalid)
                offer, reason = _read_offer(domain, action.stated, role, action.kind)
                hidden = dict(action.hidden)
                if offer is not None:
                    _put_offer(domain, offer, intent, hidden, agent_scores, partner_scores)
                emit(role, intent.get("mode", action.kind), rnd, action.text, intent, hidden)
                if reason:
                    invalid += 1
                    emit(**_invalid_event(role, rnd, reason, action.stated))
                history.append(Turn(role, "offer" if offer is not None else action.kind, action.text,
                                    offer, reason, rnd))
        return self._end(domain, events, emit, "no_agreement", None, agent_values, partner_values,
                         self.round_limit, "", invalid)

    def _notice(self) -> str:
        return f"Only {self.warn_rounds} rounds remain. Without a deal both sides score 0."

    def _scores(self, domain, outcome, av, pv) -> tuple[float, float]:
        if outcome is not None:
            return domain.score(av, outcome, "agent"), domain.score(pv, outcome, "partner")
        if self.no_deal_payoff == "batna":
            return float(domain.batna), float(domain.batna)
        return 0.0, 0.0

    def _end(self, domain, events, emit, status, outcome, av, pv, rnd, walked_by, invalid) -> Episode:
        sa, sp = self._scores(domain, outcome, av, pv)
        emit(**_end_event(domain, status, outcome, rnd, walked_by, invalid, sa, sp))
        return Episode(tuple(events), status, outcome, sa, sp, rnd, walked_by, invalid)

    def _run_moves(self, domain, agent, partner, agent_values: Valuation, partner_values: Valuation,
                   run_id: str, words: bool) -> Episode:
        """:meth:`run` for two rule-based partners (see there), with their words (the words
        path) or without (``words`` False: the offers-only path).  Each move is
        ``decide(round, round_limit, deadline warned, the other side's offer on the table
        or None, the question the other side's latest talk turn asks or None)`` --
        ``(kind, outcome or None, note)``, the rules :meth:`Partner.act
        <policies.partners.Partner.act>` follows; ``decide``'s kinds are talk, offer and
        accept (a partner never walks away).

        * With words, the move is said by ``say(kind, outcome, note)`` -> ``(text, the
          offer as stated or None)``: the same asks of the language client, in the same
          order, with the same draws, as ``act``; the stated offer is read as :meth:`run`
          reads it (:func:`_read_offer`: an over-specified one is an invalid move,
          counted, its words standing).
        * Offers only (no client: nothing is said, so no question is ever asked), every
          offer is one of the domain's outcomes and so valid -- what :meth:`run`'s check
          of its statement would find (``domain.offers_read_back``): it is not stated as a
          dict and checked back.

        The transcript is kept as a log of the moves (:class:`_MovesLog`) and built, event
        for event as :meth:`run` builds it, when first read (``Episode.events``).

        This loop restates :meth:`run`'s turn rules (the module docstring's table: the
        partner opens, the round limit, the deadline notice, ACCEPT only of the other
        side's offer on the table, what a turn puts on the table -- and, of :meth:`run`'s
        observation, the other side's latest turn, which a question is read from).
        tests/test_offers_only.py and tests/test_words_path.py compare it with :meth:`run`
        (episodes, transcripts, the partners' state, the generators and the client's
        counts and records), which is what keeps the two equal."""
        path = "words" if words else "offers only"
        log: list[tuple] = []
        warned = False
        table, table_by = None, ""  # the latest valid offer and who made it
        talk = {"agent": None, "partner": None}  # each side's latest turn's words when it was a talk turn
        invalid = 0
        limit, warn = self.round_limit, self.warn_rounds
        players = (("partner", partner, "agent"), ("agent", agent, "partner"))
        for rnd in range(1, limit + 1):
            if not warned and warn and limit - rnd + 1 == warn:
                warned = True
                log.append(("system", "deadline", None, None, rnd, "", None, ""))
            for role, policy, other in players:
                said = talk[other]
                kind, outcome, note = policy.decide(rnd, limit, warned, table if table_by == other else None,
                                                    None if said is None else policy.question_in(said))
                if kind not in ("talk", "offer", "accept") or (kind == "offer") is (outcome is None):
                    raise IllegalMove("a rule-based move is talk, accept, or an offer naming an outcome",
                                      policy=f"{type(policy).__name__} ({role})", move=(kind, outcome, note))
                if words:
                    text, stated = policy.say(kind, outcome, note)
                else:
                    text, stated = "", None
                if kind == "accept":
                    if table_by != other:
                        raise IllegalMove("ACCEPT is legal only with an offer of the other side on the table",
                                          policy=f"{type(policy).__name__} ({role})", move=(kind, outcome, note))
                    log.append((role, kind, None, note, rnd, text, None, ""))
                    return self._end_log(path, domain, log, run_id, "agreement", table, agent_values,
                                         partner_values, rnd, agent, partner, invalid)
                if words:
                    offer, reason = _read_offer(domain, stated, role, kind)
                    if reason:
                        invalid += 1
                else:
                    offer, reason = outcome, ""
                log.append((role, kind, offer, note, rnd, text, stated, reason))
                if offer is not None:
                    table, table_by = offer, role
                talk[role] = text if kind == "talk" and offer is None else None  # (the turn's kind in the history)
        return self._end_log(path, domain, log, run_id, "no_agreement", None, agent_values,
                             partner_values, limit, agent, partner, invalid)

    def _end_log(self, path, domain, log, run_id, status, outcome, av, pv, rnd, agent, partner,
                 invalid) -> Episode:
        """The episode of the offers-only and the words paths (``path``), its transcript a :class:`_MovesLog`."""
        sa, sp = self._scores(domain, outcome, av, pv)
        log.append(("system", "end", (status, outcome, sa, sp, invalid), None, rnd, "", None, ""))
        notes = {"agent": agent.move_notes, "partner": partner.move_notes}
        return Episode(_MovesLog(path, run_id, domain, av, pv, self._notice(), log, notes),
                       status, outcome, sa, sp, rnd, "", invalid)


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


def _invalid_event(role: str, rnd: int, reason: str, stated) -> dict:
    """The ``invalid`` event's fields (``emit``'s keywords) of a rejected stated offer."""
    return dict(speaker="system", phase="invalid", round=rnd, text=f"{role}'s offer rejected: {reason}",
                intent={"player": role, "reason": reason, "stated": stated})


def _put_offer(domain, offer, intent: dict, hidden: dict, agent_scores, partner_scores) -> None:
    """An offer turn's event: the outcome and its text in the intent, both sides' true
    scores in the hidden part."""
    intent["offer"] = list(offer)
    intent["offer_text"] = domain.describe_outcome(offer)
    hidden["true_scores"] = [agent_scores[offer], partner_scores[offer]]


def _end_event(domain, status, outcome, rnd, walked_by, invalid, sa, sp) -> dict:
    """The closing event's fields (``emit``'s keywords)."""
    return dict(speaker="system", phase="end", round=rnd,
                text={"agreement": "Deal reached.", "walk_away": f"The {walked_by} walked away.",
                      "no_agreement": "No agreement within the round limit."}[status],
                intent={"status": status, "outcome": list(outcome) if outcome is not None else None,
                        "outcome_text": domain.describe_outcome(outcome) if outcome is not None else None},
                hidden={"agent_score": sa, "partner_score": sp, "invalid_moves": invalid})


class _MovesLog:
    """The offers-only and the words paths' record of a negotiation: one entry per move,
    ``(speaker, kind, outcome on the table or None, note, round, text, stated offer,
    reason it was rejected or "")``, and the notice and the end as ``system`` entries;
    :meth:`build` makes its transcript events exactly as :meth:`AlternatingProtocol.run`
    emits them."""

    __slots__ = ("path", "run_id", "domain", "agent_values", "partner_values", "notice", "log", "notes")

    def __init__(self, path, run_id, domain, agent_values, partner_values, notice, log, notes):
        self.path = path  # "offers only" or "words": the path that kept it
        self.run_id, self.domain, self.notice, self.log = run_id, domain, notice, log
        self.agent_values, self.partner_values = agent_values, partner_values
        self.notes = notes  # {seat: its policy's move_notes, (kind, note) -> (intent, hidden)}

    def build(self) -> tuple[Event, ...]:
        d, run_id = self.domain, self.run_id
        agent_scores = d.score_table(self.agent_values, "agent")
        partner_scores = d.score_table(self.partner_values, "partner")
        events: list[Event] = []

        def emit(speaker, phase, round, text, intent=None, hidden=None):  # (run's emit)
            events.append(Event(run_id, len(events), speaker, phase, round, None,
                                {} if intent is None else intent, text, {}, {} if hidden is None else hidden))

        for speaker, kind, offer, note, rnd, text, stated, reason in self.log:
            if speaker == "system":
                if kind == "deadline":
                    emit(speaker="system", phase="deadline", round=rnd, text=self.notice)
                else:  # the end: offer holds (status, outcome, agent score, partner score, invalid moves)
                    status, outcome, sa, sp, invalid = offer
                    emit(**_end_event(d, status, outcome, rnd, "", invalid, sa, sp))
                continue
            intent, hidden = self.notes[speaker](kind, note)
            if kind == "accept":
                emit(speaker=speaker, phase="accept", round=rnd, intent=intent, text=text, hidden=hidden)
                continue
            if offer is not None:
                _put_offer(d, offer, intent, hidden, agent_scores, partner_scores)
            emit(speaker, intent.get("mode", kind), rnd, text, intent, hidden)
            if reason:
                emit(**_invalid_event(speaker, rnd, reason, stated))
        return tuple(events)

    def __reduce__(self):  # (pickled as the events themselves)
        return tuple, (self.build(),)
