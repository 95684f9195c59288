"""``simcore show``: render transcripts as readable dialogues.

A run id starts with its system's name (``mind/s0/g12/mind``), which picks the
renderer: each study module defines ``render_run(events) -> str``.

``--group X`` shows one negotiation: the run whose id is ``X``, or else the first run
(in file order) whose id ends with ``/X`` or contains ``/X/``.  With several seeds a
suffix such as ``g7/mind`` matches one run per seed (``mind/s0/g7/mind``,
``mind/s1/g7/mind``, ...): the first is shown, and a closing line names the others,
whose full ids pick them.

Every event carrying noise the mock injected (:mod:`simcore.noise`) gets a ``[noise]``
line after its negotiation.

The file is not trusted: every line must be a transcript event (field names and
types are checked on reading), and a run whose events its renderer cannot read is
one error naming the run, never a traceback.
"""

from __future__ import annotations

import importlib

from simcore import noise
from simcore.errors import InputError, SimcoreError
from simcore.studies import STUDIES
from simcore.transcript import read_jsonl, runs


def _matches(rid: str, run_id: str) -> bool:
    return rid.endswith("/" + run_id) or f"/{run_id}/" in rid + "/"


def show_file(path: str, *, run_id: str | None = None, limit: int = 3) -> str:
    grouped = runs(read_jsonl(path))
    if not grouped:
        raise InputError(path, "", "no events in this transcript")
    note = ""
    if run_id is not None:
        if run_id in grouped:
            picked = [run_id]
        else:
            picked = [k for k in grouped if _matches(k, run_id)]
        if not picked:
            sample = ", ".join(list(grouped)[:5])
            raise InputError(path, "--group", f"no run matches {run_id!r} (runs look like: {sample}, ...)")
        if len(picked) > 1:
            others = picked[1:]
            shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
            note = (f"({len(others)} more run(s) match {run_id!r}: {shown}; "
                    "give a full run id to show another)")
        grouped = {picked[0]: grouped[picked[0]]}
    else:
        grouped = dict(list(grouped.items())[:limit])
    blocks = []
    for rid, events in grouped.items():
        system = rid.split("/", 1)[0]
        if system not in STUDIES:
            raise InputError(path, "run", f"run id {rid!r} names no known system ({', '.join(STUDIES)})")
        render = importlib.import_module(STUDIES[system]).render_run
        try:
            marked = noise.lines(events)
            blocks.append(render(events) + ("\n" + "\n".join(marked) if marked else ""))
        except SimcoreError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(path, f"run {rid}", "its events are not those of a simcore transcript "
                             f"({type(exc).__name__}: {exc})") from None
    if note:
        blocks.append(note)
    return "\n\n".join(blocks)
