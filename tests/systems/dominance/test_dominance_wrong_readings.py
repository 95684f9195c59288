"""A reading can fit the read task's schema and still be wrong for the sentence; the
listener would then answer a move never made and the protocol's legality check would stop
the run as an internal error (exit 1).  So a reading is checked against its sentence (it may
name only what the sentence names; mockllm/dominance.py) and a move that rests on a
misreading that got through is a counted model error (simcore/protocols/dialogue.py): never
an internal error."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from mockllm.callrng import CallRng
from mockllm.mock import MockBackend
from mockllm.tasks import read_prompt


class WrongReader:
    """Answers a share of the readings with a schema-valid move drawn at random; with
    ``from_sentence`` only values the sentence names are drawn (so the sentence check
    passes them and only the protocol can catch what follows)."""

    def __init__(self, seed: int, *, from_sentence: bool, share: float = 0.5):
        self.rnd, self.inner, self.share, self.from_sentence = random.Random(seed), MockBackend(exact=True), share, from_sentence
        self.wrong = 0

    def chat(self, messages, *, temperature=0.0, seed=None):
        task, ctx = read_prompt(messages)
        answer = self.inner.chat(messages, temperature=temperature, seed=seed)
        if task.id != "dominance-read" or self.rnd.random() > self.share:
            return answer
        crit = ctx["vocabulary"]["criteria"]
        text = str(ctx["text"]).casefold()
        pool = [(c, v) for c in sorted(crit) for v in crit[c] if not self.from_sentence or v.casefold() in text]
        if not pool:
            return answer
        c, v = self.rnd.choice(pool)
        kind = self.rnd.choice(["state", "propose", "accept", "reject"])
        if kind == "state":
            d = {"kind": "state", "criterion": c, "less": None, "more": v}
        else:
            d = {"kind": kind, "type": c, "value": v}
        self.wrong += json.dumps(d) != answer
        return json.dumps(d)


def _play(seed, backend, relations=("peer", "peer")):
    from policies.dominance_state import random_preferences
    from scenarios.restaurants import load_domain
    from simcore.systems.dominance import play_dialogue

    dom = load_domain("restaurants-small-v1")
    return play_dialogue(dom, *relations, random_preferences(dom, np.random.default_rng(seed)),
                         random_preferences(dom, np.random.default_rng(seed + 100)), rng_agent=CallRng(3),
                         rng_user=CallRng(4), agent_opens=True, run_id="wrong", backend=backend)


@pytest.mark.parametrize("from_sentence", [False, True])
def test_schema_valid_wrong_readings_never_stop_a_dialogue(from_sentence):
    ended_on_a_misreading = 0
    for seed in range(24):
        backend = WrongReader(seed, from_sentence=from_sentence)
        result, _agents, stats = _play(seed, backend, (("peer", "peer"), ("dominant", "submissive"))[seed % 2])
        assert result.outcome in ("booked", "dead-end", "stalled", "turn-limit", "unreadable")
        ended_on_a_misreading += result.misreadings > 0
        if result.outcome == "unreadable":  # the end is counted: a fallback or a misreading
            assert stats.fallbacks + result.misreadings >= 1
    if from_sentence:  # readings that fit the sentence got through, and some were caught downstream
        assert ended_on_a_misreading > 0


def test_the_mock_reads_every_sentence_it_writes_without_a_refusal():
    """The sentence check refuses nothing the mock says and reads (no retry in a clean run)."""
    for seed in range(12):
        _result, _agents, stats = _play(seed, MockBackend(exact=True))
        assert stats.retries == 0 and stats.fallbacks == 0


def test_a_policy_illegal_move_without_any_misreading_is_still_an_internal_error():
    """The relaxation is only for moves resting on a misreading: a policy's own illegal
    move (every reading right) still raises IllegalMove (exit 1, asking for a report)."""
    from policies.dominance import respond
    from scenarios.restaurants import load_domain
    from simcore.driver import play
    from simcore.errors import IllegalMove
    from simcore.protocols.dialogue import Accept, Decision, DialogueGame, Proposal, StatePreference

    class Scripted:
        relation = "peer"

        def __init__(self, name, moves):
            self.name, self.moves = name, list(moves)

        def act(self, observation):
            return respond(self, observation)

        def decide(self, heard):
            return Decision(self.moves.pop(0), "test", "scripted")

        def speak(self, utt):
            return repr(utt)

        def commit(self, utt):
            pass

        def hear(self, text):
            return eval(text, {"StatePreference": StatePreference, "Accept": Accept, "Proposal": Proposal})

    dom = load_domain("restaurants-small-v1")
    a = Scripted("agent", [StatePreference("cuisine", None, "Italian")])
    b = Scripted("user", [Accept(Proposal("cuisine", "French"))])  # accepts what nobody proposed
    with pytest.raises(IllegalMove, match="never proposed"):
        play(DialogueGame().start(dom, "agent", "t"), {"agent": a, "user": b})
