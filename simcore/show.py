"""``simcore show``: render transcripts as readable dialogues.

A run id starts with its system's name (``mind/s0/g12/mind``), which picks the
renderer: each study module defines ``render_run(events) -> str``.
"""

from __future__ import annotations

import importlib

from simcore.errors import InputError
from simcore.studies import STUDIES
from simcore.transcript import read_jsonl, runs


def show_file(path: str, *, run_id: str | None = None, limit: int = 3) -> str:
    grouped = runs(read_jsonl(path))
    if not grouped:
        raise InputError(path, "", "no events in this transcript")
    if run_id is not None:
        picked = {k: v for k, v in grouped.items()
                  if k == run_id or k.endswith("/" + run_id) or f"/{run_id}/" in k + "/"}
        if not picked:
            sample = ", ".join(list(grouped)[:5])
            raise InputError(path, "--group", f"no run matches {run_id!r} (runs look like: {sample}, ...)")
        grouped = picked
    else:
        grouped = dict(list(grouped.items())[:limit])
    blocks = []
    for rid, events in grouped.items():
        system = rid.split("/", 1)[0]
        if system not in STUDIES:
            raise InputError(path, "run", f"run id {rid!r} names no known system ({', '.join(STUDIES)})")
        blocks.append(importlib.import_module(STUDIES[system]).render_run(events))
    return "\n\n".join(blocks)
