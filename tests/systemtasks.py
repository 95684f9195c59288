"""Every language task of the installed systems, for the tests that go over all of them."""

from __future__ import annotations

import importlib

from mockllm.tasks import Task, all_tasks
from simcore.catalog import STUDIES, available


def tasks() -> dict[str, Task]:
    """Every task by id: each system's package imported (a task registers itself when its module
    loads -- mockllm's own tasks, and the model roles a system defines beside its match), then
    :func:`mockllm.tasks.all_tasks`."""
    for name in available():
        importlib.import_module(STUDIES[name])
    return all_tasks()
