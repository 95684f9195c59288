"""simcore: deterministic offline simulation of published LLM negotiation systems.

The public API (docs/users/api.md) -- every name below; the other modules are internal:

>>> import simcore
>>> episode = simcore.astra_episode("astra-agent-v4", "base-partner-v2", seed=7)
>>> episode.status in ("agreement", "walk_away", "no_agreement")
True

The names are loaded on first use (PEP 562), so that the lower layers (``simcore.errors``,
``simcore.contract``, ...) import without loading every system.
"""

import importlib

__version__ = "0.1.0"

#: public name -> the module that defines it
_API = {
    "astra_episode": "simcore.api", "dominance_dialogue": "simcore.api", "make": "simcore.api",
    "mind_group": "simcore.api", "posterior": "simcore.api", "register": "simcore.api", "registered": "simcore.api",
    "roles": "simcore.api", "scorable_session": "simcore.api", "seed_sequence": "simcore.api",
    "negotiate": "simcore.api", "make_env": "simcore.env",
}

__all__ = sorted(_API) + ["__version__"]


def __getattr__(name: str):
    if name in _API:
        value = getattr(importlib.import_module(_API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_API))
