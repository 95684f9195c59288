"""Checks of the arguments the public API and the protocols take (one clear error each).

Each failure is one :class:`~simcore.errors.InputError` naming the argument, the value and what
is valid.  Kept apart from :mod:`simcore.api` so that the protocols can use them without
importing the API that imports them.
"""

from __future__ import annotations

import importlib
from typing import Any, Sequence

import numpy as np

from simcore.errors import InputError, UnknownIdError
from simcore.registry import make, registered, resolve


def seed_sequence(seed: Any, name: str = "seed"):
    """``seed`` as a ``numpy.random.SeedSequence``: a non-negative int, or a SeedSequence itself."""

    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return np.random.SeedSequence(int(seed))
    raise InputError(name, repr(seed), "a seed is a non-negative int or a numpy.random.SeedSequence, "
                                       f"not {type(seed).__name__}")


def whole(name: str, value: Any, lo: int) -> int:
    """``value`` when it is an int (not a bool) of at least ``lo``; else one error naming ``name``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise InputError(name, repr(value), f"must be an int >= {lo}")
    return value


def _registered_id(kind: str, value: Any, name: str, system: str, role: str | None = None) -> str:
    """The registry id ``value`` names, checked to be a ``kind`` of ``system`` (and ``role``)."""

    valid = [i for i in registered(kind, system=system)
             if role is None or resolve(kind, i).meta.get("role") in (role, None)]
    if not isinstance(value, str):
        raise InputError(name, repr(value), f"expected a registered {system} {kind} id ({', '.join(valid)})")
    try:
        spec = resolve(kind, value)
    except UnknownIdError:
        raise InputError(name, value, f"unknown {system} {kind} id; valid: {', '.join(valid)}") from None
    if spec.meta.get("system") != system or (role is not None and spec.meta.get("role") not in (role, None)):
        raise InputError(name, value, f"is not a {system} {role or kind}; valid: {', '.join(valid)}")
    return spec.id


def _policy_object(policy: Any, name: str, system: str, methods: Sequence[str], role: str | None = None,
                   **build: Any) -> Any:
    """A policy from an id (built from the registry with ``build``), or the object itself when it
    has every method of ``methods``."""

    if isinstance(policy, str):
        return make("policy", _registered_id("policy", policy, name, system, role), **build)
    missing = [m for m in methods if not callable(getattr(policy, m, None))]
    if missing:
        raise InputError(name, type(policy).__name__,
                         f"is neither a registered {system} policy id nor an object with "
                         f"{', '.join(m + '()' for m in methods)} (missing: {', '.join(missing)})")
    return policy




def load_ref(ref: str, name: str) -> Any:
    """The object a ``"package.module:attr"`` reference names (a user's policy class)."""

    module, sep, attr = str(ref).partition(":")
    if not sep or not module or not attr:
        raise InputError(name, ref, "expected package.module:attribute")
    try:
        obj = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except ImportError as exc:
        raise InputError(name, ref, f"cannot import {module!r} ({exc})") from None
    except AttributeError:
        raise InputError(name, ref, f"{module!r} has no attribute {attr!r}") from None
    except Exception as exc:  # the user's module raised while importing: its fault, one line
        raise InputError(name, ref, f"importing {module!r} raised {type(exc).__name__}: {exc}") from None
    return obj


def seat_ref(value: str, system: str, role: str | None, builtin: Sequence[str]) -> str:
    """Why ``value`` cannot take a seat, or "" when it can: a study name in ``builtin``, a
    registered ``system`` policy id (of ``role``), or a ``module:attr`` reference."""

    if value in builtin:
        return ""
    if ":" in value:
        try:
            load_ref(value, "seat")
        except InputError as exc:
            return str(exc).split(": ", 2)[-1]
        return ""
    if value in registered("policy", system=system):
        if role is None or resolve("policy", value).meta.get("role") in (role, None):
            return ""
        return f"{value!r} is not {'an' if role[0] in 'aeiou' else 'a'} {role}"
    return (f"unknown {value!r}: give one of {', '.join(builtin)}, a registered {system} policy id, or "
            f"package.module:Class (your own policy)")
