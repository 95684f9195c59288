"""The known-answer traces played through MIND's game: each trace's group negotiated by a
MIND policy with exact wording (no tone noise), for the playthroughs and the trace tests."""

from __future__ import annotations

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from scenarios.travel_traces import Trace, group_for
from simcore.seeding import generator
from simcore.systems.mind.match import play_group


def play(trace: Trace, policy_id: str = "mind-v2"):
    """Negotiate ``trace`` (proposer = member 0) with exact wording (no tone noise);
    returns (ItemOutcome, events)."""
    group = group_for(trace)
    out = play_group(group, policy_id, [0], ModelClient(MockBackend(exact=True)),
                     generator(0, "mind-trace", trace.name), f"mind/trace/{trace.name}/{policy_id}")
    return out.items[0], out.events
