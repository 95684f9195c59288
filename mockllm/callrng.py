"""A small, fast, seeded random stream for one mock-backend call.

Building a numpy ``Generator`` costs about 20 us, more than a whole templated answer,
and the mock needs only a handful of draws per call.  :class:`CallRng` draws them
from SplitMix64 seeded by the call's seed; any other ``numpy.random.Generator``
method is served by a Generator built (once, lazily) from the same seed, so tasks
may use the full numpy API.  Same seed, same draws.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_INV53 = 1.0 / (1 << 53)


class CallRng:
    __slots__ = ("_state", "_seed", "_np")

    def __init__(self, seed: int):
        self._seed = int(seed) & _MASK
        self._state = self._seed
        self._np = None

    def _next(self) -> int:
        self._state = z = (self._state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        self._state = z = (self._state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return ((z ^ (z >> 31)) >> 11) * _INV53

    def integers(self, low: int, high: int | None = None) -> int:
        """Uniform int in [low, high) (or [0, low) with one argument), like numpy's."""
        if high is None and type(low) is int and low > 0:  # the usual integers(n): [0, n)
            # (the draw below written out once more: no offset to add)
            self._state = z = (self._state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            return int(((z ^ (z >> 31)) >> 11) * _INV53 * low)
        if high is None:
            low, high = 0, low
        low, span = int(low), int(high) - int(low)
        if span <= 0:
            raise ValueError("high <= low")
        # self.random() written out (a call less per draw: the mock draws several per answer)
        self._state = z = (self._state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return low + int(((z ^ (z >> 31)) >> 11) * _INV53 * span)

    def choice(self, options: Sequence[Any] | int) -> Any:
        if isinstance(options, (int, np.integer)):
            return self.integers(int(options))
        return options[self.integers(len(options))]

    def normal(self, loc: float = 0.0, scale: float = 1.0) -> float:
        u1 = 1.0 - self.random()
        return loc + scale * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * self.random())

    def __getattr__(self, name: str) -> Any:
        if self._np is None:
            self._np = np.random.Generator(np.random.PCG64(self._seed))
        return getattr(self._np, name)
