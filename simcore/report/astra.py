"""ASTRA in the report: offers against the Pareto frontier (Figure 7) for one episode,
scores per partner and setup, walk-away and Pareto-optimal shares, and the
step-through (stage 1 fairness/stance/lambda, the LP candidates of stage 2 with their
PAP/SA/final scores, the tactic of stage 3; the accept / walk-away rules of 2.2).
"""

from __future__ import annotations

from policies.astra import CANDIDATE_FIELDS
from policies.astra_modules import TACTICS as NAMES
from scenarios.bilateral import load_domain
from simcore.metrics.astra import frontier, score_points
from simcore.report import svg
from simcore.report.model import decisions_html
from simcore.report.page import esc, figure, missing, note, num, table
from simcore.report.steps import Step
from simcore.rules import rules
from simcore.ruletable import lookup
from simcore.transcript import MODEL_DECISIONS

SYSTEM = "astra"
def _tactic(code: str) -> str:
    """Table 5's row for a tactic, from the policy's rule data (policies/astra_modules.RULES)."""

    row = lookup(rules("astra"), "tactic", code)
    return f"{code} ({row.label}): when {row.condition}" if row is not None else code

#: the metrics a sweep of this system draws (``simcore report`` on a sweep): patterns capturing
#: (series, metric), and the metrics among them that are shares
SWEEP_HEADLINE = (r"results\.([^.]+)\.(agent_score_all|partner_score_all|walk_away_rate|pareto_optimal_share)$",)
SWEEP_PERCENT = {"walk_away_rate", "pareto_optimal_share"}


MODES = {
    "ask_highest": ("ask the partner's highest priority", "2.2 Asking Preference"),
    "ask_lowest": ("ask the partner's lowest priority", "2.2 Asking Preference"),
    "ask_clarify": ("ask once to clarify an inconsistency", "2.2 Asking Preference; Table 9"),
    "invite": ("ask the partner to make the first offer", "Figure 10, Table 9: the partner makes the first offer"),
    "accept": ("accept", "2.2 Decision"),
    "walk_away": ("walk away", "2.2 Decision (\"no concessions for three consecutive turns\"; below BATNA after a warning)"),
}
COLS = ("offer", "S_a", "S_p", "final", "PAP", "TS", "SI", "SA")

KIND = "agent / partner / setup"


def kind(run_id: str) -> str:
    """agent / partner / setup"""
    parts = run_id.split("/")
    return "/".join(parts[2:5]) if len(parts) >= 7 else run_id


def _pair(key: str) -> tuple[str, str]:
    a, _, p = key.partition("__")
    return a, p


def fig_offers(run, episode: list | None) -> str:
    """Figure 7 analogue for one episode: every outcome, the frontier, both sides' offers in order."""
    if not episode:
        return missing("Figure 7: the transcript holds no ASTRA episode to draw (transcripts off?).")
    cfg = run.metrics.get("config") or {}
    rid = episode[0].run
    parts = rid.split("/")
    setup = parts[4] if len(parts) > 4 else None
    try:
        domain = load_domain(cfg.get("domain", "casino-v1"))
        pool = domain.setup(setup).partners
    except Exception as exc:  # the domain file moved, or a setup this version lacks
        return missing(f"Figure 7: cannot load domain {cfg.get('domain')!r} setup {setup!r} ({exc}).")
    pts = score_points(domain, domain.agent, pool[0])
    front = sorted(frontier(pts))
    mine = [tuple(e.hidden["true_scores"]) for e in episode if e.speaker == "agent" and "true_scores" in e.hidden]
    theirs = [tuple(e.hidden["true_scores"]) for e in episode if e.speaker == "partner" and "true_scores" in e.hidden]
    layers = [{"name": "all outcomes", "points": sorted(set(pts)), "color": "#c8c8c8"},
              {"name": "Pareto frontier", "points": front, "color": "#009E73", "style": "line"},
              {"name": "partner offers", "points": theirs, "color": "#D55E00", "style": "path"},
              {"name": "agent offers", "points": mine, "color": "#0072B2", "style": "path"}]
    caveat = " (true values of the setup's first partner)" if len(pool) > 1 else ""
    return figure(svg.scatter_chart(f"Offers vs the Pareto frontier ({setup}, {parts[3] if len(parts) > 3 else ''} "
                                    f"partner)", layers, xlabel="agent score", ylabel="partner score"),
                  f"Figure 7 analogue for episode {rid}{caveat}, under both sides' true values: numbers give "
                  "each side's offers in order (an offer repeated is one point with every number).",
                  "astra-fig7")


def headline(m: dict) -> tuple[list, set]:
    """(the setups the headline tables pool, the setups that are simcore's additions), as the
    study recorded them: ``headline_setups`` in metrics.json, the additions from the domain's
    setup ``source`` (else: every chosen setup outside the headline).  A run made before the
    headline was recorded pooled every setup and names no additions."""
    cfg = m.get("config") or {}
    chosen = list(cfg.get("setups") or [])
    if "headline_setups" not in m:
        return chosen, set()
    head = list(m["headline_setups"])
    try:
        added = {s.name for s in load_domain(cfg.get("domain", "casino-v1")).setups if s.source == "simcore"}
    except Exception:  # the domain file moved: what the headline left out
        added = set(chosen) - set(head)
    return head, added & set(chosen)


def _pooled(m: dict) -> str:
    head, added = headline(m)
    if "headline_setups" not in m:
        return "pooled over every setup of the run (a run made before the headline setups were recorded)"
    text = f"pooled over the paper's setups {', '.join(head)}"
    if added:
        text += f"; {', '.join(sorted(added))} (simcore's addition) left out"
    return text


def _setup_label(setup: str, added: set) -> str:
    return f"{setup} (simcore)" if setup in added else setup


def fig_setups(m: dict) -> str:
    by = m.get("by_setup") or {}
    if not by:
        return missing("scores per setup: no by_setup block in metrics.json.")
    _, added = headline(m)
    keys = [k.split("__") for k in by]
    agents = list(dict.fromkeys(k[0] for k in keys))
    partners = list(dict.fromkeys(k[1] for k in keys if len(k) > 1))
    setups = list(dict.fromkeys(k[2] for k in keys if len(k) > 2))
    setups = [s for s in setups if s not in added] + [s for s in setups if s in added]  # the paper's first
    figs = []
    for a in agents:
        series = {_setup_label(s, added): [(by.get(f"{a}__{p}__{s}") or {}).get("agent_score_all") for p in partners]
                  for s in setups}
        figs.append(figure(svg.bar_chart(f"{a}: agent score by partner and setup", partners, series,
                                         ylabel="mean agent score (all episodes)"),
                           f"{a} agent's mean score per partner, one bar per setup (no deal scores 0); "
                           "setups marked (simcore) are simcore's additions.",
                           f"astra-setup-{a}"))
    order = {s: i for i, s in enumerate(setups)}
    items = sorted(zip(keys, by.values()), key=lambda kv: (agents.index(kv[0][0]), partners.index(kv[0][1]),
                                                          order.get(kv[0][2], 99) if len(kv[0]) > 2 else 99))
    rows = [[k[0], k[1], _setup_label(k[2], added) if len(k) > 2 else "", num(v.get("agent_score_all"), 2),
             num(v.get("partner_score_all"), 2), num(v.get("agent_score_agreed"), 2),
             num(v.get("partner_score_agreed"), 2), num(v.get("agreement_rate"), percent=True),
             num(v.get("walk_away_rate"), percent=True)]
            for k, v in items]
    return ('<div class="figs">' + "".join(figs) + "</div>"
            + table(["agent", "partner", "setup", "agent (all)", "partner (all)", "agent (agreed)",
                     "partner (agreed)", "agreement", "walk-away"], rows,
                    caption="By setup: each setup on its own (simcore's additions marked, after the paper's)"))


def fig_shares(m: dict) -> str:
    res = m.get("results") or {}
    if not res:
        return missing("walk-away and Pareto shares: no results in metrics.json.")
    agents = list(dict.fromkeys(_pair(k)[0] for k in res))
    partners = list(dict.fromkeys(_pair(k)[1] for k in res))
    out = []
    for key, title in (("walk_away_rate", "Walk-away share"), ("pareto_optimal_share", "Pareto-optimal share of offers")):
        series = {a: [(res.get(f"{a}__{p}") or {}).get(key) for p in partners] for a in agents}
        out.append(figure(svg.bar_chart(f"{title} by partner", partners, series, percent=True, ylim=(0.0, 1.0)),
                          f"{title} per partner, one bar per agent ({_pooled(m)}).", f"astra-{key}"))
    rows = [[*_pair(k), num(v.get("agent_score_all"), 2), num(v.get("partner_score_all"), 2),
             num(v.get("agent_score_agreed"), 2), num(v.get("partner_score_agreed"), 2),
             num(v.get("walk_away_rate"), percent=True), num(v.get("pareto_optimal_share"), percent=True)]
            for k, v in res.items()]
    return ('<div class="figs">' + "".join(out) + "</div>"
            + table(["agent", "partner", "agent (all)", "partner (all)", "agent (agreed)", "partner (agreed)",
                     "walk-away", "Pareto-optimal"], rows, caption=f"Table 1 analogue, {_pooled(m)}"))


def fig_weights(m: dict) -> str:
    sw = (m.get("weights_sweep") or {}).get("results") or {}
    if not sw:
        return ""
    keys = list(sw)
    series = {"agent": [sw[k].get("agent_score_all") for k in keys], "partner": [sw[k].get("partner_score_all") for k in keys]}
    setups = (m.get("weights_sweep") or {}).get("setups")
    where = f"pooled over the setups {', '.join(setups)}" if setups else "pooled over every setup of the run"
    return figure(svg.bar_chart(f"Table 4: alpha/beta against the {m['weights_sweep'].get('partner')} partner",
                                [k.replace("alpha=", "a=").replace(",beta=", " b=") for k in keys], series,
                                ylabel="mean score (all episodes)"),
                  f"Mean scores for each (alpha, beta) of eq. 4 ({where}).", "astra-weights")


def fig_tactics(m: dict) -> str:
    """Figure 4 analogue: the share of the agent's offers under each tactic, by the partner's
    stance at the time of the offer (the study's ``tactics`` block, headline setups)."""
    tac = m.get("tactics") or {}
    if not tac:
        return missing("tactics by stance (Figure 4): no tactics block in metrics.json (a run made before it).")

    rows = []
    for key, by_stance in tac.items():
        agent, partner = _pair(key)
        for stance in ("unknown", "greedy", "neutral", "generous", "all"):
            shares = by_stance.get(stance)
            if shares:
                rows.append([agent, partner, stance, num(shares.get("offers"), 0),
                             *(num(shares.get(t, 0.0), percent=True) for t in NAMES)])
    return table(["agent", "partner", "stance", "offers", *NAMES], rows,
                 caption=f"Figure 4 analogue: tactics chosen by the partner's stance ({_pooled(m)}); "
                         "share of the offers in each row")


def pick_episode(sample: dict | None) -> list | None:
    """The episode Figure 7 draws: the first ASTRA-vs-base integrative one of the
    sample, else the first ASTRA episode, else the first episode."""
    if not sample:
        return None
    for test in (lambda r: "/astra/base/integrative/" in r, lambda r: r.split("/")[2:3] == ["astra"], lambda r: True):
        for rid, evs in sample.items():
            if test(rid) and evs:
                return evs
    return None


def sections(run, sample=None) -> list[tuple[str, str, str]]:
    m = run.metrics
    episode = pick_episode(sample)
    cfg = m.get("config") or {}
    head = note(f"domain {cfg.get('domain', '?')}, {cfg.get('episodes', '?')} episodes per agent x partner x "
                f"setup, alpha {cfg.get('alpha', '?')}, beta {cfg.get('beta', '?')}, root seed {m.get('seed', '?')}.")
    return [("Offers against the Pareto frontier (Figure 7)", "astra-f7", head + fig_offers(run, episode)),
            ("Walk-away and Pareto-optimal shares", "astra-shares", fig_shares(m) + fig_weights(m)),
            ("Scores per partner and setup", "astra-setups", fig_setups(m)),
            ("Tactics by the partner's stance (Figure 4)", "astra-tactics", fig_tactics(m))]


# ------------------------------------------------------------------ step-through
def _candidates(trace: dict) -> str:
    rows = []
    for k, cand in enumerate(trace.get("candidates") or []):
        cells = [esc(cand[0])] + [f"{x:.2f}" if isinstance(x, float) else esc(x) for x in cand[1:]]
        cls = ' class="chosen"' if k == trace.get("chosen") else ""
        rows.append(f"<tr{cls}><td>{k}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    cols = COLS if all(len(c) == len(COLS) for c in trace.get("candidates") or []) else _fields()
    head = "".join(f"<th>{esc(c)}</th>" for c in ("#",) + tuple(cols))
    tail = ("" if trace.get("chosen") is not None else
            '<p class="note">no feasible candidate: the previous offer is repeated</p>')
    return (f'<div class="wrap"><table class="cand"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
            f"</tbody></table></div>{tail}")


def _fields() -> tuple:
    """The trace's candidate columns as the policy names them (when they differ from COLS)."""

    return tuple(CANDIDATE_FIELDS)


def step_rows(events) -> list[Step]:
    names = {"agent": "agent", "partner": "partner", "system": "protocol"}
    steps = []
    for e in events:
        h, i = e.hidden, e.intent
        who = names.get(e.speaker, e.speaker)
        turn = f"r{e.round}"
        if e.speaker == "system":
            extra = ""
            if e.phase == "end":
                extra = f" · agent {h.get('agent_score', 0):g} vs partner {h.get('partner_score', 0):g}"
            steps.append(Step(turn, who, e.text + extra, e.phase, system=True))
            continue
        inputs, extra, rule, src = [], "", "", ""
        if "true_scores" in h:
            sc = h["true_scores"]
            inputs.append(("offer: agent's share (agent / partner score)", esc(f"{i.get('offer_text', '')}  ({sc[0]:g} / {sc[1]:g})")))
        if h.get("ipp"):
            inputs.append(("inferred partner priorities (IPP)", esc(" > ".join(h["ipp"]))))
        if h.get("inconsistency"):
            inputs.append(("consistency checker", esc(f"{h['inconsistency']}; IPP re-inferred as {h.get('ipp_reinferred')}")))
        trace = h.get("trace") or {}
        if e.speaker == "agent" and "tactic" in trace:
            t = trace["tactic"]
            rule = f"offer by tactic {t}"
            src = f"2.3 stages 1-3; Table 5 {_tactic(t)}; eq. 4 final = alpha*PAP + beta*SA"
            inputs += [("stage 1: fairness, stance", esc(f"{trace.get('fairness')}, {trace.get('stance')}")),
                       ("lambda (tit for tat), max bound", esc(f"{trace.get('lambda')}, {trace.get('max_bound')}")),
                       ("stage 2: LP solves", esc(trace.get("solves")))]
            extra = '<div class="note">Stage 3: the LP candidates, scored; the chosen row is shaded</div>' + _candidates(trace)
        elif e.speaker == "agent" and "heuristic" in trace:
            rule, src = f"fixed concession to target {trace.get('target')}", "the agent without ASTRA (Table 1 baseline)"
        elif e.speaker == "agent" and e.phase in MODES:
            rule, src = MODES[e.phase]
            if i.get("why") or h.get("why"):
                inputs.append(("why", esc(i.get("why") or h.get("why"))))
            if "partner_offer_score" in h:
                inputs.append(("partner's offer scores for the agent", esc(h["partner_offer_score"])))
        elif e.speaker == "agent":
            rule = i.get("mode") or e.phase
        else:
            rule = f"partner: {i.get('mode') or e.phase}"
            src = ("the paper's LLM partner, played by a model (--role astra.partner; simcore's partner agent "
                   "as the fallback)" if h.get(MODEL_DECISIONS) else
                   "simcore's partner agent (stand-in for the paper's LLM partner)")
            for key in ("target", "own_score", "level"):
                if key in i:
                    inputs.append((key, esc(i[key])))
        if i.get("warning"):
            inputs.append(("walk-away warning", "given"))
        extra += decisions_html(h)  # a role played by a model: its exchange
        steps.append(Step(turn, who, e.text, rule, src, tuple(inputs), extra))
    return steps


def outcome(events) -> str:
    end = next((e for e in reversed(events) if e.phase == "end"), None)
    if end is None:
        return f"{len(events)} events"
    h = end.hidden
    return f"{end.intent.get('status')} in round {end.round}: agent {h.get('agent_score', 0):g} vs partner {h.get('partner_score', 0):g}"
