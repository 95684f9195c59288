"""Preferences: transitive closure, the +1/-1 score, bestScoreOfPreference, and that no
update ever loses a stated preference."""

from hypothesis import given, settings
from hypothesis import strategies as st

from policies.dominance_state import Preferences, total_order
from tests.strategies import dominance_statements

VALUES = ("French", "Chinese", "Italian", "Turkish", "Japanese")


def test_closure_and_scores():
    p = Preferences("cuisine", VALUES, (("Chinese", "French"), ("French", "Italian")))
    assert p.prefers("Chinese", "Italian")  # transitive
    assert p.scores() == {"French": 0, "Chinese": -2, "Italian": 2, "Turkish": 0, "Japanese": 0}
    assert p.best_score() == 2


def test_stars_expand():
    p = Preferences("cuisine", VALUES, ((None, "Turkish"),))
    assert p.score("Turkish") == 4 and p.implies(None, "Turkish")
    q = Preferences("cuisine", VALUES, (("Turkish", None),))
    assert q.score("Turkish") == -4 and q.implies("Turkish", None)


def test_total_order_scores_span_the_range():
    n = len(VALUES)
    p = total_order("cuisine", VALUES, VALUES)
    assert sorted(p.scores().values()) == list(range(-(n - 1), n, 2))
    assert p.best_score() == n - 1 and p.ranking() == VALUES


@settings(max_examples=60, deadline=None)
@given(dominance_statements(VALUES))
def test_updates_never_lose_a_statement(stmts):
    p = Preferences("cuisine", VALUES)
    for i, (less, more) in enumerate(stmts):
        p = p.add(less, more)
        for old in stmts[: i + 1]:
            assert old in p.statements
        if less is not None and more is not None:
            assert p.prefers(less, more)
    n = len(VALUES)
    assert all(-(n - 1) <= s <= n - 1 for s in p.scores().values())


@settings(max_examples=40, deadline=None)
@given(st.permutations(VALUES))
def test_scores_of_a_total_order(perm):
    p = total_order("cuisine", perm, VALUES)
    sc = p.scores()
    assert [sc[v] for v in perm] == list(range(len(VALUES) - 1, -len(VALUES), -2))
