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
    assert m["J"] == pytest.approx((j1 + j2) / 2) and m["J_undefined"] == 0
    nobody = outcome_metrics([{"size": 2, "items": [_item(["a", "b"], [5, 5], "c", False)]}])
    assert nobody["J"] is None and nobody["J_undefined"] == 1
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
    if sum(x * x for x in s) == 0:  # all zero (or too small to square)
        assert j is None
    else:
        assert 1 / len(s) - 1e-9 <= j <= 1 + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), min_size=2, max_size=30))
def test_pearson_bounds(pairs):
    r = pearson([a for a, _ in pairs], [b for _, b in pairs])
    assert r is None or -1 - 1e-9 <= r <= 1 + 1e-9
    t = tom_metrics(pairs)
    assert 0 <= t["acc1"] <= t["acc2"] <= 1 and t["MAE"] >= 0


def _ev(seq, speaker, phase, rnd=0, text="", **intent):
    from simcore.transcript import Event

    return Event("mind/t", seq, speaker, phase, rnd, "x", intent, text)


def test_judge_reads_moves_from_the_record_and_the_words():
    from simcore.metrics.mind_judge import mattr

    events = [
        _ev(0, "A", "1-propose", proposals={"x": "a"}), _ev(1, "B", "1-propose", proposals={"x": "b"}),
        _ev(2, "C", "1-propose", proposals={"x": "c"}), _ev(3, "protocol", "1-pick", proposal="a"),
        _ev(4, "B", "2-vote", 1, 'I can\'t agree on the room type. I strongly prefer "b", since it suits how I travel.',
            vote="DISAGREE", revised_value="b"),
        _ev(5, "C", "2-vote", 1, 'Agreed on the room type: I propose "a", as I can live with either.',
            vote="AGREE", revised_value=None),
        # the proposer gives ground and says why: fits
        _ev(6, "A", "3-update", 1, 'I\'m changing my proposal for the room type: I now propose "b", since most of '
            'the group disagreed.', action="UPDATE", value="b"),
        # B gets its own value and says it suits it: a hold with a hold reason, fits
        _ev(7, "B", "2-vote", 2, 'Agreed on the room type: I propose "b", since it suits how I travel.',
            vote="AGREE", revised_value=None),
        # C gives ground but only says it suits it: does not fit
        _ev(8, "C", "2-vote", 2, 'Agreed on the room type: I propose "b", since it suits how I travel.',
            vote="AGREE", revised_value=None),
    ]
    items = [_item(["a", "b", "c"], [3, 8, 2], "b", True)]
    ev = evidence(items, events)
    assert ev["change_justification"] == pytest.approx(2 / 3)
    assert ev["rationality"] == 1.0 and ev["alignment"] == 8
    assert ev["reason_validity"] == pytest.approx(6 / 6)
    assert ev["fluency"] == pytest.approx(mattr([e.text for e in events if e.text]))
    assert mattr(["a b a b"]) == 0.5 and mattr([]) == 0.0
    assert mattr(["w%d" % (k % 10) for k in range(200)], window=50) == pytest.approx(10 / 50)
    fallback_only = [_item(["a", "b"], [9, 3], "a", False)]
    assert evidence(fallback_only, [])["rationality"] == 0.0  # fallbacks do not count
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


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("abcdefghij"), max_size=120), st.integers(1, 30))
def test_mattr_equals_the_window_by_window_definition(words, window):
    from simcore.metrics.mind_judge import mattr

    text = " ".join(words)
    if len(words) <= window:
        expected = len(set(words)) / len(words) if words else 0.0
    else:
        spans = [words[s:s + window] for s in range(len(words) - window + 1)]
        expected = sum(len(set(sp)) for sp in spans) / (window * len(spans))
    assert mattr([text], window) == pytest.approx(expected)
