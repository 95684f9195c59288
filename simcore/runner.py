"""Map a function over jobs in order, in-process or in a process pool.

Results always come back in job order, so outputs are byte-identical whatever the
worker count or the order in which workers finish.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Executor
from typing import Any, Callable, Sequence

from simcore.errors import BackendFatal
from simcore.executors import process_pool, stop_workers
from simcore.progress import Progress

#: jobs in flight per worker: enough to keep every worker busy, few enough that
#: finished-but-not-yet-consumed results stay a small, fixed amount of memory
WINDOW_PER_WORKER = 4


def map_ordered(fn: Callable[[Any], Any], items: Sequence[Any], *, workers: int = 1,
                label: str = "", progress: bool | None = None,
                executor: Executor | None = None,
                on_result: Callable[[Any], Any] | None = None, bar: Progress | None = None) -> list[Any]:
    """``[fn(x) for x in items]``, possibly in parallel, results in input order.

    ``on_result``, if given, is called on each result in input order as soon as it
    is available, and what it returns is kept instead of the result (a caller that
    streams part of each result to disk returns the rest, so memory stays flat).
    At most ``WINDOW_PER_WORKER * workers`` jobs are submitted ahead of the next
    result to consume.  ``bar`` replaces the default progress bar.  A
    :class:`~simcore.errors.BackendFatal` from a job cancels the jobs not yet started
    on any executor (a ``--concurrency`` thread pool included; a running thread cannot
    be stopped and ends with its own calls' failures) and ends the jobs still running
    in the process pool this function started (:func:`simcore.executors.stop_workers`).
    """
    keep = on_result or (lambda r: r)
    bar = bar if bar is not None else Progress(len(items), label, enabled=progress)
    out: list[Any] = [None] * len(items)
    try:
        if executor is None and workers <= 1:
            for i, item in enumerate(items):
                out[i] = keep(fn(item))
                bar.advance()
            return out
        own = executor is None
        # workers die with this process (a SIGKILL / SIGTERM to a plain run's main process must not
        # leave them running, holding the caller's stdout open)
        pool = executor or process_pool(workers)
        window = max(2, WINDOW_PER_WORKER * max(1, int(getattr(pool, "parallelism", workers))))
        try:
            pending: deque = deque()
            nxt = 0
            for i in range(len(items)):
                while nxt < len(items) and len(pending) < window:
                    pending.append(pool.submit(fn, items[nxt]))
                    nxt += 1
                fut = pending.popleft()
                out[i] = keep(fut.result())
                del fut
                bar.advance()
        except BackendFatal:  # the other jobs would fail on the same backend: start none, end ours now
            for fut in pending:
                fut.cancel()
            if own:
                stop_workers(pool)
            raise
        finally:
            if own:
                pool.shutdown(cancel_futures=True)
        return out
    finally:
        bar.close()
