"""Result tables: aligned text for the terminal, CSV for files."""

from __future__ import annotations

import csv
import io
from typing import Any

import attrs


@attrs.frozen
class Num:
    """A number shown formatted on the terminal (``text``, e.g. "79.1%") and written as the
    number itself to CSV, with its 95% interval (``lo``, ``hi``) in two more CSV columns
    when the run has one, so a CSV reads as numbers (pandas, a spreadsheet)."""

    value: float | None
    text: str
    lo: float | None = None
    hi: float | None = None


def _csv_number(v: Any) -> Any:
    if v is None:
        return ""
    return f"{v:.6f}" if isinstance(v, float) else v


def _cell(value: Any) -> str:
    if isinstance(value, Num):
        return value.text
    if isinstance(value, float):
        return f"{value:.4f}"
    if value is None:
        return "-"
    return str(value)


@attrs.frozen
class Table:
    """A titled table; ``name`` is the CSV file stem."""

    name: str
    title: str
    columns: tuple[str, ...] = attrs.field(converter=tuple)
    rows: tuple[tuple[Any, ...], ...] = attrs.field(converter=lambda rs: tuple(tuple(r) for r in rs))
    note: str = ""

    def __attrs_post_init__(self):
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.name}: row {row!r} has {len(row)} cells, expected {len(self.columns)}")

    def render(self) -> str:
        cells = [list(self.columns)] + [[_cell(v) for v in r] for r in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        lines = [self.title]
        for k, row in enumerate(cells):
            parts = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
            lines.append("  ".join(parts).rstrip())
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def to_csv(self) -> str:
        """Numbers as numbers (a :class:`Num` as its value; a share as a fraction, not "79.1%"),
        and after each column that has intervals, its "ci95 lo" and "ci95 hi" columns."""
        with_ci = [any(isinstance(r[i], Num) and r[i].lo is not None for r in self.rows)
                   for i in range(len(self.columns))]
        header = []
        for col, ci in zip(self.columns, with_ci):
            header += [col, f"{col} ci95 lo", f"{col} ci95 hi"] if ci else [col]
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(header)
        for row in self.rows:
            out = []
            for v, ci in zip(row, with_ci):
                if isinstance(v, Num):
                    out.append(_csv_number(v.value))
                    if ci:
                        out += [_csv_number(v.lo), _csv_number(v.hi)]
                else:
                    out.append(_csv_number(v))
                    if ci:
                        out += ["", ""]
            writer.writerow(out)
        return buf.getvalue()

    def to_json(self) -> dict:
        """The table as data (``--json``): numbers as numbers, intervals beside them."""
        def val(v):
            if isinstance(v, Num):
                return v.value if v.lo is None else {"value": v.value, "ci95": [v.lo, v.hi]}
            return v
        return {"name": self.name, "title": self.title, "columns": list(self.columns),
                "rows": [[val(v) for v in r] for r in self.rows], "note": self.note}

