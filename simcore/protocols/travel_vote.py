"""The MIND negotiation protocol: item by item, proposer and voters, majority vote.

For each negotiated item (MIND Algorithm 1):

1. Phase 1 -- every agent proposes its own value for every negotiated item in one
   message (MIND's global initial proposal, Table B6).  For each item the current
   proposal is the proposal of a randomly picked agent, the *proposer* (the pick is
   made by the caller, so variants can share it); in round 1 voters read the
   proposer's Phase-1 line about the item.
2. Up to ``max_rounds`` rounds (3).  In each, every other agent (a voter) reads the
   proposer's latest message if its policy appraises (the guess comes from the
   words only), decides a :class:`~policies.travel_common.Vote`, and says it.
   Consensus when more than half of the voters AGREE (1 of 2 is not enough).  A
   voter's policy also sees the value it offered in the previous round, so it can
   accept a proposer who adopted it.
3. Between rounds the proposer reads the dissenters' messages (if its policy
   appraises), decides an :class:`~policies.travel_common.Update`, and says it.
4. No consensus after the last round: fallback to the value of the agent with the
   highest willingness (:func:`~policies.travel_common.fallback_value`).

The protocol owns no randomness: the caller passes the proposer index and a
generator for the language layer's call seeds.  It checks every move: votes, revised
values and updates must name options of the item, else :class:`IllegalMove`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import attrs
import numpy as np

from mockllm.client import ModelClient
from mockllm.exchanges import KEY as MODEL_DECISIONS, policy_notes
from mockllm.tone import band_of
from mockllm.travel import PROPOSE, READ, SPEAK
from policies.travel_common import Dissent, Me, fallback_value
from scenarios.travel import Group, Item, item as get_item
from simcore.errors import IllegalMove
from simcore.transcript import Event, _jsonable


@attrs.frozen
class Appraisal:
    reader: int
    speaker: int
    true_w: int
    guessed_w: int | None  # what the words read as (None: no intensity marker, or the reading was refused)
    used_w: int            # the inference: the reading, or the policy's no-cue guess
    phase: str             # "2a" (voter reads proposer) or "3" (proposer reads dissenter)
    round: int
    #: the willingness the speaker's words were to carry: its w when its policy speaks with
    #: tone, None when it speaks plain (its words carry no intensity)
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


_MISSING = object()


def _fast_event_setters():
    """The slot setters of :class:`Event`'s fields, in order, when ``Event(**fields)`` is
    exactly "set each field, payloads through ``_jsonable``" (a slotted attrs class with
    these fields, converters and no validators or post-init); else None (then Event's
    own ``__init__`` builds every event)."""
    want = {"intent": _jsonable, "cues": _jsonable, "hidden": _jsonable}
    names = ("run", "seq", "speaker", "phase", "round", "item", "intent", "text", "cues", "hidden")
    try:
        fields = attrs.fields(Event)
        ok = (tuple(a.name for a in fields) == names
              and all(a.converter is want.get(a.name) and a.validator is None for a in fields)
              and not hasattr(Event, "__attrs_post_init__") and not hasattr(Event, "__attrs_pre_init__")
              and all(type(Event.__dict__.get(n)).__name__ == "member_descriptor" for n in names))
    except Exception:  # noqa: BLE001 - any surprise: the class's own __init__
        ok = False
    return tuple(Event.__dict__[n].__set__ for n in names) if ok else None


_SETTERS = _fast_event_setters()


class _Log:
    def __init__(self, run: str, keep: bool = True):
        self.run = run
        self.keep = keep  # False: no event is built (nobody reads them)
        self.events: list[Event] = []

    def add(self, *, speaker: str, phase: str, round: int = 0, item: str | None = None,
            intent: Any = _MISSING, text: str = "", hidden: Any = _MISSING) -> None:
        """Log ``Event(run, seq, speaker, phase, round, item, intent, text, hidden=hidden)``.
        The event is made by setting its slots (issue 21: the same object, a third of the
        cost of attrs' ``__init__``), unless :func:`_fast_event_setters` found Event changed."""
        if not self.keep:
            return
        events = self.events
        intent = {} if intent is _MISSING else _jsonable(intent)
        hidden = {} if hidden is _MISSING else _jsonable(hidden)
        if _SETTERS is None:
            events.append(Event(run=self.run, seq=len(events), speaker=speaker, phase=phase, round=round,
                                item=item, intent=intent, text=text, hidden=hidden))
            return
        ev = _new_event(Event)
        s_run, s_seq, s_speaker, s_phase, s_round, s_item, s_intent, s_text, s_cues, s_hidden = _SETTERS
        s_run(ev, self.run)
        s_seq(ev, len(events))
        s_speaker(ev, speaker)
        s_phase(ev, phase)
        s_round(ev, round)
        s_item(ev, item)
        s_intent(ev, intent)
        s_text(ev, text)
        s_cues(ev, {})
        s_hidden(ev, hidden)
        events.append(ev)


_new_event = Event.__new__


def _plain(policy) -> str | None:
    """The prompt's ``plain_wording`` field: "varied" for a policy that speaks plain with
    varied wording; None (not sent: the first prompt, one fixed phrase per act) otherwise,
    also for a policy without the parameter."""
    return "varied" if not policy.tone and getattr(policy, "plain_wording", "fixed") == "varied" else None


def _say(client: ModelClient, rng, policy, me: Me, act: str, value: str, reason: str) -> str:
    w = me.w if policy.tone else None
    fallback_text = f'{act}: "{value}"'
    return client.ask(SPEAK, rng, fallback=lambda: fallback_text, act=act, item=me.item.label, value=value,
                      willingness=w, reason=reason, plain_wording=_plain(policy))


_REFUSED = object()


def _read(client: ModelClient, rng, text: str, item: str | None = None) -> tuple[int | None, bool]:
    """(the willingness the words read as, or None for no marker; whether the reader's answer
    was accepted -- a refused one is the counted fallback, no marker)."""
    cue = client.ask(READ, rng, fallback=lambda: _REFUSED, message=text, item=item)
    if cue is _REFUSED:
        return None, False
    return (None if cue is None else cue.willingness), True


def _meant(policy, w: int) -> int | None:
    """The willingness a speaker's words are to carry: ``w`` when its policy speaks with tone."""
    return w if policy.tone else None


def _check_value(item: Item, value: str, who: str, policy) -> None:
    if value not in item.options:  # the policy's own value (the model only words it): a bug
        raise IllegalMove(f"the value must be an option of {item.key} ({', '.join(item.options)})",
                          policy=f"{getattr(policy, 'name', type(policy).__name__)} ({who})", move=value)


def _model_notes(hidden: dict, policy, decided: dict) -> None:
    """The exchange of a decision a role on a backend made (``--role mind.base=...``: the
    policy is a role wrapper with a recording client; :mod:`mockllm.exchanges`) into the
    event's ``hidden``; a fallback's decision is the stand-in's.  Nothing for any other policy."""
    got = policy_notes(policy)
    for n in got:
        n["decision"] = decided
        if n["fallback"]:
            n["stand_in"] = decided
    if got:
        hidden[MODEL_DECISIONS] = got


def negotiate_item(group: Group, item_key: str, policies: Sequence, proposer: int, client: ModelClient,
                   rng: np.random.Generator, log: _Log, opening: Sequence[str], *,
                   max_rounds: int = 3) -> ItemOutcome:
    """Negotiate one item; ``policies[i]`` decides for member ``i``; ``opening[i]`` is
    member i's Phase-1 message."""
    item = get_item(item_key)
    n = group.size
    mes = [Me(item, m.pref(item_key).value, m.pref(item_key).w) for m in group.members]
    values = tuple(me.value for me in mes)
    ws = tuple(me.w for me in mes)
    who = [m.id for m in group.members]
    appraisals: list[Appraisal] = []

    current, proposer_text = values[proposer], opening[proposer]
    read_item: str | None = item.label  # round 1 reads the proposer's Phase-1 line about the item
    log.add(speaker="protocol", phase="1-pick", round=0, item=item_key,
            intent={"proposer": who[proposer], "proposal": current},
            hidden={"w": list(ws), "values": list(values)})
    voters = [i for i in range(n) if i != proposer]
    last_offer: dict[int, str | None] = {i: None for i in voters}
    for rnd in range(1, max_rounds + 1):
        votes = {}
        vote_texts = {}
        for i in voters:
            pol = policies[i]
            guess, accepted = _read(client, rng, proposer_text, read_item) if pol.appraisal else (None, False)
            v = pol.vote(mes[i], current, guess, last_offer[i])
            if pol.appraisal:
                appraisals.append(Appraisal(i, proposer, ws[proposer], guess, pol.guess(guess), "2a", rnd,
                                            _meant(policies[proposer], ws[proposer]), accepted))
            if v.vote == "DISAGREE":
                _check_value(item, v.revised_value, who[i], pol)
            last_offer[i] = v.revised_value
            act = "agree" if v.vote == "AGREE" else "disagree"
            text = _say(client, rng, pol, mes[i], act, current if v.vote == "AGREE" else v.revised_value, v.reason)
            votes[i], vote_texts[i] = v, text
            hidden = {"w": mes[i].w, "own_value": mes[i].value, "guessed_w": guess,
                      "strategy": v.strategy, "used_w": v.used_w, "reason": v.reason}
            _model_notes(hidden, pol, {"vote": v.vote, "revised_value": v.revised_value})
            log.add(speaker=who[i], phase="2-vote", round=rnd, item=item_key,
                    intent={"vote": v.vote, "revised_value": v.revised_value}, text=text, hidden=hidden)
        agrees = sum(v.vote == "AGREE" for v in votes.values())
        if agrees * 2 > len(voters):
            log.add(speaker="protocol", phase="result", round=rnd, item=item_key,
                    intent={"outcome": "consensus", "value": current, "agree": agrees, "voters": len(voters)})
            return ItemOutcome(item_key, values, ws, proposer, current, True, rnd, appraisals)
        if rnd == max_rounds:
            break
        # Phase 3: the proposer updates
        pol = policies[proposer]
        dissents = []
        for i in voters:
            if votes[i].vote == "DISAGREE":
                g, accepted = _read(client, rng, vote_texts[i]) if pol.appraisal else (None, False)
                if pol.appraisal:
                    appraisals.append(Appraisal(proposer, i, ws[i], g, pol.guess(g), "3", rnd,
                                                _meant(policies[i], ws[i]), accepted))
                dissents.append(Dissent(i, votes[i].revised_value, g))
        up = pol.update(mes[proposer], current, dissents, len(voters))
        hidden = {"w": mes[proposer].w, "own_value": mes[proposer].value,
                  "dissent": f"{len(dissents)} of {len(voters)}",
                  "read_dissent_w": [d.guessed_w for d in dissents], "reason": up.reason}
        _model_notes(hidden, pol, {"action": up.action, "value": up.value})
        _check_value(item, up.value, who[proposer], pol)
        act = {"KEEP": "keep", "UPDATE": "update", "COMPROMISE": "compromise"}[up.action]
        proposer_text = _say(client, rng, pol, mes[proposer], act, up.value, up.reason)
        read_item = None
        log.add(speaker=who[proposer], phase="3-update", round=rnd, item=item_key,
                intent={"action": up.action, "value": up.value}, text=proposer_text, hidden=hidden)
        current = up.value
    final, holder = fallback_value(values, ws)
    log.add(speaker="protocol", phase="fallback", round=max_rounds, item=item_key,
            intent={"outcome": "fallback", "value": final, "holder": who[holder], "last_proposal": current})
    return ItemOutcome(item_key, values, ws, proposer, final, False, max_rounds, appraisals)


@attrs.frozen
class GroupOutcome:
    group: str
    size: int
    variant: str
    items: tuple[ItemOutcome, ...] = attrs.field(converter=tuple)
    events: tuple[Event, ...] = attrs.field(converter=tuple)
    fallbacks: int = 0


def negotiate_group(group: Group, policy, proposers: Sequence[int], client: ModelClient,
                    rng: np.random.Generator, run: str, *, max_rounds: int = 3,
                    seats: Mapping[int, Any] | None = None, events: bool = True) -> GroupOutcome:
    """Every negotiated item of ``group`` with one policy for all members.  ``policy`` is a
    policy object or a registered MIND-family id; ``proposers`` one member index per item;
    ``seats`` gives some members (by index) a policy of their own (simcore.env's seats).
    ``events=False`` builds no transcript events (the outcome's ``events`` is empty; every
    other field, and every model call, is the same)."""
    from simcore.errors import InputError

    if isinstance(policy, str):
        from simcore.argcheck import _policy_object

        policy = _policy_object(policy, "policy", "mind", ("vote", "update", "guess"))
    if len(proposers) != len(group.items):
        raise InputError("proposers", str(list(proposers)), f"one proposer index per negotiated item: "
                                                           f"{len(group.items)} needed, {len(proposers)} given")
    bad = [p for p in proposers if not (isinstance(p, (int, np.integer)) and not isinstance(p, bool)
                                        and 0 <= p < group.size)]
    if bad:
        raise InputError("proposers", str(list(proposers)), f"each must be a member index 0..{group.size - 1}; "
                                                           f"bad: {bad}")
    log = _Log(run, keep=events)
    pols = [(seats or {}).get(i, policy) for i in range(group.size)]
    opening = []
    for m, pol in zip(group.members, pols):  # Phase 1: one global proposal per agent
        entries = [{"item": get_item(k).label, "value": m.pref(k).value,
                    "willingness": m.pref(k).w if pol.tone else None} for k in group.items]
        text = client.ask(PROPOSE, rng, fallback=lambda: "\n".join(f'- For the {e["item"]}, I propose "{e["value"]}".'
                                                                  for e in entries),
                          items=entries, reason="preference", plain_wording=_plain(pol))
        opening.append(text)
        log.add(speaker=m.id, phase="1-propose", round=0, item=None,
                intent={"proposals": {k: m.pref(k).value for k in group.items}}, text=text,
                hidden={"w": {k: m.pref(k).w for k in group.items}})
    outcomes = [negotiate_item(group, key, pols, p, client, rng, log, opening, max_rounds=max_rounds)
                for key, p in zip(group.items, proposers)]
    return GroupOutcome(group.id, group.size, policy.name, outcomes, log.events, client.stats.fallbacks)


class TravelVoteProtocol:
    """Registry object for the protocol; provides the conformance run."""

    id = "travel-vote-v1"

    def conformance_run(self, policy_id: str, seed: int) -> list[Event]:
        from mockllm.mock import MockBackend
        from scenarios.travel import generate_group
        from simcore.registry import make
        from simcore.seeding import generator

        policy = make("policy", policy_id)
        rng = generator(seed, "conformance", policy_id)
        group = generate_group("conf", 3, rng)
        proposers = [int(rng.integers(group.size)) for _ in group.items]
        out = negotiate_group(group, policy, proposers, ModelClient(MockBackend()), rng,
                              f"mind/conformance/{policy_id}")
        return list(out.events)
