"""No import cycle among simcore's modules: every import statement, at the top of a module
or inside a function, is an edge; a submodule importing its own package (``from mockllm import x``
inside ``mockllm.client``) is not, since a package always runs before its submodules."""

from __future__ import annotations

import ast
import os

import networkx as nx
from checkout import CHECKOUT  # noqa: E402

ROOTS = ("simcore", "policies", "mockllm", "scenarios")
HERE = CHECKOUT


def _modules() -> dict:
    mods = {}
    for root in ROOTS:
        for dirpath, _, files in os.walk(os.path.join(HERE, root)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(dirpath, f)
                    name = os.path.relpath(path, HERE)[:-3].replace(os.sep, ".")
                    mods[name[:-9] if name.endswith(".__init__") else name] = path
    return mods


def import_graph() -> nx.DiGraph:
    mods = _modules()
    g = nx.DiGraph()
    for name, path in mods.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in mods]
                targets += subs or ([node.module] if node.module in mods else [])
            elif isinstance(node, ast.Import):
                targets += [a.name for a in node.names if a.name in mods]
            for t in targets:
                if t != name and not name.startswith(t + "."):  # not one's own package
                    g.add_edge(name, t)
    return g


def test_no_import_cycles():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, cycles


def test_the_graph_sees_function_level_imports():
    g = import_graph()
    assert g.has_edge("simcore.launch", "simcore.sweep")  # imported inside launch()
