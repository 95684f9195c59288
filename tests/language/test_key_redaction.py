"""A server that echoes the Authorization header into its answers
must not get the API key into anything simcore writes -- cassette (requests and
responses), call log, transcripts, tables, standard output and error -- and the
recorded cassette still replays byte-identically."""

from __future__ import annotations

import json

import pytest

from clirun import simcore
from fakeopenai import FakeOpenAI
from mockllm.backend import Message
from mockllm.cassette import RecordingBackend
from mockllm.openai_compat import REDACTED, OpenAICompatBackend

SECRET = "sk-echo-9f8e7d6c5b4a-secret"
RUN = ["run", "dominance", "--dialogues", "2", "--agent", "dominant,submissive", "--user", "peer", "--seed", "4"]


@pytest.fixture
def echo_server(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    server = FakeOpenAI(echo_key=True)
    yield server
    server.close()


def _texts(root):
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()}


def test_an_echoed_key_is_in_no_file_and_no_output_and_the_cassette_replays(echo_server, tmp_path, capsys):
    live, replay = tmp_path / "live", tmp_path / "replay"
    cassette, calls = tmp_path / "c.jsonl", tmp_path / "calls.jsonl"
    code, out, err = simcore(capsys, *RUN, "--backend", "openai-compat-v1", "--backend-arg", f"base_url={echo_server.url}",
                             "--backend-arg", "model=m", "--out", str(live),
                             "--record", str(cassette), "--log-calls", str(calls), "--max-fallback-share", "1",
                             "--no-progress")
    assert code == 0, err
    # the key was sent, and echoed back
    assert all(p["headers"].get("Authorization") == f"Bearer {SECRET}" for p in echo_server.posts)
    texts = _texts(tmp_path)
    for name, text in {**texts, "stdout": out, "stderr": err}.items():
        assert SECRET not in text, f"API key found in {name}"
    # it is redacted where the answer went: the responses, the repair prompts, the transcripts
    rows = [json.loads(line) for line in cassette.read_text().splitlines()[1:]]
    assert any(f"Bearer {REDACTED}" in r.get("response", "") for r in rows)
    assert any(f"Bearer {REDACTED}" in m["content"] for r in rows for m in r["messages"] if m["role"] == "assistant")
    assert f"Bearer {REDACTED}" in (live / "transcripts.jsonl").read_text()
    # and the replay, offline, gives the same files byte for byte
    code, out2, err2 = simcore(capsys, *RUN, "--out", str(replay), "--replay", str(cassette),
                               "--max-fallback-share", "1", "--no-progress")
    assert code == 0, err2
    assert sorted(p.name for p in live.iterdir()) == sorted(p.name for p in replay.iterdir())
    for path in live.iterdir():
        assert path.read_bytes() == (replay / path.name).read_bytes(), path.name
    assert len(echo_server.posts) == len(rows)  # the replay asked the server nothing


def test_the_backend_redacts_its_answer_and_a_recording_its_requests(echo_server, tmp_path):
    backend = OpenAICompatBackend(echo_server.url, "m", timeout=5)
    prompt = (Message("system", "TASK: word\nSay a word."), Message("user", f"earlier: {SECRET}"))
    answer = backend.chat(prompt, seed=3)  # seed 3: the server answers with the header alone
    assert answer == f"Sorry, I only see your header: Bearer {REDACTED}"
    path = tmp_path / "c.jsonl"
    RecordingBackend(backend, str(path)).chat(prompt, seed=3)
    text = path.read_text()
    assert SECRET not in text and f"earlier: {REDACTED}" in text


def test_redact_replaces_every_occurrence_and_the_trimmed_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", f" {SECRET}\n")
    backend = OpenAICompatBackend("http://127.0.0.1:9/v1", "m", timeout=1)
    assert backend.redact(f"x {SECRET} y{SECRET}") == f"x {REDACTED} y{REDACTED}"
    monkeypatch.delenv("OPENAI_API_KEY")
    assert backend.redact(f"x {SECRET}") == f"x {SECRET}"  # no key: nothing to hide
