"""The systems: one package per system (its match set-up, seat agents, registry entries and
role evidence, study, tables, CLI command and renderings).  ``STUDIES`` maps a system name to
the module that exports them; the CLI and the registry import it only when it is used."""

from __future__ import annotations

import importlib
import importlib.util

from simcore.errors import UnknownIdError

STUDIES = {
    "mind": "simcore.systems.mind",
    "scorable": "simcore.systems.scorable",
    "astra": "simcore.systems.astra",
    "dominance": "simcore.systems.dominance",
    "buysell": "simcore.systems.buysell",
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


#: what every system's package exports (tests/core/test_system_interface.py checks each one):
#: the study, its command and its default study (``run_default(seed, workers, out, progress,
#: first_look)``, ``FIRST_LOOK`` the small size), the registry entries and role evidence, the
#: renderings, the environment's spec, the modules of its report section and its rule tables,
#: and its noise finder
INTERFACE = ("SYSTEM", "STUDY", "REGISTRY", "ROLES", "CLAIMS", "PLAYTHROUGHS", "command", "run_default",
             "FIRST_LOOK", "render_run", "ENV", "REPORT", "RULE_MODULES", "noise_notes")


def part(system: str, name: str):
    """``name`` of system ``system``'s package (one of :data:`INTERFACE`)."""
    return getattr(importlib.import_module(STUDIES[system]), name)


def available() -> list[str]:
    """Systems whose study module is present, in the canonical order."""
    return [name for name, mod in STUDIES.items() if importlib.util.find_spec(mod) is not None]


def study(name: str):
    """The study object of system ``name`` (``make("study", "mind-study-v1")``)."""

    if name not in STUDIES:

        raise UnknownIdError("system", name, STUDIES)
    return importlib.import_module(STUDIES[name]).STUDY


#: the studies as registry entries (kind "study"): ``make("study", "<system>-study-v1")``
REGISTRY = [dict(kind="study", id=f"{name}-study-v1", entry_point="simcore.systems:study", kwargs={"name": name},
                 description=f"the {name} study: its config, jobs, metrics and tables (simcore run {name})",
                 meta={"system": name}) for name in STUDIES]
