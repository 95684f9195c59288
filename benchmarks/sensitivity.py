"""Which headline metrics a swept choice moves beyond the default's 95% interval.

Reads the ``sweep.json`` (replicated sweeps: the sweep's own interval, Wilson's for a share
and Student t over replicate seeds otherwise) or ``sweep.jsonl`` (one replicate per point: a
rate that reports its standard error under ``SE`` and its ``trials`` beside it gets Wilson's
score interval, ``simcore.metrics.proportions.wilson95``) written by ``simcore run SYSTEM
--grid KEY=V1,V2,...`` and prints, for every metric matching one of the patterns, a row
per grid point (mean [95% interval]) -- only for the metrics where some point differs from
the default by more than the 95% interval of the difference.  Used to build the "Sensitivity" sections of docs/systems/dominance.md and
docs/systems/scorable.md::

    python benchmarks/sensitivity.py OUT/sweep.json DEFAULT 'results\\..*\\.success_rate'
"""

from __future__ import annotations

import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simcore.metrics.proportions import wilson95  # noqa: E402  (run from a checkout)


def _flatten(d, prefix=""):
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            yield from _flatten(v, key + ".")
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            yield key, float(v)


def load(path: str):
    """{point label: {metric: (mean, low, high)}} in grid order."""
    out = {}
    if path.endswith(".json"):
        data = json.load(open(path))
        for p in data["points"]:
            label = ",".join(str(v) for v in p["point"].values())
            out[label] = {k: (m["mean"], m.get("ci95_low"), m.get("ci95_high")) for k, m in p["metrics"].items()}
        return out
    for line in open(path):
        rec = json.loads(line)
        if rec.get("type") != "run" or rec.get("status") != "ok":
            continue
        label = ",".join(str(v) for v in rec["point"].values())
        flat = dict(_flatten(rec["metrics"]))
        row = {}
        for k, v in flat.items():
            head, _, last = k.rpartition(".")
            trials = flat.get(f"{head}.trials")
            if f"{head}.SE.{last}" in flat and trials:
                row[k] = (v, *wilson95(round(v * trials), int(trials)))
            else:
                row[k] = (v, None, None)
        out[label] = row
    return out


def _half(cell):
    _m, lo, hi = cell
    if lo is None or hi is None or any(math.isnan(x) for x in (lo, hi)):
        return None
    return (hi - lo) / 2


def moved(points: dict, default: str, patterns) -> list[str]:
    """Metrics where some point differs from the default by more than the 95% interval of
    the difference, sqrt(h0^2 + h1^2) with h the two points' interval half-widths (the
    points of a sweep use different seeds, so both carry sampling noise)."""
    base = points[default]
    keys = [k for k in base if any(re.fullmatch(p, k) for p in patterns)]
    hits = []
    for k in keys:
        h0 = _half(base[k])
        if h0 is None:
            continue
        for label, row in points.items():
            if label == default or k not in row or row[k][0] is None:
                continue
            h1 = _half(row[k])
            if h1 is None:
                continue
            if abs(row[k][0] - base[k][0]) > math.hypot(h0, h1) + 1e-12:
                hits.append(k)
                break
    return hits


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        print(__doc__)
        return 2
    path, default, patterns = argv[0], argv[1], argv[2:]
    if not os.path.exists(path):
        print(f"{path}: no such file")
        return 2
    points = load(path)
    if default not in points:
        print(f"default point {default!r} not in {list(points)}")
        return 2
    hits = moved(points, default, patterns)
    labels = list(points)
    print("| metric | " + " | ".join(f"{l}{' (default)' if l == default else ''}" for l in labels) + " |")
    print("|---" * (len(labels) + 1) + "|")
    for k in hits:
        cells = []
        for l in labels:
            m, lo, hi = points[l].get(k, (None, None, None))
            ok = lo is not None and hi is not None and not math.isnan(lo)
            cells.append("-" if m is None else f"{m:.3f}" + (f" [{lo:.3f}, {hi:.3f}]" if ok else ""))
        print(f"| {k} | " + " | ".join(cells) + " |")
    if not hits:
        print("| (no headline metric moves beyond the 95% interval) |" + " |" * len(labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
