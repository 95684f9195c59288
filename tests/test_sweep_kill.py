"""Kill a sweep (SIGKILL or SIGINT) in a subprocess, resume it, and get the tables of
an uninterrupted run: no duplicate and no missing run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from simcore.sweep import LOG_NAME
from test_sweep_run import TABLES, outputs

TESTS = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(TESTS, "toy_study.py")
ARGS = ["--seed", "3", "--grid", "alpha=0.5,1,2", "--replicates", "4", "--jobs", "3"]
RUNS = 12


def env(sleep: float = 0.0) -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([TESTS, e.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    e["TOY_SLEEP"] = str(sleep)
    e.pop("TOY_FAIL_ALPHA", None)
    return e


def cli(out, *extra, sleep=0.0, **kw):
    return [sys.executable, SCRIPT, *ARGS, "--out", str(out), *extra], dict(env=env(sleep), **kw)


def run(out, *extra) -> subprocess.CompletedProcess:
    argv, kw = cli(out, *extra)
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, **kw)


def recorded(out) -> int:
    try:
        with open(os.path.join(out, LOG_NAME), "rb") as fh:
            return max(0, fh.read().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def start_and_stop(out, sig, *, after: int, extra=(), group=True):
    """Start a slowed-down sweep, wait until ``after`` runs are logged, send ``sig``."""
    argv, kw = cli(out, *extra, sleep=0.25)  # a wide window to interrupt in, even on a loaded machine
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)
    deadline = time.monotonic() + 30
    while recorded(out) < after and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, f"sweep ended before it could be interrupted: {proc.communicate()}"
    if group:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)
    stdout, stderr = proc.communicate(timeout=30)
    return proc, stdout, stderr


def check_log(out) -> None:
    with open(os.path.join(out, LOG_NAME), encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh][1:]
    counts = Counter(r["id"] for r in rows if r["status"] == "ok")
    assert len(counts) == RUNS and set(counts.values()) == {1}, counts


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref")
    done = run(out)
    assert done.returncode == 0, done.stderr
    return outputs(out)


def test_sigkill_twice_then_resume(tmp_path, reference):
    out = tmp_path / "x"
    proc, _, _ = start_and_stop(out, signal.SIGKILL, after=2)
    assert proc.returncode == -signal.SIGKILL
    first = recorded(out)
    assert 2 <= first < RUNS
    assert not any(os.path.exists(os.path.join(out, t)) for t in TABLES)
    again = run(out)  # without --resume the log is protected
    assert again.returncode == 2 and "pass --resume" in again.stderr
    argv, kw = cli(out, "--resume", sleep=0.08)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)
    deadline = time.monotonic() + 30
    while recorded(out) < first + 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    done = run(out, "--resume")
    assert done.returncode == 0, done.stderr
    assert "already recorded" in done.stdout
    check_log(out)
    assert outputs(out) == reference


def test_sigkill_process_pool_then_resume(tmp_path, reference):
    out = tmp_path / "x"
    start_and_stop(out, signal.SIGKILL, after=3, extra=("--workers", "2"))
    assert recorded(out) < RUNS
    done = run(out, "--resume", "--workers", "2")
    assert done.returncode == 0, done.stderr
    check_log(out)
    assert outputs(out) == reference


def test_sigint_stops_cleanly_then_resume(tmp_path, reference):
    out = tmp_path / "x"
    proc, stdout, stderr = start_and_stop(out, signal.SIGINT, after=2, group=False)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "--resume" in stdout and "Traceback" not in stderr
    assert recorded(out) < RUNS
    done = run(out, "--resume")
    assert done.returncode == 0, done.stderr
    check_log(out)
    assert outputs(out) == reference
