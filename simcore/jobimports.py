"""Importing this module imports what every job of a run imports first: the built-in
systems' registries, the task modules and the backends (91 modules, about 0.3 s of CPU).

A run imports it before its process pool forks workers (:func:`simcore.study.run_study`),
and a pool's fork server imports it before forking any (``FORKSERVER_PRELOAD`` in
:mod:`simcore.executors`), so every worker starts with it instead of importing it again.
"""

from __future__ import annotations

import simcore.backends  # noqa: F401
from mockllm.tasks import all_tasks
from simcore.registry import registered

registered("policy")  # (loads every built-in system's registry)
all_tasks()
