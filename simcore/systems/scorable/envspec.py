"""The scorable game for the drivers outside ``simcore run``: the PettingZoo environment and
``check_policy``.

Options (``simcore.make_env("scorable", **options)``, each as :func:`simcore.scorable_session`
takes it): ``method``, ``game``, ``backend``, ``settings``, ``seats``.  Seats: the parties'
short names.

Actions of every seat, ``Discrete(D)`` over the game's ``D`` deals (lexicographic order of the
option indices; at turn 0 only the game's initial deal is legal).  Observation:
:meth:`simcore.protocols.scorable.ScorableGame.features`.  Payoff (seed sec. 2): a party's
score of the final deal when it passes, else its threshold (its BATNA).
"""

from __future__ import annotations

from typing import Any

from simcore.contract import Match
from simcore.envspec import EnvSpec
from simcore.registry import registered, resolve
from simcore.systems.scorable.agents import VoicedSeat
from simcore.systems.scorable.match import OPTIONS, session_match
from simcore.systems.scorable.methods import METHODS
from simcore.systems.scorable.registry import SYSTEM
from simcore.systems.scorable.render import render_run


class ScorableEnv(EnvSpec):
    system = SYSTEM
    options = tuple(o for o in OPTIONS if o != "seed")

    def match(self, seq, options: dict) -> Match:
        return session_match(seed=seq, **options)

    def voice(self, match: Match, seat: str, agent: Any) -> Any:
        state = match.state
        return VoicedSeat(agent, match.setups[seat], state.scenario, state.seats.index(seat),
                          state.game.settings.cues_per_turn)

    def rewards(self, match: Match, result) -> dict:
        game = match.state.scenario
        final = match.state.history[-1].deal
        passes = result.record["PAR"]
        return {p.short: float(game.score(n, final)) if passes else float(p.threshold)
                for n, p in enumerate(game.parties)}

    def render(self, events) -> str:
        return render_run(events) if events else ""

    # -- simcore.testing.check_policy -------------------------------------------------
    def steps(self, seat: str) -> tuple[str, ...]:
        return ("propose",)

    def opponents(self, seat: str, policy: Any) -> list[str]:
        """The parties of every method (the built-in negotiators of each configuration); for a
        registered method (a configuration of the whole session), that method's session."""
        method = _method_of(policy)
        return [method] if method is not None else list(METHODS)

    def check_match(self, seq, seat: str, policy: Any, opponent: Any, rounds: Any) -> Match:
        """A session of the seed's game with ``policy`` in ``seat`` and the method ``opponent``'s
        negotiators in the other seats (a registered method plays its whole session), the
        noise-free mock speaking."""
        method = _method_of(policy)
        seats = {} if method is not None else {seat: policy}
        return session_match(method or opponent or "proposed-all", seed=seq, backend="mock-exact-v1", seats=seats)


def _method_of(policy: Any):
    """The method a registered scorable method id names, else None (a user's agent)."""
    if isinstance(policy, str) and ":" not in policy and policy in registered("policy", system=SYSTEM):
        return resolve("policy", policy).kwargs.get("method")
    return None


ENV = ScorableEnv()
