"""An answer the server cut off at its token budget (``finish_reason`` "length") is refused,
whatever it says: counted as a refusal, retried, then a counted fallback.

A real model's "What cuisin" and "Do you have a pre" passed the say task's checks (a
question names no value) and entered a transcript.  The finish reason reaches the client
from a plain answer and from a streamed one (its last event), and a cassette keeps it, so
a replay refuses the same answers.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from http.server import BaseHTTPRequestHandler

from clirun import simcore
from fakeopenai import FakeOpenAI
from localserver import LocalServer, send_body
from mockllm.cassette import RecordingBackend, ReplayBackend
from mockllm.client import ModelClient
from mockllm.openai_compat import OpenAICompatBackend
from mockllm.tasks import get_task

SAY = get_task("dominance-say")
#: a question about a criterion names no value: any sentence after SAY: passes the checks
ASK = {"relation": "peer", "topic": "restaurant", "utterance": {"kind": "ask", "criterion": "cuisine"},
       "details": None}


class Answers:
    """A server answering each chat request with the next (content, finish_reason) of
    ``script`` (the last one again), plainly or as server-sent events."""

    def __init__(self, script, stream=False):
        self.script, self.posts = list(script), []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                fake.posts.append(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0)))))
                content, finish = fake.script.pop(0) if len(fake.script) > 1 else fake.script[0]
                if not stream:
                    body = {"choices": [{"index": 0, "finish_reason": finish,
                                         "message": {"role": "assistant", "content": content}}]}
                    return send_body(self, json.dumps(body).encode())
                half = len(content) // 2
                events = [{"choices": [{"index": 0, "delta": {"content": content[:half]}, "finish_reason": None}]},
                          {"choices": [{"index": 0, "delta": {"content": content[half:]}, "finish_reason": None}]},
                          {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}]
                text = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
                send_body(self, text.encode(), content_type="text/event-stream")

            def log_message(self, *args):
                pass

        self.local = LocalServer(Handler)
        self.url = self.local.url


@pytest.fixture
def answers():
    servers = []

    def make(script, stream=False):
        servers.append(Answers(script, stream))
        return servers[-1]

    yield make
    for srv in servers:
        srv.local.close()


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_a_cut_off_sentence_that_passes_the_checks_is_refused_then_a_fallback(answers, stream):
    srv = answers([("SAY: What cuisin", "length"), ("SAY: Do you have a pre", "length")], stream)
    client = ModelClient(OpenAICompatBackend(srv.url, "m", tries=2, stream=stream), exchanges=[])
    assert client.ask(SAY, np.random.default_rng(0), fallback=lambda: "the rule's words", **ASK) == "the rule's words"
    assert (client.stats.calls, client.stats.retries, client.stats.fallbacks) == (2, 1, 1)
    refused = [a["refused"] for a in client.exchanges[0]["answers"]]
    assert refused == ["the answer was cut off at its token budget (finish_reason 'length')"] * 2
    assert "cut off at its token budget" in srv.posts[1]["messages"][-1]["content"]  # the repair says why


def test_a_cut_off_answer_repaired_by_a_finished_one_is_taken(answers):
    srv = answers([("SAY: Do you have a pre", "length"), ("SAY: Do you have a preference?", "stop")])
    client = ModelClient(OpenAICompatBackend(srv.url, "m", tries=2))
    assert client.ask(SAY, np.random.default_rng(0), fallback=lambda: "x", **ASK) == "Do you have a preference?"
    assert (client.stats.repaired, client.stats.fallbacks) == (1, 0)


def test_a_recorded_cut_off_is_refused_again_on_replay(answers, tmp_path):
    srv = answers([("SAY: What cuisin", "length"), ("SAY: What cuisine do you like?", "stop")])
    path = str(tmp_path / "c.jsonl")
    live = ModelClient(RecordingBackend(OpenAICompatBackend(srv.url, "m", tries=2), path))
    said = live.ask(SAY, np.random.default_rng(0), fallback=lambda: "x", **ASK)
    replay = ModelClient(ReplayBackend(path))
    assert replay.ask(SAY, np.random.default_rng(0), fallback=lambda: "x", **ASK) == said == "What cuisine do you like?"
    assert replay.stats.repaired == live.stats.repaired == 1


def test_a_run_whose_every_answer_is_cut_off_falls_back_on_every_ask(tmp_path, capsys):
    """The real path: the HTTP backend, the study, metrics.json.  The server gives the
    mock's (complete, readable) answers but says each was cut off: every ask is refused
    on each try and answered by the rule."""
    server = FakeOpenAI(("m",), finish_reason="length")
    try:
        code, _, err = simcore(capsys, "run", "dominance", "--dialogues", "1", "--agent", "dominant", "--user", "peer",
                               "--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}",
                               "--backend-arg", "model=m", "--max-fallback-share", "1", "--no-progress",
                               "--out", str(tmp_path / "out"))
    finally:
        server.close()
    assert code == 0, err
    calls = json.loads((tmp_path / "out" / "metrics.json").read_text())["model_calls"]
    assert calls["asks"] > 0 and calls["fallbacks"] == calls["asks"] and calls["first_try"] == 0
    assert calls["calls"] == 2 * calls["asks"]  # two tries each
