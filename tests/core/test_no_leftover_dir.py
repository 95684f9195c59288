"""Bad input leaves nothing behind: every check runs before the output directory is
made, or a run that stops removes the directories it made for ``--out`` while they are
still empty -- across the four systems, plain runs, sweeps and ``--robustness``."""

import os

import pytest

from tests.clirun import one_line, simcore

TINY = {"mind": ["--groups", "2"], "scorable": ["--trials", "2"], "astra": ["--episodes", "1"],
        "dominance": ["--dialogues", "1"]}


def _files(tmp_path):
    notjson = tmp_path / "in" / "notjson.json"
    notjson.parent.mkdir()
    notjson.write_text("{nope")
    empty = tmp_path / "in" / "empty.jsonl"
    empty.write_text("")
    return {"NOTJSON": str(notjson), "EMPTY": str(empty), "MISSING": str(tmp_path / "in" / "missing.json")}


CASES = [
    ("scorable", ["--game", "NOTJSON"]),
    ("scorable", ["--game", "NOTJSON", "--replicates", "2"]),
    ("scorable", ["--game", "NOTJSON", "--robustness"]),
    ("scorable", ["--game", "MISSING"]),
    ("scorable", ["--game", "no-such-game-v9", "--grid", "sigma=0.1,0.2"]),
    ("dominance", ["--domain", "NOTJSON"]),
    ("dominance", ["--domain", "MISSING", "--replicates", "2"]),
    ("astra", ["--domain", "NOTJSON"]),
    ("astra", ["--robustness", "nosuch.role"]),
    ("mind", ["--robustness", "nosuch.role"]),
    ("mind", ["--replay", "EMPTY"]),
    ("mind", ["--concurrency", "2", "--workers", "2"]),
    ("astra", ["--concurrency", "2", "--executor", "process"]),
    ("dominance", ["--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"]),
    ("scorable", ["--grid", "nosuch=1"]),
    ("mind", ["--grid", "tone_noise=0,2"]),
    ("dominance", ["--metrics", "x"]),
]


@pytest.mark.parametrize("system, argv", CASES, ids=[f"{s}:{' '.join(a)}" for s, a in CASES])
def test_bad_input_is_one_line_and_leaves_no_directory(system, argv, tmp_path, monkeypatch, capsys):
    files = _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    argv = [files.get(a, a) for a in argv]
    if system == "dominance" and "--executor" in argv:
        import simcore.executors as ex

        monkeypatch.setattr(ex, "dask_available", lambda: False)  # (the same line either way)
    status, stdout, err = simcore(capsys, "run", system, *TINY[system], *argv)
    assert status == 2, err
    one_line(err)
    assert not (tmp_path / "runs").exists()  # the default --out, runs/SYSTEM, and runs/ itself


def test_a_nested_out_made_for_a_run_is_removed_when_it_stops(tmp_path, capsys):
    out = tmp_path / "a" / "b" / "c"
    status, _, err = simcore(capsys, "run", "mind", "--groups", "2", "--robustness", "nosuch.role", "--out", str(out))
    assert status == 2 and "nosuch.role" in one_line(err)
    assert os.listdir(tmp_path) == []


def test_an_existing_out_is_kept(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    status, _, _ = simcore(capsys, "run", "mind", "--groups", "2", "--robustness", "nosuch.role", "--out", str(out))
    assert status == 2 and out.is_dir()


def test_a_backend_that_is_down_leaves_no_directory(tmp_path, monkeypatch, capsys):
    """Nothing listens on the discard port: the run stops at the first call (exit 3)."""
    monkeypatch.chdir(tmp_path)
    status, _, err = simcore(capsys, "run", "mind", "--groups", "2", "--base-url", "http://127.0.0.1:9/v1",
                             "--model", "m", "--backend-arg", "max_retries=0")
    assert status == 3 and "127.0.0.1:9" in one_line(err)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("system, args", [("astra", ["--episodes", "2"]), ("mind", ["--groups", "6"])])
def test_a_run_stopped_by_max_failures_leaves_the_cassette_as_it_was(system, args, tmp_path, capsys):
    """The server answers 150 requests (some jobs finish) and then fails: the run stops after
    max_failures failed calls in a row, exit 3; no partial cassette, no directory."""
    from tests.fakeopenai import FakeOpenAI

    cassette, out = tmp_path / "c.jsonl", tmp_path / "o"
    server = FakeOpenAI(fail_after=150)
    try:
        status, _, err = simcore(capsys, "run", system, *args, "--base-url", server.url, "--model", "fake-model",
                                 "--backend-arg", "max_failures=2", "--backend-arg", "max_retries=0",
                                 "--record", str(cassette), "--out", str(out), "--no-progress")
    finally:
        server.close()
    assert status == 3 and "max_failures" in err, err
    assert len(server.posts) > 150  # jobs finished before the server went down
    assert sorted(os.listdir(tmp_path)) == []
