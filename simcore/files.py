"""Reading user files and writing results, with clear errors.

Reading: :func:`read_text` turns an unreadable or non-UTF-8 file into an
:class:`~simcore.errors.InputError` naming it.

Writing: every output file is written atomically (:class:`AtomicFile`, :func:`write_atomic`):
the content goes to a temporary file beside the target, is flushed and ``fsync``-ed, and
only then renamed over the target, so a crash, a kill or a full disk leaves either the old
file or the new one, never a torn one.  An ``OSError`` while writing (disk full, read-only
file system) becomes one :class:`InputError` line naming the file; the temporary file is
removed.  A log worth keeping however the run ends (``--log-calls``) is renamed over its
target even when the run stops, unless writing the log itself failed.

Before a study starts, :func:`prepare_out_dir` checks its ``--out`` directory: it must be
a directory that can be created and written (a probe file is written and removed, whatever
happens), and it must not already hold results unless the user asked to
overwrite them.  The directories a refused check created are removed again.
"""

from __future__ import annotations

import os
import re

from simcore.errors import InputError

#: files that mark a directory as holding results of a plain run
RUN_FILES = ("metrics.json", "transcripts.jsonl", "default-study.json")
#: files that mark a directory as holding results of a sweep
SWEEP_FILES = ("sweep.jsonl", "sweep.json", "sweep_summary.csv", "sweep_runs.csv", "sweep_failures.csv")


def read_text(path: str) -> str:
    """The file's text; InputError if it cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise InputError(path, "", exc.strerror or str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(path, "", "not UTF-8 text") from None


def _write_error(path: str, exc: OSError) -> InputError:
    return InputError(path, "", f"cannot write ({exc.strerror or exc}); nothing was replaced")


def fsync_dir(path: str) -> None:
    """Make a rename in ``path``'s directory durable (best effort; not every OS allows it)."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)) or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class _Handle:
    """The text file an :class:`AtomicFile` writes: an ``OSError`` of its writes is one
    :class:`InputError` naming the target (remembered, so the AtomicFile knows the error
    is its own); everything else is the file's."""

    __slots__ = ("_fh", "_path", "failed")

    def __init__(self, fh, path: str):
        self._fh, self._path, self.failed = fh, path, None

    def _fail(self, exc: OSError) -> InputError:
        self.failed = _write_error(self._path, exc)
        return self.failed

    def write(self, text: str) -> int:
        try:
            return self._fh.write(text)
        except OSError as exc:
            raise self._fail(exc) from None

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._fh.flush()
        except OSError as exc:
            raise self._fail(exc) from None

    def copy_from(self, path: str) -> None:
        """Write the bytes of the file at ``path`` (first, before any text)."""
        with open(path, "rb") as src:
            while True:
                try:
                    chunk = src.read(1 << 20)
                except OSError as exc:
                    raise InputError(path, "", f"cannot read ({exc.strerror or exc})") from None
                if not chunk:
                    return
                try:
                    self._fh.flush()
                    self._fh.buffer.write(chunk)
                except OSError as exc:
                    raise self._fail(exc) from None

    def __getattr__(self, name):
        return getattr(self._fh, name)


class AtomicFile:
    """``with AtomicFile(path) as fh: fh.write(...)`` -- a text file that appears at
    ``path`` complete, or not at all.

    The text goes to ``.NAME.tmp-PID`` beside ``path``.  On a clean exit that file is
    flushed, fsync-ed and renamed over ``path``; on an exception it is removed and
    ``path`` is left as it was -- or, with ``keep_on_error`` (a log worth keeping
    however the run ends), renamed over ``path`` all the same, unless the exception is
    this file's own write failure.  An ``OSError`` writing this file is one
    :class:`InputError` naming ``path`` ("nothing was replaced"); any other exception
    passes through unchanged (an ``OSError`` of another file is that file's, never
    blamed on this one).
    """

    def __init__(self, path: str, *, newline: str | None = None, keep_on_error: bool = False):
        self.path = path
        self._tmp = os.path.join(os.path.dirname(os.path.abspath(path)),
                                 f".{os.path.basename(path)}.tmp-{os.getpid()}")
        self._newline = newline
        self._keep = keep_on_error
        self._fh = None
        self._handle: _Handle | None = None

    @property
    def temporary(self) -> str:
        """Where the text is written until it is renamed to ``path``."""
        return self._tmp

    def __enter__(self) -> _Handle:
        try:
            self._fh = open(self._tmp, "w", encoding="utf-8", newline=self._newline)
        except OSError as exc:
            raise _write_error(self.path, exc) from None
        self._handle = _Handle(self._fh, self.path)
        return self._handle

    def __exit__(self, exc_type, exc, tb) -> bool:
        own = exc is not None and exc is self._handle.failed
        try:
            if exc_type is None or (self._keep and not own):
                try:
                    self._fh.flush()
                    os.fsync(self._fh.fileno())
                    self._fh.close()
                    os.replace(self._tmp, self.path)
                except OSError as err:
                    self._discard()
                    if exc_type is None:
                        raise _write_error(self.path, err) from None
                    return False  # the body's exception says what stopped the run
                fsync_dir(self.path)
                return False
            self._discard()
            return False
        finally:
            self._fh = self._handle = None

    def _discard(self) -> None:
        try:
            self._fh.close()
        except OSError:
            pass
        try:
            os.unlink(self._tmp)
        except OSError:
            pass


def write_atomic(path: str, text: str, *, newline: str | None = None) -> None:
    """Write ``text`` to ``path`` atomically (see :class:`AtomicFile`)."""
    with AtomicFile(path, newline=newline) as fh:
        fh.write(text)


def _first_existing(path: str) -> str:
    cur = os.path.abspath(path)
    while not os.path.lexists(cur):
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    return cur


def prepare_out_dir(out: str, *, kind: str = "run", overwrite: bool = False, resume: bool = False,
                    option: str = "--out") -> None:
    """Check (and create) the output directory of a run before any work is done.

    ``kind`` is ``"run"`` (a plain run: metrics.json, tables, transcripts.jsonl) or
    ``"sweep"`` (sweep.jsonl and its tables).  Raises :class:`InputError` when ``out``
    is empty, is or lies under a file, cannot be created or written, or already holds
    results -- of a plain run, or of a sweep unless ``resume`` continues it -- and
    ``overwrite`` was not given.  With ``overwrite`` the old result files named in
    :data:`RUN_FILES` and :data:`SWEEP_FILES` are removed, so no stale file of an
    earlier run is left beside the new ones.
    """
    if not str(out).strip():
        raise InputError(option, "", "empty path; give a directory for the results")
    if os.path.lexists(out) and not os.path.isdir(out):
        raise InputError(option, out, "exists and is not a directory")
    base = _first_existing(out)
    if not os.path.isdir(base):
        raise InputError(option, out, f"{base} is a file, not a directory")
    made = missing_dirs(out)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        remove_empty_dirs(made)
        raise InputError(option, out, f"cannot create the directory ({exc.strerror or exc})") from None
    probe = os.path.join(out, f".simcore-write-test-{os.getpid()}")
    try:
        with open(probe, "w", encoding="utf-8") as fh:
            fh.write("x")
    except OSError as exc:
        problem = f"cannot write in this directory ({exc.strerror or exc})"
    else:
        problem = None
    finally:
        try:
            os.unlink(probe)
        except OSError:
            pass
    if problem:
        remove_empty_dirs(made)
        raise InputError(option, out, problem)
    _remove_stale_temporaries(out)
    present = [n for n in RUN_FILES + SWEEP_FILES if os.path.exists(os.path.join(out, n))]
    if not present:
        return
    if overwrite:
        for name in present:
            _remove(os.path.join(out, name), option)
        return
    run_files = [n for n in present if n in RUN_FILES]
    if kind == "sweep" and not run_files:
        if resume or "sweep.jsonl" not in present:
            return  # continuing this sweep; or only its tables, which the sweep rewrites
        raise InputError(option, out, "already holds sweep results (sweep.jsonl); pass --resume to continue "
                         "that sweep, --overwrite to replace it, or choose another --out")
    what = "an earlier run" if run_files else "a sweep"
    resumable = "; pass --resume to continue an interrupted default study" if kind == "default" else ""
    raise InputError(option, out, f"already holds results of {what} ({', '.join(present)}){resumable}; "
                     "pass --overwrite to replace them, or choose another --out")


def missing_dirs(path: str) -> list[str]:
    """The directories of ``path`` that do not exist yet, deepest first."""
    missing = []
    cur = os.path.abspath(path)
    while not os.path.lexists(cur):
        missing.append(cur)
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    return missing


def remove_empty_dirs(made: list[str]) -> None:
    """Remove the directories in ``made`` (deepest first, as :func:`missing_dirs` lists them)
    that are empty, up to the first that is not: those a run created and left empty."""
    for path in made:
        try:
            os.rmdir(path)
        except OSError:
            return


def _remove_stale_temporaries(out: str) -> None:
    """Remove the temporary files (``.NAME.tmp-PID``) that a killed run left in ``out``
    (those of a process still running are kept)."""
    for name in os.listdir(out):
        m = re.fullmatch(r"\..+\.tmp-(\d+)", name)
        if m is None:
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue  # its writer is alive
        except ProcessLookupError:
            pass
        except (OSError, OverflowError):
            continue
        try:
            os.unlink(os.path.join(out, name))
        except OSError:
            pass


def _remove(path: str, option: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise InputError(option, path, f"cannot remove the old file ({exc.strerror or exc})") from None
