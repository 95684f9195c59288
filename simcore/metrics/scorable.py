"""Metrics of the scorable study (seed section 4.2 and Table 2).

Per trial (one session of one method), from the final deal d_T and the history:

* FAR = 1 if all N parties accept d_T (score >= threshold), else 0.
* PAR = 1 if d_T passes: at least N-1 accept, every veto holder among them.
* LAR = 1 if some deal proposed during the session (opening, turns, final) passes.
* MSE by turn: p1's MSE_avg after each turn t (0 = opening, T = final), averaged over
  trials -- how the estimate evolves.
* MSE_j = (1 / sum_m K_m) * sum_m sum_o (est_j[m][o] - s_j[m][o])^2, p1's final estimate
  of party j's table against the true table (0-100 scale); MSE_avg = mean over j != p1.

A method's figure is the mean over its trials; the standard error of a rate is
sqrt(r (1 - r) / n).  Methods without an estimator (Base-LLM) have no MSE.

The MSE claims' intervals (:func:`claim_intervals`) are paired by trial: every method plays
trial t from the same seed (the speaking order, the cues and the mock's noise are common), so
the difference of two methods' MSE is measured trial by trial.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

from simcore.metrics.means import mean95


def aggregate(records: Sequence[Mapping], parties: Sequence[str]) -> dict:
    """The result block of one method from its per-trial records."""
    n = len(records)
    out: dict = {"trials": n}
    for key in ("FAR", "PAR", "LAR"):
        rate = sum(bool(r[key]) for r in records) / n if n else 0.0
        out[key] = rate
    out["SE"] = {k: math.sqrt(out[k] * (1 - out[k]) / n) if n else 0.0 for k in ("FAR", "PAR", "LAR")}
    with_mse = [r for r in records if r.get("mse")]
    if with_mse:
        mse = {}
        for p in parties:
            vals = [r["mse"][p] for r in with_mse if p in r["mse"]]
            if vals:
                mse[p] = sum(vals) / len(vals)
        mse["avg"] = sum(mse.values()) / len(mse) if mse else None
        out["MSE"] = mse
    else:
        out["MSE"] = None
    read, right, meant = (sum(r.get("readings", (0, 0, 0))[k] for r in records) for k in range(3))
    # accuracy: the signals read from each utterance scored against the cues its speaker was asked
    # to give -- of those read, the share meant (precision); of those meant, the share read (recall)
    out["readings"] = {"read": int(read), "right": int(right), "meant": int(meant),
                       "precision": right / read if read else None, "recall": right / meant if meant else None}
    out["fallbacks"] = int(sum(r.get("fallbacks", 0) for r in records))
    out["model_calls"] = int(sum(r.get("calls", 0) for r in records))
    return out


def mse_by_turn(records: Iterable[Mapping]) -> list[float]:
    """Mean over trials of p1's average MSE (over the other parties) after each turn."""
    sums: list[float] = []
    counts: list[int] = []
    for r in records:
        for t, v in enumerate(r.get("mse_trace") or []):
            if v is None:
                continue
            while len(sums) <= t:
                sums.append(0.0)
                counts.append(0)
            sums[t] += v
            counts[t] += 1
    return [s / c if c else float("nan") for s, c in zip(sums, counts)]


#: the MSE claims (simcore.systems.scorable.evidence): claim id -> (method above, method below)
MSE_CLAIMS = {"mse_below_base_om": ("base-om-p1", "proposed-p1"),
              "mse_below_llm_pe": ("llm-pe-p1", "proposed-p1")}


def trial_mse(record: Mapping) -> float | None:
    """p1's final MSE averaged over the other parties in one trial (None without an estimate)."""
    mse = record.get("mse")
    return sum(mse.values()) / len(mse) if mse else None


def claim_intervals(records: Mapping[str, Sequence[Mapping]]) -> dict:
    """95% intervals of the MSE claims' differences, from each method's per-trial records
    (``records[method][t]``, trial t of every method played from the same seed): the mean of
    the paired per-trial differences, a t interval (:func:`simcore.metrics.means.mean95`);
    rounded to 4 decimals.  A claim whose two methods were not both run is left out."""
    out: dict = {}
    for claim, (above, below) in MSE_CLAIMS.items():
        if above not in records or below not in records:
            continue
        diffs = [a - b for a, b in zip(map(trial_mse, records[above]), map(trial_mse, records[below]))
                 if a is not None and b is not None]
        span = mean95(diffs)
        out[claim] = None if span is None else [round(span[0], 4), round(span[1], 4)]
    return out
