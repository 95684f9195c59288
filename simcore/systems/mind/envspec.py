"""MIND for the drivers outside ``simcore run``: the PettingZoo environment and ``check_policy``.

Options (``simcore.make_env("mind", **options)``, each as :func:`simcore.mind_group` takes it):
``policy``, ``size``, ``proposers``, ``backend``, ``max_rounds``, ``group``, ``seats``.  Seats
``m0`` .. ``m{size-1}``.

Actions of every seat, ``Discrete(1 + 2K)`` (``K``: the most options an item of the catalogue
has): 0 the opening (Phase 1), AGREE, or KEEP the proposal; ``1..K`` DISAGREE with option
``k-1`` or UPDATE to it; ``K+1..2K`` COMPROMISE on option ``k-1``
(:meth:`simcore.protocols.travel_vote.TravelVoteGame.action_count`).  Observation:
:meth:`~simcore.protocols.travel_vote.TravelVoteGame.features`.  Payoff: the member's
satisfaction, the sum of its willingness over the items settled on its own value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from scenarios.travel import generate_group
from simcore.contract import Match
from simcore.envspec import EnvSpec
from simcore.systems.mind.agents import VoicedSeat, voice_for
from simcore.systems.mind.match import DEFAULT_POLICY, OPTIONS, group_match
from simcore.systems.mind.registry import SYSTEM

#: check_policy's group: three members; the checked seat proposes every other item
CHECK_SIZE = 3


class MindEnv(EnvSpec):
    system, options = SYSTEM, OPTIONS

    def match(self, seq, options: dict) -> Match:
        return group_match(seq, **options)

    def voice(self, match: Match, seat: str, agent: Any) -> Any:
        setup = match.setups[seat]
        return VoicedSeat(agent, voice_for(agent, setup.client, setup.rng))

    def rewards(self, match: Match, result) -> dict:
        return {s: float(sum(it.ws[i] * (it.values[i] == it.final) for it in result.items))
                for i, s in enumerate(match.state.seats)}

    # -- simcore.testing.check_policy -------------------------------------------------
    def check_seats(self) -> tuple[str, ...]:
        return tuple(f"m{i}" for i in range(CHECK_SIZE))

    def steps(self, seat: str) -> tuple[str, ...]:
        return ("propose", "vote", "update")

    def check_match(self, seq, seat: str, policy: Any, opponent: Any, rounds: Any) -> Match:
        """A group of :data:`CHECK_SIZE` with ``policy`` in ``seat`` and ``opponent`` in the
        others; the checked seat proposes every other item (so that it is asked to update),
        the rest are drawn from ``seq``; the noise-free mock speaks."""
        rng = np.random.default_rng(seq.spawn(1)[0])
        group = generate_group("check", CHECK_SIZE, rng)
        me = int(seat[1:])
        proposers = [me if j % 2 == 0 else int(rng.integers(CHECK_SIZE)) for j in range(len(group.items))]
        return group_match(seq, policy=opponent if opponent is not None else DEFAULT_POLICY, group=group,
                           proposers=proposers, backend="mock-exact-v1", seats={seat: policy},
                           max_rounds=rounds or 3)

    def findings(self, match: Match, result, seat: str) -> list[tuple]:
        """The seat's inferences of another's willingness outside the scale (1-10): what its
        ``guess`` gave (or its reading) when it appraised."""
        me = match.state.seats.index(seat)
        return [(a.round, f"it inferred a willingness of {a.used_w!r} for {match.state.seats[a.speaker]} "
                          f"(phase {a.phase}, item {it.item}): outside the scale 1-10")
                for it in result.items for a in it.appraisals
                if a.reader == me and not (isinstance(a.used_w, int) and 1 <= a.used_w <= 10)]


ENV = MindEnv()
