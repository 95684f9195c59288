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
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence


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
