"""``launch``: the one entry point every ``simcore run SYSTEM`` command calls.

It picks a plain run (:func:`simcore.study.run_study`), a sweep (:mod:`simcore.sweep`) or a
robustness run (:mod:`simcore.robustness`) from its options, checks the output directory
before any work, and applies the fallback-share and reading-accuracy checks.  It lives apart from
:mod:`simcore.study`, which the sweep and the robustness runner import, so that none of them
imports the others in a circle.
"""

from __future__ import annotations

import importlib
import json
import os
from typing import Any

import attrs
import click

from simcore.errors import InputError, SimcoreError
from simcore.executors import check_choice, open_executor
from simcore.files import missing_dirs, prepare_out_dir, remove_empty_dirs
from simcore.readings import check_reading_accuracy, sweep_readings
from simcore.robustness import run_robustness
from simcore.runopts import (BACKEND_META, DEFAULT_MAX_FALLBACK_SHARE, DEFAULT_MIN_READING_ACCURACY, SWEEP_META,
                             SWEEP_OPTIONS)
from simcore.study import Summary, check_fallback_share, run_study, sweep_model_calls
from simcore.sweep import DEFAULT_REPLICATES, RunsFailed, run_sweep


def _context_sweep_options() -> dict:
    """Sweep options that :func:`simcore.cli_options.common_options` stored in the click context."""


    ctx = click.get_current_context(silent=True)
    return dict(ctx.meta.get(SWEEP_META, {})) if ctx is not None else {}


def _context_max_fallback_share(given: float | None) -> float | None:
    """The threshold: ``given``, else the command line's --max-fallback-share, else the
    default when running from the command line; None (no check) from Python."""


    if given is not None:
        return given
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    value = ctx.meta.get(BACKEND_META, {}).get("max_fallback_share")
    return DEFAULT_MAX_FALLBACK_SHARE if value is None else value


def _context_min_reading_accuracy(given: float | None) -> float | None:
    """The reading threshold: ``given``, else the command line's --min-reading-accuracy,
    else the default when running from the command line; None (no check) from Python."""


    if given is not None:
        return given
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    value = ctx.meta.get(BACKEND_META, {}).get("min_reading_accuracy")
    return DEFAULT_MIN_READING_ACCURACY if value is None else value


def _context_transport() -> tuple[int, str | None]:
    """``--concurrency`` and ``--log-calls`` from the command line (1 and None otherwise)."""


    ctx = click.get_current_context(silent=True)
    meta = ctx.meta.get(BACKEND_META, {}) if ctx is not None else {}
    return int(meta.get("concurrency") or 1), meta.get("log_calls")


def _system_of(study_path: str) -> str:
    """The system name of the study at ``study_path`` ("module:attr")."""

    module, _, attr = study_path.partition(":")
    return getattr(importlib.import_module(module), attr).name


def launch(study_path: str, config: Any, *, workers: int = 1, out: str | None = None,
           progress: bool | None = None, max_fallback_share: float | None = None,
           min_reading_accuracy: float | None = None, **sweep: Any) -> Summary:
    """The one entry point every ``simcore run SYSTEM`` command calls.

    ``config`` is the study's frozen attrs config (it has a ``seed`` field).  The sweep
    options -- ``grid`` (``"key=v1,v2"`` strings or a mapping), ``replicates``,
    ``resume``, ``executor``, ``scheduler`` -- and ``overwrite`` come from keyword
    arguments or, when called from a command decorated with ``common_options``, from
    the command line.

    Before any work, the options are checked, then ``out`` (:func:`simcore.files.prepare_out_dir`):
    it must be a writable directory, and one that already holds results is refused unless
    ``overwrite`` is given (a sweep's own log is continued with ``resume``).  A run that
    stops -- bad input found later (a role, a file a job reads), a backend that is down, a
    full disk -- removes the directories it created for ``out`` if they are still empty.

    Without ``grid``/``replicates`` this is a plain run: it prints the tables and
    writes ``OUT/metrics.json``, one CSV per table and ``OUT/transcripts.jsonl``
    (on the chosen executor).  Otherwise it runs a sweep (:mod:`simcore.sweep`) and
    returns its summary; from the command line, exit status 1 says some run failed.

    A plain run (or a sweep, over all its runs) whose share of fallen-back model answers is
    above ``max_fallback_share`` (from the command line: ``--max-fallback-share``, default
    :data:`DEFAULT_MAX_FALLBACK_SHARE`) raises
    :class:`~simcore.errors.FallbackShareExceeded` after writing its outputs; one whose
    accepted readings are right less often than ``min_reading_accuracy`` beyond chance
    (``--min-reading-accuracy``, default :data:`DEFAULT_MIN_READING_ACCURACY`;
    :mod:`simcore.readings`) raises :class:`~simcore.errors.ReadingAccuracyTooLow`.  From
    Python, a threshold not given is not checked.
    """
    made = missing_dirs(out) if out is not None and str(out).strip() else []
    try:
        return _launch(study_path, config, workers=workers, out=out, progress=progress,
                       max_fallback_share=max_fallback_share, min_reading_accuracy=min_reading_accuracy, **sweep)
    except BaseException:
        remove_empty_dirs(made)  # a run stopped by bad input or a fault leaves no empty --out behind
        raise


def _launch(study_path: str, config: Any, *, workers: int, out: str | None, progress: bool | None,
            max_fallback_share: float | None, min_reading_accuracy: float | None, **sweep: Any) -> Summary:
    """:func:`launch`, every option checked before ``out`` is prepared."""


    unknown = sorted(set(sweep) - set(SWEEP_OPTIONS))
    if unknown:
        raise SimcoreError(f"unknown launch option(s) {', '.join(unknown)}; valid: {', '.join(SWEEP_OPTIONS)}")
    opts = _context_sweep_options()
    opts.update({k: v for k, v in sweep.items() if v is not None})
    grid, replicates = opts.get("grid") or (), opts.get("replicates")
    resume, executor, scheduler = bool(opts.get("resume")), opts.get("executor"), opts.get("scheduler")
    overwrite = bool(opts.get("overwrite"))
    if overwrite and resume:
        raise InputError("--overwrite", "", "cannot be combined with --resume (one replaces the results, "
                         "the other continues them)")
    robustness = opts.get("robustness")
    as_json = bool(opts.get("json"))
    if as_json and (robustness or grid or replicates is not None):
        raise InputError("--json", "", "applies to a plain run, not to a sweep or --robustness (their tables "
                                       "are CSV files in --out)")
    if robustness:
        if grid or replicates is not None or resume:
            raise InputError("--robustness", str(robustness), "runs the study once per stand-in; it cannot be "
                                                               "combined with --grid, --replicates or --resume")
        if out is not None:

            prepare_out_dir(out, kind="run", overwrite=overwrite)

        role_ids = None if robustness == "all" else [r.strip() for r in str(robustness).split(",") if r.strip()]
        run_robustness(study_path, config, _system_of(study_path),
                       workers=workers, out=out, progress=progress, echo=click.echo, role_ids=role_ids)
        return None
    if grid or replicates is not None:
        if _context_transport() != (1, None):
            raise InputError("--concurrency", "", "--concurrency and --log-calls apply to a plain run, not a sweep")

        summary = run_sweep(study_path, config, grid=grid,
                            replicates=DEFAULT_REPLICATES if replicates is None else replicates,
                            out=out, resume=resume, executor=executor, scheduler=scheduler,
                            workers=workers, progress=progress, echo=click.echo, overwrite=overwrite,
                            metrics=[m.strip() for m in str(opts.get("metrics") or "").split(",") if m.strip()])
        failed = summary.metrics["failed"]
        if failed and click.get_current_context(silent=True) is not None:
            raise RunsFailed(f"{failed} of {summary.metrics['runs']} run(s) failed; they are listed above "
                             f"and in {os.path.join(out or 'runs', 'sweep_failures.csv')}")
        calls = sweep_model_calls(summary.metrics)
        if calls is not None:
            check_fallback_share(attrs.evolve(summary, metrics={"model_calls": calls}),
                                 _context_max_fallback_share(max_fallback_share), out)
        readings = sweep_readings(summary.metrics)
        if readings is not None:
            check_reading_accuracy({"readings": readings}, _context_min_reading_accuracy(min_reading_accuracy), out)
        return summary
    if resume:
        raise InputError("--resume", "", "continues a sweep (--grid or --replicates); a plain run keeps no log")
    if opts.get("metrics"):
        raise InputError("--metrics", str(opts["metrics"]), "chooses the metrics a sweep shows; a plain run "
                                                            "shows its tables (--json for data)")
    limit = _context_max_fallback_share(max_fallback_share)
    min_accuracy = _context_min_reading_accuracy(min_reading_accuracy)
    concurrency, log_calls = _context_transport()
    if concurrency > 1 and (workers > 1 or executor not in (None, "auto", "inline") or scheduler):
        raise InputError("--concurrency", str(concurrency), "runs jobs in threads of one process; use it with "
                                                            "--workers 1 and the default executor")
    if log_calls and (workers > 1 or executor not in (None, "auto", "inline") or scheduler):
        raise InputError("--log-calls", log_calls, "sees the calls of this process only; use --concurrency "
                                                   "instead of --workers / another executor")
    if executor is not None or scheduler:

        check_choice(executor, scheduler)
    if out is not None:

        prepare_out_dir(out, kind="run", overwrite=overwrite)
    echo = None if as_json else click.echo
    if (executor in (None, "auto") and not scheduler) or concurrency > 1:  # (--concurrency: inline only)
        summary = run_study(study_path, config, workers=workers, out_dir=out, progress=progress, echo=echo,
                            concurrency=concurrency, log_calls=log_calls)
    else:

        with open_executor(executor, workers=workers, scheduler=scheduler) as pool:
            summary = run_study(study_path, config, workers=workers, out_dir=out, progress=progress,
                                echo=echo, executor=pool, log_calls=log_calls)
    if as_json:

        click.echo(json.dumps({"system": summary.system, "out": out,
                               "tables": [t.to_json() for t in summary.tables],
                               "model_calls": {k: v for k, v in (summary.metrics.get("model_calls") or {}).items()
                                               if k != "by_task"},
                               "readings": summary.metrics.get("readings")}, indent=1))
    check_fallback_share(summary, limit, out)
    check_reading_accuracy(summary.metrics, min_accuracy, out)
    return summary
