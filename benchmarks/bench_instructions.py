"""Instructions per negotiation of bench_negmas.py's simcore negotiations, counted by valgrind.

    python benchmarks/bench_instructions.py [--root DIR] [--mode offers|words|setup] [--n 50]

CPU time on a shared, loaded machine moves by tens of percent from run to run; the number of
instructions the interpreter executes does not.  This runs ``--n`` negotiations of
``bench_negmas.simcore_negotiation`` (caches cleared before each, as there) under valgrind's
callgrind, which counts only inside the ``eval`` that runs them (``--toggle-collect``): the
interpreter's start, the imports and a first negotiation are left out, so two runs of the same
code give the same count.  ``--root`` is the source tree to measure (default: this one), so an
older checkout can be measured with the same script; ``--mode setup`` counts what each
negotiation does before its first turn (clearing the caches, loading the domain, making the two
partners and their rankings, starting the game).  Needs ``valgrind`` on the PATH; the counts
are of this Python build (a build with other optimisations counts differently: compare trees
with one build).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _setup_only(words: bool):
    """One negotiation's set-up (as bench_negmas's ``once`` makes it) without its turns."""
    # (imported here: the tree measured is put on the path at run time, by ``--root``)
    import simcore.protocols.alternating as alternating
    from bench_negmas import clear_simcore_caches
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    from policies.partners import make_partner
    from scenarios.bilateral import load_domain
    from simcore.seeding import generator

    game = alternating.AlternatingGame(round_limit=100) if hasattr(alternating, "AlternatingGame") else None

    def once(k: int):
        clear_simcore_caches()
        casino = load_domain("casino-v1")
        pv = casino.setup("integrative").partners[0]
        client = ModelClient(MockBackend()) if words else None
        a = make_partner("boulware", casino, casino.agent, client, generator(k, "bench", "a"), side="agent")
        b = make_partner("boulware", casino, pv, client, generator(k, "bench", "b"))
        a.pick(0.0), b.pick(0.0)  # (their rankings, made on a partner's first offer)
        if game is not None:  # (a tree before the game: its protocol has no set-up of its own)
            game.start(casino, casino.agent, pv, f"astra/bench/{k}")

    return once


def inner(root: str, mode: str, n: int) -> None:
    """Run under callgrind: a first negotiation, then ``n`` inside the counted ``eval``."""
    sys.path[:0] = [root, os.path.join(root, "benchmarks")]
    import bench_negmas  # (the measured tree's: on the path only now)

    once = _setup_only(False) if mode == "setup" else bench_negmas.simcore_negotiation(words=mode == "words")[0]
    once(n)
    eval(compile("for k in range(n): once(k)", "<counted>", "exec"), {"once": once, "n": n})


def _refuse(why: str) -> None:
    print(f"bench_instructions.py: {why}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(HERE), help="the source tree to measure (default: this one)")
    ap.add_argument("--mode", choices=("offers", "words", "setup"), default="offers")
    ap.add_argument("--n", type=int, default=50, help="negotiations counted")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args.root, args.mode, args.n)
        return
    if not os.path.isfile(os.path.join(args.root, "benchmarks", "bench_negmas.py")):
        _refuse(f"--root {args.root}: no benchmarks/bench_negmas.py there")
    if args.n < 1:
        _refuse(f"--n {args.n}: must be at least 1")
    if shutil.which("valgrind") is None:
        _refuse("valgrind not found on the PATH")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
           "--toggle-collect=builtin_eval", sys.executable, os.path.abspath(__file__), "--inner",
           "--root", args.root, "--mode", args.mode, "--n", str(args.n)]
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"bench_instructions.py: the counted run failed:\n{done.stderr[-2000:]}")
    print(f"{args.root} {args.mode}: {int(found.group(1)) // args.n} instructions per negotiation "
          f"({args.n} negotiations)")


if __name__ == "__main__":
    main()
