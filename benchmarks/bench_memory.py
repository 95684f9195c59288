"""Peak memory of the MIND study as it grows (memory must stay flat).

    python benchmarks/bench_memory.py [--groups 100,1000,5000] [--workers 1]

Runs ``simcore run mind --groups N`` (all four variants, transcripts written) as a
fresh process for each N and reports its peak resident set size (``ru_maxrss`` of
that child, from ``os.wait4``), its wall time, and the size of the transcripts it
wrote.  The recorded figures use one worker (the whole study in one process).
Results are recorded in benchmarks/results-memory.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(groups: int, workers: int, root: str) -> tuple[float, float, float]:
    """(peak RSS MB, wall s, transcripts MB) of one fresh ``simcore run mind``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "o")
        argv = [sys.executable, "-m", "simcore.cli", "run", "mind", "--groups", str(groups),
                "--workers", str(workers), "--out", out, "--no-progress"]
        env = {**os.environ, "PYTHONPATH": root}
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, cwd=tmp, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"simcore exited with {proc.returncode} at --groups {groups}")
        size = os.path.getsize(os.path.join(out, "transcripts.jsonl")) / 2**20
        return usage.ru_maxrss / 1024, wall, size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", default="100,1000,5000")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--root", default=ROOT, help="source tree to measure (default: this checkout)")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; tree: {args.root}")
    print(f"{'groups':>7} {'peak RSS MB':>12} {'wall s':>8} {'transcripts MB':>15}")
    for n in (int(x) for x in args.groups.split(",")):
        rss, wall, size = measure(n, args.workers, args.root)
        print(f"{n:>7} {rss:>12.1f} {wall:>8.1f} {size:>15.1f}", flush=True)


if __name__ == "__main__":
    main()
