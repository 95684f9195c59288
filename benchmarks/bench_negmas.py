"""simcore against NegMAS on the same small bilateral negotiation, side by side.

    python benchmarks/bench_negmas.py [--n 200]

Both sides run a 100-step alternating-offers negotiation between two time-based
Boulware (aspiration) agents on the CaSiNo domain: three issues (food, water, firewood)
of 0-3 packages each (4 levels, 64 outcomes); the agent values them 5/4/3 per package,
the partner 3/4/5 (the integrative setup).  simcore's agents also speak through the mock
language layer (every offer is rendered to words and read back), NegMAS's exchange bare
offers; simcore is measured both ways (``client=None`` gives offers only).  NegMAS is optional: when ``import negmas`` fails only simcore is measured.
It is never a dependency of simcore; install it in a separate environment together with
simcore (``pip install negmas==0.16.0 -e .``) to run the comparison.
Target (issue 6): at least 10x NegMAS's throughput.  Results: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def simcore_run(n: int, words: bool = True) -> tuple[float, str]:
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    from policies.partners import make_partner
    from scenarios.bilateral import load_domain
    from simcore.protocols.alternating import AlternatingProtocol
    from simcore.seeding import generator

    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    proto = AlternatingProtocol(round_limit=100)
    backend = MockBackend()

    def once(k):
        client = ModelClient(backend) if words else None
        a = make_partner("boulware", casino, casino.agent, client, generator(k, "bench", "a"), side="agent")
        b = make_partner("boulware", casino, pv, client, generator(k, "bench", "b"))
        return proto.run(casino, a, b, casino.agent, pv, f"astra/bench/{k}")

    ep = once(0)
    t = time.perf_counter()
    for k in range(n):
        once(k)
    per = (time.perf_counter() - t) / n
    return per, f"{ep.status} after {ep.rounds} rounds"


def negmas_run(n: int) -> tuple[float, str] | None:
    try:
        from negmas import AspirationNegotiator, SAOMechanism, make_issue
        from negmas.preferences import LinearAdditiveUtilityFunction as LU
        from negmas.preferences.value_fun import AffineFun, LinearFun
    except ImportError:
        return None
    issues = [make_issue(4, "food"), make_issue(4, "water"), make_issue(4, "firewood")]

    def once():
        m = SAOMechanism(issues=issues, n_steps=100)
        mine = LU(values=[LinearFun(5), LinearFun(4), LinearFun(3)], weights=[1, 1, 1],
                  outcome_space=m.outcome_space)
        theirs = LU(values=[AffineFun(-3, 9), AffineFun(-4, 12), AffineFun(-5, 15)], weights=[1, 1, 1],
                    outcome_space=m.outcome_space)  # the partner gets 3 - x of each issue
        m.add(AspirationNegotiator(name="agent", aspiration_type="boulware"), ufun=mine)
        m.add(AspirationNegotiator(name="partner", aspiration_type="boulware"), ufun=theirs)
        m.run()
        return m

    m = once()
    t = time.perf_counter()
    for _ in range(n):
        once()
    per = (time.perf_counter() - t) / n
    return per, f"agreement {m.agreement} at step {m.state.step}"


def import_time(stmt: str) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", stmt], check=True)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    per, how = simcore_run(args.n)
    print(f"simcore, words through the mock LLM: {per * 1000:.2f} ms per negotiation ({1 / per:.0f}/s), {how}")
    bare, how = simcore_run(args.n, words=False)
    print(f"simcore, offers only: {bare * 1000:.2f} ms per negotiation ({1 / bare:.0f}/s), {how}")
    print(f"simcore import (protocol, partners, domain, mock): "
          f"{import_time('import simcore.protocols.alternating, policies.partners, scenarios.bilateral, mockllm.mock'):.2f} s")
    neg = negmas_run(max(args.n // 4, 20))
    if neg is None:
        print("negmas: not installed; comparison skipped")
        return
    nper, nhow = neg
    print(f"negmas: {nper * 1000:.2f} ms per negotiation ({1 / nper:.0f}/s), {nhow}")
    print(f"negmas import: {import_time('import negmas'):.2f} s")
    print(f"throughput ratio simcore / negmas: {nper / per:.1f}x with words, {nper / bare:.1f}x offers only")


if __name__ == "__main__":
    main()
