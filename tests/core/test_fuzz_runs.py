"""Model output never crashes a run: every system, fuzzed through parse *and* the protocol.

A backend answers like the mock except at a few drawn requests, where it sends what a
model might send instead (:func:`tests.strategies.model_answers`: arbitrary text,
arbitrary JSON, the mock's JSON with a part replaced by a name of the scenario, deep
nesting, overlong numbers ...).  Each negotiation must finish, and the run's fallback
count must be exactly the number of asks whose two answers were both refused (plus,
for the dominance dialogue, the readings its protocol refused as no legal move of the
speaker): nothing crashes, and nothing is dropped silently.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from mockllm.callrng import CallRng
from mockllm.mock import MockBackend
from mockllm.tasks import read_prompt
from simcore.errors import ParseError
from tests.strategies import model_answers

RUNS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.data_too_large])
AT = st.sets(st.integers(0, 70), min_size=1, max_size=10)  # which requests get a drawn answer


class FuzzBackend:
    def __init__(self, data, at, inner=None):
        self.data, self.at = data, at
        self.inner = inner or MockBackend()
        self.log: list = []

    def chat(self, messages, *, temperature=0.0, seed=None):
        task, ctx = read_prompt(messages)
        answer = self.inner.chat(messages, temperature=temperature, seed=seed)
        if len(self.log) in self.at:
            answer = self.data.draw(model_answers(answer, ctx), label=f"answer {len(self.log)} ({task.id})")
        self.log.append((messages, task, ctx, answer))
        return answer


def _readable(task, ctx, text) -> bool:
    try:
        task.interpret(text, ctx)
    except ParseError:
        return False
    return True


def _problem(task, ctx, text) -> str:
    try:
        task.interpret(text, ctx)
    except ParseError as exc:
        return exc.problem
    raise AssertionError("readable")


def expected_fallbacks(log) -> int:
    """Asks whose answer and retry were both refused (a refused answer's retry is the next
    request: the repair conversation of the same prompt quoting the refused answer)."""
    from mockllm.client import repair_messages

    n, i = 0, 0
    while i < len(log):
        messages, task, ctx, text = log[i]
        if _readable(task, ctx, text):
            i += 1
            continue
        problem = _problem(task, ctx, text)
        assert i + 1 < len(log) and tuple(log[i + 1][0]) == repair_messages(messages, text, problem), \
            "a refused answer was not retried with its repair conversation"
        n += not _readable(task, log[i + 1][2], log[i + 1][3])
        i += 2
    return n


@RUNS
@given(data=st.data(), at=AT, relations=st.sampled_from([("peer", "peer"), ("dominant", "submissive"),
                                                         ("submissive", "dominant")]))
def test_dominance_dialogue(data, at, relations):
    from policies.dominance_state import random_preferences
    from scenarios.restaurants import load_domain
    from simcore.systems.dominance import play_dialogue

    dom = load_domain("restaurants-small-v1")
    backend = FuzzBackend(data, at, MockBackend(exact=True))
    result, _agents, stats = play_dialogue(dom, *relations, random_preferences(dom, np.random.default_rng(1)),
                                           random_preferences(dom, np.random.default_rng(2)), rng_agent=CallRng(3),
                                           rng_user=CallRng(4), agent_opens=True, run_id="fuzz", backend=backend)
    assert result.outcome in ("booked", "dead-end", "turn-limit", "unreadable")
    assert stats.fallbacks == expected_fallbacks(backend.log) + result.misreadings


@RUNS
@given(data=st.data(), at=AT, partner=st.sampled_from(["base", "greedy", "fair"]))
def test_astra_episode(data, at, partner):
    from scenarios.bilateral import load_domain
    from simcore.seeding import derive
    from simcore.systems.astra.match import play_episode

    backend = FuzzBackend(data, at)
    ep, rec = play_episode(load_domain("casino-v1"), "astra", partner, "integrative", derive(1, "fuzz"),
                           run_id="fuzz", backend=backend)
    assert ep.events[-1].phase == "end" and ep.status in ("agreement", "walk_away", "no_agreement")
    assert rec["fallbacks"] == expected_fallbacks(backend.log)


@RUNS
@given(data=st.data(), at=AT, variant=st.sampled_from(["mind-v1", "base-v1"]))
def test_mind_group(data, at, variant):
    from mockllm.client import ModelClient
    from scenarios.travel import generate_group
    from simcore.systems.mind.match import play_group
    from simcore.registry import make

    rng = np.random.default_rng(5)
    group = generate_group("fuzz", 3, rng)
    backend = FuzzBackend(data, at)
    client = ModelClient(backend)
    out = play_group(group, make("policy", variant), [0] * len(group.items), client, rng, "fuzz")
    assert len(out.items) == len(group.items)
    assert client.stats.fallbacks == expected_fallbacks(backend.log)


@RUNS
@given(data=st.data(), at=AT, method=st.sampled_from(["llm-pe-all", "proposed-all", "base-llm"]))
def test_scorable_session(data, at, method):
    from scenarios.scorable import load_game
    from simcore.systems.scorable.match import start
    from simcore.seeding import derive

    backend = FuzzBackend(data, at)
    res = start(load_game("harbour-sport-park"), method, derive(2, "fuzz"), backend=backend, run_id="fuzz").run()
    assert res.events[-1].phase == "result"
    assert res.fallbacks == expected_fallbacks(backend.log)
