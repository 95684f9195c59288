"""Imports sit at the top of their module.  A function may import only what the package
does not always have (an optional extra, a platform module, a fallback inside ``try``) or,
in the ``simcore`` command, a subcommand's own modules (so ``simcore --help`` and a refused
option answer without loading every system)."""

from __future__ import annotations

import ast
import pathlib
from checkout import CHECKOUT  # noqa: E402

ROOT = pathlib.Path(CHECKOUT)
PACKAGES = ("simcore", "mockllm", "policies", "scenarios")
# top-level names of modules a function may import: optional extras (setup.cfg's
# extras_require), test-only ones, a platform module, the stdlib ctypes used to load a solver
OPTIONAL = {"gymnasium", "pettingzoo", "distributed", "matplotlib", "threadpoolctl", "highspy", "hypothesis",
            "negmas", "negmas_genius_agents", "negmas_negolog", "fcntl", "ctypes", "tomli", "tomllib"}
DEFERRING_MODULES = {"simcore/cli.py"}


def _inner_imports(tree: ast.Module):
    at_top = {id(node) for node in tree.body}
    for node in tree.body:  # a top-level try/if holds top-level imports too
        if isinstance(node, (ast.Try, ast.If)):
            at_top.update(id(sub) for sub in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in at_top:
            module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            yield node.lineno, (module or "").split(".")[0]


def test_imports_sit_at_the_top():
    found = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in DEFERRING_MODULES:
                continue
            for line, top in _inner_imports(ast.parse(path.read_text(encoding="utf-8"))):
                if top not in OPTIONAL:
                    found.append(f"{rel}:{line} imports {top} inside a function")
    assert not found, "\n".join(found)


def test_the_scan_sees_an_import_inside_a_function():
    tree = ast.parse("import os\ndef f():\n    import json\n    from gymnasium import spaces\n")
    assert [top for _, top in _inner_imports(tree)] == ["json", "gymnasium"]
