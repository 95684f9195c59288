"""What ASTRA's LLM roles are built from and the paper's claims measured on a run: the
astra.partner role (Table 1's GPT-4o Partner-Base) and the astra.tactic role (stage 3's tactic
choice), each with its stand-in's evidence and family (``simcore roles astra``), and the
headline claims with the passage they reproduce."""

from __future__ import annotations

from policies.partners import (CASINO_DEAL_POINTS, TRANSCRIPT_CONCESSIONS, TRANSCRIPT_FURTHER_OFFERS,
                               TRANSCRIPT_LOWEST, TRANSCRIPT_OPENINGS)
from simcore.roles import Claim, Evidence, Role, StandIn
from simcore.systems.astra.params import PARTNER_KWARGS
from simcore.systems.astra.registry import BASE_PARTNERS, DEFAULT_BASE_PARTNER, PARTNER_EVIDENCE, SYSTEM


def _pair(metrics, agent, partner="base"):
    return (metrics.get("results") or {}).get(f"{agent}__{partner}") or {}


def _interval(claim_id):
    """The claim's 95% interval, as the study records it (``claim_intervals``: simcore.metrics.astra)."""
    return lambda m: (m.get("claim_intervals") or {}).get(claim_id)


def _diff(a, b):
    return None if a is None or b is None else a - b


def _shape(kw) -> str:
    """A partner's concession rule in CaSiNo points (of 36)."""
    every = "" if kw["concede_every"] == 1 else f" every {kw['concede_every']} offers"
    return (f"opens at {kw['open_share'] * 36:.0f} of 36, concedes {kw['step']:g} point{every}, "
            f"stops at {kw['floor_share'] * 36:.0f}")


def _roles():
    label = {"base-partner-v1": "tough", "base-partner-firm-v1": "firm", "base-partner-v2": "transcripts",
             "base-partner-human-v1": "human-like", "base-partner-soft-v1": "soft"}
    order = ("base-partner-v1", "base-partner-firm-v1", "base-partner-v2", "base-partner-human-v1",
             "base-partner-soft-v1")
    kw = PARTNER_KWARGS["base-transcripts"]
    return (Role(
        id="astra.partner", system=SYSTEM, llm="GPT-4o (2024-08-06), temperature 1.0 (Appendix B.1)",
        passage="§3.2 'The partner agent is primarily powered by GPT-4o'; Table 1 'Partner-Base'; §5: 'an LLM-based "
                "Partner Agent operating solely on an instructional negotiation prompt'",
        stand_in=DEFAULT_BASE_PARTNER,
        parameters=(
            Evidence("open_share", round(kw["open_share"], 4),
                     f"median of the partner's openings {TRANSCRIPT_OPENINGS} in Table 7, Fig. 10, Fig. 11, "
                     f"Table 9, of 36"),
            Evidence("step / concede_every", (kw["step"], kw["concede_every"]),
                     f"{sum(TRANSCRIPT_CONCESSIONS)} points conceded over {sum(TRANSCRIPT_FURTHER_OFFERS)} further "
                     f"offers (Table 7: 21,21,20,18; Fig. 10: 19,17; Fig. 11: 19,19,19,15,15)"),
            Evidence("floor_share", round(kw["floor_share"], 4),
                     f"the lowest of its lowest offers {TRANSCRIPT_LOWEST} (Table 7, Figs. 10-11), of 36"),
            Evidence("accept level", "its current target",
                     "Table 7: accepts the agent's offer worth 19 to it right after offering itself 18, and "
                     "rejects offers worth 10 and 14 while its own stood at 21 and 20"),
        ),
        built_from="only the partner's own turns in the paper's transcripts (Table 7, Figures 10-11, Table 9), "
                   "read before ASTRA was run against it",
        left_to_test=f"Table 1 and Table 2 (ASTRA against its partner; never used to set a value); CaSiNo's human "
                     f"negotiators (97.6% deals, {CASINO_DEAL_POINTS['mean']} points each), which the partner "
                     f"against itself is compared with (`simcore run astra --agents partner --partners base`)",
        family=tuple(StandIn(label[pid], {"base_partner": pid}, f"{pid}: {_shape(PARTNER_KWARGS[BASE_PARTNERS[pid]])}",
                             PARTNER_EVIDENCE[BASE_PARTNERS[pid]])
                     for pid in order),
        default=label[DEFAULT_BASE_PARTNER], task="astra.partner",
        toughness=lambda m: _pair(m, "astra").get("partner_score_all"),
        toughness_text="the partner's mean points against ASTRA (all episodes)"),
        Role(
            id="astra.tactic", system=SYSTEM, llm="GPT-4o (2024-08-06), majority of five samples",
            passage="2.3 'The agent selects the best-fit tactic, ranks offers, and repeats this process five times "
                    "for robustness. The majority tactic is chosen'",
            stand_in="astra-agent-v3 (policies.astra_modules.select_tactic: best_fit among applicable)",
            parameters=(
                Evidence("applicable", "Table 5 'When' of each tactic", "Table 5"),
                Evidence("selection", "tft", "sec. 2 (TFT), 4.3 (stance over fairness; fair but firm -> "
                                             "collaborative), Tables 7 and 8 (RC where MGF / LIC also hold)"),
            ),
            built_from="Table 5's 'When' column, 4.3's description of which tactics the agent chose, and the tactics "
                       "of Tables 7 and 8",
            left_to_test="Table 1, Table 4 and Figure 4's tactic shares",
            family=tuple(StandIn(name, {"agent_params": (("selection", name),)}, desc, ev) for name, desc, ev in (
                ("tft", "the strategy answering the partner's stance in kind; its latest move first",
                 "sec. 2, 4.3, Tables 7-8"),
                ("precedence", "astra-agent-v2's fixed order AEO > RNC > CSC > NCR > RC > REO > LIC > MGF > LGR",
                 "4.3's stance before fairness read as an order"),
                ("listing", "the first applicable in Table 5's listing (latest move first), any strategy",
                 "Table 5 read without 4.3"),
                ("collaborative-first", "a collaborative tactic whenever one applies", "the soft end"),
                ("competitive-first", "a competitive tactic whenever one applies", "the tough end"))),
            default="tft", task="astra.tactic"),
    )


def _claims():
    return (
        Claim("astra_beats_partner_all", "ASTRA scores more than its partner (all episodes)",
              "20.69 vs 12.33 (Table 1)",
              lambda m: _diff(_pair(m, "astra").get("agent_score_all"), _pair(m, "astra").get("partner_score_all")),
              interval=_interval("astra_beats_partner_all")),
        Claim("astra_beats_partner_agreed", "ASTRA scores more than its partner (agreements)",
              "24.34 vs 14.50 (Table 1)",
              lambda m: _diff(_pair(m, "astra").get("agent_score_agreed"),
                              _pair(m, "astra").get("partner_score_agreed")),
              interval=_interval("astra_beats_partner_agreed")),
        Claim("astra_beats_no_astra", "ASTRA scores more than the agent without it (agreements)",
              "24.34 vs 20.75 (Table 1, §4.1)",
              lambda m: _diff(_pair(m, "astra").get("agent_score_agreed"),
                              _pair(m, "no-astra").get("agent_score_agreed")),
              interval=_interval("astra_beats_no_astra")),
        Claim("astra_walks_away_more", "ASTRA walks away more often than the agent without it",
              "17% vs 4% (Table 1)",
              lambda m: _diff(_pair(m, "astra").get("walk_away_rate"), _pair(m, "no-astra").get("walk_away_rate")),
              interval=_interval("astra_walks_away_more")),
        Claim("astra_offers_nearer_frontier", "ASTRA's offers are Pareto-optimal more often than its partner's",
              "Figure 7 (no figure given)",
              lambda m: _diff(_pair(m, "astra").get("pareto_optimal_share"),
                              _pair(m, "astra").get("partner_pareto_optimal_share")),
              interval=_interval("astra_offers_nearer_frontier")),
    )


ROLES = _roles()
CLAIMS = _claims()
