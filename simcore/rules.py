"""Rule tables as data: each policy module exports ``RULES``, a tuple of
:class:`~simcore.ruletable.Rule` rows; this module gathers a system's.

One source for every place a rule is shown: the docs' rule tables (written
from the data by :func:`~simcore.ruletable.markdown`; ``tests/docs/test_rules_docs.py`` fails when a table and the data
disagree, ``python -m simcore.rules`` rewrites them), ``simcore run SYSTEM --list-params``
(:func:`describe`), and the report's step-throughs (:func:`~simcore.ruletable.lookup` finds the row a recorded
decision came from).
"""

from __future__ import annotations

import importlib
import os
from simcore.catalog import STUDIES, part
from simcore.files import write_atomic
from simcore.ruletable import Rule, markdown, table


def rules(system: str) -> tuple[Rule, ...]:
    out: list[Rule] = []
    for mod in part(system, "RULE_MODULES"):
        out.extend(getattr(importlib.import_module(mod), "RULES", ()))
    return tuple(out)


def describe(system: str) -> str:
    """The rule tables of ``system`` as text (``--list-params`` prints them after the parameters)."""
    out = []
    seen: list[str] = []
    for r in rules(system):
        if r.table not in seen:
            seen.append(r.table)
            out.append(f"rules {r.table}:")
        param = f" [{r.parameter}]" if r.parameter else ""
        out.append(f"  {r.row}. if {r.condition}{param} -> {r.action}")
        out.append(f"      {r.source}")
    return "\n".join(out) + ("\n" if out else "")


# ------------------------------------------------------------------ docs generated from the data
#: file -> the tables written into it between <!-- rules:NAME --> and <!-- /rules --> markers
DOC_TABLES = {"docs/systems/mind.md": ("mind-voter", "mind-proposer", "base"), "docs/systems/astra.md": ("astra-tactics",),
              "docs/systems/dominance.md": ("dominance",), "docs/systems/scorable.md": ("scorable-negotiator",)}


def _marked(name: str) -> tuple[str, str]:
    return f"<!-- rules:{name} -->", "<!-- /rules -->"


def render_into(text: str, name: str, system: str | None = None) -> str:
    system = system or next(s for s in STUDIES if any(r.table == name for r in rules(s)))
    start, end = _marked(name)
    a = text.index(start) + len(start)
    b = text.index(end, a)
    return text[:a] + "\n" + markdown(table(rules(system), name)) + "\n" + text[b:]


def main() -> None:  # python -m simcore.rules: rewrite the generated tables in a checkout

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for fname, names in DOC_TABLES.items():
        path = os.path.join(root, fname)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for name in names:
            text = render_into(text, name)
        write_atomic(path, text)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
