"""The packages stand in layers, each importing only its own layer and those below it:

    scenarios < simcore.protocols < mockllm < policies < simcore.metrics < simcore.systems < simcore.bridges

(the data; the games; the language; the decisions, which speak through the language; what is
measured of a run; each system's package, which ties its scenario, game, words and decisions
together, and holds the model roles -- a model playing a decision the policies make; the bridges
to other negotiation libraries, which seat the systems' agents there and theirs here).  Every
import counts, at the top of a module or inside a function (tests/core/test_import_cycles.py's
graph).  The base modules of ``simcore`` (errors, seeding, the contract, transcripts, the rule
rows, ...) are what every layer may use, so they reach no layer above the one using them: an import
through them counts as the layer's own."""

from __future__ import annotations

import networkx as nx
from test_import_cycles import import_graph

LAYERS = ("scenarios", "simcore.protocols", "mockllm", "policies", "simcore.metrics", "simcore.systems", "simcore.bridges")


def layer(module: str) -> int | None:
    for k, package in enumerate(LAYERS):
        if module == package or module.startswith(package + "."):
            return k
    return None


def upward(graph) -> list[str]:
    """The imports from a layer into one above it, directly or through modules of no layer."""
    found = set()
    for start in graph.nodes:
        low = layer(start)
        if low is None:
            continue
        todo, seen = [(start, (start,))], set()
        while todo:
            node, path = todo.pop()
            for nxt in graph.successors(node):
                if layer(nxt) is None:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append((nxt, path + (nxt,)))
                elif layer(nxt) > low:
                    found.add(" -> ".join(path + (nxt,)))
    return sorted(found)


def test_no_layer_imports_one_above_it():
    found = upward(import_graph())
    assert not found, "imports that reach up a layer:\n" + "\n".join(found)


def test_the_check_sees_an_import_that_reaches_up():
    g = nx.DiGraph([("mockllm.roles", "policies.scorable"), ("policies.scorable", "mockllm.scorable"),
                    ("simcore.protocols.x", "simcore.base"), ("simcore.base", "mockllm.jsontext")])
    assert upward(g) == ["mockllm.roles -> policies.scorable", "simcore.protocols.x -> simcore.base -> mockllm.jsontext"]
