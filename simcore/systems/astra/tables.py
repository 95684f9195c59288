"""The ASTRA study's tables: Table 1's analogue, one row per setup, the tactics by the partner's
stance (Figure 4's analogue) and Table 4's weight sweep."""

from __future__ import annotations

from policies.astra_modules import TACTICS
from simcore.readings import accuracy_cell
from simcore.systems.astra.registry import WEIGHT_PAIRS, wkey
from simcore.tables import Table


def table1(config, results, headline) -> Table:
    rows = []
    for key, m in results.items():
        agent, partner = key.split("__")
        rows.append((agent, partner, m["agent_score_all"], m["partner_score_all"], m["joint_score_all"],
                     m["agent_score_agreed"], m["partner_score_agreed"], m["agreement_rate"],
                     m["walk_away_rate"], m["pareto_optimal_share"], m["pareto_distance_mean"],
                     m["priority_match_rate"], accuracy_cell(m.get("reading_accuracy")), m.get("readings")))
    return Table("astra_table1", f"ASTRA Table 1 analogue: {config.domain}, pooled over setups "
                 f"{','.join(headline)}, {config.episodes} episodes each, alpha={config.alpha:g} "
                 f"beta={config.beta:g}, solver {config.solver}",
                 ("agent", "partner", "agent all", "partner all", "joint all", "agent agreed",
                  "partner agreed", "agree rate", "walk-away", "pareto share", "pareto dist", "prio match",
                  "readings right", "readings"),
                 rows,
                 note="scores: mean points (no deal scores 0); rates are fractions; setups marked "
                      "(simcore) in the per-setup table are simcore's additions, not pooled here; readings "
                      "right: of the agent's readings of the partner's words that the checks accepted, the "
                      "share that match what the partner meant; readings: how many were accepted (refused "
                      "ones are counted fallbacks)")

def table_by_setup(setups, domain) -> Table:
    added = {s.name for s in domain.setups if s.source == "simcore"}
    rows = []
    for key, m in setups.items():
        agent, partner, setup = key.split("__")
        rows.append((agent, partner, setup + (" (simcore)" if setup in added else ""),
                     m["agent_score_all"], m["partner_score_all"],
                     m["agent_score_agreed"], m["partner_score_agreed"], m["agreement_rate"],
                     m["walk_away_rate"], m["pareto_distance_mean"]))
    return Table("astra_by_setup", "ASTRA by setup",
                 ("agent", "partner", "setup", "agent all", "partner all", "agent agreed",
                  "partner agreed", "agree rate", "walk-away", "pareto dist"), rows)

def table_tactics(tactics) -> Table:
    rows = []
    for key, by_stance in tactics.items():
        agent, partner = key.split("__")
        for stance in ("unknown", "greedy", "neutral", "generous", "all"):
            shares = by_stance.get(stance)
            if shares:
                rows.append((agent, partner, stance, shares["offers"], *(shares.get(t, 0.0) for t in TACTICS)))
    return Table("astra_tactics", "ASTRA tactics chosen, by the partner's stance (Figure 4 analogue; "
                 "share of the offers in each row, headline setups)",
                 ("agent", "partner", "stance", "offers", *TACTICS), rows)

def table_walk_aways(results) -> Table:
    rows = []
    for key, m in results.items():
        agent, partner = key.split("__")
        c = m.get("walk_aways_by_cause") or {}
        rows.append((agent, partner, m["episodes"], m["walk_away_rate"], sum(c.values()), c.get("rule", 0),
                     c.get("misread", 0), c.get("unclear", 0)))
    return Table("astra_walk_aways", "ASTRA walk-aways by cause (headline setups; Table 1's walk-away column)",
                 ("agent", "partner", "episodes", "walk-away", "agent walked", "rule on true readings",
                  "after a misread", "after an unclear answer"), rows,
                 note="walk-away: the share of episodes either side walked away from; agent walked: the "
                      "agent's walk-aways, by cause: after a misread stated priority injected by the mock "
                      "language layer, else after an unclear answer it injected (simcore.noise), else a "
                      "walk-away rule acting on true readings")


def table4(config, sw, headline) -> Table:
    rows = []
    for pair in WEIGHT_PAIRS:
        m = sw.get(wkey(*pair))
        if m is None:
            continue
        rows.append((pair[0], pair[1], m["agent_score_all"], m["partner_score_all"], m["agent_score_agreed"],
                     m["partner_score_agreed"], m["walk_away_rate"]))
    return Table("astra_table4", f"ASTRA Table 4 analogue: alpha/beta sweep against the "
                 f"{config.sweep_partner} partner, setups {','.join(headline)}",
                 ("alpha", "beta", "agent all", "partner all", "agent agreed", "partner agreed",
                  "walk-away"), rows)
