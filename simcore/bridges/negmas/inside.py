"""simcore's agents as NegMAS negotiators: ASTRA, the agent without ASTRA and simcore's partners in
any ``SAOMechanism`` or NegMAS tournament.

:class:`SimcoreNegotiator` is an ``SAOCallNegotiator``: each time the mechanism calls it, it gives
the simcore agent the observation simcore's own game would give (built by that game: a mirror
:class:`~simcore.protocols.alternating.AlternatingState` in which it holds the agent's seat and the
other negotiator the partner's), takes the agent's action and answers the mechanism with it --
``accept`` as ``ACCEPT_OFFER``, ``walk_away`` as ``END_NEGOTIATION``, an offer as ``REJECT_OFFER``
with the offer, a turn without an offer (a question) as ``REJECT_OFFER`` with no outcome; the
words always go in ``data["text"]``.  No thread: the mechanism's loop is the only loop.

**Whose side.**  The negotiator's valuation is ``values`` when given, else found from the utility
function the mechanism gave it (:func:`simcore.bridges.negmas.export.owner_of`: the domain's own
valuations, scaled exports on either side -- so it plays whichever side of an exported scenario it
is given, also when a tournament rotates the utility functions).  simcore's partners take the
mirror game's seat of that side (they play either side, as in simcore); an agent (ASTRA, the agent
without ASTRA, your own) always takes the agent's seat, and on the partner's side the outcomes are
turned round for it (an integer issue's ``x`` is ``count - x``), so that it sees its own units.

**Words.**  The other negotiator's words are read from its offers' ``data["text"]`` (a
:class:`SimcoreNegotiator` on the other side writes them: two simcore agents talk as in simcore,
questions answered).  A NegMAS agent that writes none says nothing: ASTRA's priority questions go
unanswered, and ASTRA falls back to its own rule (it assumes the opposite of its own priorities).

**Clock.**  The round limit is the number of times the mechanism will call it (from the NMI's
``n_steps``: a step is a round, or one offer with ``one_offer_per_step``); with a time limit only
there is none (no deadline notice, no deadline rule).  The deadline notice comes ``notice_rounds``
before the end, as in simcore's game.  When it opens, the mirror game starts with the partner's
silence (an empty talk turn) when it holds the agent's seat, since in simcore's game the partner
opens; holding the partner's seat, it waits for nothing: the other's first move follows its own.

**Randomness**: the agent's generator and its language client's come from ``seed`` (default 0),
``derive(seed, "astra", "negmas")``, so a tournament's repeats are byte-identical.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from negmas.gb.common import ResponseType
from negmas.sao import SAOCallNegotiator, SAOResponse

from mockllm.client import ModelClient
from scenarios.bilateral import Valuation
from simcore.backends import backend_object
from simcore.bridges.negmas.export import domain_of, from_negmas, owner_of, to_negmas
from simcore.contract import SeatSetup
from simcore.errors import InputError
from simcore.protocols.alternating import Action, AlternatingGame
from simcore.registry import make, resolve
from simcore.seats import seat
from simcore.seeding import child, derive
from simcore.systems.astra.registry import AGENTS, BASE_PARTNERS, DEFAULT_BASE_PARTNER, PARTNERS, SYSTEM

#: the study's names for simcore's agents and partners (``"astra"``, ``"base"``, ...), as ``simcore
#: run astra`` takes them
NAMES = {**{k: v for k, v in AGENTS.items() if v}, **PARTNERS}


class SimcoreNegotiator(SAOCallNegotiator):
    """A simcore agent of ASTRA's game as a NegMAS negotiator (the module docstring).

    ``agent``: a registry id (``"astra-agent-v4"``, ``"no-astra-agent-v2"``, ``"base-partner-v2"``,
    ...), a study name (``"astra"``, ``"no-astra"``, ``"base"``, ``"boulware"``, ...) or your own
    simcore agent (class, instance or ``"package.module:Class"``); ``domain``: the simcore domain
    the mechanism's outcome space was exported from (an id, a file or a
    :class:`~scenarios.bilateral.Domain`); ``values``: its valuation (None: found from its utility
    function); ``partner_values``: the other side's, when known (only for the mirror transcript's
    scores); ``choices``: the agent's parameters; the other keywords go to NegMAS's
    ``SAOCallNegotiator`` (``name``, ``preferences``, ...)."""

    def __init__(self, agent: Any = AGENTS["astra"], *, domain: Any = "casino-v1", values: Optional[Valuation] = None,
                 partner_values: Optional[Valuation] = None, seed: int = 0, backend: Any = "mock-v1",
                 notice_rounds: int = 2, choices: Optional[dict] = None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(agent, str) and agent in NAMES:
            agent = NAMES[agent]
        self.simcore_domain = domain_of(domain)
        self.agent_ref, self.given_values, self.partner_values = agent, values, partner_values
        self.seed, self.backend, self.notice_rounds, self.choices = int(seed), backend, notice_rounds, dict(choices or {})
        #: the simcore agent, the mirror game's state, the side played ("agent" / "partner": whose units the
        #: outcomes count), the mirror seat it holds, and whether outcomes are turned round for it: set on
        #: the first call
        self.agent: Any = None
        self.mirror: Any = None
        self.side = self.seat = self.other_seat = ""
        self.flip = False
        self.label = agent if isinstance(agent, str) else getattr(agent, "__name__", type(agent).__name__)

    # -- setting up ------------------------------------------------------------------
    def _begin(self, state) -> None:
        d = self.simcore_domain
        owner = owner_of(d, self.ufun, self.given_values)
        self.side, self.values = owner.side, owner.values
        ref = self.agent_ref
        partner = isinstance(ref, str) and resolve("policy", ref).meta.get("role") == "partner"
        # simcore's partners play either side in the game's own units; an agent plays the agent's seat
        self.seat = owner.side if partner else "agent"
        self.other_seat = "partner" if self.seat == "agent" else "agent"
        self.flip = self.side == "partner" and self.seat == "agent"
        seq = derive(self.seed, SYSTEM, "negmas")
        client = ModelClient(backend_object(self.backend))
        setup = SeatSetup(SYSTEM, self.seat, d, owner.values, child(seq, "agent"), client)
        self.agent = seat(ref, setup, name="agent", builtin=self._builtin(setup),
                          aliases={"domain": d, "values": owner.values}).agent
        rounds = self._round_limit(state)
        game = AlternatingGame(round_limit=rounds, warn_rounds=min(self.notice_rounds, rounds))
        other = self.partner_values if self.partner_values is not None else _nothing(d)
        values = (owner.values, other) if self.seat == "agent" else (other, owner.values)
        self.mirror = game.start(d, *values, f"{SYSTEM}/negmas/{self.name}")

    def _builtin(self, setup: SeatSetup):
        d, values = setup.scenario, setup.private

        def build(spec) -> Any:
            pid = spec.id if spec is not None else AGENTS["astra"]
            if pid in BASE_PARTNERS or resolve("policy", pid).meta.get("role") == "partner":
                return make("policy", pid, domain=d, values=values, client=setup.client, rng=setup.rng,
                            side=setup.seat, **self.choices)
            return make("policy", pid, domain=d, values=values, client=setup.client, rng=setup.rng, **self.choices)

        return build

    def _round_limit(self, state) -> int:
        """How many times the mechanism will call this negotiator (a very large number without a step limit)."""
        nmi = self.nmi
        n = nmi.n_steps
        if n is None or n == float("inf"):
            return 10 ** 9
        if getattr(nmi, "one_offer_per_step", False):
            return max(1, math.ceil((int(n) - int(state.step)) / 2))
        return max(1, int(n))

    # -- outcomes in the agent's own units -------------------------------------------
    def _own(self, outcome) -> Optional[tuple]:
        o = from_negmas(self.simcore_domain, outcome)
        return self._turn(o) if o is not None else None

    def _turn(self, o: tuple) -> tuple:
        if not self.flip:
            return o
        return tuple(i.count - x if i.kind == "integer" else x for i, x in zip(self.simcore_domain.issues, o))

    def _negmas(self, o: tuple) -> tuple:
        return to_negmas(self.simcore_domain, self._turn(o))

    # -- the turn --------------------------------------------------------------------
    def __call__(self, state, dest: Optional[str] = None) -> SAOResponse:
        if self.agent is None:
            self._begin(state)
        mirror, me, other = self.mirror, self.seat, self.other_seat
        moved = state.current_proposer is not None and state.current_proposer != self.id
        if moved and mirror.to_act == me and not mirror.history:  # the other opened where the mirror's seat
            mirror.apply(Action("talk"))  # of this negotiator would: its silence first
        if moved and mirror.to_act == other:
            data = state.current_data if isinstance(state.current_data, dict) else {}
            text = str(data.get("text") or "")
            offer = self._own(state.current_offer)
            mirror.apply(Action("offer", text, offer=offer) if offer is not None else Action("talk", text))
        if mirror.to_act == other and state.current_proposer is None:  # it opens, and the mirror's other seat
            mirror.apply(Action("talk"))  # would: the other seat's silence first
        if mirror.to_act != me:  # (the mirror game is over: its round limit)
            return SAOResponse(ResponseType.END_NEGOTIATION, None)
        action = self.agent.act(mirror.observe(me))
        mirror.apply(action)  # (an illegal action raises IllegalMove naming the rule)
        last = mirror.history[-1] if action.kind in ("offer", "talk") else None
        data = {"text": action.text}
        if action.kind == "accept":
            table = mirror.outcome.outcome if mirror.outcome is not None else None
            current = self._own(state.current_offer)
            if current is not None and current == table and state.current_proposer != self.id:
                return SAOResponse(ResponseType.ACCEPT_OFFER, state.current_offer, data)
            return SAOResponse(ResponseType.REJECT_OFFER, self._negmas(table), data)  # (agreeing: offering it)
        if action.kind == "walk_away":
            return SAOResponse(ResponseType.END_NEGOTIATION, None, data)
        offer = self._negmas(last.offer) if last is not None and last.offer is not None else None
        return SAOResponse(ResponseType.REJECT_OFFER, offer, data)

    def on_negotiation_end(self, state) -> None:
        """The mirror game's end, when the other negotiator ended it (its acceptance, its walk-away)."""
        super().on_negotiation_end(state)
        mirror = self.mirror
        if mirror is None or mirror.to_act != self.other_seat:
            return
        if state.agreement is not None and mirror.table is not None and mirror.table.speaker == self.seat \
                and self._own(state.agreement) == mirror.table.offer:
            mirror.apply(Action("accept"))
        elif state.broken or state.has_error:
            mirror.apply(Action("walk_away"))

    @property
    def episode(self):
        """The mirror game's :class:`~simcore.protocols.alternating.Episode` once it is over
        (its events: the negotiation as simcore records it), else None."""
        return self.mirror.outcome if self.mirror is not None else None


def _nothing(domain) -> Valuation:
    """A valuation worth nothing (the other side's, when unknown)."""
    return Valuation(tuple(0.0 for _ in domain.issues),
                     tuple(tuple(0.0 for _ in i.options) if i.kind == "categorical" else () for i in domain.issues))


class AstraNegotiator(SimcoreNegotiator):
    """The study's ASTRA agent (``simcore run astra``'s ``astra``, ``astra-agent-v4``) as a NegMAS negotiator."""

    def __init__(self, **kwargs):
        super().__init__(AGENTS["astra"], **kwargs)


class NoAstraNegotiator(SimcoreNegotiator):
    """The study's agent without ASTRA (``no-astra-agent-v2``) as a NegMAS negotiator."""

    def __init__(self, **kwargs):
        super().__init__(AGENTS["no-astra"], **kwargs)


class PartnerNegotiator(SimcoreNegotiator):
    """A simcore partner as a NegMAS negotiator: ``partner`` a study name (``"base"``,
    ``"greedy"``, ``"fair"``, ``"boulware"``, ``"conceder"``) or a partner's registry id."""

    def __init__(self, partner: str = "base", **kwargs):
        pid = PARTNERS.get(partner, partner) if partner != "base" else DEFAULT_BASE_PARTNER
        if resolve("policy", pid).meta.get("role") != "partner":
            raise InputError("partner", repr(partner), f"is not a partner; valid: {', '.join(PARTNERS)}")
        super().__init__(pid, **kwargs)
