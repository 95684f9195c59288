"""The scorable negotiator's options read from the Base-LLM role's own logs (issue 16): proposing
near the deal on the table, and a party without an estimator using what the others' words said."""

from __future__ import annotations

import numpy as np

from policies.bayes import resolve_signal
from policies.scorable import choose_deal, echo_estimate, echo_with_words
from scenarios.scorable import load_game

GAME = load_game("harbour-sport-park")
NAMES = [i.name for i in GAME.issues]


def _views():
    return {j: echo_estimate(GAME, []) for j in range(GAME.n_parties)}


def test_amending_keeps_the_proposal_within_the_allowed_changes_of_the_deal_on_the_table():
    table = GAME.initial_deal
    for party in range(GAME.n_parties):
        level = GAME.parties[party].threshold
        deal, _ = choose_deal(GAME, party, level, _views(), anchor=table, max_changes=2)
        near_ok = [d for d in GAME.deals if (np.asarray(d) != np.asarray(table)).sum() <= 2
                   and GAME.score(party, tuple(d)) >= level]
        if near_ok:
            assert sum(a != b for a, b in zip(deal, table)) <= 2
        free, _ = choose_deal(GAME, party, level, _views())
        assert GAME.score(party, deal) >= level and GAME.score(party, free) >= level


def test_words_about_an_option_move_it_in_the_echo():
    sig = resolve_signal(NAMES, GAME.option_counts, {"entity": "option", "signal_type": "point",
                                                    "target": f"{NAMES[0]}2", "stance": "prefer"})
    opp = resolve_signal(NAMES, GAME.option_counts, {"entity": "option", "signal_type": "point",
                                                    "target": f"{NAMES[1]}1", "stance": "oppose"})
    deals = [GAME.initial_deal]
    plain, words = echo_estimate(GAME, deals), echo_with_words(GAME, deals, [sig, opp])
    assert words[0][1] == max(words[0]) and words[0][1] > plain[0][1]
    assert words[1][0] == 0.0
    assert all(np.array_equal(a, b) for a, b in zip(plain[2:], words[2:]))  # other issues untouched
