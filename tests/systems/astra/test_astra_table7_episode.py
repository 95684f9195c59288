"""Table 7 played as an episode: the ASTRA agent against a scripted partner that says and
offers what the paper's partner does, through the protocol and the mock language layer (no noise).

The agent chooses the paper's tactics, AEO, AEO, NCR, RC, RC, and the partner accepts its fifth
offer.  Its opening differs: 33 points (3, 3, 2) where the paper's agent opens at 30 (3, 3, 1) --
under eq. 4 the AEO ranking (SA 1.0 for the most self-favourable candidate) outweighs any PAP gap
between the two, and the paper gives no rule that removes 33 from the candidates (its Figure 8 LP
leaves the partner 5 points, which 33 does); so every later offer sits 3-4 points above the
paper's.  The stage-3 choice the paper does show -- 26 (3, 2, 1) from Table 7's own history -- is
asserted on that history in tests/systems/astra/test_astra_worked_examples.py (``test_table7_chooses_26``)."""

from __future__ import annotations

import numpy as np

from mockllm import astra as lang
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from policies.astra import speak
from scenarios.bilateral import load_domain
from simcore.driver import play as drive
from simcore.protocols.alternating import Action, AlternatingGame
from simcore.registry import make

CASINO = load_domain("casino-v1")
PARTNER_VALUES = CASINO.setup("integrative").partners[0]
#: the partner's offers in Table 7, as (food, water, firewood) the *agent* gets: the partner takes
#: 2 fw, 2 w, 1 f (17/21), the same again, then 2 fw, 1 w, 2 f (16/20: the table's scores; its words
#: over-specify the food), then 2 fw, 2 w, 0 f (22/18)
OFFERS = [(2, 1, 1), (2, 1, 1), (1, 2, 1), (3, 1, 1)]


class Table7Partner:
    """Plays Table 7's PartnerAgent turn by turn: greets, answers the two questions (highest
    firewood, lowest food), makes its four offers, accepts the agent's fifth offer."""

    def __init__(self, client, rng):
        self.client, self.rng, self.offers = client, rng, list(OFFERS)
        self.greeted = False

    def act(self, obs):
        if not self.greeted:
            self.greeted = True
            return Action("talk", speak(self.client, self.rng, "partner", "greet")[0], None, {"mode": "greet"})
        last = obs.last("agent")
        if last is not None and last.kind == "talk" and "priority?" in last.text:
            q = "lowest" if "lowest" in last.text else "highest"
            order = ["firewood", "water", "food"]
            text = self.client.ask(lang.ANSWER, self.rng, fallback=lambda: lang.ANSWER.render(q, order),
                                   question=q, order=order)
            return Action("talk", text, None, {"mode": "answer"})
        if not self.offers:
            return Action("accept", speak(self.client, self.rng, "partner", "accept")[0], None, {"mode": "accept"})
        give = self.offers.pop(0)
        outcome = give
        stated = CASINO.state_offer(outcome, "partner")
        text, stated_back = speak(self.client, self.rng, "partner", "offer", stated)
        return Action("offer", text, stated_back, {"mode": "offer"})


def play(policy_id: str):
    backend = MockBackend(exact=True)
    agent = make("policy", policy_id, domain=CASINO, client=ModelClient(backend), rng=np.random.default_rng(0))
    partner = Table7Partner(ModelClient(backend), np.random.default_rng(1))
    ep = drive(AlternatingGame(round_limit=15).start(CASINO, CASINO.agent, PARTNER_VALUES, "astra/table7"),
              {"agent": agent, "partner": partner})
    offers = [(e.hidden["true_scores"][0], tuple(e.intent["offer"]), (e.hidden.get("trace") or {}).get("tactic"))
              for e in ep.events if e.speaker == "agent" and "true_scores" in e.hidden]
    return ep, offers


def test_the_partners_offers_score_as_table_7_prints():
    got = [(CASINO.score(CASINO.agent, o, "agent"), CASINO.score(PARTNER_VALUES, o, "partner")) for o in OFFERS]
    assert got == [(17, 21), (17, 21), (16, 20), (22, 18)]


def test_astra_agent_v3_plays_table_7s_tactics():
    ep, offers = play("astra-agent-v3")
    assert [t for _, _, t in offers] == ["AEO", "AEO", "NCR", "RC", "RC"]  # the paper's sequence
    assert [s for s, _, _ in offers] == [33, 33, 33, 30, 26]  # the paper: 30, 30, 30, 26, 23
    assert ep.status == "agreement"
    # the second RC concedes theta_f (4 points) as Table 7's ranking does: (3, 2, 1) after (3, 3, 1)
    assert offers[4][1] == (3, 2, 1)


def test_astra_agent_v4_plays_the_same_offers_after_the_partners_first_offer():
    """v4 invites the partner's offer first (Table 7's scripted partner then offers 17/21), so its
    first offer answers the partner's and Table 7's answer to it, AEO, comes one offer sooner: AEO,
    NCR, RC, RC; from its 33-point opening the second RC is 26, above the partner's standing 22."""
    ep, offers = play("astra-agent-v4")
    assert [t for _, _, t in offers] == ["AEO", "NCR", "RC", "RC"]
    assert [s for s, _, _ in offers] == [33, 33, 30, 26]
    assert ep.status == "agreement"


def test_astra_agent_v2_conceded_less_at_the_second_rc():
    _, offers = play("astra-agent-v2")
    assert [t for _, _, t in offers] == ["AEO", "AEO", "NCR", "RC", "RC"]
    assert offers[4][0] == 27  # RC ranked the concession closest to the partner's 1 point first
