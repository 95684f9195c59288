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

No test forks while another Python thread runs (a pytest-xdist worker always has one):
Python 3.12+ warns "This process ... is multi-threaded, use of fork() may lead to
deadlocks" at every such fork.  ``-W error::DeprecationWarning`` cannot catch it (Python
drops the error it becomes), so that warning is always recorded here, whatever ``-W``
says, and any recorded fails the session with the tests that caused it.
"""

from __future__ import annotations

import os
import re
import warnings

import pytest
from hypothesis import settings

from checkout import CHECKOUT, changed_files, checkout_files

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

#: the start of Python's warning about a fork while other threads run (3.12+)
FORK_WARNING = r"This process \(pid=\d+\) is multi-threaded, use of fork\(\) may lead to deadlocks"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # inside pytest's own warning capture (tryfirst), so this filter outranks -W and the ini
    with warnings.catch_warnings():
        warnings.filterwarnings("always", message=FORK_WARNING, category=DeprecationWarning)
        return (yield)


#: the tests (node ids) whose run forked while other threads ran, once per fork
FORKS: list[str] = []


def pytest_warning_recorded(warning_message, when, nodeid, location):
    # in the controlling process too: pytest-xdist passes every worker's warnings on
    if issubclass(warning_message.category, DeprecationWarning) and re.match(FORK_WARNING,
                                                                              str(warning_message.message)):
        FORKS.append(nodeid or when)


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
    if session.config._simcore_changes or FORKS:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    forks = FORKS
    if forks and not _is_xdist_worker(config):
        terminalreporter.write_sep("=", "forks while other threads ran", red=True)
        terminalreporter.write_line("these tests forked a process while another Python thread ran (a process pool "
                                    "must not fork then; see simcore.executors.start_method):")
        for nodeid in sorted(set(forks)):
            terminalreporter.write_line(f"    {nodeid} ({forks.count(nodeid)} fork(s))")
    changes = getattr(config, "_simcore_changes", None)
    if not changes:
        return
    shown = changes[:20] + ([f"... and {len(changes) - 20} more"] if len(changes) > 20 else [])
    terminalreporter.write_sep("=", "files changed in the checkout", red=True)
    terminalreporter.write_line(f"these files of the checkout {CHECKOUT} changed while the tests ran: a test "
                                "wrote there (every test must write under tmp_path), or something else did:")
    for line in shown:
        terminalreporter.write_line("    " + line)
