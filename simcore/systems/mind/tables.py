"""The MIND study's tables: Table 1 (performance), Table 2 (Debate Ratio by group size),
Table 3 (ToM inference accuracy), Table 4 (the judge) and the proposer's win rate by its
willingness, from the study's metrics."""

from __future__ import annotations

from simcore.metrics.mind_judge import CRITERION_NOTES
from simcore.readings import accuracy_cell
from simcore.tables import Num, Table

def share_cell(x, ci=None) -> Num:
    """A share: "79.1%" on the terminal, 0.791 (and its interval) in the CSV."""
    lo, hi = ci if ci else (None, None)
    return Num(x, "-" if x is None else f"{100 * x:.1f}%", lo, hi)


def number_cell(x, nd=4, ci=None) -> Num:
    lo, hi = ci if ci else (None, None)
    return Num(x, "-" if x is None else f"{x:.{nd}f}", lo, hi)


def reading_cell(x) -> Num:
    """A reading accuracy: a share as :func:`_p` shows it, "n/a" when nothing was read."""
    return accuracy_cell(x, None if x is None else f"{100 * x:.1f}%")


def _ci(r: dict, key: str):
    iv = (r.get("ci95") or {}).get(key)
    return tuple(iv) if iv else None


def tables(m: dict) -> list[Table]:
    res = m["results"]
    out = [Table("table1_performance", f"Table 1 analogue: performance ({m['groups']} groups x {m['seeds']} seed(s))",
                 ("variant", "DHR", "DR", "J", "F", "S_total", "High-w Hit"),
                 [(v, share_cell(r["DHR"], _ci(r, "DHR")), share_cell(r["DR"], _ci(r, "DR")), number_cell(r["J"], ci=_ci(r, "J")),
                   share_cell(r["F"], _ci(r, "F")), number_cell(r["S_total"], 2, _ci(r, "S_total")),
                   share_cell(r["high_w_hit"], _ci(r, "high_w_hit")))
                  for v, r in res.items()])]
    sizes = sorted({k for r in res.values() for k in r["DR_by_size"]}, key=int)
    out.append(Table("table2_dr_by_size", "Table 2 analogue: Debate Ratio by group size",
                     ("variant",) + tuple(f"{s} agents" for s in sizes),
                     [(v,) + tuple(share_cell(r["DR_by_size"].get(s)) for s in sizes) for v, r in res.items()]))
    if m["tom"]:
        out.append(Table("table3_tom", "Table 3 analogue: ToM inference accuracy (Phase 2a appraisals)",
                         ("variant", "MAE", "Pearson r", "Acc(+-1)", "Acc(+-2)", "n", "readings right", "readings"),
                         [(v, number_cell(t["MAE"], 2), number_cell(t["pearson"], 2), share_cell(t["acc1"]), share_cell(t["acc2"]), t["n"],
                           reading_cell(t.get("reading_accuracy")), t.get("readings"))
                          for v, t in m["tom"].items()],
                         note="readings right: of every reading the checks accepted (Phase 2a and 3), the share "
                              "in the tone band of the willingness the speaker's words were to carry (its w; no "
                              "marker for a speaker without tone); readings: how many were accepted (refused ones "
                              "are counted fallbacks)"))
    if m["judge"]:
        j = m["judge"]
        ev = j.get("evidence", {})
        a, b = j.get("a", "mind"), j.get("b", "base")
        blind = j.get("judge", "v1") == "blind"
        rows = [(c + (f" ({CRITERION_NOTES[c]})" if blind and CRITERION_NOTES.get(c) else ""),
                 share_cell(j[c]["win"]), share_cell(j[c]["loss"]), share_cell(j[c]["tie_break"]),
                 share_cell(j[c].get("not_comparable")),
                 number_cell(ev.get(a, {}).get(c), 3) if c in ev.get(a, {}) else "",
                 number_cell(ev.get(b, {}).get(c), 3) if c in ev.get(b, {}) else "")
                for c in ("rationality", "alignment", "reason_validity", "change_justification", "fluency",
                          "overall", "overall_no_fluency") if c in j and j[c]["win"] is not None]
        by = j.get("judged_by")
        if by:  # --role mind.judge=BACKEND: the model named the winners, the blind judge where it was refused
            title = (f"Table 4 analogue: judged by {by['backend']} in the mind.judge role (E16-E17's prompt); "
                     f"the rule-based blind judge on {by['stand_in']} of {j['n']} groups, where the answer was "
                     f"refused; {a} vs {b} ({j['n']} groups)")
        else:
            judge = ("blind judge: E17's inputs only (no alphas), one test for both plans" if blind
                     else f"{j.get('judge', 'v1')} judge: reads each member's alpha")
            title = (f"Table 4 analogue: rule-based {judge}, {a} vs {b} ({j['n']} groups; equal evidence settled "
                     "by a fair coin, as E16 asks for A or B)")
        out.append(Table("table4_judge", title,
                         ("criterion", f"{a} wins", f"{b} wins", "decided by coin", "not comparable",
                          f"{a} evidence", f"{b} evidence"), rows,
                         note="not comparable: a plan had nothing the criterion can check in the group (e.g. "
                              "no stated stake for the stake-based tests); neither side wins it, and the overall "
                              "winner is the side that won more of the comparable criteria"))
    out.append(Table("proposer_win_by_w", "Proposer win rate by proposer w",
                     ("variant", "w 1-3", "w 4-6", "w 7-8", "w 9-10"),
                     [(v,) + tuple(share_cell(r["win_rate_by_w"][b]) for b in ("1-3", "4-6", "7-8", "9-10"))
                      for v, r in res.items()]))
    return out
