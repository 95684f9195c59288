"""One MIND group's negotiation set up: the one entry that ``simcore run mind``,
``simcore.mind_group``, the environment and ``check_policy`` share.

:func:`start` seats every member of the group (:mod:`simcore.seats`: ``policy`` for every
member, ``seats`` for the members it overrides), starts the game
(:class:`~simcore.protocols.travel_vote.TravelVoteGame`) and returns a
:class:`~simcore.contract.Match` whose ``finish`` gives the
:class:`~simcore.protocols.travel_vote.GroupOutcome` with the variant's name and the model
fallbacks the group's client counted.  :func:`play_group` plays one to the end.

The words: one language client and one generator per group (and variant), shared by every
member -- each member's voice asks the same client with the same generator, so the calls
and their seeds are those of one conversation, in the order of MIND's Algorithm 1.

Who may sit in a seat: a registered MIND-family id (``mind-v2``, ``base-v3``, ...), a
policy object of simcore's (:class:`~policies.mind.MindPolicy`,
:class:`~policies.mad.MadPolicy`, the role wrapper :class:`~simcore.systems.mind.model_roles.BaseRole`),
or a user's agent -- by class, instance, ``package.module:Class`` or registered id --
that has ``act(observation)`` (returning an Action, or a bare Vote / Update that the
seat's voice says: :class:`~simcore.systems.mind.agents.VoicedSeat`) or the structured
policy interface (``vote``, ``update``, ``guess``, ``tone``, ``appraisal``:
:class:`~simcore.systems.mind.agents.MindSeat`).  A class is built once per seat (with the
:class:`~simcore.contract.SeatSetup` fields its ``__init__`` names, and ``items`` /
``preferences``: the negotiated items and the member's own preferences); an instance is
used as it is in every seat it is given.  A user's agent gets its own generator,
``child(<the words generator's SeedSequence>, "seat", SEAT)``, which the words never draw
from; its faults are its own (:class:`~simcore.errors.AgentError`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence, Union

import attrs
import numpy as np

from mockllm.client import ModelClient
from policies.mad import MadPolicy
from policies.mind import MindPolicy
from scenarios.travel import Group, generate_group, item as get_item
from simcore.argcheck import whole
from simcore.backends import backend_object
from simcore.contract import Match, SeatSetup
from simcore.errors import InputError
from simcore.protocols.travel_vote import GroupOutcome, TravelVoteGame
from simcore.registry import is_builtin, make
from simcore.seats import policy_spec, seat
from simcore.seeding import child
from simcore.systems.mind.agents import MindSeat, VoicedSeat, adapter, voice_for
from simcore.systems.mind.model_roles import BaseRole

SYSTEM = "mind"
#: the policy a seat given None gets
DEFAULT_POLICY = "mind-v2"
#: simcore's own policy classes: their objects are built-in agents (their faults are simcore's)
BUILTIN_POLICIES = (MindPolicy, MadPolicy, BaseRole)


def start(group: Group, policy: Any, proposers: Sequence[int], client: ModelClient, rng: Any,
          run_id: Union[str, Callable[[str], str]], *, max_rounds: int = 3,
          seats: Optional[Mapping[str, Any]] = None) -> Match:
    """The negotiation of ``group`` with ``policy`` in every member's seat (``seats``:
    ``{"m1": value}`` for members played otherwise; a value None leaves the member to
    ``policy``), ``proposers`` one member index per item, the words through ``client`` with
    call seeds from ``rng``.  ``run_id`` is the transcript's run, or a function of the
    group policy's name that gives it."""
    if not isinstance(group, Group):
        raise InputError("group", type(group).__name__, "expected a scenarios.travel.Group")
    names = tuple(f"m{i}" for i in range(group.size))
    overrides = {s: v for s, v in dict(seats or {}).items() if v is not None}
    for s in overrides:
        if s not in names:
            raise InputError("seats", repr(s), f"no such seat; this group's seats are {', '.join(names)}")
    base = _builtin_policy(policy, "policy")
    agents: dict[str, Any] = {}
    users = set()
    variant = getattr(base, "name", None)
    for i, s in enumerate(names):
        value, name = (overrides[s], f"seats[{s!r}]") if s in overrides else (policy, "policy")
        obj = base if value is policy else _builtin_policy(value, name)
        if obj is not None:
            agents[s] = MindSeat(obj, voice_for(obj, client, rng))
            continue
        setup = SeatSetup(SYSTEM, s, _items(group), _preferences(group, i), _seat_rng(rng, s),
                          client)
        seated = seat(value, setup, name=name, builtin=lambda spec: _builtin_seat(spec, client, rng),
                      aliases={"items": setup.scenario, "preferences": setup.private},
                      adapt=adapter(name, client, rng))
        agent = seated.agent
        if seated.user and not isinstance(agent, MindSeat):
            agent = VoicedSeat(agent, voice_for(agent, client, rng))
        agents[s] = agent
        if seated.user:
            users.add(s)
        if value is policy and variant is None:
            variant = getattr(agent, "name", None)
    if not isinstance(variant, str) or not variant:
        variant = "policy"
    state = TravelVoteGame(max_rounds).start(group, proposers, run_id if isinstance(run_id, str) else run_id(variant))

    def finish(state) -> GroupOutcome:
        return attrs.evolve(state.outcome, variant=variant, fallbacks=client.stats.fallbacks)

    setups = {s: SeatSetup(SYSTEM, s, _items(group), _preferences(group, i), rng, client)
              for i, s in enumerate(names)}
    return Match(state, agents, frozenset(users), finish, setups)


def play_group(group: Group, policy: Any, proposers: Sequence[int], client: ModelClient, rng: Any,
               run_id: Union[str, Callable[[str], str]], *, max_rounds: int = 3,
               seats: Optional[Mapping[str, Any]] = None) -> GroupOutcome:
    """:func:`start`'s negotiation played to the end: its :class:`GroupOutcome`."""
    return start(group, policy, proposers, client, rng, run_id, max_rounds=max_rounds, seats=seats).run()


#: the options of :func:`group_match` (the API's and the environment's)
OPTIONS = ("policy", "size", "proposers", "backend", "max_rounds", "group", "seats")


def group_match(seq, *, policy: Any = DEFAULT_POLICY, size: int = 3, proposers: Optional[Sequence[int]] = None,
                backend: Any = "mock-v1", max_rounds: int = 3, group: Optional[Group] = None,
                seats: Optional[Mapping[str, Any]] = None) -> Match:
    """:func:`start` from the arguments the public API takes, each checked first (one
    :class:`~simcore.errors.InputError` line naming it), from the SeedSequence ``seq``: its
    three children give the group (``size`` members, unless ``group`` is given), the
    proposers (unless given: one member index per item) and the words' generator.  The run
    id is ``mind/api/<the policy's name>``."""
    whole("max_rounds", max_rounds, 1)
    if seats is not None and not isinstance(seats, Mapping):
        raise InputError("seats", type(seats).__name__, 'expected a mapping of seats to agents, e.g. {"m1": "base-v3"}')
    streams = seq.spawn(3)
    if group is None:
        if not isinstance(size, int) or isinstance(size, bool) or not 2 <= size <= 8:
            raise InputError("size", repr(size), "a group has 2 to 8 members")
        group = generate_group("api", size, np.random.default_rng(streams[0]))
    elif not isinstance(group, Group):
        raise InputError("group", type(group).__name__, "expected a scenarios.travel.Group or None")
    if proposers is None:
        pick = np.random.default_rng(streams[1])
        proposers = [int(pick.integers(group.size)) for _ in group.items]
    client = ModelClient(backend_object(backend))
    return start(group, policy, list(proposers), client, np.random.default_rng(streams[2]),
                 lambda name: f"{SYSTEM}/api/{name}", max_rounds=max_rounds, seats=seats)


def _builtin_policy(value: Any, name: str) -> Any:
    """The policy object of a built-in agent ``value`` names (an object of simcore's policy
    classes, or a registered id of simcore's own), else None (a user's agent)."""
    if isinstance(value, BUILTIN_POLICIES):
        return value
    if isinstance(value, str) and ":" not in value:
        spec = policy_spec(value, name, SYSTEM)
        if is_builtin("policy", spec.id):
            return make("policy", spec.id)
    return None


def _builtin_seat(spec, client: ModelClient, rng: Any) -> MindSeat:
    pol = make("policy", spec.id if spec is not None else DEFAULT_POLICY)
    return MindSeat(pol, voice_for(pol, client, rng))


def _items(group: Group) -> tuple:
    return tuple(get_item(k) for k in group.items)


def _preferences(group: Group, i: int) -> tuple:
    m = group.members[i]
    return tuple(m.pref(k) for k in group.items)


def _seat_rng(rng: Any, seat_name: str):
    """A user seat's own generator: below the words generator's SeedSequence (which it does
    not change), keyed by the seat."""
    return child(rng.bit_generator.seed_seq, "seat", seat_name)


__all__ = ["start", "play_group", "DEFAULT_POLICY", "BUILTIN_POLICIES", "SYSTEM"]
