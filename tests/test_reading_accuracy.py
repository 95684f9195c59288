"""Parsed is not right: every system scores the readings a backend made against what the
speaker meant, over the ACCEPTED readings only (a refused reading is a counted fallback,
never a right or a wrong one)."""

from __future__ import annotations

import sys

import pytest

sys.path.insert(0, __import__("os").path.dirname(__file__))

from taskbackend import OneTask  # noqa: E402


def _refuse(_ctx):
    return "I cannot read that."


def test_astra_refused_readings_are_neither_right_nor_wrong():
    """A backend whose every astra.read answer is refused: the agent read nothing, so no
    accuracy (a refused reading stands in as "no cues", which used to count as right
    wherever the partner meant nothing: 0.5 for 12 of 12 refused answers)."""
    from simcore.metrics.astra import aggregate
    from simcore.seeding import derive
    from simcore.studies.astra import _domain, play_episode

    backend = OneTask("astra.read", _refuse)
    recs = [play_episode(_domain("casino-v1"), "astra", "base", setup, derive(1, "refused", setup),
                         run_id="r", backend=backend)[1] for setup in ("integrative", "distributive")]
    assert backend.asked  # the agent did ask
    assert all(r["readings"] == [0, 0] for r in recs)
    m = aggregate(recs)
    assert m["readings"] == 0 and m["reading_accuracy"] is None


def _dominance_dialogue(backend, seed=0):
    import numpy as np

    from mockllm.callrng import CallRng
    from policies.dominance_state import random_preferences
    from scenarios.restaurants import load_domain
    from simcore.studies.dominance import play

    dom = load_domain("restaurants-small-v1")
    return play(dom, "peer", "peer", random_preferences(dom, np.random.default_rng(seed)),
                random_preferences(dom, np.random.default_rng(seed + 100)), rng_agent=CallRng(3),
                rng_user=CallRng(4), agent_opens=True, run_id="refused", backend=backend)


def test_dominance_refused_readings_are_not_readings_and_no_accuracy_is_not_zero():
    """Every dominance-read answer refused: the dialogue ends unreadable after a counted
    fallback, no reading was accepted, and the pair's accuracy is None (shown n/a), not 0.0."""
    from simcore.metrics.dominance import dialogue_record, pool_pair

    result, agents, stats = _dominance_dialogue(OneTask("dominance-read", _refuse))
    assert result.outcome == "unreadable" and stats.fallbacks >= 1
    assert (result.readings, result.readings_right) == (0, 0)
    assert pool_pair([dialogue_record(result, agents, "restaurant")])["reading_accuracy"] is None


def test_dominance_an_accepted_unreadable_answer_is_a_wrong_reading():
    """A reader that answers "unreadable" for a sentence that said something: accepted by the
    parser, so a reading, and a wrong one."""
    import json

    result, _agents, stats = _dominance_dialogue(
        OneTask("dominance-read", lambda _ctx: json.dumps({"kind": "unreadable", "why": "no idea"})))
    assert stats.fallbacks == 0
    assert (result.readings, result.readings_right) == (1, 0)
