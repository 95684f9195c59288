"""``simcore run --first-look``: every system's default study at a small size, with the same
tables, into OUT/first-look/SYSTEM (its CPU time is measured in benchmarks/, not here)."""

from __future__ import annotations

import json
import os

from simcore.catalog import STUDIES
from tests.clirun import simcore as run_simcore


def test_the_first_look_runs_every_system_with_its_tables(tmp_path, capsys):
    code, out, err = run_simcore(capsys, "run", "--first-look", "--out", str(tmp_path), "--no-progress")
    assert code == 0, err
    for system in STUDIES:
        folder = tmp_path / "first-look" / system
        metrics = json.loads((folder / "metrics.json").read_text())
        assert metrics["system"] == system
        assert any(f.endswith(".csv") for f in os.listdir(folder))


def test_the_first_look_belongs_to_the_default_study(capsys):
    code, _, err = run_simcore(capsys, "run", "--first-look", "mind")
    assert code == 2 and "--first-look is the default study's" in err
