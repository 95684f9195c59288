"""The ASTRA study: the ASTRA agent (and the agent without ASTRA) against the partner
agents on a bilateral domain, in the integrative / distributive / mixed setups
(paper Tables 1 and 4).

``simcore run astra`` prints the analogue of Table 1 (one row per agent/partner
pairing, pooled over the chosen setups the paper reports -- a domain marks simcore's own
setups with ``"source": "simcore"``), a per-setup table (simcore's setups labelled), the
tactics chosen by partner stance (Figure 4 analogue) and with ``--weights-sweep`` the
analogue of Table 4 (the alpha/beta pairs of the paper against one partner, the paper's
setups).  ``metrics.json`` holds ``{"system": "astra", "seed": S, "headline_setups": [...],
"results": {"<agent>__<partner>": {...}}, "by_setup": ..., "tactics": ..., ...}``.

Agents are built from their registry entries (``AGENTS`` maps the study's names to ids;
``astra`` / ``no-astra`` are the current versions, ``astra-v1`` / ``no-astra-v1`` the readings
before issue 10), with ``--agent-param`` overrides on top.

Every episode's randomness comes from ``derive(seed, "astra", *job.key)`` and its
children (one per episode: the mixed setup's partner draw, each side's model calls),
so results do not depend on the worker count.
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

import attrs
import click

from simcore.cli_options import (CommaChoice, FloatRange, SeatChoice, backend_options, backend_settings,
                                 common_options)
from simcore.studies.astra_params import (AGENT_V1_KWARGS, AGENT_V2_KWARGS, AGENT_V3_KWARGS, NO_ASTRA_EXTRA,
                                          PARTNER_KWARGS,
                                          _check_agent_params, _check_partner_params, _parse_agent_params,
                                          _parse_partner_params, parse_agent_params_text,
                                          parse_partner_params_text)
from simcore.errors import InputError
from simcore.seeding import child, derive
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.launch import launch
from simcore.tables import Table

SYSTEM = "astra"
# study name -> registry id; "astra" / "no-astra" are the current versions, "-v1" the readings
# before issue 10 (tactic order REO-first, NCR only against unfair offers, SI toward the agent's
# ideal, S_max held, deadline rule in the last two rounds)
# "partner": the base partner (--base-partner) in the agent's seat, for partner-vs-partner episodes
AGENTS = {"astra": "astra-agent-v3", "no-astra": "no-astra-agent-v2", "astra-v2": "astra-agent-v2",
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
    dict(kind="protocol", id=PROTOCOL_ID, entry_point="simcore.protocols.alternating:AlternatingProtocol",
         kwargs={"round_limit": 15, "warn_rounds": 2, "no_deal_payoff": "zero"},
         description="alternating offers with accept / walk-away and a round limit",
         meta={"system": SYSTEM, "conformance": "simcore.studies.astra:AstraConformance",
               "sources": {"round_limit": "the study's --rounds (15, the published runs in the reference notes)",
                           "warn_rounds": "choice: the deadline notice with 2 rounds left (--notice-rounds)",
                           "no_deal_payoff": "Table 1 scores a walk-away or no deal as 0 (--no-deal-payoff)"}}),
    dict(kind="policy", id="astra-agent-v3", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V3_KWARGS,
         description="the negotiation agent with ASTRA; issue 17's stage 3 (best-fit tactic among those whose "
                     "Table 5 'When' holds, RC toward theta_f as Table 7 ranks, CSC concedes)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="astra-agent-v2", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V2_KWARGS,
         description="the negotiation agent with ASTRA (stages 1-3, LP offers); issue 10's readings",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="astra-agent-v1", entry_point="policies.astra:AstraAgent", kwargs=AGENT_V1_KWARGS,
         description="the ASTRA agent before issue 10 (REO first, SI toward its own ideal, S_max held)",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="no-astra-agent-v2", entry_point="policies.partners:NoAstraAgent",
         kwargs={**AGENT_V2_KWARGS, **NO_ASTRA_EXTRA},
         description="the same agent with a fixed concession heuristic instead of ASTRA",
         meta={"system": SYSTEM, "protocol": PROTOCOL_ID, "role": "agent"}),
    dict(kind="policy", id="no-astra-agent-v1", entry_point="policies.partners:NoAstraAgent",
         kwargs={**AGENT_V1_KWARGS, **NO_ASTRA_EXTRA},
         description="the agent without ASTRA before issue 10 (deadline rule in the last two rounds)",
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


# ------------------------------------------------------------------ roles and claims
def _pair(metrics, agent, partner="base"):
    return (metrics.get("results") or {}).get(f"{agent}__{partner}") or {}


def _diff(a, b):
    return None if a is None or b is None else a - b


def _shape(kw) -> str:
    """A partner's concession rule in CaSiNo points (of 36)."""
    every = "" if kw["concede_every"] == 1 else f" every {kw['concede_every']} offers"
    return (f"opens at {kw['open_share'] * 36:.0f} of 36, concedes {kw['step']:g} point{every}, "
            f"stops at {kw['floor_share'] * 36:.0f}")


def _roles():
    from simcore.roles import Evidence, Role, StandIn

    from policies.partners import (CASINO_DEAL_POINTS, TRANSCRIPT_CONCESSIONS, TRANSCRIPT_FURTHER_OFFERS,
                                   TRANSCRIPT_LOWEST, TRANSCRIPT_OPENINGS)

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
        default=label[DEFAULT_BASE_PARTNER], task="astra.partner"),
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
                 "issue 10's reading (4.3's stance before fairness as an order)"),
                ("listing", "the first applicable in Table 5's listing (latest move first), any strategy",
                 "Table 5 read without 4.3"),
                ("collaborative-first", "a collaborative tactic whenever one applies", "the soft end"),
                ("competitive-first", "a competitive tactic whenever one applies", "the tough end"))),
            default="tft", task="astra.tactic"),
    )


def _claims():
    from simcore.roles import Claim

    return (
        Claim("astra_beats_partner_all", "ASTRA scores more than its partner (all episodes)",
              "20.69 vs 12.33 (Table 1)",
              lambda m: _diff(_pair(m, "astra").get("agent_score_all"), _pair(m, "astra").get("partner_score_all"))),
        Claim("astra_beats_partner_agreed", "ASTRA scores more than its partner (agreements)",
              "24.34 vs 14.50 (Table 1)",
              lambda m: _diff(_pair(m, "astra").get("agent_score_agreed"),
                              _pair(m, "astra").get("partner_score_agreed"))),
        Claim("astra_beats_no_astra", "ASTRA scores more than the agent without it (agreements)",
              "24.34 vs 20.75 (Table 1, §4.1)",
              lambda m: _diff(_pair(m, "astra").get("agent_score_agreed"),
                              _pair(m, "no-astra").get("agent_score_agreed"))),
        Claim("astra_walks_away_more", "ASTRA walks away more often than the agent without it",
              "17% vs 4% (Table 1)",
              lambda m: _diff(_pair(m, "astra").get("walk_away_rate"), _pair(m, "no-astra").get("walk_away_rate"))),
        Claim("astra_offers_nearer_frontier", "ASTRA's offers are Pareto-optimal more often than its partner's",
              "Figure 7 (no figure given)",
              lambda m: _diff(_pair(m, "astra").get("pareto_optimal_share"),
                              _pair(m, "astra").get("partner_pareto_optimal_share"))),
    )


# ------------------------------------------------------------------ config
def _tuple(x):
    return tuple(x)


def _agent_default(name: str):
    """The default of an :class:`policies.astra.AgentParams` field (one source of truth)."""
    from policies.astra import AgentParams

    return attrs.fields_dict(AgentParams)[name].default


def _check_seats(value) -> None:
    from simcore.argcheck import seat_ref

    if not value:
        raise ValueError("agents: none given")
    for v in value:
        why = seat_ref(v, SYSTEM, "agent", tuple(AGENTS))
        if why:
            raise ValueError(f"agents: {why}")


def _check_roles(value) -> tuple:
    from simcore.role_backends import check_roles

    return check_roles(value, SYSTEM)


def _subset(valid):
    def check(_inst, attr, value):
        bad = [v for v in value if v not in valid]
        if not value or bad:
            raise ValueError(f"{attr.name}: unknown value(s) {bad or '(empty)'}; valid: {', '.join(valid)}")

    return check


_unit = [attrs.validators.ge(0.0), attrs.validators.le(1.0)]


@attrs.frozen
class AstraConfig:
    seed: int = 0
    domain: str = "casino-v1"
    setups: tuple = attrs.field(default=SETUPS, converter=_tuple, validator=_subset(SETUPS))
    partners: tuple = attrs.field(default=tuple(PARTNERS), converter=_tuple, validator=_subset(tuple(PARTNERS)))
    agents: tuple = attrs.field(default=DEFAULT_AGENTS, converter=_tuple, validator=lambda _i, a, v: _check_seats(v))
    episodes: int = attrs.field(default=100, validator=attrs.validators.ge(1))
    alpha: float = attrs.field(default=_agent_default("alpha"), converter=float, validator=_unit)
    beta: float = attrs.field(default=_agent_default("beta"), converter=float, validator=_unit)
    w: float = attrs.field(default=_agent_default("w"), converter=float, validator=_unit)
    top_n: int = attrs.field(default=_agent_default("top_n"), validator=attrs.validators.ge(1))
    bound_span: int = attrs.field(default=_agent_default("bound_span"), validator=attrs.validators.ge(0))
    solver: str = attrs.field(default=_agent_default("solver"), validator=attrs.validators.in_(("exact", "pulp")))
    round_limit: int = attrs.field(default=15, validator=attrs.validators.ge(1))
    no_deal_payoff: str = attrs.field(default="zero", validator=attrs.validators.in_(("zero", "batna")))
    accept_rule: str = attrs.field(default=_agent_default("accept_rule"),
                                   validator=attrs.validators.in_(("paper", "counter")))
    # further agent parameters by name (policies.astra.AgentParams / TacticParams fields), applied
    # over the registry entry of each agent
    agent_params: tuple = attrs.field(default=(), converter=lambda x: tuple(sorted(dict(x).items())),
                                      validator=_check_agent_params,
                                      metadata={"parse": lambda text: parse_agent_params_text(text)})
    notice_rounds: int = attrs.field(default=2, validator=attrs.validators.ge(0))  # protocol warn_rounds
    # partner parameters by name (policies.partners.PartnerParams fields), applied to every partner
    partner_params: tuple = attrs.field(default=(), converter=lambda x: tuple(sorted(dict(x).items())),
                                        validator=lambda _i, _a, v: _check_partner_params(v),
                                        metadata={"parse": lambda text: parse_partner_params_text(text)})
    backend: str = "mock-v1"          # a registered backend id (see simcore.backends)
    backend_args: tuple = attrs.field(default=(), converter=tuple)
    record: str | None = None
    replay: str | None = None
    replay_misses: str = attrs.field(default="error", validator=attrs.validators.in_(("error", "fallback")))
    weights_sweep: bool = False
    sweep_partner: str = attrs.field(default="base", validator=attrs.validators.in_(tuple(PARTNERS)))
    keep_transcripts: bool = True
    # the stand-in playing Table 1's GPT-4o Partner-Base (the "base" partner, and "partner" in the agent's seat)
    base_partner: str = attrs.field(default=DEFAULT_BASE_PARTNER,
                                    validator=attrs.validators.in_(tuple(BASE_PARTNERS)))
    # roles played by a backend instead of their stand-in (--role ROLE=BACKEND; simcore.role_backends)
    roles: tuple = attrs.field(default=(), converter=lambda v: _check_roles(v))


def _wkey(alpha, beta) -> str:
    return f"alpha={alpha:g},beta={beta:g}"


# ------------------------------------------------------------------ one episode
_FRONTS: dict = {}


def _front(domain, pv):
    from simcore.metrics.astra import frontier, score_points

    key = (domain.id, domain.source, pv)
    got = _FRONTS.get(key)
    if got is None:
        got = _FRONTS[key] = frontier(score_points(domain, domain.agent, pv))
    return got


def build_partner(partner_id: str, domain, values, client, rng, side: str = "partner", overrides=None):
    """The partner registered as ``partner_id`` in the ``side`` seat, with ``PartnerParams`` overrides."""
    from simcore.registry import make

    return make("policy", partner_id, domain=domain, values=values, client=client, rng=rng, side=side,
                **(overrides or {}))


def build_agent(kind: str, domain, client, rng, params=None, choices=None, base_partner: str = DEFAULT_BASE_PARTNER,
                partner_overrides=None):
    """The study's agent ``kind`` (a key of :data:`AGENTS`) from its registry entry with
    ``choices`` (flat parameter overrides); with an explicit ``params``
    (:class:`policies.astra.AgentParams`) the class is built with exactly those.  ``partner``
    is ``base_partner`` in the agent's seat (with the partner overrides)."""
    from simcore.registry import make, resolve

    if kind == "partner":
        return build_partner(base_partner, domain, domain.agent, client, rng, "agent", partner_overrides)
    if kind not in AGENTS:  # a user's agent: a registered id, or package.module:Class
        if ":" in kind:
            from simcore.argcheck import load_ref

            return load_ref(kind, "--agents")(domain=domain, client=client, rng=rng)
        return make("policy", kind, domain=domain, client=client, rng=rng)
    spec = resolve("policy", AGENTS[kind])
    if params is not None:
        extra = {k: v for k, v in spec.kwargs.items() if k in NO_ASTRA_EXTRA}
        return spec.load()(domain, client, rng, params, **extra)
    return make("policy", spec.id, domain=domain, client=client, rng=rng, **(choices or {}))


def partner_meant(partner, events) -> list[dict]:
    """What the partner meant each of its utterances to say about its priorities, in order
    ({"highest", "lowest"}: an item or None): an answer to "highest"/"lowest priority?" its
    first / last item (the order it answered from is the event's hidden ``order``), its first
    offer its top item when it mentions one (``PartnerParams.mention``), anything else
    nothing."""
    order = list(getattr(partner, "order", None) or ())
    mentions = bool(getattr(getattr(partner, "p", None), "mention", False)) and bool(order)
    out, offers = [], 0
    for e in events:
        if e.speaker != "partner" or not e.text:
            continue
        mode, meant = (e.intent or {}).get("mode"), {"highest": None, "lowest": None}
        if mode == "answer":
            told = list((e.hidden or {}).get("order") or order)
            q = e.intent.get("question")
            if told and q in meant:
                meant[q] = told[0] if q == "highest" else told[-1]
        elif mode == "offer":
            offers += 1
            if mentions and offers == 1:
                meant["highest"] = order[0]
        out.append(meant)
    return out


def score_readings(readings, partner, events) -> tuple[int, int]:
    """(readings made, readings right): each reading of a partner utterance (the agent's
    ``astra.read`` answers, in order) against what the partner meant it to say
    (:func:`partner_meant`); right when both items match (None where nothing was meant).
    The protocol knows the intent, so a parsed reading is scored (issue 20 item 6)."""
    if not readings:
        return 0, 0
    meant = partner_meant(partner, events)
    pairs = list(zip(readings, meant))
    right = sum(1 for got, want in pairs
                if got.get("highest") == want["highest"] and got.get("lowest") == want["lowest"])
    return len(pairs), right


def play_episode(domain, agent_kind: str, partner_kind: str, setup: str, seq, *, run_id: str,
                 params=None, backend=None, round_limit: int = 15, no_deal_payoff: str = "zero",
                 partner_overrides: dict | None = None, choices: dict | None = None, notice_rounds: int = 2,
                 stats=None, base_partner: str = DEFAULT_BASE_PARTNER, roles=()):
    """One negotiation; returns (Episode, record dict).  ``partner_kind`` is a key of
    :data:`PARTNERS` ("base": the stand-in ``base_partner``).  ``stats`` (a
    :class:`mockllm.client.CallStats`), when given, gets both sides' model-call counts."""
    from mockllm.client import ModelClient
    from simcore.metrics.astra import pareto_stats
    from simcore.protocols.alternating import AlternatingProtocol
    from simcore.registry import make

    backend = backend or make("backend", "mock-v1")
    pool = domain.setup(setup).partners
    k = int(child(seq, "setup").integers(len(pool))) if len(pool) > 1 else 0
    pv = pool[k]
    a_client, p_client = ModelClient(backend), ModelClient(backend)
    agent = build_agent(agent_kind, domain, a_client, child(seq, "agent"), params, choices, base_partner,
                        partner_overrides)
    partner_id = base_partner if partner_kind == "base" else PARTNERS[partner_kind]
    partner = build_partner(partner_id, domain, pv, p_client, child(seq, "partner"), "partner", partner_overrides)
    role_clients = _attach_roles(roles, agent, partner if partner_kind == "base" else None, backend, seq)
    proto = AlternatingProtocol(round_limit=round_limit, warn_rounds=notice_rounds, no_deal_payoff=no_deal_payoff)
    ep = proto.run(domain, agent, partner, domain.agent, pv, run_id)
    offers = [tuple(e.hidden["true_scores"]) for e in ep.events
              if e.speaker == "agent" and "true_scores" in e.hidden]
    opt, dists = pareto_stats(_front(domain, pv), offers)
    partner_offers = [tuple(e.hidden["true_scores"]) for e in ep.events
                      if e.speaker == "partner" and "true_scores" in e.hidden]
    p_opt, _ = pareto_stats(_front(domain, pv), partner_offers)
    tactics: dict = {}
    for e in ep.events:  # Figure 4 analogue: the tactic chosen for each offer, by the partner's stance
        trace = e.hidden.get("trace") if e.speaker == "agent" else None
        if trace and trace.get("tactic"):
            k = f"{trace['stance']}/{trace['tactic']}"
            tactics[k] = tactics.get(k, 0) + 1
    readings, readings_right = score_readings(getattr(agent, "readings", None), partner, ep.events)
    prefs = getattr(agent, "prefs", None)  # a partner in the agent's seat infers nothing
    order = prefs.order if prefs is not None else None
    record = {
        "setup": setup, "partner_index": k, "status": ep.status, "agent_score": ep.agent_score,
        "partner_score": ep.partner_score, "rounds": ep.rounds, "walked_by": ep.walked_by,
        "invalid_moves": ep.invalid_moves, "agent_offers": len(offers), "pareto_optimal": opt,
        "pareto_distance_sum": float(sum(dists)),
        "partner_offers": len(partner_offers), "partner_pareto_optimal": p_opt,
        "priority_match": None if order is None else tuple(order) == domain.order_of(pv),
        "fallbacks": a_client.stats.fallbacks + p_client.stats.fallbacks + sum(c.stats.fallbacks for c in role_clients),
        "reinferences": prefs.reinferences if prefs is not None else 0,
        "tactics": tactics, "readings": [readings, readings_right],
    }
    if stats is not None:
        stats.add(a_client.stats).add(p_client.stats)
        for c in role_clients:
            stats.add(c.stats)
    return ep, record


def _attach_roles(roles, agent, partner, backend, seq) -> list:
    """The model clients of the roles ``roles`` puts on a backend, attached to the seat
    that plays them: astra.tactic the ASTRA agent's stage-3 choice, astra.partner the moves
    of the Partner-Base stand-in (``partner``; None when the partner is another)."""
    from mockllm.roles_astra import TEMPERATURE, PartnerRole, TacticRole
    from simcore.role_backends import role_client

    clients = []
    client = role_client(roles, "astra.tactic", backend, temperature=TEMPERATURE, record=True)
    if client is not None and hasattr(agent, "tactic_role"):  # (an agent without ASTRA chooses no tactic)
        agent.tactic_role = TacticRole(client, child(seq, "role", "astra.tactic"))
        clients.append(client)
    client = role_client(roles, "astra.partner", backend, temperature=TEMPERATURE, record=True)
    if client is not None and partner is not None:
        partner.move_role = PartnerRole(client, child(seq, "role", "astra.partner"))
        clients.append(client)
    return clients


# ------------------------------------------------------------------ the study
@functools.lru_cache(maxsize=8)
def _domain(ref: str):
    from scenarios.bilateral import load_domain

    return load_domain(ref)


class AstraStudy:
    #: the metrics a sweep shows on the terminal (Table 1's columns; --metrics chooses others)
    sweep_headline = ("results.*.agent_score_all", "results.*.partner_score_all", "results.*.agreement_rate", "results.*.walk_away_rate")
    #: the shares among the metrics, with the metric counting each one's trials (a sweep gives
    #: them Wilson intervals: simcore.metrics.proportions)
    sweep_shares = {f"{block}.*.{rate}": "episodes" for block in ("results", "by_setup")
                    for rate in ("agreement_rate", "walk_away_rate")}
    name = SYSTEM

    def jobs(self, config: AstraConfig) -> list[Job]:
        main = (config.alpha, config.beta)
        keys = []
        for agent in config.agents:
            for partner in config.partners:
                for setup in config.setups:
                    keys.append((agent, partner, setup, _wkey(*main)))
        if config.weights_sweep:
            for pair in WEIGHT_PAIRS:
                for setup in _headline_setups(config):
                    key = ("astra", config.sweep_partner, setup, _wkey(*pair))
                    if key not in keys:
                        keys.append(key)
        return [Job(index=i, key=k, params={}) for i, k in enumerate(keys)]

    def run_job(self, config: AstraConfig, job: Job) -> JobOutput:
        from mockllm.client import CallStats
        from simcore.backends import build_backend

        agent, partner, setup, wk = job.key
        alpha, beta = (float(x.split("=")[1]) for x in wk.split(","))
        domain = _domain(config.domain)
        choices = dict(alpha=alpha, beta=beta, w=config.w, top_n=config.top_n, bound_span=config.bound_span,
                       solver=config.solver, accept_rule=config.accept_rule, **dict(config.agent_params))
        backend = build_backend(config.backend, config.backend_args, record=config.record, replay=config.replay,
                                replay_misses=config.replay_misses)
        records, events, fallbacks, stats = [], [], 0, CallStats()
        keep = config.keep_transcripts and wk == _wkey(config.alpha, config.beta)
        for ep_i in range(config.episodes):
            ep_seq = derive(config.seed, SYSTEM, *job.key, ep_i)  # = child of the job's sequence
            run_id = f"{SYSTEM}/s{config.seed}/{agent}/{partner}/{setup}/{wk}/e{ep_i}"
            ep, rec = play_episode(domain, agent, partner, setup, ep_seq, run_id=run_id, choices=choices,
                                   partner_overrides=dict(config.partner_params),
                                   backend=backend, round_limit=config.round_limit,
                                   no_deal_payoff=config.no_deal_payoff, notice_rounds=config.notice_rounds,
                                   stats=stats, base_partner=config.base_partner, roles=config.roles)
            records.append(rec)
            fallbacks += rec["fallbacks"]
            if keep:
                events.extend(ep.events)
        return JobOutput(key=job.key, record={"episodes": records}, events=tuple(events), fallbacks=fallbacks,
                         calls=stats.task_counts())

    def summarize(self, config: AstraConfig, outputs: Sequence[JobOutput]) -> Summary:
        from simcore.metrics.astra import aggregate, tactic_shares

        main = _wkey(config.alpha, config.beta)
        headline = _headline_setups(config)
        by_pair: dict[str, list] = {}
        by_setup: dict[str, list] = {}
        sweep: dict[str, list] = {}
        for out in outputs:
            agent, partner, setup, wk = out.key
            recs = list(out.record["episodes"])
            if wk == main and agent in config.agents and partner in config.partners:
                if setup in headline:
                    by_pair.setdefault(f"{agent}__{partner}", []).extend(recs)
                by_setup.setdefault(f"{agent}__{partner}__{setup}", []).extend(recs)
            if config.weights_sweep and agent == "astra" and partner == config.sweep_partner and setup in headline:
                sweep.setdefault(wk, []).extend(recs)
        results = {k: aggregate(v) for k, v in by_pair.items()}
        setups = {k: aggregate(v) for k, v in by_setup.items()}
        tactics = {k: tactic_shares(v) for k, v in by_pair.items()
                   if not k.startswith(("no-astra", "partner__"))}
        domain = _domain(config.domain)
        metrics: dict[str, Any] = {"system": SYSTEM, "seed": config.seed, "headline_setups": list(headline),
                                   "results": results, "by_setup": setups, "tactics": tactics,
                                   "config": config_block(config),
                                   "fallbacks": int(sum(o.fallbacks for o in outputs))}
        tables = [self._table1(config, results, headline), self._table_setups(setups, domain),
                  self._table_tactics(tactics)]
        if config.weights_sweep:
            sw = {wk: aggregate(v) for wk, v in sweep.items()}
            metrics["weights_sweep"] = {"partner": config.sweep_partner, "setups": list(headline), "results": sw}
            tables.append(self._table4(config, sw, headline))
        return with_model_calls(Summary(SYSTEM, metrics, tables), outputs)

    @staticmethod
    def _table1(config, results, headline) -> Table:
        rows = []
        for key, m in results.items():
            agent, partner = key.split("__")
            rows.append((agent, partner, m["agent_score_all"], m["partner_score_all"], m["joint_score_all"],
                         m["agent_score_agreed"], m["partner_score_agreed"], m["agreement_rate"],
                         m["walk_away_rate"], m["pareto_optimal_share"], m["pareto_distance_mean"],
                         m["priority_match_rate"], m.get("reading_accuracy")))
        return Table("astra_table1", f"ASTRA Table 1 analogue: {config.domain}, pooled over setups "
                     f"{','.join(headline)}, {config.episodes} episodes each, alpha={config.alpha:g} "
                     f"beta={config.beta:g}, solver {config.solver}",
                     ("agent", "partner", "agent all", "partner all", "joint all", "agent agreed",
                      "partner agreed", "agree rate", "walk-away", "pareto share", "pareto dist", "prio match",
                      "readings right"),
                     rows,
                     note="scores: mean points (no deal scores 0); rates are fractions; setups marked "
                          "(simcore) in the per-setup table are simcore's additions, not pooled here; readings "
                          "right: the agent's readings of the partner's words that match what the partner meant")

    @staticmethod
    def _table_setups(setups, domain) -> Table:
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

    @staticmethod
    def _table_tactics(tactics) -> Table:
        from policies.astra_modules import TACTICS

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

    @staticmethod
    def _table4(config, sw, headline) -> Table:
        rows = []
        for pair in WEIGHT_PAIRS:
            m = sw.get(_wkey(*pair))
            if m is None:
                continue
            rows.append((pair[0], pair[1], m["agent_score_all"], m["partner_score_all"], m["agent_score_agreed"],
                         m["partner_score_agreed"], m["walk_away_rate"]))
        return Table("astra_table4", f"ASTRA Table 4 analogue: alpha/beta sweep against the "
                     f"{config.sweep_partner} partner, setups {','.join(headline)}",
                     ("alpha", "beta", "agent all", "partner all", "agent agreed", "partner agreed",
                      "walk-away"), rows)


def _headline_setups(config) -> tuple:
    """The chosen setups the paper reports (all chosen setups when none of them is)."""
    paper = set(_domain(config.domain).paper_setups)
    return tuple(s for s in config.setups if s in paper) or tuple(config.setups)


STUDY = AstraStudy()
ROLES = _roles()
CLAIMS = _claims()


# ------------------------------------------------------------------ conformance
class AstraConformance:
    """The protocol object the conformance suite makes: a short CaSiNo negotiation
    (integrative setup, 8 rounds) in which the given policy plays."""

    SOURCES = {"round_limit": "choice, conformance runs only: a short 8-round CaSiNo negotiation; the study's "
                              "round limit is --rounds (15, the published runs in the reference notes)"}

    def __init__(self, round_limit: int = 8):
        self.round_limit = round_limit

    def conformance_run(self, policy_id: str, seed: int):
        from simcore.registry import make, resolve

        spec = resolve("policy", policy_id)
        domain = _domain("casino-v1")
        backend = make("backend", "mock-v1")
        seq = derive(seed, SYSTEM, "conformance", spec.id)
        base = DEFAULT_BASE_PARTNER
        if spec.meta.get("role") == "agent":
            agent = {v: k for k, v in AGENTS.items() if v}.get(spec.id, spec.id)  # a user's agent: its id
            partner = "base"
        elif spec.id in BASE_PARTNERS:
            agent, partner, base = "astra", "base", spec.id
        else:
            agent, partner = "astra", {v: k for k, v in PARTNERS.items()}[spec.id]
        ep, _ = play_episode(domain, agent, partner, "integrative", seq, backend=backend, base_partner=base,
                             run_id=f"{SYSTEM}/conformance/{spec.id}/s{seed}", round_limit=self.round_limit)
        return list(ep.events)


# ------------------------------------------------------------------ rendering
def render_run(events) -> str:
    events = list(events)
    lines = [f"== {events[0].run} =="] if events else []
    names = {"agent": "NegoAgent", "partner": "PartnerAgent", "system": "[protocol]"}
    for e in events:
        who = names.get(e.speaker, e.speaker)
        tag = f"r{e.round:>2} {who:<12}"
        if e.phase == "end":
            h = e.hidden
            lines.append(f"{tag} {e.text} status={e.intent.get('status')} outcome="
                         f"{e.intent.get('outcome_text') or '-'} | agent {h.get('agent_score', 0):g} "
                         f"vs partner {h.get('partner_score', 0):g}")
            continue
        mode = e.intent.get("mode") or e.phase
        line = f"{tag} ({mode}) {e.text}"
        if "offer_text" in e.intent:
            sc = e.hidden.get("true_scores", [None, None])
            line += f"  [offer {e.intent['offer_text']} | agent {sc[0]:g} / partner {sc[1]:g}]"
        lines.append(line)
        if e.hidden.get("inconsistency"):
            lines.append(f"{'':17}[Consistency Checker] inconsistency: {e.hidden['inconsistency']}; "
                         f"IPP re-inferred as {e.hidden.get('ipp_reinferred')}")
        trace = e.hidden.get("trace")
        if trace and "tactic" in trace:
            from policies.astra import trace_line

            lines.append(f"{'':17}{trace_line(trace)}")
        elif trace and "heuristic" in trace:
            lines.append(f"{'':17}[no ASTRA] target {trace['target']:g}")
        if e.speaker == "agent" and e.intent.get("why"):
            lines.append(f"{'':17}[decision] {e.intent['why']}")
    return "\n".join(lines)


def _playthrough(domain_id, agent, partner, setup, seed=7, round_limit=15, label=None,
                 base_partner=DEFAULT_BASE_PARTNER):
    """``label`` names the agent in the seed and run id (the v1 playthroughs use the label
    "astra" and the partner base-partner-v1, so they replay the pre-issue-10 golden files byte
    for byte)."""
    from mockllm.mock import MockBackend

    domain = _domain(domain_id)
    label = label or agent
    seq = derive(seed, SYSTEM, "playthrough", domain_id, label, partner, setup)
    ep, _ = play_episode(domain, agent, partner, setup, seq, backend=MockBackend(exact=True),
                         run_id=f"{SYSTEM}/playthrough/{domain_id}/{label}/{partner}/{setup}",
                         round_limit=round_limit, base_partner=base_partner)
    return render_run(ep.events) + "\n"


PLAYTHROUGHS = {
    "casino-integrative-base": lambda: _playthrough("casino-v1", "astra", "base", "integrative"),
    "casino-distributive-greedy": lambda: _playthrough("casino-v1", "astra", "greedy", "distributive"),
    "casino-integrative-no-astra": lambda: _playthrough("casino-v1", "no-astra", "base", "integrative"),
    "research-mixed-base": lambda: _playthrough("research-allocation-v1", "astra", "base", "mixed"),
    # astra-agent-v1 on the same seeds: identical to the golden files before issue 10
    "v1-casino-integrative-base": lambda: _playthrough("casino-v1", "astra-v1", "base", "integrative",
                                                       label="astra", base_partner="base-partner-v1"),
    "v1-casino-distributive-greedy": lambda: _playthrough("casino-v1", "astra-v1", "greedy", "distributive",
                                                          label="astra"),
}


# ------------------------------------------------------------------ Figure 7
def plot_offers(transcripts: str, domain_ref: str, png: str, *, agent: str = "astra", partner: str = "base",
                setup: str = "integrative") -> str:
    """Figure 7 analogue: every outcome of the domain in (agent score, partner score) space under
    the true values, the Pareto frontier, the agent's offers and the partner's offers of the
    chosen pairing and setup.  Needs the ``plot`` extra (matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--plot", "", "needs matplotlib: pip install 'simcore[plot]'") from None
    from simcore.metrics.astra import frontier, score_points
    from simcore.transcript import read_jsonl

    domain = _domain(domain_ref)
    marker = f"/{agent}/{partner}/{setup}/"
    mine, theirs, pv = [], [], None
    for e in read_jsonl(transcripts):
        if marker not in e.run or "true_scores" not in e.hidden:
            continue
        (mine if e.speaker == "agent" else theirs).append(tuple(e.hidden["true_scores"]))
    pool = domain.setup(setup).partners
    pv = pool[0]
    pts = score_points(domain, domain.agent, pv)
    front = sorted(frontier(pts))
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=12, c="lightgrey", label="outcomes")
    ax.plot([p[0] for p in front], [p[1] for p in front], "o-", c="green", mfc="none", label="Pareto frontier")
    if theirs:
        ax.scatter([p[0] for p in theirs], [p[1] for p in theirs], s=18, c="red", alpha=0.3,
                   label=f"{partner} partner offers")
    if mine:
        ax.scatter([p[0] for p in mine], [p[1] for p in mine], s=18, c="blue", alpha=0.3, label=f"{agent} offers")
    ax.set_xlabel("agent score")
    ax.set_ylabel("partner score")
    title = f"{domain.id}, {setup}" + (" (first partner of the setup)" if len(pool) > 1 else "")
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    import os

    tmp = os.path.join(os.path.dirname(os.path.abspath(png)), f".{os.path.basename(png)}.tmp-{os.getpid()}")
    try:  # written beside, then renamed into place (simcore.files: outputs are atomic)
        fig.savefig(tmp, dpi=110, format="png")
        os.replace(tmp, png)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise InputError(png, "", f"cannot write ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return png


# ------------------------------------------------------------------ CLI
def _check_setups(domain_ref: str, setups) -> tuple:
    domain = _domain(domain_ref)
    valid = domain.setup_names
    if not setups:
        raise click.BadParameter(f"empty list; valid: {', '.join(valid)}", param_hint="--setups")
    bad = [s for s in setups if s not in valid]
    if bad:
        raise click.BadParameter(f"unknown setup(s) {', '.join(map(repr, bad))} for domain {domain.id}; "
                                 f"valid: {', '.join(valid)}", param_hint="--setups")
    return tuple(setups)


@click.command(name=SYSTEM)
@common_options(SYSTEM)
@click.option("--domain", default="casino-v1", show_default=True,
              help="Shipped domain id (casino-v1, research-allocation-v1) or a domain JSON file.")
@click.option("--setups", default=",".join(SETUPS), show_default=True,
              help="Comma-separated setups of the domain (casino: integrative, distributive, mixed).")
@click.option("--partners", type=CommaChoice(tuple(PARTNERS)), default=",".join(PARTNERS), show_default=True)
@click.option("--agents", type=SeatChoice(tuple(AGENTS), SYSTEM, "agent"), default=",".join(DEFAULT_AGENTS),
              show_default=True,
              help="astra: astra-agent-v3; no-astra: no-astra-agent-v2; astra-v2: stage 3 before issue 17; "
                   "astra-v1 / no-astra-v1: before issue 10; "
                   "partner: the --base-partner stand-in in the agent's seat (partner-vs-partner episodes: "
                   "--agents partner --partners base); or your own agent: a registered id or "
                   "package.module:Class, built as Class(domain=, client=, rng=) with act(observation) (docs/api.md).")
@click.option("--base-partner", type=click.Choice(tuple(BASE_PARTNERS)), default=DEFAULT_BASE_PARTNER,
              show_default=True,
              help="The stand-in for the paper's GPT-4o Partner-Base (`simcore roles astra` gives each one's "
                   "evidence).")
@click.option("--episodes", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="Episodes per agent x partner x setup.")
@click.option("--alpha", type=FloatRange(0, 1), default=0.35, show_default=True, help="PAP weight (eq. 4).")
@click.option("--beta", type=FloatRange(0, 1), default=0.65, show_default=True, help="SA weight (eq. 4).")
@click.option("--w", "w", type=FloatRange(0, 1), default=0.75, show_default=True, help="TS weight in PAP.")
@click.option("--top-n", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option("--solver", type=click.Choice(["exact", "pulp"]), default="exact", show_default=True)
@click.option("--rounds", "round_limit", type=click.IntRange(2, 10_000), default=15, show_default=True)
@click.option("--no-deal-payoff", type=click.Choice(["zero", "batna"]), default="zero", show_default=True)
@click.option("--accept-rule", type=click.Choice(["paper", "counter"]), default="paper", show_default=True)
@click.option("--agent-param", "agent_params", multiple=True, callback=_parse_agent_params, metavar="NAME=VALUE",
              help="Set any agent parameter over the registry entry (repeatable), e.g. reo_scope=initial, "
                   "hold_against_fair=false, order=REO,AEO,RNC,CSC,NCR,RC,LIC,MGF,LGR, deadline_rounds_left=1,2, "
                   "smax_share=1. Names: policies.astra.AgentParams and TacticParams fields.")
@click.option("--partner-param", "partner_params", multiple=True, callback=_parse_partner_params,
              metavar="NAME=VALUE",
              help="Set a partner parameter for every partner (repeatable), e.g. floor_share=0.4. Names: "
                   "policies.partners.PartnerParams fields (the partners' registry entries list the defaults).")
@click.option("--notice-rounds", type=click.IntRange(0, 10_000), default=2, show_default=True,
              help="The deadline notice is given at the start of the round with this many rounds left "
                   "(counting that round); 0: no notice.")
@click.option("--weights-sweep", is_flag=True, help="Also run the alpha/beta pairs of Table 4.")
@click.option("--sweep-partner", type=click.Choice(tuple(PARTNERS)), default="base", show_default=True)
@click.option("--plot", is_flag=True,
              help="Also write OUT/astra_offers.png (Figure 7: offers vs the Pareto frontier; needs matplotlib).")
@backend_options
def command(seed, workers, out, progress, domain, setups, partners, agents, base_partner, episodes, alpha, beta, w,
            top_n,
            solver, round_limit, no_deal_payoff, accept_rule, agent_params, partner_params, notice_rounds,
            weights_sweep, sweep_partner, plot, backend, backend_args, record, replay):
    """ASTRA agent vs partner agents (paper Tables 1 and 4)."""
    setups = _check_setups(domain, [s.strip() for s in setups.split(",") if s.strip()])
    config = AstraConfig(seed=seed, domain=domain, setups=setups, partners=partners, agents=agents,
                         episodes=episodes, alpha=alpha, beta=beta, w=w, top_n=top_n, solver=solver,
                         round_limit=round_limit, no_deal_payoff=no_deal_payoff, accept_rule=accept_rule,
                         agent_params=agent_params, partner_params=partner_params, notice_rounds=notice_rounds,
                         weights_sweep=weights_sweep, sweep_partner=sweep_partner, base_partner=base_partner,
                         **backend_settings(backend, backend_args, record, replay, workers))
    if plot:  # fail before the run, not after it
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError("--plot", "", "needs matplotlib: pip install 'simcore[plot]'") from None
    launch(f"simcore.studies.{SYSTEM}:STUDY", config, workers=workers, out=out, progress=progress)
    if plot:
        import os

        agent = "astra" if "astra" in agents else agents[0]
        partner = "base" if "base" in partners else partners[0]
        setup = "integrative" if "integrative" in setups else setups[0]
        png = plot_offers(os.path.join(out, "transcripts.jsonl"), domain, os.path.join(out, "astra_offers.png"),
                          agent=agent, partner=partner, setup=setup)
        click.echo(f"wrote {png} ({agent} vs {partner}, {setup})")


def run_default(seed: int = 0, workers: int = 1, out: str | None = None, progress: bool | None = None):
    """The paper-scale study: 100 episodes x every partner x three setups, both agents,
    plus the Table 4 weight sweep against the base partner."""
    config = AstraConfig(seed=seed, weights_sweep=True)
    return launch(f"simcore.studies.{SYSTEM}:STUDY", config, workers=workers, out=out, progress=progress)


__all__ = ["STUDY", "REGISTRY", "command", "run_default", "render_run", "PLAYTHROUGHS", "AstraConfig",
           "play_episode", "plot_offers"]
