"""ASTRA against the public population of NegMAS agents (``simcore run astra-population``).

The agents (ASTRA, ``astra-agent-v4``, and the agent without ASTRA, ``no-astra-agent-v2``) each
negotiate in the agent's seat against every agent of the installed NegMAS agent packages
(:mod:`simcore.bridges.negmas.population`: ``negmas-genius-agents``, ``negmas-negolog``), seated in
the partner's seat through :mod:`simcore.bridges.negmas.seat` (truthful answers to priority
questions by default, ``--answers none`` for none), and -- the reference -- against simcore's own
partners, over the domain's priority pairings (CaSiNo's integrative, distributive and mixed
setups) and ``--episodes`` seeds each.  The NegMAS extra must be installed
(``pip install 'simcore[negmas]' negmas-genius-agents negmas-negolog``).

One job per (agent, opponent); every episode's randomness comes from
``derive(seed, "astra-population", agent, opponent, setup, episode)`` and its children (the
foreign agent's from the partner seat's, :mod:`simcore.bridges.negmas.randomness`), so the outputs
are byte-identical whatever the worker count.  A job runs with the BLAS thread pools limited to one
thread (``threadpoolctl``, where installed): an agent that fits a model with NumPy/SciPy (NegoLog's
IAMhaggler, a Gaussian process) repeats exactly only then.

Per episode: the status, both sides' points, whether an agreed deal is Pareto-optimal under both
sides' true valuations (:func:`simcore.bilateral.is_pareto_optimal`), the joint points over the most
any outcome gives (:func:`simcore.bilateral.max_joint`), and a walk-away's cause: the agent's rule
(``no concession``, ``below BATNA``) or how the foreign side ended it (``ended``: its
``END_NEGOTIATION`` or no offer, ``exception``, ``timed out``).  ``metrics.json`` holds the
packages' versions, and per pairing and per group (simcore's partners, each package, the whole
population) the pooled figures; the tables are ``population_summary`` (by group) and
``population_agents`` (one row per opponent, ASTRA and the agent without ASTRA side by side).
"""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import attrs

from scenarios.bilateral import load_domain
from simcore.backends import backend_object
from simcore.bilateral import is_pareto_optimal, max_joint
from simcore.bridges.negmas.population import PACKAGES, agents, installed, versions
from simcore.bridges.negmas.seat import ANSWERS, NegotiatorSeat
from simcore.errors import AgentError, InputError
from simcore.seeding import derive
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.systems.astra.match import start
from simcore.systems.astra.registry import AGENTS, PARTNERS, SETUPS
from simcore.tables import Table

try:  # (installed with scikit-learn, which negmas-negolog requires)
    from threadpoolctl import threadpool_limits
except ImportError:  # pragma: no cover - without it BLAS may run threaded
    threadpool_limits = None

NAME = "astra-population"
STUDY_AGENTS = ("astra", "no-astra")
CAUSES = ("no concession", "below BATNA", "ended", "exception", "timed out")


def _subset(valid):
    def check(_inst, attr, value):
        bad = [v for v in value if v not in valid]
        if bad:
            raise ValueError(f"{attr.name}: unknown value(s) {bad}; valid: {', '.join(valid)}")

    return check


def _refs(_inst, attr, value):
    bad = [v for v in value if ":" not in v]
    if bad:
        raise ValueError(f"{attr.name}: {bad[0]!r} is not package.module:Class")


@attrs.frozen
class PopulationConfig:
    seed: int = 0
    domain: str = "casino-v1"
    setups: tuple = attrs.field(default=SETUPS, converter=tuple)
    episodes: int = attrs.field(default=3, validator=attrs.validators.ge(1))
    agents: tuple = attrs.field(default=STUDY_AGENTS, converter=tuple, validator=_subset(STUDY_AGENTS))
    #: simcore's partners, the reference (study names)
    references: tuple = attrs.field(default=tuple(PARTNERS), converter=tuple, validator=_subset(tuple(PARTNERS)))
    #: the agent packages whose every agent is an opponent
    packages: tuple = attrs.field(default=tuple(PACKAGES), converter=tuple, validator=_subset(tuple(PACKAGES)))
    #: further opponents by import path, and agents of the packages left out
    extra: tuple = attrs.field(default=(), converter=tuple, validator=_refs)
    exclude: tuple = attrs.field(default=(), converter=tuple)
    answers: str = attrs.field(default="truthful", validator=attrs.validators.in_(ANSWERS))
    round_limit: int = attrs.field(default=15, validator=attrs.validators.ge(2))
    notice_rounds: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    no_deal_payoff: str = attrs.field(default="zero", validator=attrs.validators.in_(("zero", "batna")))
    backend: str = "mock-v1"

    def population(self) -> list[str]:
        """The foreign opponents: every agent of the chosen installed packages, then ``extra``,
        without ``exclude``."""
        have = installed()
        out = [ref for p in self.packages if p in have for ref in agents(p)] + list(self.extra)
        return [ref for ref in out if ref not in self.exclude]


def group_of(opponent: str) -> str:
    """The group an opponent belongs to: ``simcore`` (a reference partner), its package, or ``other``."""
    if ":" not in opponent:
        return "simcore"
    package = opponent.split(":")[0].split(".")[0]
    return PACKAGES.get(package, "other")


class PopulationStudy:
    name = NAME
    sweep_headline = ("groups.*.agreement_rate", "groups.*.agent_points")

    def jobs(self, config: PopulationConfig) -> list[Job]:
        opponents = list(config.references) + config.population()
        keys = [(agent, opp) for agent in config.agents for opp in opponents]
        return [Job(index=i, key=k) for i, k in enumerate(keys)]

    def run_job(self, config: PopulationConfig, job: Job) -> JobOutput:
        with warnings.catch_warnings():  # (the foreign agents' own warnings: numerical, deprecations)
            warnings.simplefilter("ignore")
            if threadpool_limits is None:
                return self._run(config, job)
            with threadpool_limits(limits=1):
                return self._run(config, job)

    def _run(self, config: PopulationConfig, job: Job) -> JobOutput:
        agent, opponent = job.key
        domain = load_domain(config.domain)
        records = []
        for setup in config.setups:
            for e in range(config.episodes):
                seq = derive(config.seed, NAME, agent, opponent, setup, e)
                records.append(episode(domain, config, agent, opponent, setup, seq, e))
        return JobOutput(key=job.key, record={"episodes": records})

    def summarize(self, config: PopulationConfig, outputs: Sequence[JobOutput]) -> Summary:
        pairs = {f"{o.key[0]}__{o.key[1]}": pooled(o.record["episodes"]) for o in outputs}
        groups: dict[str, list] = {}
        for o in outputs:
            agent, opponent = o.key
            g = group_of(opponent)
            groups.setdefault(f"{agent}__{g}", []).extend(o.record["episodes"])
            if g != "simcore":
                groups.setdefault(f"{agent}__population", []).extend(o.record["episodes"])
        group_metrics = {k: pooled(v) for k, v in groups.items()}
        metrics = {"system": NAME, "seed": config.seed, "versions": versions(), "config": config_block(config),
                   "groups": group_metrics, "pairs": pairs,
                   "errors": sorted({f"{o.key[1]}: {r['error']}" for o in outputs for r in o.record["episodes"]
                                     if r.get("error")})}
        tables = [summary_table(config, group_metrics), agents_table(config, pairs)]
        return with_model_calls(Summary(NAME, metrics, tables), outputs)


def episode(domain, config: PopulationConfig, agent: str, opponent: str, setup: str, seq, e: int) -> dict:
    """One negotiation's record (the module docstring's fields)."""
    seats: list = []
    if group_of(opponent) == "simcore":
        partner: Any = PARTNERS[opponent]
    else:
        def partner(setup, no_deal_payoff="zero"):  # (the seat kept, for how it ended)
            seats.append(NegotiatorSeat(opponent, setup, no_deal_payoff=no_deal_payoff, answers=config.answers))
            return seats[-1]
    run_id = f"{NAME}/s{config.seed}/{agent}/{opponent}/{setup}/e{e}"
    try:
        match = start(domain, seq, agent=AGENTS[agent], partner=partner, setup=setup, run_id=run_id,
                      backend=backend_object(config.backend),
                      round_limit=config.round_limit, notice_rounds=config.notice_rounds,
                      no_deal_payoff=config.no_deal_payoff)
        ep, rec = match.run()
    except (InputError, AgentError) as exc:  # the foreign agent could not be built or played
        return {"setup": setup, "status": "error", "error": str(exc)[:200]}
    pv = match.state.values["partner"]
    out = {"setup": setup, "status": ep.status, "agent_score": ep.agent_score, "partner_score": ep.partner_score,
           "rounds": ep.rounds, "walked_by": ep.walked_by, "cause": "", "pareto": None,
           "joint_share": (ep.agent_score + ep.partner_score) / (max_joint(domain, domain.agent, pv) or 1.0),
           "priority_match": rec["priority_match"], "fallbacks": rec["fallbacks"]}
    if ep.status == "agreement":
        out["pareto"] = is_pareto_optimal(domain, domain.agent, pv, ep.outcome)
    elif ep.status == "walk_away":
        if ep.walked_by == "agent":
            why = next((ev.intent.get("why", "") for ev in ep.events if ev.phase == "walk_away"), "")
            out["cause"] = "no concession" if "concession" in why else "below BATNA"
        else:
            out["cause"] = seats[-1].ended_by if seats else "ended"
    return out


def _mean(xs) -> Any:
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 4) if xs else None


def pooled(records: Sequence[dict]) -> dict:
    """A pairing's or a group's figures over its episodes."""
    ok = [r for r in records if r["status"] != "error"]
    agreed = [r for r in ok if r["status"] == "agreement"]
    out = {"episodes": len(records), "errors": len(records) - len(ok),
           "agreement_rate": _mean(1.0 if r["status"] == "agreement" else 0.0 for r in ok),
           "agent_points": _mean(r["agent_score"] for r in ok),
           "partner_points": _mean(r["partner_score"] for r in ok),
           "pareto_share_agreed": _mean(1.0 if r["pareto"] else 0.0 for r in agreed),
           "joint_share": _mean(r["joint_share"] for r in ok),
           "joint_share_agreed": _mean(r["joint_share"] for r in agreed),
           "priority_match_rate": _mean(None if r["priority_match"] is None else float(r["priority_match"])
                                        for r in ok),
           "no_agreement": sum(1 for r in ok if r["status"] == "no_agreement"),
           "mean_rounds": _mean(r["rounds"] for r in ok)}
    out["walk_aways"] = {f"{who}: {cause}": n for who in ("agent", "partner") for cause in CAUSES
                         if (n := sum(1 for r in ok if r["status"] == "walk_away" and r["walked_by"] == who
                                      and r["cause"] == cause))}
    return out


def _walks(m: dict, who: str) -> str:
    parts = [f"{k.split(': ')[1]} {n}" for k, n in m["walk_aways"].items() if k.startswith(who)]
    return ", ".join(parts) or "-"


def summary_table(config: PopulationConfig, groups: dict) -> Table:
    rows = []
    order = ["simcore", *PACKAGES.values(), "other", "population"]
    for agent in config.agents:
        for g in order:
            m = groups.get(f"{agent}__{g}")
            if m is None:
                continue
            rows.append((agent, g if g != "simcore" else "simcore's partners (reference)", m["episodes"],
                         m["agreement_rate"], m["agent_points"], m["partner_points"], m["pareto_share_agreed"],
                         m["joint_share"], m["priority_match_rate"], _walks(m, "agent"), _walks(m, "partner"),
                         m["no_agreement"], m["errors"]))
    return Table("population_summary", f"ASTRA against the NegMAS agent population: {config.domain}, setups "
                 f"{','.join(config.setups)}, {config.episodes} seeds each, {config.round_limit} rounds, answers "
                 f"{config.answers}",
                 ("agent", "opponents", "episodes", "agree rate", "agent pts", "partner pts", "pareto agreed",
                  "joint/max", "prio match", "agent walked (cause n)", "partner walked (cause n)", "no deal",
                  "errors"), rows,
                 note="points: mean over episodes (no deal scores 0 unless --no-deal-payoff batna); pareto agreed: "
                      "share of agreed deals that are Pareto-optimal under both true valuations; joint/max: mean "
                      "joint points over the most any outcome gives; prio match: share of episodes whose inferred "
                      "partner priorities are the true ones")


def agents_table(config: PopulationConfig, pairs: dict) -> Table:
    opponents = list(dict.fromkeys(k.split("__", 1)[1] for k in pairs))
    cols = ["opponent", "group"]
    for agent in config.agents:
        cols += [f"{agent} agree", f"{agent} pts", f"{agent} partner pts", f"{agent} pareto", f"{agent} joint/max",
                 f"{agent} walked", f"{agent} partner walked"]
    rows = []
    for opp in opponents:
        row: list = [opp, group_of(opp)]
        for agent in config.agents:
            m = pairs.get(f"{agent}__{opp}")
            row += ([m["agreement_rate"], m["agent_points"], m["partner_points"], m["pareto_share_agreed"],
                     m["joint_share"], _walks(m, "agent"), _walks(m, "partner")] if m else [None] * 7)
        rows.append(tuple(row))
    return Table("population_agents", f"Per opponent: {len(opponents)} opponents x {len(config.setups)} setups x "
                 f"{config.episodes} seeds", cols, rows,
                 note="one row per opponent (simcore's partners first, then each package's agents in its order); "
                      "columns as population_summary's, per agent")


STUDY = PopulationStudy()
