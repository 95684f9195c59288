"""``simcore run scorable``: the command and the default study."""

from __future__ import annotations

import os

import click

from scenarios.scorable import check_playable, load_game
from simcore.cli_options import (CommaChoice, FloatRange, backend_options, backend_settings, common_options,
                                 seat_option)
from simcore.errors import InputError
from simcore.launch import launch
from simcore.systems.scorable.methods import METHOD_IDS
from simcore.systems.scorable.registry import GAMES, SYSTEM
from simcore.systems.scorable.study import ScorableConfig

#: where ``launch`` and the sweep log find the study
STUDY_PATH = f"simcore.systems.{SYSTEM}:STUDY"


@click.command(name=SYSTEM)
@common_options(SYSTEM)
@click.option("--game", default="harbour-sport-park", show_default=True, metavar="ID|PATH",
              help=f"A shipped game ({', '.join(GAMES)}) or a game file (.json/.toml).")
@click.option("--methods", type=CommaChoice(METHOD_IDS, registry_prefix="scorable-"), default=",".join(METHOD_IDS), show_default=True,
              help="Comma-separated method configurations.")
@click.option("--trials", type=click.IntRange(1, 1_000_000), default=500, show_default=True,
              help="Trials (sessions) per method.")
@click.option("--sigma", type=FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Numeric likelihood sd (eq. 3), on the [0,1] utility scale.")
@click.option("--floor", type=FloatRange(0, 1, max_open=True), default=0.05, show_default=True,
              help="Uniform floor mixed into every linguistic likelihood.")
@click.option("--assumed-reservation", type=FloatRange(0, 1), default=0.5, show_default=True,
              help="r in the assumed opponent target u'(t) = 1 - (1-r) t/T.")
@click.option("--acceptance-rule", type=click.Choice(("share", "threshold", "learnt")), default="share",
              show_default=True,
              help="How a party predicts another's acceptance from its estimate (learnt: at least the estimated "
                   "score of the least valued deal that party has itself proposed).")
@click.option("--assumed-share", type=FloatRange(0, 1, min_open=True), default=0.5, show_default=True,
              help="share rule: a party is predicted to accept this best share of deals by its estimate.")
@click.option("--assumed-threshold", type=FloatRange(0, 100), default=50.0, show_default=True,
              help="threshold rule: estimated score (0-100) at which a party is predicted to accept.")
@click.option("--concession-exponent", type=FloatRange(min=0, min_open=True), default=1.0,
              show_default=True, help="e in the parties' aspiration schedule (1 = linear).")
@click.option("--aspiration-start", type=FloatRange(0, 1), default=None,
              help="The parties' aspiration at the opening, as a share of the range from threshold to best own "
                   "score [default: 1; the Base-LLM role's proposals in the benchmark's GPT-4 logs fit 0.594].")
@click.option("--aspiration-end", type=FloatRange(0, 1), default=None,
              help="The same at the final turn [default: 0; the logs fit 0.374].")
@click.option("--amend-max-issues", type=click.IntRange(0, 100), default=None,
              help="Propose only deals changing at most this many issues of the deal on the table [default: "
                   "any deal; the benchmark's GPT-4 logs change a median of 2].")
@click.option("--echo-words/--no-echo-words", default=False, show_default=True,
              help="A party without an estimator also uses what the others' words said about single options.")
@click.option("--implicit-knowledge", type=FloatRange(0, 1), default=0.0, show_default=True,
              help="Share of each other party's true table a party's negotiator knows without any estimator (the "
                   "same in every method); the benchmark's GPT-4 logs fit 1.0 with --acceptance-rule threshold "
                   "--assumed-threshold 62.5 (benchmarks/fit_base_llm_knowledge.py).")
@click.option("--final-aspiration", type=FloatRange(0, 1), default=None,
              help="p1's aspiration for the final proposal, as a share of the range from threshold to best own "
                   "score [default: the schedule's end; the logs' final proposals keep a median 0.2].")
@click.option("--cues-per-turn", type=click.IntRange(0, 10), default=3, show_default=True,
              help="Preference cues a party means to give per utterance.")
@click.option("--echo-history", type=click.Choice(("all", "last")), default="all", show_default=True,
              help="Base-LLM stand-in (and non-estimating parties): value j's options by all of j's public "
                   "deals (seed sec. 2 'the history of d_t') or by its last deal only.")
@click.option("--threshold-test", type=click.Choice(("at-least", "above")), default="at-least", show_default=True,
              help="A party accepts a score >= its threshold (at-least: the benchmark's prompt and the seed's deal "
                   "counts) or > it (above: the seed's sec. 2 wording).")
@click.option("--omit", type=FloatRange(0, 1), default=0.2, show_default=True, help="Mock: cue omission rate.")
@click.option("--vague", type=FloatRange(0, 1), default=0.1, show_default=True, help="Mock: vague-cue rate.")
@click.option("--misread", type=FloatRange(0, 1), default=0.05, show_default=True,
              help="Mock: rate at which the reader drops a signal.")
@click.option("--pe-forget", type=FloatRange(0, 1), default=0.3, show_default=True,
              help="Mock LLM-PE: rate at which older signals are overlooked.")
@click.option("--pe-jitter", type=FloatRange(0, 1), default=0.15, show_default=True,
              help="Mock LLM-PE: rate at which a table entry is off by noise (sd 10).")
@click.option("--keep-transcripts", type=click.IntRange(0, 1_000_000), default=3, show_default=True,
              help="Trials per method whose full turn-by-turn events are written.")
@backend_options
@seat_option(SYSTEM, None, "A party played by another agent in every session: PARTY=POLICY (a party's short name "
             "in the game, e.g. SportCo), a registered id or package.module:Class (your own agent, docs/users/api.md).")
def command(seed, workers, out, progress, game, methods, trials, sigma, floor, assumed_reservation,
            acceptance_rule, assumed_share, assumed_threshold, concession_exponent, aspiration_start, aspiration_end,
            amend_max_issues, echo_words, implicit_knowledge, final_aspiration, cues_per_turn, echo_history,
            threshold_test, omit, vague, misread, pe_forget, pe_jitter,
            keep_transcripts, backend, backend_args, record, replay, seats):
    """The scorable multi-party game with the Bayesian opponent model (seed Tables 1-2)."""
    if os.path.exists(game):
        game = os.path.abspath(game)
    config = ScorableConfig(seed=seed, game=game, methods=methods, trials=trials, sigma=sigma, floor=floor,
                            assumed_reservation=assumed_reservation, assumed_threshold=assumed_threshold,
                            acceptance_rule=acceptance_rule, assumed_share=assumed_share,
                            concession_exponent=concession_exponent, cues_per_turn=cues_per_turn,
                            echo_history=echo_history, threshold_test=threshold_test, omit=omit,
                            vague=vague, misread=misread, pe_forget=pe_forget, pe_jitter=pe_jitter,
                            keep_transcripts=keep_transcripts, amend_max_issues=amend_max_issues,
                            echo_words=echo_words, implicit_knowledge=implicit_knowledge,
                            final_aspiration=final_aspiration,
                            **{k: v for k, v in (("aspiration_start", aspiration_start),
                                                 ("aspiration_end", aspiration_end)) if v is not None},
                            seats=seats, **backend_settings(backend, backend_args, record, replay, workers))
    shorts = [p.short for p in load_game(config.game).parties]
    bad = [s for s, _ in seats if s not in shorts]
    if bad:
        raise InputError("--seat", bad[0], f"{config.game} has no party {bad[0]!r}; parties: {', '.join(shorts)}")
    # a bad or unplayable --game is one line before --out is touched, also for a sweep (whose
    # runs would each fail on it); jobs() checks it again and shows its warnings
    check_playable(load_game(config.game), "--game", config.game, strict=config.threshold_test == "above")
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)


#: ``simcore run --first-look``: every table of the default study at a size that runs in seconds
FIRST_LOOK = {"trials": 12}


def run_default(seed: int = 0, workers: int = 1, out: str | None = "runs/scorable", progress=None,
                first_look: bool = False):
    """The paper-scale study: 500 trials of each of the 7 methods on Harbour Sport Park
    (``first_look``: at :data:`FIRST_LOOK`'s size)."""
    return launch(STUDY_PATH, ScorableConfig(seed=seed, **(FIRST_LOOK if first_look else {})), workers=workers,
                  out=out, progress=progress)
