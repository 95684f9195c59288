"""The dominance dialogue for the drivers outside ``simcore run``: the PettingZoo environment
(:mod:`simcore.env`) and :func:`simcore.testing.check_policy`.

Options (``simcore.make_env("dominance", **options)``, each as :func:`simcore.dominance_dialogue`
takes it): ``agent``, ``user``, ``domain``, ``max_turns``, ``agent_opens``.

Actions of either seat, ``Discrete(n)`` over the domain's ``n`` utterances
(:func:`simcore.protocols.dialogue.catalogue` order; 196 on the small domain): at ``open`` /
``reply`` the move (the seat's voice says it), at ``read`` the reading of the other side's
words.  Observation: :meth:`simcore.protocols.dialogue.DialogueGame.features`.  Payoff: the
seat's satisfaction with the booked restaurant, its own option utility min-max normalised (0 to
1; 0 without a booking).
"""

from __future__ import annotations

from typing import Any

from policies.dominance import DEFAULT_OPTION_SHARE
from policies.dominance_state import OptionJudge
from simcore.contract import Match
from simcore.envspec import EnvSpec
from simcore.protocols.dialogue import OPEN, READ, REPLY
from simcore.seeding import child
from simcore.systems.dominance.agents import UserSeat
from simcore.systems.dominance.match import dialogue_match
from simcore.systems.dominance.registry import DEFAULT_POLICY, SEATS, SYSTEM

OPTIONS = ("agent", "user", "domain", "max_turns", "agent_opens")
#: check_policy's turn limit: the study's 40
CHECK_TURNS = 40


def satisfaction(domain, prefs, option: Any) -> float:
    """A seat's satisfaction with the booked ``option``: its own option utility, min-max
    normalised over the domain (0 without a booking or without preferences)."""
    if option is None or not prefs:
        return 0.0
    return float(OptionJudge.build(domain, prefs, DEFAULT_OPTION_SHARE).normalised(option))


class DominanceEnv(EnvSpec):
    system, options = SYSTEM, OPTIONS

    def match(self, seq, options: dict) -> Match:
        return dialogue_match(seq, **options)

    def voice(self, match: Match, seat: str, agent: Any) -> Any:
        """``agent`` in ``seat`` with the seat's own voice (that of the agent it replaces)."""
        return UserSeat(agent, match.agents[seat].voice, match.state.relations[seat])

    def rewards(self, match: Match, result) -> dict:
        dialogue, state = result[0], match.state
        return {s: satisfaction(state.domain, state.prefs[s], dialogue.booked) for s in SEATS}

    def truncated(self, result) -> bool:
        return result[0].outcome == "turn-limit"

    # -- simcore.testing.check_policy -------------------------------------------------
    def steps(self, seat: str) -> tuple[str, ...]:
        return (OPEN, REPLY, READ)

    def check_match(self, seq, seat: str, policy: Any, opponent: Any, turns: Any) -> Match:
        """A dialogue with ``policy`` in ``seat`` against ``opponent`` (None: the default
        policy, replaced by random legal play), over :data:`CHECK_TURNS` utterances unless
        told, the opener drawn from the seed (so that each seat opens in some runs), with the
        noise-free mock (what the check finds is the policy's, not the words')."""
        other = SEATS[1] if seat == SEATS[0] else SEATS[0]
        seats = {seat: policy, other: opponent if opponent is not None else DEFAULT_POLICY}
        return dialogue_match(seq, max_turns=turns or CHECK_TURNS, agent_opens=bool(child(seq, "opener").integers(2)),
                              **seats)

    def findings(self, match: Match, result, seat: str) -> list[tuple]:
        """The seat's model errors the game caught: a reading it gave that no legal move of the
        other side could be, a move that rests on a misreading."""
        return [(turn, what) for turn, who, what in match.state.faults if who == seat]


ENV = DominanceEnv()
