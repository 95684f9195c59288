"""The exact Bayesian opponent model: the seed's hypothesis-space size, a posterior
worked by hand on a 2-issue toy game, and properties of the update."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from policies import bayes
from policies.bayes import Posterior, Signal, hypothesis_space, signal_lik
from tests.strategies import scorable_deals, scorable_signals

SEED_SHAPE = (3, 3, 4, 4, 5)


def test_seed_hypothesis_space_size():
    # Appendix B.2: 5! = 120 weight hypotheses x 3*3*4*4*5 = 720 shape patterns.
    sp = hypothesis_space(SEED_SHAPE)
    assert (sp.n_rankings, sp.n_shapes, sp.size) == (120, 720, 86_400)
    assert np.allclose(sp.W.sum(axis=1), 1.0)
    assert sorted(np.round(sp.W[0] * 15).astype(int)) == [1, 2, 3, 4, 5]


def test_triangular_shapes():
    v = bayes.shape_values(4)
    assert np.allclose(v[0], [1, 2 / 3, 1 / 3, 0])      # downhill
    assert np.allclose(v[3], [0, 1 / 3, 2 / 3, 1])      # uphill
    assert np.allclose(v[1], [0.5, 1, 0.5, 0])
    assert v.min() == 0 and v.max() == 1


def _toy_hypotheses():
    """Brute-force list of the toy space (2 issues, 2 options each): (wA, wB, peakA, peakB)."""
    out = []
    for ranks in itertools.permutations((1, 2)):
        w = [r / 3 for r in ranks]
        for pa, pb in itertools.product(range(2), range(2)):
            out.append((w[0], w[1], pa, pb))
    return out


def test_hand_checked_posterior_on_a_toy_game():
    sp = hypothesis_space((2, 2))
    assert sp.size == 8
    post = Posterior(sp)
    # "Issue A matters" with no floor: P = w_A, so A-first rankings get 2/3 of the mass.
    post.update(signals=[Signal("issue", "point", ((0, -1),), "prefer")], floor=0.0)
    p = post.probs()
    a_first = int(np.argmax(sp.W[:, 0]))
    assert np.allclose(p[a_first], 1 / 6) and np.allclose(p[1 - a_first], 1 / 12)
    # Then the deal (A1, B1) at target 1 with sigma 0.5: weight exp(-(U-1)^2/(2*0.25)).
    post.update(deal=(0, 0), target=1.0, sigma=0.5)
    by_hand = []
    for wa, wb, pa, pb in _toy_hypotheses():
        u = wa * (pa == 0) + wb * (pb == 0)
        by_hand.append(wa * math.exp(-((u - 1.0) ** 2) / 0.5))
    by_hand = np.array(by_hand) / sum(by_hand)
    assert np.allclose(post.probs().ravel(), by_hand)
    # estimate: 100 * E[w_m v_m(o)], checked by brute force
    est = post.estimate()
    for m in range(2):
        for o in range(2):
            want = sum(pr * (h[m]) * (h[2 + m] == o) for pr, h in zip(by_hand, _toy_hypotheses()))
            assert est[m][o] == pytest.approx(100 * want)


def test_a_uniquely_explained_observation_concentrates_mass():
    sp = hypothesis_space((2, 2))
    post = Posterior(sp)
    # U((A1, B2)) = 2/3 only for (A first, peaks A1 B1) and (B first, peaks A2 B2);
    # "prefer A1" (no floor) rules out peak A2, leaving one hypothesis.
    post.update(deal=(0, 1), target=2 / 3, sigma=0.01,
                signals=[Signal("option", "point", ((0, 0),), "prefer")], floor=0.0)
    r, s, p = post.top(1)[0]
    assert p > 0.999
    assert sp.W[r, 0] > sp.W[r, 1] and tuple(sp.shape_choice[:, s]) == (0, 0)


def _families(sp, m_count):
    """Every family of complementary signals: a list of lists of Signals."""
    fams = []
    for stance in ("prefer", "oppose"):
        fams.append([Signal("issue", "point", ((m, -1),), stance) for m in range(m_count)])
        for m, k in enumerate(sp.option_counts):
            fams.append([Signal("option", "point", ((m, o),), stance) for o in range(k)])
    for x, y in itertools.combinations(range(m_count), 2):
        fams.append([Signal("issue", "comparison", ((x, -1), (y, -1)), "prefer"),
                     Signal("issue", "comparison", ((y, -1), (x, -1)), "prefer")])
        fams.append([Signal("issue", "comparison", ((x, -1), (y, -1)), "prefer"),
                     Signal("issue", "comparison", ((x, -1), (y, -1)), "oppose")])
    fams.append([Signal("option", "comparison", ((0, 0), (1, 1)), "prefer"),
                 Signal("option", "comparison", ((0, 0), (1, 1)), "oppose")])
    fams.append([Signal("option", "comparison", ((0, 0), (0, 1)), "prefer"),
                 Signal("option", "comparison", ((0, 1), (0, 0)), "prefer")])
    return fams


@pytest.mark.parametrize("floor", [0.0, 0.05, 0.3])
def test_luce_likelihoods_of_complementary_signals_sum_to_one(floor):
    sp = hypothesis_space((3, 2, 4))
    shape = (sp.n_rankings, sp.n_shapes)
    for fam in _families(sp, 3):
        total = sum(np.broadcast_to(signal_lik(sp, s, floor), shape) for s in fam)
        assert np.allclose(total, 1.0), fam[0]
        for s in fam:
            lik = signal_lik(sp, s, floor)
            assert lik.min() >= floor / len(fam) - 1e-12


def test_preferring_an_issue_raises_its_estimated_weight():
    sp = hypothesis_space(SEED_SHAPE)
    post = Posterior(sp)
    before = [e.max() - e.min() for e in post.estimate()]
    for _ in range(3):
        post.update(signals=[Signal("issue", "point", ((3, -1),), "prefer")])
    after = [e.max() - e.min() for e in post.estimate()]
    assert after[3] > before[3] and after[3] == max(after)


TOY_SHAPE = (2, 3, 3)
obs_st = st.tuples(
    st.one_of(st.none(), scorable_deals(TOY_SHAPE)),
    st.floats(0, 1), st.sampled_from((0.05, 0.3, 1.0)), st.lists(scorable_signals(TOY_SHAPE), max_size=3),
    st.sampled_from((0.0, 0.05)))


@settings(max_examples=40, deadline=None)
@given(st.lists(obs_st, min_size=1, max_size=12))
def test_posterior_stays_a_distribution(observations):
    sp = hypothesis_space(TOY_SHAPE)
    post = Posterior(sp)
    for deal, target, sigma, sigs, floor in observations:
        post.update(deal=deal, target=target, sigma=sigma, signals=sigs, floor=floor)
        p = post.probs()
        assert np.all(np.isfinite(p)) and p.min() >= 0
        assert p.sum() == pytest.approx(1.0)
        est = post.estimate()
        assert all(np.all((e >= -1e-9) & (e <= 100 + 1e-9)) for e in est)


def test_resolve_signal():
    names, counts = ["A", "B"], (3, 2)
    assert bayes.resolve_signal(names, counts, {"entity": "option", "signal_type": "comparison",
                                                "target": "A2, B1", "stance": "oppose"}) == \
        Signal("option", "comparison", ((0, 1), (1, 0)), "oppose")
    for bad in ({"entity": "option", "signal_type": "point", "target": "A4", "stance": "prefer"},
                {"entity": "issue", "signal_type": "point", "target": "Z", "stance": "prefer"},
                {"entity": "issue", "signal_type": "comparison", "target": "A", "stance": "prefer"},
                {"entity": "issue", "signal_type": "point"}):
        assert bayes.resolve_signal(names, counts, bad) is None


def test_too_large_space_is_a_clear_error():
    from simcore.errors import InputError

    with pytest.raises(InputError, match="exceed the limit"):
        hypothesis_space((5,) * 9)


def test_in_place_update_equals_the_reference_formulas():
    sp = hypothesis_space((3, 2, 4))
    sigs = [Signal("option", "comparison", ((0, 1), (2, 3)), "prefer"),
            Signal("option", "comparison", ((1, 0), (2, 0)), "oppose"),
            Signal("issue", "comparison", ((0, -1), (2, -1)), "oppose"),
            Signal("option", "point", ((2, 1),), "prefer")]
    post = Posterior(sp)
    post.update((2, 0, 1), 0.7, 0.4, sigs, 0.1)
    shape = (sp.n_rankings, sp.n_shapes)
    ref = bayes.offer_loglik(sp, (2, 0, 1), 0.7, 0.4) + sum(
        np.log(np.broadcast_to(signal_lik(sp, s, 0.1), shape)) for s in sigs)
    ref = np.exp(ref - ref.max())
    assert np.allclose(post.probs(), ref / ref.sum(), rtol=1e-9, atol=1e-15)


def _reference_logpost(sp, observations):
    """The unfactored log-posterior (up to a constant); a zero likelihood (floor 0) counts
    as 1e-300, as in the posterior."""
    shape = (sp.n_rankings, sp.n_shapes)
    total = np.zeros(shape)
    for deal, target, sigma, sigs, floor in observations:
        if deal is not None:
            total += bayes.offer_loglik(sp, deal, target, sigma)
        for s in sigs:
            total += np.log(np.maximum(np.broadcast_to(signal_lik(sp, s, floor), shape), 1e-300))
    return total


@settings(max_examples=30, deadline=None)
@given(st.lists(obs_st, min_size=1, max_size=8))
def test_factored_posterior_equals_the_unfactored_product(observations):
    # the posterior keeps offers in a (P, S) array and signals in per-ranking and per-shape
    # vectors; after any sequence of observations it must equal the plain product
    sp = hypothesis_space(TOY_SHAPE)
    post = Posterior(sp)
    for obs in observations:
        post.update(*obs)
    ref = _reference_logpost(sp, observations)
    ref = np.exp(ref - ref.max())
    assert np.allclose(post.probs(), ref / ref.sum(), rtol=1e-9, atol=1e-12)
    want = [100 * np.array([sum(ref[r, s] / ref.sum() * sp.W[r, m] * sp.shape_table[m][s, o]
                                for r in range(sp.n_rankings) for s in range(sp.n_shapes))
                            for o in range(k)]) for m, k in enumerate(sp.option_counts)]
    assert all(np.allclose(e, w, atol=1e-9) for e, w in zip(post.estimate(), want))


def test_evidence_that_underflows_the_factored_sum_is_folded_back():
    # An offer with a tiny sigma puts the core's mass on peak A2 (all else <= -555); a
    # zero-floor "prefer A1" puts the shape factor's on peak A1 (peak A2 gets log 1e-300):
    # the factors' maxima fall on different hypotheses and their product underflows, so
    # the posterior folds the factors into one array -- and still equals the reference.
    sp = hypothesis_space((2, 2))
    obs = [((1, 0), 1.0, 0.01, [], 0.0), (None, 1.0, 1.0, [Signal("option", "point", ((0, 0),), "prefer")], 0.0)]
    post = Posterior(sp)
    for o in obs:
        post.update(*o)
    p = post.probs()
    assert not post._shape.any()  # folded: the shape vector was reset
    ref = _reference_logpost(sp, obs)
    ref = np.exp(ref - ref.max())
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    assert np.allclose(p, ref / ref.sum(), atol=1e-12)


def test_top_breaks_exact_ties_by_lowest_index():
    # a uniform posterior: every hypothesis ties, so the first k indices come back
    sp = hypothesis_space((3, 3))
    post = Posterior(sp)
    post.update(signals=[Signal("option", "point", ((0, 1),), "prefer")], floor=0.0)
    post.update(signals=[Signal("option", "point", ((0, 1),), "oppose")], floor=0.0)
    top = post.top(4)
    p = post.probs().ravel()
    want = sorted(range(p.size), key=lambda i: (-round(math.log(p[i]), 9), i))[:4]
    assert [r * sp.n_shapes + s for r, s, _ in top] == want
