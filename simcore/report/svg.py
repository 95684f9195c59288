"""Hand-written SVG charts (standard library only): grouped bars with intervals, lines
with intervals, scatter layers, heat maps and 100% stacked bars.

Every function returns one ``<svg>`` element as text, sized by its ``viewBox`` so it
scales to the page width and prints sharply.  Text uses the reader's default sans-serif
font (no web fonts).  Missing values (``None``) are left out of the drawing, never drawn
as zero.
"""

from __future__ import annotations

import math
from html import escape as _html_escape
from typing import Mapping, Sequence

from simcore.textsafe import visible


def escape(text: str) -> str:
    """HTML/XML-escaped text with its control characters written visibly (``\\x1b``)."""
    return _html_escape(visible(text))


# Okabe-Ito: distinguishable with the common colour-vision deficiencies and in grey print
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
W, H = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 34, 58


def _n(x: float) -> str:
    """A coordinate with at most one decimal."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _t(x: float, y: float, text: str, *, anchor: str = "middle", size: int = 11, extra: str = "") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{escape(str(text))}</text>")


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return [0.0, 1.0]
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, v = [], start
    while v <= hi + step * 1e-6:
        ticks.append(round(v, 10))
        v += step
    if ticks[-1] < hi - 1e-12:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def fmt_tick(v: float, percent: bool = False) -> str:
    if percent:
        return f"{100 * v:.0f}%"
    if abs(v) >= 1000 or v == int(v):
        return f"{v:.0f}"
    return f"{v:.3g}"


def _open(title: str, w: int = W, h: int = H) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" '
            f'aria-label="{escape(title)}" class="chart">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="#fff"/>',
            _t(w / 2, 18, title, size=13, extra=' font-weight="bold"')]


def _legend_width(name: str) -> float:
    return 30 + 6.2 * len(str(name))


def legend_rows(names: Sequence[str], x: float = LEFT, w: int = W) -> int:
    """Lines the legend of ``names`` takes when wrapped at the chart's width."""
    rows, cx = 1, x
    for name in names:
        if cx > x and cx + _legend_width(name) > w - RIGHT:
            rows, cx = rows + 1, x
        cx += _legend_width(name)
    return rows


def _legend(names: Sequence[str], x: float, y: float, colors: Sequence[str], *, shapes: Sequence[str] = (),
            w: int = W) -> list[str]:
    """The legend, wrapped at the chart's width; ``y`` is the baseline of its first line."""
    out, cx = [], x
    for k, name in enumerate(names):
        if cx > x and cx + _legend_width(name) > w - RIGHT:
            cx, y = x, y + 15
        c = colors[k % len(colors)]
        shape = shapes[k] if k < len(shapes) else "box"
        if shape == "line":
            out.append(f'<line x1="{_n(cx)}" y1="{_n(y - 4)}" x2="{_n(cx + 14)}" y2="{_n(y - 4)}" '
                       f'stroke="{c}" stroke-width="2"/>')
        elif shape == "dot":
            out.append(f'<circle cx="{_n(cx + 6)}" cy="{_n(y - 4)}" r="4" fill="{c}"/>')
        else:
            out.append(f'<rect x="{_n(cx)}" y="{_n(y - 10)}" width="12" height="12" fill="{c}"/>')
        out.append(_t(cx + 18, y, name, anchor="start", size=10))
        cx += _legend_width(name)
    return out


def _axes(lo: float, hi: float, ylabel: str, xlabel: str, *, percent: bool, w: int = W, h: int = H,
          extra: int = 0) -> tuple[list[str], callable]:
    """Y grid, ticks and labels; returns the elements and the y -> pixel function.
    ``extra``: height added below the x axis for a legend of several lines."""
    ticks = nice_ticks(lo, hi)
    lo, hi = ticks[0], ticks[-1]
    y0, y1 = h - BOTTOM - extra, TOP + 6

    def fy(v: float) -> float:
        return y0 - (v - lo) / (hi - lo) * (y0 - y1)

    out = []
    for v in ticks:
        yy = fy(v)
        out.append(f'<line x1="{LEFT}" y1="{_n(yy)}" x2="{w - RIGHT}" y2="{_n(yy)}" stroke="#ddd"/>')
        out.append(_t(LEFT - 6, yy + 4, fmt_tick(v, percent), anchor="end", size=10))
    out.append(f'<line x1="{LEFT}" y1="{y0}" x2="{w - RIGHT}" y2="{y0}" stroke="#333"/>')
    if ylabel:
        out.append(f'<text x="14" y="{_n((y0 + y1) / 2)}" font-size="11" text-anchor="middle" '
                   f'transform="rotate(-90 14 {_n((y0 + y1) / 2)})">{escape(ylabel)}</text>')
    if xlabel:
        out.append(_t((LEFT + w - RIGHT) / 2, y0 + 31, xlabel, size=11))
    return out, fy


def _range(values: Sequence[float | None], floor0: bool = True) -> tuple[float, float]:
    vals = [v for v in values if v is not None and math.isfinite(v)]
    if not vals:
        return 0.0, 1.0
    lo, hi = min(vals), max(vals)
    if floor0:
        lo = min(lo, 0.0)
    if hi == lo:
        hi = lo + (abs(lo) or 1.0)
    return lo, hi


def bar_chart(title: str, groups: Sequence[str], series: Mapping[str, Sequence[float | None]], *,
              intervals: Mapping[str, Sequence[tuple[float, float] | None]] | None = None,
              ylabel: str = "", xlabel: str = "", percent: bool = False,
              ylim: tuple[float, float] | None = None) -> str:
    """Grouped vertical bars: one group per entry of ``groups``, one bar per series,
    with an interval whisker where ``intervals`` gives one."""
    names = list(series)
    flat = [v for s in series.values() for v in s]
    if intervals:
        flat += [b for iv in intervals.values() for pair in iv if pair for b in pair]
    lo, hi = ylim if ylim else _range(flat)
    extra = 15 * (legend_rows(names) - 1) if len(names) > 1 else 0
    h = H + extra
    out = _open(title, W, h)
    axes, fy = _axes(lo, hi, ylabel, xlabel, percent=percent, h=h, extra=extra)
    out += axes
    slot = (W - LEFT - RIGHT) / max(1, len(groups))
    bw = min(36.0, slot * 0.8 / max(1, len(names)))
    base = fy(max(lo, min(0.0, hi))) if lo <= 0 <= hi else fy(lo)
    for g, gname in enumerate(groups):
        x0 = LEFT + g * slot + (slot - bw * len(names)) / 2
        for k, name in enumerate(names):
            v = series[name][g] if g < len(series[name]) else None
            x = x0 + k * bw
            if v is None or not math.isfinite(v):
                out.append(_t(x + bw / 2, base - 3, "n/a", size=8, extra=' fill="#888"'))
                continue
            top = fy(v)
            y, hgt = min(top, base), abs(base - top)
            label = f"{name}, {gname}: {fmt_tick(v, percent) if percent else f'{v:.4g}'}"
            out.append(f'<rect x="{_n(x + 1)}" y="{_n(y)}" width="{_n(bw - 2)}" height="{_n(max(hgt, 0.5))}" '
                       f'fill="{PALETTE[k % len(PALETTE)]}"><title>{escape(label)}</title></rect>')
            iv = intervals.get(name) if intervals else None
            pair = iv[g] if iv and g < len(iv) else None
            if pair and all(p is not None and math.isfinite(p) for p in pair):
                ya, yb = fy(pair[0]), fy(pair[1])
                xm = x + bw / 2
                out.append(f'<path d="M{_n(xm)} {_n(ya)}V{_n(yb)}M{_n(xm - 4)} {_n(ya)}h8M{_n(xm - 4)} {_n(yb)}h8" '
                           f'stroke="#222" stroke-width="1.2" fill="none"/>')
        out.append(_t(LEFT + g * slot + slot / 2, h - extra - BOTTOM + 15, gname, size=10))
    if len(names) > 1:
        out += _legend(names, LEFT, h - 7 - extra, PALETTE)
    out.append("</svg>")
    return "\n".join(out)


def line_chart(title: str, x: Sequence[float], series: Mapping[str, Sequence[float | None]], *,
               intervals: Mapping[str, Sequence[tuple[float, float] | None]] | None = None,
               xlabels: Sequence[str] | None = None, ylabel: str = "", xlabel: str = "",
               percent: bool = False, floor0: bool = True, colors: Mapping[str, str] | None = None) -> str:
    """Lines over a numeric x axis (``xlabels`` names categorical positions 0..n-1),
    with an interval whisker at each point that has one.  ``colors`` fixes a series'
    colour (so one series keeps its colour across charts)."""
    names = list(series)
    flat = [v for s in series.values() for v in s]
    if intervals:
        flat += [b for iv in intervals.values() for pair in iv if pair for b in pair if b is not None]
    lo, hi = _range(flat, floor0)
    extra = 15 * (legend_rows(names) - 1)
    h = H + extra
    out = _open(title, W, h)
    axes, fy = _axes(lo, hi, ylabel, xlabel, percent=percent, h=h, extra=extra)
    out += axes
    xs = [float(v) for v in x]
    xlo, xhi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    if xhi == xlo:
        xlo, xhi = xlo - 1, xhi + 1
    pad = 18

    def fx(v: float) -> float:
        return LEFT + pad + (v - xlo) / (xhi - xlo) * (W - LEFT - RIGHT - 2 * pad)

    if xlabels is not None:
        ticks = list(zip(xs, xlabels))
    else:
        ticks = [(v, fmt_tick(v)) for v in nice_ticks(xlo, xhi, 6) if xlo - 1e-9 <= v <= xhi + 1e-9]
    step = max(1, math.ceil(len(ticks) / 12))
    for v, lab in ticks[::step]:
        yb = h - extra - BOTTOM
        out.append(f'<line x1="{_n(fx(v))}" y1="{yb}" x2="{_n(fx(v))}" y2="{yb + 4}" stroke="#333"/>')
        out.append(_t(fx(v), yb + 16, lab, size=10))
    cols = [(colors or {}).get(name, PALETTE[k % len(PALETTE)]) for k, name in enumerate(names)]
    for k, name in enumerate(names):
        c = cols[k]
        pts = [(fx(xv), fy(yv), xv, yv) for xv, yv in zip(xs, series[name]) if yv is not None and math.isfinite(yv)]
        if len(pts) > 1:
            out.append(f'<polyline points="{" ".join(f"{_n(a)},{_n(b)}" for a, b, _, _ in pts)}" fill="none" '
                       f'stroke="{c}" stroke-width="2"/>')
        iv = intervals.get(name) if intervals else None
        for i, (xv, yv) in enumerate(zip(xs, series[name])):
            pair = iv[i] if iv and i < len(iv) else None
            if pair and all(p is not None and math.isfinite(p) for p in pair):
                xm = fx(xv) + (k - (len(names) - 1) / 2) * 3  # small dodge so whiskers do not overlap
                out.append(f'<path d="M{_n(xm)} {_n(fy(pair[0]))}V{_n(fy(pair[1]))}" stroke="{c}" '
                           f'stroke-width="1.2" opacity="0.7"/>')
        if len(pts) <= 40:
            for a, b, xv, yv in pts:
                out.append(f'<circle cx="{_n(a)}" cy="{_n(b)}" r="3" fill="{c}"><title>{escape(name)}: '
                           f'{escape(fmt_tick(xv))} -> {yv:.4g}</title></circle>')
    if len(names) > 1 or names and names[0]:
        out += _legend(names, LEFT, h - 7 - extra, cols, shapes=["line"] * len(names))
    out.append("</svg>")
    return "\n".join(out)


def scatter_chart(title: str, layers: Sequence[Mapping], *, xlabel: str = "", ylabel: str = "",
                  w: int = W, h: int = 380) -> str:
    """Point layers drawn in order.  A layer: ``name``, ``points`` [(x, y)], ``color``,
    and ``style`` one of "dot" (default), "line" (joined, in the given order), "path"
    (numbered points joined by a thin line: a sequence of moves)."""
    allp = [p for layer in layers for p in layer["points"]]
    xlo, xhi = _range([p[0] for p in allp])
    ylo, yhi = _range([p[1] for p in allp])
    out = _open(title, w, h)
    axes, fy = _axes(ylo, yhi, ylabel, xlabel, percent=False, w=w, h=h)
    out += axes
    xt = nice_ticks(xlo, xhi, 6)
    xlo, xhi = xt[0], xt[-1]

    def fx(v: float) -> float:
        return LEFT + (v - xlo) / (xhi - xlo) * (w - LEFT - RIGHT)

    for v in xt:
        out.append(f'<line x1="{_n(fx(v))}" y1="{h - BOTTOM}" x2="{_n(fx(v))}" y2="{h - BOTTOM + 4}" stroke="#333"/>')
        out.append(_t(fx(v), h - BOTTOM + 16, fmt_tick(v), size=10))
    for layer in layers:
        c, style, pts = layer.get("color", "#888"), layer.get("style", "dot"), list(layer["points"])
        if style == "line" and len(pts) > 1:
            out.append(f'<polyline points="{" ".join(f"{_n(fx(a))},{_n(fy(b))}" for a, b in pts)}" fill="none" '
                       f'stroke="{c}" stroke-width="2"/>')
            for a, b in pts:
                out.append(f'<circle cx="{_n(fx(a))}" cy="{_n(fy(b))}" r="3.5" fill="#fff" stroke="{c}" stroke-width="1.5"/>')
        elif style == "path":
            if len(pts) > 1:
                out.append(f'<polyline points="{" ".join(f"{_n(fx(a))},{_n(fy(b))}" for a, b in pts)}" fill="none" '
                           f'stroke="{c}" stroke-width="1" stroke-dasharray="3 2" opacity="0.7"/>')
            where: dict[tuple, list[int]] = {}
            for i, p in enumerate(pts, 1):
                where.setdefault(tuple(p), []).append(i)
            for (a, b), seq in where.items():  # a point offered more than once is drawn once, with every index
                lab = spans(seq)
                out.append(f'<circle cx="{_n(fx(a))}" cy="{_n(fy(b))}" r="5" fill="{c}" opacity="0.85">'
                           f'<title>{escape(layer["name"])} {escape(lab)}: ({a:g}, {b:g})</title></circle>')
                out.append(_t(fx(a) + 7, fy(b) - 6, lab, anchor="start", size=10, extra=f' fill="{c}" font-weight="bold" paint-order="stroke" stroke="#fff" stroke-width="3"'))
        else:
            for a, b in pts:
                out.append(f'<circle cx="{_n(fx(a))}" cy="{_n(fy(b))}" r="2.5" fill="{c}"/>')
    shapes = {"line": "line", "path": "dot", "dot": "dot"}
    out += _legend([layer["name"] for layer in layers], LEFT, h - 7, [layer.get("color", "#888") for layer in layers],
                   shapes=[shapes.get(layer.get("style", "dot"), "dot") for layer in layers])
    out.append("</svg>")
    return "\n".join(out)


def spans(seq: Sequence[int]) -> str:
    """1,2,3,5 -> "1-3,5"."""
    out, start = [], None
    for k, v in enumerate(seq):
        if start is None:
            start = v
        if k + 1 == len(seq) or seq[k + 1] != v + 1:
            out.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return ",".join(out)


def _heat(v: float, lo: float, hi: float) -> str:
    """White -> blue."""
    f = 0.0 if hi <= lo else max(0.0, min(1.0, (v - lo) / (hi - lo)))
    r, g, b = (int(255 + (t - 255) * f) for t in (8, 81, 156))
    return f"#{r:02x}{g:02x}{b:02x}"


def _wrap(text: str, width: float, char_w: float = 5.6) -> list[str]:
    """``text`` split at spaces into lines of at most ``width`` pixels (about ``char_w``
    per character at font size 10); a single word wider than that stays whole."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and (len(lines[-1]) + 1 + len(word)) * char_w <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def heatmap(title: str, rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[float | None]], *,
            fmt: str = "{:.2f}", xlabel: str = "", ylabel: str = "", col_scale: bool = False) -> str:
    """A grid of coloured cells with their values written in.  ``col_scale`` colours each
    column on its own range (for columns in different units)."""
    label_w = max(60, 7 * max((len(r) for r in rows), default=4))
    cw = max(44.0, min(90.0, (W - label_w - 20) / max(1, len(cols))))
    ch = 26
    heads = [_wrap(str(c), cw - 4) for c in cols]  # a label wider than its column goes on several lines
    extra = 12 * (max((len(lines) for lines in heads), default=1) - 1)
    w = int(label_w + cw * len(cols) + 20)
    h = int(TOP + 34 + extra + ch * len(rows) + (30 if xlabel else 12))
    out = _open(title, max(w, 320), h)
    y_top = TOP + 30 + extra
    flat = [v for row in values for v in row if v is not None]
    lo, hi = (min(flat), max(flat)) if flat else (0.0, 1.0)
    for j, lines in enumerate(heads):
        for k, line in enumerate(lines):
            out.append(_t(label_w + cw * j + cw / 2, y_top - 8 - 12 * (len(lines) - 1 - k), line, size=10))
    for i, r in enumerate(rows):
        y = y_top + ch * i
        out.append(_t(label_w - 6, y + ch / 2 + 4, r, anchor="end", size=10))
        for j, v in enumerate(values[i]):
            x = label_w + cw * j
            if v is None:
                out.append(f'<rect x="{_n(x)}" y="{y}" width="{_n(cw - 1)}" height="{ch - 1}" fill="#f3f3f3"/>')
                out.append(_t(x + cw / 2, y + ch / 2 + 4, "-", size=10))
                continue
            if col_scale:
                col = [row[j] for row in values if row[j] is not None]
                clo, chi = min(col), max(col)
            else:
                clo, chi = lo, hi
            fill = _heat(v, clo, chi)
            dark = (0.0 if chi <= clo else (v - clo) / (chi - clo)) > 0.55
            out.append(f'<rect x="{_n(x)}" y="{y}" width="{_n(cw - 1)}" height="{ch - 1}" fill="{fill}">'
                       f'<title>{escape(r)} / {escape(cols[j])}: {escape(fmt.format(v))}</title></rect>')
            out.append(_t(x + cw / 2, y + ch / 2 + 4, fmt.format(v), size=10,
                          extra=' fill="#fff"' if dark else ""))
    if xlabel:
        out.append(_t(label_w + cw * len(cols) / 2, h - 8, xlabel, size=11))
    if ylabel:
        out.append(_t(6, TOP + 14, ylabel, anchor="start", size=10, extra=' fill="#555"'))
    out.append("</svg>")
    return "\n".join(out)


def stacked_bars(title: str, rows: Sequence[str], parts: Sequence[str], shares: Sequence[Sequence[float | None]],
                 *, colors: Sequence[str] = ("#009E73", "#BBBBBB", "#D55E00")) -> str:
    """Horizontal 100% bars, one per row, split into ``parts`` (shares summing to 1)."""
    label_w = max(80, 7 * max((len(r) for r in rows), default=4))
    bh, gap = 20, 8
    h = TOP + 16 + (bh + gap) * len(rows) + 40
    out = _open(title, W, h)
    x0, x1 = label_w, W - RIGHT - 10
    for i, (r, row) in enumerate(zip(rows, shares)):
        y = TOP + 12 + (bh + gap) * i
        out.append(_t(x0 - 6, y + bh / 2 + 4, r, anchor="end", size=10))
        if any(v is None for v in row):
            out.append(_t(x0 + 4, y + bh / 2 + 4, "no data", anchor="start", size=10, extra=' fill="#888"'))
            continue
        x = x0
        for k, v in enumerate(row):
            wd = (x1 - x0) * v
            if wd <= 0:
                continue
            out.append(f'<rect x="{_n(x)}" y="{y}" width="{_n(wd)}" height="{bh}" fill="{colors[k % len(colors)]}">'
                       f'<title>{escape(r)}: {escape(parts[k])} {100 * v:.1f}%</title></rect>')
            if wd > 34:
                out.append(_t(x + wd / 2, y + bh / 2 + 4, f"{100 * v:.0f}%", size=10,
                              extra=' fill="#fff"' if k != 1 else ""))
            x += wd
    out += _legend(parts, x0, h - 12, colors)
    out.append("</svg>")
    return "\n".join(out)
