"""MIND in the report: Table 1 with 95% intervals, DR by group size, proposer win rate
by w, ToM confusion, the judge's verdicts per criterion, and the step-through.

The rule labels and passages of the step-through follow the rule tables of
:mod:`policies.mind` (voter rows 1-5 as in ``mind-v2``, proposer rows 1-4) and :mod:`policies.mad`
(Base rows 1-5); a transcript names the row by the decision's strategy/action and
reason, which the protocol records with each vote and update.
"""

from __future__ import annotations

import re

from scenarios.travel import ITEMS
from simcore.report import svg
from simcore.report.load import need
from simcore.report.model import decisions_html
from simcore.report.page import esc, figure, missing, note, num, table
from simcore.report.steps import Step
from simcore.rules import rules
from simcore.ruletable import lookup

SYSTEM = "mind"
TABLE1 = (("DHR", "DHR", True), ("DR", "DR", True), ("F", "F", True), ("high_w_hit", "High-w Hit", True),
          ("J", "J", False), ("S_total", "S_total", False))
CRITERIA = ("rationality", "alignment", "reason_validity", "change_justification", "fluency", "overall")

# the rule tables are data in the policy modules (simcore.rules); a step names the row that fired
_PREFIX = {"mind-voter": "voter row {}", "mind-voter-no-appraisal": "voter, no appraisal: row {}",
           "mind-proposer": "proposer row {}", "base": "Base row {}"}

#: the metrics a sweep of this system draws (``simcore report`` on a sweep): patterns capturing
#: (series, metric), and the metrics among them that are shares
SWEEP_HEADLINE = (r"results\.([^.]+)\.(DR|DHR|F|S_total|J|high_w_hit)$", r"tom\.([^.]+)\.(acc2)$")
SWEEP_PERCENT = {"DR", "DHR", "F", "high_w_hit", "acc2"}


def _tables(*names: str) -> tuple:

    rows = rules("mind")
    return tuple(r for n in names for r in rows if r.table == n)


KIND = "the variant"


def kind(run_id: str) -> str:
    """mind/s0/g12/mind -> the variant."""
    return run_id.rsplit("/", 1)[-1]


def _lookup(rows: tuple, key: str, reason) -> tuple[str, str]:

    hit = lookup(rows, key, reason)
    if hit is None and reason is None:
        return (key, "this transcript records no reason for the decision (written before simcore recorded it), "
                     "so the rule row cannot be named")
    if hit is None:
        return (f"{key} ({reason})", "rule not in the policy's rule table (simcore.rules)")
    label = _PREFIX.get(hit.table, hit.table + " row {}").format(hit.row)
    # the paper's tables are cited as "Table B7" in the report (the rule data writes "B7")
    source = re.sub(r"^([BDE]\d+)\b", r"Table \1", hit.source)
    return f"{label}: {hit.condition} -> {hit.action}", source


# ------------------------------------------------------------------ figures
def fig_table1(m: dict) -> str:
    res = m.get("results") or {}
    variants = list(res)
    rows = []
    for v in variants:
        r, ci = res[v], res[v].get("ci95") or {}
        row = [v]
        for key, _label, pct in TABLE1:
            cell = num(r.get(key), 2 if key == "S_total" else 3, percent=pct)
            iv = ci.get(key)
            if iv:
                lo, hi = (num(x, 2 if key == "S_total" else 3, percent=pct) for x in iv)
                cell += f" [{lo}, {hi}]"
            row.append(cell)
        rows.append(row)
    out = table(["variant"] + [lab for _, lab, _ in TABLE1], rows,
                caption="Table 1 analogue: value [95% interval]")
    rates = [k for k, _, p in TABLE1 if p]
    series = {v: [res[v].get(k) for k in rates] for v in variants}
    intervals = {v: [tuple(res[v].get("ci95", {}).get(k) or ()) or None for k in rates] for v in variants}
    have_ci = any(res[v].get("ci95") for v in variants)
    out += figure(svg.bar_chart("Table 1 rates by variant", [lab for k, lab, p in TABLE1 if p], series,
                                intervals=intervals, percent=True, ylim=(0.0, 1.0)),
                  "Pooled rates per variant; whiskers: 95% bootstrap interval over groups." if have_ci
                  else "Pooled rates per variant (this run wrote no intervals).", "mind-table1")
    if not have_ci:
        out += missing("95% intervals: this run's metrics.json has no results.*.ci95 (written by simcore runs "
                       "since the report was added); rerun the study to get them.")
    return out


def fig_dr_by_size(m: dict) -> str:
    res = m.get("results") or {}
    sizes = sorted({s for r in res.values() for s in (r.get("DR_by_size") or {})}, key=lambda s: int(s))
    if not sizes:
        return missing("DR by group size: no results.*.DR_by_size in metrics.json.")
    series = {v: [(r.get("DR_by_size") or {}).get(s) for s in sizes] for v, r in res.items()}
    return figure(svg.bar_chart("Debate Ratio by group size (Table 2)", [f"{s} agents" for s in sizes], series,
                                percent=True, ylim=(0.0, 1.0), ylabel="DR"),
                  "Share of items settled by consensus rather than the fallback, by group size.", "mind-dr-size")


def fig_win_by_w(m: dict) -> str:
    res = m.get("results") or {}
    bands = ("1-3", "4-6", "7-8", "9-10")
    series = {v: [(r.get("win_rate_by_w") or {}).get(b) for b in bands] for v, r in res.items()}
    if not any(x is not None for s in series.values() for x in s):
        return missing("proposer win rate by w: no results.*.win_rate_by_w in metrics.json.")
    return figure(svg.line_chart("Proposer win rate by the proposer's w", list(range(len(bands))), series,
                                 xlabels=[f"w {b}" for b in bands], percent=True, ylabel="items won by the proposer"),
                  "Share of items whose final value is the proposer's own value, by its willingness band.",
                  "mind-win-w")


def fig_tom(m: dict) -> str:
    tom = m.get("tom") or {}
    if not tom:
        return note("No variant with appraisal in this run, so no ToM accuracy.")
    rows = [[v, num(t.get("MAE"), 2), num(t.get("pearson"), 2), num(t.get("acc1"), percent=True),
             num(t.get("acc2"), percent=True), num(t.get("n"))] for v, t in tom.items()]
    out = table(["variant", "MAE", "Pearson r", "Acc(±1)", "Acc(±2)", "n"], rows,
                caption="Table 3 analogue: ToM inference accuracy (Phase 2a appraisals)")
    figs = []
    for v, t in tom.items():
        conf = t.get("confusion")
        if not conf:
            continue
        bands = conf["bands"]
        counts = conf["counts"]
        shares = [[c / sum(row) if sum(row) else None for c in row] for row in counts]
        figs.append(figure(svg.heatmap(f"ToM confusion: {v}", [f"true {b}" for b in bands],
                                       [f"guessed {b}" for b in bands], shares, fmt="{:.0%}",
                                       xlabel="band of the willingness the voter used"),
                           f"{v}: share of each true band's appraisals by guessed band "
                           f"(row counts {', '.join(str(sum(r)) for r in counts)}).", f"mind-tom-{v}"))
    if figs:
        out += '<div class="figs">' + "".join(figs) + "</div>"
    else:
        out += missing("ToM confusion: this run's metrics.json has no tom.*.confusion (written by simcore "
                       "runs since the report was added).")
    return out


def _words(key: str) -> str:
    return key.replace("_", " ")


def _judge_table(j: dict, rows: list[str], a: str, b: str) -> str:
    """The forced-choice verdicts as numbers: each side's wins, the share of groups whose
    evidence was equal (the coin decided them; they are inside the wins), and the mean
    evidence per side the judge compared (``judge.evidence``)."""
    ev = j.get("evidence") or {}
    cols = ["criterion", f"{a} wins", f"{b} wins", "decided by coin", "not comparable"]
    has_ev = any(isinstance(ev.get(side), dict) for side in (a, b))
    if has_ev:
        cols += [f"{a} mean evidence", f"{b} mean evidence"]
    body = []
    for c in rows:
        row = [_words(c), num(j[c].get("win"), percent=True), num(j[c].get("loss"), percent=True),
               num(j[c].get("tie_break"), percent=True), num(j[c].get("not_comparable"), percent=True)]
        if has_ev:
            row += [num((ev.get(a) or {}).get(c), 3), num((ev.get(b) or {}).get(c), 3)]
        body.append(row)
    return table(cols, body, caption="Judge verdicts per criterion; the coin-decided groups are counted in the wins, the "
                                   "not-comparable ones (a plan had nothing the criterion can check) apart")


def fig_judge(m: dict) -> str:
    j = m.get("judge") or {}
    if not j:
        return note("The judge compares MIND with Base; this run did not have both variants.")
    rows = [c for c in CRITERIA if isinstance(j.get(c), dict)]
    a, b = j.get("a", "A"), j.get("b", "B")
    title = f"Judge: {a} vs {b} per criterion ({j.get('n', '?')} groups)"
    by = j.get("judged_by") if isinstance(j.get("judged_by"), dict) else None
    if by:  # --role mind.judge=BACKEND
        caption = (f"Table 4 analogue: verdicts per Table E16 criterion, judged by {by.get('backend')} in the "
                   f"mind.judge role (E16-E17's prompt); the rule-based blind judge gave the verdict on "
                   f"{by.get('stand_in')} of {j.get('n', '?')} groups, where the answer was refused.")
    else:
        caption = ("Table 4 analogue: the rule-based judge's verdicts per Table E16 criterion; E16 asks "
                   "for A or B, so equal evidence was settled by a fair coin (the share it decided is in the table).")
    if rows and "tie_break" in j[rows[0]]:  # forced choice (E16: A or B); equal evidence settled by a coin
        shares = [[j[c].get("win"), j[c].get("loss")] for c in rows]
        return figure(svg.stacked_bars(title, [_words(c) for c in rows], (f"{a} wins", f"{b} wins"), shares),
                      caption, "mind-judge") + _judge_table(j, rows, a, b)
    shares = [[j[c].get("win"), j[c].get("tie"), j[c].get("loss")] for c in rows]
    return figure(svg.stacked_bars(title, [_words(c) for c in rows], (f"{a} wins", "tie", f"{b} wins"), shares),
                  "Table 4 analogue: the rule-based judge's verdicts per Table E16 criterion.", "mind-judge")


def sections(run, sample=None) -> list[tuple[str, str, str]]:
    m = run.metrics
    head = note(f"{m.get('groups', '?')} groups x {m.get('seeds', '?')} seed(s), group sizes "
                f"{m.get('sizes', '?')}, tone noise {m.get('tone_noise', '?')}, root seed {m.get('seed', '?')}, "
                f"fallbacks {m.get('fallbacks', '?')}.")
    return [("Table 1: performance per variant", "mind-t1", head + fig_table1(m)),
            ("Debate Ratio by group size and proposer win rate by w", "mind-dr",
             '<div class="figs">' + fig_dr_by_size(m) + fig_win_by_w(m) + "</div>"),
            ("Theory of mind: guessed vs true willingness", "mind-tom", fig_tom(m)),
            ("Judge: verdicts per criterion", "mind-judge-sec", fig_judge(m))]


# ------------------------------------------------------------------ step-through
def _items(events) -> dict:
    """item -> (proposer id, ws, values) from the 1-pick events."""
    out = {}
    for e in events:
        if e.phase == "1-pick":
            out[e.item] = e
    return out


def step_rows(events) -> list[Step]:

    base = kind(events[0].run) == "base"
    voter, proposer = (_tables("base"),) * 2 if base else (_tables("mind-voter"), _tables("mind-proposer"))
    picks = _items(events)
    steps = []
    for e in events:
        label = ITEMS[e.item].label if e.item in ITEMS else (e.item or "")
        h = e.hidden
        if e.phase == "1-propose":
            w = h.get("w") or {}
            steps.append(Step("Phase 1", e.speaker, e.text, "states its preference on every item",
                              "Alg. 1 line 2: each agent proposes its value with tone conditioned on w",
                              (("w per item", esc(", ".join(f"{k} {v}" for k, v in w.items()))),)))
        elif e.phase == "1-pick":
            need(e, "intent.proposer", "intent.proposal")
            steps.append(Step(f"{label}", "protocol", "", f"proposer {e.intent['proposer']} opens with "
                              f"\"{e.intent['proposal']}\"", "Alg. 1 line 3: randomly selected initial proposal",
                              (("members' values", esc(h.get("values"))), ("members' w", esc(h.get("w")))),
                              system=True))
        elif e.phase == "2-vote":
            need(e, "intent.vote", "hidden.strategy")
            table = voter
            if not base and "used_w" in h and h["used_w"] is None and h["strategy"] in ("push", "compromise", "yield"):
                table = _tables("mind-voter-no-appraisal", "mind-voter")  # no appraisal: the band-stance rows first
            rule, src = _lookup(table, h["strategy"], h.get("reason"))
            pick = picks.get(e.item)
            true_w = None
            if pick is not None:
                ids = [pid for pid in _member_ids(events)]
                if pick.intent["proposer"] in ids and isinstance(pick.hidden.get("w"), list):
                    true_w = pick.hidden["w"][ids.index(pick.intent["proposer"])]
            g, used = h.get("guessed_w"), h.get("used_w")
            inputs = [("own value, w", esc(f"\"{h.get('own_value')}\", w={h.get('w')}"))]
            if not base:
                if "used_w" in h and used is None and g is None:
                    seen = "none made (no appraisal in this variant, or not needed)"
                else:
                    seen = f"words read as {g if g is not None else 'no marker'}" + (f", g = {used}" if used is not None else "")
                inputs.append(("appraisal g of the proposer", esc(seen)))
                if true_w is not None:
                    inputs.append(("proposer's true w", esc(true_w)))
            inputs.append(("strategy -> vote", esc(f"{h['strategy']} -> {e.intent['vote']}"
                                                   + (f" \"{e.intent.get('revised_value')}\"" if e.intent.get("revised_value") else ""))))
            steps.append(Step(f"R{e.round} · {label}", e.speaker, e.text, rule, src, tuple(inputs),
                              decisions_html(h)))
        elif e.phase == "3-update":
            need(e, "intent.action", "intent.value")
            rule, src = _lookup(proposer, e.intent["action"], h.get("reason"))
            inputs = (("own value, w", esc(f"\"{h.get('own_value')}\", w={h.get('w')}")),
                      ("dissent", esc(h.get("dissent"))),
                      ("dissenters' w read from their words", esc(h.get("read_dissent_w"))),
                      ("action", esc(f"{e.intent['action']} \"{e.intent['value']}\"")))
            steps.append(Step(f"R{e.round} · {label}", e.speaker, e.text, rule, src, inputs, decisions_html(h)))
        elif e.phase == "result":
            steps.append(Step(f"R{e.round} · {label}", "protocol", "",
                              f"consensus on \"{e.intent.get('value')}\" ({e.intent.get('agree')} of "
                              f"{e.intent.get('voters')} voters agree)", "Alg. 1 line 12: majority agree",
                              system=True))
        elif e.phase == "fallback":
            steps.append(Step(f"R{e.round} · {label}", "protocol", "",
                              f"no consensus: fallback to \"{e.intent.get('value')}\" of {e.intent.get('holder')}",
                              "Alg. 1 line 15: select v_i where w_i = max(w_all)", system=True))
        else:
            steps.append(Step(f"R{e.round}", e.speaker, e.text, e.phase, system=e.speaker == "protocol"))
    return steps


def _member_ids(events) -> list[str]:
    """Member ids in group order (a0, a1, ...), from the Phase-1 speakers."""
    return [e.speaker for e in events if e.phase == "1-propose"]


def outcome(events) -> str:
    n = sum(e.phase == "result" for e in events)
    f = sum(e.phase == "fallback" for e in events)
    return f"{n + f} items, {n} by consensus, {f} by fallback"
