"""Robustness tables respect uncertainty: a claim holds under a stand-in only when its 95%
interval excludes no difference (else inconclusive or reversed, counted apart); a family that
cannot move a metric "does not affect" it and is left out of k and n; members are ordered by
a measured toughness, not by listing order."""

from __future__ import annotations

import numpy as np

from simcore.metrics.mind_figures import paired_ci95
from simcore.robustness import HOLDS, INCONCLUSIVE, REVERSED, claim_row, markdown, order, verdict
from simcore.roles import Claim, Role, StandIn
from simcore.systems.mind import evidence as mind_evidence

CLAIM = Claim("x", "A above B", "paper", lambda m: m.get("x"), interval=lambda m: m.get("ci"))


def test_a_positive_value_whose_interval_takes_in_zero_is_inconclusive_not_a_hold():
    # "judge prefers MIND 5/5" rested on +0.002 .. +0.067 at n = 201, each interval about +-0.07
    values = {"a": 0.002, "b": 0.067, "c": 0.10, "d": -0.08}
    intervals = {"a": [-0.068, 0.072], "b": [-0.003, 0.137], "c": [0.03, 0.17], "d": [-0.15, -0.01]}
    row = claim_row(CLAIM, values, intervals)
    assert row["status"] == {"a": INCONCLUSIVE, "b": INCONCLUSIVE, "c": HOLDS, "d": REVERSED}
    assert (row["holds"], row["n"], row["inconclusive"], row["reversed"]) == (1, 4, 2, 1)
    assert verdict(row) == "1 of 4 (2 inconclusive, 1 reversed)"


def test_a_family_that_cannot_move_the_metric_does_not_affect_the_claim():
    # the judge family and DHR: five identical values are one measurement, not "5 of 5"
    same = {n: 0.095 for n in "abcde"}
    row = claim_row(CLAIM, same, {n: [0.07, 0.11] for n in "abcde"})
    assert not row["affects"] and row["holds"] == 0 and row["n"] == 0
    assert verdict(row) == "does not affect"
    moved = claim_row(CLAIM, {**same, "e": 0.096}, {n: [0.07, 0.11] for n in "abcde"})
    assert moved["affects"] and verdict(moved) == "5 of 5"


def test_members_are_ordered_by_measured_toughness_not_listing():
    family = tuple(StandIn(n, {}, n, "e") for n in ("default", "human-like", "soft", "tough"))
    role = Role(id="s.r", system="s", llm="m", passage="p", stand_in="x", parameters=(), built_from="b",
                left_to_test="t", family=family, default="default", toughness=lambda m: m, toughness_text="t")
    # e.g. a human-like partner at 23/16 is tougher than the default at 20/15
    assert order(role, {"default": 20.0, "human-like": 23.0, "soft": 15.0, "tough": 25.0}) == \
        ["tough", "human-like", "default", "soft"]
    unmeasured = Role(id="s.r", system="s", llm="m", passage="p", stand_in="x", parameters=(), built_from="b",
                      left_to_test="t", family=family, default="default")
    assert order(unmeasured, {}) == ["default", "human-like", "soft", "tough"]


def test_markdown_shows_intervals_and_the_order():
    row = claim_row(CLAIM, {"a": 0.1, "b": 0.2}, {"a": [0.05, 0.15], "b": [-0.1, 0.5]})
    md = markdown({"roles": {"s.r": {"default": "a", "members": [{"name": "a"}, {"name": "b"}], "order": ["b", "a"],
                                     "toughness_text": "t", "toughness": {"a": 0.1, "b": 0.9},
                                     "claims": {"x": row}}}})
    assert "| +0.200 [-0.100, +0.500] | +0.100 [+0.050, +0.150] | 1 of 2 (1 inconclusive) |" in md


def test_every_mind_claim_has_an_interval_and_every_mind_role_a_toughness():
    assert all(c.interval is not None for c in mind_evidence.CLAIMS)
    assert all(r.toughness is not None and r.toughness_text for r in mind_evidence.ROLES)


def test_the_paired_interval_is_of_the_difference_on_the_same_groups():
    rng = np.random.default_rng(0)
    groups_a, groups_b = [], []
    for _ in range(30):
        hit = bool(rng.random() < 0.8)
        item = {"values": ["x", "y"], "ws": [8, 2], "proposer": 0, "final": "x", "consensus": True, "rounds": 1,
                "tom": [], "readings": [0, 0]}
        groups_a.append({"size": 2, "items": [dict(item, final="x" if hit else "y")]})
        groups_b.append({"size": 2, "items": [dict(item, final="x" if hit else "y")]})
    same = paired_ci95(groups_a, groups_b, np.random.default_rng(1))
    assert same["F"] == [0.0, 0.0]  # identical plans group by group: no difference in any resample


def test_scorable_far_claims_carry_a_newcombe_interval():
    from simcore.systems.scorable import evidence as scorable_evidence

    claims = {c.id: c for c in scorable_evidence.CLAIMS}
    m = {"results": {"proposed-all": {"FAR": 0.6, "trials": 100}, "base-llm": {"FAR": 0.0, "trials": 100},
                     "proposed-p1": {"FAR": 0.55, "trials": 100}}}
    lo, hi = claims["proposed_all_above_base_llm"].interval(m)
    assert 0.45 < lo < 0.6 < hi < 0.7  # far from zero: holds
    lo, hi = claims["all_above_p1"].interval(m)
    assert lo < 0 < hi  # five points on 100 trials each: inconclusive
    assert claims["mse_below_base_om"].interval(m) is None  # a run without the paired intervals: none


def test_scorable_mse_claims_are_paired_by_trial():
    from simcore.metrics.scorable import claim_intervals
    from simcore.systems.scorable import evidence as scorable_evidence

    rng = np.random.default_rng(3)
    base = [100 + 40 * rng.random() for _ in range(50)]  # trials vary far more than the methods differ
    records = {"base-om-p1": [{"mse": {"a": x + 2.0, "b": x + 4.0}} for x in base],
               "proposed-p1": [{"mse": {"a": x, "b": x}} for x in base],
               "llm-pe-p1": [{"mse": {"a": x + (1 if k % 2 else -1), "b": x}} for k, x in enumerate(base)]}
    got = claim_intervals(records)
    assert got["mse_below_base_om"] == [3.0, 3.0]  # the same 3 points in every trial: no spread
    lo, hi = got["mse_below_llm_pe"]
    assert lo < 0 < hi  # +-0.5 by trial: no difference on the whole
    claims = {c.id: c for c in scorable_evidence.CLAIMS}
    assert claims["mse_below_base_om"].interval({"claim_intervals": got}) == [3.0, 3.0]
    assert "mse_below_base_om" not in claim_intervals({"proposed-p1": records["proposed-p1"]})
