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
import sys
from typing import Any, Callable, Mapping, Protocol, Sequence

import attrs

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


@attrs.frozen
class Summary:
    system: str
    metrics: Mapping[str, Any]
    tables: tuple[Table, ...] = attrs.field(converter=tuple)


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

    def __call__(self, job: Job) -> JobOutput:
        import importlib

        module, _, attr = self.study_path.partition(":")
        study = getattr(importlib.import_module(module), attr)
        return study.run_job(self.config, job)


def run_study(study_path: str, config: Any, *, workers: int = 1, out_dir: str | None = None,
              progress: bool | None = None, echo: Callable[[str], None] | None = None) -> Summary:
    """Run every job of the study at ``study_path`` ("module:attr"), write outputs, print tables."""
    import importlib

    module, _, attr = study_path.partition(":")
    study = getattr(importlib.import_module(module), attr)
    jobs = list(study.jobs(config))
    outputs = map_ordered(_Call(study_path, config), jobs, workers=workers,
                          label=study.name, progress=progress)
    summary = study.summarize(config, outputs)
    if out_dir is not None:
        write_outputs(out_dir, summary, outputs)
    if echo is not None:
        for table in summary.tables:
            echo(table.render())
            echo("")
        if out_dir is not None:
            echo(f"wrote {os.path.join(out_dir, 'metrics.json')}, {len(summary.tables)} CSV tables "
                 f"and transcripts.jsonl ({sum(len(o.events) for o in outputs)} events)")
    return summary


def dumps_metrics(metrics: Mapping[str, Any]) -> str:
    return json.dumps(metrics, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_outputs(out_dir: str, summary: Summary, outputs: Sequence[JobOutput]) -> None:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "metrics.json"), "w", encoding="utf-8") as fh:
        fh.write(dumps_metrics(summary.metrics))
    for table in summary.tables:
        with open(os.path.join(out_dir, f"{table.name}.csv"), "w", encoding="utf-8", newline="") as fh:
            fh.write(table.to_csv())
    with open(os.path.join(out_dir, "transcripts.jsonl"), "w", encoding="utf-8") as fh:
        for out in outputs:
            write_jsonl(out.events, fh)


def total_fallbacks(outputs: Sequence[JobOutput]) -> int:
    return int(sum(o.fallbacks for o in outputs))


def echo_err(msg: str) -> None:
    sys.stderr.write(msg + "\n")


def launch(study_path: str, config: Any, *, workers: int = 1, out: str | None = None,
           progress: bool | None = None, **sweep: Any) -> Summary:
    """The one entry point every ``simcore run SYSTEM`` command calls.

    ``config`` is the study's frozen attrs config (it has a ``seed`` field).  Extra
    keyword arguments are sweep options (grid, resume, executor) handled here so
    that every study gets them alike.
    """
    import click

    unsupported = {k: v for k, v in sweep.items() if v not in (None, (), False)}
    if unsupported:
        from simcore.errors import SimcoreError

        raise SimcoreError(f"sweep option(s) not supported yet: {', '.join(sorted(unsupported))}")
    return run_study(study_path, config, workers=workers, out_dir=out, progress=progress, echo=click.echo)
