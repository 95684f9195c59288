"""The 95% interval of a mean, and of a difference of two means.

A paired difference (the same trial played two ways, as the studies' common random numbers
make it) is the mean of the per-trial differences: :func:`mean95`.  Two independent samples
(different agents' episodes) take Welch's interval: :func:`welch95`.  Both are Student-t
intervals (``scipy.stats.t``); shares have their own (:mod:`simcore.metrics.proportions`).
"""

from __future__ import annotations

import math
from typing import Sequence

from scipy.stats import t as student_t


def mean95(xs: Sequence[float]) -> tuple[float, float] | None:
    """The 95% t interval of the mean of ``xs``; None for fewer than two values."""
    n = len(xs)
    if n < 2:
        return None
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = float(student_t.ppf(0.975, n - 1)) * math.sqrt(var / n)
    return m - half, m + half


def welch95(a: Sequence[float], b: Sequence[float]) -> tuple[float, float] | None:
    """The 95% Welch interval of ``mean(a) - mean(b)`` (independent samples); None for fewer
    than two values in either."""
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    if va + vb == 0:
        return ma - mb, ma - mb
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = float(student_t.ppf(0.975, df)) * math.sqrt(va + vb)
    return ma - mb - half, ma - mb + half
