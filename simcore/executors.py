"""Where runs execute: every backend is a ``concurrent.futures.Executor``.

* ``inline``  -- :class:`InlineExecutor`, runs each task in the calling process the
  moment it is submitted (no pickling, easiest to debug and to interrupt);
* ``process`` -- the standard :class:`~concurrent.futures.ProcessPoolExecutor` with
  ``--workers W`` processes (:func:`process_pool`: started by fork only while this process
  runs no other Python thread, else by a fork server);
* ``dask``    -- a Dask distributed cluster (optional extra: ``pip install
  'simcore[dask]'``): ``--scheduler ADDRESS`` connects to a running scheduler, and
  without an address a ``LocalCluster`` of ``W`` single-threaded worker processes is
  started on 127.0.0.1 (no dashboard) for the duration of the run.
* ``auto``    -- ``inline`` for one worker, ``process`` otherwise (the default).

Results never depend on the executor: every task derives its randomness from the
root seed and its own key, and callers put outputs back in task order.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import logging
import multiprocessing
import os
import signal
import sys
import threading
import warnings
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Callable, Iterator, Sequence

from simcore import registry
from simcore.errors import BackendFatal, InputError

EXECUTORS = ("auto", "inline", "process", "dask")


class InlineExecutor(Executor):
    """Runs each submitted call at once in this process; returns a finished future.

    An exception raised by the call is stored in the future (as a pool would do);
    ``KeyboardInterrupt`` and ``SystemExit`` propagate so Ctrl-C stops a run.
    """

    def __init__(self) -> None:
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: Future = Future()
        future.set_running_or_notify_cancel()
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - stored for the caller, like a pool
            future.set_exception(exc)
        else:
            future.set_result(result)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True


#: what a fork server imports before it forks any worker: what every job imports first
#: (:mod:`simcore.jobimports`), so its workers start warm
FORKSERVER_PRELOAD = ("simcore.jobimports",)


def start_method() -> str:
    """How a process pool made now starts its workers: the platform's default start method,
    except that ``fork`` becomes ``forkserver`` (``spawn`` where there is none) while this
    process runs another Python thread -- a test runner's, a server's, a notebook's.  A forked
    child gets a copy of every lock another thread may hold at that moment, held for ever
    (Python 3.12+ warns: "This process is multi-threaded, use of fork() may lead to
    deadlocks"); a fork server's workers are forked from a process that runs one thread.
    Results do not depend on it: every job derives its randomness from the root seed."""
    default = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    if default != "fork" or python_threads() <= 1:
        return default
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def python_threads() -> int:
    """How many threads run Python code in this process, as Python's fork warning counts
    them: those of :mod:`threading` and those started by ``_thread`` directly (a test
    runner's, for one), which :func:`threading.active_count` does not see."""
    frames = getattr(sys, "_current_frames", None)
    return max(threading.active_count(), len(frames()) if frames is not None else 0)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes started by :func:`start_method`, each of which
    dies with this process and, when not forked from it, starts with its environment
    variables and registry (:func:`start_worker`)."""
    method = start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(FORKSERVER_PRELOAD))
    state = () if method == "fork" else (dict(os.environ), registry.snapshot())
    return ProcessPoolExecutor(max_workers=max(1, workers), mp_context=context, initializer=start_worker,
                               initargs=(os.getpid(), *state))


def start_worker(parent: int, environ: dict[str, str] | None = None, registrations: Sequence = ()) -> None:
    """Pool-worker initializer: die with ``parent`` (:func:`die_with_parent`); a worker not
    forked from ``parent`` also takes its environment variables (an API key set after a fork
    server started, say) and its registry (:func:`simcore.registry.snapshot`: a policy
    registered in code), as a forked one has them."""
    die_with_parent(parent)
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    if registrations:
        registry.restore(registrations)


def die_with_parent(parent: int) -> None:
    """Pool-worker initializer: the worker gets SIGKILL when its parent dies.

    Without it, killing only the main process of a run (``kill -9 PID``, the OOM
    killer) leaves the workers waiting on the call queue (seen still alive 30 s later;
    forked, they hold the queue pipe's write end too, so no end-of-file wakes them).  Linux ``prctl(PR_SET_PDEATHSIG)``
    (the signal is sent when the thread that forked the worker ends; the pool's workers
    are forked by the thread that submits, the main thread for ``simcore run``; a fork
    server's workers by the server, which ends when ``parent`` does); a parent that died
    before this ran is caught by comparing ``getppid`` (a fork server's worker: by asking
    whether ``parent`` still runs).  Elsewhere a no-op:
    there the sweep log's lock is still released (:mod:`simcore.resultlog` closes it
    in forked children).
    """
    if not sys.platform.startswith("linux"):
        return

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no libc symbol
        return
    if os.getppid() != parent and not _runs(parent):  # the parent is already gone
        os._exit(1)


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process of that id
        return True
    return True


def dask_available() -> bool:

    return importlib.util.find_spec("distributed") is not None


def check_choice(executor: str | None, scheduler: str | None) -> str:
    """Validate ``--executor``/``--scheduler`` together; return the executor name."""
    name = executor or ("dask" if scheduler else "auto")
    if name not in EXECUTORS:
        raise InputError("--executor", "", f"unknown executor {name!r}; valid: {', '.join(EXECUTORS)}")
    if scheduler and name != "dask":
        raise InputError("--scheduler", "", f"a scheduler address needs --executor dask, not {name!r}")
    if name == "dask" and not dask_available():
        raise InputError("--executor", "dask",
                         "Dask is not installed; install the extra with: pip install 'simcore[dask]'")
    return name


@contextlib.contextmanager
def open_executor(executor: str | None = None, *, workers: int = 1,
                  scheduler: str | None = None) -> Iterator[Executor]:
    """The executor named ``executor`` (see the module docstring), shut down on exit.

    On exit (normal or not) futures not yet started are cancelled.  When a
    :class:`~simcore.errors.BackendFatal` leaves the block, the process pool's running
    jobs are ended too (:func:`stop_workers`): they talk to the same failed backend, and
    waiting for each to fail on its own would cost every call's timeout and retries.
    """
    name = check_choice(executor, scheduler)
    if name == "auto":
        name = "inline" if workers <= 1 else "process"
    if name == "inline":
        pool: Executor = InlineExecutor()
        pool.parallelism = 1  # type: ignore[attr-defined]
        try:
            yield pool
        finally:
            pool.shutdown()
        return
    if name == "process":
        pool = process_pool(workers)
        pool.parallelism = max(1, workers)  # type: ignore[attr-defined]
        try:
            yield pool
        except BackendFatal:
            stop_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    with _dask_executor(workers=workers, scheduler=scheduler) as pool:
        yield pool


def stop_workers(pool: Executor) -> None:
    """Cancel the pool's pending futures and end its running jobs now.

    A ``ProcessPoolExecutor``'s worker processes are terminated (``terminate_workers``
    where Python has it, 3.14+, else each process of the pool); other executors only
    have their pending futures cancelled (a thread cannot be stopped from outside, and
    a Dask executor's shutdown already cancels what is running).  The pool cannot be
    used afterwards.
    """
    if not isinstance(pool, ProcessPoolExecutor):
        pool.shutdown(wait=False, cancel_futures=True)
        return
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():  # still there after SIGTERM and 5 s (seen on a loaded machine): SIGKILL
            process.kill()
            process.join(5)


@contextlib.contextmanager
def _dask_executor(*, workers: int, scheduler: str | None) -> Iterator[Executor]:

    from distributed import Client, LocalCluster

    # distributed logs cluster start/stop chatter at INFO; a run's output stays clean.
    logging.getLogger("distributed").setLevel(logging.WARNING)
    cluster = None
    try:
        if scheduler:
            _check_address(scheduler)
            try:
                client = Client(scheduler, timeout="10s", set_as_default=False)
            except (OSError, ValueError) as exc:
                raise InputError("--scheduler", scheduler, f"cannot reach the Dask scheduler ({exc})") from None
        else:
            with warnings.catch_warnings():
                # another cluster on this machine holds the default HTTP port; a free one is used
                warnings.filterwarnings("ignore", message="Port .* is already in use")
                cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
            client = Client(cluster, set_as_default=False)
        try:
            pool = client.get_executor(pure=False)
            pool.parallelism = max(1, sum(client.nthreads().values()))  # type: ignore[attr-defined]
            try:
                yield pool
            finally:
                pool.shutdown(wait=False)  # cancels what is still pending
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _check_address(address: str) -> None:
    """Refuse a malformed scheduler address before Dask tries (and hangs) on it."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address, strict=False)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as exc:
        raise InputError("--scheduler", address, f"not a scheduler address ({exc}); "
                         "expected e.g. tcp://10.0.0.5:8786") from None
