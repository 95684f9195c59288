"""The whole default study (`simcore run`): wall time and peak memory.

    python benchmarks/bench_default_study.py [--workers 2] [--out /tmp/simcore-default]

Runs ``simcore run --workers W --no-progress --out OUT`` as a subprocess and samples the
resident memory of its whole process tree (the parent and its pool workers) from /proc
every 20 ms, reporting the peak of the sum and the peak of any single process.  The
systems run one after another; each one's time is read off the moment its
``OUT/SYSTEM/metrics.json`` appears (to within the 20 ms sampling), and the CPU time of
the whole tree from ``os.wait4``.  A reference loop (10**7 additions, as in
``bench_mind.py``) is timed before and after, to show how fast the shared VM was.
Target: under 2 minutes with both cores, peak memory under 500 MB.
Results are recorded in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mind import reference_loop  # noqa: E402

SYSTEMS = ("mind", "scorable", "astra", "dominance")


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
    shutil.rmtree(args.out, ignore_errors=True)
    print(f"load average at start: {os.getloadavg()[0]:.2f}; reference loop: {reference_loop():.2f} s CPU")
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak_sum = peak_one = 0
    done: dict[str, float] = {}
    status = None
    while status is None:
        sizes = [_rss_kb(p) for p in tree(proc.pid)]
        peak_sum = max(peak_sum, sum(sizes))
        peak_one = max(peak_one, max(sizes, default=0))
        for name in SYSTEMS:
            if name not in done and os.path.exists(os.path.join(args.out, name, "metrics.json")):
                done[name] = time.perf_counter() - start
        time.sleep(0.02)
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == 0:
            status = None
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"simcore run failed with status {os.waitstatus_to_exitcode(status)}")
    print(f"command: {' '.join(cmd[2:])}")
    print(f"wall time: {wall:.1f} s; CPU time of the process tree: {usage.ru_utime + usage.ru_stime:.1f} s")
    prev, parts = 0.0, []
    for name in SYSTEMS:
        if name in done:
            parts.append(f"{name} {done[name] - prev:.1f} s")
            prev = done[name]
    print("per system (wall): " + ", ".join(parts))
    print(f"peak resident memory, whole process tree: {peak_sum / 1024:.0f} MB; largest single process: "
          f"{peak_one / 1024:.0f} MB")
    print(f"load average at end: {os.getloadavg()[0]:.2f}; reference loop: {reference_loop():.2f} s CPU")

if __name__ == "__main__":
    main()
