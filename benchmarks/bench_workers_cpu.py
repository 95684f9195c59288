"""CPU cost of parallel workers: ``simcore run mind`` with ``--workers 1`` vs ``--workers 2``.

    python benchmarks/bench_workers_cpu.py [--repeat 3] [--groups 201] [--system mind]

Each run is a fresh process, ``python -m simcore.cli run SYSTEM --workers W --no-progress
--out <a temporary directory>`` (MIND's default study: 201 groups x 4 variants,
transcripts written), started one after the other, alternating W = 1 and W = 2.  Its
**total CPU** is the user + system time of the whole process tree (the run and its pool
workers), read from ``resource.getrusage(RUSAGE_CHILDREN)`` before and after: every
worker is reaped by the run, and the run by this script.  The figure reported per W is
the median over ``--repeat`` runs, with the extra CPU of two workers over one as a
percentage (goal: at most 10%).  A reference loop (10**7 integer additions, CPU
seconds) is printed at the start and the end, as in the other benchmarks.

``--start-methods`` adds a third run, ``--workers 2`` in a process that runs an idle
thread as a test runner, a server or a notebook does: there the pool's workers are
started by a fork server, not forked from the run (``simcore.executors.start_method``).
That process stops the fork server at its end, so the server's CPU and its workers' are
reaped into the figure too.  Results: benchmarks/results-workers-cpu.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mind import reference_loop  # noqa: E402  (one definition for every benchmark)




#: ``simcore ARGS`` in a process running a second (idle) thread, whose pools therefore use a fork
#: server; the server is stopped and reaped at the end so that its CPU is counted
THREADED = """
import multiprocessing.forkserver, sys, threading
threading.Thread(target=threading.Event().wait, daemon=True).start()
from simcore.cli import main
from simcore.executors import start_method
assert start_method() == "forkserver", start_method()
try:
    main(sys.argv[1:])
finally:
    multiprocessing.forkserver._forkserver._stop()
"""


def run_cpu(system: str, workers: int, extra: list[str], threaded: bool = False) -> tuple[float, float]:
    """(CPU seconds of the process tree, wall seconds) of one run in a fresh process."""
    command = [sys.executable, "-c", THREADED] if threaded else [sys.executable, "-m", "simcore.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([*command, "run", system, "--workers", str(workers),
                        "--no-progress", "--out", os.path.join(tmp, "out"), *extra],
                       check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--system", default="mind")
    ap.add_argument("--groups", type=int, default=None, help="MIND only: --groups (default: the study's)")
    ap.add_argument("--start-methods", action="store_true",
                    help="also --workers 2 in a process with a second thread (workers from a fork server)")
    args = ap.parse_args()
    extra = ["--groups", str(args.groups)] if args.groups else []
    print(f"load average at start: {os.getloadavg()[0]:.2f}; reference loop (10**7 additions): "
          f"{reference_loop():.2f} s CPU")
    kinds = [(1, False), (2, False)] + ([(2, True)] if args.start_methods else [])
    cpu: dict[tuple, list[float]] = {k: [] for k in kinds}
    wall: dict[tuple, list[float]] = {k: [] for k in kinds}
    for _ in range(args.repeat):
        for w, threaded in kinds:
            c, t = run_cpu(args.system, w, extra, threaded)
            cpu[w, threaded].append(c)
            wall[w, threaded].append(t)
    for w, threaded in kinds:
        how = " (a second thread: fork server)" if threaded else (" (forked)" if w > 1 else "")
        print(f"simcore run {args.system} --workers {w}{how}: CPU of the process tree "
              f"{', '.join(f'{c:.2f}' for c in cpu[w, threaded])} s (median {statistics.median(cpu[w, threaded]):.2f} s); "
              f"wall {', '.join(f'{t:.2f}' for t in wall[w, threaded])} s (median {statistics.median(wall[w, threaded]):.2f} s)")
    m1, m2 = statistics.median(cpu[1, False]), statistics.median(cpu[2, False])
    print(f"--workers 2 uses {100 * (m2 - m1) / m1:+.1f}% CPU against --workers 1 (medians)")
    if args.start_methods:
        m3 = statistics.median(cpu[2, True])
        w2, w3 = statistics.median(wall[2, False]), statistics.median(wall[2, True])
        print(f"--workers 2 from a fork server: {m3 - m2:+.2f} s CPU ({100 * (m3 - m2) / m2:+.1f}%), "
              f"{w3 - w2:+.2f} s wall against forked workers (medians)")
    print(f"reference loop at the end: {reference_loop():.2f} s CPU")


if __name__ == "__main__":
    main()
