"""A sweep in the report: each headline metric against the swept parameter, with the
95% interval ``sweep.json`` holds for every grid point (a share's: Wilson over the pooled
trials; any other metric's: Student t over replicates).

One chart per headline metric; its lines are the variants / methods / pairings of the
study (the middle part of ``results.<name>.<metric>``) and, with more than one grid
axis, the values of the other axes.  The first grid axis is the x axis.
"""

from __future__ import annotations

import importlib
import json
import re

from simcore.catalog import STUDIES, part
from simcore.report import svg
from simcore.report.page import figure, missing, note, num, table

def _report(system: str):
    """The system's report section, which names its sweep headline (``SWEEP_HEADLINE``: patterns
    of the metrics drawn, each capturing (series, metric); ``SWEEP_PERCENT``: those that are shares)."""
    return importlib.import_module(part(system, "REPORT"))


def _label(v) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def _numeric(values) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def headline(system: str, names) -> dict[str, list[tuple[str, str]]]:
    """metric leaf -> [(series name, full metric key)] for the study's headline metrics."""
    out: dict[str, list[tuple[str, str]]] = {}
    for pat in getattr(_report(system), "SWEEP_HEADLINE", ()) if system in STUDIES else ():
        for key in names:
            m = re.match(pat, key)
            if m:
                out.setdefault(m.group(2), []).append((m.group(1), key))
    return out


def body(sw) -> str:
    s = sw.summary
    grid = s.get("grid") or {}
    axes = list(grid)
    points = s.get("points") or []
    head = note(f"{s.get('runs')} runs ({s.get('ok')} ok), grid {', '.join(f'{k} = {grid[k]}' for k in axes) or '-'}, "
                f"{s.get('replicates')} replicate seed(s) per point, root seed {s.get('root_seed')}. "
                f"{s.get('interval', '')}")
    if not points or not axes:
        return head + missing("sweep charts: the sweep has no grid axis (replicates only); see the table below.") \
            + _table(s, axes)
    names = list(dict.fromkeys(k for p in points for k in (p.get("metrics") or {})))
    groups = headline(sw.system, names)
    if not groups:
        return head + missing(f"sweep charts: no headline metric of {sw.system} among the sweep's metrics.") \
            + _table(s, axes)
    xaxis, others = axes[0], axes[1:]
    xs_raw = list(dict.fromkeys(_label(p["point"].get(xaxis)) for p in points))
    raw_values = [p["point"].get(xaxis) for p in points]
    numeric = _numeric(raw_values)
    xvals = sorted({float(v) for v in raw_values}) if numeric else list(range(len(xs_raw)))
    figs, palette = [], {}
    for leaf, members in groups.items():
        series, intervals = {}, {}
        for name, key in members:
            combos = list(dict.fromkeys(tuple(_label(p["point"].get(a)) for a in others) for p in points))
            for combo in combos:
                sname = name + ("" if not others else " · " + ", ".join(f"{a}={v}" for a, v in zip(others, combo)))
                ys, ivs = [], []
                for xv in (xvals if numeric else xs_raw):
                    cell = None
                    for p in points:
                        px = p["point"].get(xaxis)
                        same_x = (float(px) == xv) if numeric else _label(px) == xv
                        if same_x and tuple(_label(p["point"].get(a)) for a in others) == combo:
                            cell = (p.get("metrics") or {}).get(key)
                    ys.append(None if not cell else cell.get("mean"))
                    ivs.append(None if not cell or cell.get("ci95_low") is None
                               else (cell["ci95_low"], cell["ci95_high"]))
                series[sname], intervals[sname] = ys, ivs
                palette.setdefault(sname, svg.PALETTE[len(palette) % len(svg.PALETTE)])
        figs.append(figure(svg.line_chart(f"{leaf} against {xaxis}", xvals, series, intervals=intervals,
                                          xlabels=None if numeric else xs_raw, xlabel=xaxis, ylabel=leaf,
                                          percent=leaf in getattr(_report(sw.system), "SWEEP_PERCENT", ()), floor0=False,
                                          colors=palette),
                           f"Mean over replicates per grid point; whiskers: 95% interval ({leaf}).",
                           f"sweep-{sw.system}-{leaf}"))
    return head + '<div class="figs">' + "".join(figs) + "</div>" + _table(s, axes, keys=[k for m in groups.values() for _, k in m])


def _table(s: dict, axes, keys=None) -> str:
    rows = []
    for p in s.get("points") or []:
        for key, cell in (p.get("metrics") or {}).items():
            if keys is not None and key not in keys:
                continue
            lo, hi = cell.get("ci95_low"), cell.get("ci95_high")
            rows.append([_label(p["point"].get(a)) for a in axes] + [key, num(cell.get("n")), num(cell.get("mean"), 4),
                         "-" if lo is None else f"[{num(lo, 4)}, {num(hi, 4)}]"])
    if not rows:
        return ""
    return ("<details><summary>Headline metrics per grid point (table)</summary>"
            + table(list(axes) + ["metric", "n", "mean", "95% interval"], rows) + "</details>")

