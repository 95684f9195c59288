"""ASTRA's rules from constructed histories: stage 1, tactics (Table 5), decisions
(section 2.2), the consistency checker (Appendix A.1) and the protocol's checks."""

import gc
import weakref

import numpy as np
import pytest

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from policies import astra_modules as M
from policies.astra import V1_CHOICES, AgentParams, AstraAgent
from policies.lp import Solution
from scenarios.bilateral import load_domain
from simcore.errors import IllegalMove
from simcore.driver import play
from simcore.protocols.alternating import Action, AlternatingGame, Observation, Turn

CASINO = load_domain("casino-v1")
IPP = ("firewood", "water", "food")  # the integrative partner: firewood 5, water 4, food 3


def agent(order=IPP, **state):
    a = AstraAgent(CASINO, ModelClient(MockBackend(exact=True)), np.random.default_rng(0))
    a.prefs.order = order
    a.prefs.option_orders = {}
    a.questions_asked = 2
    for k, v in state.items():
        setattr(a, k, v)
    return a


def obs(turns, rnd=5, limit=15, warned=False):
    hist = tuple(Turn(s, "offer" if o is not None else "talk", "Here is my proposal.", o, "", 0) for s, o in turns)
    return Observation("agent", rnd, limit, hist, warned)


# ------------------------------------------------------------------ stage 1
def test_fairness_eq1():
    assert M.fairness(17, 21, 4, 36) == "fair"  # |17-21| <= 4
    assert M.fairness(10, 26, 4, 36) == "unfair"
    assert M.fairness(5, 18, 4, 36) == "fair"  # S_p <= PMS/2
    assert M.fairness(None, None, 4, 36) == "unknown"


def test_stance_eq2():
    assert M.stance([]) == ("unknown", 0.0)
    assert M.stance([21]) == ("neutral", 0.0)  # Table 7 "Neu." for the partner's first offer
    assert M.stance([21], "unknown") == ("unknown", 0.0)  # astra-agent-v1
    assert M.stance([21, 20]) == ("generous", -1.0)
    assert M.stance([21, 21]) == ("neutral", 0.0)
    assert M.stance([20, 23]) == ("greedy", 3.0)


def test_lambda_table_follows_figure3():
    assert M.choose_lambda("greedy", "unfair") == 0.9
    assert M.choose_lambda("neutral", "fair") == 0.5
    assert M.choose_lambda("generous", "fair") == 0.3


# ------------------------------------------------------------------ tactics (Table 5 "When")
V2 = M.TacticParams(**M.V2_TACTICS)  # astra-agent-v2's stage 3: the fixed precedence


def ctx(**kw):
    base = dict(offers_exchanged=6, agent_offers=3, partner_offer_sa=20.0, partner_offer_sp=16.0,
                stance="generous", stance_delta=-0.5, fairness="fair", agent_conceded=True,
                last_own_concession=1.0, agent_max=36.0, prev_own=26.0)
    base.update(kw)
    return M.TacticContext(**base)


@pytest.mark.parametrize("kw,tactic", [
    (dict(partner_offer_sa=5.0, stance="unknown", stance_delta=0.0, partner_offers=1), "REO"),  # extreme offer
    (dict(offers_exchanged=1, agent_offers=0, partner_offer_sa=None, partner_offer_sp=None,
          stance="unknown", stance_delta=0.0), "AEO"),  # start of negotiation
    (dict(stance="greedy", stance_delta=2.0), "RNC"),  # partner's last two offers increased its score
    (dict(stance="neutral", stance_delta=0.0, last_own_concession=4.0), "CSC"),  # after a large concession
    (dict(stance="neutral", stance_delta=0.0, fairness="unfair"), "NCR"),  # no concession, unfair
    (dict(stance="neutral", stance_delta=0.0, partner_offer_sa=22.0, partner_offer_sp=18.0), "NCR"),  # fair+firm
    (dict(stance_delta=-3.0), "RC"),  # significant partner concession
    (dict(offers_exchanged=4, agent_offers=1, agent_conceded=False, stance_delta=-0.5), "LIC"),
    (dict(partner_offer_sa=14.0, partner_offer_sp=22.0, fairness="unfair"), "MGF"),
    (dict(partner_offer_sa=22.0, partner_offer_sp=18.0, fairness="fair"), "LGR"),  # anytime
])
def test_each_tactic_when_condition(kw, tactic):
    # astra-agent-v2's fixed precedence picks the tactic; under v3 its "When" holds (it is applicable)
    assert M.select_tactic(ctx(**kw), V2) == tactic
    assert tactic in M.applicable(ctx(**kw), V2)


def test_v1_tactic_readings_stay_reachable():
    """astra-agent-v1: REO first whatever the stance, NCR only against an unfair firm offer."""
    v1 = M.TacticParams(order=M.ORDER_V1, hold_against_fair=False, stance_first=False, **M.V2_TACTICS)
    assert M.select_tactic(ctx(partner_offer_sa=5.0), v1) == "REO"  # generous partner, extreme offer
    assert M.select_tactic(ctx(stance="neutral", stance_delta=0.0, partner_offer_sa=22.0,
                               partner_offer_sp=18.0), v1) == "LGR"  # fair + firm: collaborate


def test_stance_comes_before_fairness_section_4_3():
    """Section 4.3: the agent "prioritized the partner's stance over fairness"; collaborative
    tactics for generous partners.  An extreme offer (agent 5 of 36) that follows a generous
    move gets a collaborative tactic, not REO (the v1 reading gave REO: fails there)."""
    generous_small = ctx(partner_offer_sa=5.0, partner_offer_sp=26.0, fairness="unfair", stance_delta=-0.5)
    generous_big = ctx(partner_offer_sa=5.0, partner_offer_sp=26.0, fairness="unfair", stance_delta=-3.0)
    for p in (V2, M.TacticParams()):  # v2's precedence and v3's best fit agree here
        assert M.select_tactic(generous_small, p) == "MGF"
        assert M.select_tactic(generous_big, p) == "RC"
    # a greedy or firm partner's extreme offer: v2's precedence lets the stance tactic decide; v3's
    # best fit answers the extreme offer itself (REO, competitive too, listed first in Table 5)
    greedy = ctx(partner_offer_sa=5.0, stance="greedy", stance_delta=2.0, partner_offers=2)
    assert M.select_tactic(greedy, V2) == "RNC" and M.select_tactic(greedy) == "REO"
    neutral = ctx(partner_offer_sa=5.0, stance="neutral", stance_delta=0.0, partner_offers=2)
    assert M.select_tactic(neutral, V2) == "NCR" and M.select_tactic(neutral) == "REO"
    # with no stance yet (the partner's first offer), the extreme offer decides: REO
    first = ctx(partner_offer_sa=5.0, stance="unknown", stance_delta=0.0, partner_offers=1)
    assert M.select_tactic(first, V2) == M.select_tactic(first) == "REO"
    # the public code's scope: REO only on the partner's initial offer (under 14 points there)
    code = M.TacticParams(reo_scope="initial", extreme_share=14 / 36 - 1e-6, **M.V2_TACTICS)
    assert M.select_tactic(first, code) == "REO"
    later = ctx(partner_offer_sa=5.0, partner_offer_sp=26.0, stance="unknown", stance_delta=0.0,
                partner_offers=3, fairness="unfair")
    assert M.select_tactic(later, V2) == "REO" and M.select_tactic(later, code) == "MGF"


def test_table7_tactic_sequence():
    """Table 7 (integrative case): after the agent's opening 30-point offer the partner offers
    17/21, repeats it (neutral), then 16/20 (generous, 1 point) and 22/18 (generous, 2 points);
    the paper's agent answers AEO, NCR, RC, RC, and so do the rules here: the third answer fixes
    ``TacticParams.significant`` at 1 (a 1-point concession is "significant").  astra-agent-v1's
    2 (no source) gave MGF there, and the public code's "e.g. by 3 points or more" would too."""
    fair = M.fairness  # eq. 1 with theta_f 4, PMS 36 (Table 7 prints "Unfair" for 17/21: |17-21| = 4)
    assert fair(17, 21, 4, 36) == fair(16, 20, 4, 36) == fair(22, 18, 4, 36) == "fair"
    t7 = dict(agent_max=36.0, agent_conceded=False, last_own_concession=0.0, prev_own=30.0)
    first = ctx(offers_exchanged=2, agent_offers=1, partner_offers=1, partner_offer_sa=17.0,
                partner_offer_sp=21.0, stance="unknown", stance_delta=0.0, fairness="fair", **t7)
    assert M.select_tactic(first) == M.select_tactic(first, V2) == "AEO"
    repeat = ctx(offers_exchanged=4, agent_offers=2, partner_offers=2, partner_offer_sa=17.0,
                 partner_offer_sp=21.0, stance="neutral", stance_delta=0.0, fairness="fair", **t7)
    # the firm partner's offer is fair by eq. 1: Table 5's literal NCR holds; the v1 reading
    # (NCR only against unfair offers, section 4.3) conceded with LIC instead
    assert M.select_tactic(repeat) == M.select_tactic(repeat, V2) == "NCR"
    assert M.select_tactic(repeat, M.TacticParams(order=M.ORDER_V1, hold_against_fair=False,
                                                  stance_first=False, **M.V2_TACTICS)) == "LIC"
    small = ctx(offers_exchanged=6, agent_offers=3, partner_offers=3, partner_offer_sa=16.0,
                partner_offer_sp=20.0, stance="generous", stance_delta=-1.0, fairness="fair", **t7)
    assert M.select_tactic(small) == M.select_tactic(small, V2) == "RC"
    assert M.select_tactic(small, M.TacticParams(significant=2.0)) == "MGF"
    assert M.select_tactic(small, M.TacticParams(significant=3.0)) == "MGF"
    t7.update(agent_conceded=True, last_own_concession=4.0, prev_own=26.0)
    last = ctx(offers_exchanged=8, agent_offers=4, partner_offers=4, partner_offer_sa=22.0,
               partner_offer_sp=18.0, stance="generous", stance_delta=-2.0, fairness="fair", **t7)
    assert M.select_tactic(last) == M.select_tactic(last, V2) == "RC"


def _cands(pairs):
    return [Solution(i, (i,), a, p, 0.0) for i, (a, p) in enumerate(pairs)]


def test_tactic_how_rankings_and_sa_scores():
    cands = _cands([(30, 10), (27, 15), (26, 14), (23, 19), (22, 18)])
    c = ctx(prev_own=30.0, stance_delta=-3.0)
    assert M.rank_by_tactic("AEO", cands, c)[0] == 0  # most self-favourable
    assert M.rank_by_tactic("NCR", cands, c)[0] == 0  # hold position (30)
    assert M.rank_by_tactic("RC", cands, c)[0] == 2  # concede ~theta_f (4), as Table 7 ranks
    assert M.rank_by_tactic("RC", cands, c, V2)[0] == 1  # v2: concede ~3 like the partner did
    assert M.rank_by_tactic("LIC", cands, c)[0] == 3  # give the partner the most
    assert M.rank_by_tactic("LGR", cands, c)[:2] == [1, 3]  # joint 42, ties by agent score
    assert M.rank_by_tactic("MGF", cands, c)[0] == 3  # most even split
    # (max - r) / (max - min): one candidate scores 1, the last 0 (paper Table 7 SA values)
    assert M.sa_scores([2, 1, 0, 3, 4]) == [0.5, 0.75, 1.0, 0.25, 0.0]
    assert M.sa_scores([0]) == [1.0]


def test_final_score_weights():
    paps = [(0.5, 0.4, 0.8), (0.2, 0.1, 0.5)]
    assert M.final_scores(paps, [0.0, 1.0], 0.35, 0.65) == pytest.approx([0.175, 0.72])


# ------------------------------------------------------------------ decisions (section 2.2)
def test_accepts_offer_meeting_its_most_recent_offer():
    a = agent(my_offers=[(3, 2, 0)])
    act = a.act(obs([("agent", (3, 2, 0)), ("partner", (3, 2, 0))]))
    assert act.kind == "accept"


def test_rejects_offer_below_its_most_recent_offer():
    a = agent(my_offers=[(3, 2, 0)])  # 23
    act = a.act(obs([("agent", (3, 2, 0)), ("partner", (3, 1, 0))]))  # 19
    assert act.kind == "offer"


def test_accepts_anything_above_batna_in_the_last_round_only():
    """Public code: the flag set at the end of the second-to-last round makes the agent take
    any partner offer >= BATNA in its turn of the last round (rounds_left 1)."""
    table = [("agent", (3, 3, 1)), ("partner", (1, 0, 0))]  # the partner's offer: 5 = BATNA
    assert agent(my_offers=[(3, 3, 1)]).act(obs(table, rnd=15, limit=15)).kind == "accept"
    assert agent(my_offers=[(3, 3, 1)]).act(obs(table, rnd=14, limit=15)).kind == "offer"  # v1: accept
    low = [("agent", (3, 3, 1)), ("partner", (0, 1, 0))]  # 4 < BATNA
    assert agent(my_offers=[(3, 3, 1)]).act(obs(low, rnd=15, limit=15)).kind != "accept"
    # the notes' wording ("in the second-to-last round") and astra-agent-v1 (both rounds) as options
    assert agent(my_offers=[(3, 3, 1)], p=AgentParams(deadline_rounds_left=(2,))).act(
        obs(table, rnd=14, limit=15)).kind == "accept"
    v1 = AgentParams.build(**V1_CHOICES)
    for rnd in (14, 15):
        assert agent(my_offers=[(3, 3, 1)], p=v1).act(obs(table, rnd=rnd, limit=15)).kind == "accept"


def test_walks_away_after_three_turns_without_concession():
    a = agent(my_offers=[(3, 3, 1)] * 4)
    turns = []
    for _ in range(4):
        turns += [("agent", (3, 3, 1)), ("partner", (2, 0, 0))]
    act = a.act(obs(turns))
    assert act.kind == "walk_away" and "no concession" in act.intent["why"]
    # three offers (two non-concessions) are not enough
    a = agent(my_offers=[(3, 3, 1)] * 3)
    assert a.act(obs(turns[:6])).kind == "offer"


def test_warns_then_walks_away_after_two_more_offers_below_batna():
    a = agent(my_offers=[(3, 3, 1)])
    first = [("agent", (3, 3, 1)), ("partner", (0, 0, 0))]  # agent 0 < BATNA
    act = a.act(obs(first))
    assert act.kind == "offer" and act.intent["warning"] is True
    # partner concedes under the IPP (36 -> 32 -> 31) but keeps the agent below BATNA
    later = first + [("agent", (3, 3, 1)), ("partner", (0, 1, 0))]
    assert a.act(obs(later)).kind == "offer"
    later += [("agent", (3, 3, 1)), ("partner", (0, 0, 1))]
    act = a.act(obs(later))
    assert act.kind == "walk_away" and "below BATNA" in act.intent["why"]


def test_asks_highest_then_lowest_then_proposes():
    a = AstraAgent(CASINO, ModelClient(MockBackend(exact=True)), np.random.default_rng(0))
    o = Observation("agent", 1, 15, (Turn("partner", "talk", "Hello! Let's start the negotiation."),), False)
    assert a.act(o).intent["mode"] == "ask_highest"
    h = o.history + (Turn("agent", "talk", "which item is your highest priority?"),
                     Turn("partner", "talk", "My highest priority is firewood; firewood matters most to us."))
    assert a.act(Observation("agent", 2, 15, h, False)).intent["mode"] == "ask_lowest"
    h += (Turn("agent", "talk", "which item is your lowest priority?"),
          Turn("partner", "talk", "My lowest priority is food; food matters least to us."))
    act = a.act(Observation("agent", 3, 15, h, False))
    # the partner makes the first offer (first_offer="partner", Figure 10): the agent invites it
    assert act.intent["mode"] == "invite" and a.prefs.order == ("firewood", "water", "food")
    h += (Turn("agent", "talk", act.text), Turn("partner", "talk", "Let's keep talking."))
    assert a.act(Observation("agent", 4, 15, h, False)).kind == "offer"  # invited once, then it offers


def test_unclear_answers_mean_opposite_of_own_priorities():
    a = AstraAgent(CASINO, ModelClient(MockBackend(exact=True)), np.random.default_rng(0))
    a.questions_asked = 2
    h = (Turn("partner", "talk", "Hard to say, every item is useful to us."),)
    a.act(Observation("agent", 3, 15, h, False))
    assert a.prefs.order == ("firewood", "water", "food")  # own is food > water > firewood


# ------------------------------------------------------------------ consistency checker (A.1)
def test_consistency_case1_table9_example():
    prefs = M.Preferences(CASINO, ("food", "water", "firewood"), order=IPP)
    # agent offer: agent 3 food, 2 water -> partner 19 under the IPP; partner's counter gives it 17
    reason = M.check_consistency(prefs, (3, 2, 0), (2, 2, 1))
    assert reason == "partner score in partner offer (17) < partner score in agent offer (19)"


def test_consistency_case2_and_reinference():
    prefs = M.Preferences(CASINO, ("food", "water", "firewood"), order=IPP)
    prefs.update({"highest": "water", "lowest": None})
    assert "stated highest water" in M.check_consistency(prefs, None, None)
    new = prefs.reinfer([])
    assert new[0] == "water" and M.check_consistency(prefs, None, None) is None


def test_agent_reinfers_and_asks_to_clarify_on_inconsistency():
    a = agent(my_offers=[(3, 2, 0)])
    act = a.act(obs([("agent", (3, 2, 0)), ("partner", (2, 2, 1))]))
    assert act.intent["mode"] == "ask_clarify"
    assert "inconsistency" in act.hidden and a.prefs.reinferences == 1


# ------------------------------------------------------------------ protocol
class Scripted:
    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, obs):
        return self.actions.pop(0)


def test_over_specified_offer_is_an_invalid_move():
    pv = CASINO.setup("integrative").partners[0]
    bad = {"self": {"food": 1, "water": 1, "firewood": 3}, "other": {"food": 3, "water": 2, "firewood": 0},
           "shared": {}}
    partner = Scripted([Action("offer", "I take 3 firewood, 1 food and 1 water...", bad),
                        Action("walk_away", "bye")])
    agent_ = Scripted([Action("talk", "hm")])
    ep = play(AlternatingGame(round_limit=3).start(CASINO, CASINO.agent, pv, "astra/t"), {"agent": agent_, "partner": partner})
    inv = [e for e in ep.events if e.phase == "invalid"]
    assert ep.invalid_moves == 1 and "food: asks for 1+3=4 units but only 3 exist" in inv[0].text
    assert ep.status == "walk_away" and ep.agent_score == 0


def test_accept_without_an_offer_on_the_table_is_illegal():
    pv = CASINO.setup("integrative").partners[0]
    with pytest.raises(IllegalMove):
        play(AlternatingGame().start(CASINO, CASINO.agent, pv, "astra/t"), {"agent": Scripted([]), "partner": Scripted([Action("accept", "ok")])})


def test_deadline_notice_and_round_limit():
    pv = CASINO.setup("integrative").partners[0]
    talk = Action("talk", "hm")
    ep = play(AlternatingGame(round_limit=4).start(CASINO, CASINO.agent, pv, "astra/t"),
              {"agent": Scripted([talk] * 4), "partner": Scripted([talk] * 4)})
    notice = [e for e in ep.events if e.phase == "deadline"]
    assert len(notice) == 1 and notice[0].round == 3
    assert ep.status == "no_agreement" and ep.rounds == 4


def test_two_time_based_partners_can_negotiate_for_100_rounds():
    """Two aspiration agents can be compared on CaSiNo with NegMAS: either partner
    kind can take the agent's seat and the round limit is a protocol parameter."""
    from policies.partners import make_partner

    pv = CASINO.setup("integrative").partners[0]
    client = ModelClient(MockBackend(exact=True))
    a = make_partner("boulware", CASINO, CASINO.agent, client, np.random.default_rng(1), side="agent")
    b = make_partner("boulware", CASINO, pv, client, np.random.default_rng(2))
    ep = play(AlternatingGame(round_limit=100).start(CASINO, CASINO.agent, pv, "astra/boulware-pair"), {"agent": a, "partner": b})
    assert ep.status == "agreement" and ep.rounds > 50
    offers_a = [e for e in ep.events if e.speaker == "agent" and "offer" in e.intent]
    own = [e.hidden["true_scores"][0] for e in offers_a]
    assert own == sorted(own, reverse=True)  # an aspiration agent never raises its demand


def test_a_finished_negotiation_is_freed_by_reference_counting():
    """The transcript (kept by the episode) refers to nothing that refers back to the state:
    with the garbage collector off, the state goes with its last reference and the rest with
    the episode's; the events are still there to read."""
    from policies.partners import make_partner

    pv = CASINO.setup("integrative").partners[0]
    a = make_partner("boulware", CASINO, CASINO.agent, None, np.random.default_rng(1), side="agent")
    b = make_partner("boulware", CASINO, pv, None, np.random.default_rng(2))
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        state = AlternatingGame(round_limit=30).start(CASINO, CASINO.agent, pv, "astra/freed")
        ep = play(state, {"agent": a, "partner": b})
        gone = weakref.ref(state)
        del state
        assert gone() is None
        assert ep.events[-1].phase == "end" and ep.events[2].intent["mode"] == "offer"
        del ep
        assert gc.collect() == 0  # (nothing left in reference cycles for the collector to find)
    finally:
        if was:
            gc.enable()


def test_default_option_orders_are_the_opposite_of_the_agents_own_values():
    """An agent seated with other values assumes the opposite of *its own* option orders."""
    research = load_domain("research-allocation-v1")
    own = research.setup("integrative").partners[0]
    agent = AstraAgent(research, ModelClient(MockBackend(exact=True)), np.random.default_rng(0), values=own)
    mine = research.option_orders_of(own)
    assert agent.prefs.default_option_orders() == {k: tuple(reversed(v)) for k, v in mine.items()}


@pytest.mark.parametrize("kind", ["base", "greedy", "fair", "boulware", "conceder"])
@pytest.mark.parametrize("side", ["agent", "partner"])
def test_partner_scores_from_the_table_equal_the_direct_scores(kind, side):
    from policies.partners import make_partner

    values = CASINO.agent if side == "agent" else CASINO.setup("integrative").partners[0]
    p = make_partner(kind, CASINO, values, None, np.random.default_rng(0), side=side)
    for o in CASINO.outcomes:
        assert p.own_score(o) == CASINO.score(values, o, side)
    assert p.own_score([3, 2, 0]) == CASINO.score(values, (3, 2, 0), side)  # not an outcome tuple: computed
    o = obs([("partner", (1, 1, 1))], rnd=14, warned=True)
    assert p.accept_level(o, p.aspiration(o)) == p.accept_level(o)


@pytest.mark.parametrize("domain_id", ["casino-v1", "research-allocation-v1"])
@pytest.mark.parametrize("side", ["agent", "partner"])
def test_pick_ranks_by_own_score_then_most_units_to_the_other_side_then_enumeration(domain_id, side):
    from policies.partners import make_partner

    d = load_domain(domain_id)
    values = d.agent if side == "agent" else d.setup("integrative").partners[0]
    p = make_partner("base", d, values, None, np.random.default_rng(0), side=side)
    total = sum(i.count for i in d.issues if i.kind == "integer")
    other = [u if side == "partner" else total - u for u in d.agent_units]  # units to the other side
    key = [(d.score(values, o, side), -other[i], i) for i, o in enumerate(d.outcomes)]
    expected = [(d.outcomes[i], key[i][0]) for i in sorted(range(len(key)), key=key.__getitem__)]
    assert list(p.ranked_outcomes()) == expected
    assert p.pick(expected[3][1]) == next(o for o, s in expected if s >= expected[3][1] - 1e-9)


def test_an_offer_moves_intent_is_its_target_rounded_to_four_places():
    from policies.partners import OfferIntent, make_partner

    intent = OfferIntent(30.123456789)
    assert dict(intent) == {"mode": "offer", "target": 30.1235} == intent
    assert intent.get("tactic") is None and len(intent) == 2 and list(intent) == ["mode", "target"]
    pv = CASINO.setup("integrative").partners[0]
    a = make_partner("boulware", CASINO, CASINO.agent, None, np.random.default_rng(1), side="agent")
    b = make_partner("conceder", CASINO, pv, None, np.random.default_rng(2))
    ep = play(AlternatingGame(round_limit=20).start(CASINO, CASINO.agent, pv, "astra/targets"), {"agent": a, "partner": b})
    offers = [e for e in ep.events if e.phase == "offer"]
    assert offers and all(e.intent["target"] == round({"agent": a, "partner": b}[e.speaker]._aspiration(e.round, 20), 4)
                          and list(e.intent) == ["mode", "target", "offer", "offer_text"] for e in offers)


def test_offers_only_negotiation_matches_the_one_with_words_at_zero_noise():
    """client=None (offers only) is the same negotiation as words through the exact mock."""
    from policies.partners import make_partner

    pv = CASINO.setup("integrative").partners[0]
    eps = []
    for client in (None, ModelClient(MockBackend(exact=True))):
        a = make_partner("boulware", CASINO, CASINO.agent, client, np.random.default_rng(1), side="agent")
        b = make_partner("conceder", CASINO, pv, client, np.random.default_rng(2))
        eps.append(play(AlternatingGame(round_limit=30).start(CASINO, CASINO.agent, pv, "astra/pair"), {"agent": a, "partner": b}))
    bare, words = eps
    assert (bare.status, bare.outcome, bare.rounds, bare.agent_score) == \
        (words.status, words.outcome, words.rounds, words.agent_score)
    assert [(e.speaker, e.phase, e.intent, e.hidden) for e in bare.events] == \
        [(e.speaker, e.phase, e.intent, e.hidden) for e in words.events]


def test_lic_when_has_no_fairness_condition():
    """Table 5 LIC "When: Early in the negotiation; no initial concessions have been made" -- no
    fairness condition.  Early, the agent not yet conceded, an unfair offer after a small
    generous move: LIC.  v1 required a fair offer (MGF there): fails under it."""
    c = ctx(offers_exchanged=4, agent_offers=1, agent_conceded=False, stance_delta=-0.5,
            partner_offer_sa=14.0, partner_offer_sp=22.0, fairness="unfair")
    assert M.select_tactic(c, V2) == "LIC" and "LIC" in M.applicable(c)
    assert M.select_tactic(c, M.TacticParams(lic_needs_fair=True, **M.V2_TACTICS)) == "MGF"
    assert "LIC" not in M.applicable(c, M.TacticParams(lic_needs_fair=True))


def test_every_tactic_is_the_best_fit_in_some_casino_state():
    """Under v2's fixed precedence LGR, LIC, MGF and REO were never chosen once the partner
    had offered; v3's best fit among the applicable tactics reaches all nine (CaSiNo numbers: 36
    points each, theta_f 4)."""
    import itertools

    seen, seen_v2_after_offer = set(), set()
    deltas = {"unknown": (0.0,), "greedy": (2.0,), "neutral": (0.0,), "generous": (-1.0, -3.0)}
    for st, fair, sa, sp, exch, mine, conceded, last, before in itertools.product(
            deltas, ("fair", "unfair"), (5.0, 16.0, 22.0), (14.0, 26.0), (1, 4, 8), (0, 1, 3),
            (False, True), (0.0, 4.0), (False, True)):
        for delta in deltas[st]:
            offers = 0 if st == "unknown" and exch == 1 else (1 if st == "unknown" else 3)
            c = M.TacticContext(offers_exchanged=exch, agent_offers=mine, partner_offer_sa=sa if offers else None,
                                partner_offer_sp=sp if offers else None, stance=st, stance_delta=delta,
                                fairness=fair, agent_conceded=conceded, last_own_concession=last,
                                agent_max=36.0, prev_own=30.0, partner_offers=offers, theta_f=4.0,
                                partner_conceded_before=before)
            seen.add(M.select_tactic(c))
            if offers >= 2:
                seen_v2_after_offer.add(M.select_tactic(c, V2))
    assert seen == set(M.TACTICS)
    assert {"LGR", "LIC", "MGF", "REO"} - seen_v2_after_offer  # v2 left some of them unreachable


def test_csc_makes_a_smaller_concession():
    """Table 5 CSC "How: Make a smaller concession": v3 never holds when a concession is possible;
    v2's distance-only ranking held (the 30-point candidate first) when the only concessions were
    as large as the last one."""
    cands = _cands([(30, 10), (26, 14), (22, 18)])
    c = ctx(prev_own=30.0, last_own_concession=4.0, stance="neutral", stance_delta=0.0)
    assert M.rank_by_tactic("CSC", cands, c)[0] != 0
    assert M.rank_by_tactic("CSC", cands, c, V2)[0] == 0
    smaller = _cands([(30, 10), (28, 12), (26, 14)])
    assert M.rank_by_tactic("CSC", smaller, c)[0] == 1  # 2 points: smaller than the last 4


def test_a_role_that_accepts_with_nothing_on_the_table_is_an_illegal_move():
    """A model in the astra.partner role may answer "accept" when the agent has put
    nothing on the table: the game refuses it as an illegal move, blamed on the partner."""
    class AcceptAlways:
        def choose(self, partner, obs, on_table, offer):
            return None  # accept

    from policies.partners import make_partner

    pv = CASINO.setup("integrative").partners[0]
    client = ModelClient(MockBackend())
    a = make_partner("base", CASINO, CASINO.agent, client, np.random.default_rng(1), side="agent")
    b = make_partner("base", CASINO, pv, client, np.random.default_rng(2))
    b.move_role = AcceptAlways()  # the partner's second turn: the agent has only greeted
    with pytest.raises(IllegalMove, match="ACCEPT is legal only") as err:
        play(AlternatingGame(round_limit=5).start(CASINO, CASINO.agent, pv, "p"), {"agent": a, "partner": b})
    assert "seat 'partner'" in str(err.value)
