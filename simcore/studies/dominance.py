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
import click

from policies.dominance import (DEFAULT_OPTION_SHARE, V1_EXIT, V2_EXIT, AgentParams, DirectVoice, DominanceAgent,
                                ScriptedUser, Voice)
from policies.dominance_state import RELATIONS, random_preferences, total_order
from mockllm.callrng import CallRng
from simcore import seeding
from simcore.cli_options import CommaChoice, FloatRange, backend_options, backend_settings, common_options
from simcore.metrics.dominance import SIDES, dialogue_record, pool_pair, pool_relation
from simcore.protocols.dialogue import run_dialogue
from simcore.readings import accuracy_cell, reading_totals
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.launch import launch
from simcore.tables import Table

SYSTEM = "dominance"
OPENERS = ("alternate", "agent", "user")
LANGUAGES = ("backend", "direct")
VERSIONS = ("v1", "v2", "v3")
EXIT_FIELDS = ("exit_counter_refusal", "exit_on_repeat", "exit_criterion")  # the overridable exit readings


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

    def make_backend(self):
        """The chat backend of the "backend" language path; the mock speaks exactly, but
        for the ``garble`` noise."""
        if (self.backend, self.backend_args, self.record, self.replay) == ("mock-v1", (), None, None):
            return _backend(self.garble)
        from simcore.backends import build_backend

        return build_backend(self.backend, self.backend_args, record=self.record, replay=self.replay,
                             replay_misses=self.replay_misses,
                             mock_options={"exact": True, "dominance_garble": self.garble})

    def params(self, relation: str = "peer") -> AgentParams:
        """The parameters of ``dominance-<relation>-<version>`` with this config's overrides."""
        from simcore.registry import resolve

        kw = dict(resolve("policy", f"dominance-{relation}-{self.version}").kwargs)
        kw.update(dominant_factor=self.dominant_factor,
                  option_share=(self.share_dominant, self.share_peer, self.share_submissive))
        kw.update({k: getattr(self, k) for k in EXIT_FIELDS if getattr(self, k) is not None})
        return AgentParams(**{f.name: kw[f.name] for f in attrs.fields(AgentParams) if f.name in kw})


_BACKENDS: dict = {}


def _backend(garble: float):
    from mockllm.mock import MockBackend

    if garble not in _BACKENDS:
        _BACKENDS[garble] = MockBackend(exact=True, dominance_garble=garble)
    return _BACKENDS[garble]


def play(domain, agent_rel: str, user_rel: str, prefs_agent, prefs_user, *, rng_agent, rng_user,
         agent_opens: bool, run_id: str, params: AgentParams = AgentParams(), max_turns: int = 40,
         backend=None, on_turn=None, language: str = "backend", record_events: bool = True,
         user_params: AgentParams | None = None, wrap=None):
    """One dialogue; returns (DialogueResult, {side: agent}, CallStats).  ``params`` are the
    agent's (and the user's, unless ``user_params`` is given).  ``wrap(side, agent)`` may put
    another participant in a side's seat (simcore.env's proxies).

    ``language="backend"`` speaks and reads through the ChatBackend (the mock by
    default); ``"direct"`` calls the mock's templates and reader in-process."""
    from mockllm.client import ModelClient

    client = ModelClient(backend if backend is not None else _backend(0.0))
    agent = DominanceAgent("agent", agent_rel, domain, prefs_agent, params=params)
    user = DominanceAgent("user", user_rel, domain, prefs_user, params=user_params or params)
    for side, rng in ((agent, rng_agent), (user, rng_user)):
        voice = Voice(domain, client, rng) if language == "backend" else DirectVoice(domain, rng)
        side._speak, side._read = voice.speak, voice.read
    if wrap is not None:  # simcore.env: proxies in the caller's seats
        agent, user = wrap("agent", agent) or agent, wrap("user", user) or user
    first, second = (agent, user) if agent_opens else (user, agent)
    result = run_dialogue(domain, first, second, run_id=run_id, max_turns=max_turns, on_turn=on_turn,
                          record_events=record_events)
    for _ in range(result.misreadings):  # a reading the protocol refused: the reader's counted fallback
        client.stats.count_fallback("dominance-read")
    return result, {"agent": agent, "user": user}, client.stats


def _stream_seed(base: bytes, *path: str) -> int:
    """A 64-bit seed for one side's phrasing stream: BLAKE2b of the job's SeedSequence state
    and the path (cheaper than a SeedSequence child per dialogue, equally independent)."""
    h = hashlib.blake2b(base, digest_size=8)
    h.update("/".join(path).encode("utf-8"))
    return int.from_bytes(h.digest(), "little")


def _domain(config: DominanceConfig):
    from scenarios.restaurants import load_domain

    return load_domain(config.domain)


class DominanceStudy:
    #: the metrics a sweep shows on the terminal (the outcomes table; --metrics chooses others)
    sweep_headline = ("results.*.success_rate", "results.*.agent_satisfaction", "results.*.user_satisfaction")
    #: the shares among the metrics, with the metric counting each one's trials (a sweep gives
    #: them Wilson intervals: simcore.metrics.proportions)
    sweep_shares = {"results.*.success_rate": "dialogues"}
    name = SYSTEM

    def jobs(self, config: DominanceConfig) -> list[Job]:
        _domain(config)  # fail early on a bad domain
        return [Job(i, (i,)) for i in range(config.dialogues)]

    def run_job(self, config: DominanceConfig, job: Job) -> JobOutput:
        domain = _domain(config)
        (i,) = job.key
        seq = seeding.derive(config.seed, SYSTEM, *job.key)
        prefs_a = random_preferences(domain, seeding.child(seq, "prefs", "agent"))
        prefs_u = random_preferences(domain, seeding.child(seq, "prefs", "user"))
        agent_opens = config.opener == "agent" or (config.opener == "alternate" and i % 2 == 0)
        base = bytes(seq.generate_state(4, dtype="uint32"))
        from mockllm.client import CallStats

        records, events, fallbacks, calls = {}, [], 0, CallStats()
        backend = config.make_backend()
        for a, u in itertools.product(config.agent, config.user):
            rid = f"{SYSTEM}/s{config.seed}/d{i}/{a}__{u}"
            result, agents, stats = play(domain, a, u, prefs_a, prefs_u,
                                         rng_agent=CallRng(_stream_seed(base, a, u, "agent")),
                                         rng_user=CallRng(_stream_seed(base, a, u, "user")),
                                         agent_opens=agent_opens, run_id=rid, params=config.params(a),
                                         user_params=config.params(u),
                                         max_turns=config.max_turns, backend=backend,
                                         language=config.language, record_events=config.transcripts)
            rec = dialogue_record(result, agents, domain.topic)
            rec["fallbacks"] = stats.fallbacks
            records[f"{a}__{u}"] = rec
            fallbacks += stats.fallbacks
            calls.add(stats)
            if config.transcripts:
                events.extend(result.events)
        return JobOutput(job.key, {"records": records}, tuple(events), fallbacks, calls=calls.task_counts())

    def summarize(self, config: DominanceConfig, outputs: Sequence[JobOutput]) -> Summary:
        pairs = [(a, u) for a in config.agent for u in config.user]
        by_pair = {p: [o.record["records"][f"{p[0]}__{p[1]}"] for o in outputs] for p in pairs}
        results = {f"{a}__{u}": pool_pair(by_pair[(a, u)]) for a, u in pairs}
        for (a, u), recs in by_pair.items():
            results[f"{a}__{u}"]["fallbacks"] = sum(r["fallbacks"] for r in recs)
        rels = [r for r in RELATIONS if r in config.agent or r in config.user]
        behaviour = {r: pool_relation(by_pair, r) for r in rels}
        recs = [r for rs in by_pair.values() for r in rs]
        metrics = {"system": SYSTEM, "seed": config.seed, "config": _config_dict(config),
                   "results": results, "behaviours_by_relation": behaviour,
                   "fallbacks": int(sum(o.fallbacks for o in outputs)),
                   "readings": reading_totals(sum(r["readings"][0] for r in recs),
                                              sum(r["readings"][1] for r in recs))}
        return with_model_calls(Summary(SYSTEM, metrics, _tables(config, results, behaviour)), outputs)


def _config_dict(config) -> dict:
    return config_block(config)


def _tables(config, results, behaviour) -> list[Table]:
    dom = config.domain
    grid = Table(
        "dominance_matrix",
        f"Success rate / mean turns, agent relation (rows) x user relation (columns); "
        f"{config.dialogues} dialogues per cell, {dom}, {config.max_turns}-turn limit",
        ("agent \\ user",) + tuple(config.user),
        [(a,) + tuple(f"{results[f'{a}__{u}']['success_rate']:.2f} / {results[f'{a}__{u}']['mean_turns']:.1f}"
                      for u in config.user) for a in config.agent])
    rows = []
    for a in config.agent:
        for u in config.user:
            r = results[f"{a}__{u}"]
            ex = r["exits"]
            rows.append((f"{a}__{u}", r["success_rate"], r["mean_turns"], r["agent_satisfaction"],
                         r["user_satisfaction"], ex.get("exit.dead-end", 0.0), ex.get("exit.criterion", 0.0),
                         ex.get("exit.repeat", 0.0), r["outcomes"]["turn-limit"], r["fallbacks"],
                         accuracy_cell(r.get("reading_accuracy")), r.get("readings")))
    pairs = Table("dominance_results", "Outcomes per relation pair (satisfaction over booked dialogues); how each "
                  "dialogue ended: booked (success), the seed's exit (dead end: no open option; criterion: the "
                  "option, off by default), stalled (simcore's repeat backstop: the same exchange again with no "
                  "progress, options may remain), or the turn limit",
                  ("pair", "success", "turns", "agent_sat", "user_sat", "dead_end", "dead_end_criterion",
                   "stalled_repeat", "turn_limit", "fallbacks", "readings_right", "readings"), rows,
                  note="readings_right: of the listeners' readings that the checks accepted, the share that were "
                       "what the speaker said (1 with the exact mock; a parsed reading is not always a right one); "
                       "readings: how many were accepted (refused ones are counted fallbacks)")
    crows = []
    for a in config.agent:
        for u in config.user:
            r = results[f"{a}__{u}"]
            for side in SIDES:
                c = r[side]
                crows.append((f"{a}__{u}", side, c["proposals"], c["asks"], c["states"], c["accepts"],
                              c["rejects"], c["concessions"], c["leads"], c["subject_changes"]))
    counts = Table("dominance_counts", "Utterances per dialogue, by side (leads: proposing what one put forward "
                   "first, or opening a subject by stating a preference; subject_changes: the pre-issue-10 count)",
                   ("pair", "side", "proposals", "asks", "states", "accepts", "rejects", "concessions", "leads",
                    "subject_changes"), crows)
    brows = [(rel, b.get("self_centred"), b.get("proposal_share"), b.get("concessions_per_dialogue"),
              b.get("demanding"), b.get("lead_share"), b.get("subject_change_share"), b.get("forwarded_share"),
              b.get("booked_proposer_share")) for rel, b in behaviour.items()]
    beh = Table("dominance_behaviours",
                "The four observed behaviours, counted, by the speaker's relation (all pairs, both roles); whose "
                "preferences steer the booked option",
                ("relation", "H1_self_centred", "H1_proposal_share", "H2_concessions", "H3_demanding",
                 "H4_leads_own_values", "H4_opens_subjects", "forwarded_share", "booked_proposer_share"), brows,
                note="expected (original study): dominant > submissive on H1, H3, H4; dominant < submissive on H2. "
                     "H1_proposal_share: proposals / (proposals + questions), the notes' counterpart of H1; "
                     "H4 has two counts, neither the paper's: H4_leads_own_values (simcore's measure, Fig. 6 / "
                     "sec. 5.1: proposing a value one put forward first) and H4_opens_subjects (the reference "
                     "notes' counterpart, 'who opens sub-negotiations': the share of subject changes); "
                     "forwarded_share: of the booked options' values, the share this side put forward first; "
                     "booked_proposer_share: booked dialogues where this side first proposed the booked option")
    return [grid, pairs, counts, beh]


STUDY = DominanceStudy()


@click.command(name=SYSTEM)
@common_options(SYSTEM)
@click.option("--domain", default="restaurants-small-v1", show_default=True,
              help="A shipped domain id (restaurants-small-v1, restaurants-420-v1) or a JSON file path.")
@click.option("--agent", "agent", type=CommaChoice(RELATIONS), default=",".join(RELATIONS), show_default=True,
              help="Agent relation(s), comma-separated.")
@click.option("--user", "user", type=CommaChoice(RELATIONS), default=",".join(RELATIONS), show_default=True,
              help="Simulated user relation(s), comma-separated.")
@click.option("--dialogues", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="Dialogues per relation pair (one preference profile each).")
@click.option("--max-turns", type=click.IntRange(2, 1000), default=40, show_default=True,
              help="Turn limit (utterances); reaching it is a failure.")
@click.option("--opener", type=click.Choice(OPENERS), default="alternate", show_default=True,
              help="Who speaks first (alternate: the agent in even-numbered dialogues).")
@click.option("--dominant-factor", type=FloatRange(0.0, 1.0, min_open=True), default=0.7,
              show_default=True, help="Fig. 2: dominant accepts score > factor x bestScore.")
@click.option("--garble", type=FloatRange(0.0, 1.0), default=0.0, show_default=True,
              help="Mock noise: probability a spoken answer lacks its SAY: label (counted fallback).")
@click.option("--language", type=click.Choice(LANGUAGES), default="backend", show_default=True,
              help="backend: speak/read through the mock ChatBackend; direct: the same templates in-process.")
@click.option("--transcripts/--no-transcripts", default=True, show_default=True,
              help="Build transcript events (transcripts.jsonl).")
@click.option("--policy-version", "version", type=click.Choice(VERSIONS), default="v3", show_default=True,
              help="dominance-<relation>-v1 (exit: no open option, Reject alone refuses), -v2 (also "
                   "counter-proposals refuse; a repeated exchange with no progress ends the dialogue, counted as a "
                   "dead end) or -v3 (the same, the repeat ending counted as 'stalled').")
@click.option("--exit-counter-refusal/--no-exit-counter-refusal", default=None,
              help="Override: a counter-proposal counts as a refusal for the exit (v2, v3: on).")
@click.option("--exit-on-repeat/--no-exit-on-repeat", default=None,
              help="Override: quit on a repeated exchange with no progress (v2, v3: on).")
@click.option("--exit-criterion/--no-exit-criterion", default=None,
              help="Override: quit when the discussed criterion has no acceptable value left unrefused (off).")
@backend_options
def command(seed, workers, out, progress, domain, agent, user, dialogues, max_turns, opener,
            dominant_factor, garble, language, transcripts, version, exit_counter_refusal, exit_on_repeat,
            exit_criterion, backend, backend_args, record, replay):
    """The dominance dialogue agent: every agent relation against every user relation."""
    config = DominanceConfig(seed=seed, domain=domain, agent=agent, user=user, dialogues=dialogues,
                             max_turns=max_turns, opener=opener, dominant_factor=dominant_factor, garble=garble,
                             language=language, transcripts=transcripts, version=version,
                             exit_counter_refusal=exit_counter_refusal, exit_on_repeat=exit_on_repeat,
                             exit_criterion=exit_criterion,
                             **backend_settings(backend, backend_args, record, replay, workers))
    _domain(config)  # a bad --domain is one line before --out is touched, also for a sweep
    launch(f"simcore.studies.{SYSTEM}:STUDY", config, workers=workers, out=out, progress=progress)


def run_default(seed: int = 0, workers: int = 1, out: str | None = f"runs/{SYSTEM}", progress=None):
    """3 x 3 relation pairs x 100 dialogues on the small restaurant domain."""
    return launch(f"simcore.studies.{SYSTEM}:STUDY", DominanceConfig(seed=seed), workers=workers, out=out,
                  progress=progress)


# rendering -------------------------------------------------------------------
def render_run(events) -> str:
    events = list(events)
    if not events:
        return ""
    lines = [f"== {events[0].run}"]
    for ev in events:
        if ev.phase == "end":
            i = ev.intent
            tail = f": {i.get('booked')} (booked by {i.get('booked_by')})" if i.get("booked") else ""
            lines.append(f"-- {i.get('outcome')} after {i.get('turns')} turns{tail}")
            continue
        rel = ev.hidden.get("relation", "")
        lines.append(f"{ev.round:>2} {ev.speaker} ({rel}): {ev.text}")
        lines.append(f"     [{ev.hidden.get('figure')} / {ev.hidden.get('rule')}] {ev.hidden.get('why', '')}".rstrip())
    return "\n".join(lines)


# conformance -----------------------------------------------------------------
class DialogueProtocolEntry:
    """Registry object of ``dominance-dialogue-v1`` (its two parameters are the study's
    ``--max-turns`` and ``--opener``)."""

    def __init__(self, max_turns: int = 40, opener: str = "alternate"):
        self.max_turns, self.opener = max_turns, opener

    def conformance_run(self, policy_id: str, seed: int):
        from scenarios.restaurants import load_domain
        from simcore.registry import make

        policy = make("policy", policy_id)
        domain = load_domain("restaurants-small-v1")
        seq = seeding.derive(seed, SYSTEM, "conformance")
        pa = random_preferences(domain, seeding.child(seq, "prefs", "agent"))
        pu = random_preferences(domain, seeding.child(seq, "prefs", "user"))
        result, _agents, _stats = play(domain, policy.relation, "peer", pa, pu, params=policy.params(),
                                       user_params=make("policy", f"dominance-peer-v{resolve_version(policy_id)}").params(),
                                       rng_agent=seeding.child(seq, "agent"), rng_user=seeding.child(seq, "user"),
                                       agent_opens=seed % 2 == 0, run_id=f"{SYSTEM}/conformance/{policy_id}/{seed}")
        return list(result.events)


def resolve_version(policy_id: str) -> int:
    from simcore.registry import resolve

    return resolve("policy", policy_id).version


def make_protocol(max_turns: int = 40, opener: str = "alternate"):
    return DialogueProtocolEntry(max_turns, opener)


# playthroughs ---------------------------------------------------------------
def _fixed_prefs(domain, orders):
    return {c.name: total_order(c.name, orders[c.name], c.values) for c in domain.criteria}


_SMALL_A = {"cuisine": ["Italian", "French", "Japanese", "Chinese", "Turkish"], "cost": ["cheap", "expensive"],
            "ambiance": ["calm", "noisy"]}
_SMALL_B = {"cuisine": ["Japanese", "Chinese", "Italian", "French", "Turkish"], "cost": ["cheap", "expensive"],
            "ambiance": ["noisy", "calm"]}


def _playthrough(agent_rel, user_rel, agent_opens=True):
    from scenarios.restaurants import load_domain

    def build():
        domain = load_domain("restaurants-small-v1")
        seq = seeding.derive(0, SYSTEM, "playthrough", agent_rel, user_rel)
        result, _a, _s = play(domain, agent_rel, user_rel, _fixed_prefs(domain, _SMALL_A),
                              _fixed_prefs(domain, _SMALL_B), rng_agent=seeding.child(seq, "agent"),
                              rng_user=seeding.child(seq, "user"), agent_opens=agent_opens,
                              run_id=f"{SYSTEM}/playthrough/{agent_rel}__{user_rel}")
        return render_run(result.events) + "\n"

    return build


def _scripted_playthrough():
    from mockllm.client import ModelClient
    from scenarios.restaurants import load_domain

    domain = load_domain("restaurants-small-v1")
    seq = seeding.derive(0, SYSTEM, "playthrough", "scripted")
    client = ModelClient(_backend(0.0))
    agent = DominanceAgent("agent", "peer", domain, _fixed_prefs(domain, _SMALL_A))
    va = Voice(domain, client, seeding.child(seq, "agent"))
    agent._speak, agent._read = va.speak, va.read
    vu = Voice(domain, client, seeding.child(seq, "user"))
    user = ScriptedUser("user", ["What cuisine do you like?", "I'd rather have Japanese than French",
                                 "How about Italian?", "I'd rather have cheap than expensive", "ok", "no",
                                 "let's go to Trattoria Roma"],
                        speak=vu.speak, read=vu.read)
    result = run_dialogue(domain, user, agent, run_id=f"{SYSTEM}/playthrough/scripted")
    return render_run(result.events) + "\n"


PLAYTHROUGHS = {
    "dominant-vs-submissive": _playthrough("dominant", "submissive"),
    "peer-vs-peer": _playthrough("peer", "peer", agent_opens=False),
    "submissive-vs-dominant": _playthrough("submissive", "dominant"),
    "scripted-user": _scripted_playthrough,
}

_PARAM_DEFAULTS = attrs.asdict(AgentParams(), recurse=False)

REGISTRY = [
    dict(kind="scenario", id="restaurants-small-v1", entry_point="scenarios.restaurants:make_domain",
         kwargs={"id": "restaurants-small-v1"},
         description="restaurant domain: 5 cuisines x 2 costs x 2 ambiances, 20 named restaurants",
         meta={"system": SYSTEM, "describe": "scenarios.restaurants:describe"}),
    dict(kind="scenario", id="restaurants-420-v1", entry_point="scenarios.restaurants:make_domain",
         kwargs={"id": "restaurants-420-v1"},
         description="restaurant domain: 7 cuisines x 3 costs x 4 atmospheres x 5 locations (420)",
         meta={"system": SYSTEM, "describe": "scenarios.restaurants:describe"}),
    dict(kind="protocol", id="dominance-dialogue-v1", entry_point="simcore.studies.dominance:make_protocol",
         kwargs={"max_turns": 40, "opener": "alternate"},
         description="utterance-by-utterance cooperative dialogue, Booking / dead end / 40-turn limit",
         meta={"system": SYSTEM, "sources": {
             "max_turns": "notes (thesis): 'A dialogue fails after 40 turns'; the backstop behind the seed's exit",
             "opener": "choice: the seed never says who speaks first; alternate (the agent in even-numbered "
                       "dialogues) so both sides open equally often; agent / user are the options"}}),
] + [
    dict(kind="policy", id=f"dominance-{rel}-v1", entry_point="policies.dominance:DominancePolicy",
         kwargs={"relation": rel, **_PARAM_DEFAULTS, **V1_EXIT},
         description=f"response trees of a {rel} agent (seed Figs. 1-8); exit only when no open option is "
                     "left, counting Reject alone as a refusal",
         meta={"system": SYSTEM, "protocol": "dominance-dialogue-v1"})
    for rel in RELATIONS
] + [
    dict(kind="policy", id=f"dominance-{rel}-v3", entry_point="policies.dominance:DominancePolicy",
         kwargs={"relation": rel, **_PARAM_DEFAULTS},
         description=f"response trees of a {rel} agent (seed Figs. 1-8); the seed's dead-end exit, and the "
                     "repeat backstop ending a cycling dialogue as 'stalled' (issue 17)",
         meta={"system": SYSTEM, "protocol": "dominance-dialogue-v1"})
    for rel in RELATIONS
] + [
    dict(kind="policy", id=f"dominance-{rel}-v2", entry_point="policies.dominance:DominancePolicy",
         kwargs={"relation": rel, **_PARAM_DEFAULTS, **V2_EXIT},
         description=f"response trees of a {rel} agent (seed Figs. 1-8); the exit also counts counter-proposals "
                     "as refusals (Fig. 4) and ends a repeated exchange with no progress (issue 10)",
         meta={"system": SYSTEM, "protocol": "dominance-dialogue-v1"})
    for rel in RELATIONS
]

