"""Killing a plain ``simcore run --workers 2`` (SIGKILL or SIGTERM to its main process
only) ends its pool workers too: workers left
running would hold the caller's stdout open, so ``| tee`` would hang."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from procs import alive, children

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killing_the_main_process_of_a_plain_run_ends_its_workers(tmp_path, sig):
    argv = [sys.executable, "-m", "simcore", "run", "mind", "--groups", "400", "--seeds", "1", "--workers", "2",
            "--no-progress", "--out", str(tmp_path / "out")]
    log = open(tmp_path / "output.txt", "wb")  # a file, not a pipe: the workers would hold a pipe open
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            workers |= children(proc.pid)
            time.sleep(0.02)
        assert proc.poll() is None and len(workers) >= 2, (workers, (tmp_path / "output.txt").read_text())
        os.kill(proc.pid, sig)  # the main process only, not its group
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30  # generous: dying takes milliseconds
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if alive(w)], "workers outlived the killed run"
    finally:
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()
