"""The ASTRA study: the ASTRA agent (and the agent without ASTRA) against the partner
agents on a bilateral domain, in the integrative / distributive / mixed setups
(paper Tables 1 and 4).

``simcore run astra`` prints the analogue of Table 1 (one row per agent/partner pairing, pooled
over the chosen setups the paper reports -- a domain marks simcore's own setups with
``"source": "simcore"``), a per-setup table (simcore's setups labelled), the tactics chosen by
partner stance (Figure 4 analogue) and with ``--weights-sweep`` the analogue of Table 4 (the
alpha/beta pairs of the paper against one partner, the paper's setups).  ``metrics.json`` holds
``{"system": "astra", "seed": S, "headline_setups": [...], "results": {"<agent>__<partner>":
{...}}, "by_setup": ..., "tactics": ..., ...}``.

Every episode's randomness comes from ``derive(seed, "astra", *job.key)`` and its children (one
per episode: the mixed setup's partner draw, each side's model calls), so results do not depend
on the worker count.
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from mockllm.client import CallStats
from policies.astra import AgentParams
from scenarios.bilateral import load_domain
from simcore.argcheck import seat_ref
from simcore.backends import build_backend
from simcore.metrics.astra import aggregate, claim_intervals, tactic_shares
from simcore.readings import reading_totals
from simcore.role_backends import check_roles
from simcore.seeding import derive
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.systems.astra.match import play_episode
from simcore.systems.astra.params import (_check_agent_params, _check_partner_params, parse_agent_params_text,
                                          parse_partner_params_text)
from simcore.systems.astra.registry import (AGENTS, BASE_PARTNERS, DEFAULT_AGENTS, DEFAULT_BASE_PARTNER,
                                            PARTNERS, SETUPS, SYSTEM, WEIGHT_PAIRS, wkey)
from simcore.systems.astra.tables import table1, table4, table_by_setup, table_tactics, table_walk_aways


def _tuple(x):
    return tuple(x)


def _agent_default(name: str):
    """The default of an :class:`policies.astra.AgentParams` field (one source of truth)."""
    return attrs.fields_dict(AgentParams)[name].default


def _check_seats(value) -> None:
    if not value:
        raise ValueError("agents: none given")
    for v in value:
        why = seat_ref(v, SYSTEM, "agent", tuple(AGENTS))
        if why:
            raise ValueError(f"agents: {why}")


def _check_seat_values(value) -> None:
    for seat_, policy in value:
        if seat_ not in ("agent", "partner"):
            raise ValueError(f"seats: astra has no seat {seat_!r}; seats: agent, partner")
        why = seat_ref(policy, SYSTEM, seat_, ())
        if why:
            raise ValueError(f"seats: {seat_}={policy}: {why}")


def _check_roles(value) -> tuple:
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
    # who takes a seat in every episode (--seat SEAT=POLICY): ((seat, policy), ...), over --agents / --partners
    seats: tuple = attrs.field(default=(), converter=lambda v: tuple((str(a), str(b)) for a, b in v),
                               validator=lambda _i, _a, v: _check_seat_values(v))

    @property
    def agent_seats(self) -> tuple:
        """The agents the study plays: ``--seat agent=...`` if given, else ``agents``."""
        return (dict(self.seats)["agent"],) if "agent" in dict(self.seats) else self.agents

    @property
    def partner_seats(self) -> tuple:
        """The partners the study plays: ``--seat partner=...`` if given, else ``partners``."""
        return (dict(self.seats)["partner"],) if "partner" in dict(self.seats) else self.partners


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
        for agent in config.agent_seats:
            for partner in config.partner_seats:
                for setup in config.setups:
                    keys.append((agent, partner, setup, wkey(*main)))
        if config.weights_sweep:
            for pair in WEIGHT_PAIRS:
                for setup in _headline_setups(config):
                    key = ("astra", config.sweep_partner, setup, wkey(*pair))
                    if key not in keys:
                        keys.append(key)
        return [Job(index=i, key=k, params={}) for i, k in enumerate(keys)]

    def run_job(self, config: AstraConfig, job: Job) -> JobOutput:
        agent, partner, setup, wk = job.key
        alpha, beta = (float(x.split("=")[1]) for x in wk.split(","))
        domain = load_domain(config.domain)
        choices = dict(alpha=alpha, beta=beta, w=config.w, top_n=config.top_n, bound_span=config.bound_span,
                       solver=config.solver, accept_rule=config.accept_rule, **dict(config.agent_params))
        backend = build_backend(config.backend, config.backend_args, record=config.record, replay=config.replay,
                                replay_misses=config.replay_misses)
        records, events, fallbacks, stats = [], [], 0, CallStats()
        keep = config.keep_transcripts and wk == wkey(config.alpha, config.beta)
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
        main = wkey(config.alpha, config.beta)
        headline = _headline_setups(config)
        by_pair: dict[str, list] = {}
        by_setup: dict[str, list] = {}
        sweep: dict[str, list] = {}
        for out in outputs:
            agent, partner, setup, wk = out.key
            recs = list(out.record["episodes"])
            if wk == main and agent in config.agent_seats and partner in config.partner_seats:
                if setup in headline:
                    by_pair.setdefault(f"{agent}__{partner}", []).extend(recs)
                by_setup.setdefault(f"{agent}__{partner}__{setup}", []).extend(recs)
            if config.weights_sweep and agent == "astra" and partner == config.sweep_partner and setup in headline:
                sweep.setdefault(wk, []).extend(recs)
        results = {k: aggregate(v) for k, v in by_pair.items()}
        setups = {k: aggregate(v) for k, v in by_setup.items()}
        tactics = {k: tactic_shares(v) for k, v in by_pair.items()
                   if not k.startswith(("no-astra", "partner__"))}
        domain = load_domain(config.domain)
        metrics: dict[str, Any] = {"system": SYSTEM, "seed": config.seed, "headline_setups": list(headline),
                                   "results": results, "by_setup": setups, "tactics": tactics,
                                   "config": config_block(config),
                                   "fallbacks": int(sum(o.fallbacks for o in outputs)),
                                   "readings": _run_readings(outputs),
                                   "claim_intervals": claim_intervals(by_pair.get("astra__base", []),
                                                                      by_pair.get("no-astra__base", []))}
        tables = [table1(config, results, headline), table_by_setup(setups, domain), table_tactics(tactics),
                  table_walk_aways(results)]
        if config.weights_sweep:
            sw = {wk: aggregate(v) for wk, v in sweep.items()}
            metrics["weights_sweep"] = {"partner": config.sweep_partner, "setups": list(headline), "results": sw}
            tables.append(table4(config, sw, headline))
        return with_model_calls(Summary(SYSTEM, metrics, tables), outputs)


def _run_readings(outputs) -> dict:
    """``metrics["readings"]``: the accepted readings of every episode of the run, and how many were right."""
    recs = [r for o in outputs for r in o.record["episodes"]]
    return reading_totals(sum(r["readings"][0] for r in recs), sum(r["readings"][1] for r in recs))


def _headline_setups(config) -> tuple:
    """The chosen setups the paper reports (all chosen setups when none of them is)."""
    paper = set(load_domain(config.domain).paper_setups)
    return tuple(s for s in config.setups if s in paper) or tuple(config.setups)


STUDY = AstraStudy()
