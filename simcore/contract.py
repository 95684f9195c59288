"""The game contract every system implements and the agent contract every seat fills.

A **game** starts a **state** from a scenario.  A state is a state machine in the manner of
OpenSpiel's ``State``:

* ``to_act`` -- the seat whose decision is next (``None`` once the negotiation is over);
* ``observe(seat)`` -- what that seat may know now: the public record, its own private
  values, and which decision is asked (``observation.step``);
* ``legal(seat)`` -- a :class:`Legal`: the decisions allowed now (finite where the set is
  finite) and a check for any action;
* ``apply(action)`` -- plays the action of the seat to act, or raises
  :class:`~simcore.errors.IllegalMove` naming the rule it breaks (the state is then
  unchanged);
* ``outcome`` -- the result once over (``None`` before), and ``transcript``, the events so
  far (:class:`~simcore.transcript.Transcript`).

A state holds no generator and never calls an agent.  An **agent** fills a seat:
``act(observation) -> action``, and optionally ``reset(setup)`` with its
:class:`SeatSetup` before a negotiation.  The driver (:mod:`simcore.driver`) is the one
loop that asks the state whose turn it is, gives that seat its observation, and applies
the action; ``simcore run``, the Python API, the PettingZoo environment,
:func:`simcore.testing.check_policy` and the NegMAS bridge all use it.

This module and :mod:`simcore.driver` are the layer every package may import: they import
nothing of simcore's but the errors.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol, Sequence, runtime_checkable

import attrs

from simcore.driver import play
from simcore.errors import IllegalMove


@attrs.frozen
class Legal:
    """What a seat may do now.

    ``check(action)`` returns ``""`` for a legal action and otherwise the reason it is not;
    ``decisions`` lists every legal decision when the set is finite (a vote, a deal among a
    game's deals), and is ``None`` where it is open (a free utterance); ``describe`` says in
    words what is allowed."""

    step: str
    describe: str
    check: Callable[[Any], str] = attrs.field(eq=False, repr=False)
    decisions: Optional[tuple] = None

    def why_not(self, action: Any) -> str:
        """``""`` when ``action`` is legal, else why not."""
        return self.check(action)


@attrs.frozen
class SeatSetup:
    """What an agent gets before a negotiation (``agent.reset(setup)``), and what a class
    named for a seat is built with (each ``__init__`` keyword of these names is passed).

    ``scenario`` is the public scenario (a bilateral domain, a scorable game, a travel
    group's items, a restaurant domain); ``private`` what only this seat knows (its
    valuation, preferences or willingness); ``rng`` its own generator, derived from the
    run's root seed by seat; ``client`` its language client (a
    :class:`mockllm.client.ModelClient`) or ``None`` where the seat does not speak."""

    system: str
    seat: str
    scenario: Any
    private: Any
    rng: Any
    client: Any = None


@runtime_checkable
class Agent(Protocol):
    """Fills a seat of a game: the action for the decision its observation asks."""

    def act(self, observation: Any) -> Any: ...


class State(Protocol):
    """One negotiation in progress (see the module docstring)."""

    seats: tuple[str, ...]

    @property
    def to_act(self) -> Optional[str]: ...

    def observe(self, seat: str) -> Any: ...

    def legal(self, seat: str) -> Legal: ...

    def apply(self, action: Any) -> None: ...

    @property
    def outcome(self) -> Any: ...


class Game(Protocol):
    """Starts states; the registry entry of a system's protocol.

    The finite view (for the PettingZoo environment and random play) is part of the game:
    ``action_count(state, seat)`` decisions indexed ``0..n-1``, ``decision(state, seat, i)``
    the decision of index ``i``, ``mask(state, seat)`` which indices are legal now, and
    ``features(state, seat)`` a fixed-size numeric view of the seat's observation."""

    system: str

    def seats(self, state: State) -> tuple[str, ...]: ...


def illegal(rule: str, move: Any) -> IllegalMove:
    """The :class:`IllegalMove` a state raises (the driver adds who made the move)."""
    return IllegalMove(rule, move=move)


def seat_order(seats: Sequence[str]) -> tuple[str, ...]:
    """The seats as a tuple of distinct names (checked: a game's seats are its identity)."""
    out = tuple(seats)
    if len(set(out)) != len(out) or not all(isinstance(s, str) and s for s in out):
        raise ValueError(f"seats must be distinct non-empty names, got {out!r}")
    return out


@attrs.define
class Match:
    """A negotiation set up and ready to play: the state, the agent in each seat, which seats
    the user filled (their faults are theirs: :class:`~simcore.errors.AgentError`), and
    ``finish(state)``, what the system records once the state is over (its result).

    Each system has one function that sets a match up; ``simcore run``, the Python API, the
    PettingZoo environment and :func:`simcore.testing.check_policy` all start from it, so they
    play the same negotiation.  :meth:`run` plays it to the end with the driver."""

    state: Any
    agents: dict
    users: frozenset = frozenset()
    finish: Callable[[Any], Any] = attrs.field(default=lambda state: state.outcome, repr=False)
    #: each seat's :class:`SeatSetup` (its client and generator: a seat's default voice uses them)
    setups: dict = attrs.field(factory=dict, repr=False)

    def run(self) -> Any:
        """Play to the end (:func:`simcore.driver.play`) and return :attr:`finish`'s result."""
        play(self.state, self.agents, users=self.users)
        return self.finish(self.state)
