"""Result tables: aligned text for the terminal, CSV for files."""

from __future__ import annotations

import csv
import io
from typing import Any

import attrs


def _cell(value: Any) -> str:
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
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.columns)
        for row in self.rows:
            writer.writerow(["" if v is None else (f"{v:.6f}" if isinstance(v, float) else v) for v in row])
        return buf.getvalue()

