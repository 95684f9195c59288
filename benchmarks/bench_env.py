"""The cost of stepping a negotiation through simcore.make_env instead of running it in one call.

    python benchmarks/bench_env.py [--n 200]

For each system, CPU time per negotiation of the API function (the built-in run) and of the env
with every seat external and driven by the paper agent's own actions (the same transcript, tested
in tests/core/test_env.py); interleaved, median of 5 repetitions.  Results: benchmarks/results-env.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import simcore

SEATS = {"astra": ("agent", "partner"), "mind": ("m0", "m1", "m2"),
         "scorable": ("SportCo", "DoT", "Env", "Uni", "Cit", "May"), "dominance": ("agent", "user")}
BUILTIN = {"astra": simcore.astra_episode, "mind": simcore.mind_group, "scorable": simcore.scorable_session,
           "dominance": simcore.dominance_dialogue}
COUNT = {"astra": 1.0, "mind": 0.2, "scorable": 0.1, "dominance": 1.0}


def stepped(system, seed):
    env = simcore.make_env(system, external=SEATS[system], seed=seed)
    env.reset()
    steps = 0
    for _ in env.agent_iter():
        env.step(env.builtin_action())
        steps += 1
    return steps


def cpu_per(fn, n):
    t = time.process_time()
    for k in range(n):
        fn(k)
    return (time.process_time() - t) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for system in SEATS:
        n = max(2, int(args.n * COUNT[system]))
        runs, envs = [], []
        for _ in range(5):
            runs.append(cpu_per(lambda k: BUILTIN[system](seed=k), n))
            envs.append(cpu_per(lambda k: stepped(system, k), n))
        steps = stepped(system, 0)
        a, b = statistics.median(runs), statistics.median(envs)
        print(f"{system}: built-in {a * 1000:.2f} ms, stepped {b * 1000:.2f} ms per negotiation "
              f"({b / a:.2f}x; {steps} decisions in seed 0's), {n} negotiations x 5")


if __name__ == "__main__":
    main()
