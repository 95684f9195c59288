"""simcore's public Python API: one function per system, names that match the registry ids.

Everything a user needs to test their own negotiation logic against the paper systems is
here (and re-exported from the package root); the other modules are internal and may change.
docs/users/api.md shows each function with a runnable example (CI runs them).

* :func:`mind_group` -- one MIND group negotiated by a registered variant or your policy;
* :func:`astra_episode` -- one bilateral episode, ASTRA (or your agent) against a partner;
* :func:`scorable_session` -- one scorable-game session of an opponent-modelling method;
* :func:`posterior` -- the Bayesian opponent model of the scorable seed, to update yourself;
* :func:`dominance_dialogue` -- one restaurant dialogue, a dominance agent (or your agent) and a user;
* :func:`register`, :func:`make`, :func:`registered`, :func:`roles` -- the registry and the
  LLM-role inventory.

Every argument is checked before any work: an unknown id names the valid ones, a seed must be a
non-negative int or a ``numpy.random.SeedSequence``, a policy must be a registered id of the
system (or an object with the system's policy interface), and each error is one
:class:`~simcore.errors.InputError` line naming the argument.
"""

from __future__ import annotations

from typing import Any, Sequence

from policies.bayes import Posterior, hypothesis_space
from scenarios.scorable import load_game
from simcore.argcheck import seed_sequence
from simcore.catalog import STUDIES, part
from simcore.errors import InputError
from simcore.registry import make as _make, register as _register, registered as _registered
from simcore.roles import roles as _roles
from simcore.systems.astra.match import episode_match as astra_match
from simcore.systems.astra.registry import AGENTS as ASTRA_AGENTS, DEFAULT_BASE_PARTNER
from simcore.systems.dominance.match import dialogue_match as dominance_match
from simcore.systems.mind.match import group_match as mind_match
from simcore.systems.scorable.match import session_match as scorable_match


# ------------------------------------------------------------------ any system
def negotiate(system: str, *, seed: Any = 0, **options: Any):
    """One negotiation of any system (a key of ``simcore.catalog.STUDIES``: the four papers'
    and any other system installed), set up from the options its environment takes
    (``make_env(system, **options)``: docs/users/env.md lists them; the seats' agents among them)
    and played to the end: the system's result, as its set-up's finish gives it (ASTRA:
    ``(Episode, record)``; MIND: a ``GroupOutcome``; scorable: a ``SessionResult``;
    dominance: ``(DialogueResult, agents, call counts)``)."""
    if system not in STUDIES:
        raise InputError("system", repr(system), f"valid: {', '.join(STUDIES)}")
    spec = part(system, "ENV")
    spec.check(options)
    return spec.match(seed_sequence(seed), options).run()


# ------------------------------------------------------------------ MIND
def mind_group(policy: Any = "mind-v2", *, size: int = 3, seed: Any = 0, proposers: Sequence[int] | None = None,
               backend: Any = "mock-v1", max_rounds: int = 3, group: Any = None, seats: Any = None):
    """One MIND group (section 3.2, Algorithm 1) negotiated by ``policy`` for every member.

    ``policy``: a registered MIND-family id (``mind-v2``, ``base-v3``, ``tone-only-v3``, ...) or
    your agent -- a class (built once per member), an instance, or ``"package.module:Class"`` --
    with ``act(observation)`` (docs/users/api.md, "Your own agent"), or with ``vote(me, proposal,
    guessed_w, last_offer)``, ``update(me, proposal, dissents, n_voters)``, ``guess(guessed_w)``
    and the flags ``tone`` / ``appraisal`` ("Your own policy").  ``seats``: ``{"m1": value}``
    for members played by another policy or agent (the same kinds of value).  ``group``: a
    :class:`scenarios.travel.Group`, or None for a generated one of ``size`` members.
    ``proposers``: one member index per negotiated item (None: drawn from the seed).  Returns the
    :class:`simcore.protocols.travel_vote.GroupOutcome`."""
    return mind_match(seed_sequence(seed), policy=policy, size=size, proposers=proposers, backend=backend,
                      max_rounds=max_rounds, group=group, seats=seats).run()


# ------------------------------------------------------------------ ASTRA
def astra_episode(agent: Any = ASTRA_AGENTS["astra"], partner: Any = DEFAULT_BASE_PARTNER, *, domain: str = "casino-v1",
                  setup: str = "integrative", seed: Any = 0, rounds: int = 15, backend: Any = "mock-v1",
                  partner_values: Any = None, no_deal_payoff: str = "zero", notice_rounds: int = 2):
    """One ASTRA episode (section 2, Table 1): ``agent`` in the agent's seat against ``partner``.

    The defaults are the study's: ASTRA (``astra-agent-v4``, ``simcore run astra``'s ``astra``)
    against the default partner (``base-partner-v2``).  Each seat takes a registered ASTRA policy
    id (``astra-agent-v4``, ``no-astra-agent-v2``, ``base-partner-v2``, ``greedy-partner-v1``,
    ...), or your agent -- a class, an instance, a
    factory or a ``"package.module:Class"`` path -- with ``act(observation) -> Action``
    (docs/users/api.md); a class is built with the keywords its ``__init__`` names among ``domain``,
    ``values``, ``client``, ``rng``, ``seat``.  ``domain``: ``casino-v1``,
    ``research-allocation-v1`` or a domain file; ``setup`` one of its setups;
    ``partner_values`` the partner's :class:`scenarios.bilateral.Valuation` (None: drawn from
    the setup's pool by the seed); ``no_deal_payoff`` ``"zero"`` (Table 1) or ``"batna"``;
    ``notice_rounds`` the rounds left when the deadline notice is given (0: none).  Returns the
    :class:`simcore.protocols.alternating.Episode` (status, scores, events)."""
    match = astra_match(seed_sequence(seed), agent=agent, partner=partner, domain=domain, setup=setup,
                        rounds=rounds, backend=backend, partner_values=partner_values,
                        no_deal_payoff=no_deal_payoff, notice_rounds=notice_rounds)
    return match.run()[0]


# ------------------------------------------------------------------ scorable
def scorable_session(method: str = "scorable-proposed-all-v1", *, game: str = "harbour-sport-park-v1",
                     seed: Any = 0, backend: Any = "mock-v1", settings: Any = None, seats: Any = None):
    """One session of the scorable game (seed sec. 2) with an opponent-modelling method.

    ``method``: a registered id (``scorable-base-llm-v1``, ``scorable-proposed-all-v1``, ...) or
    its study name (``proposed-all``): the built-in parties' configuration.  ``game``: a scenario
    id or a game file.  ``settings``: a :class:`simcore.protocols.scorable.Settings` (None: the
    defaults).  ``seats``: ``{party short name: agent}`` for the parties your agents play -- a
    class, an instance, a factory, a ``"package.module:Class"`` path or a registered id, with
    ``act(observation)`` returning a deal (one option index per issue; the seat's voice says it)
    or a :class:`simcore.protocols.scorable.Proposal` (docs/users/api.md).  Returns the
    :class:`simcore.systems.scorable.match.SessionResult` (events and its FAR/PAR/LAR record)."""
    return scorable_match(method, game=game, seed=seed, backend=backend, settings=settings, seats=seats).run()


def posterior(game: str = "harbour-sport-park-v1"):
    """A fresh Bayesian opponent model (seed sec. 3, eqs. 2-5) over ``game``'s hypothesis space:
    a :class:`policies.bayes.Posterior`; ``.update(deal, target, sigma, signals)`` takes a deal
    the opponent proposed (option indices), the assumed conceder target, the likelihood's sigma
    and the signals read from its words; ``.estimate()`` gives its expected score table."""
    return Posterior(hypothesis_space(load_game(game).option_counts))


# ------------------------------------------------------------------ dominance
def dominance_dialogue(agent: Any = "dominance-peer-v3", user: Any = "dominance-peer-v3", *,
                       domain: str = "restaurants-small-v1", seed: Any = 0, max_turns: int = 40,
                       agent_opens: bool = True):
    """One restaurant dialogue (seed sections 2-5) between the agent's and the user's seats.

    Each seat takes a registered dominance policy id (``dominance-dominant-v3``,
    ``dominance-peer-v3``, ``dominance-submissive-v3``, and the older versions), or your agent
    -- a class, an instance, a factory or a ``"package.module:Class"`` path -- with
    ``act(observation)`` (docs/users/api.md); a class is built with the keywords its ``__init__``
    names among ``domain``, ``prefs`` (the seat's own preferences), ``seat``, ``rng``,
    ``client``.  ``domain``: ``restaurants-small-v1``, ``restaurants-420-v1`` or a domain
    file.  Returns the :class:`simcore.protocols.dialogue.DialogueResult` (outcome, booked,
    events)."""
    return dominance_match(seed_sequence(seed), agent=agent, user=user, domain=domain, max_turns=max_turns,
                           agent_opens=agent_opens).run()[0]


# ------------------------------------------------------------------ registry
def register(kind: str, id: str, entry_point: Any, kwargs=None, description: str = "", meta=None, *,
             replace: bool = False):
    """Register your own scenario / policy / protocol / backend under a versioned id
    (``name-v1``); ``meta={"system": "astra", "role": "agent"}`` seats a policy in a system's
    study (docs/users/api.md)."""
    return _register(kind, id, entry_point, kwargs, description, meta, replace=replace)


def make(kind: str, id: str, **overrides: Any):
    """Build a registered thing by id (``make("policy", "mind-v2")``)."""
    return _make(kind, id, **overrides)


def registered(kind: str, *, system: str | None = None) -> list[str]:
    """The registered ids of ``kind`` (of ``system`` only, when given)."""
    return _registered(kind, system=system)


def roles(system: str | None = None):
    """The roles each paper gives to an LLM, with their stand-ins and evidence (simcore.roles)."""
    return _roles(system)


__all__ = ["negotiate", "mind_group", "astra_episode", "scorable_session", "posterior", "dominance_dialogue", "register",
           "make", "registered", "roles", "seed_sequence"]
