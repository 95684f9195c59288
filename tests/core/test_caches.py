"""Every cache simcore keeps between negotiations is declared in :mod:`simcore.caches`:
no ``functools.lru_cache`` or module-level dict memo elsewhere, so ``caches.clear()``
reaches all of them and nothing finds a cache by its name."""

from __future__ import annotations

import ast
import pathlib

import pytest

from simcore import caches
from checkout import CHECKOUT  # noqa: E402

ROOT = pathlib.Path(CHECKOUT)
PACKAGES = ("simcore", "mockllm", "policies", "scenarios")
# module-level dicts that are registries or tables, not memos of derived data
NOT_CACHES = {
    ("simcore/caches.py", "_DECLARED"),           # the declarations themselves
    ("mockllm/cassette.py", "_RUNS"),             # the cassettes this process is recording
    ("mockllm/tasks.py", "_TASKS"),               # the registered mock tasks
}
EMPTY_DICT_CALLS = {"dict", "OrderedDict", "defaultdict", "WeakValueDictionary", "WeakKeyDictionary"}


def _sources():
    for pkg in PACKAGES:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def _module_dicts(tree: ast.Module):
    for node in tree.body:
        if isinstance(node, ast.Assign):
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        empty_literal = isinstance(value, ast.Dict) and not value.keys
        empty_call = (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                      and value.func.id in EMPTY_DICT_CALLS and not value.args and not value.keywords)
        if empty_literal or empty_call:  # a memo starts empty; a table is written out
            yield getattr(target, "id", ast.unparse(target)), node.lineno


def test_no_undeclared_module_cache():
    found = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, line in _module_dicts(tree):
            if (rel, name) not in NOT_CACHES:
                found.append(f"{rel}:{line} {name} (a module-level dict: declare it with caches.memo)")
        if rel == "simcore/caches.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for deco in node.decorator_list:
                    text = ast.unparse(deco)
                    if "lru_cache" in text or text in ("functools.cache", "cache"):
                        found.append(f"{rel}:{node.lineno} {node.name} ({text}: declare it with caches.lru)")
    assert not found, "\n".join(found)


def test_the_scan_sees_an_undeclared_cache(tmp_path):
    tree = ast.parse("import functools\n_MEMO: dict = {}\n@functools.lru_cache(maxsize=4)\ndef f(x):\n    return x\n")
    assert [name for name, _ in _module_dicts(tree)] == ["_MEMO"]


def test_clear_empties_every_declared_cache():
    from scenarios.scorable import load_shipped
    load_shipped()
    assert load_shipped.cache_info().currsize >= 1
    assert caches.clear() == len(caches.declared())
    assert load_shipped.cache_info().currsize == 0
    for name, cache in caches.declared().items():
        assert (len(cache) if isinstance(cache, dict) else cache.cache_info().currsize) == 0, name


def test_a_name_is_declared_once():
    with pytest.raises(ValueError, match="already declared"):
        caches.memo(next(iter(caches.declared())))
