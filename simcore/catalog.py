"""The catalog of systems: which exist (``STUDIES``: a system's name -> its package under
``simcore/systems/``), what each package exports (``INTERFACE``, and ``OPTIONAL`` with the defaults
:func:`part` gives), and the studies as registry entries.  The shared modules -- the CLI, the
registry, the report, the environment, ``check_policy`` -- find every system here and import its
package only when it is used; nothing below the systems imports a system's package."""

from __future__ import annotations

import importlib
import importlib.util
from types import MappingProxyType

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


#: what every system's package exports (tests/core/test_system_interface.py checks each one): its
#: name, the registry entries, the environment's spec (``ENV``) and the renderings
INTERFACE = ("SYSTEM", "REGISTRY", "ENV", "render_run")


def no_noise(events) -> dict:
    """The noise finder of a system whose mock marks no noise: no note for any event."""
    return {}


#: what a system's package may export, and what :func:`part` gives when it does not: the role
#: evidence and the paper's claims, the golden playthroughs, the modules whose ``RULES`` are its
#: rule tables, its noise finder, and its study -- the study object, its command, its default
#: study (``run_default(seed, workers, out, progress, first_look)``; without it, the study's
#: config class ``STUDY.config`` at its defaults: simcore.default_study.run), ``FIRST_LOOK``
#: (the config fields of the default study's small size) and the module of its section of
#: ``simcore report`` (``REPORT``; the package's ``report`` module when it has one).  A system
#: without ``STUDY`` is played by the API, the environment, ``check_policy`` and the
#: playthroughs; ``simcore run`` lists only the systems with a study.
OPTIONAL = {"ROLES": (), "CLAIMS": (), "PLAYTHROUGHS": MappingProxyType({}), "RULE_MODULES": (),
            "noise_notes": no_noise, "STUDY": None, "command": None, "run_default": None,
            "FIRST_LOOK": MappingProxyType({}), "REPORT": None}


def part(system: str, name: str):
    """``name`` of system ``system``'s package (one of :data:`INTERFACE` or :data:`OPTIONAL`,
    whose default it gives when the package does not export it)."""
    module = importlib.import_module(STUDIES[system])
    if name in OPTIONAL and not hasattr(module, name):
        if name == "REPORT" and hasattr(module, "__path__") and importlib.util.find_spec(f"{module.__name__}.report"):
            return f"{module.__name__}.report"
        return OPTIONAL[name]
    return getattr(module, name)


def available() -> list[str]:
    """Systems whose package is present, in the canonical order."""
    return [name for name, mod in STUDIES.items() if importlib.util.find_spec(mod) is not None]


def studied() -> list[str]:
    """The present systems that have a study (``simcore run``'s), in the canonical order."""
    return [name for name in available() if part(name, "STUDY") is not None]


def study(name: str):
    """The study object of system ``name`` (``make("study", "mind-study-v1")``)."""
    if name not in STUDIES:
        raise UnknownIdError("system", name, STUDIES)
    found = part(name, "STUDY")
    if found is None:
        raise UnknownIdError("study", f"{name}-study-v1", [f"{s}-study-v1" for s in studied()])
    return found


def __getattr__(name: str):
    """``REGISTRY``: the studies as registry entries (kind "study"), ``make("study",
    "<system>-study-v1")``, one per system that has a study (read when the registry loads, after
    the systems' packages can be imported)."""
    if name != "REGISTRY":
        raise AttributeError(name)
    return [dict(kind="study", id=f"{s}-study-v1", entry_point="simcore.catalog:study", kwargs={"name": s},
                 description=f"the {s} study: its config, jobs, metrics and tables (simcore run {s})",
                 meta={"system": s}) for s in studied()]
