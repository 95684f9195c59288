"""A NegMAS negotiator in a seat of simcore's alternating-offers game (ASTRA's protocol).

:class:`NegotiatorSeat` is a simcore agent (``act(observation) -> Action``) that holds one NegMAS
``SAOMechanism`` per negotiation and steps it with its own calls -- no thread, no loop of its own.
The mechanism counts rounds as NegMAS usually does (``n_steps`` = the game's round limit, both
negotiators acting in each step), with the simcore seat's placeholder added first and the foreign
negotiator second, so that one step is one turn of the other seat followed by one turn of the
negotiator.  At each of its turns the seat calls ``mechanism.step(action)`` -- NegMAS's own way of
giving a negotiator's move from outside -- once, with the other seat's turn since its last one as
the placeholder's move: an offer as ``REJECT_OFFER`` with the offer; a turn without a valid offer
(a question, a greeting, an offer the game refused) as ``REJECT_OFFER`` with no outcome and the
words as ``data["text"]``; at the partner seat's opening, when the agent has not spoken, no
outcome and empty words.  The negotiator then acts on the mechanism's state (its clock is the
mechanism's ``relative_time``), and the seat returns what it did: an agreement is ``accept``;
``END_NEGOTIATION`` is ``walk_away``, and so is every other way the mechanism ends the
negotiation on its side (no offer, an offer that is not an outcome, a time-out, an exception in
the agent, which the mechanism turns into an end: ``ignore_negotiator_exceptions``), each kept by
cause (:attr:`NegotiatorSeat.ended_by`); an offer is ``offer``; no outcome with words is ``talk``.

**Words.**  A NegMAS negotiator does not speak.  The seat's voice says its moves with the seat's
own language client (the ``astra.speak`` task, as simcore's partners say theirs) and, under the
default answer policy ``answers="truthful"``, answers a priority question of the other seat
("which item is your highest / lowest priority?") truthfully from the negotiator's own valuation
(the ``astra.answer`` task, as simcore's partners answer) in the same turn, before the words of
its move: the foreign agent still makes its move in that turn, so its clock is not disturbed.
``answers="none"``: no answer (the asking agent then falls back to its own rule: ASTRA assumes
the opposite of its own priorities).

**The utility function** the negotiator gets is the seat's valuation exported and scaled to
``[0, 1]`` (:func:`simcore.bridges.negmas.export.utility_function`), its reserved value the game's
no-deal payoff.  **Randomness** (:mod:`simcore.bridges.negmas.randomness`): the negotiation's seed
comes from the seat's SeedSequence (``setup.rng``'s, below the key ``"negmas"``; the generator's
own stream is not drawn from).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np
from negmas.gb.common import ResponseType
from negmas.gb.negotiators.base import GBNegotiator
from negmas.sao import SAOMechanism, SAONegotiator, SAOResponse

from mockllm import astra as lang
from policies.astra import speak
from policies.partners import Partner
from simcore.argcheck import load_ref
from simcore.bridges.negmas.export import from_negmas, outcome_space, to_negmas, utility_function
from simcore.bridges.negmas.randomness import Streams
from simcore.contract import SeatSetup
from simcore.errors import InputError
from simcore.protocols.alternating import Action
from simcore.seeding import _key_int

ANSWERS = ("truthful", "none")
#: the ways a negotiation ends on the foreign side, as :attr:`NegotiatorSeat.ended_by` names them
ENDINGS = ("accepted", "ended", "no offer", "timed out", "exception")


def is_negotiator(obj: Any) -> bool:
    """Whether ``obj`` is a NegMAS negotiator class or instance for ``SAOMechanism`` (an
    ``SAONegotiator`` or another ``GBNegotiator``)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return isinstance(cls, type) and issubclass(cls, (SAONegotiator, GBNegotiator))


def negotiator_seed(rng: np.random.Generator) -> int:
    """The foreign negotiation's seed: from ``rng``'s SeedSequence below ``"negmas"`` (the
    generator's own stream is not drawn from)."""
    bg = rng.bit_generator
    ss = getattr(bg, "seed_seq", None) or bg._seed_seq
    child = np.random.SeedSequence(entropy=ss.entropy, spawn_key=tuple(ss.spawn_key) + (_key_int("negmas"),))
    return int(child.generate_state(1)[0])


class _Seat(SAONegotiator):
    """The other seat of the game in the mechanism: never asked, its moves are given to ``step``."""

    def propose(self, state, dest=None):  # pragma: no cover - the mechanism is always given its action
        raise RuntimeError("the simcore seat's moves are given to the mechanism, never asked")


class NegotiatorSeat:
    """A NegMAS negotiator (a class, a factory, an instance or a ``"package.module:Class"`` path)
    in ``setup.seat`` of an ASTRA negotiation (the module docstring).

    ``params``: keyword arguments for building the class; ``no_deal_payoff``: the game's
    (the negotiator's reserved value); ``answers``: ``"truthful"`` or ``"none"``."""

    def __init__(self, negotiator: Any, setup: SeatSetup, *, params: Optional[Mapping[str, Any]] = None,
                 no_deal_payoff: str = "zero", answers: str = "truthful", domain: Any = None, values: Any = None):
        if isinstance(negotiator, str):
            negotiator = load_ref(negotiator, setup.seat)
        if not is_negotiator(negotiator) and not callable(negotiator):
            raise InputError(setup.seat, type(negotiator).__name__, "is not a NegMAS negotiator")
        if answers not in ANSWERS:
            raise InputError("answers", repr(answers), f"valid: {', '.join(map(repr, ANSWERS))}")
        self.factory, self.params = negotiator, dict(params or {})
        self.setup, self.seat = setup, setup.seat
        self.domain = domain if domain is not None else setup.scenario
        self.values = values if values is not None else setup.private
        self.no_deal_payoff, self.answers = no_deal_payoff, answers
        self.order = list(self.domain.order_of(self.values))  # (what its truthful answers name)
        self.label = negotiator.__name__ if isinstance(negotiator, type) else type(negotiator).__name__
        self.negotiator: Any = None
        self.mechanism: Optional[SAOMechanism] = None
        self.streams: Optional[Streams] = None
        #: how the foreign side ended the negotiation (one of :data:`ENDINGS`), "" while it did not
        self.ended_by = ""
        #: what the mechanism said went wrong, when it did (an exception's text)
        self.error = ""
        self._seen = 0

    # -- the negotiation ---------------------------------------------------------------
    def _start(self, round_limit: int) -> None:
        seed = negotiator_seed(self.setup.rng)
        self.streams = Streams(seed)
        d, seat = self.domain, self.seat
        space = outcome_space(d)
        with self.streams:
            neg = self.factory if is_negotiator(self.factory) and not isinstance(self.factory, type) else None
            if neg is None:
                try:
                    neg = self.factory(name=seat, **self.params)
                except Exception as exc:
                    raise InputError(seat, self.label, f"building it raised {type(exc).__name__}: {exc}") from None
            mech = SAOMechanism(outcome_space=space, n_steps=round_limit, ignore_negotiator_exceptions=True,
                                name=f"simcore-{d.id}")
            other = _Seat(name="agent" if seat == "partner" else "partner")
            ufun = utility_function(d, self.values, seat, no_deal_payoff=self.no_deal_payoff, space=space)
            for n, u in ((other, None), (neg, ufun)):
                if not mech.add(n, preferences=u):
                    raise InputError(seat, self.label, "the NegMAS mechanism refused it")
        self.negotiator, self.mechanism, self._other = neg, mech, other

    def _given(self, turn) -> SAOResponse:
        """The other seat's turn as the placeholder's move (None: it has not spoken)."""
        if turn is None:
            return SAOResponse(ResponseType.REJECT_OFFER, None, {"text": ""})
        offer = to_negmas(self.domain, turn.offer) if turn.offer is not None else None
        data = None if offer is not None and not turn.text else {"text": turn.text}
        return SAOResponse(ResponseType.REJECT_OFFER, offer, data)

    def act(self, obs) -> Action:
        if self.mechanism is None:
            self._start(obs.round_limit)
        mech = self.mechanism
        turn = None
        for t in obs.history[self._seen:]:  # (turns alternate: one of the other seat's, none at the opening)
            if t.speaker != self.seat:
                turn = t
        self._seen = len(obs.history) + 1  # (its own turn, next)
        question = Partner.question_in(turn.text) if turn is not None and turn.offer is None and turn.text else None
        with self.streams:
            state = mech.step({self._other.id: self._given(turn)})
        step = {"negmas_step": int(state.step)}
        answer = self._answer(question) if question is not None and self.answers == "truthful" else ""
        if state.agreement is not None:
            self.ended_by = "accepted"
            return self._move("accept", None, answer, question, step)
        if state.has_error or state.broken or state.timedout or not state.running:
            if state.has_error:
                self.ended_by, self.error = "exception", str(state.error_details)[-300:]
            elif state.timedout:
                self.ended_by = "timed out"
            else:
                self.ended_by = "ended"
            return self._move("walk_away", None, answer, question, {**step, "ended_by": self.ended_by})
        offer = from_negmas(self.domain, state.current_offer) if state.current_proposer == self.negotiator.id \
            else None
        if offer is None:  # words without an offer
            data = state.current_data if isinstance(state.current_data, dict) else {}
            text = " ".join(t for t in (answer, str(data.get("text") or "")) if t)
            return Action("talk", text, None, self._intent("talk", question), self._hidden(question, step))
        return self._move("offer", offer, answer, question, step)

    # -- the words ---------------------------------------------------------------------
    def _answer(self, question: str) -> str:
        client = self.setup.client
        if client is None:
            return ""
        order = self.order
        return client.ask(lang.ANSWER, self.setup.rng, fallback=lambda: lang.ANSWER.render(question, list(order)),
                          question=question, order=list(order))

    def _intent(self, kind: str, question: Optional[str]) -> dict:
        if question is not None and self.answers == "truthful":
            return {"mode": "answer", "question": question, "move": kind}
        return {"mode": kind}

    def _hidden(self, question: Optional[str], extra: dict) -> dict:
        if question is not None and self.answers == "truthful":
            return {"order": list(self.order), **extra}
        return extra

    def _move(self, kind: str, offer: Optional[tuple], answer: str, question: Optional[str], extra: dict) -> Action:
        client, stated = self.setup.client, None
        text = ""
        if client is not None:
            if kind == "offer":
                stated = self.domain.state_offer(offer, self.seat)
            text, said = speak(client, self.setup.rng, self.seat, kind, stated)
            stated = said if kind == "offer" else None
        text = " ".join(t for t in (answer, text) if t)
        return Action(kind, text, stated, self._intent(kind, question), self._hidden(question, extra), offer)


def seat_agent(obj: Any, setup: SeatSetup, aliases: Mapping[str, Any]) -> NegotiatorSeat:
    """:class:`NegotiatorSeat` for ``obj`` in ``setup``'s seat, with the match's names
    (``domain``, ``values``, ``no_deal_payoff``) from ``aliases``; a seat of another system than
    ASTRA's (whose game is not alternating offers) is one :class:`InputError`."""
    if setup.system != "astra":
        raise InputError(setup.seat, getattr(obj, "__name__", type(obj).__name__),
                         f"is a NegMAS negotiator: it takes a seat of astra's alternating-offers game, not {setup.system}'s")
    return NegotiatorSeat(obj, setup, no_deal_payoff=aliases.get("no_deal_payoff", "zero"),
                          domain=aliases.get("domain"), values=aliases.get("values"))


def seated(negotiator: Any, *, answers: str = "truthful", params: Optional[Mapping[str, Any]] = None):
    """A factory that seats ``negotiator`` with these options, for any seat argument
    (``simcore.astra_episode(partner=seated(HardHeaded, answers="none"))``)."""
    if answers not in ANSWERS:
        raise InputError("answers", repr(answers), f"valid: {', '.join(map(repr, ANSWERS))}")

    def build(setup: SeatSetup, no_deal_payoff: str = "zero") -> NegotiatorSeat:
        return NegotiatorSeat(negotiator, setup, params=params, no_deal_payoff=no_deal_payoff, answers=answers)

    build.__qualname__ = f"seated({getattr(negotiator, '__name__', negotiator)!s})"
    return build
