"""Dask distributed gives the same bytes as the in-process and process-pool executors.

Skipped when the optional extra is not installed (``pip install 'simcore[dask]'``).
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("distributed")

from simcore.launch import launch  # noqa: E402
from tests.core.test_sweep_run import outputs, sweep  # noqa: E402
from toy_study import STUDY_PATH, ToyConfig  # noqa: E402
from checkout import TESTS  # noqa: E402



@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster started by simcore's own ``--executor dask`` path (no address);
    the tests then connect to it by address, the ``--scheduler`` path."""
    from simcore.executors import open_executor

    # worker processes must import the toy study from tests/
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (TESTS, old) if p)
    try:
        with open_executor("dask", workers=2) as pool:
            assert pool.parallelism == 2
            yield pool._client.scheduler.address
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


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


def test_plain_run_on_dask(tmp_path, scheduler):
    cfg = ToyConfig(seed=2, jobs=5)
    launch(STUDY_PATH, cfg, workers=1, out=str(tmp_path / "inline"))
    launch(STUDY_PATH, cfg, workers=2, out=str(tmp_path / "dask"), scheduler=scheduler)
    for name in ("metrics.json", "toy.csv", "transcripts.jsonl"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "inline" / name).read_bytes()
