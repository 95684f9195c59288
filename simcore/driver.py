"""The driver: the one loop that plays a game with its agents.

::

    while (seat := state.to_act) is not None:
        state.apply(agents[seat].act(state.observe(seat)))

``simcore run``, the Python API, the PettingZoo environment (:mod:`simcore.env`),
:func:`simcore.testing.check_policy` and the NegMAS bridge all call :func:`play`; none has a
loop of its own, so their transcripts agree by construction.

An action the state refuses (:class:`~simcore.errors.IllegalMove`) or an exception inside
an agent's ``act`` is blamed on that agent: for a built-in agent it is a bug in simcore
(``IllegalMove`` naming the agent, the seat and the decision); for a seat the user filled
(``users``) it is that agent's fault, an :class:`~simcore.errors.AgentError` naming it.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Mapping, Optional

from simcore.errors import AgentError, IllegalMove, SimcoreError


def play(state: Any, agents: Mapping[str, Any], *, until: Optional[Callable[[str], bool]] = None,
         users: Collection[str] = ()) -> Any:
    """Step ``state`` with ``agents`` (seat -> agent) until the negotiation is over, or until
    ``until(seat)`` is true of the seat to act; returns ``state.outcome`` (``None`` when
    stopped before the end)."""
    while True:
        seat = state.to_act
        if seat is None or (until is not None and until(seat)):
            return state.outcome
        agent = agents[seat]
        observation = state.observe(seat)
        try:
            action = agent.act(observation)
        except SimcoreError:
            raise
        except Exception as exc:
            if seat in users:
                raise _user_fault(agent, seat, observation, f"act() raised {type(exc).__name__}: {exc}") from exc
            raise
        try:
            state.apply(action)
        except IllegalMove as exc:
            step = getattr(observation, "step", "?")
            if seat in users:
                raise _user_fault(agent, seat, observation, f"illegal move {exc.move!r}: {exc.rule}") from None
            raise blame(exc, agent, seat, step) from None


def _user_fault(agent: Any, seat: str, observation: Any, problem: str) -> AgentError:
    return AgentError(label(agent), seat, getattr(observation, "step", "?"), problem)


def label(agent: Any) -> str:
    """What an error calls ``agent``: its ``label`` (a wrapper a system puts around a user's
    agent names the user's class so), else its class's name."""
    got = getattr(agent, "label", None)
    return got if isinstance(got, str) and got else type(agent).__name__


def blame(exc: IllegalMove, agent: Any, seat: str, step: str) -> IllegalMove:
    """``exc`` raised by ``apply`` for ``agent``'s action, as the error of that agent: its
    class, the seat and the decision asked."""
    who = getattr(agent, "name", None)
    kind = type(agent).__name__
    label = f"{kind} {who!r}" if isinstance(who, str) and who and who != kind else kind
    return IllegalMove(exc.rule, policy=f"{label} in seat {seat!r} ({step})", move=exc.move)
