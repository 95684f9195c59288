"""Every exception of the library survives pickling (a process pool sends a worker's
exception to the parent pickled), so a process-pool run shows the real message instead
of ``BrokenProcessPool``."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

import click
import pytest

import simcore.errors as errors
from scenarios.bilateral import IllegalOffer
from simcore.executors import open_executor
from simcore.sweep import RunsFailed
from simcore.testing import ConformanceError
from checkout import TESTS  # noqa: E402


EXAMPLES = [
    errors.SimcoreError("plain message"),
    errors.InputError("game.json", "agents[2].name", "expected text"),
    errors.InputError("--out", "", "is a file"),
    errors.UnknownIdError("policy", "mind-v9", ["mind-v1", "mind-v2"]),
    errors.ParseError("astra.offer", "not JSON", "{" * 200),
    errors.UnrecognisedPrompt("no task produced this prompt"),
    errors.IllegalMove("offer of 4 food; 3 exist"),
    errors.IllegalMove("a deal is one option per issue", policy="proposed-p1 (p1's choose_deal)", move=(9,)),
    errors.AgentError("Stubborn", "agent", "turn", "illegal move 'x': not an Action"),
    errors.BackendError("http://127.0.0.1:9/v1: connection refused"),
    errors.BackendFatal("http://127.0.0.1:9/v1: HTTP 401 (credentials refused)"),
    errors.FallbackShareExceeded("fallback share 0.40 above --max-fallback-share 0.05"),
    errors.ReadingAccuracyTooLow("2 of 12 accepted readings were right, below --min-reading-accuracy 0.6"),
    IllegalOffer("food=4 exceeds 3"),
    ConformanceError("mock-v1: task x: bad"),
    RunsFailed("2 of 12 run(s) failed"),
]


def test_examples_cover_every_exception_class_of_errors_py():
    classes = {obj for obj in vars(errors).values()
               if isinstance(obj, type) and issubclass(obj, BaseException) and obj.__module__ == errors.__name__}
    assert classes <= {type(e) for e in EXAMPLES}


@pytest.mark.parametrize("exc", EXAMPLES, ids=lambda e: type(e).__name__ + ":" + str(e)[:20])
def test_pickle_round_trip(exc):
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is type(exc)
    assert str(back) == str(exc)
    assert back.args == exc.args
    assert vars(back) == vars(exc)


def test_subclass_with_its_own_init_pickles():
    class Custom(errors.SimcoreError):
        def __init__(self, url: str, status: int):
            self.url, self.status = url, status
            super().__init__(f"{url}: HTTP {status}")

    globals()["Custom"] = Custom  # picklable by reference
    Custom.__qualname__ = "Custom"
    try:
        back = pickle.loads(pickle.dumps(Custom("http://h/v1", 401)))
    finally:
        del globals()["Custom"]
    assert (back.url, back.status, str(back)) == ("http://h/v1", 401, "http://h/v1: HTTP 401")


def raise_it(exc):
    raise exc


@pytest.mark.parametrize("exc", EXAMPLES[1:4], ids=lambda e: type(e).__name__)
def test_process_pool_surfaces_the_real_exception(exc):
    with open_executor("process", workers=2) as pool:
        got = pool.submit(raise_it, exc).exception(timeout=120)
    assert type(got) is type(exc) and str(got) == str(exc)


def toy(*args, **env_extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([TESTS, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(env_extra)
    return subprocess.run([sys.executable, os.path.join(TESTS, "toy_study.py"), *args],
                          capture_output=True, text=True, timeout=120, env=env)


def test_process_pool_run_prints_the_real_message(tmp_path):
    done = toy("--alpha", "2", "--jobs", "4", "--workers", "2", "--out", str(tmp_path / "o"),
               TOY_INPUT_ERROR_ALPHA="2")
    assert done.returncode == 2, done.stderr
    assert "toy.json: alpha: toy input error at alpha=2.0" in done.stderr
    assert "BrokenProcessPool" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_process_pool_sweep_records_the_real_message(tmp_path):
    out = tmp_path / "s"
    done = toy("--grid", "alpha=1,2", "--replicates", "2", "--jobs", "2", "--workers", "2",
               "--out", str(out), TOY_INPUT_ERROR_ALPHA="2")
    assert done.returncode == 1, done.stderr
    assert "toy input error at alpha=2.0" in done.stdout
    assert "BrokenProcessPool" not in done.stdout + done.stderr
    text = (out / "sweep.jsonl").read_text(encoding="utf-8")
    assert text.count("toy input error at alpha=2.0") >= 2


def test_click_exception_is_still_a_click_exception():
    assert isinstance(pickle.loads(pickle.dumps(RunsFailed("x"))), click.ClickException)


def test_a_jobs_exception_leaves_its_chain_behind_for_the_pool():
    """A job's exception crosses to the parent without the exceptions it was raised while
    handling: a pickler that keeps chains (tblib's, which dask installs) could not pickle an
    HTTPError holding its response, and the pool broke (CI: BrokenProcessPool instead of the
    backend's stop)."""
    import io
    import urllib.error

    import pytest

    from simcore.errors import BackendFatal
    from simcore.study import _Call

    class Study:
        def run_job(self, config, job):
            try:
                raise urllib.error.HTTPError("u", 401, "no", {}, io.BytesIO(b"x"))
            except urllib.error.HTTPError:
                raise BackendFatal("refused") from None

    import sys
    import types

    mod = types.ModuleType("_chain_study")
    mod.STUDY = Study()
    sys.modules["_chain_study"] = mod
    try:
        with pytest.raises(BackendFatal) as info:
            _Call("_chain_study:STUDY", None)(None)
    finally:
        del sys.modules["_chain_study"]
    assert info.value.__context__ is None and info.value.__cause__ is None
