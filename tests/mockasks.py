"""One helper for the tests that compare the in-process mock's shortcuts with the full
prompt round trip: the same asks through a fresh client, with the shortcut on or off."""

from __future__ import annotations

import numpy as np

from mockllm import mock
from mockllm.client import ModelClient
from mockllm.mock import MockBackend


def asks(task, fast: bool, contexts, noise: dict, monkeypatch, seed: int) -> tuple:
    """``task`` asked once per context of ``contexts`` through a new client on a
    ``MockBackend(**noise)``, the shortcut on (``fast``) or off: ``(values or 'raised ...',
    the client's stats, its exchange records, the backend's call count, the generator's
    state afterwards)`` -- what must be equal either way."""
    monkeypatch.setattr(mock, "FASTPATH", fast)
    backend = MockBackend(**noise)
    client = ModelClient(backend, exchanges=[])
    rng = np.random.default_rng(seed)
    values = []
    for ctx in contexts:
        try:
            values.append(client.ask(task, rng, fallback=lambda: "fell back", **ctx))
        except Exception as exc:  # (the template's own fault, e.g. an offer move without an offer)
            values.append(f"raised {type(exc).__name__}: {exc}")
    return values, client.stats, client.exchanges, backend.calls, repr(rng.bit_generator.state)
