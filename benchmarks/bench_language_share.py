"""The language layer's share of a MIND job's CPU (goal: at most 30%).

    python benchmarks/bench_language_share.py [--groups 100] [--repeat 3] [--top 0]

Runs ``run_study("simcore.systems.mind:STUDY", MindConfig(groups=G), workers=1,
out_dir=<a temporary directory>, progress=False)`` -- the MIND study's four variants,
transcripts written, the default ``mock-v1`` backend, in this process -- and prints:

* **language share** (under cProfile): ``(A + E) / T`` where

  - ``A`` is the cumulative time of ``mockllm.client.ModelClient.ask``: everything a
    policy's request to the language layer costs -- rendering the task prompt and its
    JSON, the backend (the mock's prompt read-back and templated answer, or the
    in-process shortcut), parsing and checking the answer, retries, bookkeeping;
  - ``E`` is the cumulative time of building and writing transcript events:
    ``simcore.transcript.Transcript.add`` and ``add_made`` (recording each event's
    fields), ``Transcript.events`` (``Event`` construction from them and its payload
    checks, when the transcript is first read) plus ``simcore.transcript.write_jsonl``
    (``Event.to_json`` and the write);
  - ``T`` is the total time of the profiled ``run_study`` call (the profiler's total).

  None of the three overlaps another (``ask`` records no event; events are built and
  written after the negotiation), so the sum is not double counted.  cProfile's per-call overhead inflates
  small functions, so the share is a profile's share, not a wall-clock split; the same
  definition is used before and after.
* **sampled share** (no cProfile): the same ``(A + E) / T`` counted by sampling the
  stack every millisecond of CPU time (``signal.ITIMER_PROF``): the fraction of samples
  with ``ModelClient.ask``, ``Transcript.add``/``add_made``/``events`` or ``write_jsonl``
  on the stack.
  cProfile charges every Python call a fixed overhead, which inflates call-heavy code
  such as the language layer; sampling does not (its own cost is about 1-2%).
* **CPU seconds** of the same run without the profiler, best of ``--repeat``
  (``time.process_time``, imports warmed by a first run).
* a **reference loop** (10**7 integer additions, CPU seconds) at the start and the end,
  in the same process, so that runs on different days (the shared VM's speed drifts by
  1.5x or more) can be compared: divide the CPU seconds by it.

``--top N`` also prints the N functions with the largest self time, grouped by package.
``--per-task`` instead records every ``ModelClient.ask`` of the study (task, context, one
client per group and variant as the study makes them) and replays them on a fresh
``MockBackend`` (the travel caches emptied first), best of ``--repeat``: microseconds per ask
of each task, measured without a profiler and without the rest of the job (steadier than
the job's CPU on a shared VM for a change to the language layer alone).
Results: benchmarks/results-language-share.md.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mind import reference_loop  # noqa: E402  (one definition for every benchmark)

STUDY = "simcore.systems.mind:STUDY"




def run(groups: int) -> float:
    """CPU seconds of one MIND study of ``groups`` groups (workers=1, transcripts written)."""
    from simcore.systems.mind import MindConfig
    from simcore.study import run_study

    with tempfile.TemporaryDirectory() as tmp:
        c0 = time.process_time()
        run_study(STUDY, MindConfig(groups=groups), workers=1, out_dir=tmp, progress=False)
        return time.process_time() - c0


def _is_event_fn(key) -> bool:
    path, _line, name = key
    path = path.replace(os.sep, "/")
    return path.endswith("simcore/transcript.py") and name in ("add", "add_made", "events", "write_jsonl")


def _is_ask(key) -> bool:
    path, _line, name = key
    return path.replace(os.sep, "/").endswith("mockllm/client.py") and name == "ask"


def profile(groups: int, top: int = 0) -> dict:
    """The profiled run's total, ``ask`` and event seconds (and the language share)."""
    prof = cProfile.Profile()
    prof.enable()
    run(groups)
    prof.disable()
    st = pstats.Stats(prof)
    total = st.total_tt
    ask = sum(v[3] for k, v in st.stats.items() if _is_ask(k))
    events = sum(v[3] for k, v in st.stats.items() if _is_event_fn(k))
    if top:
        _print_top(st, top)
    return {"total": total, "ask": ask, "events": events, "share": (ask + events) / total}


def sampled(groups: int, interval: float = 0.001) -> dict:
    """The language share by stack sampling (see the module docstring)."""
    import signal

    from mockllm.client import ModelClient
    from simcore.transcript import Transcript, write_jsonl

    ask = ModelClient.ask.__code__
    events = {Transcript.add.__code__, Transcript.add_made.__code__, Transcript.events.__code__,
              write_jsonl.__code__}
    counts = {"total": 0, "ask": 0, "events": 0}

    def tick(_signum, frame):
        counts["total"] += 1
        while frame is not None:
            code = frame.f_code
            if code is ask:
                counts["ask"] += 1
                return
            if code in events:
                counts["events"] += 1
                return
            frame = frame.f_back

    old = signal.signal(signal.SIGPROF, tick)
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    try:
        run(groups)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, old)
    n = max(counts["total"], 1)
    return {**counts, "share": (counts["ask"] + counts["events"]) / n}


def _package(path: str) -> str:
    path = path.replace(os.sep, "/")
    for pkg in ("mockllm", "simcore", "policies", "scenarios", "numpy", "attr", "json"):
        if f"/{pkg}/" in path:
            return pkg
    return "builtins" if path == "~" else "other"


def _print_top(st: pstats.Stats, n: int) -> None:
    by_pkg: dict[str, float] = {}
    for (path, _line, _name), v in st.stats.items():
        by_pkg[_package(path)] = by_pkg.get(_package(path), 0.0) + v[2]
    print("self time by package: " + ", ".join(f"{k} {v:.2f} s" for k, v in
                                              sorted(by_pkg.items(), key=lambda kv: -kv[1])))
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:n]
    for (path, line, name), v in rows:
        print(f"  self {v[2]:6.3f} s  cum {v[3]:6.3f} s  calls {v[1]:8d}  {os.path.basename(path)}:{line} {name}")


def per_task(groups: int, repeat: int) -> dict:
    """``{task id: (asks, best seconds)}`` of the study's asks replayed (see the module docstring)."""
    import numpy as np

    from mockllm import client as client_module
    from mockllm import travel
    from mockllm.mock import MockBackend

    asks, real = [], client_module.ModelClient.ask

    def recording(self, task, rng, **context):
        context.pop("fallback", None)
        asks.append((self, task, context))
        return real(self, task, rng, **context)

    client_module.ModelClient.ask = recording
    try:
        run(groups)
    finally:
        client_module.ModelClient.ask = real
    order = {}  # one replay client per recorded client, in order of first use
    plan = [(order.setdefault(id(c), len(order)), task, ctx) for c, task, ctx in asks]
    best: dict = {}
    for _ in range(repeat):
        for cache in (travel._ANSWERS, travel._PARSED, travel._ACCEPTED):
            cache.clear()
        backend, rng, took = MockBackend(), np.random.default_rng(0), {}
        clients = [client_module.ModelClient(backend) for _ in order]
        clock = time.perf_counter
        for k, task, ctx in plan:
            t0 = clock()
            clients[k].ask(task, rng, fallback=_none, **ctx)
            took[task.id] = took.get(task.id, 0.0) + clock() - t0
        for tid, sec in took.items():
            best[tid] = min(best.get(tid, sec), sec)
    n = {}
    for _, task, _ in plan:
        n[task.id] = n.get(task.id, 0) + 1
    return {tid: (n[tid], best[tid]) for tid in sorted(best)}


def _none():
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--top", type=int, default=0, help="print the N functions of largest self time")
    ap.add_argument("--per-task", action="store_true", help="replay the study's asks: microseconds per ask of each task")
    args = ap.parse_args()
    run(5)  # warm imports and caches
    if args.per_task:
        got = per_task(args.groups, args.repeat)
        total = sum(sec for _, sec in got.values())
        print(f"the asks of a {args.groups}-group MIND study replayed, best of {args.repeat}: {total:.3f} s")
        for tid, (n, sec) in got.items():
            print(f"  {tid}: {n} asks, {sec:.3f} s, {1e6 * sec / n:.1f} us per ask")
        return
    print(f"python {sys.version.split()[0]}; load average at start: {os.getloadavg()[0]:.2f}; "
          f"reference loop (10**7 additions): {reference_loop():.2f} s CPU")
    p = profile(args.groups, args.top)
    print(f"MIND study, {args.groups} groups x 4 variants, workers=1, transcripts written, under cProfile: "
          f"total {p['total']:.2f} s; ModelClient.ask {p['ask']:.2f} s; transcript events {p['events']:.2f} s")
    print(f"language share: {100 * p['share']:.1f}% of job CPU "
          f"(ask {100 * p['ask'] / p['total']:.1f}% + events {100 * p['events'] / p['total']:.1f}%)")
    smp = sampled(args.groups)
    print(f"sampled (no cProfile, {smp['total']} samples of 1 ms CPU): language share "
          f"{100 * smp['share']:.1f}% (ask {100 * smp['ask'] / max(smp['total'], 1):.1f}% + events "
          f"{100 * smp['events'] / max(smp['total'], 1):.1f}%)")
    cpu = min(run(args.groups) for _ in range(args.repeat))
    print(f"without the profiler: best CPU {cpu:.2f} s over {args.repeat} runs")
    print(f"reference loop at the end: {reference_loop():.2f} s CPU")


if __name__ == "__main__":
    main()
