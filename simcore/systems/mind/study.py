"""The MIND study: 201 persona groups x 4 variants, the paper's Tables 1-4.

Each job is one (seed index, group): the group is generated from its own derived
generator, the proposer of each item is drawn once and shared by every variant
(common random numbers, so variants are compared on the same negotiations), and each
variant negotiates with its own language-layer generator (:func:`~simcore.systems.mind.match.start`).
The judge compares the MIND and Base transcripts of the same group.  A variant's transcript
events are built only when read: when the transcripts are kept, or for the judge's two
variants.
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Sequence

import attrs

from mockllm.client import CallStats, ModelClient
from mockllm.tone import TONE_NOISE
from scenarios.travel import generate_group
from simcore import backends
from simcore.argcheck import seat_ref
from simcore.errors import InputError
from simcore.metrics.mind import outcome_metrics, tom_metrics
from simcore.metrics.mind_figures import bootstrap_ci95, confusion, paired_ci95
from simcore.metrics.mind_judge import CRITERIA, blind_evidence, compare, conversation_key, evidence, win_rates
from simcore.readings import reading_totals
from simcore.role_backends import check_roles, role_backend_label
from simcore.seeding import generator
from simcore.study import Job, JobOutput, Summary, with_model_calls
from simcore.systems.mind.match import start
from simcore.systems.mind.model_roles import judge_context, judge_verdict
from simcore.systems.mind.registry import JUDGES, POLICY_IDS, SEAT_NAMES, SYSTEM, VARIANTS
from simcore.systems.mind.tables import tables
from simcore.systems.mind.variants import base_role, judge_pair, judge_role, variant_object, variant_policy


@attrs.frozen
class MindConfig:
    seed: int = 0
    seeds: int = attrs.field(default=1, validator=attrs.validators.ge(1))
    groups: int = attrs.field(default=201, validator=attrs.validators.ge(1))
    sizes: tuple[int, ...] = attrs.field(default=(2, 3, 4), converter=tuple)
    variants: tuple[str, ...] = attrs.field(default=tuple(VARIANTS), converter=tuple)
    tone_noise: float = attrs.field(default=TONE_NOISE, converter=float,
                                    validator=[attrs.validators.ge(0.0), attrs.validators.le(1.0)])
    max_rounds: int = attrs.field(default=3, validator=attrs.validators.ge(1))
    min_stake: int = attrs.field(default=6, validator=[attrs.validators.ge(1), attrs.validators.le(10)])
    high_w: int = attrs.field(default=8, validator=[attrs.validators.ge(1), attrs.validators.le(10)])
    mmr_lambda: float = attrs.field(default=0.5, converter=float,
                                    validator=[attrs.validators.ge(0.0), attrs.validators.le(1.0)])
    transcripts: bool = True
    backend: str = "mock-v1"          # a registered backend id (see simcore.backends)
    backend_args: tuple = attrs.field(default=(), converter=tuple)  # (key, value) pairs
    #: policy choices overridden for every variant whose policy has them (None: the
    #: registered value); sweep them with --grid, e.g. --grid agree_max_w=3,4,5,6,7
    agree_max_w: int | None = None
    push_margin: int | None = None
    push_rule: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.in_(("margin", "margin-strict", "strict-only-blocks"))))
    yield_rule: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.in_(("urgency", "strict-signal"))))
    block_min_w: int | None = None
    signal_min_w: int | None = None
    no_cue_guess: int | None = None
    accept_own_offer: bool | None = None
    flexible_middle: bool | None = None
    update_min_voiced: int | None = None
    middle_towards_own: bool | None = None
    middle_towards_dissent: bool | None = None
    keep_counts_proposer: bool | None = None
    dissent_value: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.in_(("own", "middle"))))
    plain_wording: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.in_(("fixed", "varied"))))
    warm_stance: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.in_(("accommodate", "compromise"))))
    reasons: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.in_(("v2", "b3"))))
    proposer_keeps_at_w: int | None = None
    #: the Table 4 judge: "blind" (E17's inputs only, one test for both plans), "v1" (reads alphas) or
    #: "v2" (reads alphas and knows the reasons B3-B4 give Base: compromise, support)
    judge: str = attrs.field(default="blind", validator=attrs.validators.in_(JUDGES))
    #: the criteria whose majority is the judge's overall winner (simcore.metrics.mind_judge.OVERALL)
    judge_overall: str = attrs.field(default="all", validator=attrs.validators.in_(
        ("all", "no-fluency", "outcome", "process")))
    record: str | None = None         # cassette to record every exchange to
    replay: str | None = None         # cassette to answer from instead of a backend
    # roles played by a backend instead of their stand-in (--role ROLE=BACKEND; simcore.role_backends)
    roles: tuple = attrs.field(default=(), converter=lambda v: check_roles(v, SYSTEM))
    # a request the --replay cassette lacks: stop the run ("error") or count a fallback
    replay_misses: str = attrs.field(default="error", validator=attrs.validators.in_(("error", "fallback")))
    # members played by another policy in every group and variant (--seat mN=POLICY): ((seat, policy), ...)
    seats: tuple = attrs.field(default=(), converter=lambda v: tuple((str(a), str(b)) for a, b in v))

    @seats.validator
    def _check_seats(self, _a, value):
        for seat_, policy in value:
            if seat_ not in SEAT_NAMES:
                raise ValueError(f"seats: mind has no seat {seat_!r}; seats: m0 .. m7 (a group's members)")
            if int(seat_[1:]) >= min(self.sizes):
                raise ValueError(f"seats: {seat_} is not a member of a group of {min(self.sizes)} (--sizes)")
            why = seat_ref(policy, SYSTEM, None, tuple(VARIANTS) + POLICY_IDS)
            if why:
                raise ValueError(f"seats: {seat_}={policy}: {why}")

    @variants.validator
    def _check_variants(self, _a, value):
        for v in value:
            why = seat_ref(v, SYSTEM, None, tuple(VARIANTS) + POLICY_IDS)
            if why:
                raise ValueError(f"variants: {why}")

    def __attrs_post_init__(self):
        if "mind.judge" in dict(self.roles):
            # the role plays the blind judge with E16's overall (the model names its own overall winner)
            if self.judge != "blind" or self.judge_overall != "all":
                raise InputError("--role", "mind.judge", f"a backend plays the blind judge with the overall of all "
                                                         f"five criteria (E16-E17), not judge={self.judge!r} "
                                                         f"overall={self.judge_overall!r}")
            if judge_pair(self) is None:
                raise InputError("--role", "mind.judge", "the judge compares a MIND and a Base variant: "
                                                         "--variants needs both (e.g. mind,base)")

    @sizes.validator
    def _check_sizes(self, _a, value):
        if not value or any(not 2 <= s <= 8 for s in value):
            raise ValueError(f"group sizes must be in 2..8, got {value}")


def item_record(o) -> dict:
    """The study's record of one item's outcome (plain JSON values): the members' values and
    willingness, the proposer, the final value, consensus and rounds, each Phase-2a
    appraisal as [true w, used w, round], and [readings accepted, of them right]."""
    return {"item": o.item, "values": list(o.values), "ws": list(o.ws), "proposer": o.proposer,
            "final": o.final, "consensus": o.consensus, "rounds": o.rounds,
            "tom": [[a.true_w, a.used_w, a.round] for a in o.appraisals if a.phase == "2a"],
            "readings": [sum(a.accepted for a in o.appraisals), sum(a.right for a in o.appraisals)]}


class MindStudy:
    #: the metrics a sweep shows on the terminal (Table 1's headline columns; --metrics chooses others)
    sweep_headline = ("results.*.DHR", "results.*.DR", "results.*.S_total", "results.*.high_w_hit")
    #: the shares among the metrics, with the metric counting each one's trials (a sweep gives
    #: them Wilson intervals: simcore.metrics.proportions)
    sweep_shares = {"results.*.DR": "n_items", "results.*.DHR": "n_debate", "results.*.F": "n_pairs",
                    "results.*.high_w_hit": "n_high_w", "tom.*.acc1": "n", "tom.*.acc2": "n",
                    "judge.*.win": "judge.n", "judge.*.loss": "judge.n", "judge.*.tie_break": "judge.n"}
    name = SYSTEM

    def jobs(self, config: MindConfig) -> list[Job]:
        return [Job(s * config.groups + g, (s, g)) for s in range(config.seeds) for g in range(config.groups)]

    def group(self, config: MindConfig, s: int, g: int):
        size = config.sizes[g % len(config.sizes)]
        return generate_group(f"s{s}-g{g}", size, generator(config.seed, SYSTEM, s, g, "group"),
                              mmr_lambda=config.mmr_lambda, min_stake=config.min_stake)

    def run_job(self, config: MindConfig, job: Job) -> JobOutput:
        s, g = job.key
        group = self.group(config, s, g)
        pick = generator(config.seed, SYSTEM, s, g, "proposer")
        proposers = [int(pick.integers(group.size)) for _ in group.items]
        backend = backends.build_backend(config.backend, config.backend_args, record=config.record,
                                         replay=config.replay, mock_options={"tone_noise": config.tone_noise},
                                         replay_misses=config.replay_misses)
        record: dict[str, Any] = {"group": group.id, "size": group.size, "seed_index": s, "variants": {}}
        events = []
        fallbacks, calls = 0, CallStats()
        variant_events = {}
        pair = judge_pair(config)
        for variant in config.variants:
            policy = variant_policy(config, variant)
            client = ModelClient(backend)
            policy, role = base_role(config, policy, backend, s, g, variant)
            out = start(group, policy, proposers, client, generator(config.seed, SYSTEM, s, g, variant),
                        f"{SYSTEM}/s{s}/g{g}/{variant}", max_rounds=config.max_rounds,
                        seats={k: variant_policy(config, v) for k, v in config.seats}).run()
            record["variants"][variant] = [item_record(o) for o in out.items]
            if pair is not None and variant in pair:  # the judge reads these two transcripts
                variant_events[variant] = out.events
            fallbacks += client.stats.fallbacks + (role.stats.fallbacks if role is not None else 0)
            calls.add(client.stats)
            if role is not None:
                calls.add(role.stats)
            if config.transcripts:
                events.extend(out.events)
        if pair is not None:
            a, b = pair
            if config.judge in ("v1", "v2"):
                ev_a = evidence(record["variants"][a], variant_events[a], config.judge)
                ev_b = evidence(record["variants"][b], variant_events[b], config.judge)
                keys = ("", "")  # the v1 judge's positional coin
            else:
                ev_a, ev_b = blind_evidence(variant_events[a]), blind_evidence(variant_events[b])
                keys = (conversation_key(variant_events[a]), conversation_key(variant_events[b]))
            coin = generator(config.seed, SYSTEM, s, g, "judge")
            judge = judge_role(config, backend)
            if judge is None:
                record["judge"] = compare(ev_a, ev_b, coin, *keys, overall=config.judge_overall)
            else:  # --role mind.judge=BACKEND: the model names each winner; the stand-in (same coin) the fallback
                context = judge_context(variant_events[a], variant_events[b], a, b)
                record["judge"] = judge_verdict(
                    judge, generator(config.seed, SYSTEM, s, g, "role", "mind.judge"), coin, context, *keys,
                    stand_in=lambda: compare(ev_a, ev_b, coin, *keys, overall=config.judge_overall))
                fallbacks += judge.stats.fallbacks
                calls.add(judge.stats)
                record["judge_stand_in"] = judge.stats.fallbacks > 0  # the model's answer was refused
            record["judge_evidence"] = {a: ev_a, b: ev_b}
        # kept until the summary as compressed JSON (about 0.4 KB per variant instead of
        # about 7 KB of small Python objects), so a large study's memory stays small
        record["variants"] = {v: _pack(items) for v, items in record["variants"].items()}
        return JobOutput(job.key, record, tuple(events), fallbacks, calls=calls.task_counts())

    def summarize(self, config: MindConfig, outputs: Sequence[JobOutput]) -> Summary:
        results, tom, per_seed = {}, {}, {}
        runs_read = runs_right = 0
        for variant in config.variants:
            results[variant] = outcome_metrics(_Groups(outputs, variant), high_w=config.high_w)
            per_seed[variant] = [outcome_metrics(_Groups(outputs, variant, s), high_w=config.high_w)
                                 for s in range(config.seeds)] if config.seeds > 1 else []
            if getattr(variant_object(variant), "appraisal", False):
                pairs, messages, read, right = [], 0, 0, 0
                for gr in _Groups(outputs, variant):
                    for it in gr["items"]:
                        pairs.extend((t, p) for t, p, _ in it["tom"])
                        messages += len({r for _, _, r in it["tom"]})
                        read, right = read + it["readings"][0], right + it["readings"][1]
                got = reading_totals(read, right)
                tom[variant] = {**tom_metrics(pairs), "n_messages": messages, "confusion": confusion(pairs),
                                "readings": got["read"], "reading_accuracy": got["accuracy"]}
                runs_read, runs_right = runs_read + read, runs_right + right
        ci95 = bootstrap_ci95({v: _Groups(outputs, v) for v in config.variants},
                              generator(config.seed, SYSTEM, "ci95"), high_w=config.high_w)
        for variant in config.variants:
            results[variant]["ci95"] = ci95[variant]
        if "base" in config.variants:
            for variant in config.variants:
                if variant != "base":
                    results[variant]["ci95_minus_base"] = paired_ci95(
                        _Groups(outputs, variant), _Groups(outputs, "base"),
                        generator(config.seed, SYSTEM, "ci95-paired", variant), high_w=config.high_w)
        verdicts = [o.record["judge"] for o in outputs if "judge" in o.record]
        pair = judge_pair(config) or ("mind", "base")
        metrics = {
            "system": SYSTEM, "seed": config.seed, "seeds": config.seeds, "groups": config.groups,
            "sizes": list(config.sizes), "tone_noise": config.tone_noise,
            "results": results, "tom": tom,
            "judge": {"a": pair[0], "b": pair[1], "judge": config.judge, "overall_of": config.judge_overall,
                      **win_rates(verdicts),
                      "evidence": {v: {c: _mean([o.record["judge_evidence"][v][c] for o in outputs
                                                 if "judge_evidence" in o.record]) for c in CRITERIA}
                                   for v in pair},
                      **_judged_by(config, outputs)} if verdicts else {},
            "fallbacks": int(sum(o.fallbacks for o in outputs)),
            "readings": reading_totals(runs_read, runs_right),
        }
        if config.seeds > 1:
            metrics["per_seed"] = per_seed
        return with_model_calls(Summary(SYSTEM, metrics, tables(metrics)), outputs)


def _mean(values: Sequence[float | None]) -> float | None:
    """The mean of the groups' evidence where the plan had something checkable (None: nowhere)."""
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _judged_by(config: MindConfig, outputs: Sequence[JobOutput]) -> dict:
    """``metrics["judge"]["judged_by"]`` when ``--role mind.judge=BACKEND`` puts the judge on a
    backend: which backend, and on how many groups its answer was refused and the blind judge
    (the stand-in) gave the verdict; nothing when the rule-based judge judged every group."""
    label = role_backend_label(config, "mind.judge")
    if label is None:
        return {}
    return {"judged_by": {"backend": label,
                          "stand_in": sum(1 for o in outputs if o.record.get("judge_stand_in"))}}


class _Groups:
    """One variant's group records (``size`` and ``items``), decoded one job at a time as
    they are iterated (a sized iterable: it can be iterated again)."""

    def __init__(self, outputs: Sequence[JobOutput], variant: str, seed_index: int | None = None):
        self.outputs, self.variant, self.seed_index = outputs, variant, seed_index

    def _picked(self):
        return (o for o in self.outputs if self.seed_index is None or o.record["seed_index"] == self.seed_index)

    def __len__(self) -> int:
        return sum(1 for _ in self._picked())

    def __iter__(self):
        for o in self._picked():
            yield {"size": o.record["size"], "items": _unpack(o.record["variants"][self.variant])}


def _pack(items: list) -> bytes:
    """A variant's item records as zlib-compressed JSON (they are plain JSON values, so
    :func:`_unpack` gives back equal values)."""
    return zlib.compress(json.dumps(items, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _unpack(blob: bytes) -> list:
    return json.loads(zlib.decompress(blob).decode("utf-8"))


STUDY = MindStudy()
