"""Speed of the dominance study: 1,000 dialogues of every relation pair (9,000) on one core.

Run:  python benchmarks/bench_dominance.py [--dialogues 1000] [--domain restaurants-small-v1]

Measures the study's jobs run in-process (``run_job`` for every preference profile, all
nine pairs per job) with the language through the mock ChatBackend (``language=backend``,
the default) and with the mock's templates called in-process (``language=direct``), each
with and without building transcript events; wall and CPU time, dialogues per second.
"""

from __future__ import annotations

import argparse
import os
import platform
import time


def measure(dialogues: int, domain: str, transcripts: bool, language: str) -> tuple[float, float, int, int]:
    from simcore.systems.dominance import STUDY, DominanceConfig

    cfg = DominanceConfig(seed=0, dialogues=dialogues, domain=domain, transcripts=transcripts, language=language)
    jobs = STUDY.jobs(cfg)
    STUDY.run_job(cfg, jobs[0])  # warm caches and imports outside the timing
    t0, c0 = time.perf_counter(), time.process_time()
    outs = [STUDY.run_job(cfg, job) for job in jobs]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = sum(len(o.record["records"]) for o in outs)
    turns = sum(r["turns"] for o in outs for r in o.record["records"].values())
    return wall, cpu, n, turns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=1000, help="dialogues per relation pair")
    ap.add_argument("--domain", default="restaurants-small-v1")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; one core used; "
          f"load average at start {os.getloadavg()[0]:.1f}")
    for language, transcripts in (("backend", True), ("backend", False), ("direct", True), ("direct", False)):
        wall, cpu, n, turns = measure(args.dialogues, args.domain, transcripts, language)
        print(f"{args.domain}: {n} dialogues ({args.dialogues} x 9 pairs), {turns} utterances, "
              f"language={language}, transcripts={'on' if transcripts else 'off'}: wall {wall:.2f} s, cpu {cpu:.2f} s "
              f"({n / wall:.0f} dialogues/s, {1e6 * wall / turns:.0f} us/utterance; "
              f"load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
