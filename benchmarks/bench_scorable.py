"""Speed and memory of the scorable system.  Plain script:

    python benchmarks/bench_scorable.py            # all three measurements
    python benchmarks/bench_scorable.py --quick    # skip the whole-study memory run

1. One posterior update over the 86,400 hypotheses of Harbour Sport Park: median of
   2,000 updates (offer only; offer + 3 signals), and one estimate() call.
2. 500 trials of one method on one core (every method, one after the other).
3. Peak resident memory of the whole default study (7 methods x 500 trials, one
   worker) in a child process, from getrusage(RUSAGE_CHILDREN).ru_maxrss.

``--study-cpu N`` instead measures only the CPU time of the study (every method, N trials,
one worker, no output files) in this process, after a warm-up trial: the figure to compare
two checkouts by, run alternately from each (the study is found through
``simcore.catalog.STUDIES``, or ``simcore.systems.STUDIES`` in a checkout without the catalog, so
the script runs unchanged on older checkouts).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np


def bench_update() -> None:
    from policies.bayes import Posterior, Signal, hypothesis_space

    sp = hypothesis_space((3, 3, 4, 4, 5))
    rng = np.random.default_rng(0)
    deals = [tuple(int(rng.integers(k)) for k in sp.option_counts) for _ in range(64)]
    sigs = [Signal("issue", "point", ((3, -1),), "prefer"), Signal("option", "point", ((4, 2),), "oppose"),
            Signal("option", "comparison", ((0, 1), (3, 2)), "prefer")]
    typical = [Signal("issue", "point", ((3, -1),), "prefer"), Signal("option", "point", ((4, 2),), "oppose"),
               Signal("option", "comparison", ((2, 0), (2, 3)), "prefer")]
    for label, signals in (("offer only", ()), ("offer + 3 signals incl. a cross-issue option comparison", sigs),
                           ("offer + 3 signals of the kinds the mock speaker gives", typical)):
        times = []
        for i in range(2000):
            post = Posterior(sp) if i % 10 == 0 else post  # noqa: F821 -- a fresh posterior every 10 updates
            t0 = time.perf_counter()
            post.update(deals[i % 64], 0.8, 1.0, signals, 0.05)
            post.estimate()  # the posterior is brought up to date lazily: time both
            times.append(time.perf_counter() - t0)
        print(f"posterior update + estimate() ({label}) over {sp.size} hypotheses: median "
              f"{1e3 * np.median(times):.3f} ms, p95 {1e3 * np.percentile(times, 95):.3f} ms")
    times = []
    for _ in range(500):
        t0 = time.perf_counter()
        post.estimate()
        times.append(time.perf_counter() - t0)
    print(f"estimate() again, nothing new observed: median {1e3 * np.median(times):.3f} ms")
    # the same observations spread over six live posteriors, as in one "all" session: each
    # update finds its (120 x 720) array out of the fastest caches
    posts = [Posterior(sp) for _ in range(6)]
    times = []
    for i in range(600):
        t0 = time.perf_counter()
        posts[i % 6].update(deals[i % 64], 0.8, 1.0, typical, 0.05)
        posts[i % 6].estimate()
        times.append(time.perf_counter() - t0)
    print(f"update + estimate(), round-robin over 6 posteriors (as in a session): median "
          f"{1e3 * np.median(times):.3f} ms")


def _study():
    """The scorable study's import path and its config class, wherever the checkout keeps them."""
    import importlib

    try:
        from simcore.catalog import STUDIES
    except ImportError:  # a checkout whose systems' index is simcore.systems
        from simcore.systems import STUDIES

    module = importlib.import_module(STUDIES["scorable"])
    return f"{STUDIES['scorable']}:STUDY", module.ScorableConfig


def bench_trials(trials: int) -> None:
    from simcore.study import run_study

    path, config = _study()
    for m in config().methods:
        cfg = config(trials=trials, methods=(m,))
        t0 = time.perf_counter()
        run_study(path, cfg, workers=1, out_dir=None)
        print(f"{trials} trials of {m} on one core: {time.perf_counter() - t0:.1f} s")


def bench_memory() -> None:
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcore.cli", "run", "scorable", "--workers", "1",
                        "--no-progress", "--out", out], check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        size = os.path.getsize(os.path.join(out, "transcripts.jsonl"))
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"whole default study (7 methods x 500 trials, 1 worker): {wall:.0f} s wall, "
          f"peak RSS {peak_kb / 1024:.0f} MB, transcripts.jsonl {size / 1e6:.1f} MB")


def bench_study_cpu(trials: int) -> None:
    from simcore.study import run_study

    path, config = _study()
    run_study(path, config(trials=1), workers=1, out_dir=None)  # warm-up: imports, hypothesis spaces
    t0 = time.process_time()
    run_study(path, config(trials=trials), workers=1, out_dir=None)
    print(f"{path}: {trials} trials x 7 methods, one worker: {time.process_time() - t0:.2f} s CPU")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="skip the whole-study memory run")
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--study-cpu", type=int, metavar="N", help="only the study's CPU time over N trials")
    args = ap.parse_args()
    if args.study_cpu:
        bench_study_cpu(args.study_cpu)
        return
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} cpu(s)")
    bench_update()
    bench_trials(args.trials)
    if not args.quick:
        bench_memory()


if __name__ == "__main__":
    main()
