"""Every branch of every response tree, reached through a constructed state (table-driven),
plus the seed's own numbers: isAcceptable with ``>`` and 0.7 (Fig. 2)."""

import pytest

from policies.dominance import RULES, UNREACHABLE, AgentParams, DominanceAgent
from policies.dominance_state import total_order
from scenarios.restaurants import load_domain
from simcore.protocols.dialogue import (Accept, AskPreference, Booking, Propose, Proposal, Quit, Reject,
                                        StatePreference)

DOM = load_domain("restaurants-small-v1")
# cuisine scores: Italian 4, French 2, Japanese 0, Chinese -2, Turkish -4
ORDERS = {"cuisine": ["Italian", "French", "Japanese", "Chinese", "Turkish"], "cost": ["cheap", "expensive"],
          "ambiance": ["calm", "noisy"]}


def agent(relation, **kw):
    prefs = {c.name: total_order(c.name, ORDERS[c.name], c.values) for c in DOM.criteria}
    return DominanceAgent("agent", relation, DOM, prefs, **kw)


def V(c, v):
    return Proposal(c, v)


def O(name):
    return Proposal("restaurant", name)


def best_option(a):
    return a.judge.order[0]


def worst_option(a):
    return a.judge.order[-1]


def reject_better_than(a, name):
    for n in a.judge.order:
        if n == name:
            break
        a.perceive(Reject(O(n)))


def reject_all_acceptable(a):
    for n in a.judge.order:
        if a.option_acceptable(n):
            a.perceive(Reject(O(n)))


# (relation, setup(agent) -> heard utterance, expected figure, expected rule, expected reply type)
CASES = [
    ("dominant", lambda a: None, "open", "open.dominant", Propose),
    ("peer", lambda a: None, "open", "open.peer", StatePreference),
    ("submissive", lambda a: None, "open", "open.submissive", AskPreference),
    ("peer", lambda a: StatePreference("cuisine", "Chinese", "Italian"), "Fig. 1", "F1.propose-more", Propose),
    ("peer", lambda a: StatePreference("cuisine", "Italian", "Turkish"), "Fig. 1", "F1.react", StatePreference),
    ("dominant", lambda a: AskPreference("cuisine"), "Sec. 2", "F2.react", StatePreference),
    ("dominant", lambda a: Propose(V("cuisine", "Italian")), "Fig. 4", "F4.accept", Accept),
    ("dominant", lambda a: Propose(V("cuisine", "Chinese")), "Fig. 4", "F4.dominant-counter-propose", Propose),
    ("dominant", lambda a: (a.perceive(Reject(V("cuisine", "Italian"))), Propose(V("cuisine", "French")))[1],
     "Fig. 4", "F4.dominant-reject", Reject),
    ("submissive", lambda a: Propose(V("cuisine", "Turkish")), "Fig. 4", "F4.submissive-state", StatePreference),
    ("peer", lambda a: Propose(V("cuisine", "Turkish")), "Fig. 4", "F4.peer-reject", Reject),
    ("peer", lambda a: Propose(O(best_option(a))), "Fig. 5", "F5.booking", Booking),
    ("dominant", lambda a: Propose(O(worst_option(a))), "Fig. 5", "F5.dominant-counter-propose", Propose),
    ("submissive", lambda a: Propose(O(worst_option(a))), "Fig. 5", "F5.submissive-state", StatePreference),
    ("peer", lambda a: Propose(O(worst_option(a))), "Fig. 5", "F5.peer-reject", Reject),
    ("dominant", lambda a: Accept(O("Chez Luigi")), "Fig. 6", "F6.booking", Booking),
    ("peer", lambda a: Accept(V("cuisine", "Italian")), "Fig. 6", "F6.propose-option", Propose),
    ("submissive", lambda a: (a.perceive(Accept(V("cuisine", "Italian"))), a.perceive(Accept(V("cost", "cheap"))),
                              Accept(V("ambiance", "calm")))[2],
     "Fig. 6", "F6.submissive-propose-option", Propose),
    ("dominant", lambda a: (a.perceive(Accept(V("cost", "expensive"))), Accept(V("cuisine", "Turkish")))[1],
     "Fig. 6", "F6.dominant-open-propose", Propose),
    ("peer", lambda a: (a.perceive(Accept(V("cost", "expensive"))), Accept(V("cuisine", "Turkish")))[1],
     "Fig. 6", "F6.peer-open-state", StatePreference),
    ("submissive", lambda a: Accept(V("cuisine", "Italian")), "Fig. 6", "F6.submissive-open-ask", AskPreference),
    ("dominant", lambda a: (a.perceive(Accept(V("cost", "expensive"))), a.perceive(Accept(V("ambiance", "noisy"))),
                            Accept(V("cuisine", "Turkish")))[2],
     "Fig. 6", "F6.propose-best-option", Propose),
    ("dominant", lambda a: Reject(V("cuisine", "Italian")), "Fig. 7", "F7.dominant-repropose", Propose),
    ("submissive", lambda a: Reject(V("cuisine", "Italian")), "Fig. 7", "F7.submissive-ask", AskPreference),
    ("peer", lambda a: Reject(V("cuisine", "Italian")), "Fig. 7", "F7.peer-state", StatePreference),
    ("dominant", lambda a: Reject(V("cuisine", "French")), "Fig. 7", "F7.dominant-propose-other", Propose),
    ("dominant", lambda a: Reject(O(best_option(a))), "Fig. 8", "F8.dominant-repropose", Propose),
    ("submissive", lambda a: Reject(O(best_option(a))), "Fig. 8", "F8.submissive-ask", AskPreference),
    ("peer", lambda a: Reject(O(best_option(a))), "Fig. 8", "F8.peer-state", StatePreference),
    ("dominant", lambda a: Reject(O(a.judge.order[1])), "Fig. 8", "F8.propose-other", Propose),
    ("dominant", lambda a: (reject_all_acceptable(a), Reject(V("cuisine", "French")))[1],
     "exit", "exit.dead-end", Quit),
    ("dominant", lambda a: hear_twice(a, Propose(V("cuisine", "Chinese"))), "exit", "exit.repeat", Quit),
    ("dominant", lambda a: (a.commit(Propose(V("cuisine", "Italian"))), Propose(V("cuisine", "Chinese")))[1],
     "exit", "exit.criterion", Quit),
]


def hear_twice(a, heard):
    """The same utterance heard and answered twice (the second time after my answer was
    countered); a third hearing repeats the exchange with nothing new."""
    for _ in range(2):
        a.perceive(heard)
        a.commit(a.decide(heard).utterance)
    return heard


@pytest.mark.parametrize("relation,setup,figure,rule,reply", CASES, ids=[c[3] + ":" + c[0] for c in CASES])
def test_branch_reached(relation, setup, figure, rule, reply):
    a = agent(relation, params=AgentParams(exit_criterion=rule == "exit.criterion"))
    heard = setup(a)
    if heard is not None:
        a.perceive(heard)
    dec = a.decide(heard)
    assert (dec.figure, dec.rule) == (figure, rule), dec
    assert isinstance(dec.utterance, reply)


def test_table_covers_every_named_branch():
    reached = {c[3] for c in CASES}
    named = {r for rules in RULES.values() for r in rules}
    assert reached == named
    assert not (set(UNREACHABLE) & named)


def test_dominant_option_reject_only_in_a_dead_end():
    a = agent("dominant")
    name = next(n for n in a.judge.order if not a.option_acceptable(n))
    reject_better_than(a, name)
    assert a.decide(Propose(O(name))).rule == "exit.dead-end"


def test_fig1_peer_proposes_only_acceptable_more():
    a = agent("peer")
    assert a.decide(StatePreference("cuisine", "Turkish", "French")).rule == "F1.propose-more"
    assert a.decide(StatePreference("cuisine", "Turkish", "Japanese")).rule == "F1.react"  # score 0: not > 0


def test_dominant_counter_proposal_is_better():
    a = agent("dominant")
    dec = a.decide(Propose(V("cuisine", "Japanese")))
    assert dec.utterance == Propose(V("cuisine", "Italian"))


def test_submissive_state_names_least_scored_value_of_option():
    a = agent("submissive")
    name = worst_option(a)  # Turkish, expensive, noisy
    dec = a.decide(Propose(O(name)))
    assert dec.utterance == StatePreference("cuisine", "Turkish", "Italian")


def test_submissive_takes_an_option_already_on_the_table():
    a = agent("submissive")
    name = worst_option(a)
    a.perceive(Propose(O(name)))
    assert a.decide(Propose(O(name))).rule == "F5.submissive-state"
    a.perceive(Propose(O(name)))  # proposed a second time: now "already on the table"
    assert a.decide(Propose(O(name))).rule == "F5.booking"


# --- Fig. 3 lines -------------------------------------------------------------
def test_react_to_user_lines():
    a = agent("peer")
    pair, why = a.react_to_user("cuisine", "Chinese", "Italian")
    assert pair == (None, "Italian") and "lines 2-3" in why
    pair, why = a.react_to_user("cuisine", "Chinese", "Turkish")
    assert pair == ("Turkish", None) and "lines 4-5" in why
    pair, why = a.react_to_user("cuisine", "Italian", "Chinese")
    assert pair == (None, "Italian") and "line 6" in why
    pair, why = a.react_to_user("cuisine", "Japanese", "French")
    assert pair == ("Japanese", "French") and "line 15" in why
    a.commit(StatePreference("cuisine", "Japanese", "French"))
    pair, why = a.react_to_user("cuisine", "Japanese", "French")
    assert "lines 7-9" in why and pair == ("French", "Italian")


def test_react_to_user_exhausted_repeats_compute_preference():
    a = agent("peer")
    for less, more in [("Turkish", "Chinese"), ("Chinese", "Japanese"), ("Japanese", "French"),
                       ("French", "Italian")]:
        a.commit(StatePreference("cuisine", less, more))
    a.commit(StatePreference("cuisine", None, "Italian"))
    a.commit(StatePreference("cuisine", "Turkish", None))
    pair, why = a.react_to_user("cuisine", "Japanese", "French")
    assert pair == ("Japanese", "French") and "line 13" in why


# --- Fig. 2 with the seed's numbers -----------------------------------------------
def test_is_acceptable_fig2_strict_and_0_7():
    d = agent("dominant")
    # 5 values: scores 4, 2, 0, -2, -4; 0.7 x 4 = 2.8 -> only the top value
    assert [v for v in ORDERS["cuisine"] if d.is_acceptable("cuisine", v)] == ["Italian"]
    # 2 values: scores 1, -1; 1 > 0.7
    assert d.is_acceptable("cost", "cheap") and not d.is_acceptable("cost", "expensive")
    # the comparison is strict: with the factor at 0.5 the threshold is 2.0, and French (score 2) is out
    from policies.dominance import AgentParams

    half = agent("dominant", params=AgentParams(dominant_factor=0.5))
    assert [v for v in ORDERS["cuisine"] if half.is_acceptable("cuisine", v)] == ["Italian"]
    p = agent("peer")
    assert [v for v in ORDERS["cuisine"] if p.is_acceptable("cuisine", v)] == ["Italian", "French"]
    s = agent("submissive")
    assert not s.is_acceptable("cuisine", "Japanese")  # score 0 is not > 0
    s.commit(StatePreference("cuisine", "Japanese", "Italian"))
    assert s.is_acceptable("cuisine", "Japanese")  # isInOAS
    # a factor of 0.4: 2 > 1.6 -> the dominant also takes French
    d2 = agent("dominant", params=AgentParams(dominant_factor=0.4))
    assert d2.is_acceptable("cuisine", "French")


def test_option_shares():
    d, p = agent("dominant"), agent("peer")
    n_dom = sum(d.option_acceptable(o.name) for o in DOM.options)
    n_peer = sum(p.option_acceptable(o.name) for o in DOM.options)
    assert n_dom >= 5 and n_peer >= 10 and n_dom < n_peer
    assert d.option_acceptable(d.judge.order[0])
