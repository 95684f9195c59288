"""NegotiationArena's buy-sell game: each cited rule of the game, the words' round trip, the stand-in,
check_policy, seats for a user's agent (the environment against the run, api_test and random legal
play: tests/core/test_env.py, as for every system; the study: test_buysell_study.py)."""

from __future__ import annotations

import pytest

from mockllm.buysell import READ, SPEAK, public_turn
from simcore.errors import AgentError, IllegalMove, ParseError
from simcore.protocols.buysell import Action, BuySellGame, Scenario
from simcore.systems.buysell import episode
from simcore.testing import ConformanceError, check_policy


def play(*actions, turns=10, enforce=True, scenario=Scenario()):
    state = BuySellGame(turns=turns, enforce_limit=enforce).start(scenario, "t")
    for a in actions:
        state.apply(a)
    return state


P = lambda price: Action("PROPOSAL", price=price)  # noqa: E731


def test_the_seller_opens_and_turns_alternate():
    state = play()
    order = []
    for price in (50, 42, 48):
        order.append(state.to_act)
        state.apply(P(price))
    assert order == ["seller", "buyer", "seller"] and state.to_act == "buyer" and state.turn == 4


def test_accept_takes_the_turn_befores_price_and_pays_price_minus_cost_and_value_minus_price():
    ep = play(P(50), P(45), Action("ACCEPT")).outcome
    assert (ep.status, ep.price, ep.seller_payoff, ep.buyer_payoff, ep.ended_by) == ("deal", 45, 5, 15, "seller")


def test_reject_ends_without_a_trade_and_so_does_accepting_nothing():
    assert (play(P(50), Action("REJECT")).outcome.status, play(P(50), Action("REJECT")).outcome.buyer_payoff) \
        == ("rejected", 0)
    ep = play(Action("ACCEPT")).outcome
    assert (ep.status, ep.price, ep.seller_payoff, ep.turns) == ("nothing_to_accept", None, 0, 1)


def test_each_player_proposes_at_most_turns_over_two_minus_one_times_then_only_accepts_or_rejects():
    state = play(*[P(50 - i) for i in range(8)])  # 4 proposals each
    assert state.observe("seller").proposals_left == 0 and state.legal("seller").decisions == ("ACCEPT", "REJECT")
    with pytest.raises(IllegalMove, match="no proposals left"):
        state.apply(P(45))
    assert state.turn == 9 and len(state.transcript) == 8  # unchanged
    state.apply(Action("REJECT"))
    assert state.outcome.status == "rejected"


def test_the_game_ends_after_the_turn_limit_and_the_limit_on_proposals_is_a_choice():
    ep = play(*[P(50) for _ in range(10)], enforce=False).outcome
    assert (ep.status, ep.turns, ep.seller_payoff, ep.buyer_payoff) == ("turn_limit", 10, 0, 0)
    with pytest.raises(IllegalMove, match="the negotiation is over"):
        play(*[P(50) for _ in range(10)], enforce=False).apply(Action("REJECT"))


def test_a_stated_price_the_buyer_cannot_pay_is_a_counted_invalid_move_a_decided_one_illegal():
    state = play(Action("PROPOSAL", "For 101 ZUP.", 101))
    assert state.table is None and state.outcome is None and state.history[-1].invalid
    assert [e.phase for e in state.transcript] == ["proposal", "invalid"]
    state.apply(Action("ACCEPT"))
    assert (state.outcome.status, state.outcome.invalid_moves) == ("nothing_to_accept", 1)
    with pytest.raises(IllegalMove, match="not a whole number of ZUP from 0 to 100"):
        play(P(101))
    with pytest.raises(IllegalMove, match="unknown answer"):
        play(Action("MAYBE"))


def test_a_seat_sees_its_own_value_never_the_others():
    a, b = play(P(50), scenario=Scenario(cost=10)), play(P(50), scenario=Scenario(cost=45))
    assert a.observe("buyer") == b.observe("buyer") and a.observe("buyer").value == 60
    assert a.observe("seller").value == 10 and "not buyer's turn" not in a.legal("buyer").why_not(Action("REJECT"))
    assert a.legal("seller").why_not(Action("REJECT")) == "it is not seller's turn"


def test_the_words_round_trip_and_a_different_move_or_object_is_refused():
    ctx = dict(role="seller", answer="PROPOSAL", price=47, item="X", money="ZUP")
    text = SPEAK.render(ctx, 47)
    assert SPEAK.interpret(text, ctx) == ("PROPOSAL", 47, "I can sell you the X for 47 ZUP.")
    for bad in (text.replace("PROPOSAL", "ACCEPT"), text.replace("X: 1", "X: 2"), text.replace("ZUP: 47", "USD: 47")):
        with pytest.raises(ParseError):
            SPEAK.interpret(bad, ctx)
    turn = dict(turn=public_turn("I can pay 42 ZUP.", "PROPOSAL", "Player RED Gives X: 1 | Player BLUE Gives ZUP: 42"),
                money="ZUP", budget=100)
    assert READ.expected(turn) == {"answer": "PROPOSAL", "price": 42}
    with pytest.raises(ParseError):
        READ.interpret('{"answer": "PROPOSAL", "price": 101}', turn)


def test_the_stand_in_concedes_toward_its_value_and_accepts_its_next_offer():
    ep = episode(seed=0, backend="mock-exact-v1")
    proposals = [(e.speaker, e.intent["price"]) for e in ep.events if e.phase == "proposal"]
    assert proposals[:4] == [("seller", 50), ("buyer", 42), ("seller", 48), ("buyer", 43)]  # 1.25 x 40, 0.7 x 60
    assert (ep.status, ep.price) == ("deal", 45)


class Overasks:
    """Asks the buyer for more money than it holds, in words: every proposal refused as invalid."""

    def act(self, obs):
        return Action("PROPOSAL", "Give me 500 ZUP.", 500) if obs.proposals_left else Action("REJECT", "No.")


class NeverStops:
    """Proposes a price nobody takes, and again after its proposals are spent: an illegal move."""

    def act(self, obs):
        return Action("PROPOSAL", price=0 if obs.role == "buyer" else 100)


class Fair:
    """Proposes 45 and accepts 45 or better: sound in the seller's seat."""

    def __init__(self, private):
        self.value = private

    def act(self, obs):
        if obs.table is not None and obs.table >= 45:
            return Action("ACCEPT")
        return Action("PROPOSAL", price=45) if obs.proposals_left else Action("REJECT")


def test_check_policy_passes_the_stand_ins_and_finds_a_broken_agent():
    assert check_policy("buysell-seller-gpt-4-v1", seeds=range(2)) > 0
    assert check_policy("buysell-buyer-gpt-4-v1", seeds=range(2)) > 0
    assert check_policy(Fair, system="buysell", seeds=range(2)) > 0
    with pytest.raises(ConformanceError, match="its proposal was refused as invalid: the price 500"):
        check_policy(Overasks, system="buysell", seeds=range(1))
    with pytest.raises(ConformanceError, match="no proposals left"):
        check_policy(NeverStops, system="buysell", seeds=range(1))


def test_a_users_agent_takes_a_seat_by_class_instance_path_or_id_and_its_illegal_move_is_its_own():
    for seller in (Fair, Fair(40), "tests.systems.buysell.test_buysell:Fair", "buysell-seller-claude-2.1-v1", "claude-2.1"):
        ep = episode(seller, "gpt-4", seed=3)
        assert ep.status == "deal" and ep.events[0].text  # a decision without words is said by the seat's voice
    with pytest.raises(AgentError, match="NeverStops.*no proposals left"):
        episode(NeverStops, seed=1)

