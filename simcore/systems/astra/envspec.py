"""ASTRA in the PettingZoo environment (:mod:`simcore.env`): its seats, spaces and payoffs.

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

from scenarios.bilateral import load_domain
from simcore.argcheck import seed_sequence
from simcore.contract import Match
from simcore.registry import registered, resolve
from simcore.protocols.alternating import AlternatingGame
from simcore.systems.astra.match import VoicedSeat, check_options, episode_match
from simcore.systems.astra.registry import SYSTEM
from simcore.systems.astra.render import render_run


#: check_policy's round limit: twice the study's, so that late rounds are played
CHECK_ROUNDS = 30
DEFAULTS = {"agent": "astra-agent-v3", "partner": "base-partner-v2"}


class AstraEnv:
    system = SYSTEM

    @staticmethod
    def check(options: dict) -> None:
        check_options(options)

    @staticmethod
    def seats(options: dict) -> tuple[str, ...]:
        return ("agent", "partner")

    @staticmethod
    def match(seq, options: dict) -> Match:
        return episode_match(seed_sequence(seq), **options)

    @staticmethod
    def action_count(options: dict, seat: str) -> int:
        return len(load_domain(options.get("domain", "casino-v1")).outcomes) + 3

    @staticmethod
    def feature_count(options: dict) -> int:
        return AlternatingGame().feature_count(load_domain(options.get("domain", "casino-v1")))

    @staticmethod
    def decision(state, seat: str, index: int) -> Any:
        return state.game.decision(state, seat, index)

    @staticmethod
    def mask(state, seat: str):
        return state.game.mask(state, seat)

    @staticmethod
    def features(state, seat: str):
        return state.game.features(state, seat)

    @staticmethod
    def voice(match: Match, seat: str, agent) -> Any:
        return VoicedSeat(agent, match.setups[seat])

    @staticmethod
    def rewards(match: Match, result) -> dict:
        ep = result[0]
        return {"agent": ep.agent_score, "partner": ep.partner_score}

    @staticmethod
    def truncated(result) -> bool:
        return result[0].status == "no_agreement"

    @staticmethod
    def render(events) -> str:
        return render_run(events) if events else ""

    # -- simcore.testing.check_policy -------------------------------------------------
    @staticmethod
    def check_seats() -> tuple[str, ...]:
        return ("agent", "partner")

    @staticmethod
    def steps(seat: str) -> tuple[str, ...]:
        return ("turn",)

    @staticmethod
    def opponents(seat: str) -> list[str]:
        """Every built-in agent of the other seat: the partners (the Partner-Base family and the
        others) for a policy in the agent's seat, the agents for one in the partner's."""
        role = "partner" if seat == "agent" else "agent"
        return [i for i in registered("policy", system=SYSTEM) if resolve("policy", i).meta.get("role") == role]

    @staticmethod
    def check_match(seq, seat: str, policy: Any, opponent: Any, rounds: Any) -> Match:
        """A negotiation with ``policy`` in ``seat`` against ``opponent`` (None: the seat's
        default, replaced by random legal play), over :data:`CHECK_ROUNDS` rounds unless told,
        with the noise-free mock (what the check finds is the policy's, not the words')."""
        other = "partner" if seat == "agent" else "agent"
        seats = {seat: policy, other: opponent if opponent is not None else DEFAULTS[other]}
        return episode_match(seq, rounds=rounds or CHECK_ROUNDS, backend="mock-exact-v1", **seats)

    @staticmethod
    def findings(match: Match, result, seat: str) -> list[tuple]:
        """The seat's offers the game refused as invalid (the domain cannot hold them)."""
        return [(e.round, f"its offer was refused as invalid: {e.intent.get('reason')} "
                          f"(stated: {e.intent.get('stated')!r})")
                for e in result[0].events if e.phase == "invalid" and e.intent.get("player") == seat]


ENV = AstraEnv()
