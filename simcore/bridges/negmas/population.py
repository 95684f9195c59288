"""The public population of NegMAS agents: every negotiator the installed agent packages export.

``negmas-genius-agents`` (Python rewrites of 146 agents of the ANAC / Genius competitions
2010-2019, by its authors' account AI-assisted rewrites, not byte-for-byte ports) and
``negmas-negolog`` (25 NegoLog agents); both AGPL (NegoLog itself GPL), optional, never
simcore's dependencies.  An agent is named by its import path, ``"package:Class"``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect

from negmas.sao import SAONegotiator

#: the agent packages (import name -> distribution name)
PACKAGES = {"negmas_genius_agents": "negmas-genius-agents", "negmas_negolog": "negmas-negolog"}
#: exported classes that are not agents (a base class to wrap others with)
NOT_AGENTS = {"negmas_negolog": ("NegologNegotiatorWrapper",)}


def installed() -> list[str]:
    """The agent packages that import here."""
    out = []
    for name in PACKAGES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        out.append(name)
    return out


def agents(package: str) -> list[str]:
    """Every agent ``package`` exports (its ``__all__``'s concrete ``SAONegotiator`` classes, in
    that order), as ``"package:Class"``."""
    module = importlib.import_module(package)
    out = []
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name, None)
        if (inspect.isclass(obj) and issubclass(obj, SAONegotiator) and not inspect.isabstract(obj)
                and name not in NOT_AGENTS.get(package, ())):
            out.append(f"{package}:{name}")
    return out


def versions() -> dict[str, str]:
    """The installed versions of NegMAS and of each agent package (their distribution names)."""
    out = {"negmas": importlib.metadata.version("negmas")}
    for module, dist in PACKAGES.items():
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out
