"""A lone surrogate in a model's answer (JSON ``"\\ud800"``) is never a traceback.

The HTTP backend makes every answer well-formed Unicode where it decodes it (a lone
surrogate becomes U+FFFD, a pair split over two streamed pieces is joined), so every
later consumer -- the cassette, the repair prompt, transcripts, reports, ``simcore
show`` -- can write it.  Tested through the real paths: a fake OpenAI-compatible server
answering with a lone surrogate, every system, with and without ``--record`` (and the
replay of what was recorded), then ``simcore show`` and ``simcore report`` of the
outputs.  A file that holds a lone surrogate was not written by simcore: its readers
refuse it in one line (exit 2).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from http.server import BaseHTTPRequestHandler

from clirun import one_line, simcore
from fakeopenai import FakeOpenAI
from localserver import LocalServer, send_body
from mockllm.backend import Message
from mockllm.cassette import RecordingBackend, ReplayBackend, request_key
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.openai_compat import OpenAICompatBackend, list_models
from mockllm.tasks import get_task
from systemtasks import tasks
from simcore.errors import BackendError, ParseError
from simcore import textsafe

LONE = "\ud800"
RUNS = {
    "dominance": ["--dialogues", "1", "--agent", "dominant", "--user", "peer"],
    "mind": ["--groups", "1", "--sizes", "2"],
    "astra": ["--episodes", "1", "--partners", "base", "--setups", "integrative", "--rounds", "3"],
    "scorable": ["--trials", "1", "--methods", "llm-pe-p1", "--keep-transcripts", "1"],
}


def with_lone_surrogate(answer: str, body: dict) -> str:
    """The answer with a lone surrogate inside its words: before the end of the first
    sentence of a JSON text ('.\\ud800"'), else at the end of the text."""
    if '."' in answer:
        return answer.replace('."', f".{LONE}\"", 1)
    return answer + LONE


@pytest.fixture(scope="module")
def server():
    srv = FakeOpenAI(("m",), answer=with_lone_surrogate)
    yield srv
    srv.close()


def _files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("record", [False, True], ids=["plain", "record"])
@pytest.mark.parametrize("system", sorted(RUNS))
def test_every_system_runs_with_lone_surrogates_in_the_answers(system, record, server, tmp_path, capsys):
    out, cassette = tmp_path / "live", tmp_path / "c.jsonl"
    argv = ["run", system, *RUNS[system], "--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}",
            "--backend-arg", "model=m", "--max-fallback-share", "1", "--no-progress", "--out", str(out)]
    if record:
        argv += ["--record", str(cassette)]
    posts = len(server.posts)
    code, _, err = simcore(capsys, *argv)
    assert code == 0, err
    assert len(server.posts) > posts
    files = _files(out)
    for name, data in files.items():
        text = data.decode("utf-8")  # every output file is UTF-8 text
        assert "\\ud800" not in text.lower(), name
    transcript = files["transcripts.jsonl"].decode("utf-8")
    assert "\ufffd" in transcript or "\\ufffd" in transcript  # the answers' words, the broken character replaced
    if record:
        rows = [json.loads(line) for line in cassette.read_text(encoding="utf-8").splitlines()[1:]]
        assert rows and all(LONE not in r["response"] for r in rows)
        assert any("\ufffd" in r["response"] for r in rows)
        # the replay, offline, writes the same files byte for byte
        code, _, err = simcore(capsys, *argv[:argv.index("--backend")], "--max-fallback-share", "1", "--no-progress",
                               "--out", str(tmp_path / "replay"), "--replay", str(cassette))
        assert code == 0, err
        assert _files(tmp_path / "replay") == files
    # the readers of these outputs: simcore show and simcore report
    code, shown, err = simcore(capsys, "show", str(out / "transcripts.jsonl"), "--limit", "1")
    assert code == 0 and "\ufffd" in shown, err
    code, _, err = simcore(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    assert (tmp_path / "r.html").read_bytes().decode("utf-8")


def with_an_escaped_lone_surrogate(answer: str, body: dict) -> str:
    """The answer with the model's own JSON writing a lone surrogate as an escape
    (the six characters ``\\ud800``) before the end of its first sentence."""
    return answer.replace('."', '.\\ud800"', 1)


def test_a_models_own_json_escape_of_a_lone_surrogate_is_replaced_too(tmp_path, capsys):
    server = FakeOpenAI(("m",), answer=with_an_escaped_lone_surrogate)
    try:
        code, _, err = simcore(capsys, "run", "astra", *RUNS["astra"], "--backend", "openai-compat-v1",
                               "--backend-arg", f"base_url={server.url}", "--backend-arg", "model=m",
                               "--max-fallback-share", "1", "--no-progress", "--out", str(tmp_path / "out"))
    finally:
        server.close()
    assert code == 0, err
    transcript = (tmp_path / "out" / "transcripts.jsonl").read_text(encoding="utf-8")
    assert "\ufffd" in transcript and "\\ud800" not in transcript


@pytest.mark.parametrize("task_id", sorted(tasks()))
def test_no_tasks_reading_keeps_a_lone_surrogate_its_answer_escaped(task_id):
    """Every string of a JSON answer starting with the escape ``\\ud800``: the reading is
    refused or holds U+FFFD, never a lone surrogate."""
    task = tasks()[task_id]
    for ctx in task.examples(np.random.default_rng(0))[:3]:
        answer = MockBackend(exact=True).chat(task.messages(**ctx), seed=1)
        broken = re.sub(r'(?<=[:\[,]) ?"', lambda m: m.group() + "\\ud800", answer)
        try:
            value = task.interpret(broken, ctx)
        except ParseError:
            continue
        assert "\\ud800" not in repr(value)


def _transcript_with_lone_surrogate(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = simcore(capsys, "run", "dominance", "--dialogues", "1", "--agent", "dominant", "--user", "peer",
                           "--no-progress", "--out", str(out))
    assert code == 0, err
    path = out / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"text":"', '"text":"\\ud800', 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_show_and_report_refuse_a_transcript_holding_a_lone_surrogate_in_one_line(tmp_path, capsys):
    """Such a file was not written by simcore (its writers make text well-formed): as a
    line that is not UTF-8, it is bad input, one line naming the file and the line."""
    out = _transcript_with_lone_surrogate(tmp_path, capsys)
    code, _, err = simcore(capsys, "show", str(out / "transcripts.jsonl"))
    assert code == 2 and "line 1" in one_line(err) and "lone surrogate (\\ud800)" in one_line(err)
    code, _, err = simcore(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "transcripts.jsonl" in one_line(err) and "lone surrogate" in one_line(err)


def test_report_refuses_metrics_holding_a_lone_surrogate_in_one_line(tmp_path, capsys):
    out = _transcript_with_lone_surrogate(tmp_path, capsys)
    (out / "transcripts.jsonl").unlink()
    metrics = (out / "metrics.json").read_text(encoding="utf-8")
    (out / "metrics.json").write_text(metrics.replace('"system": "dominance"', '"system": "dominance", '
                                                                                '"note": "\\udc80"', 1),
                                      encoding="utf-8")
    code, _, err = simcore(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "metrics.json" in one_line(err) and "lone surrogate (\\udc80)" in one_line(err)


# --- the backend's decoding, unit by unit -------------------------------------------------
class Scripted:
    """A server answering each POST with the next raw body of ``bodies`` (the last one again)."""

    def __init__(self, bodies, status=200, content_type="application/json"):
        self.bodies = list(bodies)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = fake.bodies.pop(0) if len(fake.bodies) > 1 else fake.bodies[0]
                send_body(self, body, status, content_type)

            def do_GET(self):
                send_body(self, fake.bodies[0], status, content_type)

            def log_message(self, *args):
                pass

        self.local = LocalServer(Handler)
        self.url = self.local.url


@pytest.fixture
def scripted(request):
    srv = Scripted(*request.param)
    yield srv
    srv.local.close()


def _event(content=None, finish=None):
    choice = {"index": 0, "delta": {} if content is None else {"content": content}, "finish_reason": finish}
    return f"data: {json.dumps({'choices': [choice]})}\n\n"


PLAIN = json.dumps({"choices": [{"index": 0, "finish_reason": "stop\ud800",
                                 "message": {"role": "assistant", "content": "SAY: Hi\ud800 there"}}]})
STREAMED = _event("SAY: Hi \ud83d") + _event("\ude00 and \udcc3") + _event(None, "stop") + "data: [DONE]\n\n"


@pytest.mark.parametrize("scripted", [([PLAIN.encode()],)], indirect=True)
def test_a_lone_surrogate_in_an_answer_becomes_the_replacement_character(scripted):
    backend = OpenAICompatBackend(scripted.url, "m")
    assert backend.chat([Message("user", "hi")]) == "SAY: Hi\ufffd there"
    assert backend.last_finish_reason == "stop\ufffd"


@pytest.mark.parametrize("scripted", [([STREAMED.encode()], 200, "text/event-stream")], indirect=True)
def test_a_streamed_pair_split_over_two_events_is_joined(scripted):
    backend = OpenAICompatBackend(scripted.url, "m", stream=True)
    assert backend.chat([Message("user", "hi")]) == "SAY: Hi \U0001f600 and \ufffd"


@pytest.mark.parametrize("scripted", [([json.dumps({"error": {"message": "bad \udc80 model",
                                                              "data": [{"id": "m\ud800"}]}}).encode()], 400)],
                         indirect=True)
def test_the_servers_error_words_are_well_formed(scripted):
    backend = OpenAICompatBackend(scripted.url, "m", max_retries=0)
    with pytest.raises(BackendError) as err:
        backend.chat([Message("user", "hi")])
    assert "bad \ufffd model" in str(err.value) and textsafe.well_formed(str(err.value)) == str(err.value)


@pytest.mark.parametrize("scripted", [([json.dumps({"data": [{"id": "m\ud800"}]}).encode()],)], indirect=True)
def test_a_model_name_with_a_lone_surrogate_is_well_formed(scripted):
    assert list_models(scripted.url) == ["m\ufffd"]


class Surrogates:
    """A Python backend (any backend, not the HTTP one) answering with lone surrogates."""

    def chat(self, messages, *, temperature=0.0, seed=None):
        if len(messages) == 2:
            return '{"kind": "propose", "type": "cuisine", "value": "Ital\udcc3ian"}'
        raise BackendError("the backend says \ud800")


READ = get_task("dominance-read")
CTX = {"text": "How about Italian?", "vocabulary": {"topic": "restaurant",
                                                    "criteria": {"cuisine": ["Italian", "French"]}},
       "last_proposal": None}


def test_any_backends_lone_surrogates_are_recorded_and_kept_well_formed(tmp_path):
    """The recorder writes what any inner backend said; the client reads it well-formed
    (the name holding U+FFFD is no name of the scenario: refused, then the backend's
    failure: a counted fallback)."""
    path = tmp_path / "c.jsonl"
    client = ModelClient(RecordingBackend(Surrogates(), str(path)), exchanges=[])
    assert client.ask(READ, np.random.default_rng(0), fallback=lambda: "fell back", **CTX) == "fell back"
    assert client.stats.fallbacks == 1 and client.stats.backend_errors == 1
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert rows[0]["response"].endswith('"Ital\ufffdian"}') and rows[1]["error"] == "the backend says \ufffd"
    answers = client.exchanges[0]["answers"]
    assert "Ital\ufffdian" in answers[0]["text"] and answers[1]["error"] == "the backend says \ufffd"
    json.dumps(client.exchanges, ensure_ascii=False).encode("utf-8")  # encodable


def test_a_hand_made_cassette_with_a_lone_surrogate_replays_well_formed(tmp_path):
    prompt = READ.messages(**CTX)
    path = tmp_path / "c.jsonl"
    path.write_text('{"cassette": {}}\n' + json.dumps({"key": request_key(prompt, 0.0, 1), "messages": [],
                                                     "response": "SAY: x\ud800", "finish_reason": "stop\udc80"})
                    + "\n", encoding="utf-8")
    replay = ReplayBackend(str(path))
    assert replay.chat(prompt, seed=1) == "SAY: x\ufffd" and replay.last_finish_reason == "stop\ufffd"


def test_visible_writes_a_surrogate_as_its_escape():
    assert textsafe.visible("a\ud800b\udfff") == "a\\ud800b\\udfff"
    assert textsafe.visible("a\ud800\nb", oneline=True) == "a\\ud800\\nb"
    assert textsafe.well_formed("plain text, é and \U0001f600") == "plain text, é and \U0001f600"
    assert textsafe.well_formed("\ud83d\ude00 \ud83d") == "\U0001f600 \ufffd"
