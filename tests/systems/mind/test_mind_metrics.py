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


def test_jain_of_tiny_equal_values_is_one():
    """Hypothesis found 1.0000008 for three values of 8.1e-160 (their squares underflow)."""
    assert jain([8.139672224630414e-160] * 3) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 100), min_size=1, max_size=8))
def test_jain_bounds(s):
    j = jain(s)
    if not any(s):  # all zero (tiny values are scaled, not treated as zero)
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


def _ev(seq, speaker, phase, rnd=0, text="", hidden=None, **intent):
    from simcore.transcript import Event

    return Event("mind/t", seq, speaker, phase, rnd, "x", intent, text, hidden=hidden or {})


def _events(update_reason):
    """A (proposer, w 3, own a), B (w 8, own b), C (w 2, own c); B dissents, A updates to b."""
    return [
        _ev(0, "A", "1-propose", proposals={"x": "a"}), _ev(1, "B", "1-propose", proposals={"x": "b"}),
        _ev(2, "C", "1-propose", proposals={"x": "c"}),
        _ev(3, "protocol", "1-pick", proposal="a", proposer="A", hidden={"w": [3, 8, 2], "values": ["a", "b", "c"]}),
        # B holds its own value and says it suits it: true
        _ev(4, "B", "2-vote", 1, 'I can\'t agree on the room type. I\'d rather have "b", since it suits how I travel.',
            vote="DISAGREE", revised_value="b"),
        # C (w 2) agrees and says it can live with either: true (Neutral band)
        _ev(5, "C", "2-vote", 1, 'Agreed on the room type: I can accept "a", as I can live with either.',
            vote="AGREE", revised_value=None),
        _ev(6, "A", "3-update", 1, 'I\'m changing my proposal for the room type: I now propose "b", '
            + update_reason + '.', action="UPDATE", value="b"),
        # B gets its own value and says it suits it: a hold with a true hold reason
        _ev(7, "B", "2-vote", 2, 'Agreed on the room type: we go with "b", since it suits how I travel.',
            vote="AGREE", revised_value=None),
        # C gives ground but says the value suits it: false ("b" is not its value), does not fit
        _ev(8, "C", "2-vote", 2, 'Agreed on the room type: I\'m okay with "b", since it suits how I travel.',
            vote="AGREE", revised_value=None),
    ]


def test_judge_checks_each_stated_reason_against_the_speakers_alpha_and_move():
    from simcore.metrics.mind_judge import mattr

    items = [_item(["a", "b", "c"], [3, 8, 2], "b", True)]
    # "most of the group disagreed" is false: 1 of 2 voters dissented
    ev = evidence(items, _events("since most of the group disagreed"))
    assert ev["reason_validity"] == pytest.approx(3 / 5)
    assert ev["change_justification"] == pytest.approx(1 / 3)
    # "the group sounds firm" is true: the dissenter B has w 8 >= 7, above the proposer's 3
    ev2 = evidence(items, _events("because the group sounds firm about it"))
    assert ev2["reason_validity"] == pytest.approx(4 / 5)
    assert ev2["change_justification"] == pytest.approx(2 / 3)
    assert ev["rationality"] == 1.0 and ev["alignment"] == 8
    evs = _events("x")
    assert evidence(items, evs)["fluency"] == pytest.approx(mattr([e.text for e in evs if e.text]))
    assert mattr(["a b a b"]) == 0.5 and mattr([]) == 0.0
    assert mattr(["w%d" % (k % 10) for k in range(200)], window=50) == pytest.approx(10 / 50)
    fallback_only = [_item(["a", "b"], [9, 3], "a", False)]
    assert evidence(fallback_only, [])["rationality"] == 0.0  # fallbacks do not count


def test_reason_truth_table():
    from simcore.metrics.mind_judge import reason_true

    base = dict(own="Budget", answered="Luxury", positions=["Budget"], others_w=[5], proposer=False, dissent=0,
                voters=2, item="acc_price")
    assert reason_true("defend", w=7, value="Budget", **base)
    assert not reason_true("defend", w=6, value="Budget", **base)        # Warm is no deal-breaker (B5)
    assert reason_true("indifferent", w=3, value="Luxury", **base)
    assert not reason_true("indifferent", w=4, value="Luxury", **base)   # B5: indifferent is 1-3
    assert reason_true("urgency", w=4, value="Luxury", **base)
    assert not reason_true("urgency", w=5, value="Luxury", **base)
    assert reason_true("balance", w=5, value="Moderate", **base)         # between Luxury and Budget
    assert reason_true("balance", w=5, value="Budget", **base)           # adjacent: own value (D13)
    assert not reason_true("balance", w=5, value="Economy", **base)
    nominal = dict(base, own="Romantic", answered="Casual/Street Food", positions=["Romantic"],
                   item="rest_atmosphere")
    assert not reason_true("balance", w=5, value="No preference", **nominal)   # not a position in play
    assert not reason_true("none", w=5, value="Budget", **base)


def test_forced_choice_uses_the_coin_only_for_equal_evidence():
    import numpy as np

    a = {"rationality": 1.0, "alignment": 10.0, "reason_validity": 0.5, "change_justification": 1.0,
         "fluency": 0.7}
    b = dict(a, alignment=8.0)
    v = compare(a, b, np.random.default_rng(0))
    assert v["alignment"] == "A" and set(v["tie_break"]) == {"rationality", "reason_validity",
                                                             "change_justification", "fluency"}
    assert all(v[c] in ("A", "B") for c in ("rationality", "fluency")) and v["overall_tie_break"]
    coins = [compare(a, a, np.random.default_rng(k))["rationality"] for k in range(200)]
    assert 60 < coins.count("A") < 140   # a fair coin, not a fixed side
    clear = dict(a, rationality=0.0, alignment=0.0, reason_validity=0.0)
    v2 = compare(a, clear, np.random.default_rng(1))
    assert v2["overall"] == "A" and not v2["overall_tie_break"]
    rates = win_rates([v, v2])
    assert rates["overall"]["win"] + rates["overall"]["loss"] == 1.0
    assert rates["alignment"]["tie_break"] == 0.0 and rates["rationality"]["tie_break"] == 0.5


def test_base_speaks_with_varied_plain_words_that_carry_no_tone():
    import numpy as np

    from mockllm.travel import TravelUtterance, read, render

    rng = np.random.default_rng(3)
    texts = {render(TravelUtterance("agree", "Budget", None, "indifferent"), "price", rng, 0.2) for _ in range(60)}
    assert len({t.split(": ", 1)[1].split(' "')[0] for t in texts}) >= 3
    assert all(read(t).willingness is None and read(t).value == "Budget" for t in texts)


def test_study_metrics_are_within_bounds():
    from simcore.study import run_study
    from simcore.systems.mind import MindConfig

    m = run_study("simcore.systems.mind:STUDY", MindConfig(groups=12, seed=5, transcripts=False)).metrics
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
