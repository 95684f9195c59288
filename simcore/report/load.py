"""Finding and reading what ``simcore run`` wrote, by the documented file names.

A report directory is one of:

* a plain run of one system: ``metrics.json`` (its ``"system"`` names the system),
  the CSV tables and usually ``transcripts.jsonl``;
* a sweep: ``sweep.json`` (with ``sweep.jsonl``, ``sweep_summary.csv`` ...);
* the output of ``simcore run`` without a system: one such directory per system
  (``OUT/mind``, ``OUT/scorable``, ...).

Transcripts are read with :func:`simcore.transcript.read_jsonl`'s parser
(:meth:`~simcore.transcript.Event.from_json`), the one ``simcore show`` uses.  Only
the events of the negotiations the report shows are parsed: a line's run id is read
from the front of the line as :meth:`Event.to_json` writes it, and lines of other runs
are skipped unparsed, so a large transcript costs one pass of string scanning.
"""

from __future__ import annotations

import os
from typing import Callable

import attrs

from simcore.catalog import STUDIES, system_of_study
from simcore.errors import InputError
from simcore.jsonread import read_json
from simcore.report.checked import wrap
from simcore.transcript import Event, jsonl_lines
from simcore.transcript import run_of_line as _run_of

TRANSCRIPT = "transcripts.jsonl"
ROBUSTNESS = "robustness.json"


def robustness_path(path: str) -> str | None:
    """``robustness.json`` of a run directory: in it, or in its ``robustness/`` subdirectory
    (``simcore run SYSTEM --robustness --out OUT/robustness`` beside a plain run in OUT)."""
    for p in (os.path.join(path, ROBUSTNESS), os.path.join(path, "robustness", ROBUSTNESS)):
        if os.path.isfile(p):
            return p
    return None


@attrs.frozen
class Run:
    """One plain run of one system."""

    path: str
    system: str
    metrics: dict

    @property
    def transcript(self) -> str | None:
        p = os.path.join(self.path, TRANSCRIPT)
        return p if os.path.isfile(p) else None

    @property
    def robustness(self) -> dict | None:
        path = robustness_path(self.path)
        return None if path is None else load_robustness(path)


@attrs.frozen
class Robustness:
    """``simcore run SYSTEM --robustness`` output with no plain run beside it."""

    path: str
    system: str
    data: dict


def load_robustness(path: str) -> dict:
    """A robustness.json, checked for the shape the report reads."""
    data = read_json(path)
    roles = data.get("roles") if isinstance(data, dict) else None
    if not isinstance(roles, dict) or data.get("system") not in STUDIES:
        raise InputError(path, "roles", "not a robustness summary written by this simcore version")
    for role_id, role in roles.items():
        if not (isinstance(role, dict) and isinstance(role.get("members"), list)
                and isinstance(role.get("claims"), dict)
                and all(isinstance(m, dict) and isinstance(m.get("name"), str) for m in role["members"])
                and all(isinstance(c, dict) and isinstance(c.get("values"), dict) for c in role["claims"].values())):
            raise InputError(path, f"roles.{role_id}", "not a role's results as simcore writes them")
    return wrap(data)


@attrs.frozen
class Sweep:
    path: str
    system: str
    summary: dict


def load_run(path: str) -> Run:
    mpath = os.path.join(path, "metrics.json")
    metrics = read_json(mpath)
    if not isinstance(metrics, dict):
        raise InputError(mpath, "", "expected a JSON object")
    system = metrics.get("system")
    if not isinstance(system, str) or system not in STUDIES:
        raise InputError(mpath, "system", f"{system!r} is not a system this simcore knows "
                                          f"({', '.join(STUDIES)}); written by another version?")
    return Run(path, system, wrap(metrics))


def load_sweep(path: str) -> Sweep:
    spath = os.path.join(path, "sweep.json")
    summary = read_json(spath)
    if not isinstance(summary, dict) or not isinstance(summary.get("points"), list):
        raise InputError(spath, "points", "missing: not a sweep summary written by this simcore version")
    system = system_of_study(str(summary.get("study", "")))
    if system is None:
        raise InputError(spath, "study", f"{summary.get('study')!r} names no known system ({', '.join(STUDIES)})")
    failed, missing = summary.get("failed") or 0, summary.get("missing") or 0
    if failed or missing:
        what = " and ".join(x for x in (f"{failed} failed" if failed else "",
                                         f"{missing} missing" if missing else "") if x)
        raise InputError(spath, "runs", f"{what} of {summary.get('runs')} run(s) (see "
                                        f"{os.path.join(path, 'sweep_failures.csv')}); finish the sweep with "
                                        f"--resume before reporting it")
    return Sweep(path, system, wrap(summary))


def discover(path: str) -> list[Run | Sweep | Robustness]:
    """The runs and sweeps in ``path`` (itself, or its per-system subdirectories)."""
    if not os.path.isdir(path):
        raise InputError(path, "", "no such directory" if not os.path.exists(path) else "not a directory")
    if os.path.isfile(os.path.join(path, "sweep.json")):
        return [load_sweep(path)]
    if os.path.isfile(os.path.join(path, "metrics.json")):
        return [load_run(path)]
    if os.path.isfile(os.path.join(path, ROBUSTNESS)):
        data = load_robustness(os.path.join(path, ROBUSTNESS))
        return [Robustness(path, data["system"], data)]
    found: list[Run | Sweep | Robustness] = []
    for name in STUDIES:
        sub = os.path.join(path, name)
        if os.path.isfile(os.path.join(sub, "sweep.json")):
            found.append(load_sweep(sub))
        elif os.path.isfile(os.path.join(sub, "metrics.json")):
            found.append(load_run(sub))
        elif os.path.isfile(os.path.join(sub, ROBUSTNESS)):
            data = load_robustness(os.path.join(sub, ROBUSTNESS))
            found.append(Robustness(sub, data["system"], data))
    if not found:
        raise InputError(path, "", "holds no simcore run: no metrics.json, sweep.json or robustness.json here or in "
                                   f"{'/, '.join(STUDIES)}/ (run `simcore run ... --out DIR` first)")
    return found


def select_runs(path: str, want: Callable[[str], bool]) -> dict[str, list[Event]]:
    """Events of the runs for which ``want(run_id)`` is true, grouped by run in file
    order.  ``want`` is asked once per run id, at the run's first line."""
    decided: dict[str, bool] = {}
    out: dict[str, list[Event]] = {}
    for lineno, line in jsonl_lines(path):
        rid = _run_of(line)
        if rid is not None:
            keep = decided.get(rid)
            if keep is None:
                keep = decided[rid] = bool(want(rid))
            if not keep:
                continue
        ev = Event.from_json(line, path, lineno)
        if rid is None:  # a line not in the usual layout: decide from the parsed event
            keep = decided.get(ev.run)
            if keep is None:
                keep = decided[ev.run] = bool(want(ev.run))
            if not keep:
                continue
        out.setdefault(ev.run, []).append(ev)
    return out


def run_ids(path: str) -> list[str]:
    """Every run id of a transcript, in first-seen order."""
    seen: dict[str, None] = {}
    for lineno, line in jsonl_lines(path):
        rid = _run_of(line)
        if rid is None:
            rid = Event.from_json(line, path, lineno).run
        seen.setdefault(rid, None)
    return list(seen)


def need(ev: Event, *paths: str) -> None:
    """Check that the event carries each dotted field (``"intent.vote"``); a transcript
    without them was written by another simcore version."""
    for p in paths:
        part, _, key = p.partition(".")
        holder = getattr(ev, part, None)
        if not isinstance(holder, dict) or key not in holder:
            raise InputError(f"run {ev.run}", f"event {ev.seq} ({ev.phase})",
                             f"has no {p}: transcript written by another simcore version?")
