"""``simcore.testing.check_policy`` finds what is wrong with a policy, in any seat of any system:
each finding names the seed, the opponent, the turn and what was wrong; a sound policy passes."""

from __future__ import annotations

import pytest

from simcore.protocols.alternating import Action
from simcore.testing import ConformanceError, check_policy


class SevenFood:
    """Asks for 7 food where 3 exist: every offer is refused as invalid."""

    def act(self, obs):
        return Action("offer", "I take 7 food", {"self": {"food": 7, "water": 0, "firewood": 0},
                                                   "other": {"food": 0, "water": 3, "firewood": 3}})


class CrashesLate:
    """Talks, and raises from round 10 on: only a check that plays into late rounds sees it."""

    def act(self, obs):
        if obs.round >= 10:
            raise RuntimeError("out of ideas")
        return Action("talk", "Hello again.")


class AcceptsNothing:
    """Accepts when nothing of the other side's is on the table: an illegal move."""

    def act(self, obs):
        return Action("accept", "Deal!")


class Coin:
    """Not deterministic: its moves depend on a generator it seeds itself from the clock."""

    def __init__(self):
        import random

        self.rng = random.Random()

    def act(self, obs):
        return Action("offer", offer=(self.rng.randrange(4), 1, 1))


class Fair:
    """Offers (2, 1, 1) and accepts 18 points or more: sound."""

    def __init__(self, domain, values):
        self.domain, self.values = domain, values

    def act(self, obs):
        t = obs.table
        if t is not None and t.speaker != obs.role and self.domain.score(self.values, t.offer, obs.role) >= 18:
            return Action("accept", "Deal.")
        return Action("offer", offer=(2, 1, 1))


def _findings(policy, **kw) -> str:
    with pytest.raises(ConformanceError) as info:
        check_policy(policy, system="astra", seeds=range(2), **kw)
    return str(info.value)


def test_an_offer_the_domain_cannot_hold_is_found_with_seed_and_turn():
    text = _findings(SevenFood)
    assert "its offer was refused as invalid: food: asks for 7+0=7 units but only 3 exist" in text
    assert "seed 0, against base-partner-firm-v1, turn 1" in text


def test_a_crash_in_late_rounds_is_found():
    text = _findings(CrashesLate)
    assert "turn 10: act() raised RuntimeError: out of ideas (decision: turn)" in text


def test_an_illegal_move_is_found_as_the_policys():
    text = _findings(AcceptsNothing)
    assert "illegal move" in text and "ACCEPT is legal only with an offer of the other side" in text


def test_a_policy_that_is_not_deterministic_is_found():
    assert "the same seed gave another transcript" in _findings(Coin)


def test_a_sound_policy_passes_in_either_seat_by_class_instance_or_path():
    assert check_policy(Fair, system="astra", seeds=range(2)) > 0
    assert check_policy(Fair, system="astra", seat="partner", seeds=range(1)) > 0
    assert check_policy("tests.core.test_check_policy:Fair", system="astra", seeds=range(1)) > 0


def test_the_built_in_agents_pass():
    assert check_policy("astra-agent-v3", seeds=range(2)) > 0
    assert check_policy("base-partner-v2", seeds=range(2)) > 0


def test_a_seat_the_system_lacks_is_one_clear_error():
    with pytest.raises(ConformanceError, match="no seat 'referee'"):
        check_policy(Fair, system="astra", seat="referee")
    with pytest.raises(ConformanceError, match="system must be one of"):
        check_policy(Fair)


class GuessesFortyTwo:
    """A MIND policy whose reading of another's willingness is 42 (the scale is 1-10) and whose
    update() is broken: a check that never makes it propose never sees the second."""

    name, tone, appraisal = "guesses-42", False, True

    def guess(self, guessed_w):
        return 42

    def vote(self, me, proposal, guessed_w, last_offer=None):
        from simcore.protocols.travel_moves import Vote

        return Vote("AGREE", "accept", None, "preference")

    def update(self, me, proposal, dissents, n_voters):
        raise RuntimeError("update is broken")


def test_a_mind_policy_s_broken_update_and_out_of_scale_guess_are_found():
    with pytest.raises(ConformanceError) as info:
        check_policy(GuessesFortyTwo, system="mind", seeds=range(1))
    text = str(info.value)
    assert "act() raised RuntimeError: update is broken (decision: update)" in text
    assert "it inferred a willingness of 42" in text and "outside the scale 1-10" in text


class OffTheBoard:
    """A scorable party that proposes a deal with options the game does not have."""

    def act(self, obs):
        return (9, 9, 9, 9, 9)


def test_a_scorable_deal_off_the_board_is_found_and_the_methods_pass():
    with pytest.raises(ConformanceError, match="a deal is one option per issue"):
        check_policy(OffTheBoard, system="scorable", seeds=range(1))
    assert check_policy("scorable-proposed-all-v1", seeds=range(1)) > 0


def test_the_built_in_mind_policies_pass():
    assert check_policy("mind-v2", seeds=range(1)) > 0
    assert check_policy("base-v3", seeds=range(1)) > 0


class BooksAtOnce:
    """A dominance side that books the first restaurant of the domain whenever it speaks,
    proposed or not: an illegal move (a booking needs the other side's proposal or acceptance)."""

    def act(self, obs):
        from simcore.protocols.dialogue import Booking

        if obs.step == "read":
            return None  # (its seat's reader reads the words)
        return Booking(obs.domain.options[0].name)


def test_a_dominance_booking_nobody_proposed_is_found_and_the_agents_pass():
    with pytest.raises(ConformanceError, match="booking"):
        check_policy(BooksAtOnce, system="dominance", seat="user", seeds=range(1))
    assert check_policy("dominance-peer-v3", seeds=range(1)) > 0
