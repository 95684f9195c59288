"""The in-process mock's known answers: for a task that ``knows_answers``
(``astra.speak``) the mock says whether its answer is the template's exact reading of the
context, and a :class:`ModelClient` parses and checks such an answer to a context (named
type for type by ``known_key``) it has accepted before no more.  That changes nothing but speed:
whole negotiations give the same episodes, transcripts, counts, exchange records and
backend calls as the full prompt round trip (``mock.FASTPATH`` off), with the default
noise and with a lot of it; single asks over made-up contexts (bools, floats and whole
numbers for units, tactics that are item names, refused answers) take the same values in
any order; a value handed out is the caller's own; and no other backend takes it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mockllm import astra, calllog, mock
from mockllm.adversarial import AdversarialBackend
from mockllm.cassette import RecordingBackend, ReplayBackend
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from tests.mockasks import asks
from mockllm.tasks import known_key, plain_fields
from policies.partners import PARTNER_PARAMS, make_partner
from scenarios.bilateral import load_domain
from simcore.api import astra_episode
from simcore.driver import play
from simcore.protocols.alternating import AlternatingGame

KINDS = sorted(PARTNER_PARAMS)
DOMAINS = ("casino-v1", "research-allocation-v1")
#: mock options: the default noise, none, and a lot (over-specified offers: invalid moves)
NOISE = ({}, {"exact": True}, {"astra_overspecify": 0.5, "astra_unclear_answer": 0.5, "astra_misread": 0.3})


def _partners_run(fast: bool, monkeypatch, kind_a: str, kind_b: str, domain: str, seed: int, rounds: int,
                  noise: dict):
    """Two partners with words, each with its own recording client; everything observable."""
    monkeypatch.setattr(mock, "FASTPATH", fast)
    dom = load_domain(domain)
    pv = dom.setup(dom.setups[0].name).partners[0]
    backend = MockBackend(**noise)
    ca, cb = ModelClient(backend, exchanges=[]), ModelClient(backend, exchanges=[])
    a = make_partner(kind_a, dom, dom.agent, ca, np.random.default_rng([seed, 1]), side="agent")
    b = make_partner(kind_b, dom, pv, cb, np.random.default_rng([seed, 2]))
    ep = play(AlternatingGame(round_limit=rounds).start(dom, dom.agent, pv, f"known/{seed}"), {"agent": a, "partner": b})
    return ([e.to_json() for e in ep.events], ep.status, ep.outcome, ep.agent_score, ep.partner_score,
            ep.invalid_moves, ca.stats, cb.stats, ca.exchanges, cb.exchanges, backend.calls,
            a.my_offers, b.my_offers, a.target, b.target)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind_a=st.sampled_from(KINDS), kind_b=st.sampled_from(KINDS), domain=st.sampled_from(DOMAINS),
       seed=st.integers(0, 2**32 - 1), rounds=st.integers(2, 40), noise=st.sampled_from(NOISE))
def test_partner_negotiations_with_words_are_the_full_round_trips(monkeypatch, kind_a, kind_b, domain, seed,
                                                                  rounds, noise):
    full = _partners_run(False, monkeypatch, kind_a, kind_b, domain, seed, rounds, noise)
    fast = _partners_run(True, monkeypatch, kind_a, kind_b, domain, seed, rounds, noise)
    assert fast == full


def test_the_benchmark_negotiation_is_the_full_round_trip_and_checks_each_answer_once(monkeypatch):
    """Two Boulware agents for 100 rounds (benchmarks/bench_negmas.py): identical, and
    astra.speak's check runs once per different answer, not once per ask."""
    checked = []
    real = type(astra.SPEAK).check

    def counted(self, said, context, text):
        checked.append(text)
        return real(self, said, context, text)

    monkeypatch.setattr(type(astra.SPEAK), "check", counted)
    full = _partners_run(False, monkeypatch, "boulware", "boulware", "casino-v1", 7, 100, {})
    n_full = len(checked)
    checked.clear()
    fast = _partners_run(True, monkeypatch, "boulware", "boulware", "casino-v1", 7, 100, {})
    assert fast == full
    asks = full[6].asks + full[7].asks
    assert n_full == asks > 100
    assert max(Counter(checked).values()) <= 2 and len(checked) < asks / 3  # (each of 2 clients: once)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(agent=st.sampled_from(["astra-agent-v3", "astra-agent-v1", "no-astra-agent-v2"]),
       partner=st.sampled_from(["base-partner-v2", "greedy-partner-v1", "fair-partner-v1", "boulware-partner-v1"]),
       domain=st.sampled_from(DOMAINS), seed=st.integers(0, 10**6), noise=st.sampled_from(NOISE))
def test_astra_episodes_are_the_full_round_trips(monkeypatch, agent, partner, domain, seed, noise):
    got = {}
    for fast in (False, True):
        monkeypatch.setattr(mock, "FASTPATH", fast)
        backend = MockBackend(**noise)
        ep = astra_episode(agent, partner, domain=domain, seed=seed, rounds=8, backend=backend)
        got[fast] = ([e.to_json() for e in ep.events], ep.status, ep.outcome, backend.calls)
    assert got[True] == got[False]


# ------------------------------------------------------------------ single asks
ITEMS = ("food", "water", "XYZ", "REO")
UNITS = st.one_of(st.integers(-1, 4), st.booleans(), st.sampled_from([1.0, 2.0, -0.0, 0.0, 0.5]))
SIDE = st.dictionaries(st.sampled_from(ITEMS), UNITS, max_size=3)
OFFER = st.one_of(st.none(), st.fixed_dictionaries({"self": SIDE, "other": SIDE},
                                                   optional={"shared": st.dictionaries(
                                                       st.sampled_from(["lab", "XYZ"]),
                                                       st.one_of(st.booleans(), st.sampled_from(["x", "y"]), st.just(1)),
                                                       max_size=2),
                                                       "extra": st.just({})}))
CONTEXT = st.fixed_dictionaries({
    "role": st.sampled_from(["agent", "partner"]),
    "mode": st.sampled_from(["offer", "greet", "accept", "offer", "talk"]),
    "offer": OFFER,
    # tactics outside the openers' table share the default opener, so the same words may
    # leak one tactic and not another ("XYZ" is also an item name)
    "tactic": st.sampled_from([None, "XYZ", "ABC", "REO", "RC"]),
    "mention": st.sampled_from([None, "food", "XYZ"]),
    "warning": st.booleans(),
})


def _asks(fast: bool, contexts, noise: dict, monkeypatch, task=astra.SPEAK):
    return asks(task, fast, contexts, noise, monkeypatch, 3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(contexts=st.lists(CONTEXT, min_size=1, max_size=8), repeat=st.lists(st.integers(0, 7), max_size=12),
       noise=st.sampled_from(NOISE))
def test_single_asks_take_the_full_round_trips_values_in_any_order(monkeypatch, contexts, repeat, noise):
    contexts = contexts + [contexts[k % len(contexts)] for k in repeat]
    full = _asks(False, contexts, noise, monkeypatch)
    fast = _asks(True, contexts, noise, monkeypatch)
    assert fast == full
    # type for type: 1, 1.0 and true are different answers (equal as Python values)
    assert [repr(v) for v in fast[0]] == [repr(v) for v in full[0]]


ORDER = st.lists(st.sampled_from(["food", "water", "XYZ", '["x', "TASK:", "Rope matters most to us"]), max_size=4)
ANSWER_CONTEXT = st.fixed_dictionaries({"question": st.sampled_from(["highest", "lowest", "other", 1]),
                                        "order": ORDER})
READ_CONTEXT = st.fixed_dictionaries({
    "utterance": st.one_of(st.sampled_from(["My highest priority is food; food matters most to us.",
                                            "My lowest priority is XYZ; XYZ matters least to us.",
                                            "water matters most, and food matters least", "Hard to say."]),
                           st.text(max_size=40)),
    "issues": ORDER})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(task=st.sampled_from([astra.ANSWER, astra.READ]), data=st.data(), repeat=st.lists(st.integers(0, 7), max_size=10),
       noise=st.sampled_from(NOISE))
def test_answers_and_readings_take_the_full_round_trips_values(monkeypatch, task, data, repeat, noise):
    contexts = data.draw(st.lists(ANSWER_CONTEXT if task is astra.ANSWER else READ_CONTEXT, min_size=1, max_size=6))
    contexts = contexts + [contexts[k % len(contexts)] for k in repeat]
    full = _asks(False, contexts, noise, monkeypatch, task)
    fast = _asks(True, contexts, noise, monkeypatch, task)
    assert fast == full


@pytest.mark.parametrize("task, context", [
    (astra.SPEAK, dict(role="agent", mode="offer", offer={"self": {"food": 1, "water": 0}, "other": {"food": 2, "water": 3}},
                       tactic="RC", mention=None, warning=False)),
    (astra.ANSWER, dict(question="highest", order=["water", "food"])),
    (astra.READ, dict(utterance="My highest priority is food; water matters least to us.",
                      issues=["food", "water", "firewood"]))])
def test_a_noisy_answer_is_never_taken_for_the_exact_one(monkeypatch, task, context):
    """The same context asked again and again, half the answers noisy: each ask takes the
    full round trip's value (a noisy answer remembered as the context's would be handed
    out for the exact one, and the other way round)."""
    noise = {"astra_overspecify": 0.5, "astra_unclear_answer": 0.5, "astra_misread": 0.5}
    full = _asks(False, [context] * 40, noise, monkeypatch, task)
    fast = _asks(True, [context] * 40, noise, monkeypatch, task)
    assert fast == full
    assert len({repr(v) for v in full[0]}) > 1  # (both kinds of answer were given)


def test_equal_values_of_other_types_are_other_answers(monkeypatch):
    ctx = dict(role="agent", mode="offer", tactic=None, mention=None, warning=False)
    offers = [{"self": {"food": 1}, "other": {"food": 2}}, {"self": {"food": True}, "other": {"food": 2}},
              {"self": {"food": 1.0}, "other": {"food": 2}}]
    full = _asks(False, [dict(ctx, offer=o) for o in offers], {"exact": True}, monkeypatch)
    fast = _asks(True, [dict(ctx, offer=o) for o in offers], {"exact": True}, monkeypatch)
    assert fast == full
    assert full[0][0][1] == offers[0] and full[0][1] == full[0][2] == "fell back"  # (a bool or a float: refused)


def test_the_same_words_may_leak_one_tactic_and_not_another(monkeypatch):
    """Tactics outside the openers' table share one opener: the same answer text, refused
    (it names the tactic) when the tactic is an item of the offer, accepted otherwise."""
    offer = {"self": {"XYZ": 1}, "other": {"XYZ": 2}}
    contexts = [dict(role="agent", mode="offer", offer=offer, tactic=t, mention=None, warning=False)
                for t in ("ABC", "XYZ", "ABC", "XYZ", "RC", "ABC")]
    full = _asks(False, contexts, {"exact": True}, monkeypatch)
    fast = _asks(True, contexts, {"exact": True}, monkeypatch)
    assert fast == full
    assert full[0][1] == full[0][3] == "fell back" and full[0][0][1] == offer


def test_a_value_handed_out_is_the_callers_own(monkeypatch):
    monkeypatch.setattr(mock, "FASTPATH", True)
    client = ModelClient(MockBackend(exact=True))
    ctx = dict(role="agent", mode="offer", offer={"self": {"food": 1}, "other": {"food": 2}, "shared": {"lab": "x"}},
               tactic=None, mention=None, warning=False)
    first = client.ask(astra.SPEAK, np.random.default_rng(0), **ctx)
    first[1]["self"]["food"] = 99
    first[1]["shared"]["lab"] = "changed"
    second = client.ask(astra.SPEAK, np.random.default_rng(0), **ctx)
    assert second == (first[0], ctx["offer"])
    second[1]["other"]["food"] = 5
    assert client.ask(astra.SPEAK, np.random.default_rng(0), **ctx)[1] == ctx["offer"]
    assert ctx["offer"] == {"self": {"food": 1}, "other": {"food": 2}, "shared": {"lab": "x"}}  # (not the mock's)


class _MockSubclass(MockBackend):
    pass


@pytest.mark.parametrize("kind", ["subclass", "recording", "replaying", "observed", "adversarial", "off"])
def test_no_other_backend_is_asked_for_known_answers(kind, tmp_path, monkeypatch):
    """A subclass, a cassette's recorder and player, the adversarial backend, the mock while
    calls are observed, and the shortcut switched off: every ask goes through ``chat``."""
    ctx = dict(role="agent", mode="offer", offer={"self": {"food": 1}, "other": {"food": 2}},
               tactic="RC", mention=None, warning=False)
    monkeypatch.setattr(mock, "FASTPATH", False)
    cassette = str(tmp_path / "c.jsonl")
    recorder = RecordingBackend(MockBackend(), cassette)
    plain = ModelClient(recorder).ask(astra.SPEAK, np.random.default_rng(1), **ctx)
    assert plain == ModelClient(MockBackend()).ask(astra.SPEAK, np.random.default_rng(1), **ctx)
    monkeypatch.setattr(mock, "FASTPATH", kind != "off")

    def refuse(*_a, **_k):
        raise AssertionError("the known-answer shortcut was taken")

    monkeypatch.setattr(MockBackend, "answer_known", refuse)
    monkeypatch.setattr(MockBackend, "answer_context", refuse)
    backend = {"subclass": _MockSubclass, "off": MockBackend, "observed": MockBackend,
               "adversarial": AdversarialBackend}.get(kind)
    if kind == "recording":
        backend = RecordingBackend(MockBackend(), str(tmp_path / "d.jsonl"))
    elif kind == "replaying":
        backend = ReplayBackend(cassette)
    else:
        backend = backend()
    client = ModelClient(backend)
    for _ in range(3):  # (asked again: nothing remembered either)
        if kind == "observed":
            seen = []
            with calllog.observing(seen.append):
                got = client.ask(astra.SPEAK, np.random.default_rng(1), fallback=lambda: "fell back", **ctx)
            assert len(seen) >= 1 and seen[0]["prompt_chars"] > 0
        else:
            got = client.ask(astra.SPEAK, np.random.default_rng(1), fallback=lambda: "fell back", **ctx)
        if kind != "adversarial":  # (its answers are its own)
            assert got == plain
    assert not client._known


def test_plain_fields_are_json_data_of_exact_types():
    class Text(str):
        pass

    assert plain_fields({"a": 1, "b": {"x": {"y": [1, 2.0, None, True, "s"]}}, "c": None})
    for bad in ((1,), {1: 2}, {"k": {1, 2}}, Text("x"), {"k": Text("x")}, {Text("k"): 1}, [[{"k": (1,)}]]):
        assert not plain_fields({"a": 1, "b": bad}), bad
    deep = []
    for _ in range(20):
        deep = [deep]
    assert not plain_fields({"a": deep})


def test_known_keys_name_fields_type_for_type():
    from collections import OrderedDict

    class Whole(int):
        pass

    def key(v):
        return known_key({"role": "agent", "offer": {"self": {"food": v}}})

    pairs = [(1, True), (1, 1.0), (0.0, -0.0), ("1", 1), ([1], (1,)), ([1], {"1": 1}), (None, "None"), ([[1]], [1]),
             ({"a": 1, "b": 2}, {"b": 2, "a": 1}), ({"1": 1}, {1: 1}), (b"x", "x"), (1, 2**40)]
    for a, b in pairs:
        assert key(a) is not None and key(a) != key(b), (a, b)
        assert key(a) == key(a if not isinstance(a, (dict, list)) else type(a)(a))  # (equal copies: equal keys)
    for odd in (Whole(1), OrderedDict(a=1), object()):
        assert key(odd) is None
