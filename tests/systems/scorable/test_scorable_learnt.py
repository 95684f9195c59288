"""The `learnt` acceptance rule: a party predicts that another accepts what its
estimate values at least as much as the least valued deal that party has itself put on the
table -- the benchmark's logs show every deal a party proposes is one it accepts
(benchmarks/base_llm_responses.py)."""

from __future__ import annotations

import numpy as np
import pytest

from policies.scorable import deal_index, deal_view, echo_estimate, estimated_deal_scores, learnt_bound
from scenarios.scorable import load_game
from simcore.protocols.scorable import Settings
from simcore.seeding import derive
from simcore.systems.scorable.match import start

GAME = load_game("harbour-sport-park-original")


def _est(j):
    return tuple(np.asarray(r, dtype=float) for r in GAME.parties[j].scores)


def test_deal_index_is_the_row_of_the_deal():
    for row in (0, 1, 17, GAME.n_deals - 1):
        assert deal_index(GAME, GAME.deals[row]) == row


def test_the_bound_is_the_least_valued_deal_shown_and_none_before_any():
    full = estimated_deal_scores(GAME, _est(2))
    assert learnt_bound(full, []) is None
    shown = [3, 100, 555]
    assert learnt_bound(full, shown) == pytest.approx(min(full[3], full[100], full[555]))


def test_a_party_is_predicted_to_accept_every_deal_it_has_put_on_the_table_and_nothing_valued_below_them():
    est = echo_estimate(GAME, [tuple(GAME.deals[5]), tuple(GAME.deals[400])])
    shown = [5, 400]
    view = deal_view(GAME, est, "learnt", shown=shown)
    assert view.accept[shown].all()
    line = min(view.full[shown])
    assert not view.accept[view.full < line - 1e-6].any()
    assert view.accept[view.full >= line].all()


def test_showing_a_lower_valued_deal_widens_what_is_predicted_accepted():
    est = _est(1)
    full = estimated_deal_scores(GAME, est)
    order = np.argsort(full)
    high, low = int(order[-3]), int(order[len(order) // 2])
    before = deal_view(GAME, est, "learnt", shown=[high]).accept
    after = deal_view(GAME, est, "learnt", shown=[high, low]).accept
    assert (after >= before).all() and after.sum() > before.sum()
    again = deal_view(GAME, est, "learnt", shown=[high, low, high]).accept  # a re-proposal teaches nothing new
    assert np.array_equal(after, again)


def test_before_a_party_has_proposed_the_learnt_rule_is_the_share_rule():
    est = echo_estimate(GAME, [])
    for share in (0.3, 0.5):
        a = deal_view(GAME, est, "learnt", assumed_share=share).accept
        b = deal_view(GAME, est, "share", assumed_share=share).accept
        assert np.array_equal(a, b)


def _deals(rule, seed):
    res = start(GAME, "base-llm", derive(seed, "scorable-learnt-test"),
                settings=Settings(acceptance_rule=rule, amend_max_issues=2)).run()
    return [tuple(e.intent["deal"]) for e in res.events if e.phase in ("open", "turn", "final")]


def test_in_a_session_the_first_answer_is_the_share_rules_and_later_ones_learn_from_the_deals_shown():
    differs = 0
    for seed in range(4):
        learnt, share = _deals("learnt", seed), _deals("share", seed)
        assert learnt[:2] == share[:2]  # p1's opening, then a speaker who has seen no one's chosen deal
        differs += learnt != share
    assert differs > 0


def test_the_cli_accepts_the_learnt_rule_and_refuses_an_unknown_one(tmp_path):
    from click.testing import CliRunner

    from simcore.cli import cli

    ok = CliRunner().invoke(cli, ["run", "scorable", "--game", "harbour-sport-park-original", "--trials", "1",
                                   "--methods", "base-llm", "--acceptance-rule", "learnt", "--out",
                                   str(tmp_path / "o")])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(cli, ["run", "scorable", "--trials", "1", "--acceptance-rule", "guess"])
    assert bad.exit_code == 2 and "--acceptance-rule" in bad.output


# --- the `responsive` member of the scorable.negotiator family ------------------------------------
def _member(name):
    from simcore.systems.scorable import ROLES

    (neg,) = [r for r in ROLES if r.id == "scorable.negotiator"]
    (m,) = [m for m in neg.family if m.name == name]
    return neg, m


def test_the_responsive_member_is_registered_with_the_evidence_of_each_setting():
    neg, m = _member("responsive")
    assert dict(m.overrides) == {"aspiration_start": 0.594, "aspiration_end": 0.374, "amend_max_issues": 2,
                           "echo_words": True, "final_aspiration": 0.2, "acceptance_rule": "learnt"}
    assert "684 of 685" in m.evidence and "base_llm_responses.py" in m.evidence and "choice" in m.evidence
    assert neg.default == "v1"  # measured 0/0/0 on the seed's game: not made the default
    assert any(e.parameter == "acceptance_rule" and "684 of 685" in str(e.source) for e in neg.parameters)


def test_the_responsive_member_plays_every_method():
    from simcore.systems.scorable.methods import METHODS

    _neg, m = _member("responsive")
    settings = Settings(**dict(m.overrides))
    for method in METHODS:
        res = start(GAME, method, derive(3, "responsive-every-method", method), settings=settings).run()
        assert set(res.record) >= {"FAR", "PAR", "LAR", "final"}


def test_on_the_seeds_game_the_logs_aspiration_floor_leaves_two_parties_no_passing_deal_to_propose():
    """Why the logs' aspiration cannot carry over to the seed's thresholds (a finding, docs/systems/scorable.md):
    at the schedule's end, 0.374 of the range above the threshold, SportCo and Other cities have no
    passing deal to propose; on the logs' own game every party has one."""
    for gid, short_of in (("harbour-sport-park", {"SportCo", "Cit"}), ("harbour-sport-park-original", set())):
        g = load_game(gid)
        S, passing = g.deal_scores, g.passing()
        none = {p.short for n, p in enumerate(g.parties)
                if not (S[n, passing] >= p.threshold + 0.374 * (p.best - p.threshold) - 1e-9).any()}
        assert none == short_of, gid
