"""One row of a policy's rule table (:class:`Rule`) and what is read off rows alone: a table's
rows (:func:`table`), its Markdown text (:func:`markdown`), the row a recorded decision came from
(:func:`lookup`).  Each policy module exports ``RULES``, a tuple of rows; :mod:`simcore.rules`
gathers a system's tables.
"""

from __future__ import annotations

from typing import Sequence

import attrs


@attrs.frozen
class Rule:
    """One row of a policy's rule table."""

    table: str        # e.g. "mind-voter"
    row: str          # its number in the table ("1", "1'", ...)
    condition: str    # when it fires (the first row that holds decides)
    action: str       # what the policy then does
    source: str       # the passage, or "choice: why"
    parameter: str = ""  # the parameter holding the row's choice, if any
    #: (decision, reason) pairs a transcript records for this row; "*" matches any reason
    keys: tuple = attrs.field(default=(), converter=tuple)
    label: str = ""   # a short name for step-throughs (default: "<table> row <row>")


def table(rules_: Sequence[Rule], name: str) -> tuple[Rule, ...]:
    return tuple(r for r in rules_ if r.table == name)


#: column headers of a table whose rows are not "first that holds" (#, condition, action)
HEADERS = {"astra-tactics": ("tactic", "When (as simcore reads it; every tactic whose When holds is a candidate)",
                             "How (stage 3's ranking)"),
           "dominance": ("rule", "on what was heard: condition", "reply"),
           "scorable-negotiator": ("step", "what", "rule")}


def markdown(rules_: Sequence[Rule]) -> str:
    """A Markdown table of rows (#, condition, action, source)."""
    name = rules_[0].table if rules_ else ""
    first, cond, act = HEADERS.get(name, ("#", "condition (first that holds)", "action"))
    lines = [f"| {first} | {cond} | {act} | source |", "|---|---|---|---|"]
    cell = lambda t: t.replace("|", "\\|")  # noqa: E731
    for r in rules_:
        param = f" (`{r.parameter}`)" if r.parameter else ""
        lines.append(f"| {cell(r.row)} | {cell(r.condition)}{param} | {cell(r.action)} | {cell(r.source)} |")
    return "\n".join(lines)


def lookup(rules_: Sequence[Rule], decision: str, reason) -> Rule | None:
    """The row a recorded (decision, reason) came from: an exact key first, then a "*" key."""
    for want in ((decision, reason), (decision, "*")):
        for r in rules_:
            if want in r.keys:
                return r
    return None
