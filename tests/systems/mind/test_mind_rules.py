"""MIND's and Base's decision rules, row by row, and the protocol's vote count."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from policies.mad import MadPolicy
from policies.mind import MindPolicy
from policies.travel_common import group_middle, middle_ground
from scenarios.travel import ITEMS, band
from simcore.protocols.travel_moves import Dissent, Me, fallback_value
from tests.strategies import travel_items

PRICE = ITEMS["acc_price"]          # ordinal: Economy < Budget < Moderate < Upscale < Luxury, + Flexible
RULES = ITEMS["acc_house_rules"]    # nominal, flexible "No specific requirements"
MIND = MindPolicy()


def me(w, value="Budget", item=PRICE):
    return Me(item, value, w)


@pytest.mark.parametrize("w, proposal, guess, last, strategy, vote, revised", [
    (7, "Budget", 9, None, "accept", "AGREE", None),             # row 1: proposal is own value
    (7, "Luxury", 2, "Luxury", "push", "DISAGREE", "Budget"),    # row 1 is own value only (B7), not the last offer
    (3, "Luxury", 1, None, "yield", "AGREE", None),              # row 2: Neutral band follows the majority
    (6, "Luxury", 8, None, "yield", "AGREE", None),              # row 3: guessed urgency higher
    (10, "Luxury", 5, None, "push", "DISAGREE", "Budget"),       # row 4: much higher
    (8, "Luxury", 2, None, "push", "DISAGREE", "Budget"),        # row 4: much higher, Firm pushes too (B7)
    (6, "Luxury", 5, None, "compromise", "DISAGREE", "Moderate"),  # row 5: similar
    (6, "Luxury", None, None, "compromise", "DISAGREE", "Moderate"),  # no cue: guess 5
])
def test_mind_voter_table(w, proposal, guess, last, strategy, vote, revised):
    v = MIND.vote(me(w), proposal, guess, last)
    assert (v.strategy, v.vote, v.revised_value) == (strategy, vote, revised)


@pytest.mark.parametrize("w, proposal, guess, last, strategy, vote, revised", [
    (7, "Luxury", 2, "Luxury", "accept", "AGREE", None),         # v1 row 1: also its own last offer
    (10, "Luxury", 5, None, "push", "DISAGREE", "Budget"),       # v1 row 4: much higher and Strict
    (8, "Luxury", 2, None, "compromise", "DISAGREE", "Moderate"),  # v1 row 5: higher but only Firm
])
def test_mind_v1_voter_table_is_still_reachable(w, proposal, guess, last, strategy, vote, revised):
    from simcore.registry import make

    v = make("policy", "mind-v1").vote(me(w), proposal, guess, last)
    assert (v.strategy, v.vote, v.revised_value) == (strategy, vote, revised)


@pytest.mark.parametrize("w, strategy, vote", [(10, "push", "DISAGREE"), (9, "push", "DISAGREE"),
                                               (7, "compromise", "DISAGREE"), (6, "yield", "AGREE"),
                                               (4, "yield", "AGREE"), (2, "yield", "AGREE")])
def test_tone_only_voter_uses_band_stance(w, strategy, vote):
    # B5: Strict "No compromise", Firm "Compromise only if necessary", Warm "Ready to accommodate",
    # Neutral "Follow the majority"
    v = MindPolicy(appraisal=False).vote(me(w), "Luxury", 10)
    assert (v.strategy, v.vote) == (strategy, vote) and v.guessed_w is None


@pytest.mark.parametrize("pid, warm_vote", [("tone-only-v3", "AGREE"), ("tone-only-v2", "DISAGREE"),
                                            ("tone-only-v1", "DISAGREE")])
def test_tone_only_warm_voter_accommodates_from_v3_on(pid, warm_vote):
    from simcore.registry import make

    assert make("policy", pid).vote(me(5), "Luxury", 10).vote == warm_vote


@pytest.mark.parametrize("w_p, dissents, voters, action, value", [
    # signal reading: Warm proposer, a dissenter sounds Firm
    (5, [Dissent(1, "Economy", 8), Dissent(2, "Moderate", 4)], 2, "UPDATE", "Economy"),
    # majority pressure, a value voiced twice
    (8, [Dissent(1, "Upscale", 5), Dissent(2, "Upscale", 6), Dissent(3, "Budget", 6)], 3, "UPDATE", "Upscale"),
    # majority pressure, no shared value: compromise towards the dissent
    (8, [Dissent(1, "Luxury", 5), Dissent(2, "Upscale", 6)], 2, "COMPROMISE", "Upscale"),
    # even split, proposer below Strict: must change
    (7, [Dissent(1, "Economy", 5)], 2, "COMPROMISE", "Economy"),
    # even split, Strict proposer keeps
    (9, [Dissent(1, "Economy", 5)], 2, "KEEP", "Budget"),
    # majority against a 10: keeps
    (10, [Dissent(1, "Economy", 9), Dissent(2, "Moderate", 9)], 2, "KEEP", "Budget"),
])
def test_mind_proposer_table(w_p, dissents, voters, action, value):
    up = MIND.update(me(w_p), "Budget", dissents, voters)
    assert (up.action, up.value) == (action, value)


def test_no_cue_guess_at_the_signal_threshold_does_not_crash():
    loud_by_default = MindPolicy(no_cue_guess=7)
    up = loud_by_default.update(me(5), "Budget", [Dissent(1, "Economy", None), Dissent(2, "Luxury", 4)], 2)
    assert (up.action, up.value, up.reason) == ("UPDATE", "Economy", "signal")


def test_the_vote_records_the_guess_it_acted_on():
    assert MIND.vote(me(6), "Luxury", None).used_w == 5
    assert MIND.vote(me(6), "Luxury", 8).used_w == 8
    assert MindPolicy(appraisal=False).vote(me(6), "Luxury", 8).used_w is None


def test_appraisal_only_ignores_silent_dissent_but_mind_hears_it():
    silent = [Dissent(1, "Economy", None)]
    assert MindPolicy(tone=False).update(me(9), "Budget", silent, 2).action == "KEEP"
    assert MIND.update(me(5), "Budget", [Dissent(1, "Economy", 9)], 2).reason == "signal"


@pytest.mark.parametrize("w, vote", [(3, "AGREE"), (4, "DISAGREE"), (9, "DISAGREE")])
def test_base_voter(w, vote):
    v = MadPolicy().vote(me(w), "Luxury", None)
    assert v.vote == vote and (v.revised_value in (None, "Budget"))


@pytest.mark.parametrize("pid, w, vote", [("base-v2", 5, "AGREE"), ("base-v2", 6, "DISAGREE"),
                                          ("base-v3", 3, "AGREE"), ("base-v3", 4, "DISAGREE")])
def test_base_versions_agree_up_to_their_threshold(pid, w, vote):
    from simcore.registry import make

    assert make("policy", pid).vote(me(w), "Luxury", None).vote == vote


def test_base_proposer_keeps_only_what_more_voters_back_than_any_alternative():
    base = MadPolicy()
    # 3 agents, one voter agrees and one dissents: 1 vs 1 is no majority -> follow the dissent
    assert base.update(me(9), "Budget", [Dissent(2, "Luxury")], 2).value == "Luxury"
    # 2 agents, the only voter disagrees: update to its value
    assert base.update(me(9), "Budget", [Dissent(1, "Luxury")], 1).value == "Luxury"
    # 4 agents, 2 of 3 disagree with different values: update to the first voiced
    up = base.update(me(9), "Budget", [Dissent(1, "Luxury"), Dissent(3, "Economy")], 3)
    assert (up.action, up.value) == ("UPDATE", "Luxury")
    # 5 agents, 2 agree, 2 dissent apart: the proposal is still the voters' favourite
    up = base.update(me(2), "Budget", [Dissent(1, "Luxury"), Dissent(3, "Economy")], 4)
    assert (up.action, up.value) == ("KEEP", "Budget")


@settings(max_examples=200, deadline=None)
@given(travel_items(), st.data())
def test_middle_ground_lies_between(item, data):
    proposal = data.draw(st.sampled_from(item.options))
    own = data.draw(st.sampled_from(item.options))
    mid = middle_ground(item, proposal, own)
    assert mid in item.options
    if item.ordinal and proposal in item.scale and own in item.scale:
        i, j, k = item.scale.index(proposal), item.scale.index(own), item.scale.index(mid)
        assert min(i, j) <= k <= max(i, j)
        assert abs(k - j) <= abs(k - i)  # at least as close to own as to the proposal
    elif proposal != own:
        assert mid == own  # nothing lies between: one's own value (D13), never an invented option
    flex = middle_ground(item, proposal, own, flexible_middle=True)
    assert flex in item.options


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(("a", "b", "c", "d")), st.integers(1, 10)), min_size=2, max_size=8))
def test_fallback_always_returns_a_highest_w_value(members):
    values, ws = [v for v, _ in members], [w for _, w in members]
    value, holder = fallback_value(values, ws)
    assert ws[holder] == max(ws) and values[holder] == value


@settings(max_examples=100, deadline=None)
@given(travel_items(), st.data())
def test_group_middle_is_an_option(item, data):
    current = data.draw(st.sampled_from(item.options))
    dissent = data.draw(st.lists(st.sampled_from(item.options), min_size=1, max_size=3))
    assert group_middle(item, current, dissent) in item.options


class _FixedVotes:
    """A policy stub whose voters vote from a script (for the majority rule)."""

    name, tone, appraisal = "fixed", False, False

    def __init__(self, agree_ids):
        self.agree_ids = set(agree_ids)

    def vote(self, me_, proposal, guessed_w, last_offer=None):
        from simcore.protocols.travel_moves import Vote

        if me_.value in self.agree_ids:
            return Vote("AGREE", "yield", None, "none")
        return Vote("DISAGREE", "push", me_.value, "preference")

    def update(self, me_, proposal, dissents, n_voters):
        from simcore.protocols.travel_moves import Update

        return Update("KEEP", proposal, "preference")


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.data())
def test_consensus_iff_more_than_half_of_the_voters_agree(n_voters, data):
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    from scenarios.travel_traces import Trace, group_for
    from simcore.systems.mind.match import play_group

    agree = data.draw(st.integers(0, n_voters))
    options = ITEMS["rest_cuisine"].options
    members = (("Banned: Chinese", 5),) + tuple((options[k], 5) for k in range(n_voters))
    group = group_for(Trace("t", "t", "rest_cuisine", members, "", True, "", 1))
    policy = _FixedVotes(options[:agree])
    out = play_group(group, policy, [0], ModelClient(MockBackend()), np.random.default_rng(0), "mind/t")
    assert out.items[0].consensus == (2 * agree > n_voters)
    assert out.items[0].rounds == (1 if 2 * agree > n_voters else 3)


def test_one_of_two_voters_is_not_consensus():
    """The paper's Scenario 4: a 2-1 split fails."""
    from scenarios.travel_traces import TRACES
    from simcore.systems.mind.traces import play

    outcome, _ = play(next(t for t in TRACES if t.name == "rational-deadlock"))
    assert not outcome.consensus and outcome.final == "Budget"


def test_tone_bands_match_the_paper():
    assert [band(w) for w in range(1, 11)] == ["Neutral"] * 3 + ["Warm"] * 3 + ["Firm"] * 2 + ["Strict"] * 2


def test_rounding_and_voicing_choices_are_parameters():
    # Economy(0) .. Luxury(4): halfway between Luxury and Economy is Moderate; Luxury vs Budget rounds
    assert middle_ground(PRICE, "Luxury", "Budget") == "Moderate"                       # towards own (Budget)
    assert middle_ground(PRICE, "Luxury", "Budget", towards_own=False) == "Upscale"     # towards the proposal
    assert group_middle(PRICE, "Budget", ["Upscale"]) == "Moderate"
    assert group_middle(PRICE, "Budget", ["Luxury"]) == "Upscale"                       # towards the dissent
    assert group_middle(PRICE, "Budget", ["Luxury"], towards_dissent=False) == "Moderate"
    three = [Dissent(1, "Upscale", 5), Dissent(2, "Upscale", 6), Dissent(3, "Luxury", 6)]
    assert MindPolicy(update_min_voiced=3).update(me(8), "Budget", three, 3).action == "COMPROMISE"
    assert MindPolicy().update(me(8), "Budget", three, 3).action == "UPDATE"


def test_base_keep_can_count_the_proposer():
    one_of_two = [Dissent(2, "Luxury")]
    assert MadPolicy().update(me(9), "Budget", one_of_two, 2).action == "UPDATE"
    assert MadPolicy(keep_counts_proposer=True).update(me(9), "Budget", one_of_two, 2).action == "KEEP"


@settings(max_examples=200, deadline=None)
@given(travel_items(), st.data(), st.booleans())
def test_a_middle_ground_never_repeats_the_proposal_it_answers(item, data, towards):
    proposal = data.draw(st.sampled_from(item.options))
    own = data.draw(st.sampled_from(item.options))
    if proposal != own:
        assert middle_ground(item, proposal, own, towards_own=towards) != proposal
        # one dissenter: the proposer's group middle moves off its proposal too (with dissent on
        # both sides the median may be the proposal itself, by the median rule)
        assert group_middle(item, proposal, [own], towards_dissent=towards) != proposal
