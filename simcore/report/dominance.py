"""Dominance in the report: the H1-H4 behaviours and utterance counts per relation
pair as heat maps, the outcome per pair, and the step-through (each utterance with the
response tree, branch and reason the transcript records: ``hidden.figure``,
``hidden.rule``, ``hidden.why``).
"""

from __future__ import annotations

from simcore.report import svg
from simcore.report.load import need
from simcore.report.page import esc, figure, missing, note, num, table
from simcore.report.steps import Step
from simcore.rules import rules
from simcore.ruletable import lookup

SYSTEM = "dominance"
H = (("self_centred", "H1 self-centred"), ("concessions_per_dialogue", "H2 concessions"),
     ("demanding", "H3 demanding"), ("lead_share", "H4 leads own values (simcore)"))
COUNTS = ("proposals", "asks", "states", "accepts", "rejects", "concessions", "leads", "subject_changes")
#: reported beside H1-H4 in the pooled table (the subject-change count, whose values steer)
EXTRA = (("proposal_share", "proposals vs questions (H1, notes)"),
         ("subject_change_share", "H4 opens sub-negotiations (reference notes)"),
         ("forwarded_share", "booked values put forward"),
         ("booked_proposer_share", "booked option proposed"))
OUTCOMES = ("booked", "dead-end", "stalled", "turn-limit", "unreadable")

KIND = "the agent__user relation pair"

#: the metrics a sweep of this system draws (``simcore report`` on a sweep): patterns capturing
#: (series, metric), and the metrics among them that are shares
SWEEP_HEADLINE = (r"results\.([^.]+)\.(success_rate|mean_turns)$",)
SWEEP_PERCENT = {"success_rate"}


def kind(run_id: str) -> str:
    """agent__user relation pair"""
    return run_id.rsplit("/", 1)[-1]


def _label(pair: str) -> str:
    a, _, u = pair.partition("__")
    return f"{a} vs {u}"


def fig_behaviours(m: dict) -> str:
    res = m.get("results") or {}
    if not res:
        return missing("behaviours: no results in metrics.json.")
    pairs = list(res)
    figs = []
    for side in ("agent", "user"):
        vals = [[(res[p].get(side) or {}).get(k) for k, _ in H] for p in pairs]
        figs.append(figure(svg.heatmap(f"H1-H4 of the {side}, per relation pair", [_label(p) for p in pairs],
                                       [lab for _, lab in H], vals, col_scale=True, ylabel="agent vs user"),
                           f"The four behaviours of the original study as counted for the {side} "
                           "(simcore.metrics.dominance); each column coloured on its own range.",
                           f"dom-h-{side}"))
    counts = [[(res[p].get("agent") or {}).get(k) for k in COUNTS] for p in pairs]
    figs.append(figure(svg.heatmap("Agent utterances per dialogue, by kind", [_label(p) for p in pairs],
                                   [k.replace("_", " ") for k in COUNTS],
                                   counts, fmt="{:.1f}", col_scale=True, ylabel="agent vs user"),
                       "Mean count per dialogue of each kind of agent utterance.", "dom-counts"))
    rel = m.get("behaviours_by_relation") or {}
    tab = ""
    if rel:
        cols = H + tuple(e for e in EXTRA if any(e[0] in b for b in rel.values()))
        tab = table(["speaker's relation"] + [lab for _, lab in cols],
                    [[r] + [num(b.get(k), 3) for k, _ in cols] for r, b in rel.items()],
                    caption="Pooled over every pair and both roles; expected (original study): dominant > "
                            "submissive on H1, H3, H4 and dominant < submissive on H2")
    return '<div class="figs">' + "".join(figs) + "</div>" + tab + h4_table(m)


def _share(v) -> str:
    return "undefined" if v is None else num(v, 3)


def h4_table(m: dict) -> str:
    """H4 against each partner relation, both counts as measured; a share with no leads (or no
    subject openings) on either side is shown as undefined, never 0."""
    h4 = m.get("h4_by_partner") or {}
    rows = [[rel, partner, _share(v.get("leads_own_values")), _share(v.get("opens_subjects"))]
            for rel, by in h4.items() for partner, v in by.items()]
    if not rows:
        return ""
    return table(["speaker's relation", "partner", "H4 leads own values (simcore)",
                  "H4 opens sub-negotiations (reference notes)"], rows,
                 caption="H4 per partner (both roles): this side's share of both sides' leads or subject "
                         "openings; undefined where neither side ever led (or opened a subject)")


def fig_outcomes(m: dict) -> str:
    res = m.get("results") or {}
    if not res:
        return missing("outcomes: no results in metrics.json.")
    pairs = list(res)
    kinds = list(OUTCOMES) + sorted({o for r in res.values() for o in (r.get("outcomes") or {})} - set(OUTCOMES))
    shares = [[(res[p].get("outcomes") or {}).get(o, 0.0) for o in kinds] for p in pairs]
    out = figure(svg.stacked_bars("Outcome per relation pair", [_label(p) for p in pairs], kinds, shares,
                                  colors=("#009E73", "#E69F00", "#D55E00", "#999999", "#CC79A7", "#56B4E9")),
                 "Share of dialogues booked, ended in a dead end, stopped by the turn limit, or unreadable.",
                 "dom-outcomes")
    exits = sorted({e for r in res.values() for e in (r.get("exits") or {})})
    rows = [[_label(p), num(r.get("success_rate"), percent=True), num(r.get("mean_turns"), 1),
             num(r.get("agent_satisfaction"), 3), num(r.get("user_satisfaction"), 3)]
            + [num((r.get("exits") or {}).get(e, 0.0), percent=True) for e in exits] + [num(r.get("fallbacks"))]
            for p, r in res.items()]
    return out + table(["agent vs user", "success", "mean turns", "agent satisfaction", "user satisfaction"]
                       + [f"ended by {e}" for e in exits] + ["fallbacks"], rows)


def sections(run, sample=None) -> list[tuple[str, str, str]]:
    m = run.metrics
    cfg = m.get("config") or {}
    exits = ", ".join(f"{k} {cfg[k]}" for k in sorted(cfg) if k.startswith("exit_") and cfg[k] is not None)
    head = note(f"domain {cfg.get('domain', '?')}, {cfg.get('dialogues', '?')} dialogues per pair, "
                f"{cfg.get('max_turns', '?')}-turn limit, agent version {cfg.get('version', '?')} "
                f"(exit rules: {exits or 'the version default'}), root seed {m.get('seed', '?')}.")
    return [("Behaviours per relation pair", "dom-beh", head + fig_behaviours(m)),
            ("Outcome per relation pair", "dom-out", fig_outcomes(m))]


def _act(cue) -> str:
    """A read utterance as words: {"kind": "propose", "type": "cuisine", "value": "Turkish"} ->
    "propose, type cuisine, value Turkish"."""
    if not isinstance(cue, dict):
        return str(cue)
    rest = [f"{k} {v}" for k, v in cue.items() if k != "kind" and v is not None]
    return ", ".join([str(cue.get("kind", "?"))] + rest)


def step_rows(events) -> list[Step]:
    steps = []
    for e in events:
        if e.phase == "end":
            i = e.intent
            tail = f": {i.get('booked')} (booked by {i.get('booked_by')})" if i.get("booked") else ""
            steps.append(Step(f"t{e.round}", "protocol", f"{i.get('outcome')} after {i.get('turns')} turns{tail}",
                              "end of dialogue", "Booking / dead end / turn limit", system=True))
            continue
        need(e, "hidden.rule")
        h = e.hidden
        inputs = [("relation", esc(h.get("relation"))), ("why", esc(h.get("why", "")))]
        heard = [f"{esc(who)}: {esc(_act(c))}" for who, c in (e.cues or {}).items()]
        if heard:
            inputs.append(("what the listener read", "<br>".join(heard)))
        src = h.get("figure") or ""
        src = f"response tree {src}" if src.startswith("Fig") else src
        row = _row(h.get("rule", ""))
        if row is not None:  # the rule's row in the trees' data (policies/dominance_rules.py)
            inputs.append(("branch (rule table)", esc(f"{row.condition} -> {row.action}")))
            src = f"{src}: {row.source}" if src else row.source
        steps.append(Step(f"t{e.round}", f"{e.speaker} ({h.get('relation', '')})", e.text, h.get("rule", ""), src,
                          tuple(inputs)))
    return steps


def _row(rule_id: str):

    return lookup(rules("dominance"), "rule", rule_id)


def outcome(events) -> str:
    end = next((e for e in reversed(events) if e.phase == "end"), None)
    if end is None:
        return f"{len(events)} events"
    i = end.intent
    return f"{i.get('outcome')} after {i.get('turns')} turns" + (f": {i.get('booked')}" if i.get("booked") else "")
