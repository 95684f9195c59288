"""simcore against NegMAS on the same small bilateral negotiation, side by side and fair.

    python benchmarks/bench_negmas.py [--n 100] [--reps 15]

The negotiation: a 100-round alternating-offers negotiation between two time-based
Boulware aspiration agents (``u(t) = u_max - (u_max - u_res) t**4``) on the CaSiNo domain:
three issues (food, water, firewood) of 0-3 packages each (64 outcomes); the agent values
them 5/4/3 per package, the partner 3/4/5 (the integrative setup), each with the domain's
reserved value (BATNA, 5 points) as ``u_res`` -- NegMAS's negotiators get the same
reserved value on their utility functions.  simcore is measured twice: offers only (what
NegMAS's agents exchange) and with every offer put into words and read back through the
mock language layer.

Fairness:
  * both sides run in this one process, **interleaved**: each repetition times a block of
    ``--n`` negotiations of every contender in turn (the order rotating from one repetition
    to the next), so a slow spell of the shared machine hits all of them alike;
  * **CPU time** (``time.process_time``), not wall time;
  * simcore's caches (every cache declared in :mod:`simcore.caches`: the domain and its derived
    tables, the outcome spaces and the partners' outcome rankings, the mock's memoised sentences,
    the prompt texts) are **cleared before every negotiation**, as NegMAS builds its outcome space
    afresh each time;
  * per contender the median and the range over the repetitions, and the ratio's median
    and range taken repetition by repetition (paired).

NegMAS is optional (never a dependency of simcore): install it beside simcore in a
separate environment (``pip install negmas==0.16.0 -e .``).  Without it only simcore is
measured.  Goals: >= 20x NegMAS offers only, >= 8x with words.  Results:
benchmarks/results-negmas.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from simcore import caches


# ------------------------------------------------------------------ simcore
def clear_simcore_caches() -> int:
    """Empty every cache simcore keeps between negotiations (each declared by its owner in
    :mod:`simcore.caches`); returns how many were emptied."""
    return caches.clear()


def simcore_negotiation(words: bool):
    """A function running one simcore negotiation ``k`` from cold caches."""
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    from policies.partners import make_partner
    from scenarios.bilateral import load_domain
    from simcore.driver import play
    from simcore.protocols.alternating import AlternatingGame
    from simcore.seeding import generator

    game = AlternatingGame(round_limit=100)

    def once(k: int):
        clear_simcore_caches()
        casino = load_domain("casino-v1")
        pv = casino.setup("integrative").partners[0]
        client = ModelClient(MockBackend()) if words else None
        a = make_partner("boulware", casino, casino.agent, client, generator(k, "bench", "a"), side="agent")
        b = make_partner("boulware", casino, pv, client, generator(k, "bench", "b"))
        return play(game.start(casino, casino.agent, pv, f"astra/bench/{k}"), {"agent": a, "partner": b})

    ep = once(0)
    return once, f"{ep.status} after {ep.rounds} rounds"


# ------------------------------------------------------------------ negmas
def negmas_negotiation():
    """A function running one NegMAS negotiation, or None when NegMAS is not installed."""
    try:
        from negmas import AspirationNegotiator, SAOMechanism, make_issue
        from negmas.preferences import LinearAdditiveUtilityFunction as LU
        from negmas.preferences.value_fun import AffineFun, LinearFun
    except ImportError:
        return None
    from scenarios.bilateral import load_domain

    reserved = float(load_domain("casino-v1").batna)  # simcore's u_res for both sides

    def once(_k: int = 0):
        issues = [make_issue(4, "food"), make_issue(4, "water"), make_issue(4, "firewood")]
        m = SAOMechanism(issues=issues, n_steps=100)
        mine = LU(values=[LinearFun(5), LinearFun(4), LinearFun(3)], weights=[1, 1, 1],
                  outcome_space=m.outcome_space, reserved_value=reserved)
        theirs = LU(values=[AffineFun(-3, 9), AffineFun(-4, 12), AffineFun(-5, 15)], weights=[1, 1, 1],
                    outcome_space=m.outcome_space, reserved_value=reserved)  # the partner gets 3 - x
        m.add(AspirationNegotiator(name="agent", aspiration_type="boulware"), ufun=mine)
        m.add(AspirationNegotiator(name="partner", aspiration_type="boulware"), ufun=theirs)
        m.run()
        return m

    m = once()
    return once, f"agreement {m.agreement} at step {m.state.step}"


# ------------------------------------------------------------------ timing
def block_cpu(fn, n: int, start: int) -> float:
    """CPU seconds per call of ``fn(k)`` over ``n`` calls."""
    t = time.process_time()
    for k in range(start, start + n):
        fn(k)
    return (time.process_time() - t) / n


def summary(values) -> str:
    return (f"median {statistics.median(values) * 1000:.3f} ms "
            f"(range {min(values) * 1000:.3f}-{max(values) * 1000:.3f})")


def ratio_summary(values) -> str:
    return f"median {statistics.median(values):.1f}x (range {min(values):.1f}-{max(values):.1f}x)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100, help="negotiations per block")
    ap.add_argument("--reps", type=int, default=15, help="interleaved repetitions")
    args = ap.parse_args()
    contenders = {}
    how = {}
    contenders["simcore offers only"], how["simcore offers only"] = simcore_negotiation(words=False)
    contenders["simcore with words"], how["simcore with words"] = simcore_negotiation(words=True)
    neg = negmas_negotiation()
    if neg is not None:
        contenders["negmas"], how["negmas"] = neg
    import numpy
    print(f"python {sys.version.split()[0]}, numpy {numpy.__version__}"
          + (f", negmas {__import__('negmas').__version__}" if neg is not None else ", negmas not installed")
          + f"; load average at start {os.getloadavg()[0]:.2f}; {args.reps} repetitions x {args.n} negotiations")
    for name, text in how.items():
        print(f"  {name}: {text}")
    names = list(contenders)
    per: dict[str, list[float]] = {name: [] for name in names}
    for rep in range(args.reps):
        order = names[rep % len(names):] + names[:rep % len(names)]
        for name in order:
            per[name].append(block_cpu(contenders[name], args.n, rep * args.n))
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    for name in names:
        print(f"{name}: {summary(per[name])} CPU per negotiation")
    if neg is None:
        return
    for name in ("simcore offers only", "simcore with words"):
        ratios = [n / s for n, s in zip(per["negmas"], per[name])]
        print(f"negmas / {name}: {ratio_summary(ratios)} (paired by repetition)")


if __name__ == "__main__":
    main()
