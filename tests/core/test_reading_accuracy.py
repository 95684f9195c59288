"""Parsed is not right: every system scores the readings a backend made against what the
speaker meant, over the ACCEPTED readings only (a refused reading is a counted fallback,
never a right or a wrong one)."""

from __future__ import annotations

import sys

import pytest


from taskbackend import OneTask  # noqa: E402


def _refuse(_ctx):
    return "I cannot read that."


def test_astra_refused_readings_are_neither_right_nor_wrong():
    """A backend whose every astra.read answer is refused: the agent read nothing, so no
    accuracy (the fallback that stands in for a refused reading, "no cues", is no reading:
    counted as one, it would be right wherever the partner meant nothing)."""
    from simcore.metrics.astra import aggregate
    from simcore.seeding import derive
    from scenarios.bilateral import load_domain as _domain
    from simcore.systems.astra.match import play_episode

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
    from simcore.systems.dominance import play_dialogue

    dom = load_domain("restaurants-small-v1")
    return play_dialogue(dom, "peer", "peer", random_preferences(dom, np.random.default_rng(seed)),
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


def _mind_group(policy, backend, size=3, seed=0):
    import numpy as np

    from mockllm.client import ModelClient
    from scenarios.travel import generate_group
    from simcore.systems.mind.match import play_group

    rng = np.random.default_rng(seed)
    group = generate_group("g", size, rng)
    return play_group(group, policy, [int(rng.integers(size)) for _ in group.items], ModelClient(backend),
                           np.random.default_rng(seed + 1), "mind/t")


def test_mind_readings_are_scored_against_the_willingness_meant_by_band():
    """MIND's appraisal reads a willingness from the words; the speaker's w is known.  A
    reading is right in the speaker's tone band (B5), or as no marker from a plain speaker."""
    from mockllm.mock import MockBackend
    from simcore.protocols.travel_vote import Appraisal
    from simcore.registry import make

    apps = [a for o in _mind_group(make("policy", "mind-v2"), MockBackend(exact=True)).items for a in o.appraisals]
    assert apps and all(a.accepted and a.meant_w == a.true_w and a.right for a in apps)
    plain = [a for o in _mind_group(make("policy", "appraisal-only-v2"), MockBackend(exact=True)).items
             for a in o.appraisals]
    assert plain and all(a.meant_w is None and a.guessed_w is None and a.right for a in plain)
    # the band, not the level: 7 for a Firm 8 is right, 6 is not; a marker from a plain speaker is wrong
    assert Appraisal(0, 1, 8, 7, 7, "2a", 1, 8).right and not Appraisal(0, 1, 8, 6, 6, "2a", 1, 8).right
    assert not Appraisal(0, 1, 8, 5, 5, "2a", 1, None).right and not Appraisal(0, 1, 8, None, 5, "2a", 1, 8).right


def test_mind_refused_readings_are_not_readings():
    """Every travel.read-v1 answer refused: each appraisal is the fallback's no marker, a
    counted fallback and no reading (not a plain speaker's no marker, read right)."""
    from simcore.registry import make
    from simcore.systems.mind.study import item_record

    backend = OneTask("travel.read-v1", _refuse)
    out = _mind_group(make("policy", "mind-v2"), backend)
    apps = [a for o in out.items for a in o.appraisals]
    assert backend.asked and apps and not any(a.accepted or a.right for a in apps)
    assert all(item_record(o)["readings"] == [0, 0] for o in out.items)


def test_an_accuracy_cell_shows_na_when_nothing_was_read():
    from simcore.readings import accuracy_cell
    from simcore.tables import Table

    cell = accuracy_cell(None)
    assert cell.text == "n/a" and cell.value is None
    t = Table("t", "t", ("readings right", "readings"), [(accuracy_cell(None), 0), (accuracy_cell(0.5), 4)])
    assert t.render().splitlines()[3].split() == ["n/a", "0"]
    assert t.to_csv().splitlines()[1:] == [",0", "0.500000,4"]
