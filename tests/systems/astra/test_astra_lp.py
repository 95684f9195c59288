"""ASTRA stage 2: the LP (Figure 8), both backends, the sweep, and the paper's facts."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from policies.lp import ExactSolver, PulpSolver, Space, lambda_window, sweep
from policies.pulp_compat import cbc_available
from scenarios.bilateral import load_domain
from tests.strategies import astra_casino_valuations

CASINO = load_domain("casino-v1")
RESEARCH = load_domain("research-allocation-v1")
EXACT, PULP = ExactSolver(), PulpSolver()


def _vals(perm):
    return CASINO.valuation_from_order(perm)


PERMS = list(itertools.permutations(["food", "water", "firewood"]))


def test_casino_has_36_priority_pairings_and_max_36():
    assert len(PERMS) ** 2 == 36
    for p in PERMS:
        v = _vals(p)
        assert sorted(v.weights) == [3.0, 4.0, 5.0]
        assert CASINO.max_score(v) == 36
    assert len(CASINO.outcomes) == 64


@pytest.mark.parametrize("own_perm", PERMS)
def test_exact_and_pulp_agree_on_all_36_pairings(own_perm):
    own = _vals(own_perm)
    grid = [(0.0, 36), (0.5, 30), (0.9, 22), (1.0, 9)]
    for partner_perm in PERMS:
        space = Space.build(CASINO, own, _vals(partner_perm))
        for lam, bound in grid:
            a = EXACT.solve(space, lam, bound, 10, 5)
            b = PULP.solve(space, lam, bound, 10, 5)
            assert (a is None) == (b is None)
            if a is not None:
                assert a.objective == pytest.approx(b.objective, abs=1e-6)
                assert a.outcome == b.outcome  # the documented tie-break, not only the value


@settings(max_examples=6, deadline=None)
@given(own=astra_casino_valuations(), partner=astra_casino_valuations(),
       lam=st.integers(0, 10).map(lambda t: t / 10), bound=st.integers(0, 60))
def test_exact_and_pulp_agree_on_random_valuations(own, partner, lam, bound):
    space = Space.build(CASINO, own, partner)
    a = EXACT.solve(space, lam, bound, 10, 5)
    b = PULP.solve(space, lam, bound, 10, 5)
    assert (a is None) == (b is None)
    if a is not None:
        assert a.objective == pytest.approx(b.objective, abs=1e-6)
        assert a.outcome == b.outcome


@settings(max_examples=40, deadline=None)
@given(own=astra_casino_valuations(), partner=astra_casino_valuations(),
       lam=st.integers(0, 10).map(lambda t: t / 10), bound=st.integers(0, 60))
def test_exact_solution_is_optimal_and_feasible(own, partner, lam, bound):
    space = Space.build(CASINO, own, partner)
    sol = EXACT.solve(space, lam, bound, 10, 5)
    feas = [i for i in range(64) if 10 <= space.s_a[i] <= bound and space.s_p[i] >= 5]
    if not feas:
        assert sol is None
        return
    best = max(space.s_a[i] + (1 - lam) * space.s_p[i] for i in feas)
    assert sol.objective == pytest.approx(best, abs=1e-6)
    assert 10 <= sol.s_a <= bound and sol.s_p >= 5


def test_hand_worked_instance():
    # agent food=5 water=4 firewood=3; partner (IPP) food=3 water=4 firewood=5; lambda=0.5, bound 30:
    # objective = S_a + 0.5 S_p = 18 + 3.5x + 2y + 0.5z; x=y=3 forces z<=1 under S_a<=30 -> (3,3,1), 35.
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("integrative").partners[0])
    for solver in (EXACT, PULP):
        sol = solver.solve(space, 0.5, 30, 10, 5)
        assert sol.outcome == (3, 3, 1)
        assert (sol.s_a, sol.s_p, sol.objective) == (30.0, 10.0, 35.0)


def test_tie_break_is_enumeration_order_among_equal_scores():
    # lambda = 1: only S_a counts; (1,2,3), (2,3,0) and (3,1,1) all give 22 -> the first in order.
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("integrative").partners[0])
    for solver in (EXACT, PULP):
        assert solver.solve(space, 1.0, 22, 10, 5).outcome == (1, 2, 3)


def test_infeasible_solves_are_dropped():
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("integrative").partners[0])
    assert EXACT.solve(space, 0.5, 9, 10, 5) is None
    assert PULP.solve(space, 0.5, 9, 10, 5) is None
    res = sweep(EXACT, space, 0.5, 12, min_own=10, min_partner=5)
    assert res.infeasible > 0
    assert all(10 <= c.s_a <= 12 for c in res.candidates)


def test_lambda_window_stays_in_unit_interval():
    assert lambda_window(0.9) == (0.6, 0.7, 0.8, 0.9, 1.0)
    assert lambda_window(0.1) == (0.0, 0.1, 0.2, 0.3, 0.4)
    assert lambda_window(0.5) == (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
    with pytest.raises(ValueError):
        lambda_window(1.2)


def test_sweep_top_n_sorted_and_filtered_by_previous_offer():
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("integrative").partners[0])
    res = sweep(EXACT, space, 0.3, 30, min_own=10, min_partner=5, top_n=5)
    scores = [c.s_a for c in res.candidates]
    assert len(scores) == 5 and scores == sorted(scores, reverse=True)
    assert res.solves == 7 * 11
    res2 = sweep(EXACT, space, 0.3, 30, min_own=10, min_partner=5, previous=(30, 14))
    assert all(c.s_a >= 30 or c.s_p >= 14 for c in res2.candidates)


def test_sweep_same_candidates_with_either_backend():
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("mixed").partners[1])
    a = sweep(EXACT, space, 0.7, 30, min_own=10, min_partner=5, bound_span=2, window=0.1)
    b = sweep(PULP, space, 0.7, 30, min_own=10, min_partner=5, bound_span=2, window=0.1)
    assert [c.outcome for c in a.candidates] == [c.outcome for c in b.candidates]


def test_table8_scores_and_lp_candidates():
    """Paper Table 8: the partner's first offer scores 26 for it and 12.4 for the agent;
    the agent's final offer (E=1 S=4 biology, weekend) 22 vs 21.2; LP candidates include
    (23: E=0 S=5 biology W=True) and (22: E=1 S=4 biology W=True)."""
    partner = RESEARCH.setup("mixed").partners[0]
    first = RESEARCH.check_offer({"self": {"equipment": 4, "staff": 3}, "other": {"equipment": 1, "staff": 2},
                                  "shared": {"lab": "computer", "weekend": True}}, "partner")
    assert RESEARCH.score(partner, first, "partner") == 26
    assert RESEARCH.score(RESEARCH.agent, first, "agent") == pytest.approx(12.4)
    final = (1, 4, 2, 1)
    assert RESEARCH.score(RESEARCH.agent, final, "agent") == 22
    assert RESEARCH.score(partner, final, "partner") == pytest.approx(21.2)
    space = Space.build(RESEARCH, RESEARCH.agent, partner)
    res = sweep(EXACT, space, 0.7, 23, min_own=10, min_partner=5, top_n=7)
    got = {RESEARCH.describe_outcome(c.outcome) for c in res.candidates}
    assert "equipment=0 staff=5 lab=biology weekend=True" in got
    assert "equipment=1 staff=4 lab=biology weekend=True" in got
    sol_exact = EXACT.solve(space, 0.7, 23, 10, 5)
    sol_pulp = PULP.solve(space, 0.7, 23, 10, 5)
    assert sol_exact.outcome == sol_pulp.outcome


CBC_ONLY = pytest.mark.skipif(not cbc_available(), reason="this PuLP bundles no CBC (PuLP 4)")


@pytest.mark.parametrize("engine", ["highs", pytest.param("cbc", marks=CBC_ONLY)])
def test_pulp_tie_break_regression_cbc_preprocessing(engine):
    """Found by hypothesis: CBC's integer preprocessing returned (3, 2, 0) (index 56) where
    the tie-break asks for the lowest enumeration index, (2, 3, 0) (index 44)."""
    from scenarios.bilateral import Valuation

    space = Space.build(CASINO, Valuation(weights=(6.0, 6.0, 0.0), factors=((), (), ())),
                        Valuation(weights=(0.0, 0.0, 2.0), factors=((), (), ())))
    a, b = EXACT.solve(space, 0.0, 30, 10, 5), PulpSolver(engine=engine).solve(space, 0.0, 30, 10, 5)
    assert a.outcome == b.outcome == (2, 3, 0)


@pytest.mark.parametrize("engine", ["highs", pytest.param("cbc", marks=CBC_ONLY)])
def test_pulp_engines_agree_with_exact_on_the_table8_domain(engine):
    space = Space.build(RESEARCH, RESEARCH.agent, RESEARCH.setups[0].partners[0])
    solver = PulpSolver(engine=engine)
    for lam, bound in [(0.0, 40), (0.3, 25), (0.7, 23), (1.0, 12)]:
        a, b = EXACT.solve(space, lam, bound, 10, 5), solver.solve(space, lam, bound, 10, 5)
        assert (a is None) == (b is None)
        if a is not None:
            assert a.outcome == b.outcome


def test_pulp_solver_needs_no_cbc(monkeypatch):
    """PuLP 4 ships no CBC binary: the pulp backend must still solve (it uses HiGHS
    through highspy, a declared dependency), here with PuLP's CBC made unusable."""
    import pulp

    def no_cbc(*_a, **_k):
        raise pulp.PulpSolverError("cbc: not found")

    monkeypatch.setattr(pulp, "PULP_CBC_CMD", no_cbc, raising=False)
    monkeypatch.setattr(pulp, "COIN_CMD", no_cbc, raising=False)
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("integrative").partners[0])
    sol = PulpSolver().solve(space, 0.5, 30, 10, 5)
    assert sol.outcome == EXACT.solve(space, 0.5, 30, 10, 5).outcome == (3, 3, 1)


def test_pulp_infeasible_is_none():
    space = Space.build(CASINO, CASINO.agent, CASINO.setup("integrative").partners[0])
    assert EXACT.solve(space, 0.5, 5, 10, 5) is None
    assert PULP.solve(space, 0.5, 5, 10, 5) is None


ENGINES = [ExactSolver(), PulpSolver(engine="highs"),
           pytest.param(PulpSolver(engine="cbc"), marks=CBC_ONLY, id="cbc")]


@pytest.mark.parametrize("solver", ENGINES, ids=["exact", "highs", "cbc"])
def test_every_engine_says_none_on_an_infeasible_integer_problem(solver):
    """Agent weights (0, 4, 0), lambda 0.3, bound 10.8: 4 x1 must lie in [10, 10.8] -- the
    relaxation is feasible, the integer problem is not.  CBC 2.10 (preprocessing off) dies
    there with a segmentation fault, which PuLP raises as PulpSolverError."""
    from scenarios.bilateral import Valuation

    own = Valuation(weights=(0.0, 4.0, 0.0), factors=((), (), ()))
    assert solver.solve(Space.build(CASINO, own, CASINO.agent), 0.3, 10.8, 10, 5) is None


@pytest.mark.parametrize("solver", ENGINES[1:], ids=["highs", "cbc"])
def test_every_engine_agrees_with_exact_where_only_the_relaxation_is_feasible(solver):
    """One agent weight w on one issue, bounds between multiples of w: 36 problems, most of
    them infeasible (27; CBC dies on 18), the others feasible."""
    from scenarios.bilateral import Valuation

    for w, pos, bound in itertools.product((4.0, 6.0), range(3), (10.5, 10.8, 13.9)):
        own = Valuation(weights=tuple(w if k == pos else 0.0 for k in range(3)), factors=((), (), ()))
        for partner in (CASINO.agent, own):
            space = Space.build(CASINO, own, partner)
            a, b = EXACT.solve(space, 0.3, bound, 10, 5), solver.solve(space, 0.3, bound, 10, 5)
            assert (a is None) == (b is None), (own.weights, partner.weights, bound)
            if a is not None:
                assert a.outcome == b.outcome


def test_unknown_pulp_engine_is_refused():
    with pytest.raises(ValueError, match="unknown pulp engine"):
        PulpSolver(engine="glpk")


def test_the_pulp_solver_prints_nothing_on_stdout(tmp_path):
    """HiGHS writes a banner to the process's standard output the first time it is made:
    `simcore run astra --solver pulp` must print only its tables.  A fresh process, since the banner
    comes once per process."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "simcore", "run", "astra", "--solver", "pulp", "--episodes", "1",
                          "--rounds", "3", "--partners", "base", "--setups", "integrative", "--agents", "astra",
                          "--no-progress",
                          "--out", str(tmp_path / "o")], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("ASTRA Table 1 analogue"), out.stdout[:200]
    assert "HiGHS" not in out.stdout
