"""One root seed, everything else derived through ``numpy.random.SeedSequence``.

A run's randomness is addressed by a *key path*: ``derive(root, "mind", seed_index,
group_index, "agent", 2)``.  Strings in the path are hashed with BLAKE2b (stable
across processes and Python versions, unlike ``hash``) so a generator depends only
on the root seed and where it is used -- never on worker count, scheduling or the
order in which runs finish.
"""

from __future__ import annotations

import hashlib
from typing import Union

import numpy as np

Key = Union[int, str]


def _key_int(part: Key) -> int:
    if isinstance(part, (bool, np.bool_)):
        raise TypeError("seed key parts must be int or str, not bool")
    if isinstance(part, (int, np.integer)):
        if part < 0:
            raise ValueError(f"seed key parts must be non-negative, got {part}")
        return int(part)
    if isinstance(part, str):
        return int.from_bytes(hashlib.blake2b(part.encode("utf-8"), digest_size=8).digest(), "little")
    raise TypeError(f"seed key parts must be int or str, got {type(part).__name__}")


def derive(root: int, *path: Key) -> np.random.SeedSequence:
    """The SeedSequence at ``path`` below the root seed."""
    if not isinstance(root, (int, np.integer)) or root < 0:
        raise ValueError(f"root seed must be a non-negative integer, got {root!r}")
    return np.random.SeedSequence(entropy=int(root), spawn_key=tuple(_key_int(p) for p in path))


def generator(root: int, *path: Key) -> np.random.Generator:
    """A fresh ``Generator`` for ``path`` below the root seed."""
    return np.random.Generator(np.random.PCG64(derive(root, *path)))


def child(rng_or_seq: np.random.SeedSequence, *path: Key) -> np.random.Generator:
    """A generator for ``path`` below an existing SeedSequence."""
    seq = np.random.SeedSequence(
        entropy=rng_or_seq.entropy,
        spawn_key=tuple(rng_or_seq.spawn_key) + tuple(_key_int(p) for p in path),
    )
    return np.random.Generator(np.random.PCG64(seq))


def call_seed(rng: np.random.Generator) -> int:
    """A seed for one backend call (0 <= seed < 2**31), drawn from the caller's generator."""
    return int(rng.bit_generator.random_raw()) >> 33
