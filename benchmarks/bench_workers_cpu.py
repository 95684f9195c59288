"""CPU cost of parallel workers: ``simcore run mind`` with ``--workers 1`` vs ``--workers 2``.

    python benchmarks/bench_workers_cpu.py [--repeat 3] [--groups 201] [--system mind]

Each run is a fresh process, ``python -m simcore.cli run SYSTEM --workers W --no-progress
--out <a temporary directory>`` (MIND's default study: 201 groups x 4 variants,
transcripts written), started one after the other, alternating W = 1 and W = 2.  Its
**total CPU** is the user + system time of the whole process tree (the run and its pool
workers), read from ``resource.getrusage(RUSAGE_CHILDREN)`` before and after: every
worker is reaped by the run, and the run by this script.  The figure reported per W is
the median over ``--repeat`` runs, with the extra CPU of two workers over one as a
percentage (issue 21: at most 10%).  A reference loop (10**7 integer additions, CPU
seconds) is printed at the start and the end, as in the other benchmarks.
Results: benchmarks/results-workers-cpu.md.
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




def run_cpu(system: str, workers: int, extra: list[str]) -> tuple[float, float]:
    """(CPU seconds of the process tree, wall seconds) of one run in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcore.cli", "run", system, "--workers", str(workers),
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
    args = ap.parse_args()
    extra = ["--groups", str(args.groups)] if args.groups else []
    print(f"load average at start: {os.getloadavg()[0]:.2f}; reference loop (10**7 additions): "
          f"{reference_loop():.2f} s CPU")
    cpu: dict[int, list[float]] = {1: [], 2: []}
    wall: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(args.repeat):
        for w in (1, 2):
            c, t = run_cpu(args.system, w, extra)
            cpu[w].append(c)
            wall[w].append(t)
    for w in (1, 2):
        print(f"simcore run {args.system} --workers {w}: CPU of the process tree "
              f"{', '.join(f'{c:.2f}' for c in cpu[w])} s (median {statistics.median(cpu[w]):.2f} s); "
              f"wall median {statistics.median(wall[w]):.2f} s")
    m1, m2 = statistics.median(cpu[1]), statistics.median(cpu[2])
    print(f"--workers 2 uses {100 * (m2 - m1) / m1:+.1f}% CPU against --workers 1 (medians)")
    print(f"reference loop at the end: {reference_loop():.2f} s CPU")


if __name__ == "__main__":
    main()
