"""The 95% interval of a share -- successes out of trials -- and which metrics are shares.

A share's interval is Wilson's score interval (``scipy.stats.binomtest(k, n)
.proportion_ci(method="wilson")``): it stays inside [0, 1], and is not degenerate at 0 or 1
as ``p +- 1.96 * sqrt(p (1 - p) / n)`` is (which gives [0.985, 1.005] for 199 of 200).
Means of other quantities (scores, counts per dialogue, errors) keep their own intervals.

A study names its shares for a sweep as ``sweep_shares``: ``{pattern: trials}``, the pattern
an fnmatch pattern of flattened metric names (``results.*.DR``) and ``trials`` the metric that
counts the share's trials -- a sibling's name (``n_items``: ``results.base.n_items`` for
``results.base.DR``) or, with a dot, a full name (``judge.n``).
"""

from __future__ import annotations

import fnmatch
from typing import Mapping

from scipy.stats import binomtest

#: every study's model-call totals (simcore.study.with_model_calls)
COMMON_SHARES = {"model_calls.fallback_share": "asks"}


def wilson95(successes: int, trials: int) -> tuple[float, float] | None:
    """Wilson's 95% score interval of ``successes`` out of ``trials``; None without trials."""
    if trials <= 0:
        return None
    ci = binomtest(int(successes), int(trials)).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def newcombe95(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float] | None:
    """The 95% interval of ``k1/n1 - k2/n2``: Newcombe's hybrid score interval (his method 10),
    from each share's Wilson interval; the two samples independent.  None without trials."""
    a, b = wilson95(k1, n1), wilson95(k2, n2)
    if a is None or b is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    return (float(d - ((p1 - a[0]) ** 2 + (b[1] - p2) ** 2) ** 0.5),
            float(d + ((a[1] - p1) ** 2 + (p2 - b[0]) ** 2) ** 0.5))


def trials_metric(name: str, shares: Mapping[str, str]) -> str | None:
    """The metric counting the trials of the share ``name``, or None when it is no share."""
    for pattern, trials in shares.items():
        if fnmatch.fnmatchcase(name, pattern):
            return trials if "." in trials else f"{name.rpartition('.')[0]}.{trials}".lstrip(".")
    return None


def pooled_wilson95(shares: list[float], trials: list[float]) -> tuple[float, float] | None:
    """Wilson's interval of several runs' shares pooled: successes ``round(share * trials)``
    and the trials summed over the runs (each run's trials independent)."""
    k = sum(round(s * n) for s, n in zip(shares, trials))
    n = sum(int(round(t)) for t in trials)
    return wilson95(min(max(k, 0), n), n) if n > 0 else None
