"""The NegMAS bridge's cost against a plain simcore episode, interleaved, CPU time.

    python benchmarks/bench_negmas_bridge.py [--n 50] [--reps 7]

Contenders, each ``--n`` negotiations per block, blocks interleaved (the order rotating), CPU time
(``time.process_time``), median and range over ``--reps`` repetitions, ratios paired by repetition:

* ``plain``: ``simcore.astra_episode("astra-agent-v3", "boulware-partner-v1")`` (the mock's words);
* ``inside``: the same two agents as NegMAS negotiators (``AstraNegotiator``,
  ``PartnerNegotiator("boulware")``) in an ``SAOMechanism`` of 15 steps: the same moves and words
  (tests/core/bridges/test_negmas_bridge.py checks it), NegMAS's mechanism around them;
* ``seat``: ASTRA against NegMAS's own ``AspirationNegotiator`` (boulware) in simcore's partner seat
  through the seat bridge (a different partner: its decisions are NegMAS's);
* ``negmas step``: what NegMAS's ``SAOMechanism.step`` alone costs for one such negotiation's
  steps (two negotiators that offer a fixed outcome), the floor under both bridges.

Needs the negmas extra.  Results: benchmarks/results-negmas-bridge.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from negmas import AspirationNegotiator, SAOMechanism
from negmas.gb.common import ResponseType
from negmas.sao import SAONegotiator

import simcore
from simcore.bridges.negmas import AstraNegotiator, PartnerNegotiator, scenario

SC = scenario("casino-v1")


def plain(k: int):
    return simcore.astra_episode("astra-agent-v3", "boulware-partner-v1", seed=k)


def inside(k: int):
    m = SAOMechanism(outcome_space=SC.outcome_space, n_steps=15)
    m.add(PartnerNegotiator("boulware", name="partner", seed=k), preferences=SC.ufuns[1])
    m.add(AstraNegotiator(name="astra", seed=k), preferences=SC.ufuns[0])
    m.run()
    return m


def seat(k: int):
    return simcore.astra_episode("astra-agent-v3", AspirationNegotiator, seed=k)


class Fixed(SAONegotiator):
    def propose(self, state, dest=None):
        return (1, 1, 1)

    def respond(self, state, source=None):
        return ResponseType.REJECT_OFFER


def negmas_steps(k: int, steps: int = 6):
    m = SAOMechanism(outcome_space=SC.outcome_space, n_steps=15)
    m.add(Fixed(name="a"), preferences=SC.ufuns[1])
    m.add(Fixed(name="b"), preferences=SC.ufuns[0])
    for _ in range(steps):
        m.step()
    return m


def block(fn, n: int, start: int) -> float:
    t = time.process_time()
    for k in range(start, start + n):
        fn(k)
    return (time.process_time() - t) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    contenders = {"plain": plain, "inside": inside, "seat": seat, "negmas step": negmas_steps}
    for fn in contenders.values():
        fn(0)
    rounds = {"plain": plain(0).rounds, "seat": seat(0).rounds, "inside": inside(0).state.step}
    print(f"python {sys.version.split()[0]}, negmas {__import__('negmas').__version__}; load {os.getloadavg()[0]:.2f}; "
          f"{args.reps} x {args.n}; rounds per negotiation: {rounds}, negmas step: 6 steps")
    per = {name: [] for name in contenders}
    names = list(contenders)
    for rep in range(args.reps):
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            per[name].append(block(contenders[name], args.n, rep * args.n))
    print(f"load at end {os.getloadavg()[0]:.2f}")
    for name, xs in per.items():
        print(f"{name}: median {statistics.median(xs) * 1000:.3f} ms (range {min(xs) * 1000:.3f}-{max(xs) * 1000:.3f})")
    for name in ("inside", "seat", "negmas step"):
        r = [a / b for a, b in zip(per[name], per["plain"])]
        print(f"{name} / plain: median {statistics.median(r):.2f}x (range {min(r):.2f}-{max(r):.2f})")


if __name__ == "__main__":
    main()
