"""One ASTRA negotiation set up: the one entry that ``simcore run astra``, ``simcore.astra_episode``,
the PettingZoo environment and ``check_policy`` share.

:func:`start` draws the partner's valuation from the setup's pool (unless one is given), fills
both seats (:mod:`simcore.seats`: the study's names, registry ids, import paths, classes or
instances), attaches the roles a backend plays, and returns a :class:`~simcore.contract.Match`
whose ``finish`` gives ``(Episode, record)``: the episode and the study's per-episode record
(scores, Pareto statistics, tactics, readings, fallbacks).

Randomness: the partner draw is ``child(seq, "setup")``, each seat's generator
``child(seq, "agent")`` / ``child(seq, "partner")``, a role's ``child(seq, "role", ROLE)``.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from mockllm.client import ModelClient
from policies.astra import speak
from scenarios.bilateral import Domain, Valuation, load_domain
from simcore import caches
from simcore.argcheck import whole
from simcore.backends import backend_object
from simcore.contract import Match, SeatSetup
from simcore.errors import InputError
from simcore.metrics.astra import frontier, pareto_stats, score_points, walk_away_cause
from simcore.noise import astra_notes
from simcore.protocols.alternating import Action, AlternatingGame
from simcore.registry import make, resolve
from simcore.role_backends import role_client
from simcore.seats import Voiced, seat
from simcore.seeding import child
from simcore.systems.astra.model_roles import TEMPERATURE, PartnerRole, TacticRole
from simcore.systems.astra.params import NO_ASTRA_EXTRA
from simcore.systems.astra.registry import AGENTS, BASE_PARTNERS, DEFAULT_BASE_PARTNER, PARTNERS, SYSTEM

_FRONTS: dict = caches.memo("simcore.systems.astra: Pareto frontiers by domain and partner values")


def _front(domain, pv):
    key = (domain.id, domain.source, pv)
    got = _FRONTS.get(key)
    if got is None:
        got = _FRONTS[key] = frontier(score_points(domain, domain.agent, pv))
    return got


def say(action: Any, setup: SeatSetup) -> Any:
    """The seat's default voice for a user's agent whose actions may come without words (a
    *structured* seat; :class:`simcore.seats.Voiced`): the ``astra.speak`` task with the seat's own
    client and generator, the move's mode (an offer, accept, walk away, or a greeting for talk)
    and the offer as stated from the seat's side, so the other side has words to read.  An action
    that brings its own words is passed on unchanged."""
    if not isinstance(action, Action) or action.text or action.stated is not None or setup.client is None:
        return action
    domain, seat_ = setup.scenario, setup.seat
    stated = domain.state_offer(action.offer, seat_) if action.kind == "offer" and action.offer is not None else None
    mode = "greet" if action.kind == "talk" else action.kind
    text, said = speak(setup.client, setup.rng, seat_, mode, stated)
    return action._replace(text=text, stated=said if action.kind == "offer" else None,
                           intent=action.intent or {"mode": mode})


def start(domain: Domain, seq, *, agent: Any = AGENTS["astra"], partner: Any = DEFAULT_BASE_PARTNER,
          setup: str = "integrative",
          run_id: str, partner_values: Optional[Valuation] = None, backend: Any = None, round_limit: int = 15,
          notice_rounds: int = 2, no_deal_payoff: str = "zero", choices: Optional[Mapping[str, Any]] = None,
          params: Any = None, partner_overrides: Optional[Mapping[str, Any]] = None,
          base_partner: str = DEFAULT_BASE_PARTNER, roles: tuple = (), stats: Any = None) -> Match:
    """One negotiation on ``domain`` from the SeedSequence ``seq``.

    ``agent``: a registered agent id (or a partner's: a partner in the agent's seat), or a user's
    agent (:mod:`simcore.seats`); ``choices`` / ``params`` set the built-in agent's parameters.
    ``partner``: a registered partner id or a user's agent; ``partner_overrides`` set a built-in
    partner's ``PartnerParams``; the astra.partner role (``roles``) is played on a backend when a
    stand-in for Partner-Base sits there.  ``partner_values``: the partner's valuation (None:
    drawn from the setup's pool).  ``stats`` (a :class:`mockllm.client.CallStats`), when given,
    gets both sides' model-call counts at the finish."""
    backend = backend if backend is not None else make("backend", "mock-v1")
    if partner_values is None:
        pool = domain.setup(setup).partners
        k = int(child(seq, "setup").integers(len(pool))) if len(pool) > 1 else 0
        pv = pool[k]
    else:
        k, pv = None, partner_values
    a_client, p_client = ModelClient(backend), ModelClient(backend)
    a_setup = SeatSetup(SYSTEM, "agent", domain, domain.agent, child(seq, "agent"), a_client)
    p_setup = SeatSetup(SYSTEM, "partner", domain, pv, child(seq, "partner"), p_client)
    overrides = dict(partner_overrides or {})

    def agent_builtin(spec) -> Any:
        pid = spec.id if spec is not None else AGENTS["astra"]
        if pid in BASE_PARTNERS or resolve("policy", pid).meta.get("role") == "partner":
            return make("policy", pid, domain=domain, values=domain.agent, client=a_client, rng=a_setup.rng,
                        side="agent", **overrides)
        if params is not None:
            spec_ = resolve("policy", pid)
            extra = {k_: v for k_, v in spec_.kwargs.items() if k_ in NO_ASTRA_EXTRA}
            return spec_.load()(domain, a_client, a_setup.rng, params, **extra)
        return make("policy", pid, domain=domain, client=a_client, rng=a_setup.rng, **dict(choices or {}))

    def partner_builtin(spec) -> Any:
        pid = spec.id if spec is not None else base_partner
        if resolve("policy", pid).meta.get("role") != "partner":
            raise InputError("partner", pid, "is an agent; the partner seat takes a partner")
        return make("policy", pid, domain=domain, values=pv, client=p_client, rng=p_setup.rng, side="partner",
                    **overrides)

    a = seat(agent, a_setup, name="agent", builtin=agent_builtin,
             aliases={"domain": domain, "values": domain.agent, "no_deal_payoff": no_deal_payoff})
    p = seat(partner, p_setup, name="partner", builtin=partner_builtin,
             aliases={"domain": domain, "values": pv, "no_deal_payoff": no_deal_payoff}, role="partner")
    agents = {"agent": Voiced(a.agent, a_setup, say) if a.user else a.agent,
              "partner": Voiced(p.agent, p_setup, say) if p.user else p.agent}
    # the astra.partner role is Partner-Base's: played on a backend only when the base stand-in sits there
    base = isinstance(partner, str) and not p.user and resolve("policy", partner).id in BASE_PARTNERS
    role_clients = _attach_roles(roles, a.agent, p.agent if base else None, backend, seq)
    game = AlternatingGame(round_limit=round_limit, warn_rounds=notice_rounds, no_deal_payoff=no_deal_payoff)
    state = game.start(domain, domain.agent, pv, run_id)

    def finish(state) -> tuple:
        ep = state.outcome
        record = episode_record(domain, setup, k, pv, ep, a.agent, p.agent,
                                a_client.stats.fallbacks + p_client.stats.fallbacks
                                + sum(c.stats.fallbacks for c in role_clients))
        if stats is not None:
            stats.add(a_client.stats).add(p_client.stats)
            for c in role_clients:
                stats.add(c.stats)
        return ep, record

    users = frozenset(s for s, seated in (("agent", a), ("partner", p)) if seated.user)
    return Match(state, agents, users, finish, {"agent": a_setup, "partner": p_setup})


#: the options of :func:`episode_match` (the API's and the environment's)
OPTIONS = ("agent", "partner", "domain", "setup", "rounds", "backend", "partner_values", "no_deal_payoff",
           "notice_rounds")


def episode_match(seq, *, agent: Any = AGENTS["astra"], partner: Any = DEFAULT_BASE_PARTNER,
                  domain: str = "casino-v1", setup: str = "integrative", rounds: int = 15, backend: Any = "mock-v1",
                  partner_values: Optional[Valuation] = None, no_deal_payoff: str = "zero",
                  notice_rounds: int = 2) -> Match:
    """:func:`start` from the arguments the public API takes, each checked first (one
    :class:`~simcore.errors.InputError` line naming it): ``domain`` a shipped id or a domain
    file, ``setup`` one of its setups, ``rounds`` the round limit, ``partner_values`` a
    :class:`scenarios.bilateral.Valuation` of the domain's issues (None: drawn from the setup's
    pool by the seed), ``no_deal_payoff`` ``"zero"`` or ``"batna"``, ``notice_rounds`` the
    rounds left when the deadline notice is given (0: none); ``backend`` a registered id or an
    object with ``chat()``.  The run id is ``astra/api/<setup>``."""
    dom = load_domain(domain)
    setups = [s.name for s in dom.setups]
    if setup not in setups:
        raise InputError("setup", repr(setup), f"valid for {dom.id}: {', '.join(setups)}")
    whole("rounds", rounds, 2)
    whole("notice_rounds", notice_rounds, 0)
    if no_deal_payoff not in ("zero", "batna"):
        raise InputError("no_deal_payoff", repr(no_deal_payoff), "valid: 'zero', 'batna'")
    if partner_values is not None:
        if not isinstance(partner_values, Valuation) or len(partner_values.weights) != len(dom.issues):
            raise InputError("partner_values", repr(partner_values)[:80],
                             f"expected a scenarios.bilateral.Valuation of {dom.id}'s {len(dom.issues)} issues")
    return start(dom, seq, agent=agent, partner=partner, setup=setup, run_id=f"{SYSTEM}/api/{setup}",
                 partner_values=partner_values, backend=backend_object(backend), round_limit=rounds,
                 notice_rounds=notice_rounds, no_deal_payoff=no_deal_payoff)


def episode_record(domain, setup: str, k: Optional[int], pv, ep, agent, partner, fallbacks: int) -> dict:
    """The study's record of one episode (the scores, the offers' Pareto statistics under the
    true values, the tactics chosen by the partner's stance, the agent's readings of the
    partner's words scored against what it meant, the model fallbacks, and -- when the agent
    walked away -- the cause: after a misread, after an unclear answer, or a rule on true readings)."""
    offers = [tuple(e.hidden["true_scores"]) for e in ep.events
              if e.speaker == "agent" and "true_scores" in e.hidden]
    opt, dists = pareto_stats(_front(domain, pv), offers)
    partner_offers = [tuple(e.hidden["true_scores"]) for e in ep.events
                      if e.speaker == "partner" and "true_scores" in e.hidden]
    p_opt, _ = pareto_stats(_front(domain, pv), partner_offers)
    tactics: dict = {}
    for e in ep.events:  # Figure 4 analogue: the tactic chosen for each offer, by the partner's stance
        trace = e.hidden.get("trace") if e.speaker == "agent" else None
        if trace and trace.get("tactic"):
            key = f"{trace['stance']}/{trace['tactic']}"
            tactics[key] = tactics.get(key, 0) + 1
    readings, readings_right = score_readings(getattr(agent, "readings", None), partner, ep.events)
    prefs = getattr(agent, "prefs", None)  # a partner in the agent's seat infers nothing
    order = prefs.order if prefs is not None else None
    return {
        "setup": setup, "partner_index": k, "status": ep.status, "agent_score": ep.agent_score,
        "partner_score": ep.partner_score, "rounds": ep.rounds, "walked_by": ep.walked_by,
        "invalid_moves": ep.invalid_moves, "agent_offers": len(offers), "pareto_optimal": opt,
        "pareto_distance_sum": float(sum(dists)),
        "partner_offers": len(partner_offers), "partner_pareto_optimal": p_opt,
        "priority_match": None if order is None else tuple(order) == domain.order_of(pv),
        "fallbacks": fallbacks,
        "reinferences": prefs.reinferences if prefs is not None else 0,
        "tactics": tactics, "readings": [readings, readings_right],
        "walk_away_cause": (walk_away_cause(astra_notes(ep.events).values())
                            if ep.status == "walk_away" and ep.walked_by == "agent" else None),
    }


def study_seats(agent: Any, partner: Any, base_partner: str = DEFAULT_BASE_PARTNER) -> tuple:
    """The registry ids the study's names stand for (:data:`AGENTS`, :data:`PARTNERS`: ``base``
    is ``base_partner``, and ``partner`` in the agent's seat too); anything else as it is."""
    if isinstance(agent, str) and agent in AGENTS:
        agent = base_partner if agent == "partner" else AGENTS[agent]
    if isinstance(partner, str) and partner in PARTNERS:
        partner = base_partner if partner == "base" else PARTNERS[partner]
    return agent, partner


def play_episode(domain, agent_kind: Any, partner_kind: Any, setup: str, seq, *,
                 base_partner: str = DEFAULT_BASE_PARTNER, **options: Any) -> tuple:
    """One negotiation of the study's agent and partner (their study names, or ids or user
    agents) played to the end: ``(Episode, record)`` (:func:`start`'s other arguments)."""
    agent, partner = study_seats(agent_kind, partner_kind, base_partner)
    return start(domain, seq, agent=agent, partner=partner, setup=setup, base_partner=base_partner,
                 **options).run()


def partner_meant(partner, events) -> list[dict]:
    """What the partner meant each of its utterances to say about its priorities, in order
    ({"highest", "lowest"}: an item or None): an answer to "highest"/"lowest priority?" its
    first / last item (the order it answered from is the event's hidden ``order``), its first
    offer its top item when it mentions one (``PartnerParams.mention``), anything else
    nothing."""
    order = list(getattr(partner, "order", None) or ())
    mentions = bool(getattr(getattr(partner, "p", None), "mention", False)) and bool(order)
    out, offers = [], 0
    for e in events:
        if e.speaker != "partner" or not e.text:
            continue
        mode, meant = (e.intent or {}).get("mode"), {"highest": None, "lowest": None}
        if mode == "answer":
            told = list((e.hidden or {}).get("order") or order)
            q = e.intent.get("question")
            if told and q in meant:
                meant[q] = told[0] if q == "highest" else told[-1]
        elif mode == "offer":
            offers += 1
            if mentions and offers == 1:
                meant["highest"] = order[0]
        out.append(meant)
    return out


def score_readings(readings, partner, events) -> tuple[int, int]:
    """(readings accepted, of them right): each reading of a partner utterance (the agent's
    ``astra.read`` answers, in order; None for an answer refused and replaced by the
    fallback, which is a counted fallback and neither right nor wrong) against what the
    partner meant it to say (:func:`partner_meant`); right when both items match (None
    where nothing was meant).  The protocol knows the intent, so a parsed reading is scored."""
    if not readings:
        return 0, 0
    meant = partner_meant(partner, events)
    pairs = [(got, want) for got, want in zip(readings, meant) if got is not None]
    right = sum(1 for got, want in pairs
                if got.get("highest") == want["highest"] and got.get("lowest") == want["lowest"])
    return len(pairs), right


def _attach_roles(roles, agent, partner, backend, seq) -> list:
    """The model clients of the roles ``roles`` puts on a backend, attached to the seat
    that plays them: astra.tactic the ASTRA agent's stage-3 choice, astra.partner the moves
    of the Partner-Base stand-in (``partner``; None when the partner is another)."""
    clients = []
    client = role_client(roles, "astra.tactic", backend, temperature=TEMPERATURE, record=True)
    if client is not None and hasattr(agent, "tactic_role"):  # (an agent without ASTRA chooses no tactic)
        agent.tactic_role = TacticRole(client, child(seq, "role", "astra.tactic"))
        clients.append(client)
    client = role_client(roles, "astra.partner", backend, temperature=TEMPERATURE, record=True)
    if client is not None and partner is not None:
        partner.move_role = PartnerRole(client, child(seq, "role", "astra.partner"))
        clients.append(client)
    return clients

