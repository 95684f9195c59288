"""The Phase-1 proposal's plain items go to the in-process mock as they are
(``Task.mock_reads_fields``, no JSON round trip).  That changes nothing but speed: over
made-up contexts -- items as lists or tuples, names and values that are str subclasses
writing themselves otherwise, willingness as ints, bools, floats or None, some refused --
every ask takes the full prompt round trip's value, counts, record and backend calls, with
and without noise; and only plain fields are handed over (shown by a sloppy plainness test,
which these tests refuse)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mockllm import client as client_module
from mockllm import mock
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from tests.mockasks import asks
from mockllm.tasks import plain_fields
from mockllm.travel import PROPOSE, REASONS, SPEAK


class Shouty(str):
    """A name that writes itself in capitals in an f-string (its JSON text is its own)."""

    def __format__(self, spec):
        return str.upper(self)


NAME = st.sampled_from(["dining budget tier", "room type", "Morning (06-12)", "TASK:", "x"]).flatmap(
    lambda s: st.sampled_from([s, Shouty(s)]))
WILL = st.one_of(st.none(), st.integers(1, 10), st.booleans(), st.sampled_from([8.0, 3.5]))
ENTRY = st.fixed_dictionaries({"item": NAME, "value": NAME, "willingness": WILL})
CONTEXT = st.fixed_dictionaries({
    "items": st.lists(ENTRY, min_size=1, max_size=4).flatmap(lambda xs: st.sampled_from([xs, tuple(xs)])),
    "reason": st.sampled_from(list(REASONS[:3]) + ["none"]),
    "plain_wording": st.sampled_from([None, "varied", "fixed"]),
})
NOISE = ({}, {"exact": True}, {"tone_noise": 0.5})


def _asks(fast: bool, contexts, noise: dict, monkeypatch):
    return asks(PROPOSE, fast, contexts, noise, monkeypatch, 11)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(contexts=st.lists(CONTEXT, min_size=1, max_size=5), noise=st.sampled_from(NOISE))
def test_proposals_take_the_full_round_trips_values(monkeypatch, contexts, noise):
    full = _asks(False, contexts, noise, monkeypatch)
    fast = _asks(True, contexts, noise, monkeypatch)
    assert fast == full
    assert [repr(v) for v in fast[0]] == [repr(v) for v in full[0]]


def test_a_shouty_value_is_read_as_the_prompt_writes_it(monkeypatch):
    """The mock of the prompt text writes a str subclass's own characters; handed the object
    itself it would write it in capitals (the sloppy plainness test below does)."""
    ctx = {"items": [{"item": Shouty("room type"), "value": Shouty("Private room"), "willingness": 4}],
           "reason": "preference", "plain_wording": None}
    full = _asks(False, [ctx], {"exact": True}, monkeypatch)
    assert "Private room" in full[2][0]["answers"][0]["text"] and "PRIVATE" not in full[2][0]["answers"][0]["text"]
    assert _asks(True, [ctx], {"exact": True}, monkeypatch) == full


def test_a_sloppy_plainness_test_is_caught(monkeypatch):
    """With a plainness test that takes any fields as plain, the fast path hands the mock the
    caller's str subclasses and tuples: the values differ from the full round trip's."""
    ctx = {"items": ({"item": Shouty("room type"), "value": Shouty("Private room"), "willingness": 4},),
           "reason": "preference", "plain_wording": None}
    full = _asks(False, [ctx], {"exact": True}, monkeypatch)
    monkeypatch.setattr(client_module, "plain_fields", lambda fields: True)
    assert _asks(True, [ctx], {"exact": True}, monkeypatch) != full


@pytest.mark.parametrize("task, flag", [(PROPOSE, True), (SPEAK, False)])
def test_which_tasks_hand_over_their_fields(task, flag):
    """Only the proposal says so (the speak and read tasks' fields are scalars, which the JSON
    round trip already skips); the base class does not."""
    assert task.mock_reads_fields is flag
    assert plain_fields({"items": [{"item": "a", "value": "b", "willingness": None}], "reason": "none"})
    assert not plain_fields({"items": ({"item": "a"},), "reason": "none"})
    assert not plain_fields({"items": [{"item": Shouty("a")}], "reason": "none"})


class _MockSubclass(MockBackend):
    pass


@pytest.mark.parametrize("kind", ["subclass", "recording", "observed", "off"])
def test_no_other_backend_is_handed_the_fields(kind, tmp_path, monkeypatch):
    """A subclass, a cassette's recorder, the mock while calls are observed and the shortcut
    switched off: the proposal goes through ``chat`` (the prompt text), never the shortcut."""
    from mockllm import calllog
    from mockllm.cassette import RecordingBackend

    ctx = {"items": [{"item": "room type", "value": "Private room", "willingness": 4}], "reason": "preference"}
    want = ModelClient(MockBackend()).ask(PROPOSE, np.random.default_rng(2), **ctx)

    def refuse(*_a, **_k):
        raise AssertionError("the in-process shortcut was taken")

    monkeypatch.setattr(MockBackend, "answer_context", refuse)
    monkeypatch.setattr(MockBackend, "answer_known", refuse)
    monkeypatch.setattr(mock, "FASTPATH", kind != "off")
    backend = (_MockSubclass() if kind == "subclass" else
               RecordingBackend(MockBackend(), str(tmp_path / "c.jsonl")) if kind == "recording" else MockBackend())
    client = ModelClient(backend)
    for _ in range(2):
        if kind == "observed":
            with calllog.observing(lambda _e: None):
                got = client.ask(PROPOSE, np.random.default_rng(2), **ctx)
        else:
            got = client.ask(PROPOSE, np.random.default_rng(2), **ctx)
        assert got == want


BIG = 10 ** 5000  # (more digits than Python writes as text by default: the prompt cannot be rendered)


@pytest.mark.parametrize("task, ctx", [
    (PROPOSE, {"items": [{"item": "a", "value": "b", "willingness": BIG}], "reason": "none"}),
    (PROPOSE, {"items": [{"item": "a", "value": "b", "willingness": 4}], "reason": "none", "plain_wording": BIG}),
    (PROPOSE, {"items": [{"item": "a", "value": "b", "willingness": 2 ** 1999}], "reason": "none"}),
    (SPEAK, {"act": "keep", "item": "a", "value": "b", "willingness": BIG, "reason": "none"}),
    (SPEAK, {"act": "keep", "item": "a", "value": "b", "willingness": -BIG, "reason": "none"}),
    (SPEAK, {"act": "keep", "item": "a", "value": "b", "willingness": 2 ** 1999, "reason": "none"}),
])
def test_an_int_the_prompt_cannot_write_fails_as_the_prompt_does(monkeypatch, task, ctx):
    """An int too long for Python to write as text: the prompt's rendering raises, and so does
    the in-process ask (the same exception and message), never the mock's own error or an
    answer; an int just inside the bound is answered as the prompt's text would be."""

    def one(fast):
        monkeypatch.setattr(mock, "FASTPATH", fast)
        client = ModelClient(MockBackend(), exchanges=[])
        try:
            got = client.ask(task, np.random.default_rng(5), fallback=lambda: "fell back", **ctx)
        except Exception as exc:
            got = (type(exc).__name__, str(exc))
        return got, client.stats, client.exchanges

    assert one(True) == one(False)
