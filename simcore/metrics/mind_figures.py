"""Two summaries of the MIND study that the report draws and the paper's tables imply
but :mod:`simcore.metrics.mind` does not give: 95% intervals for the Table 1 metrics,
and the ToM confusion of true against guessed willingness band.

**Intervals** (``ci95``): a percentile bootstrap over persona groups.  The group is the
unit of independence (a group's items share its members), so groups are resampled
with replacement ``B`` = 2000 times and every metric is recomputed as its formula
pools (F, DHR, DR and High-w Hit as pooled ratios; S_total and J as means over
groups).  Each group's numerators and denominators come from
:func:`simcore.metrics.mind.outcome_metrics` run on that group alone.  The resampling
generator is derived from the root seed (``generator(seed, "mind", "ci95")``) and the
same resamples are used for every variant, so the intervals are deterministic.
Intervals are stored as ``[low, high]`` lists (sweeps skip lists, so they add no sweep
metrics).  A resample in which a metric is undefined (no debated item for DHR, no
high-w pair, no group with a Jain index) is left out of that metric's percentiles; when
more than 2.5% of the resamples are left out the interval is ``None`` (too few groups).

**Paired intervals** (``ci95_minus_base``, :func:`paired_ci95`): the 95% interval of a
variant's Table 1 metric minus Base's on the same groups, from a paired percentile bootstrap
over groups (``scipy.stats.bootstrap``; generator ``generator(seed, "mind", "ci95-paired")``);
the robustness tables read them (a claim holds under a stand-in only when its interval
excludes zero).

**Confusion** (``confusion``): counts of Phase-2a appraisals by true band (rows) and
guessed band (columns), bands as in ``W_BANDS`` (1-3, 4-6, 7-8, 9-10); the guess is the
willingness the voter's decision used, as in the ToM metrics.
"""

from __future__ import annotations

import warnings
from typing import Mapping, Sequence

import numpy as np
from scipy import stats

from simcore.metrics.mind import W_BANDS, outcome_metrics

BOOTSTRAP = 2000
CHUNK = 50  # resamples drawn and summed at a time (bounds memory; results do not depend on it)
RATIOS = ("F", "DHR", "DR", "high_w_hit")


def _group_parts(group: Mapping, high_w: int) -> dict[str, tuple[float, float]]:
    """(numerator, denominator) of each pooled metric for one group."""
    m = outcome_metrics([group], high_w=high_w)
    items = group["items"]
    n_items, n_debate = m["n_items"], m["n_debate"]
    pairs = sum(len(it["values"]) for it in items)
    hw = sum(w >= high_w for it in items for w in it["ws"])

    def part(rate, den):
        return (0.0, 0.0) if not den or rate is None else (round(rate * den), float(den))

    return {"F": part(m["F"], pairs), "DHR": part(m["DHR"], n_debate), "DR": part(m["DR"], n_items),
            "high_w_hit": part(m["high_w_hit"], hw),
            "S_total": (m["S_total"] or 0.0, 1.0),
            "J": (m["J"], 1.0) if m["J"] is not None else (0.0, 0.0)}


def bootstrap_ci95(groups_by_variant: Mapping[str, Sequence[Mapping]], rng: np.random.Generator, *,
                   high_w: int = 8, resamples: int = BOOTSTRAP) -> dict[str, dict[str, list | None]]:
    """``{variant: {metric: [low, high] or None}}`` by resampling groups (see module doc).

    The resamples are drawn and summed ``CHUNK`` rows at a time, so memory does not grow
    as resamples x groups; the draws and the sums are the same as one
    ``rng.integers(n, size=(resamples, n))`` (numpy draws the rows in order, and each
    row's sum does not depend on the other rows)."""
    sizes = {len(g) for g in groups_by_variant.values()}
    if not sizes or sizes == {0}:
        return {v: {} for v in groups_by_variant}
    (n,) = sizes  # every variant negotiates the same groups
    keys = RATIOS + ("S_total", "J")
    cols = {}
    for variant, groups in groups_by_variant.items():
        parts = [_group_parts(g, high_w) for g in groups]
        cols[variant] = {key: (np.array([p[key][0] for p in parts], dtype=float),
                               np.array([p[key][1] for p in parts], dtype=float)) for key in keys}
    sums = {v: {key: (np.empty(resamples), np.empty(resamples)) for key in keys} for v in cols}
    for start in range(0, resamples, CHUNK):
        idx = rng.integers(n, size=(min(CHUNK, resamples - start), n))
        stop = start + len(idx)
        for variant, by_key in cols.items():
            for key, (num, den) in by_key.items():
                sums[variant][key][0][start:stop] = num[idx].sum(axis=1)
                sums[variant][key][1][start:stop] = den[idx].sum(axis=1)
    out = {}
    for variant in cols:
        block = {}
        for key in keys:
            num, den = sums[variant][key]
            ok = den > 0
            if ok.mean() < 0.975:  # the metric is undefined in too many resamples for a 95% interval
                block[key] = None
                continue
            lo, hi = np.percentile(num[ok] / den[ok], [2.5, 97.5])
            block[key] = [round(float(lo), 6), round(float(hi), 6)]
        out[variant] = block
    return out


def band_of(w: int) -> int:
    return next(k for k, (_, lo, hi) in enumerate(W_BANDS) if lo <= w <= hi)


def confusion(pairs: Sequence[tuple[int, int]]) -> dict:
    """Counts of (true band, guessed band) over (w_true, w_used) pairs."""
    counts = [[0] * len(W_BANDS) for _ in W_BANDS]
    for t, p in pairs:
        counts[band_of(t)][band_of(p)] += 1
    return {"bands": [b for b, _, _ in W_BANDS], "counts": counts}


#: the Table 1 metrics whose paired differences (variant minus Base) get an interval
PAIRED = ("F", "DHR", "DR", "high_w_hit", "S_total")


def _pooled_difference(num_a, den_a, num_b, den_b, axis=-1):
    with np.errstate(divide="ignore", invalid="ignore"):
        return num_a.sum(axis=axis) / den_a.sum(axis=axis) - num_b.sum(axis=axis) / den_b.sum(axis=axis)


def paired_ci95(groups_a: Sequence[Mapping], groups_b: Sequence[Mapping], rng: np.random.Generator, *,
                high_w: int = 8, resamples: int = BOOTSTRAP) -> dict[str, list | None]:
    """``{metric: [low, high] or None}``: the 95% interval of variant A minus variant B on the
    same groups, each metric pooled as :func:`bootstrap_ci95` pools it; a paired percentile
    bootstrap over groups (``scipy.stats.bootstrap``, ``paired=True``: a resample keeps each
    group's two plans together).  None: the metric is undefined in some resample (no debated
    item, no high-w pair in any group drawn), or there are fewer than two groups."""
    if len(groups_a) != len(groups_b) or len(groups_a) < 2:
        return {key: None for key in PAIRED}
    parts_a = [_group_parts(g, high_w) for g in groups_a]
    parts_b = [_group_parts(g, high_w) for g in groups_b]
    out: dict[str, list | None] = {}
    for key in PAIRED:
        cols = [np.array([p[key][i] for p in parts], dtype=float) for parts in (parts_a, parts_b) for i in (0, 1)]
        if min(c.sum() for c in (cols[1], cols[3])) == 0:
            out[key] = None
            continue
        with warnings.catch_warnings():  # a constant difference (a few groups) is a degenerate interval, not news
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            got = stats.bootstrap(cols, _pooled_difference, paired=True, vectorized=True, n_resamples=resamples,
                                  method="percentile", random_state=rng)
        lo, hi = got.confidence_interval
        out[key] = None if not (np.isfinite(lo) and np.isfinite(hi)) else [round(float(lo), 6),
                                                                          round(float(hi), 6)]
    return out
