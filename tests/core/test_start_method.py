"""Process pools do not fork while another Python thread runs (Python 3.12+ warns that
such a fork may deadlock the child: a pytest-xdist worker, a server's or a notebook's
threads).  Then a fork server starts the workers, which take the parent's environment and
registry as forked ones would, and the results are the same bytes."""

from __future__ import annotations

import _thread
import os
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

from tests import mind_agents
from simcore.cli import cli
from simcore.executors import python_threads, start_method
from simcore.registry import register, unregister

FORK_IS_DEFAULT = sys.platform.startswith("linux")


class Stubborn(mind_agents.Stubborn):
    """A MIND variant registered in code (not by an installed package): votes for its own value."""

    def __init__(self, *args, **kwargs):
        pass

    def propose(self, me):
        return me.value


@pytest.fixture
def a_thread():
    """Another Python thread, running while the test does."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    yield thread
    stop.set()
    thread.join()


def test_threads_started_by_the_thread_module_are_counted_too():
    """pytest-xdist's workers run a thread that ``threading`` does not list; Python's fork
    warning counts it, and so must the pools."""
    before = python_threads()
    started, stop = threading.Event(), threading.Event()

    def run():
        started.set()
        stop.wait()

    _thread.start_new_thread(run, ())
    started.wait()
    try:
        assert python_threads() == before + 1
    finally:
        stop.set()


@pytest.mark.skipif(not FORK_IS_DEFAULT, reason="fork is the default start method only on Linux")
def test_a_single_threaded_process_forks_and_one_with_threads_does_not(a_thread):
    assert start_method() == "forkserver"
    alone = subprocess.run([sys.executable, "-c", "from simcore.executors import start_method; print(start_method())"],
                           capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert alone.stdout.strip() == "fork"


def test_workers_not_forked_have_the_parents_registry_and_give_the_same_bytes(a_thread, tmp_path, monkeypatch):
    """A policy registered in code runs in workers started by a fork server (they do not
    inherit this process's memory), and the outputs equal a one-worker run's."""
    register("policy", "stubborn-in-code-v1", f"{__name__}:Stubborn",
             meta={"system": "mind", "protocol": "travel-vote-v1"})
    try:
        outs = []
        for workers in (1, 2):
            out = tmp_path / f"w{workers}"
            res = CliRunner().invoke(cli, ["run", "mind", "--groups", "4", "--variants", "stubborn-in-code-v1,mind",
                                           "--workers", str(workers), "--out", str(out), "--no-progress"])
            assert res.exit_code == 0, res.output
            outs.append({name: (out / name).read_bytes() for name in sorted(os.listdir(out))})
    finally:
        unregister("policy", "stubborn-in-code-v1")
    assert outs[0] == outs[1] and b"stubborn-in-code-v1" in outs[0]["metrics.json"]


def test_the_registry_a_worker_takes_holds_what_another_process_can_rebuild():
    """A class defined inside a function cannot be found again in another process: it is
    left out (using it there fails as an unknown id), not a reason for the pool to break."""
    from simcore.registry import snapshot

    class Local(Stubborn):
        pass

    register("policy", "stubborn-callable-v1", Stubborn, meta={"system": "mind"})
    register("policy", "stubborn-local-v1", Local, meta={"system": "mind"})
    try:
        ids = {spec.id for spec in snapshot()}
    finally:
        unregister("policy", "stubborn-callable-v1")
        unregister("policy", "stubborn-local-v1")
    assert "stubborn-callable-v1" in ids and "stubborn-local-v1" not in ids and "mind-v2" in ids
