"""The scorable game on the one contract: the state machine's rules and refusals, what a
seat observes, the finite view, and users' agents in the parties' seats (by class,
instance, import path and registered id; a bare deal said by the seat's voice)."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

import simcore
from policies.scorable import deal_index
from scenarios.scorable import Party, load_game
from simcore.driver import play
from simcore.errors import AgentError, IllegalMove, InputError
from simcore.protocols.scorable import (Observation, Proposal, PublicGame, ScorableGame, Settings, session_order)
from simcore.registry import register, unregister
from simcore.seeding import derive
from simcore.systems.scorable.match import start
from tests.scorable_agents import Greedy, OffTheBoard, Talker, best_deal

GAME = load_game("harbour-sport-park")
SHORTS = [p.short for p in GAME.parties]
P1 = SHORTS[GAME.p1]


def _state(seed=0):
    return ScorableGame().start(GAME, session_order(GAME, derive(seed, "contract")), "contract")


def test_the_state_machine_plays_p1s_opening_the_turns_and_p1s_final_proposal():
    state = _state()
    assert state.to_act == P1 and state.turn == 0 and state.last_turn == GAME.turns + 1
    state.apply(Proposal(GAME.initial_deal, "We open."))
    seen = [P1]
    while state.to_act is not None:
        seen.append(state.to_act)
        state.apply(Proposal((0, 0, 0, 0, 0), "Again."))
    assert len(seen) == GAME.turns + 2 and seen[-1] == P1
    out = state.outcome
    assert out.final == (0, 0, 0, 0, 0) and out.par == GAME.passes(out.final) and len(out.deals) == len(seen)
    assert [e.phase for e in state.transcript][:2] == ["open", "turn"] and state.transcript[-1].phase == "final"
    with pytest.raises(IllegalMove, match="over"):
        state.apply(Proposal((0, 0, 0, 0, 0)))


@pytest.mark.parametrize("action, words", [
    ("A1B1C1D1E1", "must return a simcore.protocols.scorable.Proposal"),
    (Proposal((0, 0, 0)), "a deal is one option per issue"),
    (Proposal((0, 0, 0, 0, 9)), "a deal is one option per issue"),
    (Proposal((0, 0, 0.0, 0, 0)), "a deal is one option per issue"),
    (Proposal((True, 0, 0, 0, 0)), "a deal is one option per issue"),
    (Proposal((0, 0, 0, 0, 0), text=None), "the words must be a string"),
])
def test_an_illegal_move_is_refused_and_the_state_is_unchanged(action, words):
    state = _state()
    state.apply(Proposal(GAME.initial_deal, "We open."))
    before = (state.to_act, state.turn, state.history, len(state.transcript))
    assert words in state.legal(state.to_act).why_not(action)
    with pytest.raises(IllegalMove, match=words):
        state.apply(action)
    assert (state.to_act, state.turn, state.history, len(state.transcript)) == before


def test_p1s_opening_is_the_initial_deal_and_nothing_else():
    state = _state()
    legal = state.legal(P1)
    assert legal.step == "propose" and legal.decisions == (tuple(GAME.initial_deal),)
    with pytest.raises(IllegalMove, match="initial deal"):
        state.apply(Proposal((0, 0, 0, 0, 0), "No."))
    assert state.turn == 0 and not state.history
    state.apply(Proposal(np.asarray(GAME.initial_deal), "We open."))  # any sequence of option indices
    assert state.history[0].deal == tuple(GAME.initial_deal) and type(state.history[0].deal[0]) is int
    assert len(state.legal(state.to_act).decisions) == GAME.n_deals
    other = next(s for s in SHORTS if s != state.to_act)
    assert state.legal(other).decisions == () and "not" in state.legal(other).why_not(Proposal((0,) * 5))


def test_a_seat_observes_its_own_table_and_the_public_record_only():
    state = _state()
    state.apply(Proposal(GAME.initial_deal, "We open."))
    seat = state.to_act
    obs = state.observe(seat)
    assert isinstance(obs, Observation) and obs.step == "propose" and obs.seat == seat
    assert obs.own is GAME.parties[SHORTS.index(seat)]
    assert obs.history[0].text == "We open." and obs.table == tuple(GAME.initial_deal)
    assert isinstance(obs.game, PublicGame)
    for info in obs.game.parties:
        assert not hasattr(info, "scores") and not hasattr(info, "threshold")
    others = [p for p in GAME.parties if p is not obs.own]

    def holds_other_table(value, depth=0) -> bool:
        if depth > 4:
            return False
        if isinstance(value, Party):
            return value in others
        if isinstance(value, (tuple, list)):
            return any(holds_other_table(v, depth + 1) for v in value)
        if attrs.has(type(value)):
            return any(holds_other_table(getattr(value, f.name), depth + 1) for f in attrs.fields(type(value)))
        return False

    assert not holds_other_table(tuple(obs))


def test_the_finite_view_enumerates_the_deals_and_masks_the_opening():
    state = _state()
    game = state.game
    assert game.action_count(state, P1) == GAME.n_deals == 720
    mask = game.mask(state, P1)
    assert sum(mask) == 1 and mask[deal_index(GAME, GAME.initial_deal)]
    assert not any(game.mask(state, next(s for s in SHORTS if s != P1)))
    for i in (0, 17, 719):
        assert game.decision(state, P1, i).deal == tuple(int(x) for x in GAME.deals[i])
    size = game.feature_count(GAME)
    first = game.features(state, P1)
    state.apply(game.decision(state, P1, deal_index(GAME, GAME.initial_deal))._replace(text="We open."))
    later = game.features(state, state.to_act)
    assert first.shape == later.shape == (size,) and first.dtype == np.float32
    assert first[2] == 1.0 and later[4] > 0 and np.isfinite(later).all()


def _session(seats=None, method="proposed-p1", seed=5, **kw):
    return start(GAME, method, derive(seed, "seats"), seats=seats, run_id="seats", **kw).run()


@pytest.mark.parametrize("how", ["class", "instance", "import path", "registered id"])
def test_a_users_agent_takes_a_seat_by_class_instance_import_path_or_registered_id(how):
    seat = SHORTS[1]
    value = {"class": Greedy, "instance": Greedy(seat, 1), "import path": "tests.scorable_agents:Greedy",
             "registered id": "user-greedy-v1"}[how]
    if how == "registered id":
        register("policy", "user-greedy-v1", Greedy, meta={"system": "scorable"}, replace=True)
    try:
        res = _session({seat: value})
    finally:
        if how == "registered id":
            unregister("policy", "user-greedy-v1")
    mine = [e for e in res.events if e.speaker == seat]
    assert mine and all(e.text and e.hidden["cues_meant"] is not None for e in mine)  # the seat's voice spoke
    best = list(GAME.deal_ids(best_deal(Observation(seat, 1, 1, 1, (), None, GAME.parties[1]))))
    assert all(e.intent["deal"] == best for e in mine)
    assert res.record["mse_trace"] and len(res.record["mse_trace"]) == GAME.turns + 2
    assert seat in res.record["mse"]  # p1's estimate of the user's party read its turns


def test_a_users_seat_plays_the_same_session_twice_and_differs_from_the_built_in():
    seat = SHORTS[2]
    a, b = _session({seat: Greedy}), _session({seat: Greedy})
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    built_in = _session()
    assert [e.to_json() for e in built_in.events] == [e.to_json() for e in _session({s: None for s in SHORTS}).events]
    assert a.record["final"] != built_in.record["final"] or a.record["mse"] != built_in.record["mse"]


def test_a_users_agent_in_p1s_seat_opens_and_closes_and_its_words_are_kept():
    res = _session({P1: Talker()}, method="proposed-all")
    mine = [e for e in res.events if e.speaker == P1]
    assert mine[0].phase == "open" and mine[-1].phase == "final"
    assert all(e.text.startswith("We keep ") and e.cues == {} for e in mine)
    assert res.record["final"] == "".join(mine[-1].intent["deal"])
    assert set(res.record["mse"]) == set(SHORTS) - {P1}  # p1's seat is the user's; the method's model still runs


def test_a_users_illegal_move_is_its_agent_error():
    with pytest.raises(AgentError) as info:
        _session({SHORTS[3]: OffTheBoard})
    msg = str(info.value)
    assert "OffTheBoard" in msg and repr(SHORTS[3]) in msg and "(propose)" in msg
    assert "a deal is one option per issue" in msg


def test_the_seats_argument_is_checked():
    with pytest.raises(InputError, match="no such party"):
        _session({"Nobody": Greedy})
    with pytest.raises(InputError, match="method of the whole session"):
        _session({SHORTS[1]: "scorable-base-llm-v1"})
    same = _session({SHORTS[1]: "scorable-proposed-p1-v1"})
    assert [e.to_json() for e in same.events] == [e.to_json() for e in _session().events]
    with pytest.raises(InputError, match="not an agent"):
        _session({SHORTS[1]: object()})


def test_the_api_takes_seats_and_plays_the_set_up_of_the_study():
    res = simcore.scorable_session("proposed-all", seed=4, seats={SHORTS[4]: "tests.scorable_agents:Greedy"})
    assert any(e.speaker == SHORTS[4] for e in res.events) and res.events[-1].phase == "result"
    plain = simcore.scorable_session("scorable-proposed-all-v1", seed=4)
    again = start(GAME, "proposed-all", np.random.SeedSequence(4), run_id="scorable/api/proposed-all").run()
    assert [e.to_json() for e in plain.events] == [e.to_json() for e in again.events]
    with pytest.raises(InputError, match="seats"):
        simcore.scorable_session(seats=[("SportCo", Greedy)])


def test_the_game_takes_settings_or_their_fields():
    assert ScorableGame(Settings(threshold_test="above")).settings.strict
    assert ScorableGame(threshold_test="above").settings == Settings(threshold_test="above")
    with pytest.raises(ValueError, match="speaking order"):
        ScorableGame().start(GAME, [1, 2, 3], "x")


def test_the_driver_blames_a_built_in_that_breaks_the_rules(monkeypatch):
    monkeypatch.setattr("simcore.systems.scorable.agents.choose_deal", lambda *a, **k: ((99,), {}))
    match = start(GAME, "base-llm", derive(0, "blame"))
    with pytest.raises(IllegalMove) as info:
        play(match.state, match.agents, users=match.users)
    assert "Negotiator 'base-llm' in seat" in str(info.value) and "(99,)" in str(info.value)
