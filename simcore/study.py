"""The shape every system's study follows, and the code that runs one.

A study turns a config into a list of :class:`Job` (one negotiation, or one small
batch of them), runs each job independently from its own derived seed, and
summarises the job outputs -- taken in job order -- into metrics and tables.  Because
a job's randomness depends only on the root seed and the job's key, the outputs do
not depend on the worker count.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Mapping, Protocol, Sequence

import attrs

from simcore.files import AtomicFile, write_atomic
from simcore.runner import map_ordered
from simcore.tables import Table
from simcore.transcript import Event, write_jsonl


@attrs.frozen
class Job:
    index: int
    key: tuple = attrs.field(converter=tuple)
    params: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class JobOutput:
    key: tuple = attrs.field(converter=tuple)
    record: Mapping[str, Any] = attrs.field(factory=dict)
    events: tuple[Event, ...] = attrs.field(factory=tuple, converter=tuple)
    fallbacks: int = 0
    #: the job's model-call counts per task, ``{task id: {counter: n}}`` (see
    #: :data:`mockllm.client.TASK_COUNTS`); summed into ``metrics["model_calls"]``
    calls: Mapping[str, Mapping[str, int]] = attrs.field(factory=dict)
    #: the job's cassette lines while recording (see :func:`mockllm.cassette.buffered`),
    #: written by the parent in job order, then dropped
    cassette: tuple = attrs.field(factory=tuple, converter=tuple, eq=False, repr=False)


@attrs.frozen
class Summary:
    system: str
    metrics: Mapping[str, Any]
    tables: tuple[Table, ...] = attrs.field(converter=tuple)


#: A choice (no paper states one).  An ask falls back only after two unreadable
#: answers in a row (or a failed backend call), so 5% is what a model whose answers
#: are unreadable about 22% of the time independently would give (0.22**2 ~ 0.05);
#: the mock at its default noise falls back on none of the ~21,000 asks of the four
#: small studies measured, and a dead or misconfigured backend on all of them.  Above
#: this the tables describe the fallback rules more than the model.
DEFAULT_MAX_FALLBACK_SHARE = 0.05


#: config fields naming where a run's model exchanges are written or read, not what
#: the run is: left out of ``metrics["config"]``, so a replay's metrics equal the
#: recorded run's byte for byte (``metrics["backend"]`` says what answered)
RUN_IO_FIELDS = ("record", "replay", "replay_misses")


def config_block(config: Any) -> dict:
    """``metrics["config"]``: the study config's fields without :data:`RUN_IO_FIELDS`."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in attrs.asdict(config).items()
            if k not in RUN_IO_FIELDS}


def with_backend_identity(summary: "Summary", config: Any) -> "Summary":
    """``summary`` with ``metrics["backend"]`` (``{"id", "model"}``, see
    :func:`simcore.backends.backend_identity`) when the config names a backend."""
    if not hasattr(config, "backend"):
        return summary
    from simcore.backends import backend_identity

    ident = backend_identity(config.backend, getattr(config, "backend_args", ()), getattr(config, "replay", None))
    return attrs.evolve(summary, metrics={**summary.metrics, "backend": ident})


def model_call_metrics(outputs: Sequence[JobOutput]) -> dict:
    """``metrics["model_calls"]``: the jobs' per-task counts summed (in job order; sums
    do not depend on the worker count), their totals and the share of asks that fell
    back to the rule."""
    from mockllm.client import TASK_COUNTS, merge_by_task

    by_task = merge_by_task(o.calls for o in outputs)
    totals = {name: sum(row.get(name, 0) for row in by_task.values()) for name in TASK_COUNTS}
    share = totals["fallbacks"] / totals["asks"] if totals["asks"] else 0.0
    return {**totals, "fallback_share": share, "by_task": by_task}


def fallback_line(calls: Mapping[str, Any]) -> str:
    """The line printed under every table: how many answers were the rule's, not the model's."""
    if not calls["asks"]:
        return "model answers: none asked"
    return (f"model answers: {calls['asks']} asked, {calls['fallbacks']} fell back to the rule "
            f"({calls['fallback_share']:.2%}), {calls['backend_errors']} backend errors")


def with_model_calls(summary: "Summary", outputs: Sequence[JobOutput]) -> "Summary":
    """``summary`` with ``metrics["model_calls"]`` and the fallback line under every table
    (every study's ``summarize`` ends with this)."""
    calls = model_call_metrics(outputs)
    line = fallback_line(calls)
    tables = tuple(attrs.evolve(t, note=f"{t.note}\n{line}" if t.note else line) for t in summary.tables)
    return attrs.evolve(summary, metrics={**summary.metrics, "model_calls": calls}, tables=tables)


def check_fallback_share(summary: "Summary", limit: float | None, where: str | None) -> None:
    """Raises :class:`~simcore.errors.FallbackShareExceeded` when more than ``limit`` of
    the run's model answers fell back (after the outputs are written)."""
    from simcore.errors import FallbackShareExceeded

    calls = summary.metrics.get("model_calls")
    if limit is None or not calls or calls["fallback_share"] <= limit:
        return
    written = f"; outputs written to {where}" if where else ""
    raise FallbackShareExceeded(
        f"{calls['fallbacks']} of {calls['asks']} model answers ({calls['fallback_share']:.2%}) fell back to "
        f"the rule ({calls['backend_errors']} backend errors), above --max-fallback-share {limit:g}: the "
        f"tables describe the fallback rules, not the model{written}")


def sweep_model_calls(sweep_metrics: Mapping[str, Any]) -> dict | None:
    """The model-call totals over every finished run of a sweep (from the per-point
    means and run counts of ``model_calls.*``), or None when the runs report none."""
    totals = {"asks": 0.0, "fallbacks": 0.0, "backend_errors": 0.0}
    seen = False
    for point in sweep_metrics.get("points", ()):
        for name in totals:
            stat = (point.get("metrics") or {}).get(f"model_calls.{name}")
            if stat and stat.get("mean") is not None:
                seen = True
                totals[name] += stat["mean"] * stat["n"]
    if not seen:
        return None
    out = {k: int(round(v)) for k, v in totals.items()}
    out["fallback_share"] = out["fallbacks"] / out["asks"] if out["asks"] else 0.0
    return out


class Study(Protocol):
    name: str

    def jobs(self, config: Any) -> Sequence[Job]: ...

    def run_job(self, config: Any, job: Job) -> JobOutput: ...

    def summarize(self, config: Any, outputs: Sequence[JobOutput]) -> Summary: ...


@attrs.frozen
class _Call:
    """Picklable ``run_job`` bound to a study (looked up by module path) and config."""

    study_path: str
    config: Any
    #: keep the job's cassette lines in its output (the parent writes them in job order)
    buffer_cassette: bool = False

    def __call__(self, job: Job) -> JobOutput:
        import importlib

        module, _, attr = self.study_path.partition(":")
        study = getattr(importlib.import_module(module), attr)
        if not self.buffer_cassette:
            return study.run_job(self.config, job)
        from mockllm.cassette import buffered

        with buffered() as lines:
            out = study.run_job(self.config, job)
        return attrs.evolve(out, cassette=tuple(lines)) if lines else out


def _write_cassette(out: JobOutput) -> JobOutput:
    """Writes a finished job's cassette lines (called in job order); drops them."""
    if not out.cassette:
        return out
    from mockllm.cassette import write_lines

    write_lines(out.cassette)
    return attrs.evolve(out, cassette=())


def run_study(study_path: str, config: Any, *, workers: int = 1, out_dir: str | None = None,
              progress: bool | None = None, echo: Callable[[str], None] | None = None,
              executor: Any = None, concurrency: int = 1, log_calls: str | None = None) -> Summary:
    """Run every job of the study at ``study_path`` ("module:attr"), write outputs, print tables.

    With ``out_dir``, each job's transcript events are written to
    ``OUT/transcripts.jsonl`` as soon as that job's turn comes (in job order) and are
    then dropped, so memory does not grow with the number of transcript lines; the
    outputs passed to ``summarize`` carry their records but no events.  Every file is
    written atomically (:mod:`simcore.files`).

    ``executor`` (a ``concurrent.futures.Executor``) replaces the default in-process
    loop / process pool of ``workers``.  ``concurrency`` > 1 runs up to that many jobs
    at once in threads of this process (each job builds its own backend and client;
    the outputs are taken in job order, so every file is byte-identical to a
    sequential run's): for a backend that waits on a server.  A recorded cassette is
    written job by job in job order, whatever runs the jobs.  ``log_calls`` names a
    file that gets one JSON line per model call (see :mod:`simcore.callwatch`); the
    progress bar notes every model call made in this process."""
    import contextlib
    import importlib
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from mockllm import calllog
    from simcore.callwatch import CallWatch
    from simcore.progress import Progress

    module, _, attr = study_path.partition(":")
    study = getattr(importlib.import_module(module), attr)
    jobs = list(study.jobs(config))
    bar = Progress(len(jobs), study.name, enabled=progress)
    recording = bool(getattr(config, "record", None))
    call = _Call(study_path, config, buffer_cassette=recording)
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(open(log_calls, "w", encoding="utf-8")) if log_calls else None
        watch = CallWatch(bar if bar.enabled else None, log)
        if bar.enabled or log is not None:
            stack.enter_context(calllog.observing(watch))
        if executor is None and concurrency > 1:
            executor = stack.enter_context(ThreadPoolExecutor(max_workers=concurrency,
                                                              thread_name_prefix="simcore-job"))
        if out_dir is None:
            outputs = map_ordered(call, jobs, workers=workers, executor=executor, bar=bar,
                                  on_result=_write_cassette if recording else None)
            summary = with_backend_identity(study.summarize(config, outputs), config)
            n_events = sum(len(o.events) for o in outputs)
        else:
            os.makedirs(out_dir, exist_ok=True)
            with AtomicFile(os.path.join(out_dir, "transcripts.jsonl")) as fh:
                stream = _TranscriptStream(fh)
                keep = (lambda out: stream(_write_cassette(out))) if recording else stream
                outputs = map_ordered(call, jobs, workers=workers, executor=executor, bar=bar, on_result=keep)
                summary = with_backend_identity(study.summarize(config, outputs), config)
                write_summary(out_dir, summary)
            n_events = stream.events
    if watch.calls and (log is not None or bar.enabled):
        print(watch.summary(), file=sys.stderr)
    if echo is not None:
        for table in summary.tables:
            echo(table.render())
            echo("")
        if out_dir is not None:
            echo(f"wrote {os.path.join(out_dir, 'metrics.json')}, {len(summary.tables)} CSV tables "
                 f"and transcripts.jsonl ({n_events} events)")
    return summary


class _TranscriptStream:
    """``on_result`` of :func:`run_study`: writes a job's events, keeps the rest."""

    def __init__(self, fh):
        self.fh = fh
        self.events = 0

    def __call__(self, output: JobOutput) -> JobOutput:
        if not output.events:
            return output
        self.events += write_jsonl(output.events, self.fh)
        return attrs.evolve(output, events=())


def dumps_metrics(metrics: Mapping[str, Any]) -> str:
    return json.dumps(metrics, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_summary(out_dir: str, summary: Summary, metrics_name: str = "metrics.json") -> None:
    """The metrics as JSON and one CSV per table, each written atomically."""
    os.makedirs(out_dir, exist_ok=True)
    write_atomic(os.path.join(out_dir, metrics_name), dumps_metrics(summary.metrics))
    for table in summary.tables:
        write_atomic(os.path.join(out_dir, f"{table.name}.csv"), table.to_csv(), newline="")


def write_outputs(out_dir: str, summary: Summary, outputs: Sequence[JobOutput]) -> None:
    """Metrics, tables and the outputs' transcripts (for callers holding all outputs)."""
    write_summary(out_dir, summary)
    with AtomicFile(os.path.join(out_dir, "transcripts.jsonl")) as fh:
        for out in outputs:
            write_jsonl(out.events, fh)


SWEEP_OPTIONS = ("grid", "replicates", "resume", "executor", "scheduler", "overwrite", "robustness")


def _context_sweep_options() -> dict:
    """Sweep options that :func:`simcore.cli_options.common_options` stored in the click context."""
    import click

    from simcore.cli_options import SWEEP_META

    ctx = click.get_current_context(silent=True)
    return dict(ctx.meta.get(SWEEP_META, {})) if ctx is not None else {}


def _context_max_fallback_share(given: float | None) -> float | None:
    """The threshold: ``given``, else the command line's --max-fallback-share, else the
    default when running from the command line; None (no check) from Python."""
    import click

    from simcore.cli_options import BACKEND_META

    if given is not None:
        return given
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    value = ctx.meta.get(BACKEND_META, {}).get("max_fallback_share")
    return DEFAULT_MAX_FALLBACK_SHARE if value is None else value


def _context_transport() -> tuple[int, str | None]:
    """``--concurrency`` and ``--log-calls`` from the command line (1 and None otherwise)."""
    import click

    from simcore.cli_options import BACKEND_META

    ctx = click.get_current_context(silent=True)
    meta = ctx.meta.get(BACKEND_META, {}) if ctx is not None else {}
    return int(meta.get("concurrency") or 1), meta.get("log_calls")


def _system_of(study_path: str) -> str:
    """The system name of the study at ``study_path`` ("module:attr")."""
    import importlib

    module, _, attr = study_path.partition(":")
    return getattr(importlib.import_module(module), attr).name


def launch(study_path: str, config: Any, *, workers: int = 1, out: str | None = None,
           progress: bool | None = None, max_fallback_share: float | None = None, **sweep: Any) -> Summary:
    """The one entry point every ``simcore run SYSTEM`` command calls.

    ``config`` is the study's frozen attrs config (it has a ``seed`` field).  The sweep
    options -- ``grid`` (``"key=v1,v2"`` strings or a mapping), ``replicates``,
    ``resume``, ``executor``, ``scheduler`` -- and ``overwrite`` come from keyword
    arguments or, when called from a command decorated with ``common_options``, from
    the command line.

    Before any work, ``out`` is checked (:func:`simcore.files.prepare_out_dir`): it must
    be a writable directory, and one that already holds results is refused unless
    ``overwrite`` is given (a sweep's own log is continued with ``resume``).

    Without ``grid``/``replicates`` this is a plain run: it prints the tables and
    writes ``OUT/metrics.json``, one CSV per table and ``OUT/transcripts.jsonl``
    (on the chosen executor).  Otherwise it runs a sweep (:mod:`simcore.sweep`) and
    returns its summary; from the command line, exit status 1 says some run failed.

    A plain run whose share of fallen-back model answers is above
    ``max_fallback_share`` (from the command line: ``--max-fallback-share``, default
    :data:`DEFAULT_MAX_FALLBACK_SHARE`) raises
    :class:`~simcore.errors.FallbackShareExceeded` after writing its outputs.
    """
    import click

    from simcore.errors import InputError, SimcoreError

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
    if robustness:
        if grid or replicates is not None or resume:
            raise InputError("--robustness", str(robustness), "runs the study once per stand-in; it cannot be "
                                                               "combined with --grid, --replicates or --resume")
        if out is not None:
            from simcore.files import prepare_out_dir

            prepare_out_dir(out, kind="run", overwrite=overwrite)
        from simcore.robustness import run_robustness

        role_ids = None if robustness == "all" else [r.strip() for r in str(robustness).split(",") if r.strip()]
        run_robustness(study_path, config, _system_of(study_path),
                       workers=workers, out=out, progress=progress, echo=click.echo, role_ids=role_ids)
        return None
    if grid or replicates is not None:
        if _context_transport() != (1, None):
            raise InputError("--concurrency", "", "--concurrency and --log-calls apply to a plain run, not a sweep")
        from simcore.sweep import DEFAULT_REPLICATES, RunsFailed, run_sweep

        summary = run_sweep(study_path, config, grid=grid,
                            replicates=DEFAULT_REPLICATES if replicates is None else replicates,
                            out=out, resume=resume, executor=executor, scheduler=scheduler,
                            workers=workers, progress=progress, echo=click.echo, overwrite=overwrite)
        failed = summary.metrics["failed"]
        if failed and click.get_current_context(silent=True) is not None:
            raise RunsFailed(f"{failed} of {summary.metrics['runs']} run(s) failed; they are listed above "
                             f"and in {os.path.join(out or 'runs', 'sweep_failures.csv')}")
        calls = sweep_model_calls(summary.metrics)
        if calls is not None:
            check_fallback_share(attrs.evolve(summary, metrics={"model_calls": calls}),
                                 _context_max_fallback_share(max_fallback_share), out)
        return summary
    if resume:
        raise InputError("--resume", "", "continues a sweep (--grid or --replicates); a plain run keeps no log")
    if out is not None:
        from simcore.files import prepare_out_dir

        prepare_out_dir(out, kind="run", overwrite=overwrite)
    limit = _context_max_fallback_share(max_fallback_share)
    concurrency, log_calls = _context_transport()
    if concurrency > 1 and (workers > 1 or executor not in (None, "auto", "inline") or scheduler):
        raise InputError("--concurrency", str(concurrency), "runs jobs in threads of one process; use it with "
                                                            "--workers 1 and the default executor")
    if log_calls and (workers > 1 or executor not in (None, "auto", "inline") or scheduler):
        raise InputError("--log-calls", log_calls, "sees the calls of this process only; use --concurrency "
                                                   "instead of --workers / another executor")
    if (executor in (None, "auto") and not scheduler) or concurrency > 1:  # (--concurrency: inline only)
        summary = run_study(study_path, config, workers=workers, out_dir=out, progress=progress, echo=click.echo,
                            concurrency=concurrency, log_calls=log_calls)
    else:
        from simcore.executors import open_executor

        with open_executor(executor, workers=workers, scheduler=scheduler) as pool:
            summary = run_study(study_path, config, workers=workers, out_dir=out, progress=progress,
                                echo=click.echo, executor=pool, log_calls=log_calls)
    check_fallback_share(summary, limit, out)
    return summary
