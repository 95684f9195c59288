"""One dominance dialogue set up: the one entry that ``simcore run dominance``,
``simcore.dominance_dialogue``, ``simcore chat dominance`` and the conformance checks share.

:func:`start` fills both seats from a ``seats`` mapping (``{"agent": value, "user": value}``),
gives each its voice -- the language path's :class:`~policies.dominance.Voice` (the chat
backend) or :class:`~policies.dominance.DirectVoice` (the mock in-process) on the seat's own
generator, both voices on one :class:`~mockllm.client.ModelClient` -- and returns a
:class:`~simcore.contract.Match` over :class:`~simcore.protocols.dialogue.DialogueGame`.
A seat takes

* a relation (``dominant``, ``peer``, ``submissive``: the study's names) -- the built-in
  :class:`~policies.dominance.DominanceAgent` of that relation with the seat's ``params``;
* ``None`` -- the built-in ``dominance-peer-v3``;
* a registered policy id (``dominance-dominant-v3``) -- its built-in agent with the entry's
  parameters (``params`` for the seat, when given, override them);
* a user's agent -- a class, a factory, an instance or a ``"package.module:Class"`` path
  (:mod:`simcore.seats`; a class is built with the keywords its ``__init__`` names among
  ``seat``, ``domain``, ``prefs``, ``rng``, ``client``, ``setup``), seated in a
  :class:`~simcore.systems.dominance.agents.UserSeat` with the seat's voice.

``finish(state)`` gives ``(DialogueResult, {seat: agent}, CallStats)``: the dialogue, the
agents that played it (the built-in ones, or the user's), and the model calls of both seats
with each reading the game refused counted as a ``dominance-read`` fallback (once: call it
once per match).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from policies.dominance import AgentParams, DirectVoice, DominanceAgent, Voice
from policies.dominance_state import RELATIONS, random_preferences
from scenarios.restaurants import load_domain
from simcore import caches
from simcore import seeding
from simcore.argcheck import whole
from simcore.contract import Match, SeatSetup
from simcore.errors import InputError
from simcore.protocols.dialogue import SEATS, DialogueGame
from simcore.registry import resolve
from simcore.seats import seat
from simcore.systems.dominance.agents import UserSeat
from simcore.systems.dominance.registry import DEFAULT_POLICY, SYSTEM

LANGUAGES = ("backend", "direct")

_BACKENDS: dict = caches.memo("simcore.systems.dominance: the mock backend by garble")


def mock_backend(garble: float = 0.0) -> MockBackend:
    """The exact mock backend with ``garble`` noise; one per noise level, so its memoised
    reader serves every dialogue of a process."""
    backend = _BACKENDS.get(garble)
    if backend is None:
        backend = _BACKENDS[garble] = MockBackend(exact=True, dominance_garble=garble)
    return backend


def start(domain, seats: Mapping[str, Any], *, prefs: Mapping[str, Any], rngs: Mapping[str, Any], first: str,
          run_id: str, max_turns: int = 40, params: Optional[Mapping[str, AgentParams]] = None,
          backend: Any = None, language: str = "backend") -> Match:
    """One dialogue on ``domain`` that seat ``first`` opens (the module docstring).

    ``prefs`` and ``rngs`` give each seat its preferences (``None`` for a seat that needs
    none, such as a scripted user) and its generator (one generator may serve both seats: the
    draws then interleave as the seats speak); ``params`` each built-in seat's
    :class:`~policies.dominance.AgentParams`; ``backend`` the chat backend of the ``backend``
    language path (default: the exact mock)."""
    if language not in LANGUAGES:
        raise InputError("language", repr(language), f"valid: {', '.join(LANGUAGES)}")
    params = params or {}
    client = ModelClient(backend if backend is not None else mock_backend(0.0))
    agents: dict = {}
    played: dict = {}
    setups: dict = {}
    relations: dict = {}
    users = set()
    for s in SEATS:
        rng, mine = rngs[s], prefs.get(s)
        setup = SeatSetup(SYSTEM, s, domain, mine, rng, client)
        voice = Voice(domain, client, rng) if language == "backend" else DirectVoice(domain, rng)
        value = seats.get(s)
        if isinstance(value, str) and value in RELATIONS:
            agent = DominanceAgent(s, value, domain, mine, params=params.get(s) or AgentParams(), voice=voice)
            seated_by_user = False
        else:
            seated = seat(value, setup, name=s, builtin=_builtin(s, domain, mine, params.get(s), voice),
                          aliases={"domain": domain, "prefs": mine})
            agent, seated_by_user = seated.agent, seated.user
        relation = agent.relation if isinstance(getattr(agent, "relation", None), str) else "external"
        played[s], relations[s], setups[s] = agent, relation, setup
        if seated_by_user:
            users.add(s)
            agents[s] = UserSeat(agent, voice, relation)
        else:
            agents[s] = agent
    state = DialogueGame(max_turns).start(domain, first, run_id, prefs=prefs, relations=relations)

    def finish(state) -> tuple:
        result = state.outcome
        for _ in range(result.misreadings):  # a reading the game refused: the reader's counted fallback
            client.stats.count_fallback("dominance-read")
        return result, played, client.stats

    return Match(state, agents, frozenset(users), finish, setups)


def _builtin(seat_name: str, domain, prefs, params: Optional[AgentParams], voice):
    """The builder of a seat's built-in agent from its registry entry (None: the default)."""
    def build(spec) -> DominanceAgent:
        spec = spec if spec is not None else resolve("policy", DEFAULT_POLICY)
        return spec.load()(**spec.kwargs).build(seat_name, domain, prefs, params=params, voice=voice)

    return build


def dialogue_match(seq, *, agent: Any = DEFAULT_POLICY, user: Any = DEFAULT_POLICY,
                   domain: str = "restaurants-small-v1", max_turns: int = 40, agent_opens: bool = True) -> Match:
    """One dialogue as :func:`simcore.dominance_dialogue` sets it up from the SeedSequence
    ``seq``: ``domain`` loaded (an id or a file), each side's preferences drawn from
    ``child(seq, "agent-prefs")`` / ``child(seq, "user-prefs")``, its generator
    ``child(seq, "agent")`` / ``child(seq, "user")``, the language through the exact mock."""
    whole("max_turns", max_turns, 2)
    dom = load_domain(domain)
    prefs = {"agent": random_preferences(dom, seeding.child(seq, "agent-prefs")),
             "user": random_preferences(dom, seeding.child(seq, "user-prefs"))}
    return start(dom, {"agent": agent, "user": user}, prefs=prefs,
                 rngs={"agent": seeding.child(seq, "agent"), "user": seeding.child(seq, "user")},
                 first="agent" if agent_opens else "user", run_id=f"{SYSTEM}/api", max_turns=max_turns)


def play_dialogue(domain, agent: Any, user: Any, prefs_agent, prefs_user, *, rng_agent, rng_user, agent_opens: bool,
                  run_id: str, params: AgentParams = AgentParams(), user_params: Optional[AgentParams] = None,
                  max_turns: int = 40, backend: Any = None, language: str = "backend") -> tuple:
    """One dialogue played to the end: ``(DialogueResult, {seat: agent}, CallStats)``.
    ``agent`` and ``user`` are seat values (:func:`start`; the study's relations); ``params``
    are the agent's (and the user's, unless ``user_params`` is given)."""
    return start(domain, {"agent": agent, "user": user}, prefs={"agent": prefs_agent, "user": prefs_user},
                 rngs={"agent": rng_agent, "user": rng_user}, first="agent" if agent_opens else "user",
                 run_id=run_id, max_turns=max_turns, params={"agent": params, "user": user_params or params},
                 backend=backend, language=language).run()

