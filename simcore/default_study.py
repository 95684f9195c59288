"""``simcore run`` with no SYSTEM: the default study of every system, resumable.

Each system writes to OUT/SYSTEM; when its study has finished, ``default-study.json``
(the root seed) is written beside its results.  ``simcore run --resume`` keeps every
system whose directory holds that mark for the same seed, and runs the others again from
the start (a system is the unit: its partial files are replaced).  Every directory is
checked before the first study starts.

A system's default study is its package's ``run_default``; a system that does not write one
runs its study's config class (``STUDY.config``) at its defaults (:func:`run`).
"""

from __future__ import annotations

import json
import os
from typing import Sequence

from simcore.catalog import STUDIES, part
from simcore.errors import InputError
from simcore.files import RUN_FILES, SWEEP_FILES, prepare_out_dir, write_atomic
from simcore.jsonread import JSONProblem, loads
from simcore.launch import launch
from simcore.progress import _clock

MARK = "default-study.json"

def overall_line(names: Sequence[str], done: Sequence[str], elapsed: float) -> str:
    """"k of n systems done, elapsed", and the systems not yet started, whose time is not
    estimated: nothing about one has been measured before it runs (each system's own
    progress line estimates its time left from its measured rate once it has started)."""

    left = [n for n in names if n not in done]
    tail = f"; not started: {', '.join(left)} (no estimate before each has run)" if left else ""
    return f"default study: {len(done)} of {len(names)} systems done, {_clock(elapsed)}{tail}"


def after_note(names: Sequence[str], current: str) -> str:
    """What follows ``current`` in the default study, for its progress line
    (:data:`simcore.progress.AFTER`): "then X, Y (not started: no estimate)", or nothing."""
    later = list(names)[list(names).index(current) + 1:]
    return f"then {', '.join(later)} (not started: no estimate)" if later else ""


def finished_seed(out_dir: str) -> int | None:
    """The seed of the default study finished in ``out_dir``, or None."""
    if not os.path.exists(os.path.join(out_dir, "metrics.json")):
        return None
    try:
        with open(os.path.join(out_dir, MARK), encoding="utf-8") as fh:
            seed = loads(fh.read()).get("seed")
    except (OSError, UnicodeDecodeError, JSONProblem, AttributeError):  # a damaged mark: not finished
        return None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def plan(out: str, names: Sequence[str], *, seed: int, overwrite: bool, resume: bool) -> list[str]:
    """The systems to run, after checking every output directory (one InputError, before any work)."""
    todo = []
    for name in names:
        d = os.path.join(out, name)
        if resume and not overwrite:
            done = finished_seed(d)
            if done == seed:
                continue
            present = [n for n in RUN_FILES + SWEEP_FILES if os.path.exists(os.path.join(d, n))]
            if done is not None:
                raise InputError("--out", d, f"holds the default study with seed {done}, not {seed}; pass "
                                             "--overwrite to replace it, or choose another --out")
            if present and MARK not in present and "metrics.json" in present:
                raise InputError("--out", d, f"holds results that are not of an interrupted default study "
                                             f"({', '.join(present)}); pass --overwrite to replace them, or "
                                             "choose another --out")
            prepare_out_dir(d, overwrite=True)  # an interrupted system's leftovers
        else:
            prepare_out_dir(d, kind="default", overwrite=overwrite)
        todo.append(name)
    return todo


def mark_done(out_dir: str, seed: int) -> None:
    write_atomic(os.path.join(out_dir, MARK), json.dumps({"seed": seed}) + "\n")


def run(system: str, seed: int = 0, workers: int = 1, out: str | None = None, progress: bool | None = None,
        first_look: bool = False):
    """``system``'s default study: its package's ``run_default``, or its study's config at its
    defaults with the root ``seed`` (``first_look``: with the package's ``FIRST_LOOK`` sizes)."""
    own = part(system, "run_default")
    if own is not None:
        return own(seed=seed, workers=workers, out=out, progress=progress, first_look=first_look)
    config = part(system, "STUDY").config(seed=seed, **(part(system, "FIRST_LOOK") if first_look else {}))
    return launch(f"{STUDIES[system]}:STUDY", config, workers=workers, out=out, progress=progress)
