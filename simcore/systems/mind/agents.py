"""Who sits in a MIND seat: the built-in member (a MIND-family policy with a voice), the
voice itself, and the wrappers that seat a user's agent.

* :class:`Voice` -- a member's words: the group's language client and generator (one of
  each per group and variant, shared by every member, so the model calls and their seeds
  are those of one conversation), spoken with tone (the words carry the member's
  willingness band, MIND's B5) or plain (B1), in one fixed phrase per act or varied.
* :class:`MindSeat` -- a member played by a decision policy with the legacy interface
  (``vote``, ``update``, ``guess`` and the ``tone`` / ``appraisal`` flags): MIND's
  :class:`~policies.mind.MindPolicy` and its ablations, Base's
  :class:`~policies.mad.MadPolicy`, the role wrapper :class:`~simcore.systems.mind.model_roles.BaseRole`,
  or a user's policy of that shape (docs/users/api.md, "Your own policy").  Each decision is, in
  this order: read the words it must read (only if its policy appraises), decide, and say
  the decision -- exactly the order of MIND's Algorithm 1 and so of the model calls.
* :class:`VoicedSeat` -- a user's agent whose ``act`` may return a bare
  :class:`~simcore.protocols.travel_moves.Vote` / :class:`~simcore.protocols.travel_moves.Update` (or, for
  Phase 1, the opening values): the seat's voice says it.  An
  :class:`~simcore.protocols.travel_vote.Action` it returns is passed on unchanged.

A decision whose value is not an option of the item is returned without words: the game
refuses it (an illegal move), and no words are asked for a move that is not played.
"""

from __future__ import annotations

from typing import Any, Optional

from mockllm.client import ModelClient
from mockllm.exchanges import policy_notes, recording
from mockllm.travel import PROPOSE, READ, SPEAK
from scenarios.travel import item as get_item
from simcore.errors import InputError
from simcore.protocols.travel_moves import Dissent, Me, Update, Vote
from simcore.protocols.travel_vote import Action, Observation, Reading, act_word

#: the methods and flags of a structured MIND policy (docs/users/api.md "Your own policy"; guess() is
#: needed only by a policy that appraises)
POLICY_METHODS = ("vote", "update", "guess")
POLICY_FLAGS = ("tone", "appraisal")

_REFUSED = object()


class Voice:
    """A member's words: ``client`` and ``rng`` (the group's), ``tone`` (its words carry its
    willingness) and ``plain_wording`` ("varied": several plain phrasings per act; "fixed":
    one; only for a voice without tone).

    :meth:`opening` says Phase 1's message, :meth:`say` a vote or update, :meth:`read` what
    another member's words say of its willingness.  A refused answer falls back (counted by
    the client): the opening and a move to a plain phrase naming the value, a reading to no
    marker with ``accepted`` False."""

    __slots__ = ("client", "rng", "tone", "plain")

    def __init__(self, client: ModelClient, rng: Any, tone: bool = False, plain_wording: str = "fixed"):
        self.client, self.rng, self.tone = client, rng, bool(tone)
        #: the prompt's plain_wording field: "varied" for plain words of varied wording; None (not
        #: sent: one fixed phrase per act) otherwise
        self.plain = "varied" if not tone and plain_wording == "varied" else None

    def opening(self, preferences) -> str:
        """Phase 1's one message: the member's value for every negotiated item."""
        tone = self.tone
        entries = [{"item": get_item(p.item).label, "value": p.value, "willingness": p.w if tone else None}
                   for p in preferences]
        return self.client.ask(PROPOSE, self.rng, fallback=lambda: "\n".join(
            f'- For the {e["item"]}, I propose "{e["value"]}".' for e in entries),
            items=entries, reason="preference", plain_wording=self.plain)

    def say(self, me: Me, act: str, value: str, reason: str) -> str:
        """A vote or update (``act``: agree, disagree, keep, update, compromise) naming ``value``."""
        fallback_text = f'{act}: "{value}"'
        return self.client.ask(SPEAK, self.rng, fallback=lambda: fallback_text, act=act, item=me.item.label,
                               value=value, willingness=me.w if self.tone else None, reason=reason,
                               plain_wording=self.plain)

    def read(self, text: str, item: Optional[str] = None) -> tuple[Optional[int], bool]:
        """(the willingness ``text`` reads as, or None for no marker; whether the reader's answer
        was accepted -- a refused one is the counted fallback, no marker).  ``item``: the item
        label to read about (a Phase-1 message speaks of every item)."""
        cue = self.client.ask(READ, self.rng, fallback=lambda: _REFUSED, message=text, item=item)
        if cue is _REFUSED:
            return None, False
        return (None if cue is None else cue.willingness), True


def voice_for(policy: Any, client: ModelClient, rng: Any) -> Voice:
    """The voice a policy speaks with: its ``tone`` flag and ``plain_wording`` (default "fixed")."""
    return Voice(client, rng, bool(getattr(policy, "tone", False)), getattr(policy, "plain_wording", "fixed"))


class MindSeat:
    """A member played by a structured policy (``policy``) speaking with ``voice``.

    ``act`` does what MIND's Algorithm 1 asks of the member, in its order: Phase 1 says the
    member's own values; a vote reads the proposer's latest words (if the policy appraises;
    round 1 reads its Phase-1 message about the item), decides, says the vote; an update
    reads each dissenter's words in order (if it appraises), decides, says it.  A role on a
    backend (a policy with a recording ``client``, :mod:`mockllm.exchanges`) adds the notes
    of what it asked to the action."""

    __slots__ = ("policy", "voice", "name", "label", "_appraises", "_records")

    def __init__(self, policy: Any, voice: Voice, label: Optional[str] = None):
        self.policy, self.voice = policy, voice
        self.name = getattr(policy, "name", None)
        #: what errors call the agent: the policy's class (a user's, when the user seated it)
        self.label = label or type(policy).__name__
        self._appraises = bool(policy.appraisal)
        self._records = recording(getattr(policy, "client", None))

    def act(self, obs: Observation) -> Action:
        step = obs.step
        if step == "vote":
            return self.vote(obs)
        if step == "update":
            return self.update(obs)
        return self.propose(obs)

    def propose(self, obs: Observation) -> Action:
        voice = self.voice
        return Action(obs.opening, voice.opening(obs.preferences), (), voice.tone)

    def vote(self, obs: Observation) -> Action:
        pol, voice, me = self.policy, self.voice, obs.me
        if self._appraises:
            guess, accepted = voice.read(obs.words, obs.item.label if obs.round == 1 else None)
            v = pol.vote(me, obs.proposal, guess, obs.last_offer)
            readings = (_reading((guess, pol.guess(guess), accepted)),)
        else:
            v = pol.vote(me, obs.proposal, None, obs.last_offer)
            readings = ()
        if type(v) is not Vote and not isinstance(v, Vote):  # not a vote: the game refuses it
            return Action(v, "", readings, voice.tone)
        notes = self._notes({"vote": v.vote, "revised_value": v.revised_value}) if self._records else ()
        agree = v.vote == "AGREE"
        value = obs.proposal if agree else v.revised_value
        if value not in obs.item.options:  # not a move the game plays: no words for it
            return Action(v, "", readings, voice.tone, notes)
        return _action((v, voice.say(me, "agree" if agree else "disagree", value, v.reason), readings, voice.tone,
                        notes))

    def update(self, obs: Observation) -> Action:
        pol, voice = self.policy, self.voice
        if self._appraises:
            dissents, readings = [], []
            for d in obs.dissents:
                g, accepted = voice.read(d.text)
                readings.append(Reading(g, pol.guess(g), accepted))
                dissents.append(Dissent(d.voter, d.revised_value, g))
            readings = tuple(readings)
        else:
            dissents, readings = [Dissent(d.voter, d.revised_value) for d in obs.dissents], ()
        up = pol.update(obs.me, obs.proposal, dissents, obs.voters)
        if type(up) is not Update and not isinstance(up, Update):  # not an update: the game refuses it
            return Action(up, "", readings, voice.tone)
        notes = self._notes({"action": up.action, "value": up.value}) if self._records else ()
        if up.value not in obs.item.options:  # not a move the game plays
            return Action(up, "", readings, voice.tone, notes)
        return Action(up, voice.say(obs.me, act_word(up), up.value, up.reason), readings, voice.tone, notes)

    def _notes(self, decided: dict) -> tuple:
        """The exchange of the decision a role on a backend just made (``--role mind.base=...``)
        as the event's notes; a fallback's decision is the stand-in's."""
        got = policy_notes(self.policy)
        for n in got:
            n["decision"] = decided
            if n["fallback"]:
                n["stand_in"] = decided
        return tuple(got)


#: the named tuples' own constructors from one sequence (without Action(...)'s keyword handling: the
#: built-in member makes one per decision)
_action, _reading = Action._make, Reading._make


class VoicedSeat:
    """A user's agent in a member's seat whose ``act`` may return a bare decision: the seat's
    voice (``voice``: the group's client and generator; the agent's own ``tone`` and
    ``plain_wording`` attributes, plain and fixed without them) puts it into words.  It
    reads nothing: a bare decision comes with no readings."""

    __slots__ = ("agent", "voice", "name", "label")

    def __init__(self, agent: Any, voice: Voice):
        self.agent, self.voice = agent, voice
        self.name = getattr(agent, "name", None)
        self.label = type(agent).__name__  # (errors name the user's agent, not this wrapper)

    def act(self, obs: Observation) -> Action:
        got = self.agent.act(obs)
        if isinstance(got, Action):
            return got
        voice, step, text = self.voice, obs.step, ""
        if step == "vote" and isinstance(got, Vote):
            value = obs.proposal if got.vote == "AGREE" else got.revised_value
            if value in obs.item.options:
                text = voice.say(obs.me, got.vote.lower(), value, got.reason)
        elif step == "update" and isinstance(got, Update):
            if got.value in obs.item.options:
                text = voice.say(obs.me, act_word(got), got.value, got.reason)
        elif step == "propose" and got == obs.opening:
            text = voice.opening(obs.preferences)
        # (a decision the game does not take is passed on unsaid: the game says why, naming the agent)
        return Action(got, text, (), voice.tone)


def structured(obj: Any) -> bool:
    """True when ``obj`` decides votes and updates (``vote()`` and ``update()``)."""
    return all(callable(getattr(obj, m, None)) for m in POLICY_METHODS[:2])


def adapter(name: str, client: ModelClient, rng: Any):
    """The ``adapt`` of :func:`simcore.seats.seat` for a MIND seat (``name``: the argument, for
    errors): a structured policy becomes a :class:`MindSeat` speaking with the group's
    ``client`` and generator ``rng``; anything else is one :class:`InputError`."""

    def adapt(obj: Any, setup) -> MindSeat:
        for flag in POLICY_FLAGS:
            if not isinstance(getattr(obj, flag, None), bool) and structured(obj):
                raise InputError(name, type(obj).__name__, f"needs a boolean attribute {flag!r}")
        needed = POLICY_METHODS if getattr(obj, "appraisal", None) is not False else POLICY_METHODS[:2]
        missing = [m for m in needed if not callable(getattr(obj, m, None))]
        if missing:
            raise InputError(name, type(obj).__name__,
                             f"is neither a registered mind policy id, nor an agent with act(observation), nor a "
                             f"policy with {', '.join(m + '()' for m in POLICY_METHODS)} (guess() when it appraises) "
                             f"and boolean tone and appraisal (missing: {', '.join(m + '()' for m in missing)})")
        return MindSeat(obj, voice_for(obj, client, rng), label=type(obj).__name__)

    return adapt


__all__ = ["Voice", "MindSeat", "VoicedSeat", "voice_for", "adapter", "structured", "POLICY_METHODS",
           "POLICY_FLAGS"]
