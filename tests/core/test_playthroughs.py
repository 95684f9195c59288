"""Golden playthroughs: regenerated in memory and diffed against tests/playthroughs/."""

import os

import pytest

from simcore.playthroughs import DEFAULT_DIR, generate

GENERATED = generate()


def test_every_stored_file_is_still_generated():
    stored = {f for f in os.listdir(DEFAULT_DIR) if f.endswith(".txt")}
    assert stored <= set(GENERATED), f"stale playthrough files: {sorted(stored - set(GENERATED))}"


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_playthrough_matches_golden_file(name):
    path = os.path.join(DEFAULT_DIR, name)
    assert os.path.exists(path), f"{name} missing: run `simcore playthroughs`"
    with open(path, encoding="utf-8") as fh:
        assert GENERATED[name] == fh.read(), f"{name} changed: inspect, then run `simcore playthroughs`"
