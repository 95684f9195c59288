"""The transport: repair retries, request defaults that suit local
servers, cancelled requests -- against stub servers on 127.0.0.1 and the mock."""

from __future__ import annotations

import select
import threading

import numpy as np
import pytest

from mockllm.client import ModelClient, repair_messages
from mockllm.mock import MockBackend
from mockllm.tasks import get_task
from simcore.backends import build_backend
from simcore.errors import InputError

from tests.language.test_http_backend import KEY_ENV, SECRET, Stub, backend, stub_factory  # noqa: F401
from localserver import LocalServer, send_body
from toy_study import WordTask


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def _ask(client, **kw):
    return client.ask(WordTask(), np.random.default_rng(0), fallback=lambda: "rule", topic="fruit", **kw)


# ------------------------------------------------------------------ 3. useful retries

def test_a_rejected_answer_is_sent_back_with_the_reason(stub_factory):
    stub = stub_factory(("ok", "NOT A WORD!"), ("ok", "pear"))
    client = ModelClient(backend(stub))
    assert _ask(client) == "pear"
    first, second = (r["body"]["messages"] for r in stub.requests)
    assert len(first) == 2 and second[:2] == first
    assert second[2] == {"role": "assistant", "content": "NOT A WORD!"}
    assert second[3]["role"] == "user"
    assert "not accepted because: expected one lowercase word" in second[3]["content"]
    assert "Answer again" in second[3]["content"]
    row = client.stats.by_task["word"]
    assert (row["first_try"], row["repaired"], row["fallbacks"], row["calls"]) == (0, 1, 0, 2)


@pytest.mark.parametrize("tries, answers, expected, calls", [
    (1, ["BAD", "pear"], "rule", 1),
    (4, ["BAD", "Bad 2", "bad 3", "pear"], "pear", 4),
    (3, ["BAD", "Bad 2", "bad 3", "pear"], "rule", 3),
])
def test_the_number_of_tries_is_a_backend_option(stub_factory, tries, answers, expected, calls):
    stub = stub_factory(*[("ok", a) for a in answers])
    b = build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"), ("api_key_env", KEY_ENV),
                                           ("tries", str(tries)), ("backoff", "0.01")])
    client = ModelClient(b)
    assert _ask(client) == expected
    assert len(stub.requests) == calls
    assert client.stats.fallbacks == (expected == "rule")
    # each repair quotes only the latest refused answer: the prompt stays bounded
    assert all(len(r["body"]["messages"]) <= 4 for r in stub.requests)


def test_temperature_is_a_backend_option_sent_as_a_number(stub_factory):
    stub = stub_factory(("ok", "pear"))
    b = build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"), ("api_key_env", KEY_ENV),
                                           ("temperature", "0.7")])
    assert _ask(ModelClient(b)) == "pear"
    assert stub.requests[0]["body"]["temperature"] == 0.7


def test_the_mock_answers_a_repair_conversation_as_its_prompt():
    task = get_task("travel.read-v1")
    for ctx in task.examples(np.random.default_rng(0))[:5]:
        prompt = task.messages(**ctx)
        repair = repair_messages(prompt, "garbage", "no JSON object")
        assert MockBackend().chat(repair, seed=7) == MockBackend().chat(prompt, seed=7)


# ------------------------------------------------- 4. defaults that suit local servers

def test_backend_args_are_converted_to_the_constructor_types(stub_factory):
    stub = stub_factory(("ok", "pear"))
    b = build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"), ("api_key_env", KEY_ENV),
                                           ("max_tokens", "128"), ("timeout", "5"), ("max_retries", "1")])
    assert (b.max_tokens, b.timeout, b.max_retries) == (128, 5.0, 1)
    assert _ask(ModelClient(b)) == "pear"
    sent = stub.requests[0]["body"]["max_tokens"]
    assert sent == 128 and isinstance(sent, int)
    with pytest.raises(InputError, match="cannot read '12.5' as int"):
        build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"), ("max_tokens", "12.5")])
    assert build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"),
                                              ("max_tokens", "none")]).max_tokens is None


def test_every_request_has_the_tasks_token_budget(stub_factory):
    stub = stub_factory(("ok", "pear"), ("ok", '{"x": 1}'))
    b = backend(stub)
    assert _ask(ModelClient(b)) == "pear"
    assert stub.requests[0]["body"]["max_tokens"] == WordTask.max_tokens == 256
    propose = get_task("travel.propose-v1")
    ctx = propose.examples(np.random.default_rng(0))[0]
    b.chat(propose.messages(**ctx))
    assert stub.requests[1]["body"]["max_tokens"] == propose.max_tokens == 512


def test_the_default_timeout_suits_a_slow_local_model():
    from mockllm.openai_compat import OpenAICompatBackend

    assert OpenAICompatBackend("http://127.0.0.1:1/v1", "m").timeout == 120.0


class _Hold(Stub):
    """Holds each request open until the client goes away (or 10 s), noting whether it did."""

    def __init__(self):
        self.client_left = threading.Event()
        super().__init__([("hold",)])

    def do_hold(self, h):
        sock = h.connection
        for _ in range(200):  # bounded: 200 x 50 ms
            ready, _, _ = select.select([sock], [], [], 0.05)
            if ready:
                try:
                    import socket

                    if sock.recv(1, socket.MSG_PEEK) == b"":
                        self.client_left.set()
                        return
                except OSError:
                    self.client_left.set()
                    return
            if self.release.is_set():
                return


def test_a_timed_out_request_closes_its_connection_so_the_server_can_stop():
    stub = _Hold()
    try:
        b = backend(stub, timeout=0.3, max_retries=0)
        assert _ask(ModelClient(b)) == "rule"  # counted as a backend error
        assert stub.client_left.wait(timeout=5)
    finally:
        stub.close()


# ------------------------------------- 5-7. a local server that answers like the mock

class MockServer:
    """An OpenAI-compatible server on 127.0.0.1 answering every prompt with the mock's
    answer (``every``-th request, counted per prompt, gets a refusable answer first),
    handling requests in parallel threads with a small random delay (so that with
    --concurrency the answers arrive out of order)."""

    def __init__(self, bad_every: int = 0):
        import json
        import random
        import time
        from http.server import BaseHTTPRequestHandler

        from mockllm.backend import Message

        from tests.language.test_http_backend import completion

        server = self
        self.requests = 0
        self.inflight = self.max_inflight = 0
        self.lock = threading.Lock()
        jitter = random.Random(1)  # display timing only; results must not depend on it

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                msgs = [Message(m["role"], m["content"]) for m in body["messages"]]
                with server.lock:
                    server.requests += 1
                    server.inflight += 1
                    server.max_inflight = max(server.max_inflight, server.inflight)
                    pause = 0.001 + jitter.random() * 0.004
                time.sleep(pause)
                with server.lock:
                    server.inflight -= 1
                answer = MockBackend().chat(msgs, temperature=body["temperature"], seed=body.get("seed"))
                if bad_every and len(msgs) == 2 and body.get("seed", 0) % bad_every == 0:
                    answer = "I am not sure what you mean."
                send_body(self, completion(answer))

            def log_message(self, *args):
                pass

        self.local = LocalServer(Handler)
        self.server, self.url = self.local.server, self.local.url

    def close(self):
        self.local.close()


@pytest.fixture
def mock_server():
    servers = []

    def make(**kw):
        servers.append(MockServer(**kw))
        return servers[-1]

    yield make
    for s in servers:
        s.close()


SMALL = {"scorable": ["--trials", "2", "--methods", "proposed-p1,llm-pe-all"],
         "astra": ["--episodes", "2", "--partners", "base,fair", "--setups", "integrative"],
         "dominance": ["--dialogues", "2", "--agent", "dominant,submissive", "--user", "peer"],
         "mind": ["--groups", "3", "--variants", "mind,base"]}


def _cli(capsys, *argv):
    from tests.core.test_backends_cli import simcore

    return simcore(capsys, *argv)


def _http(server, *extra):
    args = ["--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}",
            "--backend-arg", "model=local-test-model", "--backend-arg", f"api_key_env={KEY_ENV}"]
    for e in extra:
        args += ["--backend-arg", e]
    return args


def _files(d):
    import os

    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


@pytest.mark.parametrize("system", sorted(SMALL))
def test_concurrent_calls_give_the_sequential_bytes_and_the_replay_the_recorded_metrics(
        system, mock_server, tmp_path, capsys):
    server = mock_server(bad_every=5)  # some first answers are refused and repaired
    base = ["run", system, *SMALL[system], "--seed", "3", *_http(server, "tries=3")]
    seq, par, rep = (tmp_path / n for n in ("seq", "par", "rep"))
    code, _, err = _cli(capsys, *base, "--out", str(seq), "--record", str(tmp_path / "seq.jsonl"))
    assert code == 0, err
    assert server.max_inflight == 1  # a sequential run: one request at a time
    code, _, err = _cli(capsys, *base, "--out", str(par), "--record", str(tmp_path / "par.jsonl"),
                        "--concurrency", "4", "--log-calls", str(tmp_path / "calls.jsonl"), "--executor", "inline")
    assert code == 0, err
    assert server.max_inflight > 1  # requests were in flight at once
    # 5: byte-identical outputs and cassette, whatever order the answers arrived in
    assert _files(seq) == _files(par)
    assert (tmp_path / "seq.jsonl").read_bytes() == (tmp_path / "par.jsonl").read_bytes()
    # 7: a replay (no backend arguments) writes the recorded run's metrics.json byte for byte
    code, _, err = _cli(capsys, "run", system, *SMALL[system], "--seed", "3", "--out", str(rep),
                        "--replay", str(tmp_path / "par.jsonl"))
    assert code == 0, err
    assert _files(rep) == _files(seq)
    import json

    metrics = json.loads((seq / "metrics.json").read_text())
    assert metrics["backend"] == {"id": "openai-compat-v1", "model": "local-test-model"}
    calls = metrics["model_calls"]
    assert calls["repaired"] > 0 and calls["retries"] > 0  # the repairs were exercised
    # 6: one line per model call in the --log-calls file
    lines = [json.loads(x) for x in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert len(lines) == calls["calls"] == server.requests // 2
    assert {x["result"] for x in lines} <= {"ok", "parse_error"} and any(x["attempt"] == 2 for x in lines)
    assert all(set(x) >= {"task", "attempt", "latency_s", "result", "prompt_chars", "answer_chars"}
               for x in lines)
    assert "latency_s" not in (seq / "metrics.json").read_text()  # wall clock stays out of results


def test_a_replay_reports_the_recorded_backend_for_a_mock_run_too(tmp_path, capsys):
    import json

    base = ["run", "astra", *SMALL["astra"]]
    assert _cli(capsys, *base, "--out", str(tmp_path / "a"), "--record", str(tmp_path / "c.jsonl"),
                "--workers", "2")[0] == 0
    assert _cli(capsys, *base, "--out", str(tmp_path / "b"), "--replay", str(tmp_path / "c.jsonl"))[0] == 0
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    metrics = json.loads((tmp_path / "a" / "metrics.json").read_text())
    assert metrics["backend"] == {"id": "mock-v1", "model": None}
    assert "record" not in metrics["config"] and "replay" not in metrics["config"]


def test_concurrency_refuses_process_workers_and_sweeps(capsys, tmp_path):
    from tests.core.test_backends_cli import one_line

    code, _, err = _cli(capsys, "run", "astra", "--episodes", "1", "--concurrency", "2", "--workers", "2",
                        "--out", str(tmp_path / "x"))
    assert code == 2 and "--concurrency" in one_line(err)
    code, _, err = _cli(capsys, "run", "astra", "--episodes", "1", "--log-calls", str(tmp_path / "l"),
                        "--replicates", "2", "--out", str(tmp_path / "y"))
    assert code == 2 and "plain run" in one_line(err)


def test_the_progress_line_moves_per_model_call_with_an_eta():
    import io

    from simcore.callwatch import CallWatch
    from simcore.progress import Progress

    stream = io.StringIO()
    bar = Progress(4, "astra", enabled=True, delay=0.0, stream=stream)
    watch = CallWatch(bar)
    watch({"task": "astra.speak", "attempt": 1, "latency_s": 1.25, "result": "ok", "prompt_chars": 10,
           "answer_chars": 5})
    assert "call 1: astra.speak 1.25s ok" in stream.getvalue() and "ETA" not in stream.getvalue()
    bar.advance()
    bar._last = 0.0  # (the bar redraws at most every 0.1 s)
    watch({"task": "astra.read", "attempt": 2, "latency_s": 0.5, "result": "parse_error", "prompt_chars": 10,
           "answer_chars": 5})
    last = stream.getvalue().split("\r")[-1]
    assert "1/4" in last and "ETA" in last and "call 2: astra.read try 2 0.50s parse_error" in last
    assert "astra.read 1 calls, 0 accepted" in watch.summary()


class _Sse(Stub):
    def do_sse(self, h, pieces, done=True):
        import json

        events = [{"choices": [{"index": 0, "delta": {"role": "assistant"}}]}]
        events += [{"choices": [{"index": 0, "delta": {"content": p}}]} for p in pieces]
        body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + ("data: [DONE]\n\n" if done else "")
        send_body(h, body.encode(), content_type="text/event-stream")


def test_a_streamed_answer_is_assembled_from_its_events():
    from simcore.errors import BackendError

    stub = _Sse([("sse", ["pe", "ar"]), ("sse", ["pe"], False)])
    try:
        b = build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"), ("api_key_env", KEY_ENV),
                                               ("stream", "true"), ("max_retries", "0")])
        assert _ask(ModelClient(b)) == "pear"
        assert stub.requests[0]["body"]["stream"] is True
        with pytest.raises(BackendError, match=r"ended before \[DONE\]"):  # cut short: not an answer
            b.chat(WordTask().messages(topic="x"))
    finally:
        stub.close()
    with pytest.raises(InputError, match="cannot read 'maybe' as bool"):
        build_backend("openai-compat-v1", [("base_url", stub.url), ("model", "m"), ("stream", "maybe")])
