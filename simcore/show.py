"""``simcore show``: render transcripts as readable dialogues.

A run id starts with its system's name (``mind/s0/g12/mind``), which picks the
renderer: each study module defines ``render_run(events) -> str``.

``--group X`` shows one negotiation: the run whose id is ``X``, or else the first run
(in file order) whose id ends with ``/X`` or contains ``/X/``.  With several seeds a
suffix such as ``g7/mind`` matches one run per seed (``mind/s0/g7/mind``,
``mind/s1/g7/mind``, ...): the first is shown, and a closing line names the others,
whose full ids pick them.

Every event carrying noise the mock injected (:mod:`simcore.noise`) gets a ``[noise]``
line after its negotiation, and every decision a role on a backend made (``--role``) a
``[model]`` line: its answers in short, what was decided and the stand-in's decision
(the prompt and the raw answers are in the report's step-through).

The file is not trusted: every line shown must be a transcript event (field names
and types are checked on reading), and a run whose events its renderer cannot read is
one error naming the run, never a traceback.

The file is read one line at a time and only the runs shown are kept (see
:func:`simcore.transcript.jsonl_lines` for the line cap and the torn last line).
Without ``--group`` reading stops at the first line of the run after the ``--limit``
shown (simcore writes a run's events together); with it the whole file is scanned,
but a line of another run is only looked at for its run id (read from the front of
the line, as the report does), so only the matching runs' ids are kept besides the
one shown.  Everything printed goes through :func:`simcore.textsafe.visible`: a
control character in a model's words shows as ``\\x1b``, never reaches the terminal.
"""

from __future__ import annotations

import contextlib

from mockllm.exchanges import summary
from simcore import noise
from simcore.catalog import STUDIES, part
from simcore.errors import InputError, SimcoreError
from simcore.textsafe import visible
from simcore.transcript import MODEL_DECISIONS, Event, jsonl_lines, run_of_line


def _matches(rid: str, run_id: str) -> bool:
    return rid.endswith("/" + run_id) or f"/{run_id}/" in rid + "/"


def _lines(path: str):
    """``(line number, line, run id)`` of each line of the transcript; the run id is read
    from the front of the line, or from the parsed event if the line is laid out otherwise."""
    with contextlib.closing(jsonl_lines(path)) as lines:
        for lineno, line in lines:
            rid = run_of_line(line)
            yield lineno, line, (rid if rid is not None else Event.from_json(line, path, lineno).run)


def _first_runs(path: str, limit: int) -> dict[str, list[Event]]:
    """The first ``limit`` runs of the file; stops reading at the next run's first line."""
    grouped: dict[str, list[Event]] = {}
    with contextlib.closing(_lines(path)) as lines:
        for lineno, line, rid in lines:
            if rid not in grouped:
                if len(grouped) == limit:
                    break
                grouped[rid] = []
            grouped[rid].append(Event.from_json(line, path, lineno))
    return grouped


def _one_run(path: str, run_id: str) -> tuple[str, list[Event], str]:
    """The run ``--group run_id`` picks, its events, and the note naming the other matches."""
    exact: list[Event] = []
    first: str | None = None
    first_events: list[Event] = []
    others: dict[str, None] = {}  # ids only
    sample: dict[str, None] = {}
    for lineno, line, rid in _lines(path):
        if len(sample) < 5:
            sample.setdefault(rid, None)
        if rid == run_id:
            exact.append(Event.from_json(line, path, lineno))
        elif _matches(rid, run_id):
            if first is None:
                first = rid
            if rid == first:
                first_events.append(Event.from_json(line, path, lineno))
            else:
                others.setdefault(rid, None)
    if not sample:
        raise InputError(path, "", "no events in this transcript")
    if exact:
        return run_id, exact, ""
    if first is None:
        raise InputError(path, "--group", f"no run matches {run_id!r} (runs look like: {', '.join(sample)}, ...)")
    note = ""
    if others:
        listed = list(others)
        shown = ", ".join(listed[:5]) + (", ..." if len(listed) > 5 else "")
        note = (f"({len(listed)} more run(s) match {run_id!r}: {shown}; "
                "give a full run id to show another)")
    return first, first_events, note


def _model_lines(events) -> list[str]:
    """One ``[model]`` line per decision a role on a backend made (``hidden.model_decisions``,
    :mod:`mockllm.exchanges`): its answers in short, the decision and the stand-in's."""

    out = []
    for e in events:
        notes = e.hidden.get(MODEL_DECISIONS)
        if isinstance(notes, list):
            out += [f"  [model] #{e.seq} {e.speaker} (round {e.round}): {visible(summary(n), oneline=True)}"
                    for n in notes if isinstance(n, dict)]
    return out


def show_file(path: str, *, run_id: str | None = None, limit: int = 3) -> str:
    """The text ``simcore show`` prints, control characters escaped."""
    note = ""
    if run_id is None:
        grouped = _first_runs(path, limit)
        if not grouped:
            raise InputError(path, "", "no events in this transcript")
    else:
        rid, events, note = _one_run(path, run_id)
        grouped = {rid: events}
    blocks = []
    for rid, events in grouped.items():
        system = rid.split("/", 1)[0]
        if system not in STUDIES:
            raise InputError(path, "run", f"run id {rid!r} names no known system ({', '.join(STUDIES)})")
        render = part(system, "render_run")
        try:
            marked = noise.lines(events) + _model_lines(events)
            blocks.append(render(events) + ("\n" + "\n".join(marked) if marked else ""))
        except SimcoreError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(path, f"run {rid}", "its events are not those of a simcore transcript "
                             f"({type(exc).__name__}: {exc})") from None
    if note:
        blocks.append(note)
    return visible("\n\n".join(blocks))
