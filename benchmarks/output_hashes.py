"""The refactor guard: a SHA-256 of every output file simcore writes for a fixed set of runs.

Runs, into a scratch directory, the golden playthroughs (``simcore playthroughs`` into a
copy), the default study of every system (``simcore run --seed 0``) and one sweep, then
prints ``<sha256>  <path>`` for every file, sorted by path.  Two checkouts give the same
listing exactly when every output is byte-identical::

    python benchmarks/output_hashes.py > before.txt      # on the old commit
    python benchmarks/output_hashes.py > after.txt       # on the new one
    diff before.txt after.txt

``--quick`` runs each system's default study at a small size instead of the full one
(minutes instead of a quarter of an hour); ``--workers`` is passed to every run (the
outputs do not depend on it).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: small runs for --quick: every system's study at a size that finishes in seconds (a system not
#: named here runs at its first look's size, ``simcore run --first-look``)
QUICK = {
    "mind": ["--groups", "12"],
    "scorable": ["--trials", "3"],
    "astra": ["--episodes", "2"],
    "dominance": ["--dialogues", "6"],
}
SWEEP = ["mind", "--groups", "6", "--grid", "tone_noise=0,0.3", "--replicates", "2"]


def _run(args: list[str], cwd: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "simcore", *args], cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"output_hashes: `simcore {' '.join(args)}` exited {proc.returncode}:\n{proc.stderr[-2000:]}")


def _digest(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small studies instead of the default ones")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="write the outputs here (kept) instead of a scratch directory")
    args = ap.parse_args(argv)
    out = args.keep or tempfile.mkdtemp(prefix="simcore-hashes-")
    env_cwd = HERE
    sys.path.insert(0, HERE)
    from simcore.playthroughs import generate  # noqa: E402 - the checkout's own code

    os.makedirs(os.path.join(out, "playthroughs"), exist_ok=True)
    for name, text in generate().items():
        with open(os.path.join(out, "playthroughs", name), "w", encoding="utf-8") as fh:
            fh.write(text)
    w = ["--workers", str(args.workers)]
    if args.quick:
        try:  # the checkout's own code
            from simcore.catalog import STUDIES, part
        except ImportError:  # a checkout whose systems' index is simcore.systems
            from simcore.systems import STUDIES, part

        for system in STUDIES:
            opts = QUICK.get(system) or [a for k, v in part(system, "FIRST_LOOK").items()
                                         for a in (f"--{k.replace('_', '-')}", str(v))]
            _run(["run", *w, "--no-progress", "--out", os.path.join(out, "study"), system, *opts], env_cwd)
    else:
        _run(["run", *w, "--no-progress", "--out", os.path.join(out, "study")], env_cwd)
    _run(["run", *w, "--no-progress", "--out", os.path.join(out, "sweep"), *SWEEP], env_cwd)
    rows = []
    for root, _dirs, files in os.walk(out):
        for f in files:
            p = os.path.join(root, f)
            rows.append((os.path.relpath(p, out), _digest(p)))
    for rel, digest in sorted(rows):
        print(f"{digest}  {rel}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
