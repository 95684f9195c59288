"""Dask distributed gives the same bytes as the in-process and process-pool executors.

Skipped when the optional extra is not installed (``pip install 'simcore[dask]'``).
"""

from __future__ import annotations

import os
import warnings

import pytest

pytest.importorskip("distributed")

from simcore.study import launch  # noqa: E402
from test_sweep_run import outputs, sweep  # noqa: E402
from toy_study import STUDY_PATH, ToyConfig  # noqa: E402

TESTS = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def scheduler():
    from distributed import LocalCluster

    # worker processes must import the toy study from tests/
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (TESTS, old) if p)
    try:
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
    with cluster:
        yield cluster.scheduler_address


def test_dask_sweep_is_byte_identical(tmp_path, scheduler):
    assert scheduler.startswith("tcp://127.0.0.1:")
    sweep(tmp_path / "inline")
    sweep(tmp_path / "pool", workers=2, executor="process")
    summary = sweep(tmp_path / "dask", executor="dask", scheduler=scheduler)
    assert summary.metrics["ok"] == 12
    assert outputs(tmp_path / "dask") == outputs(tmp_path / "inline") == outputs(tmp_path / "pool")


def test_dask_records_failures_like_the_others(tmp_path, scheduler):
    cfg = ToyConfig(seed=11, fail_alpha=2.0)
    sweep(tmp_path / "inline", config=cfg)
    summary = sweep(tmp_path / "dask", config=cfg, scheduler=scheduler)  # the address implies dask
    assert summary.metrics["failed"] == 6
    assert outputs(tmp_path / "dask") == outputs(tmp_path / "inline")


def test_plain_run_on_a_local_dask_cluster(tmp_path, monkeypatch):
    """Without an address simcore starts (and stops) its own LocalCluster on 127.0.0.1."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (TESTS, os.environ.get("PYTHONPATH")) if p))
    cfg = ToyConfig(seed=2, jobs=5)
    launch(STUDY_PATH, cfg, workers=1, out=str(tmp_path / "inline"))
    launch(STUDY_PATH, cfg, workers=2, out=str(tmp_path / "dask"), executor="dask")
    for name in ("metrics.json", "toy.csv", "transcripts.jsonl"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "inline" / name).read_bytes()
