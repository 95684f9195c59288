"""simcore: deterministic offline simulation of published LLM negotiation systems.

>>> import simcore
>>> policy = simcore.make("policy", "mind-v1")      # doctest: +SKIP
"""

__version__ = "0.1.0"


def make(kind, id, **overrides):
    """Build a registered scenario / policy / protocol / backend / study by id."""
    from simcore.registry import make as _make

    return _make(kind, id, **overrides)


def registered(kind, **kw):
    from simcore.registry import registered as _registered

    return _registered(kind, **kw)


__all__ = ["make", "registered", "__version__"]
