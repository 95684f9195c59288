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
