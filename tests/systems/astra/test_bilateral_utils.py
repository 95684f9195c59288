"""simcore.bilateral: the Pareto frontier, the Nash point and the best joint points, worked by hand
on a small domain (six outcomes), and their errors."""

from __future__ import annotations

import pytest

import simcore.bilateral as b
from scenarios.bilateral import Valuation, parse_domain
from simcore.errors import InputError

#: issue a: 2 units, the agent values 3 per unit, the partner 1; issue b: 1 unit, 1 and 2.
#: outcome (x, y): the agent scores 3x + y, the partner (2 - x) + 2 (1 - y):
#: (0,0) 0/4  (0,1) 1/2  (1,0) 3/3  (1,1) 4/1  (2,0) 6/2  (2,1) 7/0
SMALL = parse_domain({
    "format": "simcore-bilateral-1", "id": "small-v1",
    "issues": [{"name": "a", "type": "integer", "count": 2}, {"name": "b", "type": "integer", "count": 1}],
    "levels": [3, 1], "batna": 3, "agent": {"a": 3, "b": 1},
    "setups": {"one": {"partners": [{"a": 1, "b": 2}]}}})
PV = Valuation((1.0, 2.0), ((), ()))


def test_points_are_both_sides_scores_in_outcome_order():
    assert [(p.outcome, p.agent, p.partner) for p in b.points(SMALL, None, PV)] == [
        ((0, 0), 0, 4), ((0, 1), 1, 2), ((1, 0), 3, 3), ((1, 1), 4, 1), ((2, 0), 6, 2), ((2, 1), 7, 0)]


def test_pareto_frontier_by_hand():
    # (1,1) 4/1 is dominated by (2,0) 6/2; (0,1) 1/2 by (1,0) 3/3
    assert [p.outcome for p in b.pareto_frontier(SMALL, None, PV)] == [(2, 1), (2, 0), (1, 0), (0, 0)]
    assert b.is_pareto_optimal(SMALL, None, PV, (1, 0))
    assert not b.is_pareto_optimal(SMALL, None, PV, (1, 1))


def test_outcomes_with_the_same_optimal_scores_are_all_on_the_frontier():
    equal = Valuation((1.0, 1.0), ((), ()))  # (1,0) and (0,1) both 1/2 for the agent under these
    front = b.pareto_frontier(SMALL, equal, Valuation((1.0, 1.0), ((), ())))
    assert {p.outcome for p in front} == set(SMALL.outcomes)  # joint points are 3 everywhere


def test_nash_point_by_hand():
    # products of gains over (0, 0): 0, 2, 9, 4, 12, 0 -> (2, 0)
    assert b.nash_point(SMALL, None, PV).outcome == (2, 0)
    # over (3, 0): (1,0) 0, (1,1) 1, (2,0) 6, (2,1) 0; (0, *) give the agent less than 3 -> (2, 0)
    assert b.nash_point(SMALL, None, PV, (3, 0)).outcome == (2, 0)
    # over (4, 1): (1,1) 0*0, (2,0) 2*1 = 2, (2,1) gives the partner less than 1 -> (2, 0)
    assert b.nash_point(SMALL, None, PV, (4, 1)).outcome == (2, 0)
    # over (6, 3): nothing is worth it to both
    assert b.nash_point(SMALL, None, PV, (6, 3)) is None


def test_nash_ties_go_to_the_higher_joint_points_then_the_earlier_outcome():
    # over (3, 1): (1,0) 0*2 = 0, (1,1) 1*0 = 0, (2,0) 3*1 = 3 -> (2, 0); over (6, 2): only (2,0) (0) -> (2, 0)
    assert b.nash_point(SMALL, None, PV, (3, 1)).outcome == (2, 0)
    flat = Valuation((1.0, 1.0), ((), ()))
    # agent x + y, partner (2 - x) + (1 - y): products (0,0) 0, (0,1) 2, (1,0) 2, (1,1) 2, (2,0) 2, (2,1) 0;
    # joint 3 everywhere -> the earliest of the four
    assert b.nash_point(SMALL, flat, flat).outcome == (0, 1)


def test_max_joint():
    assert b.max_joint(SMALL, None, PV) == 8.0
    assert b.max_joint("casino-v1", None, b._domain("casino-v1").setup("integrative").partners[0]) == 42.0


def test_a_shipped_domain_by_id_and_the_doctest_answer():
    pv = b._domain("casino-v1").setup("integrative").partners[0]
    assert b.nash_point("casino-v1", None, pv).outcome == (3, 1, 0)
    front = b.pareto_frontier("casino-v1", None, pv)
    assert front[0].outcome == (3, 3, 3) and front[-1].partner == 36.0
    assert all(b.is_pareto_optimal("casino-v1", None, pv, p.outcome) for p in front)


@pytest.mark.parametrize("call, name", [
    (lambda: b.points(SMALL, None, None), "partner_values"),
    (lambda: b.points(SMALL, Valuation((1.0,), ((),)), PV), "agent_values"),
    (lambda: b.points(42, None, PV), "domain"),
    (lambda: b.is_pareto_optimal(SMALL, None, PV, (5, 5)), "outcome"),
])
def test_bad_arguments_are_one_input_error_naming_them(call, name):
    with pytest.raises(InputError) as err:
        call()
    assert name in str(err.value)
