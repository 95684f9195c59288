"""The scorable game in the report: MSE by turn per method, FAR/PAR/LAR per method
with 95% intervals, per-party MSE, and the step-through (each party's proposal rule
with its aspiration, the words' signals, the Bayes top hypotheses and p1's MSE).

Passages: the party's proposal rule is simcore's stand-in for the LLM party
(:mod:`policies.scorable`, rules 1-4); the estimate follows the seed's sections 3.1-3.3
(eq. 3 numeric likelihood, eq. 4 linguistic likelihood, eq. 5 posterior).
"""

from __future__ import annotations

from simcore.metrics.proportions import wilson95
from simcore.report import svg
from simcore.report.load import need
from simcore.report.model import decisions_html
from simcore.report.page import esc, figure, missing, note, num, table
from simcore.report.steps import Step
from simcore.rules import rules

SYSTEM = "scorable"
ESTIMATORS = {"base-llm": None, "base-om": "numeric-only Bayes: likelihood eq. 3",
              "llm-pe": "language layer's direct table",
              "proposed": "numeric x linguistic Bayes: likelihoods eq. 3 and eq. 4"}

KIND = "the method"

#: the metrics a sweep of this system draws (``simcore report`` on a sweep): patterns capturing
#: (series, metric), and the metrics among them that are shares
SWEEP_HEADLINE = (r"results\.([^.]+)\.(FAR|PAR|LAR)$", r"results\.([^.]+)\.MSE\.(avg)$")
SWEEP_PERCENT = {"FAR", "PAR", "LAR"}


def kind(run_id: str) -> str:
    """the method"""
    parts = run_id.split("/")
    return parts[2] if len(parts) > 3 else run_id


def wilson(rate: float | None, n: int | None) -> tuple[float, float] | None:
    """95% Wilson score interval of a rate over n trials (:func:`simcore.metrics.proportions.wilson95`)."""
    if rate is None or not n:
        return None
    return wilson95(round(rate * n), n)


def fig_outcomes(m: dict) -> str:
    res = m.get("results") or {}
    methods = list(res)
    keys = ("FAR", "PAR", "LAR")
    series = {k: [res[x].get(k) for x in methods] for k in keys}
    intervals = {k: [wilson(res[x].get(k), res[x].get("trials")) for x in methods] for k in keys}

    def cell(x, k):
        iv = wilson(res[x].get(k), res[x].get("trials"))
        return num(res[x].get(k), percent=True) + ("" if iv is None else
                                                   f" [{num(iv[0], percent=True)}, {num(iv[1], percent=True)}]")

    rows = [[x] + [cell(x, k) for k in keys] + [num(res[x].get("fallbacks"))] for x in methods]
    return (table(["method", "FAR", "PAR", "LAR", "fallbacks"], rows,
                  caption=f"Table 1 analogue ({m.get('trials', '?')} trials per method): rate [95% Wilson interval]")
            + figure(svg.bar_chart("FAR / PAR / LAR per method", methods, series, intervals=intervals, percent=True,
                                   ylim=(0.0, 1.0)),
                     "Final deal accepted by all (FAR), final deal passes (PAR), some deal passes (LAR); "
                     "whiskers: 95% Wilson score interval from the rate and the number of trials.", "scorable-rates"))


def fig_mse_by_turn(m: dict) -> str:
    res = m.get("results") or {}
    traced = {x: r["MSE_by_turn"] for x, r in res.items() if r.get("MSE_by_turn")}
    if not traced:
        return missing("MSE by turn: no method with an estimator wrote results.*.MSE_by_turn.")
    T = max(len(v) for v in traced.values())
    return figure(svg.line_chart("MSE of p1's estimates by turn", list(range(T)), traced,
                                 ylabel="MSE (0-100 scale)", xlabel="turn (0 = opening)"),
                  "p1's average MSE over the other parties after each turn, mean over trials.", "scorable-mse-turn")


def fig_party_mse(m: dict) -> str:
    res = m.get("results") or {}
    rows = [x for x, r in res.items() if r.get("MSE")]
    if not rows:
        return note("No method with an estimator in this run, so no MSE.")
    parties = [p for p in res[rows[0]]["MSE"] if p != "avg"] + ["avg"]
    vals = [[res[x]["MSE"].get(p) for p in parties] for x in rows]
    return figure(svg.heatmap("p1's final MSE per party (Table 2)", rows, parties, vals, fmt="{:.0f}",
                              xlabel="party estimated by p1"),
                  "MSE per table entry (0-100 scale) of p1's final estimate of each party; darker is worse.",
                  "scorable-party-mse")


#: the config fields that choose between readings of the paper (docs/systems/scorable.md), shown with the run
READINGS = (("acceptance_rule", "acceptance rule"), ("threshold_test", "threshold test"),
            ("assumed_share", "assumed share"), ("assumed_threshold", "assumed threshold"),
            ("echo_history", "echo history"), ("concession_exponent", "concession exponent"))


def _readings(cfg: dict) -> str:
    given = [f"{label} {cfg[k]}" for k, label in READINGS if k in cfg]
    return f" Readings: {', '.join(given)}." if given else ""


def sections(run, sample=None) -> list[tuple[str, str, str]]:
    m = run.metrics
    head = note(f"game {m.get('game', '?')}, {m.get('trials', '?')} trials per method, root seed {m.get('seed', '?')}."
                + _readings(m.get("config") or {}))
    return [("Outcomes per method", "scorable-out", head + fig_outcomes(m)),
            ("Estimation error", "scorable-mse",
             '<div class="figs">' + fig_mse_by_turn(m) + fig_party_mse(m) + "</div>")]


# ------------------------------------------------------------------ step-through
def _signals(sigs) -> str:
    return "; ".join(f"{s.get('stance')} {s.get('target')} ({s.get('entity')} {s.get('signal_type')})"
                     for s in sigs or []) or "none read"


def _negotiator_rules():

    return rules("scorable")


def step_rows(events) -> list[Step]:
    method = kind(events[0].run)
    est_name = next((v for k, v in ESTIMATORS.items() if method.startswith(k)), None)
    steps = []
    for e in events:
        h = e.hidden
        if e.phase == "result":
            steps.append(Step(f"T{e.round}", "protocol", e.text,
                              "final deal: accepted when score >= threshold; passes with >= N-1 incl. veto holders",
                              "seed 4.2 (FAR / PAR / LAR)",
                              (("accepted by", esc(", ".join(h.get("accepted_by", [])))),
                               ("FAR / PAR / LAR", esc(f"{int(bool(h.get('FAR')))} / {int(bool(h.get('PAR')))} / "
                                                       f"{int(bool(h.get('LAR')))}")),
                               ("p1's final MSE", esc(h.get("mse") or "no estimator"))), system=True))
            continue
        need(e, "intent.deal")
        deal = " ".join(e.intent["deal"])
        inputs = [("deal", esc(deal))]
        if e.phase == "open":
            rule, src = "p1 opens with the game's initial deal", "seed 4.1: p1 opens and closes the session"
        else:
            rule = "proposal rule: best predicted acceptance among deals >= aspiration"
            src = "simcore's stand-in for the LLM party: " + "; ".join(
                f"{r.row}. {r.action}" for r in _negotiator_rules())
            if "aspiration" in h:
                inputs.append(("aspiration u'(t)", esc(f"{h['aspiration']:.1f}")))
            if "candidates" in h:
                inputs.append(("deals at or above it", esc(h["candidates"])))
            if "predicted_accept" in h:
                inputs.append(("parties predicted to accept", esc(
                    f"{h['predicted_accept']}" + ("" if h.get("predicted_veto_ok", True) else " (a veto holder missing)"))))
        if "own_score" in h:
            inputs.append(("own score of the deal", esc(f"{h['own_score']:g}")))
        inputs.append(("cues it meant to give", esc(_signals(h.get("cues_meant")))))
        inputs.append(("signals the reader took", esc(_signals((e.cues or {}).get("signals")))))
        est = h.get("estimate_of_speaker") or {}
        extra = ""
        if est.get("top"):
            rows = [[esc(d), f"{p:.3g}"] for d, p in est["top"]]
            extra += (f'<div class="note">Others\' model of {esc(e.speaker)} after this turn ({esc(est_name or "")}; '
                      "posterior eq. 5, seed 3.3): top hypotheses</div>"
                      + table(["hypothesis (issue ranking; option shapes)", "posterior"], rows, cls="cand", raw=True))
        elif est.get("table"):
            extra += (f'<div class="note">LLM-PE table for {esc(e.speaker)} after this turn</div>'
                      + esc("  ".join(f"{k}: {v}" for k, v in est["table"].items())))
        if h.get("mse"):
            inputs.append(("MSE so far (per party)", esc("  ".join(f"{k} {v:.1f}" for k, v in h["mse"].items()))))
        if h.get("stand_in_deal"):  # the model in the negotiator's seat proposed otherwise
            rule = "proposal played by a model (--role scorable.negotiator)"
            inputs.append(("the stand-in would have proposed", esc(" ".join(h["stand_in_deal"]))))
        extra += decisions_html(h)
        steps.append(Step(f"T{e.round} ({e.phase})", e.speaker, e.text, rule, src, tuple(inputs), extra))
    return steps


def outcome(events) -> str:
    last = events[-1]
    return last.text if last.phase == "result" else f"{len(events)} events"
