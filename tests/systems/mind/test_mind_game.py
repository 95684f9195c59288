"""MIND's protocol as a game (simcore.protocols.travel_vote) and its one set-up
(simcore.systems.mind.match): legality, what a seat observes, the finite view, and a user's
agent in a member's seat by class, instance, import path or registered id."""

from __future__ import annotations

import numpy as np
import pytest

import simcore
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from policies.mind import MindPolicy
from scenarios.travel import Group, Persona, Preference, generate_group
from simcore.driver import play
from simcore.errors import AgentError, IllegalMove, InputError
from simcore.protocols.travel_moves import Dissent, Update, Vote
from simcore.protocols.travel_vote import Action, Observation, Reading, TravelVoteGame
from simcore.registry import register, unregister
from simcore.study import run_study
from simcore.systems.mind import STUDY_PATH, MindConfig
from simcore.systems.mind.match import start


def _group(seed: int = 3, size: int = 3) -> Group:
    return generate_group("g", size, np.random.default_rng(seed))


def _state(seed: int = 3, size: int = 3, max_rounds: int = 3):
    group = _group(seed, size)
    return TravelVoteGame(max_rounds).start(group, [0] * len(group.items), "mind/t"), group


def _to_vote(state):
    """Play Phase 1 (each member's own values, no words) so that a vote is asked."""
    while state.step == "propose":
        state.apply(Action(state.observe(state.to_act).opening))
    return state


# ------------------------------------------------------------------ legality
def test_a_move_the_rules_refuse_is_illegal_and_leaves_the_state_as_it_was():
    state = _to_vote(_state()[0])
    seat, n = state.to_act, len(state.transcript)
    obs = state.observe(seat)
    bad = [Action(Vote("DISAGREE", "push", "the moon")),            # not an option of the item
           Action(Update("KEEP", obs.proposal)),                   # an update where a vote is asked
           "AGREE",                                                # not an Action
           Action(Vote("AGREE", "accept"), text=None),             # words that are not text
           Action(Vote("AGREE", "accept"), readings=(Reading(11, 5, True),)),  # off the 1-10 scale
           Action(Vote("AGREE", "accept"), readings=(Reading(5, 5, True),) * 2),  # one proposer to read
           Action(Vote("AGREE", "accept"), toned="yes")]
    for action in bad:
        with pytest.raises(IllegalMove):
            state.apply(action)
        assert state.legal(seat).check(action)  # the same rule says why
        assert (state.to_act, state.step, len(state.transcript)) == (seat, "vote", n)
    state.apply(Action(Vote("AGREE", "accept")))
    assert state.to_act != seat or state.step != "vote" or len(state.transcript) == n + 1


def test_phase_one_takes_only_the_members_own_values():
    state, group = _state()
    own = state.observe("m0").opening
    assert own == tuple(group.members[0].pref(k).value for k in group.items)
    assert state.legal("m0").decisions == (own,)
    with pytest.raises(IllegalMove, match="own values"):
        state.apply(Action(tuple(reversed(own)) if len(set(own)) > 1 else ("x",) * len(own)))
    assert state.legal("m1").step == "" and "turn" in state.legal("m1").check(Action(own))


def test_a_finished_negotiation_takes_no_move():
    group = _group()
    m = start(group, "mind-v2", [0] * len(group.items), ModelClient(MockBackend()), np.random.default_rng(0), "t")
    out = m.run()
    assert m.state.to_act is None and m.state.outcome is not None and out.items
    with pytest.raises(IllegalMove, match="over"):
        m.state.apply(Action(Vote("AGREE", "accept")))


def test_bad_proposers_and_a_group_of_one_are_refused_before_any_move():
    group = _group()
    for bad in ([7] * len(group.items), [-1] * len(group.items), [0]):
        with pytest.raises(InputError, match="proposers"):
            TravelVoteGame().start(group, bad, "t")
    alone = Group("one", group.trip, group.members[:1], group.items)
    with pytest.raises(InputError, match="at least 2"):
        TravelVoteGame().start(alone, [0] * len(group.items), "t")


# ------------------------------------------------------------------ observations
class _Plain:
    """Decides from its own observation alone (AGREE when the proposal is its own value, else
    DISAGREE with its own value; the proposer keeps), with fixed words and without regard to
    its willingness: what it observes is all that can differ."""

    def __init__(self, log):
        self.log = log

    def act(self, obs: Observation):
        self.log.append(obs)
        if obs.step == "propose":
            return Action(obs.opening, "hello")
        if obs.step == "vote":
            if obs.proposal == obs.me.value:
                return Action(Vote("AGREE", "accept"), "yes")
            return Action(Vote("DISAGREE", "push", obs.me.value), "no")
        return Action(Update("KEEP", obs.proposal), "keep")


def _observations(group):
    logs = {f"m{i}": [] for i in range(group.size)}
    state = TravelVoteGame().start(group, [0] * len(group.items), "t")
    play(state, {s: _Plain(log) for s, log in logs.items()})
    return logs


def test_a_seat_never_observes_another_members_willingness_or_value():
    """Changing member m2's hidden willingness (its words fixed) changes no other seat's
    observations; each observation holds the seat's own value and willingness only."""
    group = _group(5, 3)
    other = group.members[2]
    changed = Persona(other.id, other.traits, tuple(Preference(p.item, p.value, 10 if p.importance < 6 else 6)
                                                    for p in other.prefs))
    before = _observations(group)
    after = _observations(Group(group.id, group.trip, (*group.members[:2], changed), group.items))
    assert before["m0"] == after["m0"] and before["m1"] == after["m1"]
    assert before["m2"] != after["m2"]  # its own willingness is its to know
    for seat, seen in before.items():
        i = int(seat[1:])
        for obs in seen:
            assert obs.seat == seat and obs.preferences == tuple(group.members[i].pref(k) for k in group.items)
            if obs.me is not None:
                assert (obs.me.value, obs.me.w) == (group.members[i].pref(obs.item.key).value,
                                                    group.members[i].pref(obs.item.key).w)
    assert list(Observation._fields) == ["step", "seat", "member", "round", "max_rounds", "item", "me", "proposal",
                                         "proposer", "words", "dissents", "last_offer", "voters", "preferences"]


def test_the_proposer_hears_each_dissenters_value_and_words():
    state = _to_vote(_state(seed=4)[0])
    while state.step == "vote":
        obs = state.observe(state.to_act)
        other = next(o for o in obs.options if o != obs.proposal)
        state.apply(Action(Vote("DISAGREE", "push", other), f"I want {other}"))
    obs = state.observe(state.to_act)
    assert obs.step == "update" and len(obs.dissents) == obs.voters
    assert all(d.text == f"I want {d.revised_value}" for d in obs.dissents)


# ------------------------------------------------------------------ the finite view
def test_random_legal_play_through_the_finite_view_ends():
    game = TravelVoteGame()
    for seed in range(4):
        rng = np.random.default_rng(seed)
        group = _group(seed, 2 + seed % 3)
        state = game.start(group, [int(rng.integers(group.size)) for _ in group.items], "t")
        steps = 0
        while state.to_act is not None:
            seat = state.to_act
            mask = game.mask(state, seat)
            assert len(mask) == game.action_count(state, seat) and any(mask)
            assert game.features(state, seat).shape == game.features(state, "m0").shape
            legal = [k for k, ok in enumerate(mask) if ok]
            assert len(legal) == len(state.legal(seat).decisions)
            state.apply(game.decision(state, seat, legal[int(rng.integers(len(legal)))]))
            steps += 1
        assert len(state.outcome.items) == len(group.items) and steps >= group.size
        assert game.decision(state, "m0", 0).decision is None  # nothing is legal once over


# ------------------------------------------------------------------ a user's agent in a seat
from tests.mind_agents import Stubborn  # noqa: E402  (a structured policy)


class StubbornAgent:
    """The same decisions through act(observation), returned bare: the seat's voice says them."""

    name = "stubborn"

    def act(self, obs):
        if obs.step == "propose":
            return obs.opening
        if obs.step == "vote":
            return Stubborn().vote(obs.me, obs.proposal, None, obs.last_offer)
        return Stubborn().update(obs.me, obs.proposal, (), obs.voters)


def _lines(out):
    return [e.to_json() for e in out.events]


@pytest.mark.parametrize("how", ["class", "instance", "import path", "registered id", "act class"])
def test_a_users_agent_takes_every_seat(how):
    """Every way of naming the user's agent plays the same negotiation: a class is built (once
    per member), not called as if it were the policy."""
    want = _lines(simcore.mind_group(Stubborn(), seed=7))
    if how == "registered id":
        register("policy", "stubborn-test-v1", Stubborn, meta={"system": "mind"}, replace=True)
        try:
            got = simcore.mind_group("stubborn-test-v1", seed=7)
        finally:
            unregister("policy", "stubborn-test-v1")
    else:
        value = {"class": Stubborn, "instance": Stubborn(), "import path": "test_mind_game:Stubborn",
                 "act class": StubbornAgent}[how]
        got = simcore.mind_group(value, seed=7)
    assert _lines(got) == want and got.variant == "stubborn"


def test_bare_decisions_are_said_as_the_built_in_member_says_them():
    """A user's act-agent returning the bare decisions of tone-only-v3 (no appraisal), with its
    voice's tone and wording, gives tone-only-v3's transcript word for word."""
    class ToneOnly:
        tone, plain_wording = True, "varied"

        def __init__(self):
            self.policy = simcore.make("policy", "tone-only-v3")

        def act(self, obs):
            if obs.step == "propose":
                return obs.opening
            if obs.step == "vote":
                return self.policy.vote(obs.me, obs.proposal, None, obs.last_offer)
            return self.policy.update(obs.me, obs.proposal, [Dissent(d.voter, d.revised_value) for d in obs.dissents],
                                      obs.voters)

    def strip(out):
        return [(e.speaker, e.phase, e.round, e.item, dict(e.intent), e.text) for e in out.events]

    for seed in (1, 2):
        assert strip(simcore.mind_group(ToneOnly, seed=seed)) == strip(simcore.mind_group("tone-only-v3", seed=seed))


def test_one_member_of_the_group_played_by_another_policy():
    out = simcore.mind_group("mind-v2", seed=5, seats={"m1": Stubborn})
    alone = simcore.mind_group("mind-v2", seed=5)
    assert _lines(out) != _lines(alone) and out.variant == "mind"
    m1 = [e.speaker for e in out.events if e.phase == "1-propose"][1]  # (the transcript names members by id)
    assert all(e.hidden.get("guessed_w") is None for e in out.events if e.speaker == m1 and e.phase == "2-vote")
    with pytest.raises(InputError, match="seats: 'm9'"):
        simcore.mind_group(seed=5, seats={"m9": "base-v3"})
    with pytest.raises(InputError, match=r"seats\['m1'\]"):
        simcore.mind_group(seed=5, seats={"m1": "no-such-v1"})


def test_a_users_illegal_move_is_an_agent_error_naming_it():
    class Lunar(StubbornAgent):
        def act(self, obs):
            if obs.step == "vote":
                return Vote("DISAGREE", "push", "the moon", "preference")
            return super().act(obs)

    class Broken(Stubborn):
        def update(self, me, proposal, dissents, n_voters):
            raise RuntimeError("no idea")

    with pytest.raises(AgentError, match=r"your agent Lunar in seat 'm\d' \(vote\): illegal move .*the moon"):
        simcore.mind_group(Lunar, seed=7)
    with pytest.raises(AgentError, match=r"your agent Broken in seat 'm\d' \(update\): act\(\) raised RuntimeError"):
        for seed in range(20):
            simcore.mind_group(Broken, seed=seed, size=4)


def test_what_is_not_an_agent_is_one_error_naming_the_argument():
    with pytest.raises(InputError, match="policy: object: .*vote\\(\\)"):
        simcore.mind_group(object())

    class NoFlags:
        def vote(self, *a):
            pass

        def update(self, *a):
            pass

    with pytest.raises(InputError, match="policy: NoFlags: needs a boolean attribute 'tone'"):
        simcore.mind_group(NoFlags)
    with pytest.raises(InputError, match="seats"):
        simcore.mind_group(seats=["m1"])


def test_the_built_in_agents_faults_are_simcores(monkeypatch):
    """A built-in policy's illegal move is an IllegalMove naming the seat agent (a bug in
    simcore), not a user's AgentError."""

    monkeypatch.setattr(MindPolicy, "vote", lambda self, me, proposal, g, last=None:
                        Vote("DISAGREE", "push", "the moon", "preference"))
    group = _group()
    m = start(group, "mind-v2", [0] * len(group.items), ModelClient(MockBackend()), np.random.default_rng(0), "t")
    assert not m.users
    with pytest.raises(IllegalMove) as info:
        m.run()
    assert "MindPolicy 'mind' in seat 'm1' (vote)" in str(info.value) and "the moon" in str(info.value)


def test_a_users_agent_plays_a_variant_of_the_study():
    """``simcore run mind --variants package.module:Class``: an agent with act(observation)
    plays as the structured policy making the same decisions does."""

    got = {v: run_study(STUDY_PATH, MindConfig(groups=3, variants=(v, "mind")), workers=1).metrics["results"]
           for v in ("test_mind_game:StubbornAgent", "test_mind_game:Stubborn")}
    a, b = got["test_mind_game:StubbornAgent"], got["test_mind_game:Stubborn"]
    assert a["test_mind_game:StubbornAgent"] == b["test_mind_game:Stubborn"] and a["mind"] == b["mind"]
