"""Agents of users for the scorable game's seat tests (importable as ``tests.scorable_agents:Name``)."""

from __future__ import annotations

import itertools

from simcore.protocols.scorable import Proposal


def best_deal(observation) -> tuple:
    """The deal the seat's own table scores highest (the first of them in lexicographic order)."""
    rows = observation.own.scores
    return tuple(max(range(len(row)), key=lambda o, row=row: (row[o], -o)) for row in rows)


class Greedy:
    """Opens with the initial deal when it must, then always proposes its own best deal (bare)."""

    def __init__(self, seat: str, party: int):
        self.seat, self.party = seat, party
        self.seen = []

    def act(self, observation):
        self.seen.append(observation)
        if observation.turn == 0:
            return observation.game.initial_deal
        return best_deal(observation)


class Talker:
    """Proposes the deal on the table again, in its own words."""

    def act(self, observation):
        deal = observation.table or observation.game.initial_deal
        return Proposal(deal, "We keep " + " ".join(observation.game.deal_ids(deal)) + ".")


class OffTheBoard:
    """Proposes an option the first issue does not have."""

    def act(self, observation):
        return (99,) + tuple(0 for _ in observation.game.issues[1:])


def every_deal(observation):
    """All deals of the observation's game, lexicographic (the finite view's order)."""
    return list(itertools.product(*[range(k) for k in observation.game.option_counts]))
