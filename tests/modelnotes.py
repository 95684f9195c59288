"""Transcripts of a role on a backend without the exchanges its decisions record
(``hidden.model_decisions``, mockllm/exchanges.py), to compare a run with the mock in a
role with the stand-in's run byte for byte."""

from __future__ import annotations

from pathlib import Path

from simcore.transcript import MODEL_DECISIONS as KEY
from simcore.transcript import Event


def without_notes(path: Path) -> tuple[bytes, int]:
    """(the transcript's bytes with every ``hidden.model_decisions`` taken out, the number of
    decision notes taken out)."""
    lines, n = [], 0
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        e = Event.from_json(line)
        if KEY in e.hidden:
            n += len(e.hidden[KEY])
            e = Event(**{**{a: getattr(e, a) for a in ("run", "seq", "speaker", "phase", "round", "item", "intent",
                                                        "text", "cues")},
                         "hidden": {k: v for k, v in e.hidden.items() if k != KEY}})
        lines.append(e.to_json() + "\n")
    return "".join(lines).encode("utf-8"), n
