"""Golden playthroughs, in the manner of OpenSpiel's.

Each study module may define ``PLAYTHROUGHS``: a dict ``name -> callable() -> str``
that plays a fixed, constructed negotiation and returns its rendered transcript.
``simcore playthroughs`` writes them to ``tests/playthroughs/<system>-<name>.txt``;
``tests/test_playthroughs.py`` regenerates them in memory and diffs.
"""

from __future__ import annotations

import importlib
import os

from simcore.studies import STUDIES, available

DEFAULT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "playthroughs")


def generate() -> dict[str, str]:
    """``{file name: text}`` for every playthrough of every system."""
    out: dict[str, str] = {}
    for system in available():
        module = importlib.import_module(STUDIES[system])
        for name, build in getattr(module, "PLAYTHROUGHS", {}).items():
            out[f"{system}-{name}.txt"] = build()
    return out


def regenerate(*, check: bool = False, directory: str = DEFAULT_DIR) -> list[str]:
    """Write (or with ``check`` only compare) the files; return the paths that changed."""
    changed = []
    for fname, text in generate().items():
        path = os.path.join(directory, fname)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                old = fh.read()
        if old != text:
            changed.append(path)
            if not check:
                os.makedirs(directory, exist_ok=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
    return changed
