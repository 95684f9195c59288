"""The agent's walk-aways by cause: after a misread, after an unclear answer (noise the mock
injected, found in the transcript by simcore.noise), or a rule acting on true readings."""

from __future__ import annotations

import simcore
from simcore.metrics.astra import WALK_AWAY_CAUSES, aggregate, walk_away_cause
from simcore.noise import astra_notes


def test_the_cause_follows_the_noise_notes():
    assert walk_away_cause([]) == "rule"
    assert walk_away_cause(["unclear answer (injected noise): it names no item"]) == "unclear"
    assert walk_away_cause(["unclear answer (injected noise): x", "misread (injected noise): y"]) == "misread"


def test_aggregate_counts_walk_aways_by_cause():
    recs = [{"status": "walk_away", "walk_away_cause": c, "agent_score": 0, "partner_score": 0, "agent_offers": 1,
             "pareto_optimal": 0, "pareto_distance_sum": 0.0, "priority_match": None, "rounds": 3,
             "invalid_moves": 0, "fallbacks": 0} for c in ("rule", "rule", "misread", None)]
    assert aggregate(recs)["walk_aways_by_cause"] == {"rule": 2, "misread": 1, "unclear": 0}
    assert tuple(aggregate(recs)["walk_aways_by_cause"]) == WALK_AWAY_CAUSES


def test_a_walk_away_against_the_fair_partner_is_a_rule_on_true_readings():
    """The fair partner repeats its even split; the agent walks away after no concession in three
    consecutive offers, with every reading right (no noise in this episode)."""
    ep = simcore.astra_episode("astra-agent-v4", "fair-partner-v1", seed=0, backend="mock-exact-v1")
    assert ep.status == "walk_away" and ep.walked_by == "agent"
    assert not astra_notes(ep.events) and walk_away_cause(astra_notes(ep.events).values()) == "rule"
