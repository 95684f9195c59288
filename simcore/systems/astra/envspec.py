"""ASTRA for the drivers outside ``simcore run``: the PettingZoo environment and ``check_policy``.

Options (``simcore.make_env("astra", **options)``, each as :func:`simcore.astra_episode` takes
it): ``agent``, ``partner``, ``domain``, ``setup``, ``rounds``, ``backend``,
``partner_values``, ``no_deal_payoff``, ``notice_rounds``.

Actions of either seat, ``Discrete(n + 3)`` for a domain of ``n`` outcomes: ``i < n`` an offer
of outcome ``i`` (:attr:`Domain.outcomes` order), then accept, walk away, talk (a greeting).
Observation: :meth:`simcore.protocols.alternating.AlternatingGame.features`.  Payoff: the
seat's score (0, or the BATNA under ``no_deal_payoff="batna"``, without a deal).
"""

from __future__ import annotations

from typing import Any

from simcore.contract import Match
from simcore.envspec import EnvSpec
from simcore.seats import Voiced
from simcore.systems.astra.match import OPTIONS, episode_match, say
from simcore.systems.astra.registry import AGENTS, DEFAULT_BASE_PARTNER, SYSTEM

#: check_policy's round limit: twice the study's, so that late rounds are played
CHECK_ROUNDS = 30
#: the seats' defaults: the study's ASTRA and its default partner
DEFAULTS = {"agent": AGENTS["astra"], "partner": DEFAULT_BASE_PARTNER}


class AstraEnv(EnvSpec):
    system, options = SYSTEM, OPTIONS

    def match(self, seq, options: dict) -> Match:
        return episode_match(seq, **options)

    def seats(self, probe: Match) -> tuple[str, ...]:
        return ("agent", "partner")

    def voice(self, match: Match, seat: str, agent: Any) -> Any:
        return Voiced(agent, match.setups[seat], say)

    def rewards(self, match: Match, result) -> dict:
        ep = result[0]
        return {"agent": ep.agent_score, "partner": ep.partner_score}

    def truncated(self, result) -> bool:
        return result[0].status == "no_agreement"

    # -- simcore.testing.check_policy -------------------------------------------------
    def check_match(self, seq, seat: str, policy: Any, opponent: Any, rounds: Any) -> Match:
        """A negotiation with ``policy`` in ``seat`` against ``opponent`` over :data:`CHECK_ROUNDS`
        rounds unless told, with the noise-free mock (what the check finds is the policy's, not
        the words')."""
        other = "partner" if seat == "agent" else "agent"
        seats = {seat: policy, other: opponent if opponent is not None else DEFAULTS[other]}
        return episode_match(seq, rounds=rounds or CHECK_ROUNDS, backend="mock-exact-v1", **seats)

    def findings(self, match: Match, result, seat: str) -> list[tuple]:
        """The seat's offers the game refused as invalid (the domain cannot hold them)."""
        return [(e.round, f"its offer was refused as invalid: {e.intent.get('reason')} "
                          f"(stated: {e.intent.get('stated')!r})")
                for e in result[0].events if e.phase == "invalid" and e.intent.get("player") == seat]


ENV = AstraEnv()
