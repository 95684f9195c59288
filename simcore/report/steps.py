"""The step-through of one negotiation: a table with every turn's words on the left
and, beside them, the decision that produced them -- its inputs, the rule that fired
and the paper passage the policy's rule table cites for it.

Each system module gives ``step_rows(events) -> list[Step]``; this module lays them
out, picks a sample of negotiations to show, and resolves a ``--negotiation`` id.
"""

from __future__ import annotations

import math

from typing import Callable, Mapping, Sequence

import attrs

from simcore.errors import InputError
from simcore.report.page import esc, kv, slug


@attrs.frozen
class Step:
    turn: str                 # "R1 · item" etc.
    speaker: str
    words: str                # the utterance (plain text; escaped on output)
    rule: str = ""            # the rule that fired (short label)
    source: str = ""          # the paper passage it cites
    inputs: tuple = ()        # (label, html value) pairs
    extra: str = ""           # further HTML (a candidate table ...)
    system: bool = False      # a protocol line, not an agent's turn
    noise: str = ""           # the noise injected at this turn (simcore.noise), marked inline


def rule_html(step: Step) -> str:
    parts = []
    if step.rule:
        parts.append(f'<span class="rule">{esc(step.rule)}</span>')
    if step.source:
        parts.append(f' <span class="src">{esc(step.source)}</span>')
    body = "".join(parts)
    if step.inputs:
        body += kv(step.inputs)
    return body + step.extra


def render_steps(run_id: str, steps: Sequence[Step], *, intro: str = "") -> str:
    rows = []
    for s in steps:
        cls = ' class="sys"' if s.system else ""
        words = esc(s.words).replace("\n", "<br>") if s.words else '<span class="note">(no words)</span>'
        if s.noise:
            words += f'<br><span class="noise-mark"><b>injected noise:</b> {esc(s.noise)}</span>'
        rows.append(f'<tr{cls}><td class="turn">{esc(s.turn)}</td>'
                    f'<td class="say"><span class="who">{esc(s.speaker)}</span>: {words}</td>'
                    f'<td class="why">{rule_html(s)}</td></tr>')
    head = '<colgroup><col class="turn"><col class="say"><col class="why"></colgroup>' + "<thead><tr><th>turn</th><th>what was said</th><th>the decision behind it: rule, passage, inputs</th></tr></thead>"
    return (f'<div class="steps" id="{anchor(run_id)}"><h3>Step-through: {esc(run_id)}</h3>{intro}'
            f'<div class="wrap"><table class="steps">{head}<tbody>{"".join(rows)}</tbody></table></div></div>')


def mark_noise(step_rows: Callable[[list], list], events: Sequence, notes: Mapping[int, str]) -> list:
    """``step_rows(events)`` with each noise note (event seq -> note) on the step its event
    produced: the last step that the event adds to the rows of the events before it (else the
    next step), found by laying out the prefixes of the negotiation up to each noisy event."""
    steps = list(step_rows(events))
    if not notes:
        return steps
    marks: dict[int, list[str]] = {}
    for k, e in enumerate(events):
        note = notes.get(e.seq)
        if note is None:
            continue
        before, upto = len(step_rows(events[:k])) if k else 0, len(step_rows(events[:k + 1]))
        at = min(upto - 1 if upto > before else before, len(steps) - 1)
        if at >= 0:
            marks.setdefault(at, []).append(f"#{e.seq}: {note}")
    return [attrs.evolve(s, noise="; ".join(marks[i])) if i in marks else s for i, s in enumerate(steps)]


def anchor(run_id: str) -> str:
    return "neg-" + slug(run_id)


class Sampler:
    """A ``want(run_id)`` predicate for :func:`simcore.report.load.select_runs` that takes
    the first ``per_kind`` runs of every kind (candidates) as the file is read; :meth:`pick`
    then shows one run for each of at most ``limit`` kinds (:data:`RULE` says how)."""

    def __init__(self, kind: Callable[[str], str], limit: int, per_kind: int = 1):
        self.kind, self.limit, self.per_kind = kind, limit, per_kind
        self.counts: dict = {}
        self.taken: list[str] = []
        self.seen = 0  # negotiations in the transcript (asked once per run id)
        self.noisy_share: float | None = None  # of the candidates with turns kept, set by pick

    def __call__(self, run_id: str) -> bool:
        self.seen += 1
        k = self.kind(run_id)
        if self.counts.get(k, 0) >= self.per_kind:
            return False
        self.counts[k] = self.counts.get(k, 0) + 1
        self.taken.append(run_id)
        return True

    def kinds(self, kinds: Sequence[str]) -> list[str]:
        """At most ``limit`` kinds, in file order: first every kind that brings a value of one
        of its ``/``-separated parts (agent, partner, setup ...) not yet covered, then the rest."""
        covered: set = set()
        first, rest = [], []
        for k in kinds:
            parts = {(i, v) for i, v in enumerate(k.split("/"))}
            (first if parts - covered else rest).append(k)
            covered |= parts
        return (first + rest)[:self.limit]

    def pick(self, got: Mapping[str, list], clean: Callable[[list], bool]) -> dict:
        """One run per chosen kind, among its candidates with their turns kept (more than a
        result event; else all its candidates): noisy runs (``clean`` false) are shown in the
        share the candidates carry them: the i-th kind shown (from 1) shows its first noisy
        candidate while fewer than round(i x share) noisy runs are shown, else its first clean
        one (either, when it has no run of the other sort)."""
        by_kind: dict = {}
        for rid, events in got.items():
            by_kind.setdefault(self.kind(rid), []).append((rid, events))
        full = {k: ([(r, e) for r, e in runs if len(e) > 1] or runs) for k, runs in by_kind.items()}
        marks = {k: [not clean(e) for _, e in runs] for k, runs in full.items()}
        n = sum(len(m) for m in marks.values())
        share = sum(sum(m) for m in marks.values()) / n if n else 0.0
        self.noisy_share = share if n else None
        out, shown_noisy = {}, 0
        for i, k in enumerate(self.kinds(list(full)), start=1):
            want_noisy = shown_noisy < math.floor(i * share + 0.5)
            runs = full[k]
            j = next((j for j, m in enumerate(marks[k]) if m == want_noisy), 0)
            rid, events = runs[j]
            shown_noisy += marks[k][j]
            out[rid] = events
        return out


#: the sample rule, as the report prints it
RULE = ("of the first {per_kind} negotiations of each kind in the file (the candidates), one per kind, "
        "for at most {limit} kinds: first every kind that brings a part of the kind not yet shown "
        "(so every agent, partner and setup appears), then the others, in file order; negotiations "
        "with injected noise are shown in the share the candidates carry them ({share}): the i-th "
        "kind shown shows its first noisy candidate while fewer than round(i x share) noisy ones are "
        "shown, else its first clean one")


def match(run_id: str, wanted: str) -> bool:
    """A ``--negotiation`` id matches a run id exactly or as a trailing part
    (``g3/mind`` matches ``mind/s0/g3/mind``)."""
    return run_id == wanted or run_id.endswith("/" + wanted.strip("/"))


def pick_one(found: Mapping[str, list], wanted: str, source: str, examples: Sequence[str]) -> str:
    if not found:
        shown = ", ".join(list(examples)[:4])
        raise InputError(source, "--negotiation", f"no negotiation {wanted!r} in this run"
                                                  + (f" (ids look like: {shown}, ...)" if shown else ""))
    if len(found) > 1:
        ids = list(found)
        raise InputError(source, "--negotiation", f"{wanted!r} matches {len(ids)} negotiations "
                                                  f"({', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''}); "
                                                  "give the full id")
    return next(iter(found))
