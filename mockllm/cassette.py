"""Record a run made with any backend and replay it offline, byte-identically.

A cassette is a JSON Lines file; each line holds one exchange:
``{"key": <sha256 of the request>, "messages": [...], "temperature": t, "seed": s,
"response": "..."}``.  The key covers the messages, temperature and seed, so replay
returns exactly what the backend said to exactly that request.  Nothing else (no
API key, no headers) is stored.

When the same request was made several times (a real model at temperature > 0 that
ignores the seed may answer it differently each time), replay returns the recorded
answers in recording order, then repeats the last one.  A request the backend failed
(:class:`BackendError`) is recorded as ``{"key", ..., "error": "<message>"}`` and
fails the same way on replay, so a run that met failures replays exactly too.

The first line of a cassette is a header,
``{"cassette": {"backend": <registered id>, "model": <model name or null>,
"backend_args": [[k, v], ...], "tries": n, "temperature": t}}``: what the exchanges
were recorded with.  A replay reports that backend and model (so the replayed run's
``metrics.json`` equals the recorded one's) and asks with the same number of tries
and temperature (so its repair requests are the recorded ones).  A replay refuses a
file without that header (an empty file, a file of other JSON Lines) and a cassette
that holds no exchange, before any work: one :class:`~simcore.errors.InputError`
naming the file.  A header is checked field by field before a replay
(:func:`check_header`): a field of the wrong type or out of range (``"backend_args": 1``,
``"temperature": "x"``, ``"tries": 0``) or one this version does not know is one
:class:`~simcore.errors.InputError` naming the file and the field.

Every answer and error recorded, whatever the inner backend, is well-formed Unicode
(:func:`simcore.textsafe.well_formed`: a lone surrogate becomes U+FFFD), so a cassette can
always be written; a replay reads a hand-made cassette's texts the same way.

A backend that knows a secret (the HTTP backend's API key) has a ``redact(text)``
method; a :class:`RecordingBackend` passes every text it writes -- the request's
messages, the response, the error -- through it, so a cassette never holds the key
even if a server echoed it.  The request's key is computed from the messages as sent.

Inside a study run the exchanges of each job are kept in memory while the job runs
(:func:`buffered`) and written by the parent process in job order when the job is
done (:func:`write_lines`), so a cassette is byte-identical whether the jobs ran one
after another, in threads (``--concurrency``) or in worker processes (``--workers``).
They go to a temporary file that replaces the cassette when the run finishes
(:class:`RunCassette`): a run that stops leaves the cassette as it was.  Elsewhere (a
sweep's runs) exchanges are appended in place, and an append a full disk cuts short is
cut off again; either way a failure to write is one
:class:`~simcore.errors.InputError` naming the cassette.

A request the cassette does not hold (one from a smaller run or another system) stops
the replay with a :class:`~simcore.errors.BackendFatal` naming
that first missed request; with ``misses="fallback"`` it is a :class:`BackendError`
instead, which the caller counts as a fallback.  A failure that stopped the recorded
run (:class:`~simcore.errors.BackendFatal`) is not recorded.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import math
import os
from typing import Any, Iterator, Mapping, Sequence

from mockllm.backend import ChatBackend, Message, takes_schema
from mockllm.client import MAX_TRIES
from simcore.errors import BackendError, BackendFatal, InputError
from simcore.files import AtomicFile, read_text
from simcore.jsonread import JSONProblem, loads
from simcore.textsafe import well_formed

MISSES = ("error", "fallback")


def request_key(messages: Sequence[Message], temperature: float, seed: int | None) -> str:
    blob = json.dumps({"messages": [m.to_dict() for m in messages], "temperature": temperature,
                       "seed": seed}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


#: the exchanges of the job running in this thread (see :func:`buffered`); None: write at once
_BUFFER: contextvars.ContextVar[list | None] = contextvars.ContextVar("cassette_buffer", default=None)


@contextlib.contextmanager
def buffered() -> Iterator[list]:
    """Within the block, RecordingBackends of this thread keep their lines in the yielded
    list (``(path, header, line)`` triples) instead of writing them; the caller writes
    them with :func:`write_lines` in a deterministic order."""
    lines: list = []
    token = _BUFFER.set(lines)
    try:
        yield lines
    finally:
        _BUFFER.reset(token)


def _line_text(line: Mapping[str, Any]) -> str:
    return json.dumps(dict(line), ensure_ascii=False) + "\n"


def _header_text(header: Mapping[str, Any]) -> str:
    return json.dumps({"cassette": dict(header)}, ensure_ascii=False) + "\n"


#: the cassettes a run of this process is recording (:class:`RunCassette`), by real path
_RUNS: dict[str, "RunCassette"] = {}


def write_lines(entries: Sequence[tuple[str, Mapping[str, Any] | None, Mapping[str, Any]]]) -> None:
    """Append ``(path, header, line)`` entries to their cassettes, a header first into a
    cassette that is new or empty.

    A cassette a run records (:class:`RunCassette`) takes the lines; any other is
    appended to in place, each entry with one write: when that fails (a full disk) the
    half-written entry is cut off again and the failure is one
    :class:`~simcore.errors.InputError` naming the cassette, whose earlier entries are kept."""
    for path, header, line in entries:
        run = _RUNS.get(os.path.realpath(path)) if _RUNS else None
        if run is not None:
            run.add(header, line)
            continue
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        text = (_header_text(header) if new and header is not None else "") + _line_text(line)
        _append(path, text.encode("utf-8"))


def _append(path: str, data: bytes) -> None:
    try:
        fh = open(path, "ab", buffering=0)
    except OSError as exc:
        raise InputError(path, "", f"cannot write ({exc.strerror or exc})") from None
    with fh:
        start = fh.tell()
        try:
            view = memoryview(data)
            while view:  # unbuffered file: a write may be partial
                view = view[fh.write(view):]
        except OSError as exc:
            try:
                fh.truncate(start)
            except OSError:
                pass
            raise InputError(path, "", f"cannot write ({exc.strerror or exc}); the exchanges recorded "
                                       "before this one are kept") from None


class RunCassette:
    """``with RunCassette(path):`` -- the cassette a run records, appearing complete when
    the run ends (:class:`~simcore.files.AtomicFile`).

    While the block runs, :func:`write_lines` sends this cassette's entries here; they
    go to a temporary file beside ``path`` (after the existing cassette's bytes, when
    ``--append`` adds to one), which replaces ``path`` when the block ends cleanly.  A
    run that stops -- a full disk, a backend that is down, an interrupt -- leaves the
    cassette as it was before the run (or none); a failure to write it is one
    :class:`~simcore.errors.InputError` naming it."""

    def __init__(self, path: str):
        self.path = path
        self._key = os.path.realpath(path)
        self._file = AtomicFile(path)
        self._fh = None
        self._fresh = True

    def __enter__(self) -> "RunCassette":
        if self._key in _RUNS:
            raise InputError(self.path, "", "is being recorded by another run of this process")
        fh = self._file.__enter__()
        try:
            if os.path.exists(self.path) and os.path.getsize(self.path) > 0:
                fh.copy_from(self.path)
                self._fresh = False
        except BaseException as exc:
            self._file.__exit__(type(exc), exc, exc.__traceback__)
            raise
        self._fh = fh
        _RUNS[self._key] = self
        return self

    def add(self, header: Mapping[str, Any] | None, line: Mapping[str, Any]) -> None:
        if self._fresh and header is not None:
            self._fh.write(_header_text(header))
        self._fresh = False
        self._fh.write(_line_text(line))

    def __exit__(self, exc_type, exc, tb) -> bool:
        _RUNS.pop(self._key, None)
        self._fh = None
        return self._file.__exit__(exc_type, exc, tb)


def _first_row(path: str):
    """The first line of ``path`` as JSON, or None (empty, unreadable, not JSON)."""
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
        return loads(first) if first.strip() else None
    except (OSError, UnicodeDecodeError, JSONProblem):
        return None


def _is_header(row: Any) -> bool:
    return isinstance(row, dict) and "cassette" in row and "key" not in row


def read_header(path: str) -> dict | None:
    """The header of the cassette at ``path`` (see the module docstring), or None;
    unchecked (:func:`check_header` checks it)."""
    row = _first_row(path)
    if _is_header(row) and isinstance(row["cassette"], dict):
        return row["cassette"]
    return None


def looks_like_cassette(path: str) -> bool:
    """Whether the first line of ``path`` is a cassette's header or exchange."""
    row = _first_row(path)
    return _is_header(row) or (isinstance(row, dict) and "key" in row and ("response" in row or "error" in row))


def _opt_text(v):
    return None if v is None or (isinstance(v, str) and v.strip()) else f"must be a non-empty string or null, got {v!r}"


def _pairs(v):
    if v is None:
        return None
    if isinstance(v, list) and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                   for p in v):
        return None
    return f"must be a list of [KEY, VALUE] pairs of strings, got {_short(v)}"


def _tries(v):

    if v is None or (isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_TRIES):
        return None
    return f"must be an integer from 1 to {MAX_TRIES} or null, got {_short(v)}"


def _temperature(v):

    if v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= 2):
        return None
    return f"must be a number from 0 to 2 or null, got {_short(v)}"


def _short(v) -> str:
    text = json.dumps(v, ensure_ascii=False) if not isinstance(v, float) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


#: the header's fields, each with its check (the problem, or None when the value is fine)
HEADER_FIELDS = {"backend": _opt_text, "model": _opt_text, "backend_args": _pairs, "tries": _tries,
                 "temperature": _temperature}


def check_header(path: str) -> dict | None:
    """The header of the cassette at ``path``, every field checked (see the module
    docstring); None when the cassette has none.  A bad header is one InputError naming
    ``path`` and the field."""
    row = _first_row(path)
    if not _is_header(row):
        return None
    header = row["cassette"]
    if not isinstance(header, dict):
        raise InputError(path, "cassette header", f"must be a JSON object, got {_short(header)}")
    for name, value in header.items():
        check = HEADER_FIELDS.get(name)
        if check is None:
            raise InputError(path, f"cassette header: {name}", f"unknown field; valid: {', '.join(HEADER_FIELDS)}")
        problem = check(value)
        if problem:
            raise InputError(path, f"cassette header: {name}", problem)
    return header


class RecordingBackend:
    """Passes every request to ``inner`` and appends the exchange to ``path``.

    ``meta`` (``backend`` id, ``model``, ``backend_args``) goes into the cassette's
    header with the inner backend's ``answer_tries`` and ``temperature``."""

    def __init__(self, inner: ChatBackend, path: str, meta: Mapping[str, Any] | None = None):
        self.inner = inner
        self.path = path
        # from Python the cassette's directory is made as needed; the command line refuses a
        # directory that does not exist before any work (simcore.backends.check_backend_files)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.answer_tries = getattr(inner, "answer_tries", None)
        self.temperature = getattr(inner, "temperature", None)
        self.header = {**dict(meta or {}), "tries": self.answer_tries, "temperature": self.temperature}
        #: the inner backend's last finish_reason, passed on (and recorded) for the client
        self.last_finish_reason: str | None = None

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None, schema: Mapping[str, Any] | None = None) -> str:
        # the schema is a function of the messages (the task and its context), so the key
        # need not hold it; it goes to the inner backend, which may constrain its answer
        extra = {"schema": schema} if schema is not None and takes_schema(self.inner) else {}
        redact = self.redact
        line = {"key": request_key(messages, temperature, seed),
                "messages": [{"role": m.role, "content": redact(m.content)} for m in messages],
                "temperature": temperature, "seed": seed}
        self.last_finish_reason = None
        try:
            response = self.inner.chat(messages, temperature=temperature, seed=seed, **extra)
        except BackendError as exc:
            self._append({**line, "error": redact(well_formed(str(exc)))})
            raise
        if type(response) is str:  # (any inner backend: its text is written to the cassette)
            response = well_formed(response)
        finish = getattr(self.inner, "last_finish_reason", None)
        if type(finish) is str:
            finish = well_formed(finish)
        self.last_finish_reason = finish
        self._append({**line, "response": redact(response), **({"finish_reason": finish} if finish else {})})
        return response

    def redact(self, text: str) -> str:
        """``text`` through the inner backend's ``redact`` (the HTTP backend's API key), if it has one."""
        scrub = getattr(self.inner, "redact", None)
        return scrub(text) if scrub is not None else text

    def _append(self, line: dict) -> None:
        buffer = _BUFFER.get()
        if buffer is not None:
            buffer.append((self.path, self.header, line))
        else:
            write_lines([(self.path, self.header, line)])


class ReplayBackend:
    """Answers from a cassette; a request it has not seen is a clear error."""

    def __init__(self, path: str, misses: str = "error"):
        if misses not in MISSES:
            raise InputError("--replay-misses", misses, f"valid: {', '.join(MISSES)}")
        self.path = path
        self.misses = misses
        self.responses: dict[str, list[tuple[str, str, str | None]]] = {}  # key -> [(kind, text, finish)]
        #: the recorded finish_reason of the last answer served (as the live backend said it)
        self.last_finish_reason: str | None = None
        self._served: dict[str, int] = {}
        header = check_header(path)
        self.meta = header or {}
        #: the recorded run's tries and temperature (read by ModelClient), when known
        self.answer_tries = self.meta.get("tries")
        self.temperature = self.meta.get("temperature")
        text = read_text(path)
        if header is None:
            if not text.strip():
                raise InputError(path, "", "is empty: a cassette holds a header and the exchanges --record wrote")
            raise InputError(path, "line 1", "not a cassette header ({\"cassette\": {...}}, the line --record "
                                             "writes first)")
        for lineno, line in enumerate(text.split("\n"), 1):
            if not line.strip() or lineno == 1:
                continue
            try:
                row = loads(line)
                key = row["key"]
                kind = "response" if "response" in row else "error"
                text = row[kind]
                if not isinstance(key, str) or not isinstance(text, str):
                    raise TypeError
            except (JSONProblem, KeyError, TypeError):
                raise InputError(path, f"line {lineno}", "not a cassette entry "
                                 "(needs JSON with string 'key' and 'response' or 'error')") from None
            finish = row.get("finish_reason")
            # (a model's text, from a file: made well-formed as the live backend makes it)
            self.responses.setdefault(key, []).append(
                (kind, well_formed(text), well_formed(finish) if isinstance(finish, str) else None))
        if not self.responses:
            raise InputError(path, "", "holds no exchange (only its header): there is nothing to replay")

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None, schema: Mapping[str, Any] | None = None) -> str:
        key = request_key(messages, temperature, seed)
        try:
            answers = self.responses[key]
        except KeyError:
            first = messages[0].content.split("\n", 1)[0] if messages else ""
            what = (f"{self.path}: no recorded response for this request ({first!r}, seed={seed}, "
                    f"key {key[:12]}; the cassette holds {len(self.responses)} distinct requests)")
            if self.misses == "fallback":
                raise BackendError(what) from None
            raise BackendFatal(f"{what}: re-record the cassette, or pass --replay-misses fallback "
                               "to count misses as fallbacks") from None
        n = self._served.get(key, 0)
        self._served[key] = n + 1
        kind, text, finish = answers[min(n, len(answers) - 1)]
        self.last_finish_reason = finish
        if kind == "error":
            raise BackendError(text)
        return text
