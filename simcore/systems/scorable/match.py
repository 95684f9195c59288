"""One scorable session set up: the one entry that ``simcore run scorable`` and
``simcore.scorable_session`` share (and the registered methods' ``play`` and conformance runs).

:func:`start` draws the speaking order, starts the game (:class:`ScorableGame`), builds the
session model (:class:`~simcore.systems.scorable.model.SessionModel`) and fills every party's
seat (:mod:`simcore.seats`): ``None`` is the built-in negotiator of the session's method
(:class:`~simcore.systems.scorable.agents.Negotiator`); a user's agent -- a class, an
instance, a factory, ``"package.module:Class"`` or a registered id of the system -- sits in
its :class:`~simcore.systems.scorable.agents.VoicedSeat`.  It returns a
:class:`~simcore.contract.Match` whose ``finish`` reads the turns still unread, makes the
session's result event and returns the :class:`SessionResult`.

Every party's seat gets the session's one language client (the seed's parties are the same
LLM; its counts are the session's) and a generator of its own, ``child(seq, "seat", SHORT)``,
which only a user's seat uses (its voice).  The method is the session's: a built-in id in a
seat must name it.

Randomness: the speaking order ``child(seq, "order")``; each turn's cues and the calls of a
built-in speaker's turn ``child(seq, "turn", t)`` (:class:`TurnDraws`, shared by the methods
of a trial); the reading of a user's turn ``child(seq, "read", t)``; the scorable.negotiator
role ``child(seq, METHOD, "role", "scorable.negotiator")``.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import attrs

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from scenarios.scorable import Game, load_game
from simcore.argcheck import _registered_id, seed_sequence
from simcore.backends import backend_object
from simcore.contract import Match, SeatSetup
from simcore.errors import InputError
from simcore.protocols.scorable import ScorableGame, Settings, public_game, session_order
from simcore.registry import resolve
from simcore.role_backends import role_client
from simcore.seats import seat
from simcore.seeding import child
from simcore.systems.scorable.agents import Negotiator, VoicedSeat
from simcore.systems.scorable.methods import METHODS
from simcore.systems.scorable.model import SessionModel, TurnDraws
from simcore.systems.scorable.model_roles import NegotiatorRole
from simcore.systems.scorable.registry import SYSTEM
from simcore.transcript import Event

ROLE = "scorable.negotiator"


@attrs.frozen
class SessionResult:
    """One session: the game's transcript, the result event, the record (FAR/PAR/LAR, p1's
    MSE and its trace, readings, model calls), and the session client's fallbacks and
    per-task counts (``role_stats``: the scorable.negotiator role's client, when a backend
    plays it).  ``events`` is the transcript followed by the result event."""

    transcript: Any = attrs.field(eq=lambda t: tuple(t), repr=False)
    result: Event
    record: dict = attrs.field(factory=dict)
    fallbacks: int = 0
    calls: dict = attrs.field(factory=dict)  # model-call counts per task (CallStats.task_counts)
    role_stats: tuple = ()

    @property
    def events(self) -> tuple[Event, ...]:
        return (*self.transcript, self.result)


def start(game: Game, method: str, seq: Any, *, settings: Settings = Settings(), backend: Any = None,
          run_id: str = "scorable/session", draws: Optional[TurnDraws] = None,
          seats: Optional[Mapping[str, Any]] = None, roles: tuple = ()) -> Match:
    """One session of ``game`` with ``method`` (a key of :data:`METHODS`) from the SeedSequence
    ``seq`` (or a non-negative int).

    ``draws`` shares the per-turn cues among several methods of the same trial (``seq``,
    ``game`` and ``settings.cues_per_turn`` must be the ones it was made with).  ``seats``:
    ``{party short name: agent}`` for the parties a user's agent plays (module docstring).
    ``roles``: ``(role, backend)`` pairs (``--role``); ``scorable.negotiator`` plays the
    proposals of every built-in party that does not estimate in ``method``."""
    if method not in METHODS:
        raise InputError("method", repr(method), f"valid: {', '.join(METHODS)}")
    seq = seed_sequence(seq, "seq")
    if draws is None:
        draws = TurnDraws(game, seq, settings.cues_per_turn)
    elif draws.seq is not seq or draws.game is not game or draws.cues_per_turn != settings.cues_per_turn:
        raise ValueError("start: draws were made for another trial, game or cues_per_turn")
    shorts = [p.short for p in game.parties]
    seats = dict(seats or {})
    unknown = [k for k in seats if k not in shorts]
    if unknown:
        raise InputError("seats", ", ".join(map(str, unknown)), f"no such party; the seats are {', '.join(shorts)}")
    if backend is None:
        backend = MockBackend()
    client = ModelClient(backend)
    rules = ScorableGame(settings)
    state = rules.start(game, session_order(game, seq), run_id)
    model = SessionModel(game, method, settings, client, draws, seq)
    r_client = role_client(roles, ROLE, backend, record=True)
    role = NegotiatorRole(r_client, child(seq, method, "role", ROLE), game) if r_client is not None else None
    public = public_game(game)
    agents, users, setups = {}, set(), {}
    for n, short in enumerate(shorts):
        setup = SeatSetup(SYSTEM, short, public, game.parties[n], child(seq, "seat", short), client)
        free = not model.estimating[n]

        def builtin(spec, n=n, free=free) -> Negotiator:
            if spec is not None and spec.kwargs.get("method") != method:
                raise InputError(f"seats[{shorts[n]}]", spec.id, f"is a method of the whole session (method="
                                 f"{spec.kwargs.get('method')!r}); this session's is {method!r}")
            return Negotiator(model, n, role if free else None)

        seated = seat(seats.get(short), setup, name=f"seats[{short}]", builtin=builtin,
                      aliases={"game": public, "party": n})
        agents[short] = (VoicedSeat(seated.agent, setup, game, n, settings.cues_per_turn) if seated.user
                         else seated.agent)
        if seated.user:
            users.add(short)
        setups[short] = setup

    def finish(state) -> SessionResult:
        if state.outcome is None:
            raise ValueError("finish: the session is not over")
        model.catch_up(state.history)
        return session_result(state, model, run_id, (r_client.stats,) if r_client is not None else ())

    return Match(state, agents, frozenset(users), finish, setups)


def session_result(state, model: SessionModel, run_id: str, role_stats: tuple) -> SessionResult:
    """A finished session's record and result event (p1's final estimation error, the
    readings and the session client's calls: facts of the parties' side the game does not hold)."""
    game, out, client = state.scenario, state.outcome, model.client
    shorts = state.seats
    N, T = game.n_parties, state.last_turn
    mse_p1 = model.p1_errors()
    record = {"method": model.method, "final": game.deal_str(out.final),
              "accepted_by": [shorts[j] for j in range(N) if out.accepted[j]],
              "FAR": out.far, "PAR": out.par, "LAR": out.lar, "mse": mse_p1, "readings": model.reading,
              "fallbacks": client.stats.fallbacks, "calls": client.stats.calls}
    result = Event(run=run_id, seq=len(out.deals), speaker="protocol", phase="result", round=T,
                   intent={"deal": list(game.deal_ids(out.final))},
                   text=f"final deal {game.deal_str(out.final)}: accepted by {len(record['accepted_by'])}/{N}; "
                        f"{'passes' if out.par else 'fails'}",
                   hidden={**{k: v for k, v in record.items() if k != "mse"},
                           "mse": {k: round(v, 2) for k, v in mse_p1.items()},
                           "game": game.id, "parties": list(shorts)})
    record["mse_trace"] = model.mse_trace if mse_p1 else []  # p1's average MSE after each turn
    return SessionResult(state.transcript, result, record, client.stats.fallbacks, client.stats.task_counts(),
                         role_stats)


#: the options of :func:`session_match` (the API's)
OPTIONS = ("method", "game", "seed", "backend", "settings", "seats")


def session_match(method: Any = "scorable-proposed-all-v1", *, game: Any = "harbour-sport-park-v1", seed: Any = 0,
                  backend: Any = "mock-v1", settings: Any = None, seats: Optional[Mapping[str, Any]] = None) -> Match:
    """:func:`start` from the arguments the public API takes, each checked first (one
    :class:`~simcore.errors.InputError` line naming it): ``method`` a registered id
    (``scorable-proposed-all-v1``) or its study name (``proposed-all``); ``game`` a scenario id
    or a game file (or a loaded :class:`~scenarios.scorable.Game`); ``settings`` a
    :class:`Settings` (None: the defaults); ``backend`` a registered id or an object with
    ``chat()``; ``seats`` ``{party short name: agent}``.  The run id is ``scorable/api/<method>``."""
    seq = seed_sequence(seed)
    if isinstance(method, str) and method in METHODS:
        name = method
    else:
        name = resolve("policy", _registered_id("policy", method, "method", SYSTEM)).kwargs["method"]
    if settings is None:
        settings = Settings()
    elif not isinstance(settings, Settings):
        raise InputError("settings", type(settings).__name__, "expected simcore.protocols.scorable.Settings")
    if seats is not None and not isinstance(seats, Mapping):
        raise InputError("seats", type(seats).__name__, "expected a mapping {party short name: agent}")
    scenario = game if isinstance(game, Game) else load_game(game)
    return start(scenario, name, seq, settings=settings, backend=backend_object(backend),
                 run_id=f"{SYSTEM}/api/{name}", seats=seats)

