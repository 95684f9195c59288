"""Parameter sweeps over any study: a grid of config values times replicate seeds.

``simcore run SYSTEM --grid key=v1,v2 [--grid key2=...] [--replicates N]`` runs the
study once per (grid point, replicate).  A grid key is any field of the study's
frozen attrs config except ``seed``; values arrive as text and are read by the
field's parser (see :func:`field_parser`).  Run ``(point, r)`` uses the seed

    SeedSequence(entropy=root_seed, spawn_key=(h("sweep"), h(canonical point), r))
        .generate_state(1, uint64) >> 1

(``h`` the BLAKE2b key hash of :mod:`simcore.seeding`; the canonical point is its
JSON with sorted keys), so a run's results depend only on the root seed, its grid
point and its replicate index -- not on worker count, executor, order, or which
other points are in the grid.

Every finished run is appended to ``OUT/sweep.jsonl`` (:mod:`simcore.resultlog`);
``--resume`` skips runs recorded there as ok (failed runs are run again).  A run
that raises is recorded with its error and grid point and the sweep goes on -- except
on a :class:`~simcore.errors.BackendFatal` (refused credentials, nothing listening,
too many failed calls in a row): the backend would fail every later run the same way,
so the whole sweep stops at once with the plain run's one line and exit status 3, the
runs it did not finish are not recorded, and ``--resume`` carries on once the backend
is back.  At the
end the tables are computed from the log alone -- hence identical whether or not
the sweep was interrupted -- and written as ``sweep.json``, ``sweep_summary.csv``
(mean and 95% confidence interval per grid point and metric), ``sweep_runs.csv`` and
``sweep_failures.csv``.

The interval of a share the study names in ``sweep_shares`` (with the metric counting its
trials; :mod:`simcore.metrics.proportions`) is Wilson's score interval over the grid point's
replicates pooled: the successes ``round(share * trials)`` and the trials summed over its
runs, so it stays inside [0, 1].  Any other metric's is Student's t over the replicates:
``mean +- t(0.975, n-1) * s / sqrt(n)`` with ``s`` the sample standard deviation, left
empty when fewer than two replicates succeeded.
"""

from __future__ import annotations

import enum
import fnmatch
import importlib
import itertools
import json
import math
import os
import traceback
import types
import typing
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs
import click
import numpy as np
from scipy.special import stdtrit

from simcore.backends import build_backend
from simcore.catalog import STUDIES, system_of_study
from simcore.errors import BackendFatal, InputError, SimcoreError
from simcore.executors import check_choice, open_executor
from simcore.files import prepare_out_dir
from simcore.metrics.proportions import COMMON_SHARES, pooled_wilson95, trials_metric
from simcore.progress import Progress
from simcore.resultlog import ResultLog, dumps, read_log
from simcore.seeding import derive
from simcore.study import Job, JobOutput, Summary, _Call, write_summary
from simcore.tables import Table
from simcore.transcript import _jsonable

LOG_NAME = "sweep.jsonl"
DEFAULT_REPLICATES = 5
INTERVAL = ("95% CI: a share, Wilson score interval over the replicates' pooled trials; any other metric, "
            "Student t over replicate seeds, mean +- t(0.975, n-1)*s/sqrt(n), '-' when fewer than 2 runs succeeded")


class RunsFailed(click.ClickException):
    """Some runs of a sweep raised; the CLI prints this line and exits with status 1."""

    exit_code = 1


# ---------------------------------------------------------------- grid values

def split_values(text: str) -> list[str]:
    """Split ``v1,v2,[a,b]`` on the commas outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def _parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("true", "yes", "on", "1"):
        return True
    if low in ("false", "no", "off", "0"):
        return False
    raise ValueError("expected true/false")


def _parse_int(text: str) -> int:
    return int(text.strip())


def _parse_float(text: str) -> float:
    value = float(text.strip())
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    return value


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def parser_for_type(tp: Any) -> Callable[[str], Any] | None:
    """A text parser for the annotation ``tp``, or None if there is no obvious one."""
    if tp is bool:
        return _parse_bool
    if tp is int:
        return _parse_int
    if tp is float:
        return _parse_float
    if tp is str:
        return lambda s: s
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        def parse_enum(s: str, tp=tp):
            for member in tp:
                if s in (member.name, str(member.value)):
                    return member
            raise ValueError(f"expected one of {', '.join(m.name for m in tp)}")
        return parse_enum
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        def parse_literal(s: str, args=args):
            for option in args:
                if s == str(option):
                    return option
            raise ValueError(f"expected one of {', '.join(map(str, args))}")
        return parse_literal
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and len(args) == 2:
            sub = parser_for_type(inner[0])
            if sub is None:
                return None
            return lambda s, sub=sub: None if s.strip().lower() in ("none", "null") else sub(s)
        return None
    if origin in (tuple, list, frozenset):
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            elem = [parser_for_type(args[0])] * 1
            variadic = True
        elif origin is tuple and args:
            elem = [parser_for_type(a) for a in args]
            variadic = False
        elif args:
            elem = [parser_for_type(args[0])]
            variadic = True
        else:
            return None
        if any(e is None for e in elem):
            return None

        def parse_seq(s: str, elem=elem, variadic=variadic, origin=origin):
            body = s.strip()
            if body[:1] in "[(" and body[-1:] in "])":
                body = body[1:-1]
            items = [p for p in split_values(body)] if body.strip() else []
            if variadic:
                values = [elem[0](p) for p in items]
            else:
                if len(items) != len(elem):
                    raise ValueError(f"expected {len(elem)} comma-separated items in brackets")
                values = [f(p) for f, p in zip(elem, items)]
            return tuple(values) if origin is tuple else origin(values)
        return parse_seq
    return None


def _resolved_fields(cls: type) -> tuple[attrs.Attribute, ...]:
    try:
        attrs.resolve_types(cls)
    except Exception:  # noqa: BLE001 - unresolvable hints: fall back to the value's type
        pass
    return attrs.fields(cls)


def field_parser(field: attrs.Attribute, current: Any) -> Callable[[str], Any] | None:
    """How grid text becomes a value of ``field``.

    In order: ``field.metadata["parse"]`` (a ``str -> value`` callable a study can
    declare, e.g. ``attrs.field(metadata={"parse": my_parser})``); the field's type
    annotation (bool, int, float, str, Literal, Enum, ``X | None``, ``tuple[X, ...]``
    written ``[a,b]``); the type of the config's current value.
    """
    explicit = field.metadata.get("parse") if field.metadata else None
    if explicit is not None:
        return explicit
    tp = field.type
    if tp is not None and not isinstance(tp, str):
        parser = parser_for_type(tp)
        if parser is not None:
            return parser
    if isinstance(current, (bool, int, float, str)):
        return parser_for_type(type(current))
    if isinstance(current, tuple) and current and isinstance(current[0], (bool, int, float, str)):
        return parser_for_type(tuple[type(current[0]), ...])
    return None


@attrs.frozen
class Axis:
    """One ``--grid`` option: a config field and its values (with the texts given)."""

    key: str
    values: tuple
    texts: tuple[str, ...]


def gridable_keys(config: Any) -> list[str]:
    return [f.name for f in attrs.fields(type(config)) if f.init and f.name != "seed"]


def parse_grid(config: Any, grid: Sequence[str] | Mapping[str, Any] | None) -> list[Axis]:
    """Read ``--grid`` options (``"key=v1,v2"`` strings, or a mapping) against ``config``."""
    if not grid:
        return []
    if not attrs.has(type(config)):
        raise SimcoreError(f"a sweep needs an attrs config, got {type(config).__name__}")
    fields = {f.name: f for f in _resolved_fields(type(config))}
    valid = gridable_keys(config)
    items: list[tuple[str, Any, str]] = []
    if isinstance(grid, Mapping):
        for key, vals in grid.items():
            items.append((str(key), vals, f"{key}=..."))
    else:
        for spec in grid:
            key, sep, vals = str(spec).partition("=")
            if not sep or not key.strip():
                raise InputError("--grid", str(spec), "expected KEY=V1,V2,...; valid keys: " + ", ".join(valid))
            items.append((key.strip(), vals, str(spec)))
    axes: list[Axis] = []
    seen: set[str] = set()
    for key, vals, spec in items:
        key = key.replace("-", "_")
        if key == "seed":
            raise InputError("--grid", "seed", "each run's seed is derived from --seed and its grid point; "
                             "use --replicates N for N seeds per point")
        if key not in valid:
            raise InputError("--grid", key, f"unknown option; valid: {', '.join(valid)}")
        if key in seen:
            raise InputError("--grid", key, "given twice; list all its values in one --grid")
        seen.add(key)
        field = fields[key]
        if isinstance(vals, str):
            texts = split_values(vals)
            if not vals.strip() or any(t == "" for t in texts):
                raise InputError("--grid", key, f"empty value in {spec!r}; expected {key}=V1,V2,...")
            parser = field_parser(field, getattr(config, key))
            if parser is None:
                raise InputError("--grid", key, "this option has no text parser; the study can give it one "
                                 "with attrs.field(metadata={'parse': function})")
            values = []
            for text in texts:
                try:
                    values.append(parser(text))
                except (ValueError, TypeError) as exc:
                    kind = _type_name(field.type) if field.type is not None else "this option"
                    raise InputError("--grid", key, f"cannot read {text!r} as {kind} ({exc})") from None
        else:
            values = list(vals)
            texts = [str(v) for v in values]
        canon = [_canon(v) for v in values]
        if len(set(canon)) != len(canon):
            raise InputError("--grid", key, "a value is given twice")
        axes.append(Axis(key, tuple(values), tuple(texts)))
    return axes


def _canon(value: Any) -> str:
    return json.dumps(_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------- the plan

@attrs.frozen
class RunSpec:
    index: int
    id: str
    point: tuple[tuple[str, Any], ...]
    texts: tuple[str, ...]
    replicate: int
    seed: int
    config: Any


def point_key(point: Mapping[str, Any]) -> str:
    """The canonical text of a grid point (JSON, sorted keys): it names and seeds runs."""
    return json.dumps(_jsonable(dict(point)), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def run_seed(root: int, point: Mapping[str, Any], replicate: int) -> int:
    """The seed of run ``(point, replicate)``, derived through ``SeedSequence``."""
    state = derive(root, "sweep", point_key(point), int(replicate)).generate_state(1, dtype=np.uint64)[0]
    return int(state >> np.uint64(1))


def plan(base: Any, axes: Sequence[Axis], replicates: int) -> list[RunSpec]:
    """Every run of the sweep, grid points in the order given, replicates innermost.

    Each point's config is built (validators run) before anything executes, so a
    value the study rejects stops the sweep at once with the study's message.
    """
    if replicates < 1:
        raise InputError("--replicates", "", "must be at least 1")
    root = int(base.seed)
    runs: list[RunSpec] = []
    combos = itertools.product(*[list(zip(a.values, a.texts)) for a in axes]) if axes else [()]
    for combo in combos:
        point = tuple((a.key, v) for a, (v, _t) in zip(axes, combo))
        texts = tuple(t for _v, t in combo)
        try:
            point_cfg = attrs.evolve(base, **dict(point))
        except (ValueError, TypeError) as exc:
            shown = ", ".join(f"{k}={t}" for (k, _), t in zip(point, texts))
            problem = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            raise InputError("--grid", shown, problem) from None
        if _BACKEND_FIELDS & {k for k, _ in point}:
            _check_backend(point_cfg, ", ".join(f"{k}={t}" for (k, _), t in zip(point, texts)))
        for r in range(replicates):
            seed = run_seed(root, dict(point), r)
            runs.append(RunSpec(index=len(runs), id=f"{point_key(dict(point))}#{r}", point=point,
                                texts=texts, replicate=r, seed=seed,
                                config=attrs.evolve(point_cfg, seed=seed)))
    return runs


_BACKEND_FIELDS = frozenset(("backend", "backend_args", "record", "replay"))


def _check_backend(cfg: Any, shown: str) -> None:
    """A grid point that changes the chat backend gets the same check as ``--backend``
    (an unknown id or a missing argument stops the sweep before any run)."""
    backend = getattr(cfg, "backend", None)
    if not isinstance(backend, str) or getattr(cfg, "replay", None):
        return

    try:
        build_backend(backend, tuple(getattr(cfg, "backend_args", ()) or ()))
    except SimcoreError as exc:
        raise InputError("--grid", shown, str(exc)) from None


# ---------------------------------------------------------------- execution

def _load_study(study_path: str):
    module, _, attr = study_path.partition(":")
    return getattr(importlib.import_module(module), attr)


def _error_text(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _record(run: RunSpec, **fields: Any) -> dict:
    return {"type": "run", "id": run.id, "point": _jsonable(dict(run.point)),
            "replicate": run.replicate, "seed": run.seed, **fields}


def _ok_record(run: RunSpec, summary: Summary, outputs: Sequence[JobOutput], events: int) -> dict:
    rec = _record(run, status="ok", metrics=_jsonable(summary.metrics),
                  fallbacks=int(sum(o.fallbacks for o in outputs)),
                  jobs=len(outputs), events=int(events))
    dumps(rec)  # ValueError (NaN, non-JSON metric) turns into a recorded failure
    return rec


def _error_record(run: RunSpec, exc: BaseException, where: str, job: Job | None = None) -> dict:
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    rec = _record(run, status="error", error=_error_text(exc), stage=where,
                  traceback=tb[-4000:])
    if job is not None:
        rec["job"] = _jsonable(list(job.key))
    return rec


@attrs.define
class _Active:
    run: RunSpec
    jobs: list
    futures: list
    outputs: list
    left: int
    events: int = 0  # transcript events of the finished jobs (a sweep keeps no transcripts)


def execute(study_path: str, runs: Sequence[RunSpec], pool: Executor, *, window: int,
            on_record: Callable[[dict], None], progress: Progress | None = None) -> None:
    """Run every job of every run on ``pool``; call ``on_record`` once per finished run.

    Jobs of a run are submitted together; a new run is started while fewer than
    ``window`` jobs are in flight.  Outputs are put back in job order before the
    study's ``summarize`` runs (in this process), so records do not depend on the
    executor.  The first job of a run that raises fails the run (its other jobs are
    cancelled) and the sweep goes on, unless it raised
    :class:`~simcore.errors.BackendFatal`: that propagates at once, recording nothing
    for the run (the caller's executor context ends the jobs still running).
    """
    study = _load_study(study_path)
    queue = iter(runs)
    active: dict[int, _Active] = {}
    owner: dict[Future, tuple[int, int]] = {}

    def finish(act: _Active, rec: dict) -> None:
        for fut in act.futures:
            if fut is None:  # collected already
                continue
            if not fut.done():
                fut.cancel()
            owner.pop(fut, None)
        active.pop(act.run.index, None)
        on_record(rec)
        if progress is not None:
            progress.advance()

    def summarize(act: _Active) -> None:
        try:
            summary = study.summarize(act.run.config, act.outputs)
            rec = _ok_record(act.run, summary, act.outputs, act.events)
        except BackendFatal:
            raise
        except Exception as exc:  # noqa: BLE001 - recorded, the sweep goes on
            rec = _error_record(act.run, exc, "summarize")
        finish(act, rec)

    def start(run: RunSpec) -> None:
        try:
            jobs = list(study.jobs(run.config))
        except BackendFatal:
            raise
        except Exception as exc:  # noqa: BLE001
            on_record(_error_record(run, exc, "jobs"))
            if progress is not None:
                progress.advance()
            return
        act = _Active(run, jobs, [], [None] * len(jobs), len(jobs))
        active[run.index] = act
        call = _Call(study_path, run.config)
        for pos, job in enumerate(jobs):
            fut = pool.submit(call, job)
            act.futures.append(fut)
            owner[fut] = (run.index, pos)
            if fut.done() and not fut.cancelled() and fut.exception() is not None:
                break  # (inline executor) the run has failed: skip its remaining jobs
        if not jobs:
            summarize(act)

    def collect(fut: Future) -> None:
        idx, pos = owner.pop(fut)
        act = active.get(idx)
        if act is None or fut.cancelled():
            return
        exc = fut.exception()
        if isinstance(exc, BackendFatal):
            raise exc
        if exc is not None:
            finish(act, _error_record(act.run, exc, "run_job", act.jobs[pos]))
            return
        result = fut.result()
        act.futures[pos] = None  # the future holds the whole output; keep only what is used
        if result.events:  # counted, then dropped: a sweep writes no transcripts
            act.events += len(result.events)
            result = attrs.evolve(result, events=())
        act.outputs[pos] = result
        act.left -= 1
        if act.left == 0:
            summarize(act)

    exhausted = False
    while True:
        while not exhausted and len(owner) < window:
            run = next(queue, None)
            if run is None:
                exhausted = True
                break
            start(run)
            for fut in [f for f in list(owner) if f.done()]:
                if fut in owner:
                    collect(fut)
        if not owner:
            if exhausted:
                break
            continue
        done, _ = wait(list(owner), return_when=FIRST_COMPLETED)
        for fut in sorted(done, key=lambda f: owner.get(f, (0, 0))):
            if fut in owner:
                collect(fut)


# ---------------------------------------------------------------- tables

def flatten_metrics(metrics: Mapping[str, Any], prefix: str = "") -> list[tuple[str, float]]:
    """Numeric leaves of a metrics dict as ``("a.b.c", value)``; bools count as 0/1."""
    out: list[tuple[str, float]] = []
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.extend(flatten_metrics(value, name + "."))
        elif isinstance(value, bool):
            out.append((name, float(value)))
        elif isinstance(value, (int, float)) and math.isfinite(value):
            out.append((name, value))
    return out


def mean_ci(values: Sequence[float]) -> tuple[int, float | None, float | None, float | None, float | None]:
    """``(n, mean, sd, ci_low, ci_high)``; Student t 95% interval, None when n < 2."""
    n = len(values)
    if n == 0:
        return 0, None, None, None, None
    mean = math.fsum(values) / n
    if n < 2:
        return n, mean, None, None, None

    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(stdtrit(n - 1, 0.975)) * sd / math.sqrt(n)
    return n, mean, sd, mean - half, mean + half


def run_metrics(rec: Mapping[str, Any], skip: frozenset = frozenset()) -> list[tuple[str, float]]:
    """A run's summarised metrics: numeric leaves, less top-level keys in ``skip`` (the
    config fields a study echoes in its metrics, such as ``seed``), plus the total of
    the jobs' counted fallbacks as ``job_fallbacks``."""
    metrics = {k: v for k, v in (rec.get("metrics") or {}).items() if k not in skip}
    return flatten_metrics(metrics) + [("job_fallbacks", rec.get("fallbacks", 0))]


def build_summary(study_name: str, header: Mapping[str, Any], runs: Sequence[RunSpec],
                  axes: Sequence[Axis], records: Mapping[str, Mapping[str, Any]],
                  shares: Mapping[str, str] = COMMON_SHARES) -> Summary:
    """The sweep's tables and metrics from the log records of the planned runs; ``shares``
    names the metrics that are shares and what counts their trials (a study's
    ``sweep_shares``)."""
    keys = [a.key for a in axes]
    skip = frozenset(header.get("base_config") or ())
    by_point: dict[tuple, list[RunSpec]] = {}
    for run in runs:
        by_point.setdefault(run.texts, []).append(run)
    names: list[str] = []
    for run in runs:
        rec = records.get(run.id)
        if rec is not None and rec["status"] == "ok":
            for name, _ in run_metrics(rec, skip):
                if name not in names:
                    names.append(name)
    summary_rows, points_json, run_rows, failure_rows = [], [], [], []
    n_ok = n_failed = n_missing = 0
    for texts, point_runs in by_point.items():
        values: dict[str, list[float]] = {n: [] for n in names}
        got_ok: list[dict[str, float]] = []
        ok = failed = 0
        for run in point_runs:
            rec = records.get(run.id)
            base = [*texts, run.replicate, run.seed]
            if rec is None:
                n_missing += 1
                run_rows.append(base + ["missing"] + [None] * len(names))
                continue
            if rec["status"] == "ok":
                ok += 1
                got = dict(run_metrics(rec, skip))
                got_ok.append(got)
                for name, v in got.items():
                    values[name].append(v)
                run_rows.append(base + ["ok"] + [got.get(n) for n in names])
            else:
                failed += 1
                run_rows.append(base + ["error"] + [None] * len(names))
                failure_rows.append(base + [rec.get("stage", ""), rec.get("error", "")])
        n_ok += ok
        n_failed += failed
        stats = {}
        for name in names:
            n, mean, sd, lo, hi = mean_ci(values[name])
            if n == 0:
                continue
            trials = trials_metric(name, shares)
            counted = [(g[name], g[trials]) for g in got_ok if name in g and trials in g] if trials else []
            if trials and len(counted) == n:
                lo, hi = pooled_wilson95([c[0] for c in counted], [c[1] for c in counted]) or (None, None)
            stats[name] = {"n": n, "mean": mean, "sd": sd, "ci95_low": lo, "ci95_high": hi}
            summary_rows.append([*texts, name, n, mean, lo, hi])
        points_json.append({"point": dict(point_runs[0].point), "runs": len(point_runs), "ok": ok, "failed": failed, "metrics": stats})
    grid_note = ", ".join(f"{a.key} in {{{', '.join(a.texts)}}}" for a in axes) or "no grid"
    reps = max((r.replicate for r in runs), default=-1) + 1
    tables = [
        Table("sweep_summary", f"{study_name} sweep: {grid_note}; {reps} replicate seed(s) per point",
              [*keys, "metric", "n", "mean", "ci95_low", "ci95_high"], summary_rows, note=INTERVAL),
        Table("sweep_runs", f"{study_name} sweep: every run",
              [*keys, "replicate", "seed", "status", *names], run_rows),
        Table("sweep_failures", f"{study_name} sweep: failed runs",
              [*keys, "replicate", "seed", "stage", "error"], failure_rows),
    ]
    metrics = {"study": study_name, "root_seed": header.get("root_seed"),
               "base_config": header.get("base_config"),
               "grid": {a.key: _jsonable(list(a.values)) for a in axes}, "replicates": reps,
               "interval": INTERVAL, "runs": len(runs), "ok": n_ok, "failed": n_failed,
               "missing": n_missing, "points": _jsonable(points_json)}
    return Summary(system=study_name, metrics=metrics, tables=tuple(tables))


def _num(x: float) -> str:
    return f"{x:.4g}"


def chosen_metrics(names: Sequence[str], patterns: Sequence[str]) -> list[str]:
    """The metric names matching any of ``patterns`` (fnmatch: ``results.*.DHR``), in order;
    every name for no pattern or ``all``."""

    if not patterns or "all" in patterns:
        return list(names)
    return [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def metric_names(summary: Summary) -> list[str]:
    """Every metric a sweep summarised (those of at least one successful run), in order."""
    names: list[str] = []
    for p in summary.metrics["points"]:
        names.extend(n for n in p["metrics"] if n not in names)
    return names


def check_metrics(names: Sequence[str], patterns: Sequence[str], where: str) -> None:
    """One :class:`InputError` naming the first of ``patterns`` that matches none of
    ``names`` (``all`` matches every one), with the valid names."""

    for pattern in patterns:
        if pattern == "all" or any(fnmatch.fnmatchcase(n, pattern) for n in names):
            continue
        shown = ", ".join(names[:MAX_NAMED]) + (f", ... ({len(names)} in all)" if len(names) > MAX_NAMED else "")
        raise InputError("--metrics", pattern, f"matches no metric of this sweep; valid: {shown} (fnmatch "
                                               f"patterns, or 'all'); the results are written in {where}")


#: how many metric names a refused --metrics lists
MAX_NAMED = 25


def overview(summary: Summary, axes: Sequence[Axis], max_points: int = 6,
             metrics: Sequence[str] = ()) -> Table:
    """What the terminal shows: one row per metric -- those matching ``metrics`` (the
    study's ``sweep_headline`` by default; ``all`` for every one) -- one column per grid
    point, cells ``mean [ci95_low, ci95_high]`` (sweep_summary.csv has every metric at full
    precision).  With more than ``max_points`` points it is the long ``sweep_summary`` table
    of those metrics."""
    points = summary.metrics["points"]
    names = metric_names(summary)
    shown = chosen_metrics(names, metrics)
    more = len(names) - len(shown)
    tail = (f"{more} more metric(s) in sweep_summary.csv (--metrics all shows them)" if more else "")
    if len(points) > max_points:
        t = summary.tables[0]
        i = t.columns.index("metric") if "metric" in t.columns else None
        rows = [r for r in t.rows if i is None or r[i] in shown]
        note = "\n".join(x for x in (t.note, tail) if x)
        return Table(t.name, t.title, t.columns, rows, note=note)
    names = shown
    texts = [", ".join(f"{a.key}={t}" for a, t in zip(axes, combo))
             for combo in itertools.product(*[a.texts for a in axes])] if axes else ["all runs"]
    rows = []
    for name in names:
        row = [name]
        for p in points:
            st = p["metrics"].get(name)
            if st is None:
                row.append(None)
            elif st["ci95_low"] is None:
                row.append(_num(st["mean"]))
            else:
                row.append(f"{_num(st['mean'])} [{_num(st['ci95_low'])}, {_num(st['ci95_high'])}]")
        rows.append(row)
    title = summary.tables[0].title
    note = "\n".join(x for x in (summary.tables[0].note, tail) if x)
    return Table("sweep_overview", f"{title} (mean [95% CI])", ["metric", *texts], rows, note=note)


# ---------------------------------------------------------------- the sweep

def run_sweep(study_path: str, base: Any, *, grid: Sequence[str] | Mapping[str, Any] | None = None,
              replicates: int = DEFAULT_REPLICATES, out: str | None = None, resume: bool = False,
              executor: str | None = None, scheduler: str | None = None, workers: int = 1,
              progress: bool | None = None, echo: Callable[[str], None] | None = None,
              overwrite: bool = False, metrics: Sequence[str] = ()) -> Summary:
    """Run the sweep, write ``OUT/sweep.jsonl`` and the tables, return the summary.

    ``out`` is checked before any run starts (:func:`simcore.files.prepare_out_dir`):
    a directory holding a plain run's results, or another sweep's log without
    ``resume``, is refused unless ``overwrite`` (which starts a fresh log).

    ``summary.metrics["failed"]`` counts runs that raised (they are listed in the
    ``sweep_failures`` table).  ``KeyboardInterrupt`` stops the sweep after the
    finished runs are recorded; rerun with ``resume=True`` to complete it.
    """

    say = echo or (lambda _msg: None)
    study = _load_study(study_path)
    check_choice(executor, scheduler)
    axes = parse_grid(base, grid)
    runs = plan(base, axes, int(replicates))
    out = out or os.path.join("runs", study.name)
    path = os.path.join(out, LOG_NAME)
    prepare_out_dir(out, kind="sweep", overwrite=overwrite, resume=resume)
    if resume and not os.path.exists(path):
        say(f"--resume: there is no sweep log at {path}; starting the sweep from the beginning")
    header = {"study": study_path, "root_seed": int(base.seed),
              "base_config": json.loads(json.dumps(_jsonable(attrs.asdict(base, recurse=False)), default=repr)),
              "grid": {a.key: list(a.texts) for a in axes}, "replicates": int(replicates)}
    with ResultLog.open(path, header, resume=resume, same=lambda key, value: _same_form(base, key, value)) as log:
        todo = [r for r in runs if log.records.get(r.id, {}).get("status") != "ok"]
        skipped = len(runs) - len(todo)
        if skipped:
            say(f"resuming {path}: {skipped} of {len(runs)} run(s) already recorded")
        if todo:
            bar = Progress(len(todo), f"{study.name} sweep", enabled=progress)
            try:
                with open_executor(executor, workers=workers, scheduler=scheduler) as pool:
                    window = max(2, 2 * int(getattr(pool, "parallelism", workers)))
                    execute(study_path, todo, pool, window=window, on_record=log.append, progress=bar)
            except BrokenExecutor as exc:
                bar.close()
                raise SimcoreError(f"the executor broke ({_error_text(exc)}; a worker process died, "
                                   f"out of memory?); finished runs are recorded in {path}; "
                                   "run the same command with --resume to go on") from None
            except (BackendFatal, KeyboardInterrupt) as exc:
                bar.close()
                done = sum(1 for r in runs if log.records.get(r.id, {}).get("status") == "ok")
                what, when = (("stopped by the backend", "once it is back") if isinstance(exc, BackendFatal)
                              else ("interrupted", "to finish"))
                say(f"{what}: {done} of {len(runs)} run(s) recorded in {path}; "
                    f"run the same command with --resume {when}")
                raise
            bar.close()
    log_header, records = read_log(path)
    summary = build_summary(study.name, log_header, runs, axes, records,
                            {**COMMON_SHARES, **getattr(study, "sweep_shares", {})})
    write_summary(out, summary, "sweep.json")
    names = metric_names(summary)
    if metrics and names:  # (known only now: a study's metrics are what its runs report)
        check_metrics(names, metrics, out)
    if echo is not None:
        shown = list(metrics) if metrics else list(getattr(study, "sweep_headline", ()))
        echo(overview(summary, axes, metrics=shown).render())
        echo("")
        m = summary.metrics
        if m["failed"]:
            echo(summary.tables[2].render())
            echo("")
        echo(f"{m['runs']} run(s): {m['ok']} ok, {m['failed']} failed; log {path}; "
             f"wrote sweep.json, sweep_summary.csv, sweep_runs.csv, sweep_failures.csv in {out}")
    return summary


def _same_form(base: Any, key: str, value: Any) -> Any:
    """How ``--resume`` compares a log header's field with this sweep's: a grid by the
    values of each axis, as a set (``0.10`` and ``0.1`` are one value; the order of the
    axes and of their values only orders the tables); the study by the module that holds it
    now (sweeps written by simcore 0.1 name ``simcore.studies.<system>:STUDY``); anything else
    as it is."""
    if key == "study" and isinstance(value, str):
        system = system_of_study(value)
        return f"{STUDIES[system]}:{value.partition(':')[2]}" if system is not None else value
    if key != "grid" or not isinstance(value, Mapping):
        return value
    out = {}
    for axis, texts in value.items():
        try:
            values = parse_grid(base, [f"{axis}={','.join(map(str, texts))}"])[0].values
            out[axis] = sorted((_jsonable(v) for v in values), key=_canon)
        except (SimcoreError, TypeError, ValueError):  # a text the parser cannot read: compared as written
            out[axis] = sorted(map(str, texts)) if isinstance(texts, list) else texts
    return out


def sweep_requested(grid: Any, replicates: Any, resume: Any) -> bool:
    return bool(grid) or replicates is not None or bool(resume)


def iter_records(path: str) -> Iterable[dict]:
    """The run records of a sweep log (last record per run id)."""
    return read_log(path)[1].values()
