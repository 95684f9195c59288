"""The caches simcore keeps between negotiations, each declared here by its owner.

A module that keeps something between negotiations -- a memo of derived, pure data (a
domain's score tables, a task's rendered system prompt, a partner's ranking of the
outcomes) -- declares it with :func:`memo` (a dict) or :func:`lru` (a ``functools``
cache), under a name that says what it holds.  :func:`clear` empties every one of them, so a
benchmark can time a negotiation from cold caches without finding them by their names, and
:func:`declared` lists them (``simcore``'s tests check that every module-level cache is
declared).  A cache holds only what a pure function of its key gives: clearing one changes
no output, only the time a run takes.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

_DECLARED: dict[str, Any] = {}


def memo(name: str) -> dict:
    """A new dict memo declared as ``name`` (``"package.module: what it holds"``)."""
    if name in _DECLARED:
        raise ValueError(f"cache {name!r} is already declared")
    table: dict = {}
    _DECLARED[name] = table
    return table


def lru(name: str, maxsize: int | None = 128) -> Callable[[Callable], Callable]:
    """``functools.lru_cache(maxsize)``, declared as ``name``."""
    def wrap(fn: Callable) -> Callable:
        if name in _DECLARED:
            raise ValueError(f"cache {name!r} is already declared")
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        _DECLARED[name] = cached
        return cached
    return wrap


def clear() -> int:
    """Empty every declared cache; the number emptied."""
    for cache in _DECLARED.values():
        if isinstance(cache, dict):
            cache.clear()
        else:
            cache.cache_clear()
    return len(_DECLARED)


def declared() -> dict[str, Any]:
    """Every declared cache by name."""
    return dict(_DECLARED)
