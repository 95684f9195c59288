"""ASTRA's claims carry 95% intervals (``claim_intervals`` in metrics.json), so the robustness
tables can say whether a claim holds under a stand-in, not only its sign."""

from __future__ import annotations

import pytest
from scipy import stats

from simcore.metrics.astra import claim_intervals
from simcore.metrics.proportions import newcombe95
from simcore.systems.astra.evidence import CLAIMS


def _ep(agent, partner, status="agreement", offers=4, optimal=2, p_offers=4, p_optimal=1):
    return {"agent_score": agent, "partner_score": partner, "status": status, "agent_offers": offers,
            "pareto_optimal": optimal, "partner_offers": p_offers, "partner_pareto_optimal": p_optimal}


ASTRA = [_ep(20, 16), _ep(22, 14), _ep(19, 17), _ep(5, 5, "walk_away"), _ep(21, 15)]
WITHOUT = [_ep(21, 15), _ep(20, 16), _ep(23, 13), _ep(18, 18)]


def test_the_score_gap_is_a_paired_t_interval():
    got = claim_intervals(ASTRA, WITHOUT)["astra_beats_partner_all"]
    ci = stats.ttest_1samp([a["agent_score"] - a["partner_score"] for a in ASTRA], 0).confidence_interval(0.95)
    assert got == pytest.approx([ci.low, ci.high], abs=1e-4)


def test_astra_against_the_agent_without_it_is_a_welch_interval():
    got = claim_intervals(ASTRA, WITHOUT)["astra_beats_no_astra"]
    a = [r["agent_score"] for r in ASTRA if r["status"] == "agreement"]
    b = [r["agent_score"] for r in WITHOUT if r["status"] == "agreement"]
    ci = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert got == pytest.approx([ci.low, ci.high], abs=1e-4)


def test_the_shares_get_newcombe_intervals_inside_minus_one_and_one():
    got = claim_intervals(ASTRA, WITHOUT)
    assert got["astra_walks_away_more"] == pytest.approx(newcombe95(1, 5, 0, 4), abs=1e-4)
    assert got["astra_offers_nearer_frontier"] == pytest.approx(newcombe95(10, 20, 5, 20), abs=1e-4)
    low, high = newcombe95(0, 10, 10, 10)
    assert -1 <= low < high <= 1 and low < -0.5


def test_every_astra_claim_reads_its_interval_from_the_metrics():
    metrics = {"claim_intervals": claim_intervals(ASTRA, WITHOUT)}
    for claim in CLAIMS:
        assert claim.interval is not None and claim.interval(metrics) is not None, claim.id


def test_too_few_episodes_give_no_interval():
    assert claim_intervals(ASTRA[:1], [])["astra_beats_partner_all"] is None
    assert claim_intervals([], []) == {}
