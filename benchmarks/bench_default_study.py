"""The whole default study (`simcore run`): wall time and peak memory.

    python benchmarks/bench_default_study.py [--workers 2] [--out /tmp/simcore-default]

Runs ``simcore run --workers W --no-progress --out OUT`` as a subprocess and samples the
resident memory of its whole process tree (the parent and its pool workers) from /proc
every 20 ms, reporting the peak of the sum and the peak of any single process.
Target (issue 6): under 2 minutes with both cores, peak memory under 500 MB.
Results are recorded in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out.extend(int(c) for c in fh.read().split())
    except OSError:
        pass
    return out


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid: int) -> list[int]:
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(_children(p))
    return seen


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="/tmp/simcore-default")
    args = ap.parse_args()
    cmd = [sys.executable, "-m", "simcore.cli", "run", "--workers", str(args.workers), "--no-progress",
           "--out", args.out]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak_sum = peak_one = 0
    while proc.poll() is None:
        sizes = [_rss_kb(p) for p in tree(proc.pid)]
        peak_sum = max(peak_sum, sum(sizes))
        peak_one = max(peak_one, max(sizes, default=0))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"simcore run failed with status {proc.returncode}")
    print(f"command: {' '.join(cmd[2:])}")
    print(f"wall time: {wall:.1f} s")
    print(f"peak resident memory, whole process tree: {peak_sum / 1024:.0f} MB; largest single process: "
          f"{peak_one / 1024:.0f} MB")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
