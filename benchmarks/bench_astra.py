"""ASTRA speed benchmarks.  Plain script; prints its measurements.

1. Per turn, exact vs pulp: the same CaSiNo episode (ASTRA vs the base partner,
   integrative setup, same seed) is played once with each stage-2 backend; the
   transcripts must be identical; the time per agent offer turn (stages 1-3, 77 LP
   solves) is compared.
2. Study speed: 100 episodes x every partner x the three setups, ASTRA agent,
   exact backend, one process (workers=1), no output files.

Usage: python benchmarks/bench_astra.py [--episodes 100] [--pulp-episodes 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import time


def per_turn(pulp_episodes: int, exact_reps: int) -> None:
    from policies.astra import AgentParams
    from scenarios.bilateral import load_domain
    from simcore.registry import make
    from simcore.seeding import derive
    from simcore.systems.astra.match import play_episode

    domain = load_domain("casino-v1")
    backend = make("backend", "mock-v1")

    def run(solver: str, k: int):
        ep, _ = play_episode(domain, "astra", "base", "integrative", derive(k, "astra", "bench"),
                             run_id=f"astra/bench/{k}", params=AgentParams(solver=solver), backend=backend)
        turns = sum(1 for e in ep.events if e.speaker == "agent" and e.intent.get("mode") == "offer")
        return ep, turns

    # warm up imports and caches
    run("exact", 0)
    t0 = time.perf_counter()
    n_exact, transcripts = 0, {}
    from policies import lp

    for rep in range(exact_reps):
        for k in range(pulp_episodes):
            lp._SPACES.clear()  # cold: no memoised sweeps from earlier reps
            ep, turns = run("exact", k)
            n_exact += turns
            transcripts[k] = [e.to_json() for e in ep.events]
    t_exact = time.perf_counter() - t0
    t0 = time.perf_counter()
    n_pulp, same = 0, True
    for k in range(pulp_episodes):
        ep, turns = run("pulp", k)
        n_pulp += turns
        same &= [e.to_json() for e in ep.events] == transcripts[k]
    t_pulp = time.perf_counter() - t0
    pe, pp = t_exact / n_exact, t_pulp / n_pulp
    print(f"per-turn: exact {pe * 1e3:.3f} ms/offer turn ({n_exact} turns), "
          f"pulp {pp * 1e3:.1f} ms/offer turn ({n_pulp} turns); speed-up x{pp / pe:.0f}; "
          f"identical transcripts: {same}")


def study_speed(episodes: int) -> None:
    from simcore.systems.astra.study import STUDY, AstraConfig

    cfg = AstraConfig(seed=0, episodes=episodes, agents=("astra",), keep_transcripts=True)
    jobs = STUDY.jobs(cfg)
    STUDY.run_job(AstraConfig(seed=99, episodes=1, agents=("astra",)), jobs[0])  # imports
    t0, c0 = time.perf_counter(), time.process_time()
    outs = [STUDY.run_job(cfg, j) for j in jobs]
    STUDY.summarize(cfg, outs)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = sum(len(o.record["episodes"]) for o in outs)
    print(f"study: {n} episodes (ASTRA x {len(cfg.partners)} partners x {len(cfg.setups)} setups x "
          f"{episodes}) in {dt:.2f} s wall, {cpu:.2f} s CPU, one process ({dt / n * 1e3:.2f} ms/episode "
          f"wall), exact backend")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--pulp-episodes", type=int, default=1)
    ap.add_argument("--exact-reps", type=int, default=20)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, cpus {os.cpu_count()}, "
          f"load {os.getloadavg()[0]:.2f}")
    per_turn(args.pulp_episodes, args.exact_reps)
    study_speed(args.episodes)


if __name__ == "__main__":
    main()
