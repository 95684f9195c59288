"""The buy-sell game in the PettingZoo environment (:mod:`simcore.env`), in ``check_policy`` and in
the API (:func:`episode`).

Options (``simcore.make_env("buysell", **options)``): those of
:func:`simcore.systems.buysell.match.episode_match`: ``seller``, ``buyer``, ``cost``, ``value``,
``budget``, ``turns``, ``enforce_limit``, ``backend``.  Actions of either seat, ``Discrete(budget +
3)``: ``i <= budget`` a proposal at price ``i``, then ACCEPT, REJECT.  Observation:
:meth:`simcore.protocols.buysell.BuySellGame.features` (8 numbers).  Payoff: the seat's payoff
(0 without a trade).
"""

from __future__ import annotations

from typing import Any

from simcore.argcheck import seed_sequence
from simcore.contract import Match
from simcore.envspec import EnvSpec
from simcore.protocols.buysell import Episode
from simcore.seats import Voiced
from simcore.systems.buysell.match import OPTIONS, episode_match, say
from simcore.systems.buysell.registry import SYSTEM


class BuySellEnv(EnvSpec):
    system, options, move = SYSTEM, OPTIONS, "proposal"
    #: check_policy's games: twice the study's turn limit, so that late turns are played; the noise-free mock
    check_options, rounds_option = {"turns": 20, "backend": "mock-exact-v1"}, "turns"

    def match(self, seq, options: dict) -> Match:
        return episode_match(seq, **options)

    def voice(self, match: Match, seat: str, agent) -> Any:
        return Voiced(agent, match.setups[seat], say)

    def rewards(self, match: Match, result) -> dict:
        return {"seller": result[0].seller_payoff, "buyer": result[0].buyer_payoff}

    def truncated(self, result) -> bool:
        return result[0].status == "turn_limit"


ENV = BuySellEnv()


def episode(seller: Any = None, buyer: Any = None, *, seed: Any = 0, **options: Any) -> Episode:
    """One buy-sell game (the paper's section-one scenario unless told): ``seller`` and ``buyer`` a
    study name (``gpt-4``, ``claude-2.1`` ...), a registered id or your agent (docs/api.md);
    ``options`` those of :func:`~simcore.systems.buysell.match.episode_match`.  Returns the
    :class:`~simcore.protocols.buysell.Episode`."""
    options = dict(options, seller=seller, buyer=buyer)
    ENV.check(options)
    return ENV.match(seed_sequence(seed), options).run()[0]
