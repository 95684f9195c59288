"""A minimal progress bar on standard error.

It appears only once a run has taken more than ``delay`` seconds (so quick runs and
tests stay quiet) and only when standard error is a terminal, unless forced.  The
wall clock is used for display only; it never reaches results.
"""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, label: str = "", *, enabled: bool | None = None,
                 delay: float = 1.0, stream=None):
        self.total = max(int(total), 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.delay = delay
        self.done = 0
        self._start = time.monotonic()
        self._shown = False
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.delay and self.done < self.total:
            return
        if self._shown and now - self._last < 0.1 and self.done < self.total:
            return
        self._last = now
        self._shown = True
        frac = self.done / self.total
        bar = "#" * int(30 * frac)
        self.stream.write(f"\r{self.label} [{bar:<30}] {self.done}/{self.total} {now - self._start:5.1f}s")
        self.stream.flush()

    def close(self) -> None:
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
