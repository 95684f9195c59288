"""Speed of the MIND study and of the CLI start-up.

    python benchmarks/bench_mind.py [--repeat 3]

Measures, on one core (in-process, workers=1):
  * the default study -- 201 groups x 4 variants, one seed -- end to end with its outputs
    written (metrics.json, CSVs, transcripts.jsonl), wall and CPU seconds, best of N;
  * the same without transcripts;
  * ``simcore --help`` as a fresh process, median of 15 runs.
Targets: study < 5 s, --help < 0.3 s.  Results are recorded in
benchmarks/README.md (section "MIND").
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def study(transcripts: bool) -> tuple[float, float]:
    from simcore.systems.mind import MindConfig
    from simcore.study import run_study

    with tempfile.TemporaryDirectory() as tmp:
        w0, c0 = time.perf_counter(), time.process_time()
        run_study("simcore.systems.mind:STUDY", MindConfig(transcripts=transcripts), workers=1,
                  out_dir=tmp, progress=False)
        return time.perf_counter() - w0, time.process_time() - c0


def reference_loop() -> float:
    """CPU seconds for 10**7 integer additions: how fast this machine is right now (the
    shared build box varies by a factor of 1.5 or more from hour to hour)."""
    t = time.process_time()
    s = 0
    for i in range(10**7):
        s += i
    return time.process_time() - t


def cli_help(n: int = 15) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcore.cli", "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    study(False)  # warm imports
    print(f"load average at start: {os.getloadavg()[0]:.2f}; reference loop (10**7 additions): "
          f"{reference_loop():.2f} s CPU")
    for transcripts in (True, False):
        runs = [study(transcripts) for _ in range(args.repeat)]
        wall, cpu = min(runs)
        print(f"default MIND study (201 groups x 4 variants), transcripts={transcripts}: "
              f"best wall {wall:.2f} s, cpu {cpu:.2f} s over {args.repeat} runs")
    print(f"simcore --help: median {cli_help():.3f} s over 15 runs")
    print(f"reference loop at the end: {reference_loop():.2f} s CPU")


if __name__ == "__main__":
    main()
