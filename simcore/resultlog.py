"""The append-only JSON Lines log a sweep writes, one record per finished run.

Line 1 is a header ``{"type": "sweep", ...}`` naming the study, the root seed and
the base config; every further line is ``{"type": "run", "id": ..., "status": "ok" |
"error", ...}``.  Each record is written with a single ``write`` of a whole line,
then flushed and ``fsync``-ed, so after a kill (SIGINT or SIGKILL) the file holds
every finished run and at most one torn last line, which :meth:`ResultLog.open`
drops when resuming.  Reading keeps the *last* record of each run id, so a run that
failed and was re-run on resume is represented by its newest record.
"""

from __future__ import annotations

import json
import os
import weakref
from typing import Any, Callable, Mapping

from simcore.errors import InputError
from simcore.files import fsync_dir, read_text
from simcore.jsonread import parse

FORMAT = 1
#: header fields that must match for ``--resume`` to continue a log: the sweep it is
IDENTITY = ("study", "root_seed", "base_config", "grid", "replicates")


def dumps(record: Mapping[str, Any]) -> str:
    """One log line (no newline); raises ValueError on NaN/inf or non-JSON values."""
    return json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


class ResultLog:
    """An open sweep log; use :meth:`open`, then :meth:`append` per finished run."""

    def __init__(self, path: str, header: Mapping[str, Any], records: dict[str, dict]):
        self.path = path
        self.header = dict(header)
        self.records = records  # id -> last record (as read back or appended)
        self._fh = open(path, "ab", buffering=0)  # unbuffered: nothing to flush twice after a fork
        _lock(self._fh, path)
        _OPEN.add(self)

    @classmethod
    def open(cls, path: str, header: Mapping[str, Any], *, resume: bool,
             same: Callable[[str, Any], Any] | None = None) -> "ResultLog":
        """Create the log, or (with ``resume``) continue an existing one.

        An existing non-empty log without ``resume`` is an error (results are never
        overwritten); so is resuming a log written for another sweep: another study, root
        seed, base config, grid or replicate count (:data:`IDENTITY`).  ``same(field,
        value)`` gives the form in which a header field is compared (default: as is; the
        sweep compares grids by their values, not their texts).
        """
        header = {"type": "sweep", "format": FORMAT, **header}
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if exists and not resume:
            raise InputError(path, "", "already holds sweep results; pass --resume to continue that sweep, "
                             "or choose another --out")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        log = cls(path, header, {})  # opened and locked before anything is read or cut
        if not exists:
            log._write(header)
            fsync_dir(path)
            return log
        try:
            _drop_torn_tail(path)
            old_header, log.records = read_log(path)
            form = same or (lambda _key, value: value)
            for key in IDENTITY:
                old, new = form(key, old_header.get(key, _MISSING)), form(key, header.get(key, _MISSING))
                if old != new:
                    field, old, new = _first_difference(key, old, new)
                    raise InputError(path, field, f"{old!r} in the log, {new!r} now: another sweep; resume with "
                                     "the same --seed, --grid, --replicates and study options, or choose another "
                                     "--out (or --overwrite)")
        except BaseException:
            log.close()
            raise
        return log

    def _write(self, record: Mapping[str, Any]) -> None:
        data = memoryview((dumps(record) + "\n").encode("utf-8"))
        start = self._fh.tell()
        try:
            while data:  # unbuffered file: a write may be partial
                data = data[self._fh.write(data):]
            os.fsync(self._fh.fileno())
        except OSError as exc:  # disk full, I/O error: cut what was half written, say so in one line
            try:
                self._fh.truncate(start)
            except (OSError, ValueError):
                pass
            raise InputError(self.path, "", f"cannot write ({exc.strerror or exc}); the runs recorded "
                             "before this one are kept: free space, then run the same command with "
                             "--resume") from None

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one run record durably and remember it."""
        self._write(record)
        self.records[record["id"]] = json.loads(dumps(record))

    def close(self) -> None:
        _OPEN.discard(self)
        self._fh.close()

    def __enter__(self) -> "ResultLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: logs open in this process, closed in every forked child (see _close_in_child)
_OPEN: "weakref.WeakSet[ResultLog]" = weakref.WeakSet()


def _close_in_child() -> None:
    """A forked child (a process-pool worker) closes its copy of every open log.

    ``flock`` belongs to the open file, which a fork shares: a worker keeping its copy
    would keep the lock after the main process is killed, and ``--resume`` would be
    refused while the worker lives.  The log is unbuffered, so closing writes nothing.
    """
    for log in list(_OPEN):
        log._fh.close()
    _OPEN.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


def _lock(fh, path: str) -> None:
    """Refuse a second process writing the same log (an advisory lock, released by
    the OS however the holder ends)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise InputError(path, "", "another simcore process is writing this sweep log; "
                         "wait for it or choose another --out") from None


def _first_difference(key: str, old: Any, new: Any) -> tuple[str, Any, Any]:
    """``(dotted field, old value, new value)`` of the first field where a header differs."""
    if isinstance(old, dict) and isinstance(new, dict):
        for name in list(old) + [k for k in new if k not in old]:
            if old.get(name, _MISSING) != new.get(name, _MISSING):
                return _first_difference(f"{key}.{name}", old.get(name, _MISSING), new.get(name, _MISSING))
    return key, old, new


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


_MISSING = _Missing()


def _drop_torn_tail(path: str) -> None:
    """Cut a last line that a kill left without its newline (it is re-run)."""
    with open(path, "rb+") as fh:
        data = fh.read()
        if data.endswith(b"\n"):
            return
        keep = data.rfind(b"\n") + 1
        fh.truncate(keep)
        fh.flush()
        os.fsync(fh.fileno())


#: the type of each field a run record may hold, by status (checked on reading, so a
#: hand-edited record is one line naming the field, not a crash in the summary)
_FIELDS = {
    "point": dict, "replicate": int, "seed": int,
    "metrics": dict, "fallbacks": int, "jobs": int, "events": int,
    "error": str, "stage": str, "traceback": str, "job": list,
}
_REQUIRED = {"ok": ("point", "replicate", "metrics"), "error": ("point", "replicate", "error")}


def _check_record(row: Mapping[str, Any], path: str, lineno: int) -> None:
    for name in _REQUIRED[row["status"]]:
        if name not in row:
            raise InputError(path, f"line {lineno}", f"a run record with status {row['status']!r} needs {name!r}")
    for name, tp in _FIELDS.items():
        if name in row:
            value = row[name]
            if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
                raise InputError(path, f"line {lineno}: {name}",
                                 f"expected {_KIND[tp]}, got {type(value).__name__} {_short(value)}")


_KIND = {dict: "a JSON object", int: "an integer", str: "a string", list: "a list"}


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def read_log(path: str) -> tuple[dict, dict[str, dict]]:
    """``(header, {run id: last record})``; a malformed line is an :class:`InputError`."""
    records: dict[str, dict] = {}
    header: dict | None = None
    lines = read_text(path).split("\n")
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        row = parse(line, path, f"line {lineno}")
        if not isinstance(row, dict):
            raise InputError(path, f"line {lineno}", "expected a JSON object")
        if header is None:
            if row.get("type") != "sweep":
                raise InputError(path, "line 1", "not a simcore sweep log (no sweep header)")
            if row.get("format") != FORMAT:
                raise InputError(path, "format", f"unsupported log format {row.get('format')!r}")
            header = row
            continue
        if row.get("type") != "run" or not isinstance(row.get("id"), str) \
                or row.get("status") not in ("ok", "error"):
            raise InputError(path, f"line {lineno}", "not a run record (needs type, id, status)")
        _check_record(row, path, lineno)
        records[row["id"]] = row
    if header is None:
        raise InputError(path, "", "empty sweep log")
    return header, records
