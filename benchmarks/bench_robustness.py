"""How long the robustness runs take: ``simcore run SYSTEM --robustness`` for each system
that declares LLM roles, with the commands the docs give.

    python benchmarks/bench_robustness.py [--workers 2] [--systems mind,astra,scorable]

Each command runs as a fresh process; the script reports its wall time, the CPU time of
the process and its children (``resource.getrusage(RUSAGE_CHILDREN)``), the number of study
runs (one per family member of each role) and the load average before and after, plus a
reference loop's CPU time so figures from different days can be compared.  Results:
benchmarks/results-robustness.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mind import reference_loop  # noqa: E402  (one definition for every benchmark)

#: the commands the docs give (docs/<system>.md, "Roles and robustness")
COMMANDS = {
    "mind": ["mind", "--variants", "mind,base"],
    "astra": ["astra", "--partners", "base", "--setups", "integrative,distributive"],
    "scorable": ["scorable", "--trials", "100"],
}




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--systems", default=",".join(COMMANDS))
    args = ap.parse_args()
    print(f"reference loop (10**7 additions): {reference_loop():.2f} s CPU")
    for system in args.systems.split(","):
        from simcore.roles import roles

        runs = sum(len(r.family) for r in roles(system))
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-m", "simcore", "run", *COMMANDS[system], "--robustness", "--no-progress",
                   "--workers", str(args.workers), "--out", os.path.join(tmp, system)]
            load0 = os.getloadavg()[0]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"{system}: `simcore run {' '.join(COMMANDS[system])} --robustness --workers {args.workers}`: "
              f"{runs} study runs, wall {wall:.1f} s, CPU {cpu:.1f} s; load average {load0:.2f} -> "
              f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
