"""The shape every system's study follows, and the code that runs one.

A study turns a config into a list of :class:`Job` (one negotiation, or one small
batch of them), runs each job independently from its own derived seed, and
summarises the job outputs -- taken in job order -- into metrics and tables.  Because
a job's randomness depends only on the root seed and the job's key, the outputs do
not depend on the worker count.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Mapping, Protocol, Sequence

import attrs

from mockllm import calllog
from mockllm import cassette
from mockllm.cassette import RunCassette, buffered
from mockllm.client import TASK_COUNTS, merge_by_task
from simcore.backends import backend_identity
from simcore.callwatch import CallWatch
from simcore.errors import FallbackShareExceeded
from simcore.executors import start_method
from simcore.files import AtomicFile, write_atomic
from simcore.progress import Progress
from simcore.readings import readings_line
from simcore.runner import map_ordered
from simcore.tables import Table
from simcore.transcript import Event, write_jsonl, write_lines


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
    #: the job's events as transcript lines (:meth:`Event.to_json`), made by a pool worker
    #: instead of ``events`` when the parent only writes them (a str pickles far cheaper
    #: than an Event), written by the parent in job order, then dropped
    lines: tuple = attrs.field(factory=tuple, converter=tuple, eq=False, repr=False)


@attrs.frozen
class Summary:
    system: str
    metrics: Mapping[str, Any]
    tables: tuple[Table, ...] = attrs.field(converter=tuple)





#: config fields naming where a run's model exchanges are written or read, not what
#: the run is: left out of ``metrics["config"]``, so a replay's metrics equal the
#: recorded run's byte for byte (``metrics["backend"]`` says what answered)
RUN_IO_FIELDS = ("record", "replay", "replay_misses")


def config_block(config: Any) -> dict:
    """``metrics["config"]``: the study config's fields without :data:`RUN_IO_FIELDS`."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in attrs.asdict(config).items()
            if k not in RUN_IO_FIELDS and not (k == "roles" and not v)}  # (no --role: no "roles" key)


def with_backend_identity(summary: "Summary", config: Any) -> "Summary":
    """``summary`` with ``metrics["backend"]`` (``{"id", "model"}``, see
    :func:`simcore.backends.backend_identity`) when the config names a backend."""
    if not hasattr(config, "backend"):
        return summary

    ident = backend_identity(config.backend, getattr(config, "backend_args", ()), getattr(config, "replay", None))
    return attrs.evolve(summary, metrics={**summary.metrics, "backend": ident})


def model_call_metrics(outputs: Sequence[JobOutput]) -> dict:
    """``metrics["model_calls"]``: the jobs' per-task counts summed (in job order; sums
    do not depend on the worker count), their totals and the share of asks that fell
    back to the rule."""

    by_task = merge_by_task(o.calls for o in outputs)
    totals = {name: sum(row.get(name, 0) for row in by_task.values()) for name in TASK_COUNTS}
    share = totals["fallbacks"] / totals["asks"] if totals["asks"] else 0.0
    return {**totals, "fallback_share": share, "by_task": by_task}


def fallback_line(calls: Mapping[str, Any]) -> str:
    """The line printed once after a run's tables: how many answers were the rule's, not the model's."""
    if not calls["asks"]:
        return "model answers: none asked"
    return (f"model answers: {calls['asks']} asked, {calls['fallbacks']} fell back to the rule "
            f"({calls['fallback_share']:.2%}), {calls['backend_errors']} backend errors")


def with_model_calls(summary: "Summary", outputs: Sequence[JobOutput]) -> "Summary":
    """``summary`` with ``metrics["model_calls"]`` (every study's ``summarize`` ends with
    this); the terminal shows its :func:`fallback_line` once, after the tables."""
    return attrs.evolve(summary, metrics={**summary.metrics, "model_calls": model_call_metrics(outputs)})


def check_fallback_share(summary: "Summary", limit: float | None, where: str | None) -> None:
    """Raises :class:`~simcore.errors.FallbackShareExceeded` when more than ``limit`` of
    the run's model answers fell back (after the outputs are written)."""

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
    #: return the job's events as transcript lines (``JobOutput.lines``): for a job run in
    #: another process whose parent writes the transcript and keeps no events
    encode_events: bool = False

    def __call__(self, job: Job) -> JobOutput:
        failed: BaseException | None = None
        try:
            return self._run(job)
        except Exception as exc:  # noqa: BLE001 - re-raised below, without its chain
            failed = exc
        # a job's exception may cross a process boundary: it goes without the exceptions it was
        # raised while handling (an HTTPError holding its socket cannot be pickled, and a pickler
        # that keeps chains -- tblib's, which dask installs -- would break the pool), its message
        # and type say what happened
        failed.__context__ = failed.__cause__ = None
        raise failed

    def _run(self, job: Job) -> JobOutput:

        module, _, attr = self.study_path.partition(":")
        study = getattr(importlib.import_module(module), attr)
        if not self.buffer_cassette:
            return self._encoded(study.run_job(self.config, job))

        with buffered() as lines:
            out = study.run_job(self.config, job)
        return self._encoded(attrs.evolve(out, cassette=tuple(lines)) if lines else out)

    def _encoded(self, out: JobOutput) -> JobOutput:
        if not self.encode_events or not out.events:
            return out
        return attrs.evolve(out, events=(), lines=tuple(ev.to_json() for ev in out.events))


def _write_cassette(out: JobOutput) -> JobOutput:
    """Writes a finished job's cassette lines (called in job order); drops them."""
    if not out.cassette:
        return out
    cassette.write_lines(out.cassette)
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
    written job by job in job order, whatever runs the jobs, and appears when the run
    finishes (:class:`mockllm.cassette.RunCassette`: a run that stops leaves the cassette
    as it was).  ``log_calls`` names a file that gets one JSON line per model call (see
    :mod:`simcore.callwatch`), written beside it as ``.NAME.tmp-PID`` while the run runs
    and renamed to NAME when it ends, however it ends; the progress bar notes every model
    call made in this process.  A file that cannot be written stops the run with one
    :class:`~simcore.errors.InputError` naming it."""


    module, _, attr = study_path.partition(":")
    study = getattr(importlib.import_module(module), attr)
    jobs = list(study.jobs(config))
    bar = Progress(len(jobs), study.name, enabled=progress)
    recording = bool(getattr(config, "record", None))
    pool = executor is None and concurrency <= 1 and workers > 1  # map_ordered's own process pool
    # the transcript is only written: jobs run elsewhere send their events as its lines
    call = _Call(study_path, config, buffer_cassette=recording,
                 encode_events=out_dir is not None and (pool or executor is not None))
    if pool:
        _warm_for_fork()
    with contextlib.ExitStack() as stack:
        # the call log is kept however the run ends (it tells why a run stopped); the
        # cassette appears only when the run finishes (a stopped run's would replay part of it)
        log = stack.enter_context(AtomicFile(log_calls, keep_on_error=True)) if log_calls else None
        if recording:
            stack.enter_context(RunCassette(config.record))
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
        if summary.metrics.get("model_calls"):
            echo(fallback_line(summary.metrics["model_calls"]))
        if summary.metrics.get("readings"):
            echo(readings_line(summary.metrics["readings"]))
        if out_dir is not None:
            echo(f"wrote {os.path.join(out_dir, 'metrics.json')}, {len(summary.tables)} CSV tables "
                 f"and transcripts.jsonl ({n_events} events)")
    return summary


class _TranscriptStream:
    """``on_result`` of :func:`run_study`: writes a job's events (or its lines), keeps the rest."""

    def __init__(self, fh):
        self.fh = fh
        self.events = 0

    def __call__(self, output: JobOutput) -> JobOutput:
        if output.lines:
            self.events += write_lines(output.lines, self.fh)
            output = attrs.evolve(output, lines=())
        if not output.events:
            return output
        self.events += write_jsonl(output.events, self.fh)
        return attrs.evolve(output, events=())


def _warm_for_fork() -> None:
    """Before a process pool forks its workers, import here what every job imports first
    (:mod:`simcore.jobimports`): forked workers then start with it instead of each importing
    it again (about 0.3 s of CPU per worker, which a one-worker run spends once).  Nothing
    is gained where workers are not forked from this process (a fork server preloads it)."""
    if start_method() == "fork":
        importlib.import_module("simcore.jobimports")


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
