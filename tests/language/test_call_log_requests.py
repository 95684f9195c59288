"""The call log (``--log-calls``) shows every HTTP request of a call as itself.

A request that timed out and was retried inside the HTTP backend is not one "ok" attempt
lasting the timeout plus the retry: each request is one line with its own duration and outcome: the timeout (or the HTTP 503), then the retry that answered,
numbered ``request`` 1, 2 within the client's try.
"""

from __future__ import annotations

import io
import json
import threading

import numpy as np

from clirun import simcore
from fakeopenai import FakeOpenAI
from mockllm import calllog
from mockllm.cassette import RecordingBackend
from mockllm.client import ModelClient
from simcore.callwatch import CallWatch
from tests.language.test_http_backend import KEY_ENV, SECRET, Stub, backend, stub_factory  # noqa: F401
from toy_study import WordTask


def _logged(client_backend, fallback="fell back"):
    log = io.StringIO()
    watch = CallWatch(None, log)
    with calllog.observing(watch):
        value = ModelClient(client_backend).ask(WordTask(), np.random.default_rng(0), fallback=lambda: fallback,
                                                topic="x")
    return value, [json.loads(line) for line in log.getvalue().splitlines()], watch


def test_a_timeout_then_the_retry_are_two_lines_each_with_its_own_outcome(stub_factory, tmp_path):
    stub = stub_factory(("slow",), ("ok", "hello"))
    value, events, watch = _logged(RecordingBackend(backend(stub, timeout=0.3, max_retries=1),
                                                    str(tmp_path / "c.jsonl")))
    assert value == "hello"
    assert [(e["attempt"], e["request"], e["result"]) for e in events] == [(1, 1, "timeout"), (1, 2, "ok")]
    assert events[0]["problem"] == "no answer within the 0.3 s timeout" and events[0]["answer_chars"] == 0
    assert events[1]["answer_chars"] == 5 and "problem" not in events[1]
    assert all(isinstance(e["latency_s"], float) for e in events)
    assert "word 2 calls, 1 accepted" in watch.summary()


def test_an_http_503_then_the_answer_and_a_call_that_failed_on_every_request(stub_factory):
    stub = stub_factory(("status", 503), ("ok", "hello"))
    value, events, _ = _logged(backend(stub, max_retries=1))
    assert value == "hello"
    assert [(e["request"], e["result"]) for e in events] == [(1, "backend_error"), (2, "ok")]
    assert events[0]["problem"].startswith("HTTP 503")
    stub = stub_factory(("slow",))
    value, events, _ = _logged(backend(stub, timeout=0.3, max_retries=1, max_failures=10))
    assert value == "fell back"  # both requests of the first try timed out: the call failed
    assert [(e["attempt"], e["request"], e["result"]) for e in events] == [(1, 1, "timeout"), (1, 2, "timeout")]
    assert "after 2 attempt(s)" in events[1]["problem"]  # the call's failure, on its last request


def test_a_call_answered_by_its_first_request_is_one_line_as_ever(stub_factory):
    stub = stub_factory(("ok", "hello"))
    value, events, _ = _logged(backend(stub))
    assert value == "hello" and len(events) == 1
    assert events[0]["result"] == "ok" and "request" not in events[0]


def test_the_log_calls_file_of_a_run_shows_the_timed_out_request(tmp_path, capsys):
    """The real path: ``simcore run --log-calls`` against a server whose first answer comes
    after the client's timeout."""
    release, first = threading.Event(), threading.Lock()

    def stall_first(answer, body):
        if first.acquire(blocking=False):  # (never released: only the very first request stalls)
            release.wait(timeout=20)
        return answer

    server = FakeOpenAI(("m",), answer=stall_first)
    calls = tmp_path / "calls.jsonl"
    try:
        code, _, err = simcore(capsys, "run", "dominance", "--dialogues", "1", "--agent", "dominant", "--user", "peer",
                               "--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}",
                               "--backend-arg", "model=m", "--backend-arg", "timeout=0.5",
                               "--backend-arg", "max_retries=1", "--max-fallback-share", "1", "--no-progress",
                               "--out", str(tmp_path / "out"), "--log-calls", str(calls))
    finally:
        release.set()
        server.close()
    assert code == 0, err
    events = [json.loads(line) for line in calls.read_text().splitlines()]
    assert (events[0]["request"], events[0]["result"]) == (1, "timeout")
    assert (events[1]["request"], events[1]["result"]) == (2, "ok") and events[1]["task"] == events[0]["task"]
    assert all("request" not in e for e in events[2:])
    assert len(events) == len(server.posts)  # one line per HTTP request
