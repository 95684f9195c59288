"""Watching model calls as they happen: for progress lines and ``--log-calls``.

:class:`~mockllm.client.ModelClient` reports every request it sends to the observer
installed with :func:`observing` (one per process; the run installs it around its
jobs): the task, the attempt (1 for the first try, 2 and on for repairs), the
wall-clock latency of the request, the result (``ok``, ``parse_error``, ``timeout``,
``backend_error``) and the sizes of the prompt and the answer.  A backend that retries
a request itself and says so (the HTTP backend's ``last_requests``) has each of its
requests reported as its own event, numbered ``request`` 1, 2, ... within the attempt,
with its own latency and outcome.

Latency is wall-clock time: it is shown on the progress line, written to the
``--log-calls`` file and summarised on standard error, and never reaches
``metrics.json``, transcripts or cassettes (those stay byte-identical between runs
and replays).  Without an observer, reporting is a no-op.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Callable, Iterator

_LOCK = threading.Lock()
_observer: Callable[[dict], None] | None = None


def report(event: dict) -> None:
    """Pass one call's ``event`` to the installed observer (if any), one at a time."""
    fn = _observer
    if fn is None:
        return
    with _LOCK:
        fn(event)


@contextlib.contextmanager
def observing(fn: Callable[[dict], None]) -> Iterator[None]:
    """Install ``fn`` as the observer of every model call made in this process (by any
    thread) while the block runs; the previous observer is restored afterwards."""
    global _observer
    previous = _observer
    _observer = fn
    try:
        yield
    finally:
        _observer = previous
