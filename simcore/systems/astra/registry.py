"""ASTRA's names and registry entries: the study's agent and partner names and the registry
ids they stand for, the setups, Table 4's weight pairs, and every scenario, protocol and policy
entry (with the evidence behind each stand-in for the paper's GPT-4o Partner-Base)."""

from __future__ import annotations

from simcore.systems.astra.params import (AGENT_V1_KWARGS, AGENT_V2_KWARGS, AGENT_V3_KWARGS, AGENT_V4_KWARGS,
                                          NO_ASTRA_EXTRA, PARTNER_KWARGS)

SYSTEM = "astra"
# study name -> registry id; "astra" / "no-astra" are the current versions; "astra-v3" RC's ranking with no
# floor at the partner's standing offer; "astra-v2" stage 3 as a
# fixed precedence of tactics; "-v1" the first readings (tactic order REO-first, NCR only against unfair
# offers, SI toward the agent's ideal, S_max held, deadline rule in the last two rounds);
# "partner": the base partner (--base-partner) in the agent's seat, for partner-vs-partner episodes
AGENTS = {"astra": "astra-agent-v4", "no-astra": "no-astra-agent-v2", "astra-v3": "astra-agent-v3",
          "astra-v2": "astra-agent-v2",
          "astra-v1": "astra-agent-v1", "no-astra-v1": "no-astra-agent-v1", "partner": None}
DEFAULT_AGENTS = ("astra", "no-astra")
# study name -> registry id; "base" is the stand-in chosen by --base-partner (BASE_PARTNERS)
PARTNERS = {"base": "base-partner-v2", "greedy": "greedy-partner-v1", "fair": "fair-partner-v1",
            "boulware": "boulware-partner-v1", "conceder": "conceder-partner-v1"}
# the family of stand-ins for Table 1's GPT-4o "Partner-Base" (the astra.partner role): registry id ->
# policies.partners kind
BASE_PARTNERS = {"base-partner-v1": "base", "base-partner-v2": "base-transcripts",
                 "base-partner-firm-v1": "base-firm", "base-partner-human-v1": "base-human",
                 "base-partner-soft-v1": "base-soft"}
DEFAULT_BASE_PARTNER = "base-partner-v2"
SETUPS = ("integrative", "distributive", "mixed")
WEIGHT_PAIRS = ((0.0, 1.0), (0.15, 0.85), (0.35, 0.65), (0.5, 0.5), (0.75, 0.25), (1.0, 0.0))  # Table 4
PROTOCOL_ID = "alternating-offers-v1"

# what each stand-in for the GPT-4o Partner-Base is built from (policies.partners gives the numbers)
PARTNER_EVIDENCE = {
    "base": "none from the paper: simcore's first stand-in, set before the transcripts were read (opens at 0.85 "
            "of its maximum, 1 point every 2 offers, floor 0.5); the tough member of the family",
    "base-transcripts": "the GPT-4o partner's own turns in the paper's transcripts: openings 21, 19, 19, 26 "
                        "(Table 7, Fig. 10, Fig. 11, Table 9; median 20 of 36), 9 points conceded over 8 further "
                        "offers (Table 7, Figs. 10-11; 1 per offer), lowest offers 18, 17, 15 (floor 15), Table 7's "
                        "acceptance of an offer worth 19 to it after its own 18 (accepts at its current target)",
    "base-firm": "the same transcripts read toward toughness: Table 9's opening 26, 1 point every 2 offers "
                 "(Table 7 holds 21 twice), floor 18 (Table 7's lowest offer)",
    "base-human": "CaSiNo's human negotiators (Chawla et al. 2021; 1,005 of 1,030 dialogues agreed): opens at the "
                  "90th percentile (23) and stops at the 10th (16) of the points a participant took in a deal; "
                  "1 point per offer",
    "base-soft": "the soft end: opens at the even split (18 of 36), 1 point per offer, floor at CaSiNo's 5th "
                 "percentile of deal points (14)",
}

REGISTRY = [
    dict(kind="scenario", id="casino-v1", entry_point="scenarios.bilateral:load_domain",
         kwargs={"path_or_id": "casino-v1"},
         description="CaSiNo camping: food/water/firewood, 3 each, priorities 5/4/3",
         meta={"system": SYSTEM, "describe": "scenarios.bilateral:describe"}),
    dict(kind="scenario", id="research-allocation-v1", entry_point="scenarios.bilateral:load_domain",
         kwargs={"path_or_id": "research-allocation-v1"},
         description="research allocation (ASTRA Table 8): integer, categorical and binary issues",
         meta={"system": SYSTEM, "describe": "scenarios.bilateral:describe"}),
    dict(kind="protocol", id=PROTOCOL_ID, entry_point="simcore.protocols.alternating:AlternatingGame",
         kwargs={"round_limit": 15, "warn_rounds": 2, "no_deal_payoff": "zero"},
         description="alternating offers with accept / walk-away and a round limit",
         meta={"system": SYSTEM, "sources": {"round_limit": "the study's --rounds (15, the published runs in the reference notes)",
                           "warn_rounds": "choice: the deadline notice with 2 rounds left (--notice-rounds)",
                           "no_deal_payoff": "Table 1 scores a walk-away or no deal as 0 (--no-deal-payoff)"}}),
    dict(kind="policy", id="astra-agent-v4", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V4_KWARGS,
         description="the negotiation agent with ASTRA; stage 3 as v3, RC's counter-offer above the partner's "
                     "standing offer (Table 7's 23); the partner makes the first offer (Fig. 10)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="astra-agent-v3", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V3_KWARGS,
         description="the negotiation agent with ASTRA; stage 3 as the best-fit tactic among those whose "
                     "Table 5 'When' holds, RC toward theta_f as Table 7 ranks, CSC concedes",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="astra-agent-v2", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V2_KWARGS,
         description="the negotiation agent with ASTRA (stages 1-3, LP offers); stage 3 as a fixed precedence "
                     "of tactics",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="astra-agent-v1", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V1_KWARGS,
         description="the ASTRA agent's first readings (REO first, SI toward its own ideal, S_max held)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="no-astra-agent-v2", entry_point="policies.partners:NoAstraAgent",
         kwargs={**AGENT_V2_KWARGS, **NO_ASTRA_EXTRA},
         description="the same agent with a fixed concession heuristic instead of ASTRA",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="no-astra-agent-v1", entry_point="policies.partners:NoAstraAgent",
         kwargs={**AGENT_V1_KWARGS, **NO_ASTRA_EXTRA},
         description="the agent without ASTRA, first readings (deadline rule in the last two rounds)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
] + [
    dict(kind="policy", id=pid, entry_point="policies.partners:make_partner",
         kwargs={"kind": name, **PARTNER_KWARGS[name]},
         description=f"{name} partner", meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "partner"})
    for name, pid in PARTNERS.items() if name != "base"
] + [
    dict(kind="policy", id=pid, entry_point="policies.partners:make_partner",
         kwargs={"kind": kind, **PARTNER_KWARGS[kind]},
         description=f"stand-in for the paper's GPT-4o Partner-Base ({kind}; see `simcore roles astra`)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "partner", "evidence": PARTNER_EVIDENCE[kind]})
    for pid, kind in BASE_PARTNERS.items()
]


def wkey(alpha: float, beta: float) -> str:
    """The name of an alpha/beta pair in job keys and the weight sweep's results."""
    return f"alpha={alpha:g},beta={beta:g}"
