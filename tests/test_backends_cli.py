"""Every study can record its language traffic to a cassette and replay it offline:
the replayed run's transcripts and tables are byte-identical to the live run's."""

import os

import pytest
from click.testing import CliRunner

from simcore.cli import cli

RUNS = {
    "scorable": ["--trials", "2", "--methods", "proposed-p1,llm-pe-all"],
    "astra": ["--episodes", "2", "--partners", "base,fair", "--setups", "integrative"],
    "dominance": ["--dialogues", "3", "--agent", "dominant,submissive", "--user", "peer"],
}


@pytest.mark.parametrize("system", sorted(RUNS))
def test_record_and_replay(system, tmp_path):
    runner = CliRunner()
    cassette = tmp_path / "c.jsonl"
    base = ["run", system, *RUNS[system], "--seed", "2"]
    live = runner.invoke(cli, base + ["--out", str(tmp_path / "live"), "--record", str(cassette)])
    assert live.exit_code == 0, live.output
    replay = runner.invoke(cli, base + ["--out", str(tmp_path / "replay"), "--replay", str(cassette)])
    assert replay.exit_code == 0, replay.output
    names = sorted(n for n in os.listdir(tmp_path / "live") if n != "metrics.json")  # metrics echo the paths
    assert "transcripts.jsonl" in names
    for name in names:
        assert (tmp_path / "live" / name).read_bytes() == (tmp_path / "replay" / name).read_bytes(), name


@pytest.mark.parametrize("system", sorted(RUNS))
def test_replaying_an_empty_cassette_falls_back_and_counts(system, tmp_path):
    """Replay really answers from the cassette: with nothing recorded every call falls back."""
    import re

    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    res = CliRunner().invoke(cli, ["run", system, *RUNS[system], "--out", str(tmp_path / "o"), "--replay", str(empty)])
    assert res.exit_code == 0, res.output
    counts = [int(n) for n in re.findall(r'"fallbacks": (\d+)', (tmp_path / "o" / "metrics.json").read_text())]
    assert counts and max(counts) > 0
