"""A backend for any OpenAI-compatible chat server (vLLM, llama.cpp, hosted APIs).

It POSTs ``{"model", "messages", "temperature", "seed"}`` to
``{base_url}/chat/completions`` and returns ``choices[0].message.content``.  The API
key is read from the environment variable named by ``api_key_env`` (default
``OPENAI_API_KEY``; never passed as an argument, so it cannot leak into configs).
A server may echo the key back (some put the Authorization header into an error or
even into the answer), so the key is *redacted* -- every occurrence replaced by
:data:`REDACTED` -- from every answer :meth:`OpenAICompatBackend.chat` returns and
from every error it raises (:meth:`OpenAICompatBackend.redact`): what the backend
hands to simcore (transcripts, repair prompts, call logs, cassettes) never holds it.
``base_url`` defaults to ``$OPENAI_BASE_URL``; ``model`` has no default here (the
command line asks the server's ``GET {base_url}/models`` for it: :func:`list_models`).

Each request has a timeout; failures that may pass (timeouts, dropped connections,
HTTP 429 and 5xx) are retried a bounded number of times with exponential backoff
(``backoff * 2**k`` seconds; a ``Retry-After`` header given in seconds is honoured up to
``max_wait``); anything else fails at once with a clear :class:`BackendError`.  An
attempt gives up when the server is silent for ``timeout`` seconds, or has not finished
its answer ``timeout`` seconds after the attempt began (checked while the body arrives),
so a call takes about ``(max_retries + 1) * timeout`` plus the waits at most.  Each
request of a call is kept in :attr:`OpenAICompatBackend.last_requests` with its own
duration and outcome, and the client logs each as itself (``--log-calls``): a timeout
and the retry that answered are two lines, not one slow success.
Redirects are not followed (urllib would forward the Authorization header to the new
host).

Every request carries an integer ``max_tokens`` (the task's budget, or the
``max_tokens`` argument for all tasks; see :meth:`OpenAICompatBackend.token_budget`)
so a model that would write until its context fills stops early.  An attempt that
times out closes its connection, so a server that watches its clients can stop
generating: llama-cpp-python's server does so only for a streamed request
(``stream=True``: the answer comes as server-sent events, assembled here), and
finishes an abandoned plain request anyway.  ``tries`` (requests per ask, repairs
included) and ``temperature`` are read by :class:`~mockllm.client.ModelClient`.

Some failures make every later call fail too, so the backend stops the run with a
:class:`~simcore.errors.BackendFatal` (never turned into a fallback) instead of
letting each call fall back: HTTP 401/403 (the key is refused), a refused connection
or an unknown host before the server has answered once (nothing listens at
``base_url``), and ``max_failures`` calls in a row that ended in a
:class:`BackendError`.  A response body larger than ``max_response_bytes`` (default
1 MiB) is refused unread as a malformed response.  Every numeric argument is checked
when the backend is built (a finite, non-negative number; a positive timeout).

The answer's text (and the server's ``finish_reason``, error words and model names) is
made well-formed Unicode where it is decoded (:func:`simcore.textsafe.well_formed`): a
surrogate pair split over two streamed pieces is joined, and a *lone* surrogate (JSON's
``"\\ud800"`` without its pair) is replaced by U+FFFD.  Replaced, not refused: a lone
surrogate is never a word the model chose but half of a character the server's
detokenizer or JSON encoder cut in two (a byte of a multi-byte character carried as
``\\udcXX``, half of an emoji), so the rest of the answer is the model's own and is read
and checked as usual -- a name holding U+FFFD is no name of the scenario, so the checks
refuse an answer where the broken character matters, and retrying a transport artefact
would cost a request for nothing.  Every later consumer -- the cassette, the repair
prompt, transcripts, reports, JSON files -- then gets text it can encode.

A call that comes with the answer's JSON schema (structured tasks, see
:meth:`mockllm.tasks.Task.answer_schema`) sends it as ``response_format`` so the server
constrains its output to it.  ``schema`` picks the form (:func:`response_format`):
``json_schema`` (default; the OpenAI form, which vLLM, Ollama's OpenAI endpoint and
llama.cpp's ``llama-server`` accept), ``json_object`` (``{"type": "json_object",
"schema": ...}``, the form llama-cpp-python's server accepts: it refuses
``json_schema``) or ``off`` (no ``response_format``, for servers that refuse both).
"""

from __future__ import annotations

import http.client
import json
import math
import os
import random
import re
import socket
import time
import urllib.error
import urllib.request
from typing import Any, Mapping, Sequence

from mockllm.backend import Message, as_messages
from mockllm.client import DEFAULT_TRIES, MAX_TRIES
from mockllm.tasks import TASK_PREFIX, get_task
from simcore.errors import BackendError, BackendFatal, UnrecognisedPrompt
from simcore.jsonread import JSONProblem, loads
from simcore.textsafe import well_formed

RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504}
SCHEMA_MODES = ("json_schema", "json_object", "off")
#: the server refused the credentials: every later call would be refused too
FATAL_STATUS = {401: "unauthorized", 403: "forbidden"}
#: a choice, not a standard: chat answers are a few kB; 1 MiB is far above any sane
#: completion and keeps a runaway or hostile server from filling memory
MAX_RESPONSE_BYTES = 1 << 20
#: a choice: more retries than this with exponential backoff is hours per call
MAX_RETRIES_LIMIT = 10
#: a choice: SmolLM2-135M on two shared CPU cores wrote about 80 tokens a second here,
#: and a model ten times larger is about ten times slower, so a 256-token answer after a
#: long prompt can take a minute; 120 s keeps a slow local server from timing out while a
#: dead one still costs only minutes (see the README)
DEFAULT_TIMEOUT = 120.0
#: the token budget of a request whose prompt names no known task (see token_budget)
DEFAULT_MAX_TOKENS = 256
#: what replaces the API key wherever a server echoed it (answers, errors)
REDACTED = "[redacted]"
#: the environment variables read when no explicit value is given (as OpenAI's own client does)
BASE_URL_ENV = "OPENAI_BASE_URL"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
#: a choice: listing a server's models is instant on any server that is up; a server
#: busy with another client's long generation gets the request timeout (see list_models)
MODELS_TIMEOUT = 30.0


def response_format(schema: Mapping[str, Any] | None, mode: str) -> dict | None:
    """The request's ``response_format`` for an answer schema in one of :data:`SCHEMA_MODES`
    (None: send none).  The json_schema form is named after the schema's title."""
    if schema is None or mode == "off":
        return None
    if mode == "json_object":
        return {"type": "json_object", "schema": dict(schema)}
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "answer"))[:64]
    return {"type": "json_schema", "json_schema": {"name": name, "schema": dict(schema), "strict": True}}


class _TooLarge(Exception):
    pass


def _number(name: str, value, *, positive: bool = False, integer: bool = False, lo: float = 0.0,
            hi: float = math.inf):
    """``value`` checked: a finite number >= lo (> 0 when ``positive``), <= hi."""
    kind = "an integer" if integer else "a finite number"
    try:
        ok_type = isinstance(value, int) if integer else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok_type:
            raise TypeError
        ok = math.isfinite(value) and value >= lo and (value > 0 if positive else True) and value <= hi
    except TypeError:
        ok = False
    if not ok:
        bound = "> 0" if positive else f">= {lo:g}"
        if hi != math.inf:
            bound += f" and <= {hi:g}"
        raise BackendError(f"openai-compat backend: {name} must be {kind} {bound}, got {value!r}")
    return value


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Never follow a redirect: urllib would resend the Authorization header (the API
    key) to whatever host the redirect names.  A 3xx is reported as an HTTP error."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


class OpenAICompatBackend:
    def __init__(self, base_url: str | None = None, model: str | None = None, *,
                 api_key_env: str = DEFAULT_KEY_ENV,
                 timeout: float = DEFAULT_TIMEOUT, max_retries: int = 2, backoff: float = 0.5,
                 max_tokens: int | None = None, max_wait: float = 30.0, max_failures: int = 5,
                 max_response_bytes: int = MAX_RESPONSE_BYTES, schema: str = "json_schema",
                 tries: int = DEFAULT_TRIES, temperature: float = 0.0, stream: bool = False,
                 token_field: str = "max_tokens"):
        if base_url is None:
            base_url = os.environ.get(BASE_URL_ENV) or None
            if base_url is None:
                raise BackendError(f"openai-compat backend: no base_url given and ${BASE_URL_ENV} is not set: "
                                   "pass --base-url URL (or --backend-arg base_url=URL)")
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise BackendError(f"base_url must start with http:// or https://, got {base_url!r}")
        if not isinstance(model, str) or not model.strip():
            raise BackendError("openai-compat backend: no model given: pass --model NAME (or --backend-arg "
                               "model=NAME); on the command line simcore takes the server's only model")
        if not isinstance(api_key_env, str) or not api_key_env.strip():
            raise BackendError(f"openai-compat backend: api_key_env must name an environment variable, "
                               f"got {api_key_env!r}")
        #: requests per ask, repairs included (read by ModelClient; see mockllm.client)
        self.answer_tries = int(_number("tries", tries, integer=True, lo=1, hi=MAX_TRIES))
        #: the sampling temperature of every request (read by ModelClient)
        self.temperature = float(_number("temperature", temperature, hi=2.0))
        if not isinstance(stream, bool):
            raise BackendError(f"openai-compat backend: stream must be true or false, got {stream!r}")
        #: ask for server-sent events: a server that watches its streams (llama-cpp-python
        #: does) stops generating when a timed-out attempt closes the connection
        self.stream = stream
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = float(_number("timeout", timeout, positive=True))
        self.max_retries = int(_number("max_retries", max_retries, integer=True, hi=MAX_RETRIES_LIMIT))
        self.backoff = float(_number("backoff", backoff))
        self.max_tokens = None if max_tokens is None else int(_number("max_tokens", max_tokens, integer=True,
                                                                      lo=1))
        self.max_wait = float(_number("max_wait", max_wait))
        #: calls in a row that may fail (after their retries) before the run stops; a
        #: choice: 5 calls of 3 attempts each is 15 failed requests, far beyond the
        #: passing trouble that retries are for
        self.max_failures = int(_number("max_failures", max_failures, integer=True, lo=1))
        self.max_response_bytes = int(_number("max_response_bytes", max_response_bytes, integer=True, lo=1))
        if schema not in SCHEMA_MODES:
            raise BackendError(f"schema must be one of {', '.join(SCHEMA_MODES)}, got {schema!r}")
        self.schema = schema
        if token_field not in TOKEN_FIELDS:
            raise BackendError(f"token_field must be one of {', '.join(TOKEN_FIELDS)}, got {token_field!r}")
        #: the request field carrying the token budget ("max_completion_tokens" for servers that
        #: refuse "max_tokens", as OpenAI's newer models do with an HTTP 400 saying so)
        self.token_field = token_field
        #: what the server said of the last answer: why it stopped ("stop", "length": cut off at
        #: the token budget, ...) and its token counts (None when the server sent none)
        self.last_finish_reason: str | None = None
        self.last_usage: dict | None = None
        #: the HTTP requests of the last call, in order: ``(seconds, outcome, problem)``, the
        #: outcome ``"ok"`` (the server answered), ``"timeout"`` or ``"backend_error"``;
        #: more than one when the call was retried here (the client logs each, see
        #: :mod:`mockllm.calllog`)
        self.last_requests: list[tuple[float, str, str]] = []
        self.attempts = 0
        self.failures_in_a_row = 0
        self.answered = False  # the server has sent at least one HTTP response

    def _headers(self) -> dict:
        return {"Content-Type": "application/json", **auth_header(self.api_key_env)}

    def redact(self, text: str) -> str:
        """``text`` with the API key (as set in ``$api_key_env``, and trimmed) replaced by
        :data:`REDACTED`: for anything that came from the server or names its request."""
        return redact_key(text, os.environ.get(self.api_key_env))


    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None, schema: Mapping[str, Any] | None = None) -> str:
        messages = as_messages(messages)
        try:
            answer = self._chat(messages, temperature, seed, response_format(schema, self.schema))
        except BackendError as exc:
            self.failures_in_a_row += 1
            if self.failures_in_a_row >= self.max_failures:
                raise BackendFatal(f"{exc}; {self.failures_in_a_row} calls in a row failed "
                                   f"(max_failures={self.max_failures}): stopping the run") from None
            raise
        self.failures_in_a_row = 0
        return self.redact(answer)  # a server may echo the key into its answer

    def _chat(self, messages: Sequence[Message], temperature: float, seed: int | None,
              fmt: dict | None = None) -> str:
        self.last_finish_reason, self.last_usage = None, None
        self.last_requests = []
        body = {"model": self.model, "messages": [m.to_dict() for m in messages],
                "temperature": temperature}
        if fmt is not None:
            body["response_format"] = fmt
        if seed is not None:
            body["seed"] = int(seed)
        body[self.token_field] = self.token_budget(messages)
        if self.stream:
            body["stream"] = True
        data = json.dumps(body).encode("utf-8")
        url = f"{self.base_url}/chat/completions"
        problem, words = "no attempt made", ""
        headers = self._headers()
        wait: float | None = None  # the server's Retry-After, when it gave one
        for attempt in range(self.max_retries + 1):
            if attempt:
                pause = self.backoff * (2 ** (attempt - 1)) if wait is None else wait
                if wait is None:  # jitter, so parallel clients do not retry in step (timing only,
                    pause *= 1.0 + _JITTER.uniform(0.0, 0.25)  # never a result: not the run's seed)
                time.sleep(min(pause, self.max_wait))
                wait = None
            self.attempts += 1
            began = time.monotonic()
            deadline = began + self.timeout
            request = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with _OPENER.open(request, timeout=self.timeout) as resp:
                    self.answered = True
                    raw = self._read(resp, deadline)
            except urllib.error.HTTPError as exc:
                self.answered = True
                said = _error_body(exc)
                exc.close()
                words = f"; the server says {said!r}" if said else ""
                problem = f"HTTP {exc.code}" + (f" (with response_format {fmt['type']}: if the server refuses "
                                                "it, try --backend-arg schema=json_object or schema=off)"
                                                if fmt is not None and exc.code in (400, 422, 500) else "")
                wait = _retry_after(exc.headers, self.max_wait)
                self._request_done(began, "backend_error", problem + words)
                if exc.code in FATAL_STATUS:
                    raise BackendFatal(self.redact(
                        f"{url}: HTTP {exc.code} ({FATAL_STATUS[exc.code]}): the server refused the request{words}; "
                        f"check the API key in ${self.api_key_env} and the model name: stopping the run")) from None
                if exc.code in RETRYABLE_STATUS:
                    continue
                raise BackendError(self.redact(f"{url}: {problem} (not retried){words}")) from None
            except _TooLarge:
                self._request_done(began, "backend_error", "response larger than max_response_bytes")
                raise BackendError(self.redact(f"{url}: response larger than {self.max_response_bytes} bytes "
                                               "(max_response_bytes): refused")) from None
            except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError,
                    http.client.HTTPException) as exc:
                reason = getattr(exc, "reason", exc)
                if not self.answered and isinstance(reason, (ConnectionRefusedError, socket.gaierror)):
                    what = ("connection refused (nothing listens there?)" if isinstance(reason, ConnectionRefusedError)
                            else "unknown host")
                    raise BackendFatal(self.redact(f"{url}: {what} at the first call: stopping the run")) from None
                words = ""
                if isinstance(reason, (socket.timeout, TimeoutError)):
                    problem = f"no answer within the {self.timeout:g} s timeout"
                    self._request_done(began, "timeout", problem)
                else:
                    problem = f"connection failed ({type(reason).__name__})"
                    self._request_done(began, "backend_error", problem)
                continue
            try:
                answer = self._content(raw, url)
            except BackendError as exc:
                self._request_done(began, "backend_error", str(exc))
                raise
            self._request_done(began, "ok", "")
            return answer
        raise BackendError(self.redact(f"{url}: {problem} after {self.max_retries + 1} attempt(s){words}"))

    def _request_done(self, began: float, outcome: str, problem: str) -> None:
        """Keep one HTTP request of the call in :attr:`last_requests` (wall-clock seconds
        since ``began``, for the call log only)."""
        self.last_requests.append((round(time.monotonic() - began, 4), outcome, self.redact(problem)))

    def token_budget(self, messages: Sequence[Message]) -> int:
        """``max_tokens`` of a request: the backend's ``max_tokens`` when given, else the
        budget of the task named on the prompt's first line (``Task.max_tokens``), else
        :data:`DEFAULT_MAX_TOKENS`.  Always an integer: a model that would generate until
        its context fills stops there."""
        if self.max_tokens is not None:
            return self.max_tokens
        first = messages[0].content if messages else ""
        if first.startswith(TASK_PREFIX):
            try:
                return int(get_task(first[len(TASK_PREFIX):].split("\n", 1)[0].strip()).max_tokens)
            except UnrecognisedPrompt:
                pass
        return DEFAULT_MAX_TOKENS

    def _read(self, resp, deadline: float) -> bytes:
        """The body, complete by ``deadline`` and at most ``max_response_bytes`` long (the
        socket timeout alone is per read, so a server sending a byte at a time could hold
        the call forever; each read waits only for the time left)."""
        cap = self.max_response_bytes
        if (getattr(resp, "length", None) or 0) > cap:
            raise _TooLarge
        sock = getattr(getattr(getattr(resp, "fp", None), "raw", None), "_sock", None)
        chunks, size = [], 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("response body not complete within the timeout")
            if sock is not None:
                try:
                    sock.settimeout(left)
                except OSError:  # seen on Python 3.13 (EBADF): keep urlopen's per-read timeout
                    sock = None
            chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            if not chunk:
                if getattr(resp, "length", None):  # the server closed before the promised length
                    raise http.client.IncompleteRead(b"".join(chunks), resp.length)
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
            if size > cap:
                raise _TooLarge

    def _content(self, raw: bytes, url: str) -> str:
        if self.stream:
            return self._streamed(raw, url)
        try:
            payload = loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, JSONProblem) as exc:
            problem = exc.problem if isinstance(exc, JSONProblem) else "not UTF-8"
            raise BackendError(self.redact(f"{url}: response is not JSON we can read ({problem})")) from None
        try:
            choices = payload["choices"]
            if not choices:
                raise BackendError(self.redact(f"{url}: response has an empty 'choices' list"))
            message = choices[0]["message"]
            content = message["content"]
        except (KeyError, TypeError, IndexError):
            raise BackendError(self.redact(f"{url}: response lacks choices[0].message.content")) from None
        self._keep_finish(choices[0], payload)
        if content is None and isinstance(message.get("reasoning_content"), str):
            content = ""  # a reasoning model that spent its budget thinking: an empty answer, refused as such
        if not isinstance(content, str):
            raise BackendError(self.redact(f"{url}: choices[0].message.content is not a string"))
        return strip_thinking(well_formed(content))

    def _keep_finish(self, choice: Any, payload: Any) -> None:
        """:attr:`last_finish_reason` and :attr:`last_usage` from a response's (or a
        streamed event's) choice and body, when they say them."""
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        if isinstance(finish, str):
            self.last_finish_reason = well_formed(finish)
        usage = payload.get("usage") if isinstance(payload, dict) else None
        if isinstance(usage, dict):
            self.last_usage = {k: v for k, v in usage.items() if k in USAGE_FIELDS and isinstance(v, int)}

    def _streamed(self, raw: bytes, url: str) -> str:
        """The answer assembled from a complete server-sent-event body: the
        ``choices[0].delta.content`` pieces of its ``data:`` events, up to ``[DONE]``."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BackendError(self.redact(f"{url}: streamed response is not UTF-8")) from None
        pieces, events, done = [], 0, False
        for line in text.splitlines():
            if not line.startswith("data:"):
                continue
            data = line[len("data:"):].strip()
            if data == "[DONE]":
                done = True
                break
            try:
                event = loads(data)
                if not event.get("choices") and isinstance(event.get("usage"), dict):
                    self._keep_finish(None, event)  # the usage-only last event some servers send
                    continue
                choice = event["choices"][0]
                piece = (choice.get("delta") or choice.get("message") or {}).get("content")
            except (JSONProblem, KeyError, TypeError, IndexError, AttributeError):
                raise BackendError(self.redact(f"{url}: a streamed event lacks choices[0].delta")) from None
            self._keep_finish(choice, event)
            events += 1
            if piece is not None and not isinstance(piece, str):
                raise BackendError(self.redact(f"{url}: a streamed delta's content is not a string"))
            pieces.append(piece or "")
        if not events or not done:
            raise BackendError(self.redact(f"{url}: streamed response {'ended before [DONE]' if events else 'has no events'}"))
        return strip_thinking(well_formed("".join(pieces)))


#: request fields that carry the token budget (``token_field``)
TOKEN_FIELDS = ("max_tokens", "max_completion_tokens")
#: the token counts kept from a response's ``usage``
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)\s*", re.S | re.I)
_JITTER = random.Random()  # retry timing only (wall clock), never a result


def strip_thinking(text: str) -> str:
    """``text`` without a reasoning model's ``<think> ... </think>`` blocks (a block left open
    runs to the end: the model was cut off while thinking)."""
    return _THINK.sub("", text) if "<think>" in text.lower() else text


def _error_body(exc) -> str:
    """The server's own words in an HTTP error (``error.message`` of an OpenAI-style body, else
    the text), one line, at most 300 characters; "" when there are none."""
    try:
        raw = exc.read(4096)
    except Exception:  # noqa: BLE001 - the body is a courtesy; the status decides
        return ""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")
    try:
        data = loads(text)
        err = data.get("error") if isinstance(data, dict) else None
        msg = err.get("message") if isinstance(err, dict) else (err if isinstance(err, str) else None)
        if isinstance(msg, str):
            text = msg
    except (JSONProblem, AttributeError):
        pass
    return well_formed(" ".join(text.split())[:300])


def redact_key(text: str, key: str | None) -> str:
    """``text`` with ``key`` (and ``key`` trimmed of surrounding white space) replaced by
    :data:`REDACTED`; unchanged when there is no key."""
    for variant in sorted({key or "", (key or "").strip()}, key=len, reverse=True):
        if variant:
            text = text.replace(variant, REDACTED)
    return text


def auth_header(api_key_env: str) -> dict:
    """``{"Authorization": "Bearer KEY"}`` from ``$api_key_env`` (trimmed), or ``{}`` when
    it is unset or empty; a BackendError (not showing the key) when the key holds spaces
    or control characters, which http.client would refuse with the key in its message."""
    key = (os.environ.get(api_key_env) or "").strip()
    if not key:
        return {}
    if any(not 0x21 <= ord(ch) <= 0x7E for ch in key):
        raise BackendError(f"the API key in ${api_key_env} contains spaces or control "
                           "characters; set it to the bare key")
    return {"Authorization": f"Bearer {key}"}


def list_models(base_url: str, *, api_key_env: str = DEFAULT_KEY_ENV, timeout: float = MODELS_TIMEOUT,
                max_bytes: int = MAX_RESPONSE_BYTES) -> list[str]:
    """The model ids the server at ``base_url`` lists (``GET {base_url}/models``, as
    OpenAI's API, vLLM, llama.cpp and Ollama answer it: ``{"data": [{"id": ...}, ...]}``;
    a ``"models"`` list is read too), in the server's order.  One request, no retry, no
    redirect followed; a :class:`BackendError` (the key redacted) when the server cannot
    be reached or its answer is not such a list."""
    url = f"{base_url.rstrip('/')}/models"
    key = os.environ.get(api_key_env)
    request = urllib.request.Request(url, headers=auth_header(api_key_env), method="GET")
    try:
        with _OPENER.open(request, timeout=timeout) as resp:
            raw = resp.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        exc.close()
        raise BackendError(redact_key(f"{url}: HTTP {exc.code}", key)) from None
    except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError,
            http.client.HTTPException, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        what = ("connection refused (nothing listens there?)" if isinstance(reason, ConnectionRefusedError)
                else "unknown host" if isinstance(reason, socket.gaierror)
                else f"no answer within {timeout:g} s" if isinstance(reason, (socket.timeout, TimeoutError))
                else f"cannot connect ({type(reason).__name__})")
        raise BackendError(redact_key(f"{url}: {what}", key)) from None
    if len(raw) > max_bytes:
        raise BackendError(f"{url}: response larger than {max_bytes} bytes")
    try:
        payload = loads(raw.decode("utf-8"))
        rows = payload.get("data") if isinstance(payload.get("data"), list) else payload["models"]
        if not isinstance(rows, list):
            raise TypeError
    except (UnicodeDecodeError, JSONProblem, KeyError, TypeError, AttributeError):
        raise BackendError(f"{url}: the answer is not a list of models (no 'data' list)") from None
    names = []
    for row in rows:
        name = row.get("id") or row.get("model") or row.get("name") if isinstance(row, dict) else row
        if isinstance(name, str) and name.strip() and name not in names:
            names.append(redact_key(well_formed(name), key))
    return names


def _retry_after(headers, cap: float) -> float | None:
    """Seconds from a ``Retry-After: <seconds>`` header, within [0, cap]; None otherwise
    (an HTTP-date form is ignored: the exponential backoff applies)."""
    try:
        value = float((headers or {}).get("Retry-After", ""))
    except (TypeError, ValueError):
        return None
    return min(max(value, 0.0), cap) if value == value else None
