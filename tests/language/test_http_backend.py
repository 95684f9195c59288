"""The OpenAI-compatible backend against a stub server on 127.0.0.1 (port 0).

The stub answers each request with the next behaviour of its script: a normal
answer, a slow one, an HTTP status, malformed JSON, an empty choice list, a dropped
connection, a truncated or trickled body, a redirect.  Every loop in the stub is
bounded and every wait has a limit, so a broken client fails the test instead of
hanging it.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler

import numpy as np
import pytest

from mockllm.backend import Message
from mockllm.cassette import RecordingBackend
from mockllm.client import ModelClient
from mockllm.openai_compat import OpenAICompatBackend
from simcore.errors import BackendError, BackendFatal
from simcore.transcript import Event, write_jsonl

from toy_study import API_KEY_ENV as KEY_ENV  # noqa: E402
from localserver import LocalServer  # noqa: E402
from toy_study import STUDY_PATH, ToyConfig, WordTask  # noqa: E402
SECRET = "sk-test-5ecret-do-not-leak-7f3a9c"
MESSAGES = (Message("system", "TASK: echo\nSay the word."), Message("user", "### CONTEXT\n{}"))


def completion(content) -> bytes:
    return json.dumps({"id": "x", "choices": [{"index": 0, "message": {"role": "assistant",
                                                                       "content": content}}]}).encode()


class Stub:
    """A threaded HTTP server on 127.0.0.1:0 answering from a script of behaviours."""

    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []
        self.release = threading.Event()  # ends every slow answer (set at teardown)
        self.finished_slow = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                stub.requests.append({"path": self.path, "headers": dict(self.headers),
                                      "body": json.loads(body)})
                step = stub.script[min(len(stub.requests), len(stub.script)) - 1]
                getattr(stub, "do_" + step[0])(self, *step[1:])

            def log_message(self, *args):  # keep test output clean
                pass

        self.local = LocalServer(Handler)
        self.server, self.url = self.local.server, self.local.url

    def close(self):
        self.release.set()
        self.local.close()

    # behaviours ---------------------------------------------------------------
    def _send(self, h, status, body: bytes, extra=()):
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(body)

    def do_ok(self, h, content="hello"):
        self._send(h, 200, completion(content))

    def do_echo_key(self, h, status=401):
        # some servers echo the credential they refused; the client must not repeat it
        self._send(h, status, json.dumps({"error": f"bad key {h.headers.get('Authorization')}"}).encode())

    def do_status(self, h, status, retry_after="0"):
        extra = [] if retry_after is None else [("Retry-After", retry_after)]
        self._send(h, status, b'{"error": "try later"}', extra=extra)

    def do_slow(self, h):
        self.release.wait(timeout=20)  # far longer than the client's timeout
        self.finished_slow += 1
        try:
            self._send(h, 200, completion("too late"))
        except OSError:
            pass

    def do_raw(self, h, body: bytes):
        self._send(h, 200, body)

    def do_drop(self, h):
        h.close_connection = True
        h.connection.shutdown(socket.SHUT_RDWR)

    def do_truncated(self, h):
        body = completion("cut short")
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body[:10])
        h.wfile.flush()
        h.close_connection = True
        h.connection.shutdown(socket.SHUT_RDWR)

    def do_trickle(self, h):
        body = completion("slowly")
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        try:
            for i in range(len(body)):  # one byte per 50 ms: each read is quick, the whole is not
                h.wfile.write(body[i:i + 1])
                h.wfile.flush()
                if self.release.wait(timeout=0.05):
                    break
            else:
                self.finished_slow += 1
        except OSError:
            pass

    def do_chunked(self, h, size):
        h.send_response(200)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        try:
            for _ in range(size // 1000):
                h.wfile.write(b"3e8\r\n" + b"x" * 1000 + b"\r\n")
            h.wfile.write(b"0\r\n\r\n")
            h.wfile.flush()
        except OSError:
            pass

    def do_redirect(self, h, target):
        h.send_response(302)
        h.send_header("Location", target)
        h.send_header("Content-Length", "0")
        h.end_headers()


@pytest.fixture
def stub_factory():
    stubs = []

    def make(*script):
        stub = Stub(script)
        stubs.append(stub)
        return stub

    yield make
    for stub in stubs:
        stub.close()


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def backend(stub, **kw):
    kw.setdefault("timeout", 5.0)  # generous: only the timeout tests set a short one
    kw.setdefault("max_retries", 2)
    kw.setdefault("backoff", 0.01)
    return OpenAICompatBackend(stub.url, "test-model", api_key_env=KEY_ENV, **kw)


def test_a_normal_answer_and_the_request_it_sent(stub_factory):
    stub = stub_factory(("ok", "bonjour"))
    assert backend(stub).chat(MESSAGES, temperature=0.3, seed=42) == "bonjour"
    (req,) = stub.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert req["body"] == {"model": "test-model", "temperature": 0.3, "seed": 42, "max_tokens": 256,
                           "messages": [m.to_dict() for m in MESSAGES]}  # 256: no task 'echo', the default


def test_no_key_no_authorization_header(stub_factory, monkeypatch):
    monkeypatch.delenv(KEY_ENV)
    stub = stub_factory(("ok",))
    assert backend(stub).chat(MESSAGES) == "hello"
    assert "Authorization" not in stub.requests[0]["headers"]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_retryable_status_then_success(stub_factory, status):
    stub = stub_factory(("status", status), ("status", status), ("ok", "fine"))
    b = backend(stub)
    assert b.chat(MESSAGES) == "fine"
    assert len(stub.requests) == 3 == b.attempts


def test_retries_are_bounded(stub_factory):
    stub = stub_factory(("status", 500))
    b = backend(stub, max_retries=3)
    with pytest.raises(BackendError, match=r"HTTP 500 after 4 attempt\(s\)"):
        b.chat(MESSAGES)
    assert len(stub.requests) == 4
    stub0 = stub_factory(("status", 429))
    with pytest.raises(BackendError, match=r"HTTP 429 after 1 attempt\(s\)"):
        backend(stub0, max_retries=0).chat(MESSAGES)
    assert len(stub0.requests) == 1


def test_waits_follow_backoff_and_a_capped_retry_after(stub_factory, monkeypatch):
    import mockllm.openai_compat as oc

    slept = []
    monkeypatch.setattr(oc.time, "sleep", slept.append)
    stub = stub_factory(("status", 429, "2"), ("status", 503, "999"), ("status", 500, None),
                        ("status", 502, "Wed, 21 Oct 2015 07:28:00 GMT"), ("ok", "done"))
    b = backend(stub, max_retries=4, backoff=0.01, max_wait=5)
    assert b.chat(MESSAGES) == "done"
    assert slept[:2] == [2.0, 5.0]  # the server's Retry-After (capped) is honoured as given
    for got, base in zip(slept[2:], (0.04, 0.08)):  # exponential backoff, with up to 25% jitter
        assert base <= got <= base * 1.25


@pytest.mark.parametrize("status", [400, 404, 422])
def test_client_errors_are_not_retried(stub_factory, status):
    stub = stub_factory(("echo_key", status))
    with pytest.raises(BackendError, match=rf"HTTP {status} \(not retried\)") as info:
        backend(stub).chat(MESSAGES)
    assert len(stub.requests) == 1
    assert SECRET not in str(info.value)


@pytest.mark.parametrize("status", [401, 403])
def test_refused_credentials_stop_at_once(stub_factory, status):
    """401/403: every later call would be refused too, so no retry and no fallback."""
    stub = stub_factory(("echo_key", status))
    b = backend(stub)
    with pytest.raises(BackendFatal, match=rf"{stub.url}/chat/completions: HTTP {status}") as info:
        ModelClient(b).ask(WordTask(), np.random.default_rng(0), fallback=lambda: "rule", topic="x")
    assert len(stub.requests) == 1
    assert SECRET not in str(info.value) and KEY_ENV in str(info.value)
    assert not isinstance(info.value, BackendError)  # so no caller turns it into a fallback


def test_a_slow_server_hits_the_timeout(stub_factory):
    stub = stub_factory(("slow",))
    with pytest.raises(BackendError, match="no answer within the 0.3 s timeout after 2 attempt"):
        backend(stub, timeout=0.3, max_retries=1).chat(MESSAGES)
    assert len(stub.requests) == 2
    assert stub.finished_slow == 0  # the client gave up while the server was still "thinking"


def test_a_trickling_body_hits_the_total_timeout(stub_factory):
    stub = stub_factory(("trickle",))
    with pytest.raises(BackendError, match="timeout after 1 attempt"):
        backend(stub, timeout=0.3, max_retries=0).chat(MESSAGES)
    assert stub.finished_slow == 0


@pytest.mark.parametrize("step, message", [
    (("raw", b"{not json"), "response is not JSON"),
    (("raw", b"\xff\xfe garbage"), "response is not JSON"),
    (("raw", b'{"choices": []}'), "empty 'choices' list"),
    (("raw", b'{"choices": [{"message": {}}]}'), r"lacks choices\[0\].message.content"),
    (("raw", b'{"result": "hi"}'), r"lacks choices\[0\].message.content"),
    (("raw", b'{"choices": [{"message": {"content": 7}}]}'), "is not a string"),
])
def test_malformed_answers_are_clear_errors(stub_factory, step, message):
    stub = stub_factory(step)
    with pytest.raises(BackendError, match=message):
        backend(stub).chat(MESSAGES)
    assert len(stub.requests) == 1  # a well-formed HTTP answer with a bad body is not retried


@pytest.mark.parametrize("failure", ["drop", "truncated"])
def test_dropped_connections_are_retried_then_reported(stub_factory, failure):
    stub = stub_factory((failure,), (failure,), ("ok", "made it"))
    assert backend(stub).chat(MESSAGES) == "made it"
    stub2 = stub_factory((failure,))
    with pytest.raises(BackendError, match=r"connection failed \(\w+\) after 3 attempt\(s\)"):
        backend(stub2).chat(MESSAGES)
    assert len(stub2.requests) == 3


def test_a_redirect_is_not_followed_so_the_key_stays_home(stub_factory):
    elsewhere = stub_factory(("ok", "stolen"))
    stub = stub_factory(("redirect", elsewhere.url + "/chat/completions"))
    with pytest.raises(BackendError, match=r"HTTP 302 \(not retried\)"):
        backend(stub).chat(MESSAGES)
    assert elsewhere.requests == []


def _closed_port() -> int:
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nothing_listening_stops_at_the_first_call():
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    b = OpenAICompatBackend(url, "m", api_key_env=KEY_ENV, timeout=0.5, max_retries=2, backoff=1)
    with pytest.raises(BackendFatal, match=rf"^{url}/chat/completions: connection refused .*first call"):
        ModelClient(b).ask(WordTask(), np.random.default_rng(0), fallback=lambda: "rule", topic="x")
    assert b.attempts == 1  # no retry


def test_an_unknown_host_stops_at_the_first_call(monkeypatch):
    def no_such_host(*args, **kwargs):
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)  # no DNS traffic from the tests
    b = OpenAICompatBackend("http://no-such-host.invalid/v1", "m", api_key_env=KEY_ENV, timeout=0.5,
                            max_retries=2, backoff=1)
    with pytest.raises(BackendFatal, match=r"^http://no-such-host.invalid/v1/chat/completions: unknown host"):
        b.chat(MESSAGES)
    assert b.attempts == 1


def test_a_server_that_went_away_is_retried_then_counted(stub_factory):
    """Once the server has answered, a refused connection may pass (a restart): retried,
    then a counted fallback."""
    stub = stub_factory(("ok", "apple"))
    b = backend(stub, max_retries=1)
    client = ModelClient(b)
    rng = np.random.default_rng(0)
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="x") == "apple"
    stub.close()
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="x") == "rule"
    assert b.attempts == 3 and client.stats.backend_errors == 1


def test_a_key_with_a_newline_is_refused_without_showing_it(stub_factory, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-abc\nX-Injected: 1")
    stub = stub_factory(("ok",))
    with pytest.raises(BackendError) as info:
        backend(stub).chat(MESSAGES)
    assert "sk-abc" not in str(info.value) and KEY_ENV in str(info.value)
    assert stub.requests == []
    monkeypatch.setenv(KEY_ENV, f"  {SECRET}\n")  # surrounding whitespace is just trimmed
    assert backend(stub).chat(MESSAGES) == "hello"


@pytest.mark.parametrize("kwargs, name", [
    (dict(timeout=0), "timeout"), (dict(timeout=float("nan")), "timeout"), (dict(timeout=float("inf")), "timeout"),
    (dict(timeout=-1.0), "timeout"), (dict(backoff=-1), "backoff"), (dict(backoff=float("nan")), "backoff"),
    (dict(backoff=float("inf")), "backoff"), (dict(max_retries=-1), "max_retries"),
    (dict(max_retries=1000), "max_retries"), (dict(max_retries=1.5), "max_retries"),
    (dict(max_wait=float("nan")), "max_wait"), (dict(max_wait=-1), "max_wait"),
    (dict(max_failures=0), "max_failures"), (dict(max_tokens=0), "max_tokens"),
    (dict(max_response_bytes=0), "max_response_bytes"), (dict(timeout="soon"), "timeout"),
])
def test_bad_construction_arguments(kwargs, name):
    with pytest.raises(BackendError, match=rf"^openai-compat backend: {name} must be"):
        OpenAICompatBackend("http://x", "m", **kwargs)


def test_bad_url():
    with pytest.raises(BackendError, match="http:// or https://"):
        OpenAICompatBackend("ftp://x", "m")


def test_an_oversized_answer_is_refused(stub_factory):
    big = completion("x" * 5000)
    stub = stub_factory(("raw", big), ("raw", big))
    with pytest.raises(BackendError, match="larger than 4096 bytes"):
        backend(stub, max_response_bytes=4096).chat(MESSAGES)
    assert len(stub.requests) == 1  # not retried
    assert backend(stub, max_response_bytes=len(big)).chat(MESSAGES) == "x" * 5000


def test_an_oversized_body_without_a_length_is_refused_while_read(stub_factory):
    stub = stub_factory(("chunked", 200_000))
    with pytest.raises(BackendError, match="larger than 65536 bytes"):
        backend(stub, max_response_bytes=65536).chat(MESSAGES)


def test_a_server_that_never_answers_costs_the_timeout_per_attempt():
    """A socket that listens (the kernel accepts the connection) but never answers."""
    import time

    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(8)
        url = f"http://127.0.0.1:{srv.getsockname()[1]}/v1"
        b = OpenAICompatBackend(url, "m", api_key_env=KEY_ENV, timeout=0.3, max_retries=1, backoff=0,
                                max_failures=2)
        client = ModelClient(b)
        rng = np.random.default_rng(0)
        start = time.monotonic()
        assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="x") == "rule"
        with pytest.raises(BackendFatal, match="no answer within the 0.3 s timeout.*2 calls in a row failed"):
            client.ask(WordTask(), rng, fallback=lambda: "rule", topic="y")
        assert time.monotonic() - start < 30  # a guard against a hang, not a timing claim
        assert b.attempts == 4 and client.stats.backend_errors == 1


def test_consecutive_failures_stop_the_run_and_a_success_resets_the_count(stub_factory):
    stub = stub_factory(("status", 500), ("ok", "apple"), ("status", 500), ("status", 500), ("status", 500),
                        ("ok", "never"))
    b = backend(stub, max_retries=0, max_failures=3)
    client = ModelClient(b)
    rng = np.random.default_rng(0)
    answers = [client.ask(WordTask(), rng, fallback=lambda: "rule", topic=f"t{i}") for i in range(4)]
    assert answers == ["rule", "apple", "rule", "rule"]
    with pytest.raises(BackendFatal, match=r"HTTP 500 after 1 attempt\(s\)(; the server says '[^']*')?; 3 calls in a row failed"):
        client.ask(WordTask(), rng, fallback=lambda: "rule", topic="t4")
    assert len(stub.requests) == 5


def test_an_answer_longer_than_the_cap_is_a_parse_error():
    from mockllm.client import MAX_ANSWER_CHARS

    class Huge:
        def chat(self, messages, *, temperature=0.0, seed=None):
            return "a" * (MAX_ANSWER_CHARS + 1)

    client = ModelClient(Huge())
    assert client.ask(WordTask(), np.random.default_rng(0), fallback=lambda: "rule", topic="x") == "rule"
    assert (client.stats.retries, client.stats.fallbacks, client.stats.backend_errors) == (1, 1, 0)


# ---------------------------------------------------------------- through ModelClient

def test_backend_failures_become_counted_fallbacks(stub_factory):
    stub = stub_factory(("ok", "apple"), ("status", 500), ("status", 500), ("status", 500),
                        ("ok", "NOT A WORD!"), ("ok", "still bad 2"), ("raw", b"{oops"), ("ok", "pear"))
    client = ModelClient(backend(stub))
    rng = np.random.default_rng(0)
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="fruit") == "apple"
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="fruit") == "rule"  # 3 x 500
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="fruit") == "rule"  # 2 bad parses
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="fruit") == "rule"  # bad JSON
    assert client.ask(WordTask(), rng, fallback=lambda: "rule", topic="fruit") == "pear"
    s = client.stats
    assert (s.fallbacks, s.backend_errors, s.retries) == (3, 2, 1)
    assert s.by_task["word"] == {"asks": 5, "calls": 6, "retries": 1, "first_try": 2, "repaired": 0,
                                 "fallbacks": 3, "backend_errors": 2}
    stub2 = stub_factory(("status", 503))
    with pytest.raises(BackendError):  # no fallback given: the error propagates
        ModelClient(backend(stub2, max_retries=0)).ask(WordTask(), rng, topic="fruit")


# ---------------------------------------------------------------- the key never leaks

def test_the_api_key_appears_in_no_output(stub_factory, tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    stub = stub_factory(("ok", "apple"), ("echo_key", 500), ("echo_key", 500), ("echo_key", 500),
                        ("echo_key", 400), ("raw", f'{{"bad": "{SECRET}"'.encode()), ("drop",), ("drop",),
                        ("drop",), ("slow",), ("slow",), ("slow",), ("ok", "pear"))
    cassette = tmp_path / "run.cassette.jsonl"
    http = backend(stub, timeout=0.3, max_failures=10)  # five failed calls in a row below
    client = ModelClient(RecordingBackend(http, str(cassette)))
    rng = np.random.default_rng(1)
    events, errors = [], []
    for i in range(7):
        answer = client.ask(WordTask(), rng, fallback=lambda: "fallback", topic=f"t{i}")
        events.append(Event(run=f"toy/s0/g{i}", seq=i, speaker="a", phase="say", text=answer,
                            hidden={"stats": {"fallbacks": client.stats.fallbacks}}))
    for status in (500, 501, 401, 403):  # errors as a caller without a fallback sees them
        try:
            ModelClient(backend(stub_factory(("echo_key", status)), max_retries=0)).ask(
                WordTask(), rng, topic="x")
        except (BackendError, BackendFatal) as exc:
            errors.append(f"{exc}\n{exc!r}\n{exc.args}")
    transcript = tmp_path / "transcripts.jsonl"
    with open(transcript, "w", encoding="utf-8") as fh:
        write_jsonl(events, fh)
    assert [e.text for e in events] == ["apple", "fallback", "fallback", "fallback", "fallback",
                                        "fallback", "pear"]
    assert client.stats.backend_errors == 5
    assert any(SECRET in r["headers"].get("Authorization", "") for r in stub.requests)  # it was sent
    out = capsys.readouterr()
    haystacks = {"transcript": transcript.read_text(), "cassette": cassette.read_text(),
                 "logs": caplog.text, "stdout": out.out, "stderr": out.err, "errors": "\n".join(errors),
                 "repr": repr(http) + repr(vars(http)) + repr(client)}
    assert len(errors) == 4 and "apple" in haystacks["cassette"]
    assert '"error": "http://127.0.0.1' in haystacks["cassette"]  # failures are recorded, scrubbed
    for name, text in haystacks.items():
        assert SECRET not in text, f"API key found in {name}"
        assert SECRET[-12:] not in text, f"part of the API key found in {name}"
    assert os.environ[KEY_ENV] == SECRET


def test_the_api_key_is_in_no_file_a_run_or_sweep_writes(stub_factory, tmp_path, capsys):
    """End to end through simcore.study.launch: a plain run (transcripts, metrics, CSV)
    and a sweep whose runs fail on backend errors (log records keep tracebacks)."""
    from simcore.launch import launch

    stub = stub_factory(("ok", "apple"), ("echo_key", 500), ("echo_key", 500), ("echo_key", 400),
                        ("raw", f'{{"k": "{SECRET}"'.encode()), ("ok", "pear"))
    launch(STUDY_PATH, ToyConfig(seed=1, jobs=5, backend_url=stub.url), out=str(tmp_path / "plain"))
    words = [json.loads(line)["text"] for line in open(tmp_path / "plain" / "transcripts.jsonl")]
    assert words == ["apple", "fallback", "fallback", "fallback", "pear"]
    assert json.loads((tmp_path / "plain" / "metrics.json").read_text())["mean_value"] is not None

    stub2 = stub_factory(("echo_key", 500), ("echo_key", 500), ("echo_key", 403), ("ok", "fig"))
    with pytest.raises(BackendFatal) as fatal:  # 500 twice (retried once: a failed run), then 403: stop
        launch(STUDY_PATH, ToyConfig(seed=1, jobs=1, backend_url=stub2.url, fallback=False),
               out=str(tmp_path / "sweep"), grid=["alpha=1,2"], replicates=2)
    assert "HTTP 403" in str(fatal.value) and SECRET not in str(fatal.value)
    log = (tmp_path / "sweep" / "sweep.jsonl").read_text()
    assert "Traceback" in log and "HTTP 500" in log and "HTTP 403" not in log
    assert any(SECRET in r["headers"].get("Authorization", "") for r in stub.requests + stub2.requests)
    out = capsys.readouterr()
    for path in sorted(tmp_path.rglob("*")):
        if path.is_file():
            assert SECRET not in path.read_text(encoding="utf-8"), f"API key found in {path.name}"
    assert SECRET not in out.out + out.err
