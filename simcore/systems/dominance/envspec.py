"""The dominance dialogue in the PettingZoo environment (:mod:`simcore.env`) and in
:func:`simcore.testing.check_policy`: its seats, spaces and payoffs.

Options (``simcore.make_env("dominance", **options)``, each as
:func:`simcore.dominance_dialogue` takes it): ``agent``, ``user``, ``domain``, ``max_turns``,
``agent_opens``.

Actions of either seat, ``Discrete(n)`` over the domain's ``n`` utterances
(:func:`simcore.protocols.dialogue.catalogue` order): at ``open`` / ``reply`` the move (the
seat's voice says it), at ``read`` the reading of the other side's words.  Observation:
:meth:`simcore.protocols.dialogue.DialogueGame.features`.  Payoff: the seat's satisfaction with
the booked restaurant, its own option utility min-max normalised (0 to 1; 0 without a booking).
"""

from __future__ import annotations

from typing import Any

from policies.dominance import DEFAULT_OPTION_SHARE
from policies.dominance_state import OptionJudge
from scenarios.restaurants import load_domain
from simcore.argcheck import seed_sequence
from simcore.contract import Match
from simcore.errors import InputError
from simcore.protocols.dialogue import READ, DialogueGame, catalogue
from simcore.registry import registered
from simcore.seeding import child
from simcore.systems.dominance.agents import UserSeat
from simcore.systems.dominance.match import dialogue_match
from simcore.systems.dominance.registry import DEFAULT_POLICY, SEATS, SYSTEM
from simcore.systems.dominance.render import render_run

OPTIONS = ("agent", "user", "domain", "max_turns", "agent_opens")
#: check_policy's turn limit: the study's 40
CHECK_TURNS = 40


def satisfaction(domain, prefs, option: Any) -> float:
    """A seat's satisfaction with the booked ``option``: its own option utility, min-max
    normalised over the domain (0 without a booking or without preferences)."""
    if option is None or not prefs:
        return 0.0
    return float(OptionJudge.build(domain, prefs, DEFAULT_OPTION_SHARE).normalised(option))


class DominanceEnv:
    system = SYSTEM

    @staticmethod
    def check(options: dict) -> None:
        bad = sorted(set(options) - set(OPTIONS))
        if bad:
            raise InputError("options", ", ".join(bad), f"valid: {', '.join(OPTIONS)}")

    @staticmethod
    def seats(options: dict) -> tuple[str, ...]:
        return SEATS

    @staticmethod
    def match(seq, options: dict) -> Match:
        return dialogue_match(seed_sequence(seq), **options)

    @staticmethod
    def action_count(options: dict, seat: str) -> int:
        return len(catalogue(load_domain(options.get("domain", "restaurants-small-v1"))))

    @staticmethod
    def feature_count(options: dict) -> int:
        return DialogueGame().feature_count(load_domain(options.get("domain", "restaurants-small-v1")))

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
        """``agent`` in ``seat`` with the seat's own voice (that of the agent it replaces)."""
        return UserSeat(agent, match.agents[seat].voice, match.state.relations[seat])

    @staticmethod
    def rewards(match: Match, result) -> dict:
        dialogue = result[0]
        state = match.state
        return {s: satisfaction(state.domain, state.prefs[s], dialogue.booked) for s in SEATS}

    @staticmethod
    def truncated(result) -> bool:
        return result[0].outcome == "turn-limit"

    @staticmethod
    def render(events) -> str:
        return render_run(events) if events else ""

    # -- simcore.testing.check_policy -------------------------------------------------
    @staticmethod
    def check_seats() -> tuple[str, ...]:
        return SEATS

    @staticmethod
    def steps(seat: str) -> tuple[str, ...]:
        return ("open", "reply", READ)

    @staticmethod
    def opponents(seat: str) -> list[str]:
        """Every built-in policy (either seat takes any of them)."""
        return list(registered("policy", system=SYSTEM))

    @staticmethod
    def check_match(seq, seat: str, policy: Any, opponent: Any, turns: Any) -> Match:
        """A dialogue with ``policy`` in ``seat`` against ``opponent`` (None: the default
        policy, replaced by random legal play), over :data:`CHECK_TURNS` utterances unless
        told, the opener drawn from the seed (so that each seat opens in some runs), with the
        noise-free mock (what the check finds is the policy's, not the words')."""
        other = SEATS[1] if seat == SEATS[0] else SEATS[0]
        seats = {seat: policy, other: opponent if opponent is not None else DEFAULT_POLICY}
        return dialogue_match(seq, max_turns=turns or CHECK_TURNS, agent_opens=bool(child(seq, "opener").integers(2)),
                              **seats)

    @staticmethod
    def findings(match: Match, result, seat: str) -> list[tuple]:
        """The seat's model errors the game caught: a reading it gave that no legal move of the
        other side could be, a move that rests on a misreading."""
        return [(turn, what) for turn, who, what in match.state.faults if who == seat]


ENV = DominanceEnv()
