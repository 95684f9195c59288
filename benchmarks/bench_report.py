"""``simcore report`` of the whole default study: build time and page size.

    python benchmarks/bench_report.py [--run DIR] [--repeat 3] [--workers 2]

Without ``--run`` it first runs the default study of every system (``simcore run``) into a
temporary directory.  It then builds the report of the whole directory ``--repeat`` times
in this process and prints the best and median wall time, the CPU time, the size of the
page, the size of the transcripts it read, and the time of the report of each system
alone.  It also times one ``--negotiation`` page.  A reference loop (10**7 additions, as
in ``bench_mind.py``) shows how fast the shared VM was.  Target: a few MB,
built in seconds.  Results are recorded in ``benchmarks/results-report.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mind import reference_loop  # noqa: E402

from simcore.report import build  # noqa: E402


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", help="an existing output of `simcore run` (default: run it now)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="simcore-report-bench-")
    run = args.run
    if run is None:
        run = os.path.join(tmp, "runs")
        env = dict(os.environ, PYTHONPATH=ROOT)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcore.cli", "run", "--workers", str(args.workers), "--out", run,
                        "--no-progress"], check=True, env=env, stdout=subprocess.DEVNULL)
        print(f"default study run in {time.perf_counter() - t:.1f} s ({args.workers} workers)")
    print(f"reference loop (10**7 additions): {reference_loop():.2f} s CPU")
    sizes = {s: os.path.getsize(os.path.join(run, s, "transcripts.jsonl")) / 1e6
             for s in ("mind", "scorable", "astra", "dominance")
             if os.path.isfile(os.path.join(run, s, "transcripts.jsonl"))}
    print("transcripts read: " + ", ".join(f"{s} {mb:.1f} MB" for s, mb in sizes.items())
          + f" (total {sum(sizes.values()):.1f} MB)")
    out = os.path.join(tmp, "report.html")
    walls, cpus = [], []
    for _ in range(args.repeat):
        _, w, c = timed(lambda: build(run, out))
        walls.append(w)
        cpus.append(c)
    print(f"whole report: {os.path.getsize(out) / 1e6:.2f} MB; best wall {min(walls):.2f} s, median "
          f"{statistics.median(walls):.2f} s, cpu {min(cpus):.2f} s over {args.repeat} builds")
    for s in sizes:
        one = os.path.join(tmp, f"{s}.html")
        _, w, _c = timed(lambda: build(os.path.join(run, s), one))
        print(f"  {s:<10} alone: {os.path.getsize(one) / 1e6:.2f} MB in {w:.2f} s")
    neg = os.path.join(tmp, "neg.html")
    _, w, _c = timed(lambda: build(os.path.join(run, "mind"), neg, negotiation="mind/s0/g200/mind"))
    print(f"one --negotiation page (the last MIND group, found by reading the whole transcript): "
          f"{os.path.getsize(neg) / 1e3:.0f} kB in {w:.2f} s")
    print(f"reference loop (10**7 additions): {reference_loop():.2f} s CPU")


if __name__ == "__main__":
    main()
