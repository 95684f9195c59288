"""What a system tells the drivers outside ``simcore run``: the PettingZoo environment
(:mod:`simcore.env`) and :func:`simcore.testing.check_policy`.

Each system's package exports ``ENV``, an :class:`EnvSpec`.  A system writes the parts only it
knows -- its set-up from the API's options (:meth:`EnvSpec.match`), the voice that says a bare
decision and the payoffs -- and inherits the rest, read off its game, its registry and its
package: the seats, the finite view (``action_count``, ``decision``, ``mask``, ``features`` of
the game's class) and the spaces' sizes, measured once on a negotiation set up with the options
(a probe); the rendering (its package's ``render_run``); and for ``check_policy`` the decisions a
seat is asked for (the probe's ``observation.step``), the opponents (its registered policies
whose ``meta["role"]`` is another seat, or that name no role), the checked negotiation (its
set-up with :attr:`EnvSpec.check_options`) and the findings (the seat's moves the game refused
as invalid).  A system overrides any of them where its game needs more.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from simcore.argcheck import seed_sequence
from simcore.catalog import part
from simcore.contract import Match
from simcore.errors import InputError
from simcore.registry import registered, resolve


class EnvSpec:
    """The base every system's ``ENV`` extends (the module docstring)."""

    #: the system's name (a key of :data:`simcore.catalog.STUDIES`)
    system: str = ""
    #: the options :meth:`match` takes (``make_env(system, **options)``)
    options: tuple[str, ...] = ()
    #: the options :meth:`check_match` sets up a checked negotiation with (besides the seats),
    #: and the option its ``rounds`` sets when given
    check_options: dict = {}
    rounds_option: str = "rounds"
    #: what :meth:`findings` calls a move of the seat that the game refused
    move: str = "move"

    # -- the parts a system writes ----------------------------------------------------------
    def match(self, seq, options: dict) -> Match:
        """One negotiation set up from the SeedSequence ``seq`` and the API's ``options``."""
        raise NotImplementedError

    def voice(self, match: Match, seat: str, agent: Any) -> Any:
        """``agent`` in ``seat``, its bare decisions said by the seat's default voice."""
        raise NotImplementedError

    def rewards(self, match: Match, result: Any) -> dict:
        """Each seat's payoff once the negotiation is over (``result``: the match's finish)."""
        raise NotImplementedError

    def truncated(self, result: Any) -> bool:
        """True when the negotiation ended by its limit rather than by a decision."""
        return False

    def render(self, events: Sequence) -> str:
        """The negotiation so far, step by step: the system's ``render_run``."""
        return part(self.system, "render_run")(events) if events else ""

    def steps(self, seat: str) -> tuple[str, ...]:
        """Every kind of decision ``seat`` can be asked for (``observation.step``): a game with
        one kind of decision gives it on its first observation."""
        return (self.probe({}).state.observe(seat).step,)

    def opponents(self, seat: str, policy: Any) -> list:
        """The built-in agents to check a policy in ``seat`` against (values for the other seats):
        the system's registered policies whose ``meta["role"]`` is another seat, or that name no role."""
        others = [s for s in self.check_seats() if s != seat]
        return [i for i in registered("policy", system=self.system)
                if resolve("policy", i).meta.get("role", others[0]) in others]

    def check_match(self, seq, seat: str, policy: Any, opponent: Any, rounds: Optional[int]) -> Match:
        """A negotiation with ``policy`` in ``seat`` and ``opponent`` in the others (None: the
        defaults, which random legal play then replaces), long enough to reach late rounds: the
        system's set-up with :attr:`check_options`, ``rounds`` (when given) as its
        :attr:`rounds_option`, and the seats as options."""
        seats = {s: policy if s == seat else opponent for s in self.check_seats()}
        return self.match(seq, {**self.check_options, **({self.rounds_option: rounds} if rounds else {}), **seats})

    def findings(self, match: Match, result: Any, seat: str) -> list[tuple]:
        """What the game accepted of ``seat`` but a policy should not do: ``(turn, what)`` pairs;
        the seat's moves the game refused as invalid (``invalid`` events naming it as ``player``)."""
        return [(e.round, f"its {self.move} was refused as invalid: {e.intent.get('reason')}")
                for e in match.state.transcript if e.phase == "invalid" and e.intent.get("player") == seat]

    # -- read off the game ----------------------------------------------------------------
    def check(self, options: dict) -> None:
        """One line naming an option :meth:`match` does not take."""
        bad = sorted(set(options) - set(self.options))
        if bad:
            raise InputError("options", ", ".join(bad), f"valid: {', '.join(self.options)}")

    def probe(self, options: dict) -> Match:
        """A negotiation set up with ``options`` (seed 0), to read the game's shape from."""
        return self.match(seed_sequence(0), options)

    def seats(self, probe: Match) -> tuple[str, ...]:
        return tuple(probe.state.seats)

    def check_seats(self) -> tuple[str, ...]:
        return self.seats(self.probe({}))

    def action_count(self, probe: Match, seat: str) -> int:
        state = probe.state
        return state.game.action_count(state, seat)

    def feature_count(self, probe: Match) -> int:
        state = probe.state
        return len(state.game.features(state, state.seats[0]))

    def decision(self, state, seat: str, index: int) -> Any:
        return state.game.decision(state, seat, index)

    def mask(self, state, seat: str):
        return state.game.mask(state, seat)

    def features(self, state, seat: str):
        return state.game.features(state, seat)
