"""simcore: deterministic offline simulation of published LLM negotiation systems.

The public API (docs/api.md) -- every name below; the other modules are internal:

>>> import simcore
>>> episode = simcore.astra_episode("astra-agent-v3", "base-partner-v2", seed=7)
>>> episode.status in ("agreement", "walk_away", "no_agreement")
True
"""

__version__ = "0.1.0"

from simcore.api import (astra_episode, dominance_dialogue, make, mind_group, posterior,  # noqa: E402
                         register, registered, roles, scorable_session, seed_sequence)


def make_env(system, **kw):
    """A turn-by-turn environment over one negotiation (simcore.env, docs/env.md)."""
    from simcore.env import make_env as _make_env

    return _make_env(system, **kw)


__all__ = ["astra_episode", "dominance_dialogue", "make", "make_env", "mind_group", "posterior", "register",
           "registered", "roles", "scorable_session", "seed_sequence", "__version__"]
