"""Record a run through RecordingBackend, replay it through ReplayBackend: same bytes."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from mockllm.backend import Message
from mockllm.cassette import RecordingBackend, ReplayBackend, request_key
from mockllm.client import ModelClient
from simcore.errors import BackendError, BackendFatal, InputError
from simcore.seeding import generator
from simcore.transcript import Event, write_jsonl
from toy_study import WordTask


class MoodyBackend:
    """Stands in for a real model: answers vary between identical requests, some are
    unreadable, some calls fail -- everything a replay has to reproduce."""

    WORDS = ("apple", "pear", "plum", "Not Valid!", "fig", "kiwi", "lime")

    def __init__(self):
        self.calls = 0

    def chat(self, messages, *, temperature=0.0, seed=None):
        self.calls += 1
        if self.calls % 7 == 0 or (seed == 5 and self.calls % 4 == 0):
            raise BackendError("moody: HTTP 503 after 3 attempt(s)")
        return self.WORDS[(self.calls * 3 + (seed or 0)) % len(self.WORDS)] + ("\u00e9" if self.calls % 5 == 0 else "")


def a_run(backend, jobs: int = 6) -> bytes:
    """A small negotiation-like run: per job, a few questions; the transcript bytes."""
    buf = io.StringIO()
    for j in range(jobs):
        rng = generator(9, "cassette-test", j)
        client = ModelClient(backend)
        events = []
        for turn in range(4):
            word = client.ask(WordTask(), rng, fallback=lambda: "fallback", topic=f"fruit {turn % 2}")
            events.append(Event(run=f"toy/j{j}", seq=turn, speaker="ab"[turn % 2], phase="say", text=word,
                                hidden={"fallbacks": client.stats.fallbacks}))
        # the very same request twice in a row: a real model may answer differently
        msgs = WordTask().messages(topic="again")
        for k in range(2):
            try:
                text = backend.chat(msgs, temperature=0.7, seed=5)
            except BackendError as exc:
                text = f"error: {exc}"
            events.append(Event(run=f"toy/j{j}", seq=4 + k, speaker="c", phase="raw", text=text))
        write_jsonl(events, buf)
    return buf.getvalue().encode("utf-8")


def test_a_recorded_run_replays_byte_identically(tmp_path):
    path = tmp_path / "cassettes" / "run.jsonl"
    recorded = a_run(RecordingBackend(MoodyBackend(), str(path)))
    texts = [json.loads(line)["text"] for line in recorded.decode().splitlines()]
    assert "fallback" in texts and any(t.startswith("error: moody") for t in texts)  # it met failures
    header, *rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert set(header) == {"cassette"}
    assert any("error" in r for r in rows) and all(("error" in r) != ("response" in r) for r in rows)
    replayed = a_run(ReplayBackend(str(path)))
    assert replayed == recorded
    assert a_run(ReplayBackend(str(path))) == recorded  # and again, from a fresh replay


def test_cassette_lines_hold_the_exchange_and_nothing_else(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = RecordingBackend(MoodyBackend(), str(path))
    msgs = (Message("system", "TASK: word\nhi"), Message("user", "### CONTEXT\n{\"topic\":\"é\"}"))
    answer = rec.chat(msgs, temperature=0.2, seed=3)
    header, line = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(header) == {"cassette": {"tries": None, "temperature": None}}  # no backend named
    row = json.loads(line)
    assert set(row) == {"key", "messages", "temperature", "seed", "response"}
    assert row["key"] == request_key(msgs, 0.2, 3) and row["response"] == answer
    assert row["messages"] == [m.to_dict() for m in msgs]


def test_replay_of_an_unrecorded_request_is_a_clear_error(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = RecordingBackend(MoodyBackend(), str(path))
    msgs = WordTask().messages(topic="x")
    rec.chat(msgs, seed=1)
    replay = ReplayBackend(str(path))
    replay.chat(msgs, seed=1)
    with pytest.raises(BackendFatal, match=r"no recorded response .*'TASK: word'.*seed=2.*re-record"):
        replay.chat(msgs, seed=2)  # a different seed is a different request
    with pytest.raises(BackendFatal):
        replay.chat(msgs, seed=1, temperature=0.5)


#: a cassette holding one exchange no test asks for
UNRELATED = '{"cassette": {}}\n{"key": "another request", "response": "x"}\n'


def test_a_replay_miss_is_never_a_silent_fallback(tmp_path):
    """The miss stops the caller even when it gives a fallback (it is not a BackendError)."""
    path = tmp_path / "other.jsonl"
    path.write_text(UNRELATED)
    client = ModelClient(ReplayBackend(str(path)))
    with pytest.raises(BackendFatal, match=r"other.jsonl: no recorded response .*'TASK: word'"):
        client.ask(WordTask(), np.random.default_rng(0), fallback=lambda: "rule", topic="x")


def test_replay_misses_may_be_asked_to_fall_back(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text(UNRELATED)
    client = ModelClient(ReplayBackend(str(path), misses="fallback"))
    assert client.ask(WordTask(), np.random.default_rng(0), fallback=lambda: "rule", topic="x") == "rule"
    assert client.stats.backend_errors == 1
    with pytest.raises(InputError, match="--replay-misses: sometimes"):
        ReplayBackend(str(path), misses="sometimes")


def test_a_fatal_failure_is_not_recorded(tmp_path):
    class Refusing:
        def chat(self, messages, *, temperature=0.0, seed=None):
            raise BackendFatal("http://x: HTTP 401 (unauthorized)")

    path = tmp_path / "c.jsonl"
    with pytest.raises(BackendFatal):
        RecordingBackend(Refusing(), str(path)).chat(WordTask().messages(topic="x"), seed=1)
    assert not path.exists() or path.read_text() == ""


@pytest.mark.parametrize("content, field", [
    (b'{"cassette": {}}\n{not json}\n', "line 2"),
    (b'{"cassette": {}}\n\n{"key": "k"}\n', "line 3"),
    (b'{"cassette": {}}\n{"key": "k", "response": 7}\n', "line 2"),
    (b'{"cassette": {}}\n{"key": ["k"], "response": "x"}\n', "line 2"),
    (b'{"cassette": {}}\n[1, 2]\n', "line 2"),
    (b'{"cassette": {}}\n{"key": "k", "response": "\xff"}\n', ""),
    (b"{not json}\n", "line 1"),
    (b"[1, 2]\n", "line 1"),
])
def test_a_malformed_cassette_names_file_and_line(tmp_path, content, field):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        ReplayBackend(str(path))
    assert info.value.source == str(path) and info.value.field == field


@pytest.mark.parametrize("content, problem", [
    (b"", "is empty"),
    (b"\n\n", "is empty"),
    (b'{"key": "k", "response": "x"}\n', "line 1: not a cassette header"),
    (b'\n{"cassette": {}}\n{"key": "k", "response": "x"}\n', "line 1: not a cassette header"),
    (b'{"cassette": {"backend": "mock-v1"}}\n', "holds no exchange"),
    (b'{"cassette": {}}\n\n', "holds no exchange"),
])
def test_an_empty_or_headerless_cassette_is_refused_before_any_request(tmp_path, content, problem):
    path = tmp_path / "c.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match=f"^{path}: {problem}"):
        ReplayBackend(str(path))


def test_a_missing_cassette_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="No such file"):
        ReplayBackend(str(tmp_path / "absent.jsonl"))


def test_registered_tasks_replay_through_the_mock(tmp_path):
    """The real task prompts of the systems, answered by the mock, replay exactly."""
    from mockllm.mock import MockBackend
    from mockllm.tasks import all_tasks

    tasks = all_tasks()
    if not tasks:
        pytest.skip("no task modules registered yet")
    path = tmp_path / "mock.jsonl"
    rec = RecordingBackend(MockBackend(), str(path))
    exchanges = []
    for task in tasks.values():
        for i, ctx in enumerate(task.examples(np.random.default_rng(3))[:3]):
            msgs = task.messages(**ctx)
            exchanges.append((msgs, i, rec.chat(msgs, temperature=0.0, seed=i)))
    replay = ReplayBackend(str(path))
    assert [replay.chat(m, temperature=0.0, seed=s) for m, s, _ in exchanges] == [a for _, _, a in exchanges]
