"""Adversarial-answer campaign: every system run against ``adversarial-v1``, a
backend that answers a share of the requests with schema-valid but wrong answers (and
garbled free text), over several seeds.  Counts runs by exit status: 0 is a finished run
(the bad answers retried, then counted fallbacks); 1 would be an internal error (a crash).

    python benchmarks/adversarial_answers.py [--seeds 10] [--share 0.3]

Results: benchmarks/results-adversarial.md.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from simcore.cli import main  # noqa: E402

SIZES = {"mind": ["--groups", "6"], "astra": ["--episodes", "3"], "scorable": ["--trials", "4"],
         "dominance": ["--dialogues", "4"]}


def one(system: str, seed: int, share: float, out: str) -> tuple[int, dict]:
    args = ["run", system, *SIZES[system], "--seed", str(seed), "--backend", "adversarial-v1",
            "--backend-arg", f"share={share}", "--backend-arg", f"seed={seed}", "--max-fallback-share", "1",
            "--no-progress", "--out", out]
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as stop:
            code = stop.code or 0
    calls = {}
    if code == 0:
        calls = json.load(open(os.path.join(out, "metrics.json")))["model_calls"]
    return code, {"calls": calls, "stderr": err.getvalue()[-300:]}


def campaign(seeds: int, share: float) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for system in SIZES:
            codes: collections.Counter = collections.Counter()
            asks = retries = fallbacks = 0
            for seed in range(seeds):
                code, info = one(system, seed, share, os.path.join(tmp, f"{system}-{seed}"))
                codes[code] += 1
                if code:
                    print(f"{system} seed {seed}: exit {code}: {info['stderr'].strip()}")
                c = info["calls"]
                if c:
                    asks += c["asks"]
                    fallbacks += c["fallbacks"]
                    retries += sum(t["retries"] for t in c["by_task"].values())
            rows.append((system, seeds, codes[0], codes[1], sum(v for k, v in codes.items() if k not in (0, 1)),
                         asks, retries, fallbacks))
    print(f"share {share}, {seeds} seeds per system")
    print("| system | runs | exit 0 | internal errors (exit 1) | other exits | answers asked | retried | fallbacks |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--share", type=float, default=0.3)
    a = ap.parse_args()
    campaign(a.seeds, a.share)
