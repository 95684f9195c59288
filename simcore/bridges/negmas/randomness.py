"""The foreign agents' randomness, seeded from simcore's seed.

NegMAS's agents draw from the global generators of :mod:`random` and :mod:`numpy.random`.
NegMAS's own ``seed_all`` / ``apply_seed`` seeds exactly those and calls the seeders other
packages register (``negmas_negolog`` registers one that gives every later ``random.Random()``
built without a seed a seed derived from it, by replacing ``random.Random`` with its own
subclass).  A bridged negotiation's :class:`Streams` applies a fresh seed before each call into
the foreign agent -- building it, and each of its turns -- derived from the negotiation's seed
and the call's index (``with streams:``): so what the agent draws in a call depends only on
simcore's seed and where the call is, whatever else the process drew in between, and repeats
are byte-identical.

The process's global generators are reseeded by it, as NegMAS's ``seed_all`` does (code that
needs its own randomness keeps its own generator, as simcore does).  Putting the process's
state back after each call would cost about 0.4 ms a call (copying both generators' states
twice), several times a NegMAS turn; reseeding costs about 15 us.
"""

from __future__ import annotations

from negmas.helpers.rand import apply_seed

#: an odd 64-bit constant (the golden ratio's): call k's seed is the negotiation's plus k times it
_STRIDE = 0x9E3779B97F4A7C15


def call_seed(seed: int, k: int) -> int:
    """The seed of call ``k`` of the negotiation seeded ``seed`` (distinct for each ``k``,
    modulo 2**32 too, as NumPy's legacy seeding keeps 32 bits)."""
    return (int(seed) + k * _STRIDE) % (2 ** 63)


class Streams:
    """One negotiation's seeds: ``with streams:`` around each call into the foreign agent."""

    def __init__(self, seed: int):
        self.seed = int(seed)
        self.calls = 0

    def __enter__(self) -> "Streams":
        apply_seed(call_seed(self.seed, self.calls))
        self.calls += 1
        return self

    def __exit__(self, *exc) -> None:
        return None
