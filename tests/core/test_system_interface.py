"""Every system is a package that exports the same interface (simcore.catalog.INTERFACE, and
what it leaves out of simcore.catalog.OPTIONAL takes the default there), so the shared modules
-- the CLI, the registry, the report, the step-through's noise marks, the rule tables, the
environment, check_policy -- find each system through it and name none."""

from __future__ import annotations

import importlib
import os
import re

import attrs
import pytest

from simcore.catalog import INTERFACE, STUDIES, part
from checkout import CHECKOUT  # noqa: E402

ROOT = CHECKOUT


@pytest.mark.parametrize("system", sorted(STUDIES))
def test_a_system_exports_the_interface(system):
    module = importlib.import_module(STUDIES[system])
    missing = [name for name in INTERFACE if not hasattr(module, name)]
    assert not missing, f"{system} lacks {missing}"
    assert module.SYSTEM == system and module.ENV.system == system
    if part(system, "STUDY") is not None:  # a study comes with its command, default study and report section
        assert part(system, "command") and part(system, "FIRST_LOOK")
        assert part(system, "run_default") or attrs.has(part(system, "STUDY").config)
        importlib.import_module(part(system, "REPORT"))
    for mod in part(system, "RULE_MODULES"):
        assert getattr(importlib.import_module(mod), "RULES", None), mod


def test_no_shared_module_lists_the_systems():
    """Outside the systems' own packages, no module of simcore names the systems one by one in
    a mapping (a new system would have to edit it): they are found through simcore.catalog."""
    pattern = re.compile(r'\{[^{}]*"mind"\s*:[^{}]*"astra"\s*:[^{}]*\}', re.S)
    offenders = []
    for folder in ("simcore", "mockllm"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            if os.sep + "systems" in dirpath:
                continue
            for f in files:
                if f.endswith(".py") and pattern.search(open(os.path.join(dirpath, f), encoding="utf-8").read()):
                    offenders.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    assert not [o for o in offenders if o != os.path.join("simcore", "catalog.py")], offenders
