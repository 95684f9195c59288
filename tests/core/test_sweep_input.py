"""A sweep's options are checked and each problem is one line, exit status 2: a
``--metrics`` pattern that matches nothing, ``--resume`` of a log with another grid or
replicate count, and ``simcore run mind --calibrate`` with options it would ignore
(``--grid tone_noise=...`` chooses the values it calibrates over)."""

import json

import pytest

from tests.clirun import one_line, simcore

SWEEP = ["run", "mind", "--groups", "2", "--variants", "mind", "--grid", "tone_noise=0,0.3", "--replicates", "1"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A finished two-point sweep (its --out directory)."""
    from contextlib import redirect_stderr, redirect_stdout
    from io import StringIO

    from simcore.cli import main

    out = tmp_path_factory.mktemp("sweep") / "o"
    with redirect_stdout(StringIO()), redirect_stderr(StringIO()):
        main([*SWEEP, "--out", str(out)])  # (a failure exits: SystemExit fails the fixture)
    return out


@pytest.mark.parametrize("patterns, bad", [("nomatch*", "nomatch*"), ("results.mind.DHR,nomatch*", "nomatch*"),
                                           ("DHR", "DHR")])
def test_a_metrics_pattern_matching_nothing_is_one_line(swept, capsys, patterns, bad):
    status, _, err = simcore(capsys, *SWEEP, "--out", str(swept), "--resume", "--metrics", patterns)
    line = one_line(err)
    assert status == 2 and line.startswith(f"simcore: error: --metrics: {bad}: matches no metric of this sweep; "
                                           "valid: "), line
    assert "results.mind.DHR" in line and str(swept) in line


@pytest.mark.parametrize("patterns", ["all", "results.mind.D*", "results.*.DHR,model_calls.*"])
def test_a_metrics_pattern_that_matches_is_shown(swept, capsys, patterns):
    status, out, err = simcore(capsys, *SWEEP, "--out", str(swept), "--resume", "--metrics", patterns)
    assert status == 0 and "results.mind.D" in out, err


def test_resume_with_another_grid_is_refused_naming_the_difference(swept, capsys):
    before = (swept / "sweep.jsonl").read_bytes()
    argv = [a if a != "tone_noise=0,0.3" else "tone_noise=0,0.3,0.5" for a in SWEEP]
    status, _, err = simcore(capsys, *argv, "--out", str(swept), "--resume")
    line = one_line(err)
    assert status == 2 and "grid.tone_noise: [0.0, 0.3] in the log, [0.0, 0.3, 0.5] now" in line, line
    argv = [a if a != "1" else "2" for a in SWEEP]
    status, _, err = simcore(capsys, *argv, "--out", str(swept), "--resume")
    assert status == 2 and "replicates: 1 in the log, 2 now" in one_line(err)
    assert (swept / "sweep.jsonl").read_bytes() == before
    status, _, err = simcore(capsys, *SWEEP[:-4], "--grid", "tone_noise=0.30,0.0", "--replicates", "1",
                             "--out", str(swept), "--resume")  # the same values, written and ordered otherwise
    assert status == 0, err
    assert (swept / "sweep.jsonl").read_bytes() == before
    assert json.loads((swept / "sweep.json").read_text())["runs"] == 2


CALIBRATE = ["run", "mind", "--calibrate", "--groups", "3"]


def test_calibrate_runs_the_grids_tone_noise_values(capsys):
    status, out, err = simcore(capsys, *CALIBRATE, "--grid", "tone_noise=0,0.35")
    assert status == 0, err
    assert [ln.split()[0] for ln in out.splitlines() if ln.startswith("tone_noise=")] == \
        ["tone_noise=0.00", "tone_noise=0.35"]


@pytest.mark.parametrize("extra, named", [
    (["--grid", "groups=2,3"], "--grid groups"),
    (["--grid", "tone_noise=0,0.2", "--grid", "seeds=1,2"], "--grid seeds"),
    (["--grid", "tone_noise=0,2"], "tone_noise=2"),
    (["--replicates", "2"], "--replicates"),
    (["--metrics", "all"], "--metrics"),
    (["--out", "somewhere"], "--out"),
    (["--log-calls", "calls.jsonl"], "--log-calls"),
])
def test_calibrate_refuses_what_it_would_ignore(extra, named, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status, out, err = simcore(capsys, *CALIBRATE, *extra)
    assert status == 2 and named in one_line(err) and out == ""
    assert list(tmp_path.iterdir()) == []
