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
from procs import alive, children
from tests.core.test_sweep_run import TABLES, outputs
from checkout import TESTS  # noqa: E402

SCRIPT = os.path.join(TESTS, "toy_study.py")
ARGS = ["--seed", "3", "--grid", "alpha=0.5,1,2", "--replicates", "4", "--jobs", "3"]
RUNS = 12


def env(sleep: float = 0.0) -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([TESTS, e.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    e["TOY_SLEEP"] = str(sleep)
    e.pop("TOY_FAIL_ALPHA", None)
    return e


def default_sigint() -> None:
    """Run in the child before it execs: SIGINT back to its default, so Python installs its
    KeyboardInterrupt handler even when this suite was started with SIGINT ignored (a
    background job, ``nohup``), which the child would otherwise inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli(out, *extra, sleep=0.0, **kw):
    return [sys.executable, SCRIPT, *ARGS, "--out", str(out), *extra], dict(env=env(sleep),
                                                                          preexec_fn=default_sigint, **kw)


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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_only_the_main_process_of_a_process_pool_sweep(tmp_path, reference):
    """SIGKILL to the main process alone (as ``kill -9 PID`` or the OOM killer does):
    its pool workers die too, and ``--resume`` is not refused for a lock they hold."""
    out = tmp_path / "x"
    argv, kw = cli(out, "--workers", "2", sleep=0.25)
    log = open(tmp_path / "output.txt", "wb")  # not a pipe: workers would hold it open
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **kw)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while (recorded(out) < 2 or len(workers) < 2) and proc.poll() is None and time.monotonic() < deadline:
            workers |= children(proc.pid)
            time.sleep(0.02)
        assert proc.poll() is None, "sweep ended before it could be interrupted"
        assert len(workers) >= 2, workers
        os.kill(proc.pid, signal.SIGKILL)  # the main process only, not its group
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30  # generous: dying takes milliseconds
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if alive(w)], "pool workers outlived the killed sweep"
        assert recorded(out) < RUNS
        done = run(out, "--resume", "--workers", "2")
        assert done.returncode == 0, done.stderr
        check_log(out)
        assert outputs(out) == reference
    finally:
        for w in workers:
            if alive(w):
                try:
                    os.kill(w, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()


def test_the_child_handles_sigint_even_when_the_suite_ignores_it():
    """Started with SIGINT ignored, the suite still gives its sweeps a working Ctrl-C."""
    probe = [sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"]
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _argv, kw = cli("unused")
        out = subprocess.run(probe, capture_output=True, text=True, timeout=60, preexec_fn=kw["preexec_fn"])
    finally:
        signal.signal(signal.SIGINT, old)
    assert out.stdout.strip() == "True", out


FORKED_CHILD = """
import os, sys
from simcore.resultlog import ResultLog

path = sys.argv[1]
header = {"study": "s", "root_seed": 0, "base_config": {}}
log = ResultLog.open(path, header, resume=False)
r, w = os.pipe()  # parent -> child: "you may leave"
ready_r, ready_w = os.pipe()  # child -> parent: "running" (fork hooks have run by then)
pid = os.fork()
if pid == 0:  # the child waits until the parent is done, then leaves at once
    try:
        os.close(w)
        os.write(ready_w, b"x")
        os.read(r, 1)
    finally:
        os._exit(0)
try:
    os.close(r)
    os.close(ready_w)
    assert os.read(ready_r, 1) == b"x"
    log.close()  # the owner is done (or dead); the child still lives
    again = ResultLog.open(path, header, resume=True)
    again.append({"type": "run", "id": "a", "status": "ok"})
    again.close()
finally:
    os.close(w)
    os.close(ready_r)
    os.waitpid(pid, 0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_keep_the_log_lock(tmp_path):
    """The lock of a sweep log is not inherited: a forked process (a pool worker) that
    outlives the log's owner does not block the next ``--resume``.  In a process of its own,
    which runs one thread (a test runner's threads make a fork unsafe)."""
    path = str(tmp_path / LOG_NAME)
    done = subprocess.run([sys.executable, "-c", FORKED_CHILD, path], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    with open(path, encoding="utf-8") as fh:
        assert [json.loads(line)["type"] for line in fh] == ["sweep", "run"]
