"""The dominance study: agent-vs-user dialogues for every pair of relations.

``simcore run dominance`` plays, for each preference profile ``i`` (one job), one
dialogue per selected (agent relation, user relation) pair on the same two random
preference profiles, so the pairs are compared on identical preferences.  The user is
built from the same response trees as the agent.  Default (``run_default``): the small
restaurant domain (20 restaurants), 3 x 3 pairs x 100 dialogues, 40-turn limit.

Randomness: job ``(i,)`` uses ``generator(seed, "dominance", i)``'s SeedSequence only:
children ``prefs/agent`` and ``prefs/user`` draw the preference orders, and BLAKE2b of its
state with ``<agent>/<user>/<side>`` seeds the fast stream (:class:`~mockllm.callrng.CallRng`)
that drives each side's language calls in that pair's dialogue.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Sequence

import attrs

from mockllm.callrng import CallRng
from mockllm.client import CallStats
from policies.dominance import DEFAULT_OPTION_SHARE, AgentParams
from policies.dominance_state import RELATIONS, random_preferences
from scenarios.restaurants import load_domain
from simcore import seeding
from simcore.argcheck import seat_ref
from simcore.backends import build_backend
from simcore.metrics.dominance import dialogue_record, pool_pair, pool_relation, pool_relation_vs
from simcore.readings import reading_totals
from simcore.registry import resolve
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.systems.dominance.match import LANGUAGES, mock_backend, play_dialogue
from simcore.systems.dominance.registry import SYSTEM, VERSIONS
from simcore.systems.dominance.tables import tables

OPENERS = ("alternate", "agent", "user")
EXIT_FIELDS = ("exit_counter_refusal", "exit_on_repeat", "exit_criterion")  # the overridable exit readings


def _check_seat_values(value) -> None:
    for seat_, policy in value:
        if seat_ not in ("agent", "user"):
            raise ValueError(f"seats: dominance has no seat {seat_!r}; seats: agent, user")
        why = seat_ref(policy, SYSTEM, None, RELATIONS)
        if why:
            raise ValueError(f"seats: {seat_}={policy}: {why}")


def _rels(value) -> tuple:
    v = tuple(value)
    bad = [x for x in v if x not in RELATIONS]
    if not v or bad:
        raise ValueError(f"relations must be from {RELATIONS}, got {v!r}")
    return v


@attrs.frozen
class DominanceConfig:
    """Every documented option of ``simcore run dominance``."""

    seed: int = 0
    domain: str = "restaurants-small-v1"
    agent: tuple = attrs.field(default=RELATIONS, converter=_rels)
    user: tuple = attrs.field(default=RELATIONS, converter=_rels)
    dialogues: int = attrs.field(default=100, validator=attrs.validators.ge(1))
    max_turns: int = attrs.field(default=40, validator=attrs.validators.ge(2))
    #: who opens: the seed never says; "alternate" (the agent in even-numbered dialogues) lets both
    #: sides open equally often (a choice)
    opener: str = attrs.field(default="alternate", validator=attrs.validators.in_(OPENERS))
    dominant_factor: float = 0.7
    share_dominant: float = DEFAULT_OPTION_SHARE["dominant"]
    share_peer: float = DEFAULT_OPTION_SHARE["peer"]
    share_submissive: float = DEFAULT_OPTION_SHARE["submissive"]
    garble: float = attrs.field(default=0.0, validator=[attrs.validators.ge(0.0), attrs.validators.le(1.0)])
    language: str = attrs.field(default="backend", validator=attrs.validators.in_(LANGUAGES))
    transcripts: bool = True
    version: str = attrs.field(default="v3", validator=attrs.validators.in_(VERSIONS))
    exit_counter_refusal: bool | None = None   # None: the policy version's value
    exit_on_repeat: bool | None = None
    exit_criterion: bool | None = None
    backend: str = "mock-v1"          # a registered backend id (see simcore.backends)
    backend_args: tuple = attrs.field(default=(), converter=tuple)
    record: str | None = None
    replay: str | None = None
    replay_misses: str = attrs.field(default="error", validator=attrs.validators.in_(("error", "fallback")))
    # a side played by another agent in every dialogue (--seat agent=POLICY / user=POLICY): ((seat, policy), ...)
    seats: tuple = attrs.field(default=(), converter=lambda v: tuple((str(a), str(b)) for a, b in v),
                               validator=lambda _i, _a, v: _check_seat_values(v))

    @property
    def agents(self) -> tuple:
        """The agent side's players: ``--seat agent=...`` if given, else the ``agent`` relations."""
        return (dict(self.seats)["agent"],) if "agent" in dict(self.seats) else self.agent

    @property
    def users(self) -> tuple:
        """The user side's players: ``--seat user=...`` if given, else the ``user`` relations."""
        return (dict(self.seats)["user"],) if "user" in dict(self.seats) else self.user

    def make_backend(self):
        """The chat backend of the "backend" language path; the mock speaks exactly, but
        for the ``garble`` noise."""
        if (self.backend, self.backend_args, self.record, self.replay) == ("mock-v1", (), None, None):
            return mock_backend(self.garble)
        return build_backend(self.backend, self.backend_args, record=self.record, replay=self.replay,
                             replay_misses=self.replay_misses,
                             mock_options={"exact": True, "dominance_garble": self.garble})

    def params(self, relation: str = "peer") -> AgentParams:
        """The parameters of ``dominance-<relation>-<version>`` with this config's overrides."""
        kw = dict(resolve("policy", f"dominance-{relation}-{self.version}").kwargs)
        kw.update(dominant_factor=self.dominant_factor,
                  option_share=(self.share_dominant, self.share_peer, self.share_submissive))
        kw.update({k: getattr(self, k) for k in EXIT_FIELDS if getattr(self, k) is not None})
        return AgentParams(**{f.name: kw[f.name] for f in attrs.fields(AgentParams) if f.name in kw})


def _stream_seed(base: bytes, *path: str) -> int:
    """A 64-bit seed for one side's phrasing stream: BLAKE2b of the job's SeedSequence state
    and the path (cheaper than a SeedSequence child per dialogue, equally independent)."""
    h = hashlib.blake2b(base, digest_size=8)
    h.update("/".join(path).encode("utf-8"))
    return int.from_bytes(h.digest(), "little")


def domain_of(config: DominanceConfig):
    """The config's domain (an id or a file), loaded."""
    return load_domain(config.domain)


class DominanceStudy:
    #: the metrics a sweep shows on the terminal (the outcomes table; --metrics chooses others)
    sweep_headline = ("results.*.success_rate", "results.*.agent_satisfaction", "results.*.user_satisfaction")
    #: the shares among the metrics, with the metric counting each one's trials (a sweep gives
    #: them Wilson intervals: simcore.metrics.proportions)
    sweep_shares = {"results.*.success_rate": "dialogues"}
    name = SYSTEM

    def jobs(self, config: DominanceConfig) -> list[Job]:
        domain_of(config)  # fail early on a bad domain
        return [Job(i, (i,)) for i in range(config.dialogues)]

    def run_job(self, config: DominanceConfig, job: Job) -> JobOutput:
        domain = domain_of(config)
        (i,) = job.key
        seq = seeding.derive(config.seed, SYSTEM, *job.key)
        prefs_a = random_preferences(domain, seeding.child(seq, "prefs", "agent"))
        prefs_u = random_preferences(domain, seeding.child(seq, "prefs", "user"))
        agent_opens = config.opener == "agent" or (config.opener == "alternate" and i % 2 == 0)
        base = bytes(seq.generate_state(4, dtype="uint32"))
        params = {rel: config.params(rel) if rel in RELATIONS else AgentParams()
                  for rel in dict.fromkeys(config.agents + config.users)}
        records, events, fallbacks, calls = {}, [], 0, CallStats()
        backend = config.make_backend()
        for a, u in itertools.product(config.agents, config.users):
            result, agents, stats = play_dialogue(domain, a, u, prefs_a, prefs_u,
                                                  rng_agent=CallRng(_stream_seed(base, a, u, "agent")),
                                                  rng_user=CallRng(_stream_seed(base, a, u, "user")),
                                                  agent_opens=agent_opens,
                                                  run_id=f"{SYSTEM}/s{config.seed}/d{i}/{a}__{u}",
                                                  params=params[a], user_params=params[u],
                                                  max_turns=config.max_turns, backend=backend,
                                                  language=config.language)
            rec = dialogue_record(result, agents, domain.topic)
            rec["fallbacks"] = stats.fallbacks
            records[f"{a}__{u}"] = rec
            fallbacks += stats.fallbacks
            calls.add(stats)
            if config.transcripts:
                events.extend(result.events)
        return JobOutput(job.key, {"records": records}, tuple(events), fallbacks, calls=calls.task_counts())

    def summarize(self, config: DominanceConfig, outputs: Sequence[JobOutput]) -> Summary:
        pairs = [(a, u) for a in config.agents for u in config.users]
        by_pair = {p: [o.record["records"][f"{p[0]}__{p[1]}"] for o in outputs] for p in pairs}
        results = {f"{a}__{u}": pool_pair(by_pair[(a, u)]) for a, u in pairs}
        for (a, u), recs in by_pair.items():
            results[f"{a}__{u}"]["fallbacks"] = sum(r["fallbacks"] for r in recs)
        rels = [r for r in RELATIONS if r in config.agents or r in config.users]
        behaviour = {r: pool_relation(by_pair, r) for r in rels}
        h4 = {r: {q: v for q in rels if (v := pool_relation_vs(by_pair, r, q))} for r in rels}
        recs = [r for rs in by_pair.values() for r in rs]
        metrics = {"system": SYSTEM, "seed": config.seed, "config": config_block(config),
                   "results": results, "behaviours_by_relation": behaviour,
                   "h4_by_partner": h4,
                   "fallbacks": int(sum(o.fallbacks for o in outputs)),
                   "readings": reading_totals(sum(r["readings"][0] for r in recs),
                                              sum(r["readings"][1] for r in recs))}
        return with_model_calls(Summary(SYSTEM, metrics, tables(config, results, behaviour, h4)), outputs)


STUDY = DominanceStudy()
