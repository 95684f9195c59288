"""Output files are written atomically and transcripts are streamed.

Every output file goes to a temporary file, is fsync-ed and renamed over the target,
so a failure (a full disk) leaves the old file or none, never a torn one, and is one
error line naming the file.  A plain run writes each job's transcript events as soon
as that job's turn comes and keeps only the job records, so memory does not grow
with the transcripts (the measured curve is in benchmarks/results-memory.md).
"""

from __future__ import annotations

import io
import os

import pytest

from simcore.errors import InputError
from simcore.files import AtomicFile, write_atomic
from simcore.runner import map_ordered
from simcore.study import _Call, run_study
from simcore.transcript import write_jsonl
from toy_study import STUDY, STUDY_PATH, ToyConfig


def _no_space(_fd):
    raise OSError(28, "No space left on device")


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    import simcore.files as files

    path = tmp_path / "metrics.json"
    write_atomic(str(path), "old\n")
    monkeypatch.setattr(files.os, "fsync", _no_space)
    with pytest.raises(InputError, match="metrics.json: cannot write \\(No space left on device\\)"):
        write_atomic(str(path), "new\n" * 1000)
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["metrics.json"]


def test_an_error_inside_an_atomic_file_discards_it(tmp_path):
    path = tmp_path / "t.jsonl"
    with pytest.raises(RuntimeError):
        with AtomicFile(str(path)) as fh:
            fh.write("partial")
            raise RuntimeError("stop")
    assert os.listdir(tmp_path) == []


def test_a_full_disk_during_a_run_is_one_line_and_leaves_no_torn_file(tmp_path, monkeypatch, capsys):
    import simcore.files as files
    from simcore.cli import main

    out = tmp_path / "o"
    argv = ["run", "mind", "--groups", "2", "--variants", "mind", "--out", str(out)]
    monkeypatch.setattr(files.os, "fsync", _no_space)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert exc.value.code == 2 and len(err) == 1 and "No space left on device" in err[0]
    assert not out.exists()  # neither a torn transcript nor a temporary file, nor the directory it made


def test_streamed_transcripts_match_and_summarize_gets_no_events(tmp_path, monkeypatch):
    cfg = ToyConfig(seed=3, jobs=7)
    expected = io.StringIO()
    for output in map_ordered(_Call(STUDY_PATH, cfg), list(STUDY.jobs(cfg))):
        write_jsonl(output.events, expected)
    assert expected.getvalue()
    seen = []
    real = type(STUDY).summarize

    def spy(self, config, outputs):
        seen.append(sum(len(o.events) for o in outputs))
        return real(self, config, outputs)

    monkeypatch.setattr(type(STUDY), "summarize", spy)
    streamed = run_study(STUDY_PATH, cfg, out_dir=str(tmp_path / "a"))
    kept = run_study(STUDY_PATH, cfg)
    assert seen == [0, expected.getvalue().count("\n")]  # streamed: no events held; in memory: all
    assert streamed.metrics == kept.metrics
    assert (tmp_path / "a" / "transcripts.jsonl").read_text(encoding="utf-8") == expected.getvalue()


def test_a_killed_runs_temporary_file_is_cleared_by_the_next_run(tmp_path):
    from simcore.files import prepare_out_dir

    out = tmp_path / "o"
    out.mkdir()
    dead = 2**22 + 12345  # above the default pid_max: no such process
    (out / f".transcripts.jsonl.tmp-{dead}").write_text("torn")
    (out / f".metrics.json.tmp-{os.getpid()}").write_text("being written")  # a live writer's
    prepare_out_dir(str(out))
    assert sorted(os.listdir(out)) == [f".metrics.json.tmp-{os.getpid()}"]


def test_the_mind_bootstrap_gives_the_same_intervals_whatever_its_chunk(monkeypatch):
    """The bootstrap draws its resamples in chunks (memory bounded in groups x resamples);
    the intervals equal those of drawing every resample at once."""
    import numpy as np

    import simcore.metrics.mind_figures as mf
    from simcore.systems.mind.study import STUDY as MIND, MindConfig, _Groups

    cfg = MindConfig(groups=9, variants=("mind", "base"))
    outputs = [MIND.run_job(cfg, job) for job in MIND.jobs(cfg)]
    groups = {v: _Groups(outputs, v) for v in cfg.variants}
    results = []
    for chunk in (7, 50, 301):  # 301 rows: the whole draw at once
        monkeypatch.setattr(mf, "CHUNK", chunk)
        results.append(mf.bootstrap_ci95(groups, np.random.default_rng(4), resamples=301))
    assert results[0] == results[1] == results[2]
    assert any(v is not None for block in results[0].values() for v in block.values())
