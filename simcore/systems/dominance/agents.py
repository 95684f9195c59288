"""Seat agents of the dominance dialogue beside the built-in :class:`policies.dominance.DominanceAgent`:
:class:`UserSeat`, the seat a user's agent sits in.

A user's agent answers ``act(observation)`` for every decision its seat is asked
(:class:`simcore.protocols.dialogue.Observation`; ``observation.step``).  At ``open`` /
``reply`` it may answer

* a :class:`~simcore.protocols.dialogue.Say` -- its decision and its own words, used as they are;
* a *structured* move -- an utterance, or a :class:`~simcore.protocols.dialogue.Decision`
  naming the rule that chose it: the seat's voice (its language client and generator) says it;
* *words* -- a ``str``: the seat's reader reads them, as the other side will, into the move
  (a *text* seat: a person at the terminal, an LLM agent that only writes).  Words that cannot
  be read, or that read as a move not legal now, are handed back -- ``agent.refused(words,
  reading, why)`` -- and the agent is asked again; an agent without ``refused`` gets no second
  chance: the move goes to the game unsaid, which refuses it with the reason (its fault, an
  :class:`~simcore.errors.AgentError`).

At ``read`` it may answer its own reading of ``observation.text`` (an utterance or
:class:`~simcore.protocols.dialogue.Unreadable`), or ``None``: the seat's reader reads the
words for it, as a built-in agent's does.  Either way the game checks the reading.
"""

from __future__ import annotations

from typing import Any

from simcore.protocols.dialogue import READ, UTTERANCE_TYPES, Decision, Propose, Say, Unreadable

#: the figure and rule recorded for a move whose agent gave no rule of its own
EXTERNAL = ("external", "external")


class UserSeat:
    """A user's agent in a seat, with the seat's ``voice`` (``speak(who, utterance)``,
    ``read(who, text, own=False)``) and ``relation`` (the phrasing it speaks in).  It keeps what
    its reader needs for a bare "yes" / "no": the seat's own last proposal and the other
    side's last one, as read."""

    def __init__(self, agent: Any, voice: Any, relation: str):
        self.agent, self.voice, self.relation = agent, voice, relation
        self.label = type(agent).__name__  # (errors name the user's agent, not this seat)
        self.my_last_proposal = None
        self.their_last_proposal = None

    def act(self, observation) -> Any:
        answer = self.agent.act(observation)
        if observation.step == READ:
            reading = self.voice.read(self, observation.text) if answer is None else answer
            if isinstance(reading, Propose):
                self.their_last_proposal = reading.proposal
            return reading
        while isinstance(answer, str):
            move = self.voice.read(self, answer, own=True)
            why = move.why if isinstance(move, Unreadable) else observation.why_not(move)
            if not why:
                return self._said(Decision(move, *EXTERNAL), answer)
            refused = getattr(self.agent, "refused", None)
            if not callable(refused):  # no second chance: the game refuses the move, saying why
                return Say(Decision(move, *EXTERNAL), None)
            refused(answer, move, why)
            answer = self.agent.act(observation)
        if isinstance(answer, Say):
            return self._said(answer.decision, answer.text) if answer.text is not None else answer
        if isinstance(answer, UTTERANCE_TYPES):
            answer = Decision(answer, *EXTERNAL)
        if not isinstance(answer, Decision) or observation.why_not(answer.utterance):
            return answer if not isinstance(answer, Decision) else Say(answer, None)  # the game refuses it
        return self._said(answer, self.voice.speak(self, answer.utterance))

    def _said(self, decision: Decision, text: Any) -> Say:
        utt = decision.utterance if isinstance(decision, Decision) else None
        if isinstance(utt, Propose):
            self.my_last_proposal = utt.proposal
        return Say(decision, text)
