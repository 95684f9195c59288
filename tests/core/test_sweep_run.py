"""Running sweeps in-process: tables, the result log, failures, resume, executors, the CLI."""

from __future__ import annotations

import json
import os

import pytest

from simcore.errors import InputError, SimcoreError
from simcore.resultlog import read_log
from simcore.launch import launch
from simcore.study import run_study
from simcore.sweep import LOG_NAME
from toy_study import STUDY_PATH, ToyConfig, register_cli

TABLES = ("sweep.json", "sweep_summary.csv", "sweep_runs.csv", "sweep_failures.csv")
GRID = ("alpha=0.5,2", "mode=plain,shifted")


def outputs(out) -> dict[str, bytes]:
    return {name: open(os.path.join(out, name), "rb").read() for name in TABLES}


def sweep(out, config=None, **kw):
    kw.setdefault("grid", GRID)
    kw.setdefault("replicates", 3)
    return launch(STUDY_PATH, config or ToyConfig(seed=11), workers=kw.pop("workers", 1), out=str(out), **kw)


def log_lines(out) -> list[dict]:
    with open(os.path.join(out, LOG_NAME), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_plain_launch_is_unchanged(tmp_path):
    cfg = ToyConfig(seed=5, jobs=6)
    launch(STUDY_PATH, cfg, workers=1, out=str(tmp_path / "a"), progress=False)
    run_study(STUDY_PATH, cfg, workers=1, out_dir=str(tmp_path / "b"))
    launch(STUDY_PATH, cfg, workers=2, out=str(tmp_path / "c"), progress=False)
    names = sorted(os.listdir(tmp_path / "a"))
    assert names == ["metrics.json", "toy.csv", "transcripts.jsonl"]
    for other in ("b", "c"):
        assert sorted(os.listdir(tmp_path / other)) == names
        for name in names:
            assert (tmp_path / "a" / name).read_bytes() == (tmp_path / other / name).read_bytes()


def test_sweep_tables_log_and_summary(tmp_path, capsys):
    summary = sweep(tmp_path)
    m = summary.metrics
    assert (m["runs"], m["ok"], m["failed"], m["missing"]) == (12, 12, 0, 0)
    assert m["grid"] == {"alpha": [0.5, 2.0], "mode": ["plain", "shifted"]}
    assert "Student t" in m["interval"]
    first = m["points"][0]
    assert first["point"] == {"alpha": 0.5, "mode": "plain"} and first["ok"] == 3
    stats = first["metrics"]["mean_value"]
    assert stats["n"] == 3 and stats["ci95_low"] < stats["mean"] < stats["ci95_high"]
    # config fields echoed in the metrics (seed, alpha) are not summarised
    assert set(first["metrics"]) == {"mean_value", "deal_rate", "all_deals", "detail.max", "job_fallbacks"}
    lines = log_lines(tmp_path)
    assert lines[0]["type"] == "sweep" and lines[0]["root_seed"] == 11
    runs = lines[1:]
    assert len(runs) == 12 and len({r["id"] for r in runs}) == 12
    assert all(r["status"] == "ok" and r["seed"] > 0 for r in runs)
    # each run equals a plain run of its config: the sweep adds nothing of its own
    r = runs[4]
    cfg = ToyConfig(seed=r["seed"], alpha=r["point"]["alpha"], mode=r["point"]["mode"])
    plain = run_study(STUDY_PATH, cfg)
    assert json.loads(json.dumps(plain.metrics)) == r["metrics"]
    printed = capsys.readouterr().out
    assert "alpha=0.5, mode=plain" in printed and "12 run(s): 12 ok, 0 failed" in printed
    mv = m["points"][0]["metrics"]["mean_value"]
    assert f"{mv['mean']:.4g} [{mv['ci95_low']:.4g}, {mv['ci95_high']:.4g}]" in printed
    summary_csv = (tmp_path / "sweep_summary.csv").read_text().splitlines()
    assert summary_csv[0] == "alpha,mode,metric,n,mean,ci95_low,ci95_high"
    assert len(summary_csv) == 1 + 4 * 5
    assert (tmp_path / "sweep_failures.csv").read_text() == "alpha,mode,replicate,seed,stage,error\n"


def test_same_results_for_every_worker_count_and_order(tmp_path):
    sweep(tmp_path / "a")
    sweep(tmp_path / "b", workers=2, executor="process")
    assert outputs(tmp_path / "a") == outputs(tmp_path / "b")
    # grid given in another order: same runs, same seeds, same numbers per point
    sweep(tmp_path / "c", grid=("mode=shifted,plain", "alpha=2,0.5"))
    recs_a = {r["id"]: r for r in log_lines(tmp_path / "a")[1:]}
    recs_c = {r["id"]: r for r in log_lines(tmp_path / "c")[1:]}
    assert recs_a == recs_c


def test_failed_runs_are_recorded_and_the_sweep_goes_on(tmp_path):
    summary = sweep(tmp_path, config=ToyConfig(seed=11, fail_alpha=2.0))
    m = summary.metrics
    assert (m["ok"], m["failed"]) == (6, 6)
    bad = [r for r in log_lines(tmp_path)[1:] if r["status"] == "error"]
    assert len(bad) == 6
    assert all(r["point"]["alpha"] == 2.0 and r["stage"] == "run_job" for r in bad)
    assert all(r["error"] == "RuntimeError: toy failure at alpha=2.0" and r["job"] == [0] for r in bad)
    assert "Traceback" in bad[0]["traceback"]
    failures = (tmp_path / "sweep_failures.csv").read_text().splitlines()
    assert len(failures) == 7 and "RuntimeError: toy failure at alpha=2.0" in failures[1]
    assert [p["failed"] for p in m["points"]] == [0, 0, 3, 3]
    assert m["points"][2]["metrics"] == {}


def test_summarize_errors_are_recorded_too(tmp_path):
    summary = sweep(tmp_path, config=ToyConfig(fail_summary=True), grid=("alpha=1",), replicates=2)
    assert summary.metrics["failed"] == 2
    assert {r["stage"] for r in log_lines(tmp_path)[1:]} == {"summarize"}


def test_cli_exit_status_says_whether_a_run_failed(tmp_path, capsys):
    from simcore.cli import main

    register_cli()
    with pytest.raises(SystemExit) as info:
        main(["run", "toy", "--out", str(tmp_path / "a"), "--grid", "alpha=1,2", "--replicates", "2",
              "--fail-alpha", "2"])
    assert info.value.code == 1
    captured = capsys.readouterr()
    assert "2 of 4 run(s) failed" in captured.err and "Traceback" not in captured.err
    assert "toy failure at alpha=2.0" in captured.out
    main(["run", "toy", "--out", str(tmp_path / "b"), "--grid", "alpha=1,2", "--replicates", "2"])
    with pytest.raises(SystemExit) as info:
        main(["run", "toy", "--out", str(tmp_path / "c"), "--grid", "nope=1"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "simcore: error: --grid: nope: unknown option; valid: jobs, alpha, mode, flag, tags, fail_alpha, "
        "fail_summary, delay, window, opaque, backend_url, fallback"]


def test_cli_help_lists_sweep_options(capsys):
    from simcore.cli import main

    register_cli()
    try:
        main(["run", "toy", "--help"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    text = capsys.readouterr().out
    for opt in ("--grid", "--replicates", "--resume", "--executor", "--scheduler", "--seed", "--workers"):
        assert opt in text


def test_resume_skips_recorded_runs_and_reruns_failed_ones(tmp_path, monkeypatch):
    sweep(tmp_path / "ref")
    monkeypatch.setenv("TOY_FAIL_ALPHA", "2")
    assert sweep(tmp_path / "x").metrics["failed"] == 6
    monkeypatch.delenv("TOY_FAIL_ALPHA")
    assert sweep(tmp_path / "x", resume=True).metrics["failed"] == 0
    assert outputs(tmp_path / "x") == outputs(tmp_path / "ref")
    lines = log_lines(tmp_path / "x")
    assert len(lines) == 1 + 12 + 6  # the failed records stay; newer ones supersede them
    before = len(lines)
    sweep(tmp_path / "x", resume=True)  # nothing left to do
    assert len(log_lines(tmp_path / "x")) == before
    assert outputs(tmp_path / "x") == outputs(tmp_path / "ref")


def test_existing_log_needs_resume_and_a_matching_sweep(tmp_path):
    sweep(tmp_path, grid=("alpha=1",), replicates=2)
    with pytest.raises(InputError, match="pass --resume"):
        sweep(tmp_path, grid=("alpha=1",), replicates=2)
    with pytest.raises(InputError) as info:
        sweep(tmp_path, config=ToyConfig(seed=11, jobs=3), grid=("alpha=1",), replicates=2, resume=True)
    assert info.value.field == "base_config.jobs"  # the differing field, not two whole configs
    assert str(info.value).count("{") == 0 and "3 now" in str(info.value)
    with pytest.raises(InputError) as info:
        sweep(tmp_path, config=ToyConfig(seed=12), grid=("alpha=1",), replicates=2, resume=True)
    assert info.value.field == "root_seed"


def test_resume_refuses_another_grid_or_replicate_count(tmp_path):
    """The log is one sweep's: resuming it with another grid would mix two grids' runs."""
    sweep(tmp_path / "x", grid=("alpha=0.5",), replicates=2)
    before = (tmp_path / "x" / LOG_NAME).read_bytes()
    for grid, replicates, field, problem in (
            (("alpha=0.5,2",), 2, "grid.alpha", "[0.5] in the log, [0.5, 2.0] now"),
            (("alpha=2",), 2, "grid.alpha", "[0.5] in the log, [2.0] now"),
            (("alpha=0.5", "jobs=3"), 2, "grid.jobs", "(absent) in the log, [3] now"),
            ((), 2, "grid.alpha", "[0.5] in the log, (absent) now"),
            (("alpha=0.5",), 3, "replicates", "2 in the log, 3 now")):
        with pytest.raises(InputError) as info:
            sweep(tmp_path / "x", grid=grid, replicates=replicates, resume=True)
        assert info.value.field == field and info.value.problem.startswith(problem), str(info.value)
    assert (tmp_path / "x" / LOG_NAME).read_bytes() == before
    sweep(tmp_path / "x", grid=("alpha=0.50",), replicates=2, resume=True)  # the same value, written otherwise
    assert (tmp_path / "x" / LOG_NAME).read_bytes() == before


def test_a_torn_last_line_is_dropped_and_rerun(tmp_path):
    sweep(tmp_path / "ref")
    sweep(tmp_path / "x")
    path = tmp_path / "x" / LOG_NAME
    data = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(data[:6]) + data[6][: len(data[6]) // 2])  # killed mid-write
    sweep(tmp_path / "x", resume=True)
    assert outputs(tmp_path / "x") == outputs(tmp_path / "ref")
    assert len(log_lines(tmp_path / "x")) == 13


def test_a_corrupt_log_line_is_an_input_error(tmp_path):
    sweep(tmp_path, grid=("alpha=1",), replicates=2)
    path = tmp_path / LOG_NAME
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    with pytest.raises(InputError) as info:
        sweep(tmp_path, grid=("alpha=1",), replicates=2, resume=True)
    assert info.value.field == "line 2"
    (tmp_path / LOG_NAME).write_text('{"type": "other"}\n')
    with pytest.raises(InputError, match="not a simcore sweep log"):
        read_log(str(tmp_path / LOG_NAME))


def test_bad_launch_and_executor_options(tmp_path, monkeypatch):
    with pytest.raises(SimcoreError, match="unknown launch option"):
        launch(STUDY_PATH, ToyConfig(), out=str(tmp_path), gird=("alpha=1",))
    with pytest.raises(InputError, match="needs --executor dask"):
        sweep(tmp_path / "a", executor="process", scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(InputError, match="unknown executor"):
        sweep(tmp_path / "b", executor="threads")
    with pytest.raises(InputError, match="continues a sweep"):
        launch(STUDY_PATH, ToyConfig(), out=str(tmp_path / "c"), resume=True)
    import simcore.executors as ex

    monkeypatch.setattr(ex, "dask_available", lambda: False)
    with pytest.raises(InputError, match=r"pip install 'simcore\[dask\]'"):
        sweep(tmp_path / "d", executor="dask")
    assert not (tmp_path / "d").exists()


def test_two_processes_cannot_write_one_log(tmp_path):
    from simcore.resultlog import IDENTITY, ResultLog

    sweep(tmp_path, grid=("alpha=1",), replicates=2)
    header = log_lines(tmp_path)[0]
    holder = ResultLog.open(str(tmp_path / LOG_NAME), {k: header[k] for k in IDENTITY}, resume=True)
    try:
        with pytest.raises(InputError, match="another simcore process"):
            sweep(tmp_path, grid=("alpha=1",), replicates=2, resume=True)
    finally:
        holder.close()
    sweep(tmp_path, grid=("alpha=1",), replicates=2, resume=True)


def test_a_dying_worker_stops_the_sweep_cleanly_and_resume_finishes_it(tmp_path, monkeypatch):
    sweep(tmp_path / "ref")
    monkeypatch.setenv("TOY_EXIT_ALPHA", "2")  # read by the forked workers
    with pytest.raises(SimcoreError, match="executor broke.*--resume"):
        sweep(tmp_path / "x", workers=2, executor="process")
    monkeypatch.delenv("TOY_EXIT_ALPHA")
    assert sweep(tmp_path / "x", workers=2, executor="process", resume=True).metrics["failed"] == 0
    assert outputs(tmp_path / "x") == outputs(tmp_path / "ref")


def test_resume_without_a_log_says_so(tmp_path, capsys):
    sweep(tmp_path / "x", grid=("alpha=1",), replicates=2, resume=True)
    out = capsys.readouterr().out
    assert "there is no sweep log" in out and "starting the sweep from the beginning" in out


def test_a_hand_edited_record_of_the_wrong_type_is_one_error(tmp_path):
    sweep(tmp_path, grid=("alpha=1",), replicates=2)
    path = tmp_path / LOG_NAME
    lines = path.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["metrics"] = [1, 2]
    path.write_text("\n".join([lines[0], json.dumps(rec), *lines[2:]]) + "\n")
    with pytest.raises(InputError) as info:
        sweep(tmp_path, grid=("alpha=1",), replicates=2, resume=True)
    assert info.value.field == "line 2: metrics" and "expected a JSON object, got list" in str(info.value)
    rec["metrics"], rec["replicate"] = {}, "0"
    path.write_text("\n".join([lines[0], json.dumps(rec), *lines[2:]]) + "\n")
    with pytest.raises(InputError, match="line 2: replicate: expected an integer"):
        sweep(tmp_path, grid=("alpha=1",), replicates=2, resume=True)


def test_a_full_disk_while_logging_is_one_error_and_resume_finishes(tmp_path, monkeypatch):
    import simcore.resultlog as resultlog

    sweep(tmp_path / "ref", grid=("alpha=0.5,2",), replicates=2)
    real_fsync = os.fsync
    room = [4]  # the header (and its directory) and two records fit

    def full(fd):
        room[0] -= 1
        if room[0] < 0:
            raise OSError(28, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(resultlog.os, "fsync", full)
    with pytest.raises(InputError, match="No space left on device.*--resume"):
        sweep(tmp_path / "x", grid=("alpha=0.5,2",), replicates=2)
    monkeypatch.setattr(resultlog.os, "fsync", real_fsync)
    assert (tmp_path / "x" / LOG_NAME).read_bytes().endswith(b"\n")  # no torn line left
    assert len(log_lines(tmp_path / "x")) == 3
    sweep(tmp_path / "x", grid=("alpha=0.5,2",), replicates=2, resume=True)
    assert outputs(tmp_path / "x") == outputs(tmp_path / "ref")
