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


@attrs.frozen
class Episode:
    events: tuple[Event, ...]
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
class AlternatingProtocol:
    round_limit: int = attrs.field(default=15, validator=attrs.validators.ge(1))
    warn_rounds: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    no_deal_payoff: str = attrs.field(default="zero", validator=attrs.validators.in_(("zero", "batna")))

    def run(self, domain: Domain, agent, partner, agent_values: Valuation, partner_values: Valuation,
            run_id: str) -> Episode:
        """Play one negotiation; ``agent``/``partner`` are policies with ``act(obs)``."""
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
                emit(speaker="system", phase="deadline", round=rnd,
                     text=f"Only {self.warn_rounds} rounds remain. Without a deal both sides score 0.")
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
                offer, reason = None, ""
                if action.stated is not None:
                    reason = _shape_fault(action.stated)
                    if not reason:
                        try:
                            offer = domain.check_offer(action.stated, role)
                        except IllegalOffer as exc:
                            reason = str(exc)
                elif action.kind == "offer":  # the offer is as the model stated it: its fault
                    reason = "the offer move states no offer"
                hidden = dict(action.hidden)
                if offer is not None:
                    intent["offer"] = list(offer)
                    intent["offer_text"] = domain.describe_outcome(offer)
                    hidden["true_scores"] = [agent_scores[offer], partner_scores[offer]]
                emit(role, intent.get("mode", action.kind), rnd, action.text, intent, hidden)
                if reason:
                    invalid += 1
                    emit(speaker="system", phase="invalid", round=rnd, text=f"{role}'s offer rejected: {reason}",
                         intent={"player": role, "reason": reason, "stated": action.stated})
                history.append(Turn(role, "offer" if offer is not None else action.kind, action.text,
                                    offer, reason, rnd))
        return self._end(domain, events, emit, "no_agreement", None, agent_values, partner_values,
                         self.round_limit, "", invalid)

    def _end(self, domain, events, emit, status, outcome, av, pv, rnd, walked_by, invalid) -> Episode:
        if outcome is not None:
            sa, sp = domain.score(av, outcome, "agent"), domain.score(pv, outcome, "partner")
        elif self.no_deal_payoff == "batna":
            sa = sp = float(domain.batna)
        else:
            sa = sp = 0.0
        emit(speaker="system", phase="end", round=rnd,
             text={"agreement": "Deal reached.", "walk_away": f"The {walked_by} walked away.",
                   "no_agreement": "No agreement within the round limit."}[status],
             intent={"status": status, "outcome": list(outcome) if outcome is not None else None,
                     "outcome_text": domain.describe_outcome(outcome) if outcome is not None else None},
             hidden={"agent_score": sa, "partner_score": sp, "invalid_moves": invalid})
        return Episode(tuple(events), status, outcome, sa, sp, rnd, walked_by, invalid)
