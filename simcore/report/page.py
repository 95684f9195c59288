"""The HTML page: escaping, tables, figures, sections and the one stylesheet.

The page is self-contained: inline CSS, inline SVG, no script, no font or image
fetched from anywhere; links point only at anchors inside the page.  The stylesheet
has a print variant (no navigation column, figures kept whole on a page).
"""

from __future__ import annotations

import math
import re
from html import escape
from typing import Any, Sequence

from simcore.textsafe import visible

CSS = """
:root { --fg:#1d1d1f; --muted:#5b5b66; --line:#d9d9e0; --accent:#0072B2; --bg:#fff; --soft:#f6f7f9; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color:var(--fg); background:var(--bg); }
header.top { padding:18px 28px 10px; border-bottom:1px solid var(--line); }
header.top h1 { margin:0 0 4px; font-size:24px; }
header.top p { margin:2px 0; color:var(--muted); }
nav.toc { padding:8px 28px; border-bottom:1px solid var(--line); background:var(--soft); font-size:14px; }
nav.toc a { margin-right:14px; }
main { max-width:1180px; margin:0 auto; padding:8px 28px 40px; }
h2 { margin:28px 0 6px; padding-top:8px; border-top:2px solid var(--accent); font-size:21px; }
h3 { margin:22px 0 6px; font-size:17px; }
a { color:var(--accent); }
.note { color:var(--muted); font-size:13px; }
.missing { color:#8a4b00; background:#fff6e5; border-left:3px solid #e69f00; padding:4px 10px; font-size:13px; }
.figs { display:grid; grid-template-columns:repeat(auto-fit, minmax(440px, 1fr)); gap:14px 22px; }
figure { margin:8px 0; break-inside:avoid; }
figure svg.chart { width:100%; height:auto; max-width:760px; border:1px solid var(--line); border-radius:4px; }
figcaption { font-size:13px; color:var(--muted); margin-top:4px; }
table { border-collapse:collapse; margin:8px 0 12px; font-size:13px; break-inside:avoid; }
th, td { border:1px solid var(--line); padding:3px 8px; text-align:right; vertical-align:top; }
th { background:var(--soft); text-align:center; }
td:first-child, th:first-child { text-align:left; }
.wrap { overflow-x:auto; }
table.steps { width:100%; font-size:13px; table-layout:fixed; }
table.steps col.turn { width:9%; } table.steps col.say { width:38%; } table.steps col.why { width:53%; }
table.steps td.say, table.steps td.why { overflow-wrap:anywhere; }
table.steps td { text-align:left; }
table.steps td.turn { color:var(--muted); }
table.steps tr.sys td { background:var(--soft); }
.who { font-weight:600; }
.rule { display:inline-block; background:#e8f1f8; border-radius:3px; padding:0 5px; margin:1px 0; font-weight:600; }
.src { color:var(--muted); font-style:italic; }
dl.kv { display:grid; grid-template-columns:fit-content(45%) 1fr; gap:0 10px; margin:4px 0; }
dl.kv dt { color:var(--muted); }
dl.kv dd { margin:0; }
table.cand { font-size:12px; margin:4px 0; }
table.cand td, table.cand th { overflow-wrap:normal; white-space:nowrap; padding:2px 5px; }
table.cand td:nth-child(2) { white-space:normal; }
table.cand tr.chosen td { background:#e6f4ea; font-weight:600; }
ul.sample { columns:2; font-size:14px; }
.noise-mark { color:#a33; font-size:13px; }
@media (max-width:800px) { .figs { grid-template-columns:1fr; } ul.sample { columns:1; } }
@media print {
  nav.toc { display:none; }
  main { max-width:none; padding:0 8mm; }
  body { font-size:11pt; }
  h2 { break-before:page; }
  h2.first { break-before:auto; }
  h2, h3, .steps > .note { break-after:avoid; }
  table.steps thead { display:table-header-group; }
  .wrap { overflow:visible; }
  a { color:inherit; text-decoration:none; }
  table.steps tr { break-inside:avoid; }
}
"""


def esc(x: Any) -> str:
    """HTML-escaped text with its control characters written visibly (``\\x1b``)."""
    return escape(visible("" if x is None else str(x)))


def slug(text: str) -> str:
    """An id usable as a URL fragment."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "x"


def num(v: Any, nd: int = 3, percent: bool = False) -> str:
    """A number for a table cell; '-' for missing; anything else is a TypeError."""
    if v is None or isinstance(v, bool):
        return "-" if v is None else ("yes" if v else "no")
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            return "-"
        if percent:
            return f"{100 * v:.1f}%"
        if isinstance(v, int):
            return str(v)
        return f"{v:.{nd}f}"
    # a string, list or object where metrics.json should hold a number: the caller's
    # simcore.report.checked.reading names the field
    raise TypeError(f"must be real number, not {type(v).__name__}")


def table(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, cls: str = "", caption: str = "",
          raw: bool = False) -> str:
    """An HTML table; cells are escaped text, or pre-built HTML when ``raw``."""
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = []
    for r in rows:
        cells = "".join(f"<td>{c if raw else (num(c) if not isinstance(c, str) else esc(c))}</td>" for c in r)
        body.append(f"<tr>{cells}</tr>")
    cap = f"<caption class=\"note\">{esc(caption)}</caption>" if caption else ""
    klass = f' class="{cls}"' if cls else ""
    return f'<div class="wrap"><table{klass}>{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def figure(svg: str, caption: str, fig_id: str) -> str:
    return f'<figure id="{esc(fig_id)}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def missing(text: str) -> str:
    return f'<p class="missing">Not shown: {esc(text)}</p>'


def note(text: str) -> str:
    return f'<p class="note">{esc(text)}</p>'


def section(title: str, body: str, sec_id: str, *, level: int = 2, first: bool = False) -> str:
    cls = ' class="first"' if first else ""
    return f'<section id="{esc(sec_id)}"><h{level}{cls}>{esc(title)}</h{level}>{body}</section>'


def kv(pairs: Sequence[tuple[str, Any]]) -> str:
    """A definition list of (label, already-escaped HTML value)."""
    return '<dl class="kv">' + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def document(title: str, subtitle: Sequence[str], toc: Sequence[tuple[str, str]], body: str) -> str:
    nav = "".join(f'<a href="#{esc(i)}">{esc(t)}</a>' for i, t in toc)
    sub = "".join(f"<p>{esc(s)}</p>" for s in subtitle)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
            f'<header class="top"><h1>{esc(title)}</h1>{sub}</header>'
            + (f'<nav class="toc">{nav}</nav>' if toc else "")
            + f"<main>{body}</main></body></html>\n")
