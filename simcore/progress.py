"""A minimal progress bar on standard error.

It appears only once a run has taken more than ``delay`` seconds (so quick runs and
tests stay quiet) and only when standard error is a terminal, unless forced.  The
wall clock is used for display only; it never reaches results.

The bar counts jobs; once one is done it shows an estimate of the time left (ETA,
from this run's measured rate: the mean time per finished job so far).  A run inside a
larger one (a system of the default study) names what comes after it, which this bar
does not estimate (:data:`AFTER`, read when the bar is made).  :meth:`Progress.note` redraws it between jobs
with a short status -- the run calls it after every model call (task, latency, parse
result, calls so far), so a run against a slow model visibly moves.

When standard error is not a terminal (a CI log, ``| tee``) and progress was not switched
off, a plain line (no carriage return, no escape code) is written every ``interval``
seconds (``SIMCORE_PROGRESS_INTERVAL``, default 30) and once at the end, so a long run
shows it is alive.
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
import time
from typing import Callable

#: what runs after this bar's run, appended to its line (e.g. the default study's systems
#: still to start: "then astra, dominance (not started: no estimate)"); empty outside such a run
AFTER: contextvars.ContextVar[str] = contextvars.ContextVar("simcore_progress_after", default="")


def _interval() -> float:
    try:
        return max(0.0, float(os.environ.get("SIMCORE_PROGRESS_INTERVAL", "30")))
    except ValueError:
        return 30.0


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    def __init__(self, total: int, label: str = "", *, enabled: bool | None = None,
                 delay: float = 1.0, stream=None, interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.total = max(int(total), 1)
        self.label = label
        self.after = AFTER.get()
        #: seconds, for display only (a test passes a fake one)
        self.clock = clock
        self.stream = stream if stream is not None else sys.stderr
        #: plain periodic lines instead of a bar: stderr is no terminal and progress was not refused
        self.plain = False
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
            self.plain = not enabled
        self.enabled = enabled
        self.interval = _interval() if interval is None else interval
        self._plain_last: float | None = None
        self.delay = delay
        self.done = 0
        self.status = ""
        self._start = clock()
        self._shown = False
        self._last = 0.0
        self._lock = threading.Lock()  # notes come from the threads of a --concurrency run

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            self._draw(final=self.done >= self.total)

    def note(self, status: str) -> None:
        """Redraw with ``status`` after the bar (e.g. the last model call)."""
        with self._lock:
            self.status = status
            self._draw(final=False)

    def eta(self, now: float | None = None) -> float | None:
        """Seconds left at this run's measured rate (the mean time of the jobs finished so
        far times the jobs left); None before the first job has finished."""
        if not self.done:
            return None
        elapsed = (self.clock() if now is None else now) - self._start
        return elapsed / self.done * max(self.total - self.done, 0)

    def line(self, now: float) -> str:
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(30 * frac)
        eta = self.eta(now)
        tail = f" ETA {_clock(eta)}" if eta is not None and self.done < self.total else ""
        after = f"; {self.after}" if self.after and self.done < self.total else ""
        status = f"  {self.status}" if self.status else ""
        return f"{self.label} [{bar:<30}] {self.done}/{self.total} {_clock(now - self._start)}{tail}{after}{status}"

    def _draw(self, final: bool) -> None:
        if self.plain:
            self._plain(final)
        if not self.enabled:
            return
        now = self.clock()
        if now - self._start < self.delay and not final:
            return
        if self._shown and now - self._last < 0.1 and not final:
            return
        self._last = now
        self._shown = True
        self.stream.write("\r\x1b[K" + self.line(now))
        self.stream.flush()

    def _plain(self, final: bool) -> None:
        now = self.clock()
        since = now - (self._start if self._plain_last is None else self._plain_last)
        if since < self.interval and not (final and self._plain_last is not None):
            return
        if final and self._plain_last == now:
            return
        self._plain_last = now
        try:
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr never stops a run
            self.plain = False

    def close(self) -> None:
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
