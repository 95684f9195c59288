"""Golden playthroughs, in the manner of OpenSpiel's.

Each study module may define ``PLAYTHROUGHS``: a dict ``name -> callable() -> str``
that plays a fixed, constructed negotiation and returns its rendered transcript.
``simcore playthroughs`` writes them to ``tests/playthroughs/<system>-<name>.txt``;
``tests/core/test_playthroughs.py`` regenerates them in memory and diffs.

The golden files belong to the source checkout (they are tests, not installed with
the package), so the command refuses to run from an installed copy: there it would
compare with nothing and write a ``tests/`` folder into site-packages.
"""

from __future__ import annotations

import os

from simcore.catalog import available, part
from simcore.errors import SimcoreError
from simcore.files import write_atomic

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.path.join(ROOT, "tests", "playthroughs")


def check_checkout(directory: str = DEFAULT_DIR) -> None:
    """Refuse (one line) unless ``directory`` is the golden-file folder of a checkout."""

    root = os.path.dirname(os.path.dirname(os.path.abspath(directory)))
    if not (os.path.isdir(directory) and os.path.isfile(os.path.join(root, "setup.cfg"))):
        raise SimcoreError(f"playthroughs: the golden files are part of a source checkout, not of an "
                           f"installed simcore ({directory} is not a checkout's tests/playthroughs); "
                           "run this command from a clone of the repository (pip install -e .)")


def generate() -> dict[str, str]:
    """``{file name: text}`` for every playthrough of every system."""
    out: dict[str, str] = {}
    for system in available():
        for name, build in part(system, "PLAYTHROUGHS").items():
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
                write_atomic(path, text)
    return changed
