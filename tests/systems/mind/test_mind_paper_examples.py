"""MIND's readings of the paper (mind-v2 and later in the registry), each checked on the
paper's own worked examples (Tables D12-D14) where one exists; each test names what the
v1 reading (``mind-v1``) gives instead, and asserts that too, so the test fails under it."""

import attrs
import pytest

from policies.mind import MindPolicy
from policies.travel_common import group_middle, middle_ground
from scenarios.travel import ITEMS
from scenarios.travel_traces import TRACES
from simcore.protocols.travel_moves import Dissent, Me
from simcore.registry import make, resolve as spec
from simcore.systems.mind.traces import play

TRACE = {t.name: t for t in TRACES}
ATMOSPHERE = ITEMS["rest_atmosphere"]   # D12's item: nominal, "No preference" among its options
RATING = ITEMS["rest_rating"]           # D13's item: ordinal


def _round1_strategies(policy_id, name):
    _, events = play(TRACE[name], policy_id)
    return [e.hidden["strategy"] for e in events if e.phase == "2-vote" and e.round == 1]


def test_d12_voters_significantly_above_the_proposer_push():
    """D12: "both Voters (w = 6) push for 'Casual'" against a proposer with w = 2.  B7:
    push "when your priority is significantly higher"; v1 required w >= 9 to push."""
    assert _round1_strategies("mind-v2", "strategic-update") == ["push", "push"]
    assert _round1_strategies("mind-v1", "strategic-update") == ["compromise", "compromise"]


def test_d13_voters_hold_the_value_the_caption_gives():
    """D13's caption: the voters "push for their preferred value ('3.5')"."""
    members = TRACE["strategic-compromise"].members
    assert [v for v, _ in members[1:]] == ["3.5+ (Decent)", "3.5+ (Decent)"]
    # their compromise against "4.0+" is their own value: nothing lies between adjacent options
    assert middle_ground(RATING, "4.0+ (Reliable)", "3.5+ (Decent)") == "3.5+ (Decent)"


def test_d13_middle_ground_on_a_nominal_item_is_ones_own_value():
    """D13's rule (no option between -> one's own value) on D12's nominal item: a Warm
    voter holding 'Casual' who compromises against 'Romantic'.  v1 offered the invented
    'No preference' middle ground."""
    voter = Me(ATMOSPHERE, "Casual/Street Food", 5)
    v2 = make("policy", "mind-v2").vote(voter, "Romantic", 5)
    v1 = make("policy", "mind-v1").vote(voter, "Romantic", 5)
    assert (v2.strategy, v2.revised_value) == ("compromise", "Casual/Street Food")
    assert (v1.strategy, v1.revised_value) == ("compromise", "No preference")
    # the proposer's COMPROMISE on a nominal item moves to the dissent (a choice: nothing lies between)
    one = [Dissent(1, "Casual/Street Food", 5)]
    assert make("policy", "mind-v2").update(Me(ATMOSPHERE, "Romantic", 7), "Romantic", one, 2).value \
        == "Casual/Street Food"
    assert make("policy", "mind-v1").update(Me(ATMOSPHERE, "Romantic", 7), "Romantic", one, 2).value \
        == "No preference"
    assert group_middle(ATMOSPHERE, "Romantic", ["Family-friendly", "Casual/Street Food", "Family-friendly"]) \
        == "Family-friendly"


def test_d14_firm_voter_insists_on_its_adjacent_value_and_the_group_oscillates():
    """D14: voter A (w = 8) "insists on Budget" against a Moderate proposer (w = 7): a gap
    of one is "similar" (B7 compromise), and the middle ground of adjacent options is its
    own value, so it votes DISAGREE with 'Budget'; the group oscillates and fails."""
    outcome, events = play(TRACE["rational-deadlock"])
    first = [e for e in events if e.phase == "2-vote" and e.speaker == "VoterA"][0]
    assert (first.intent["vote"], first.intent["revised_value"]) == ("DISAGREE", "Budget")
    assert [e.intent["value"] for e in events if e.phase == "3-update"] == ["Budget", "Moderate"]
    assert not outcome.consensus


def test_accept_is_only_for_a_proposal_equal_to_ones_own_value():
    """B7 accept: "Verify if {current_value} is semantically equivalent to
    {current_private_value}".  No paper trace has a voter whose compromise differs from
    its own value, so this one is constructed: a voter (Economy, w 6) offered the middle
    ground 'Moderate' and the proposer adopted it.  v1 accepted its own last offer."""
    price = ITEMS["acc_price"]
    voter = Me(price, "Economy", 6)
    assert make("policy", "mind-v2").vote(voter, "Moderate", 5, "Moderate").vote == "DISAGREE"
    assert make("policy", "mind-v1").vote(voter, "Moderate", 5, "Moderate").vote == "AGREE"
    assert MindPolicy(accept_own_offer=True).vote(voter, "Moderate", 5, "Moderate").strategy == "accept"


@pytest.mark.parametrize("rule, w, strategy, vote", [
    ("margin", 6, "push", "DISAGREE"),
    ("margin-strict", 6, "compromise", "DISAGREE"),
    ("strict-only-blocks", 6, "yield", "AGREE"),
    ("strict-only-blocks", 9, "push", "DISAGREE"),
    ("strict-only-blocks", 5, "yield", "AGREE"),   # similar priority, but below 9 it never blocks
])
def test_the_push_readings_are_options(rule, w, strategy, vote):
    v = MindPolicy(push_rule=rule).vote(Me(ITEMS["acc_price"], "Economy", w), "Luxury", 3 if w != 5 else 5)
    assert (v.strategy, v.vote) == (strategy, vote)


def test_every_choice_is_a_registered_parameter_and_v1_keeps_its_values():
    choices = {f.name for f in attrs.fields(MindPolicy)} - {"name", "tone", "appraisal"}
    assert {"push_margin", "push_rule", "accept_own_offer", "flexible_middle"} <= choices
    assert choices <= {f.name for f in attrs.fields(MindPolicy)}
    for pid in ("mind-v1", "mind-v2", "tone-only-v1", "tone-only-v2", "appraisal-only-v1", "appraisal-only-v2"):
        assert choices <= set(spec("policy", pid).kwargs), pid
    from policies.mad import MadPolicy

    assert {f.name for f in attrs.fields(MadPolicy)} - {"tone", "appraisal"} <= set(spec("policy", "base-v1").kwargs)
    v1 = make("policy", "mind-v1")
    assert (v1.push_rule, v1.accept_own_offer, v1.flexible_middle) == ("margin-strict", True, True)
    assert make("policy", "mind-v2") == MindPolicy()


def test_study_overrides_reach_only_policies_that_have_the_parameter():
    from simcore.systems.mind import VARIANTS, MindConfig
    from simcore.systems.mind.variants import variant_policy

    cfg = MindConfig(agree_max_w=3, push_margin=3)
    assert variant_policy(cfg, "base").agree_max_w == 3
    assert variant_policy(cfg, "mind").push_margin == 3 and not hasattr(variant_policy(cfg, "mind"), "agree_max_w")
    assert VARIANTS["mind"] == "mind-v2"
    with pytest.raises(ValueError):
        MindConfig(push_rule="sometimes")


def test_d13_d15_yield_readings():
    """B7/B5/B8 yield to a proposer read as more urgent; D13's voters (w 4, guess 7) and
    D15's voter (w 5, guess 7) compromise instead, while D11's voter B yields to a
    guessed 9.  The text's reading is the default, the traces' is ``yield_rule``."""
    review = ITEMS["rest_rating"]
    d13_voter = Me(review, "3.5+ (Decent)", 4)
    text = MindPolicy().vote(d13_voter, "4.0+ (Reliable)", 7)
    assert (text.strategy, text.vote) == ("yield", "AGREE")
    traces = MindPolicy(yield_rule="strict-signal").vote(d13_voter, "4.0+ (Reliable)", 7)
    # D13: compromise, DISAGREE with their own "3.5" (nothing lies between adjacent options)
    assert (traces.strategy, traces.vote, traces.revised_value) == ("compromise", "DISAGREE", "3.5+ (Decent)")
    d15_voter = Me(ITEMS["acc_review"], "3.5+", 5)
    assert MindPolicy(yield_rule="strict-signal").vote(d15_voter, "4.0+", 7).strategy == "compromise"
    # a proposer that sounds Strict is yielded to under both readings (D11: guessed 9)
    for rule in ("urgency", "strict-signal"):
        assert MindPolicy(yield_rule=rule).vote(Me(review, "3.5+ (Decent)", 5), "4.0+ (Reliable)", 9).strategy \
            == "yield"
    assert spec("policy", "mind-v2").kwargs["yield_rule"] == spec("policy", "mind-v1").kwargs["yield_rule"] \
        == "urgency"


def test_base_dissent_value_readings():
    """B3 "Act as a representative of your private preferences": a Base voter offers its
    own value (default).  B2's "as close as possible to your private_value" is a Phase-1
    rule and allows adjustment from Phase 2 on, so the middle ground is the option."""
    from policies.mad import MadPolicy

    price = ITEMS["acc_price"]
    voter = Me(price, "Economy", 7)
    assert make("policy", "base-v2").vote(voter, "Luxury", None).revised_value == "Economy"
    middle = MadPolicy(dissent_value="middle").vote(voter, "Luxury", None)
    assert (middle.vote, middle.strategy) == ("DISAGREE", "compromise")
    assert middle.revised_value == middle_ground(price, "Luxury", "Economy") not in ("Economy", "Luxury")
    # and it accepts the middle ground it offered once the proposer adopts it (B3 "reasonable compromise")
    assert MadPolicy(dissent_value="middle").vote(voter, middle.revised_value, None, middle.revised_value).vote \
        == "AGREE"
