"""``simcore run mind``: the command, the default study and the tone-noise calibration."""

from __future__ import annotations

from typing import Sequence

import attrs
import click
from click.core import ParameterSource

from simcore.cli_options import (CommaInts, FloatRange, SeatChoice, backend_options, backend_settings, seat_option,
                                 common_options)
from simcore.errors import InputError
from simcore.launch import launch
from simcore.runopts import BACKEND_META, SWEEP_META
from simcore.sweep import parse_grid, plan
from simcore.study import run_study
from simcore.systems.mind.evidence import TOM_PAPER
from simcore.systems.mind.registry import JUDGES, POLICY_IDS, SEAT_NAMES, SYSTEM, VARIANTS
from simcore.systems.mind.study import MindConfig
from simcore.systems.mind.tables import number_cell, share_cell

#: where ``launch`` and the sweep log find the study
STUDY_PATH = f"simcore.systems.{SYSTEM}:STUDY"


@click.command(SYSTEM)
@common_options(SYSTEM)
@click.option("--groups", type=click.IntRange(1, 100000), default=201, show_default=True,
              help="Number of persona groups per seed.")
@click.option("--sizes", type=CommaInts(2, 8), default="2,3,4", show_default=True,
              help="Group sizes, used in equal shares.")
@click.option("--variants", type=SeatChoice(tuple(VARIANTS) + POLICY_IDS, SYSTEM), default=",".join(VARIANTS),
              show_default=True,
              help="Study names (the current versions), any registered id (mind-v1, base-v2, tone-only-v2, ...), "
                   "or your own policy as package.module:Class (docs/users/api.md).")
@click.option("--judge", type=click.Choice(JUDGES), default="blind", show_default=True,
              help="Table 4's judge: blind (E17's inputs only, one test for both plans), v1 (reads alphas) or v2 "
                   "(reads alphas and knows Base's B3-B4 reasons: compromise, support).")
@click.option("--seeds", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Independent replicates (new groups each).")
@click.option("--tone-noise", type=FloatRange(0.0, 1.0), default=None,
              help="Probability that wording slips to a neighbouring tone band [default: calibrated 0.20].")
@click.option("--no-transcripts", is_flag=True, help="Do not keep transcripts (smaller, faster).")
@backend_options
@seat_option(SYSTEM, {s: None for s in SEAT_NAMES},
             "A member played by another policy in every group and variant: mN=POLICY (m0 the first member), "
             "a variant name, a registered id or package.module:Class (your own agent, docs/users/api.md).",
             names=tuple(VARIANTS))
@click.option("--calibrate", is_flag=True,
              help="Print ToM Acc(+-2) over a grid of --tone-noise values (or those of --grid tone_noise=...) "
                   "and exit; writes nothing.")
def command(seed, workers, out, progress, groups, sizes, variants, judge, seeds, tone_noise, no_transcripts,
            backend, backend_args, record, replay, seats, calibrate, **sweep):
    """MIND group travel negotiation (Base, MIND, Tone-only, Appraisal-only)."""
    config = MindConfig(seed=seed, seeds=seeds, groups=groups, sizes=sizes, variants=variants,
                        transcripts=not no_transcripts, judge=judge, seats=seats,
                        **backend_settings(backend, backend_args, record, replay, workers),
                        **({} if tone_noise is None else {"tone_noise": tone_noise}))
    if calibrate:
        values = calibration_values(config)
        calibrate_tone_noise(config, workers=workers, **({} if values is None else {"grid": values}))
        return
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress, **sweep)


#: ``simcore run --first-look``: every table of the default study at a size that runs in seconds
FIRST_LOOK = {"groups": 24}


def run_default(seed: int = 0, workers: int = 1, out: str | None = "runs/mind", progress=None,
                first_look: bool = False):
    """Table 1-4's study: 201 groups of 2, 3 and 4 members, every variant (``first_look``: at
    :data:`FIRST_LOOK`'s size)."""
    return launch(STUDY_PATH, MindConfig(seed=seed, **(FIRST_LOOK if first_look else {})), workers=workers,
                  out=out, progress=progress)


#: options --calibrate refuses: it prints a table for each tone_noise value and writes nothing
_NOT_CALIBRATED = ("replicates", "resume", "overwrite", "robustness", "json", "metrics", "executor", "scheduler")


def calibration_values(config: MindConfig) -> tuple[float, ...] | None:
    """The tone_noise values ``--calibrate`` runs: those of ``--grid tone_noise=V1,V2,...``,
    or None (its default values) without --grid.  Another grid key, another sweep option,
    ``--out``, ``--log-calls`` and ``--concurrency`` would be ignored, so each is refused
    with one line."""
    ctx = click.get_current_context()
    opts = ctx.meta.get(SWEEP_META, {})
    given = [f"--{name}" for name in _NOT_CALIBRATED if opts.get(name) not in (None, False, ())]
    transport = ctx.meta.get(BACKEND_META, {})
    given += [f"--{name.replace('_', '-')}" for name in ("log_calls", "concurrency")
              if transport.get(name) not in (None, 1)]
    if ctx.get_parameter_source("out") not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
        given.append("--out")
    if given:
        raise InputError("--calibrate", given[0], "prints ToM accuracy for each tone_noise value and writes "
                                                  "nothing: it takes --grid tone_noise=V1,V2,... (the values to "
                                                  "calibrate over), --seed, --workers and the study's options only")
    axes = parse_grid(config, opts.get("grid") or ())
    if not axes:
        return None
    other = [a.key for a in axes if a.key != "tone_noise"]
    if other:
        raise InputError("--calibrate", f"--grid {other[0]}", "calibrates tone_noise only: give --grid "
                                                               "tone_noise=V1,V2,... or no --grid (its default values)")
    plan(config, axes, 1)  # each value through the config's validators: one line for a bad one
    return tuple(axes[0].values)


def calibrate_tone_noise(config: MindConfig, *, workers: int = 1,
                         grid: Sequence[float] = tuple(k / 20 for k in range(13))) -> float:
    """ToM MAE, r, Acc(+-1) and Acc(+-2) of the MIND variant for each tone_noise in ``grid``,
    then, for each of Table 3's four figures, the value whose figure is nearest the paper's;
    returns the one nearest Acc(+-2) (the figure the default is fitted to)."""
    rows = {}
    for p in grid:
        cfg = attrs.evolve(config, tone_noise=p, variants=("mind",), transcripts=False)
        tom = run_study(STUDY_PATH, cfg, workers=workers).metrics["tom"]["mind"]
        rows[p] = tom
        click.echo(f"tone_noise={p:.2f}  MAE={tom['MAE']:.2f}  r={number_cell(tom['pearson'], 2).text}  "
                   f"Acc(+-1)={share_cell(tom['acc1']).text}  Acc(+-2)={share_cell(tom['acc2']).text}  n={tom['n']}")
    best = {}
    for fig, paper in TOM_PAPER.items():
        known = [p for p in grid if rows[p][fig] is not None]
        best[fig] = min(known, key=lambda p: abs(rows[p][fig] - paper))
        click.echo(f"nearest to the paper's {fig} ({paper}): tone_noise={best[fig]:.2f}")
    return best["acc2"]
