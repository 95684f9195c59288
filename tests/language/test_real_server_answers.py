"""What real OpenAI-compatible servers do: a truncated answer is reported as
cut off (finish_reason "length"), the same under replay; the server's error body is in the one
line; max_completion_tokens can be sent; <think> blocks are stripped; usage counts reach the
call log and the run's token rate; a preamble or **SAY:** before a dominance sentence is
tolerated; a free-text answer that runs on is refused."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from http.server import BaseHTTPRequestHandler

from localserver import LocalServer, send_body
from mockllm import calllog
from mockllm.cassette import RecordingBackend, ReplayBackend
from mockllm.client import ModelClient
from mockllm.dominance import SayTask
from mockllm.openai_compat import OpenAICompatBackend, strip_thinking
from mockllm.tasks import get_task
from simcore.callwatch import CallWatch
from simcore.errors import BackendError, ParseError


class Scripted:
    """A server answering each chat request with the next (status, body) of ``script``."""

    def __init__(self, script):
        self.script, self.posts = list(script), []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                fake.posts.append(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0)))))
                status, body = fake.script.pop(0) if len(fake.script) > 1 else fake.script[0]
                send_body(self, json.dumps(body).encode(), status)

            def log_message(self, *args):
                pass

        self.local = LocalServer(Handler)
        self.url = self.local.url


def _answer(content, finish="stop", usage=None, **message):
    body = {"choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": content,
                                                                           **message}}]}
    if usage:
        body["usage"] = usage
    return 200, body


@pytest.fixture
def server(request):
    srv = Scripted(request.param)
    yield srv
    srv.local.close()


READ = get_task("dominance-read")
CTX = {"text": "I love Italian", "vocabulary": {"topic": "restaurant", "criteria": {"cuisine": ["Italian", "French"]}},
       "last_proposal": None}


@pytest.mark.parametrize("server", [[_answer('{"kind": "state", "crit', finish="length",
                                             usage={"prompt_tokens": 300, "completion_tokens": 8})]], indirect=True)
def test_a_truncated_answer_is_reported_as_cut_off_and_replays_so(server, tmp_path):
    live = OpenAICompatBackend(server.url, "m", tries=2, max_retries=0)
    path = str(tmp_path / "c.jsonl")
    log = io.StringIO()
    watch = CallWatch(None, log)
    with calllog.observing(watch):
        client = ModelClient(RecordingBackend(live, path))
        assert client.ask(READ, np.random.default_rng(0), fallback=lambda: "fell back", **CTX) == "fell back"
    repair = server.posts[1]["messages"][-1]["content"]
    assert "cut off at its token budget (finish_reason 'length')" in repair
    events = [json.loads(x) for x in log.getvalue().splitlines()]
    assert events[0]["finish_reason"] == "length" and events[0]["completion_tokens"] == 8
    assert "answer(s) cut off" in watch.summary() and "completion tokens/s" in watch.summary()
    # the replay sees the recorded finish_reason: the same repair request, so no miss
    replay = ModelClient(ReplayBackend(path))
    assert replay.ask(READ, np.random.default_rng(0), fallback=lambda: "fell back", **CTX) == "fell back"
    assert replay.stats.fallbacks == 1 and replay.stats.backend_errors == 0


@pytest.mark.parametrize("server", [[(400, {"error": {"message": "Unsupported parameter: 'max_tokens'; use "
                                                                 "'max_completion_tokens' instead."}})]],
                         indirect=True)
def test_the_servers_error_body_is_in_the_message(server):
    live = OpenAICompatBackend(server.url, "m", max_retries=0)
    with pytest.raises(BackendError, match="use 'max_completion_tokens' instead"):
        live.chat([{"role": "user", "content": "hi"}])


@pytest.mark.parametrize("server", [[_answer("<think>the user wants a move</think>\nSAY: Hello")]], indirect=True)
def test_max_completion_tokens_and_thinking_stripped(server):
    live = OpenAICompatBackend(server.url, "m", token_field="max_completion_tokens")
    assert live.chat([{"role": "user", "content": "hi"}]) == "SAY: Hello"
    assert "max_completion_tokens" in server.posts[0] and "max_tokens" not in server.posts[0]
    assert strip_thinking("<think>cut off while thinking") == ""
    with pytest.raises(BackendError, match="token_field"):
        OpenAICompatBackend(server.url, "m", token_field="tokens")


def test_a_preamble_and_emphasis_around_say_are_tolerated():
    t = SayTask()
    assert t.parse("Sure! Here is my line:\n**SAY:** How about Italian?") == "How about Italian?"
    assert t.parse("> **SAY**: Let us go") == "Let us go"
    with pytest.raises(ParseError):
        t.parse("How about Italian?")


def test_a_runaway_message_is_refused():
    speak = get_task("scorable-speak")
    issues = [{"name": n, "title": n, "options": ["x", "y", "z", "w", "v"]} for n in "ABCDE"]
    ctx = {"speaker": "P", "issues": issues, "deal": ["A1", "B1", "C4", "D1", "E5"], "cues": []}
    with pytest.raises(ParseError, match="three times in a row"):
        speak.interpret("A1 B1 C4 D1 E5 Z Z Z Z", ctx)
    assert speak.interpret("We propose A1, B1, C4, D1 and E5.", ctx)
