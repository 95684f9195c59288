"""The template mock's in-process shortcut changes nothing but speed: every
system's study writes byte-identical files with it on and off (the default noisy
mock-v1), a refused first answer is retried through the full prompt round trip, and no
other backend -- a subclass, a cassette's recorder, the mock while calls are observed
-- ever takes it."""

from __future__ import annotations

import os

import numpy as np
import pytest

from clirun import simcore
from mockllm import calllog, mock
from mockllm.backend import Message
from mockllm.cassette import RecordingBackend
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.tasks import prompt_context, read_prompt, reads_back
from mockllm.travel import PROPOSE, READ, SPEAK
from simcore.errors import ParseError

RUNS = {
    "mind": ["--groups", "6"],
    "scorable": ["--trials", "1"],
    "astra": ["--episodes", "2"],
    "dominance": ["--dialogues", "3"],
}


class _Spy:
    """Counts MockBackend.answer_context and answer_known calls (the shortcut) while installed."""

    def __init__(self, monkeypatch):
        self.n = 0
        real, real_known = MockBackend.answer_context, MockBackend.answer_known

        def counted(backend, task, context, seed):
            self.n += 1
            return real(backend, task, context, seed)

        def counted_known(backend, task, context, seed, key):
            self.n += 1
            return real_known(backend, task, context, seed, key)

        monkeypatch.setattr(MockBackend, "answer_context", counted)
        monkeypatch.setattr(MockBackend, "answer_known", counted_known)


def _files(out) -> dict[str, bytes]:
    got = {}
    for name in sorted(os.listdir(out)):
        data = (out / name).read_bytes()
        got[name] = data.replace(os.fsencode(out), b"OUT")  # metrics.json names the output directory
    return got


@pytest.mark.parametrize("system", sorted(RUNS))
def test_every_system_writes_the_same_files_with_the_shortcut_on_and_off(system, tmp_path, capsys, monkeypatch):
    spy = _Spy(monkeypatch)
    outs = {}
    for on in (False, True):
        monkeypatch.setattr(mock, "FASTPATH", on)
        before = spy.n
        out = tmp_path / ("on" if on else "off")
        code, _, err = simcore(capsys, "run", system, *RUNS[system], "--seed", "3", "--no-progress",
                               "--out", str(out))
        assert code == 0, err
        assert (spy.n > before) == on  # the shortcut was taken only when on
        outs[on] = _files(out)
    assert "transcripts.jsonl" in outs[True] and any(n.endswith(".csv") for n in outs[True])
    assert sorted(outs[False]) == sorted(outs[True])
    for name in outs[False]:
        assert outs[False][name] == outs[True][name], name


def test_prompt_context_is_what_the_mock_reads_back():
    rng = np.random.default_rng(5)
    for task in (SPEAK, READ, PROPOSE):
        assert reads_back(task)
        for ctx in task.examples(rng):
            fields = task.context_fields(ctx)
            _, read = read_prompt(task.messages(**ctx))
            got = prompt_context(dict(fields))
            assert got == read and [type(v) for v in got.values()] == [type(v) for v in read.values()]
    # a value JSON turns into another type goes through the round trip
    fields = {"a": (1, 2), "b": {"x": 1.5}, "c": None}
    assert prompt_context(fields) == {"a": [1, 2], "b": {"x": 1.5}, "c": None}
    with pytest.raises(TypeError):
        prompt_context({"a": {1, 2}})  # as rendering the prompt raises


def _ask_speak(client: ModelClient):
    return client.ask(SPEAK, np.random.default_rng(9), fallback=lambda: "fallback", act="propose",
                      item="dining atmosphere", value="Romantic", willingness=8, reason="preference")


class _MockSubclass(MockBackend):
    pass


@pytest.mark.parametrize("kind", ["subclass", "recording", "observed", "off"])
def test_no_other_backend_takes_the_shortcut(kind, tmp_path, monkeypatch):
    monkeypatch.setattr(mock, "FASTPATH", False)
    plain = _ask_speak(ModelClient(MockBackend()))  # the full prompt round trip
    monkeypatch.setattr(mock, "FASTPATH", kind != "off")

    def refuse(*_a, **_k):
        raise AssertionError("the in-process shortcut was taken")

    monkeypatch.setattr(MockBackend, "answer_context", refuse)
    if kind == "subclass":
        backend = _MockSubclass()
    elif kind == "recording":
        backend = RecordingBackend(MockBackend(), str(tmp_path / "c.jsonl"))
    else:
        backend = MockBackend()
    if kind == "observed":  # progress or --log-calls: every call's prompt size is reported
        seen = []
        with calllog.observing(seen.append):
            assert _ask_speak(ModelClient(backend)) == plain
        assert len(seen) == 1 and seen[0]["prompt_chars"] > 0
    else:
        assert _ask_speak(ModelClient(backend)) == plain


def test_a_refused_first_answer_is_retried_through_the_full_prompt(monkeypatch):
    """The first answer refused: the retry is a repair conversation sent to ``chat``,
    and the result and counts are those of the run without the shortcut."""
    results = {}
    for on in (False, True):
        monkeypatch.setattr(mock, "FASTPATH", on)
        refused = []
        real_check = type(SPEAK).check

        def check_once(self, msg, context, text):
            if not refused:
                refused.append(text)
                raise ParseError(self.id, "refused for the test", text)
            return real_check(self, msg, context, text)

        monkeypatch.setattr(type(SPEAK), "check", check_once)
        sent = []
        real_chat = MockBackend.chat

        def chat(backend, messages, **kw):
            sent.append(list(messages))
            return real_chat(backend, messages, **kw)

        monkeypatch.setattr(MockBackend, "chat", chat)
        backend = MockBackend()
        client = ModelClient(backend)
        value = _ask_speak(client)
        assert backend.calls == 2
        assert sent[-1][2] == Message("assistant", refused[0])
        assert "refused for the test" in sent[-1][3].content
        assert len(sent) == (1 if on else 2)  # on: only the retry is rendered
        results[on] = (value, client.stats.task_counts())
        monkeypatch.undo()
    assert results[False] == results[True]
    assert results[True][1][SPEAK.id]["repaired"] == 1


def test_a_task_with_its_own_rendering_or_an_unregistered_task_is_not_read_in_process():
    from mockllm import tasks

    class OwnPrompt(type(SPEAK)):
        def messages(self, **context):
            return super().messages(**context)

    class Unregistered(type(SPEAK)):
        id = "travel.speak-test-unregistered"

    assert reads_back(SPEAK)
    assert not reads_back(OwnPrompt())  # (not the registered task of its id either)
    assert not reads_back(Unregistered())
    own = OwnPrompt()
    saved = tasks._TASKS[SPEAK.id]
    try:
        tasks._TASKS[SPEAK.id] = own  # registered, but renders its own prompt
        tasks._READS_BACK.clear()
        assert not reads_back(own)
    finally:
        tasks._TASKS[SPEAK.id] = saved
        tasks._READS_BACK.clear()
    assert reads_back(SPEAK)
