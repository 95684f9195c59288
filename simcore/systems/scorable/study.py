"""The scorable multi-party study: the seed's Tables 1 and 2 with the seven method
configurations (Base-LLM; Base-OM p1/all; LLM-PE p1/all; Proposed p1/all).

One job per trial; a job plays that trial once with every configured method from the
same SeedSequence ``derive(seed, "scorable", trial)``, so the speaking orders and the
mock's noise are shared across methods (common random numbers; the turns' cues are drawn
once per trial: :class:`~simcore.systems.scorable.model.TurnDraws`).  Each session is set up
by :func:`simcore.systems.scorable.match.start` and played by the driver.  Full
turn-by-turn events are kept for the first ``keep_transcripts`` trials; the others keep
their result event only (their turn events are never made: the transcript is lazy), so the
transcript file stays small and the study's memory stays flat.

``simcore run scorable [--game ID|PATH] [--methods ...] [--trials N] [--seed S]
[--workers W] [--out DIR]`` prints the analogues of Tables 1 and 2 and writes
``DIR/metrics.json``: ``{"system": "scorable", "game": ID, "seed": S, "results":
{"<method>": {"FAR", "PAR", "LAR", "MSE": {"<party>": x, "avg": x}, ...}}, "claim_intervals":
{...}}`` (the MSE claims' 95% intervals, paired by trial).
"""

from __future__ import annotations

from typing import Sequence

import attrs
import click

from mockllm.client import merge_by_task
from scenarios.scorable import check_playable, load_game
from simcore.backends import build_backend
from simcore.metrics.scorable import aggregate, claim_intervals, mse_by_turn
from simcore.protocols.scorable import Settings
from simcore.readings import reading_totals
from simcore.role_backends import check_roles
from simcore.seeding import derive
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.systems.scorable.match import start
from simcore.systems.scorable.methods import METHOD_IDS
from simcore.systems.scorable.model import TurnDraws
from simcore.systems.scorable.registry import SYSTEM
from simcore.systems.scorable.tables import table_mse, table_mse_by_turn, table_outcomes


def _unit(_inst, attr, value):
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{attr.name} must be within 0..1, got {value}")


def _check_roles(value) -> tuple:
    return check_roles(value, SYSTEM)


def _methods(_inst, attr, value):
    bad = [m for m in value if m not in METHOD_IDS]
    if bad or not value:
        raise ValueError(f"methods {bad or '(none)'} invalid; valid: {', '.join(METHOD_IDS)}")


@attrs.frozen
class ScorableConfig:
    """Every option of the study (each documented in ``docs/systems/scorable.md``)."""

    seed: int = 0
    game: str = "harbour-sport-park"
    methods: tuple[str, ...] = attrs.field(default=METHOD_IDS, converter=tuple, validator=_methods)
    trials: int = attrs.field(default=500, validator=attrs.validators.ge(1))
    sigma: float = attrs.field(default=1.0, validator=attrs.validators.gt(0))
    floor: float = attrs.field(default=0.05, validator=[attrs.validators.ge(0), attrs.validators.lt(1)])
    assumed_reservation: float = attrs.field(default=0.5, validator=_unit)
    assumed_threshold: float = attrs.field(default=50.0, validator=[attrs.validators.ge(0), attrs.validators.le(100)])
    acceptance_rule: str = attrs.field(default="share", validator=attrs.validators.in_(("share", "threshold",
                                                                                      "learnt")))
    assumed_share: float = attrs.field(default=0.5, validator=[attrs.validators.gt(0), attrs.validators.le(1)])
    concession_exponent: float = attrs.field(default=1.0, validator=attrs.validators.gt(0))
    aspiration_start: float = attrs.field(default=1.0, validator=_unit)
    aspiration_end: float = attrs.field(default=0.0, validator=_unit)
    amend_max_issues: int | None = attrs.field(default=None, validator=attrs.validators.optional(
        attrs.validators.ge(0)))
    echo_words: bool = False
    implicit_knowledge: float = attrs.field(default=0.0, validator=_unit)
    final_aspiration: float | None = attrs.field(default=None, validator=attrs.validators.optional(_unit))
    cues_per_turn: int = attrs.field(default=3, validator=attrs.validators.ge(0))
    echo_history: str = attrs.field(default="all", validator=attrs.validators.in_(("all", "last")))
    threshold_test: str = attrs.field(default="at-least", validator=attrs.validators.in_(("at-least", "above")))
    omit: float = attrs.field(default=0.2, validator=_unit)
    vague: float = attrs.field(default=0.1, validator=_unit)
    misread: float = attrs.field(default=0.05, validator=_unit)
    pe_forget: float = attrs.field(default=0.3, validator=_unit)
    pe_jitter: float = attrs.field(default=0.15, validator=_unit)
    keep_transcripts: int = attrs.field(default=3, validator=attrs.validators.ge(0))
    backend: str = "mock-v1"          # a registered backend id (see simcore.backends)
    backend_args: tuple = attrs.field(default=(), converter=tuple)
    record: str | None = None
    replay: str | None = None
    replay_misses: str = attrs.field(default="error", validator=attrs.validators.in_(("error", "fallback")))
    # roles played by a backend instead of their stand-in (--role ROLE=BACKEND; simcore.role_backends)
    roles: tuple = attrs.field(default=(), converter=lambda v: _check_roles(v))
    # parties played by another agent in every session (--seat PARTY=POLICY): ((short name, policy), ...);
    # the game's parties are checked when its jobs are made
    seats: tuple = attrs.field(default=(), converter=lambda v: tuple((str(a), str(b)) for a, b in v))

    def settings(self) -> Settings:
        """The settings of the game and of the built-in parties."""
        return Settings(sigma=self.sigma, floor=self.floor, assumed_reservation=self.assumed_reservation,
                        assumed_threshold=self.assumed_threshold, acceptance_rule=self.acceptance_rule,
                        assumed_share=self.assumed_share, concession_exponent=self.concession_exponent,
                        aspiration_start=self.aspiration_start, aspiration_end=self.aspiration_end,
                        amend_max_issues=self.amend_max_issues, echo_words=self.echo_words,
                        implicit_knowledge=self.implicit_knowledge, final_aspiration=self.final_aspiration,
                        cues_per_turn=self.cues_per_turn, echo_history=self.echo_history,
                        threshold_test=self.threshold_test)

    def make_backend(self):
        """The chat backend; the noisy mock takes this study's noise rates."""
        return build_backend(self.backend, self.backend_args, record=self.record, replay=self.replay,
                             replay_misses=self.replay_misses,
                             mock_options=dict(scorable_omit=self.omit, scorable_vague=self.vague,
                                               scorable_misread=self.misread, scorable_pe_forget=self.pe_forget,
                                               scorable_pe_jitter=self.pe_jitter))



class ScorableStudy:
    #: the metrics a sweep shows on the terminal (Table 1; --metrics chooses others)
    sweep_headline = ("results.*.FAR", "results.*.PAR", "results.*.LAR")
    #: the shares among the metrics, with the metric counting each one's trials (a sweep gives
    #: them Wilson intervals: simcore.metrics.proportions)
    sweep_shares = {"results.*.FAR": "trials", "results.*.PAR": "trials", "results.*.LAR": "trials",
                    "results.*.readings.precision": "read", "results.*.readings.recall": "meant"}
    name = SYSTEM

    def jobs(self, config: ScorableConfig) -> list[Job]:
        for warning in check_playable(load_game(config.game), "--game", config.game,
                                      strict=config.threshold_test == "above"):  # fail early, file named
            click.echo(f"simcore: warning: {warning}", err=True)
        return [Job(index=t, key=(t,)) for t in range(config.trials)]

    def run_job(self, config: ScorableConfig, job: Job) -> JobOutput:
        game = load_game(config.game)
        (trial,) = job.key
        seq = derive(config.seed, SYSTEM, *job.key)
        settings, backend = config.settings(), config.make_backend()
        keep = trial < config.keep_transcripts
        records, events, fallbacks, calls = {}, [], 0, []
        draws = TurnDraws(game, seq, settings.cues_per_turn)  # cues shared by the methods
        for method in config.methods:
            res = start(game, method, seq, settings=settings, backend=backend,
                        run_id=f"{SYSTEM}/s{config.seed}/{method}/t{trial}", draws=draws, roles=config.roles,
                        seats=dict(config.seats)).run()
            records[method] = res.record
            if keep:
                events += res.events
            else:
                events.append(res.result)
            fallbacks += res.fallbacks
            calls.append(res.calls)
            for stats in res.role_stats:
                fallbacks += stats.fallbacks
                calls.append(stats.task_counts())
        return JobOutput(key=job.key, record=records, events=tuple(events), fallbacks=fallbacks,
                         calls=merge_by_task(calls))

    def summarize(self, config: ScorableConfig, outputs: Sequence[JobOutput]) -> Summary:
        game = load_game(config.game)
        others = [p.short for k, p in enumerate(game.parties) if k != game.p1]
        results, by_method = {}, {}
        for m in config.methods:
            recs = by_method[m] = [o.record[m] for o in outputs]
            results[m] = aggregate(recs, others)
            trace = mse_by_turn(recs)
            if trace:
                results[m]["MSE_by_turn"] = [round(x, 3) for x in trace]
        counts = game.counts(strict=config.threshold_test == "above")
        metrics = {"system": SYSTEM, "game": game.id, "seed": config.seed, "trials": config.trials,
                   "game_counts": counts, "config": config_block(config), "results": results,
                   "readings": reading_totals(sum(results[m]["readings"]["read"] for m in config.methods),
                                              sum(results[m]["readings"]["right"] for m in config.methods)),
                   "claim_intervals": claim_intervals(by_method)}
        tables = [table_outcomes(config, game, results)]
        mse = table_mse(config, others, results)
        if mse is not None:
            tables.append(mse)
        by_turn = table_mse_by_turn(config, game, results)
        if by_turn is not None:
            tables.append(by_turn)
        return with_model_calls(Summary(system=SYSTEM, metrics=metrics, tables=tables), outputs)


STUDY = ScorableStudy()
