"""What the two tests of the alternating-offers protocol's shortcuts share
(tests/test_offers_only.py, tests/test_words_path.py): the domains and partner kinds they
range over, the wrapper that makes the protocol take its full path, and the comparison of
two episodes."""

from __future__ import annotations

from policies.partners import PARTNER_PARAMS

DOMAINS = ("casino-v1", "research-allocation-v1")
KINDS = tuple(PARTNER_PARAMS)


class FullPath:
    """A policy that only has ``act``: the protocol must take the full path."""

    def __init__(self, policy):
        self.policy = policy

    def act(self, obs):
        return self.policy.act(obs)


def same_episode(fast, full) -> None:
    """``fast`` (a shortcut's episode) is ``full`` (the full path's): every field, the
    transcript's JSON lines, the events, equality and repr."""
    for field in ("status", "outcome", "agent_score", "partner_score", "rounds", "walked_by", "invalid_moves"):
        assert getattr(fast, field) == getattr(full, field), field
    assert [e.to_json() for e in fast.events] == [e.to_json() for e in full.events]
    assert fast.events == full.events and fast == full and repr(fast) == repr(full)


def path_taken(proto, domain, a, b, pv) -> str:
    """Which path ``proto`` takes for ``a`` (agent) and ``b`` (partner) on ``domain``:
    "offers only", "words", or "tuple" (the full path's events)."""
    from simcore.protocols.alternating import _MovesLog

    events = proto.run(domain, a, b, domain.agent, pv, "p")._events
    return events.path if type(events) is _MovesLog else type(events).__name__
