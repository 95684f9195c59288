"""The systems: one package per system (its match set-up, seat agents, registry entries and
role evidence, study, tables, CLI command and renderings).  ``STUDIES`` maps a system name to
the module that exports them; the CLI and the registry import it only when it is used."""

from __future__ import annotations

import importlib.util

STUDIES = {
    "mind": "simcore.systems.mind",
    "scorable": "simcore.systems.scorable",
    "astra": "simcore.systems.astra",
    "dominance": "simcore.systems.dominance",
}


def system_of_study(path: object) -> str | None:
    """The system a study names: its name (``"mind"``, as ``sweep.json`` gives it) or its path
    (``"simcore.systems.mind:STUDY"``; sweep logs of simcore 0.1 name
    ``"simcore.studies.mind:STUDY"``); None for another study."""
    if not isinstance(path, str):
        return None
    module = path.split(":")[0]
    for name, mod in STUDIES.items():
        if path == name or module in (mod, f"simcore.studies.{name}"):
            return name
    return None


def available() -> list[str]:
    """Systems whose study module is present, in the canonical order."""
    return [name for name, mod in STUDIES.items() if importlib.util.find_spec(mod) is not None]


def study(name: str):
    """The study object of system ``name`` (``make("study", "mind-study-v1")``)."""
    import importlib

    if name not in STUDIES:
        from simcore.errors import UnknownIdError

        raise UnknownIdError("system", name, STUDIES)
    return importlib.import_module(STUDIES[name]).STUDY


#: the studies as registry entries (kind "study"): ``make("study", "<system>-study-v1")``
REGISTRY = [dict(kind="study", id=f"{name}-study-v1", entry_point="simcore.systems:study", kwargs={"name": name},
                 description=f"the {name} study: its config, jobs, metrics and tables (simcore run {name})",
                 meta={"system": name}) for name in STUDIES]
