"""One buy-sell game set up: the one entry that ``simcore run buysell``, the API (``episode``), the
PettingZoo environment and ``check_policy`` share.

:func:`start` fills both seats (:mod:`simcore.seats`: a study name, a registry id, an import path, a
class or an instance) and returns a :class:`~simcore.contract.Match` whose ``finish`` gives
``(Episode, record)``.  Randomness: each seat's generator is ``child(seq, SEAT)``.
"""

from __future__ import annotations

from typing import Any

from mockllm.client import ModelClient
from policies.buysell import speak
from simcore.argcheck import whole
from simcore.backends import backend_object
from simcore.contract import Match, SeatSetup
from simcore.errors import InputError
from simcore.protocols.buysell import ANSWERS, SEATS, Action, BuySellGame, Episode, Scenario
from simcore.registry import make
from simcore.seats import Voiced, seat
from simcore.seeding import child
from simcore.systems.buysell.registry import DEFAULTS, NAMES, SYSTEM


def say(action: Any, setup: SeatSetup) -> Any:
    """The seat's default voice (:class:`simcore.seats.Voiced`): ``buysell.speak`` with the seat's own
    client and generator says a legal-looking decision without words; anything else is passed on
    for the game to judge."""
    market = setup.scenario
    if (not isinstance(action, Action) or action.text or action.stated is not None or setup.client is None
            or action.answer not in ANSWERS or (action.answer == "PROPOSAL" and not (
                type(action.price) is int and 0 <= action.price <= market.budget))):
        return action
    _said, stated, text = speak(setup.client, setup.rng, setup.seat, action.answer, action.price, market)
    return action._replace(text=text, stated=stated)


def start(scenario: Scenario, seq, *, seller: Any = None, buyer: Any = None, run_id: str, backend: Any = None,
          turns: int = 10, enforce_limit: bool = True, stats: Any = None) -> Match:
    """One game of ``scenario`` from the SeedSequence ``seq``; ``seller`` / ``buyer``: a study name
    (:data:`~simcore.systems.buysell.registry.NAMES`), a registry id or a user's agent (None: the
    seat's default stand-in).  ``stats`` (a :class:`mockllm.client.CallStats`), when given, gets both
    seats' model-call counts at the finish."""
    backend = backend if backend is not None else make("backend", "mock-v1")
    market, seated, setups = scenario.market, {}, {}
    for name, value in (("seller", seller), ("buyer", buyer)):
        setup = setups[name] = SeatSetup(SYSTEM, name, market, scenario.private(name), child(seq, name),
                                         ModelClient(backend))

        def builtin(spec, name=name, setup=setup) -> Any:
            return make("policy", spec.id if spec is not None else DEFAULTS[name], seat=name, private=setup.private,
                        scenario=market, client=setup.client, rng=setup.rng)

        value = NAMES[name].get(value, value) if isinstance(value, str) else value
        seated[name] = seat(value, setup, name=name, builtin=builtin, role=name)
    agents = {s: Voiced(x.agent, setups[s], say) if x.user else x.agent for s, x in seated.items()}
    state = BuySellGame(turns=turns, enforce_limit=enforce_limit).start(scenario, run_id)

    def finish(state) -> tuple:
        ep: Episode = state.outcome
        if stats is not None:
            for s in SEATS:
                stats.add(setups[s].client.stats)
        record = {"status": ep.status, "price": ep.price, "seller_payoff": ep.seller_payoff,
                  "buyer_payoff": ep.buyer_payoff, "turns": ep.turns, "invalid_moves": ep.invalid_moves,
                  "cost": scenario.cost, "value": scenario.value,
                  "fallbacks": sum(setups[s].client.stats.fallbacks for s in SEATS)}
        return ep, record

    return Match(state, agents, frozenset(s for s, x in seated.items() if x.user), finish, setups)


#: the options of :func:`episode_match` (the API's and the environment's)
OPTIONS = ("seller", "buyer", "cost", "value", "budget", "turns", "enforce_limit", "backend")


def episode_match(seq, *, seller: Any = None, buyer: Any = None, cost: int = 40, value: int = 60, budget: int = 100,
                  turns: int = 10, enforce_limit: bool = True, backend: Any = "mock-v1") -> Match:
    """:func:`start` from the arguments the API takes, each checked first (one
    :class:`~simcore.errors.InputError` line naming it).  The run id is ``buysell/api``."""
    scenario = Scenario(whole("cost", cost, 0), whole("value", value, 0), whole("budget", budget, 1))
    if not isinstance(enforce_limit, bool):
        raise InputError("enforce_limit", repr(enforce_limit), "must be True or False")
    return start(scenario, seq, seller=seller, buyer=buyer, run_id=f"{SYSTEM}/api", backend=backend_object(backend),
                 turns=whole("turns", turns, 2), enforce_limit=enforce_limit)

