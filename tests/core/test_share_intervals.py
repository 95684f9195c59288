"""A share's 95% interval stays inside [0, 1]: Wilson's score interval (scipy) wherever a
share gets one -- a sweep's shares over their pooled trials, the scorable report's rates.
A mean of another quantity keeps its Student t interval."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from simcore.cli import cli
from simcore.metrics.proportions import COMMON_SHARES, pooled_wilson95, trials_metric, wilson95
from simcore.systems.mind import STUDY as MIND


def test_wilson_stays_inside_zero_and_one():
    assert wilson95(199, 200) == pytest.approx((0.97223, 0.99912), abs=1e-5)  # +-1.96 SE: [0.985, 1.005]
    assert wilson95(0, 20) == pytest.approx((0.0, 0.16113), abs=1e-5)
    assert wilson95(20, 20)[1] == 1.0 and wilson95(0, 0) is None
    # pooled over runs: 9 of 10 and 10 of 10 are 19 of 20
    assert pooled_wilson95([0.9, 1.0], [10, 10]) == wilson95(19, 20)


def test_which_metric_counts_a_shares_trials():
    shares = {**COMMON_SHARES, **MIND.sweep_shares}
    assert trials_metric("results.base.DR", shares) == "results.base.n_items"
    assert trials_metric("judge.overall.win", shares) == "judge.n"
    assert trials_metric("model_calls.fallback_share", shares) == "model_calls.asks"
    assert trials_metric("results.base.S_total", shares) is None  # a mean score, no share


@pytest.fixture(scope="module")
def mind_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "s"
    res = CliRunner().invoke(cli, ["run", "mind", "--groups", "4", "--grid", "tone_noise=0,0.4", "--replicates", "2",
                                   "--no-progress", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def test_a_sweeps_share_intervals_are_wilson_over_the_pooled_trials(mind_sweep):
    """Student t over two replicates of a share ran far past 1 (DHR [-0.037, 1.49] in a small
    MIND sweep); now every share's interval is Wilson's over the runs' pooled trials."""
    points = json.loads((mind_sweep / "sweep.json").read_text())["points"]
    with open(mind_sweep / "sweep_runs.csv", newline="") as fh:
        runs = list(csv.DictReader(fh))
    shares = {**COMMON_SHARES, **MIND.sweep_shares}
    checked = 0
    for p in points:
        mine = [r for r in runs if float(r["tone_noise"]) == p["point"]["tone_noise"]]
        for name, st in p["metrics"].items():
            trials = trials_metric(name, shares)
            if trials is None:
                continue
            assert 0.0 <= st["ci95_low"] <= st["mean"] <= st["ci95_high"] <= 1.0, (name, st)
            want = pooled_wilson95([float(r[name]) for r in mine], [float(r[trials]) for r in mine])
            assert (st["ci95_low"], st["ci95_high"]) == pytest.approx(want), name
            checked += 1
    assert checked >= 2 * 21  # DR, DHR, F, High-w Hit of 4 variants, ToM accuracies, the fallback share


def test_a_mean_score_keeps_its_student_t_interval(mind_sweep):
    from simcore.sweep import mean_ci

    with open(mind_sweep / "sweep_runs.csv", newline="") as fh:
        runs = [r for r in csv.DictReader(fh) if float(r["tone_noise"]) == 0]
    point = json.loads((mind_sweep / "sweep.json").read_text())["points"][0]
    st = point["metrics"]["results.mind.S_total"]
    _, _, _, lo, hi = mean_ci([float(r["results.mind.S_total"]) for r in runs])
    assert (st["ci95_low"], st["ci95_high"]) == pytest.approx((lo, hi))
