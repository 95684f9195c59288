"""The agents in the parties' seats: the built-in negotiator and a user's agent's voice.

:class:`Negotiator` is simcore's stand-in for an LLM party (:mod:`policies.scorable`): on its
turn it reads the public turns no built-in party has read yet (a user's agent's), chooses a
deal (p1's opening is the game's initial deal; then the concession and proposal rule with
its method's estimates of the others, or the echo stand-in), draws the turn's cues, speaks
(``scorable-speak``), and has the session model read its words and update the estimates of
it (:class:`~simcore.systems.scorable.model.SessionModel`) -- the order of every model call
and draw of one session.  With ``--role scorable.negotiator=BACKEND`` a party that does
not estimate asks its proposals of a backend (:class:`simcore.systems.scorable.model_roles.NegotiatorRole`).

:class:`VoicedSeat` wraps a user's agent: a proposal it returns without words (a bare deal,
or a :class:`~simcore.protocols.scorable.Proposal` with no text) is said by the seat's
default voice -- truthful cues about the seat's own table (:func:`policies.scorable.choose_cues`)
put into words by ``scorable-speak`` -- with the seat's own client and generator.
"""

from __future__ import annotations

from typing import Any, Optional

from mockllm.client import ModelClient
from mockllm.scorable import SPEAK
from policies.llm_pe import issues_context
from policies.scorable import aspiration, choose_cues, choose_deal
from scenarios.scorable import Game
from simcore.contract import SeatSetup
from simcore.protocols.scorable import Observation, Proposal, as_deal
from simcore.systems.scorable.model import SessionModel, turn_notes


def speak(client: ModelClient, rng: Any, game: Game, party: int, deal: tuple, cues: list) -> str:
    """Party ``party``'s words putting ``deal`` forward with ``cues`` (``scorable-speak``;
    a counted fallback names the deal only)."""
    deal_ids = list(game.deal_ids(deal))
    return client.ask(SPEAK, rng, fallback=lambda: "We propose " + ", ".join(deal_ids) + ".",
                      speaker=game.parties[party].name, issues=issues_context(game), deal=deal_ids, cues=cues)


class Negotiator:
    """The built-in party ``party`` of a session under the model's method (module docstring);
    ``role`` the model playing its proposals, when one does."""

    def __init__(self, model: SessionModel, party: int, role: Any = None):
        self.model, self.party, self.role = model, party, role
        self.name = model.method  # (errors name the method: "Negotiator 'proposed-p1' in seat ...")
        self.estimates = model.estimating[party]

    def act(self, observation: Observation) -> Proposal:
        model = self.model
        history = observation.history
        if model.done < len(history):
            model.catch_up(history)
        t, n, game = observation.turn, self.party, model.game
        if t == 0:
            deal = tuple(int(x) for x in game.initial_deal)
            info: dict = {"own_score": game.score(n, deal)}
        else:
            chosen, info = self.propose(observation)
            deal = as_deal(game, chosen)
            if deal is None:  # not a deal: the game refuses it, and the driver names this agent
                return Proposal(chosen)
        cues, rng = model.draws.get(t, n)  # cues, then the speak, read and estimate calls, in that order
        text = speak(model.client, rng, game, n, deal, cues)
        raw, estimate, mse = model.read(t, n, deal, text, cues, rng)
        return Proposal(deal, text, {"signals": raw}, lambda: turn_notes(cues, info, estimate, mse))

    def propose(self, observation: Observation) -> tuple[tuple, dict]:
        """The concession and proposal rule (:func:`policies.scorable.choose_deal`) at this
        turn's aspiration, with the method's shared estimates when this party estimates, else
        the echo stand-in; the role's proposal instead when a model plays it."""
        model, n, t = self.model, self.party, observation.turn
        game, s = model.game, model.settings
        T = observation.last_turn
        level = aspiration(game, n, t, T, s.concession_exponent, s.aspiration_start, s.aspiration_end)
        if t == T and s.final_aspiration is not None:
            pn = game.parties[n]
            level = pn.threshold + (pn.best - pn.threshold) * s.final_aspiration
        views = {j: model.view_of(j, self.estimates) for j in range(game.n_parties) if j != n}
        deal, info = choose_deal(game, n, level, views, s.assumed_threshold, s.acceptance_rule, s.assumed_share,
                                 strict=s.strict, anchor=observation.history[-1].deal, max_changes=s.amend_max_issues)
        if self.role is not None:
            return self.role.propose(n, t, deal, info, observation.history)
        return deal, info


class VoicedSeat:
    """A user's agent in a party's seat (module docstring): ``act`` may return a bare deal
    (one option index per issue) or a :class:`Proposal`; one without words is spoken by the
    seat's voice (``setup.client`` and ``setup.rng``), one with words is passed on as it is."""

    def __init__(self, agent: Any, setup: SeatSetup, game: Game, party: int, cues_per_turn: int):
        self.agent, self.setup, self.game, self.party = agent, setup, game, party
        self.cues_per_turn = cues_per_turn
        self.label = type(agent).__name__  # (errors name the user's agent, not this wrapper)

    def act(self, observation: Observation) -> Any:
        action = self.agent.act(observation)
        given: Optional[Proposal] = action if isinstance(action, Proposal) else None
        if given is not None and given.text:
            return action
        chosen = given.deal if given is not None else action
        deal = as_deal(self.game, chosen)
        if deal is None:  # not a deal: the game says why (the driver names the user's agent)
            return action if given is not None else Proposal(chosen)
        setup = self.setup
        cues = choose_cues(self.game, self.party, setup.rng, self.cues_per_turn)
        text = speak(setup.client, setup.rng, self.game, self.party, deal, cues)
        hidden = {"cues_meant": cues}
        if given is not None and given.hidden is not None:
            hidden.update(given.hidden() if callable(given.hidden) else given.hidden)
        return Proposal(deal, text, given.reading if given is not None else None, hidden)
