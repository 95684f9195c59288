"""The readings of the scorable rules (docs/systems/scorable.md): sec. 2's
strict acceptance (U_n > tau) is kept as the option ``threshold_test="above"``; the default
stays with the reading the seed's own deal counts need (>=)."""

import numpy as np
import pytest

from policies.scorable import choose_deal
from scenarios.scorable import load_game
from simcore.protocols.scorable import Settings
from simcore.registry import resolve, spec_params
from simcore.seeding import derive
from simcore.systems.scorable.match import start

GAME = load_game("harbour-sport-park")


def test_the_seeds_counts_hold_with_at_least_and_not_with_above():
    assert GAME.counts() == {"deals": 720, "passing": 21, "unanimous": 3}            # sec. 4.1
    assert GAME.counts(strict=True) == {"deals": 720, "passing": 18, "unanimous": 1}  # sec. 2 literal


def test_above_is_a_listed_option_and_at_least_the_default():
    params = {p.name: p for p in spec_params(resolve("protocol", "scorable-v1"))}
    assert params["threshold_test"].default == "at-least"
    assert "sec. 2" in params["threshold_test"].source and "21" in params["threshold_test"].source
    with pytest.raises(ValueError):
        Settings(threshold_test=">=")


def test_with_above_no_party_proposes_a_deal_at_its_threshold():
    p1 = GAME.p1
    tau = GAME.parties[p1].threshold
    at_tau = np.flatnonzero(GAME.deal_scores[p1] == tau)
    assert at_tau.size   # the game has deals exactly at p1's threshold
    uniform = [np.full(k, 100.0 / (GAME.n_issues * k)) for k in GAME.option_counts]
    ests = {j: uniform for j in range(GAME.n_parties) if j != p1}
    for strict in (False, True):
        deal, _ = choose_deal(GAME, p1, tau, ests, strict=strict)
        score = GAME.score(p1, deal)
        assert score >= tau and (score > tau or not strict)


def test_a_session_under_above_scores_its_result_strictly():
    seq = derive(3, "scorable", 0)
    res = start(GAME, "base-om-all", seq, settings=Settings(threshold_test="above")).run()
    deal = GAME.parse_deal(res.events[-1].intent["deal"])
    shorts = [p.short for p in GAME.parties]
    rec = res.record
    assert rec["accepted_by"] == [shorts[j] for j, ok in enumerate(GAME.accepts(deal, strict=True)) if ok]
    assert rec["PAR"] == GAME.passes(deal, strict=True)
