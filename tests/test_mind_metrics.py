"""MIND metrics: hand-worked values and bounds."""

import math

import pytest
from hypothesis import given, settings, strategies as st

from simcore.metrics.mind import jain, outcome_metrics, pearson, tom_metrics
from simcore.metrics.mind_judge import compare, evidence, win_rates


def _item(values, ws, final, consensus, proposer=0):
    return {"values": values, "ws": ws, "final": final, "consensus": consensus, "proposer": proposer}


def test_hand_worked_group():
    groups = [
        {"size": 2, "items": [_item(["a", "b"], [9, 3], "a", True),         # top hit, debate
                              _item(["a", "b"], [2, 8], "a", True, 1)]},    # top miss, proposer 1 (w=8) loses
        {"size": 3, "items": [_item(["x", "y", "y"], [5, 9, 4], "y", False)]},  # fallback
    ]
    m = outcome_metrics(groups, high_w=8)
    assert m["DR"] == pytest.approx(2 / 3)
    assert m["DHR"] == pytest.approx(1 / 2)
    assert m["F"] == pytest.approx(4 / 7)  # a:1,b:0 | a:1,b:0 | x:0,y:1,y:1
    # S per group: g1 = 9 + 2 = 11; g2 = 9 + 4 = 13
    assert m["S_total"] == pytest.approx(12.0)
    j1 = jain([11, 0])
    j2 = jain([0, 9, 4])
    assert m["J"] == pytest.approx((j1 + j2) / 2)
    assert m["high_w_hit"] == pytest.approx(2 / 3)  # (a,9) kept, (b,8) lost, (y,9) kept
    assert m["DR_by_size"] == {"2": 1.0, "3": 0.0}
    assert m["win_rate_by_w"]["9-10"] == 1.0 and m["win_rate_by_w"]["7-8"] == 0.0
    assert m["win_rate_by_w"]["4-6"] == 0.0 and m["win_rate_by_w"]["1-3"] is None


def test_tom_hand_worked():
    t = tom_metrics([(9, 9), (5, 7), (2, 6), (8, 7)])
    assert t["MAE"] == pytest.approx((0 + 2 + 4 + 1) / 4)
    assert t["acc1"] == pytest.approx(2 / 4) and t["acc2"] == pytest.approx(3 / 4)
    assert t["pearson"] == pytest.approx(pearson([9, 5, 2, 8], [9, 7, 6, 7]))
    assert tom_metrics([])["n"] == 0
    assert tom_metrics([(3, 5), (7, 5)])["pearson"] is None  # constant guesses


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 100), min_size=1, max_size=8))
def test_jain_bounds(s):
    j = jain(s)
    assert 1 / len(s) - 1e-9 <= j <= 1 + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), min_size=2, max_size=30))
def test_pearson_bounds(pairs):
    r = pearson([a for a, _ in pairs], [b for _, b in pairs])
    assert r is None or -1 - 1e-9 <= r <= 1 + 1e-9
    t = tom_metrics(pairs)
    assert 0 <= t["acc1"] <= t["acc2"] <= 1 and t["MAE"] >= 0


def test_judge_counts_evidence_and_compares():
    items = [dict(_item(["a", "b"], [9, 3], "a", True), moves=2, justified_moves=1)]
    texts = ['Agreed on the room type: I strongly prefer "Private room", since it suits how I travel.',
             'I can\'t agree on the room type. I suggest "Shared room".']
    ev = evidence(items, texts)
    assert ev["rationality"] == 1 and ev["alignment"] == 9
    assert ev["reason_validity"] == 0.5 and ev["change_justification"] == 0.5
    assert 0 < ev["fluency"] <= 1
    better = dict(ev, alignment=10.0)
    verdict = compare(better, ev)
    assert verdict["alignment"] == "A" and verdict["rationality"] == "tie" and verdict["overall"] == "A"
    rates = win_rates([verdict, compare(ev, better)])
    assert rates["overall"] == {"win": 0.5, "tie": 0.0, "loss": 0.5}


def test_study_metrics_are_within_bounds():
    from simcore.study import run_study
    from simcore.studies.mind import MindConfig

    m = run_study("simcore.studies.mind:STUDY", MindConfig(groups=12, seed=5, transcripts=False)).metrics
    for variant, r in m["results"].items():
        for key in ("F", "DHR", "DR", "high_w_hit"):
            assert r[key] is None or 0 <= r[key] <= 1, (variant, key)
        assert 1 / 4 - 1e-9 <= r["J"] <= 1
        assert r["S_total"] >= 0
        assert all(v is None or 0 <= v <= 1 for v in r["DR_by_size"].values())
        assert all(v is None or 0 <= v <= 1 for v in r["win_rate_by_w"].values())
    for t in m["tom"].values():
        assert 0 <= t["acc1"] <= t["acc2"] <= 1
    assert not math.isnan(m["results"]["mind"]["S_total"])
