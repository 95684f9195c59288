"""Test-suite configuration.

Under CI (the ``CI`` environment variable set, as ``.ci/run`` runs) Hypothesis is
derandomized: every run draws the same examples, so a CI result is reproducible.
Locally it explores new examples each run.

No test writes into the checkout: every run a test makes writes under ``tmp_path``.
The session checks it: the checkout's files (names, sizes and modification times) are
listed when the session starts and again when it ends -- in the controlling process,
after every pytest-xdist worker has finished -- and any file added, removed or changed
fails the session with the list.  Tool caches (``__pycache__``, ``.pytest_cache``,
``.hypothesis``), ``.git`` and virtualenvs (a directory holding ``pyvenv.cfg``, and
``.ci-venvs`` with CI's logs) are not looked at.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from checkout import CHECKOUT, changed_files, checkout_files

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

def _is_xdist_worker(config) -> bool:
    return hasattr(config, "workerinput")


def pytest_sessionstart(session):
    if not _is_xdist_worker(session.config):
        session.config._simcore_checkout = checkout_files()


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_simcore_checkout", None)
    if before is None:
        return
    session.config._simcore_changes = changed_files(before, checkout_files())
    if session.config._simcore_changes:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    changes = getattr(config, "_simcore_changes", None)
    if not changes:
        return
    shown = changes[:20] + ([f"... and {len(changes) - 20} more"] if len(changes) > 20 else [])
    terminalreporter.write_sep("=", "files changed in the checkout", red=True)
    terminalreporter.write_line(f"these files of the checkout {CHECKOUT} changed while the tests ran: a test "
                                "wrote there (every test must write under tmp_path), or something else did:")
    for line in shown:
        terminalreporter.write_line("    " + line)
