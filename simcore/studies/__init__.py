"""One study module per system: its config, jobs, metrics summary, CLI command and
registry entries.  ``STUDIES`` maps a system name to its module; the CLI and the
registry import a module only when it is used."""

from __future__ import annotations

import importlib.util

STUDIES = {
    "mind": "simcore.studies.mind",
    "scorable": "simcore.studies.scorable",
    "astra": "simcore.studies.astra",
    "dominance": "simcore.studies.dominance",
}


def available() -> list[str]:
    """Systems whose study module is present, in the canonical order."""
    return [name for name, mod in STUDIES.items() if importlib.util.find_spec(mod) is not None]
