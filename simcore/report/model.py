"""A decision a model made in a role, in the step-through.

An event of a decision a role on a backend made (``--role ROLE=BACKEND``) carries the
exchange behind it in ``hidden.model_decisions`` (:mod:`mockllm.exchanges`).
:func:`decisions_html` shows each: what was decided and the stand-in's decision, the
prompt (in a ``<details>`` element, closed: it opens without a script), then every ask
(astra.tactic's five samples) with each raw answer, what the parser made of it or why it
refused it (the repair turn that followed, in the words the model was sent), and a
fallback to the stand-in.  All text goes through :func:`simcore.report.page.esc`
(control characters written visibly).  An event without notes gets nothing, so the page
of a run with no role on a backend is unchanged; the styles are inline for the same
reason (the page's style sheet stays as it was).
"""

from __future__ import annotations

from typing import Any, Mapping

from mockllm.client import repair_messages
from mockllm.exchanges import short
from simcore.report.page import esc
from simcore.transcript import MODEL_DECISIONS

#: inline styles (the page's shared style sheet is left as it is)
_BOX = "border-left:3px solid #CC79A7;padding:2px 8px;margin:6px 0"
_PRE = ("white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0;padding:3px 6px;background:#f6f7f9;"
        "font-size:12px;max-height:24em;overflow-y:auto")
_CODE = "white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px"
_NARROW = "white-space:nowrap;overflow-wrap:normal"


def _value(v: Any) -> str:
    return esc(short(v))


def _prompt(prompt, label: str = "prompt") -> str:
    msgs = [m for m in prompt or () if isinstance(m, (list, tuple)) and len(m) == 2]
    chars = sum(len(str(c)) for _, c in msgs)
    body = "".join(f'<div><b>{esc(role)}</b><pre style="{_PRE}">{esc(content)}</pre></div>' for role, content in msgs)
    return (f"<details><summary>{esc(label)} ({len(msgs)} message{'s' if len(msgs) != 1 else ''}, "
            f"{chars} characters)</summary>{body}</details>")


def _answers(ask: Mapping[str, Any]) -> list[str]:
    """One table row per answer: try, raw answer, what the parser made of it."""

    answers = list(ask.get("answers") or ())
    rows = []
    for k, a in enumerate(answers):
        if "error" in a:
            raw, parse = '<span class="note">(no answer)</span>', f"backend error: {esc(a['error'])}"
        else:
            raw = f'<code style="{_CODE}">{esc(a.get("text", ""))}</code>'
            if a.get("refused") is None:
                parse = f"parsed: <b>{_value(ask.get('value'))}</b>"
            else:
                parse = f"refused: {esc(a['refused'])}"
                if k + 1 < len(answers):  # a repair turn followed: the words the model was sent
                    turn = repair_messages((), "", str(a["refused"]))[-1].content
                    parse += (f'<br><span class="note">repaired: the answer went back to the model with '
                              f'the user turn "{esc(turn)}"</span>')
        rows.append((k + 1, raw, parse))
    return [f'<td style="{_NARROW}">{k}</td><td>{raw}</td><td>{parse}</td>' for k, raw, parse in rows]


def note_html(n: Mapping[str, Any]) -> str:
    asks = list(n.get("asks") or ())
    head = f'<span class="rule">played by a model: {esc(n.get("task"))}</span>'
    if "decision" in n:
        head += f" decided <b>{_value(n['decision'])}</b>"
    if n.get("fallback"):
        head += (" &mdash; no answer could be used: the stand-in decided"
                 + (f" (<b>{_value(n['stand_in'])}</b>)" if "stand_in" in n else ""))
    elif "stand_in" in n:
        same = n.get("stand_in") == n.get("decision")
        head += f" &mdash; the stand-in's decision: {_value(n['stand_in'])}" + (" (the same)" if same else "")
    if n.get("rule"):
        head += f'<br><span class="note">{esc(n["rule"])}</span>'
    if n.get("votes") is not None:
        votes = ", ".join("abstained" if v is None else short(v) for v in n["votes"])
        head += f'<br><span class="note">votes of the {len(n["votes"])} samples: {esc(votes)}</span>'
    many = len(asks) > 1  # (a first column names the sample)
    rows = []
    for k, ask in enumerate(asks):
        cells = _answers(ask)
        tail = ""
        if ask.get("fallback"):
            tail = "no answer taken: counted as a fallback" + (" (this sample does not vote)" if many else "")
        if ask.get("prompt"):
            tail += _prompt(ask["prompt"], "this ask's prompt")
        span = len(cells) + (1 if tail else 0)
        label = f'<td rowspan="{span}" style="{_NARROW}">sample {k + 1}</td>' if many else ""
        for j, c in enumerate(cells):
            rows.append(f"<tr>{label if j == 0 else ''}{c}</tr>")
        if tail:
            rows.append(f'<tr>{"" if cells else label}<td colspan="3" class="note">{tail}</td></tr>')
    cols = ("<th></th>" if many else "") + "<th>try</th><th>raw answer</th><th>parse</th>"
    table = (f'<div class="wrap"><table style="font-size:12px;margin:4px 0"><thead><tr>{cols}</tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table></div>')
    return f'<div class="model" style="{_BOX}">{head}{_prompt(n.get("prompt"))}{table}</div>'


def decisions_html(hidden: Mapping[str, Any]) -> str:
    """The notes of one event (``hidden.model_decisions``) as HTML; "" when it has none."""
    notes = hidden.get(MODEL_DECISIONS) if isinstance(hidden, Mapping) else None
    if not isinstance(notes, list):
        return ""
    return "".join(note_html(n) for n in notes if isinstance(n, Mapping))


__all__ = ["decisions_html", "note_html"]
