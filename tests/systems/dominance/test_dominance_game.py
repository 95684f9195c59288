"""The dominance dialogue as a game (simcore/protocols/dialogue.py) and its seats
(simcore/systems/dominance/): the steps and what each seat observes, legality refusals that
leave the state as it was, a user's agent in either seat (class, instance, import path,
registered id; structured or words only), the misreading rule without a model call for the
move it stops, the chat on the same game (the environment over it: tests/core/test_env.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import simcore
from policies.dominance import DominanceAgent, respond
from policies.dominance_state import random_preferences, total_order
from scenarios.restaurants import load_domain
from simcore.driver import play
from simcore.errors import AgentError, IllegalMove, InputError
from simcore.protocols.dialogue import (Accept, AskPreference, Booking, Decision, DialogueGame, Observation, Propose,
                                        Proposal, Quit, Say, StatePreference, catalogue, utterance_from_dict)
from simcore.seeding import child
from simcore.systems.dominance.match import dialogue_match

DOM = load_domain("restaurants-small-v1")
A = {"cuisine": ["Italian", "French", "Japanese", "Chinese", "Turkish"], "cost": ["cheap", "expensive"],
     "ambiance": ["calm", "noisy"]}


def prefs(orders):
    return {c.name: total_order(c.name, orders[c.name], c.values) for c in DOM.criteria}


def say(utt, text="words"):
    return Say(Decision(utt, "test", "test"), text)


# --- the game ----------------------------------------------------------------------
def test_an_utterance_is_a_move_then_a_reading_recorded_as_one_event_with_the_reading():
    state = DialogueGame(max_turns=4).start(DOM, "user", "t", relations={"agent": "peer", "user": "scripted"})
    assert (state.to_act, state.observe("user").step, state.observe("agent").step) == ("user", "open", "wait")
    state.apply(say(Propose(Proposal("cuisine", "Italian")), "How about Italian?"))
    obs = state.observe("agent")
    assert (state.to_act, obs.step, obs.text) == ("agent", "read", "How about Italian?")
    assert len(state.transcript) == 0  # the turn is recorded once read
    state.apply(Propose(Proposal("cuisine", "Italian")))
    ev = state.transcript[0]
    assert (ev.speaker, ev.phase, ev.text, ev.cues) == ("user", "propose", "How about Italian?",
                                                        {"agent": {"kind": "propose", "type": "cuisine",
                                                                   "value": "Italian"}})
    assert ev.hidden == {"relation": "scripted", "figure": "test", "rule": "test"}
    obs = state.observe("agent")
    assert (obs.step, obs.heard, obs.said) == ("reply", Propose(Proposal("cuisine", "Italian")),
                                               (("user", "How about Italian?"),))


def test_an_illegal_move_is_refused_and_the_state_is_unchanged():
    state = DialogueGame().start(DOM, "agent", "t")
    before = state.observe("agent")
    for action, rule in [(say(Accept(Proposal("cuisine", "Italian"))), "never proposed"),
                         (say(Propose(Proposal("cuisine", "cheap"))), "not a value of criterion"),
                         (say(Booking("Sakura")), "neither proposed"),
                         (Propose(Proposal("cuisine", "Italian")), "needs its words"),
                         (say(Propose(Proposal("cuisine", "Italian")), None), "words are a str"),
                         ("hello", "a move is a Say"),
                         (Say("not a decision", "x"), "a Decision")]:
        with pytest.raises(IllegalMove, match=rule):
            state.apply(action)
        assert state.observe("agent") == before and len(state.transcript) == 0 and state.to_act == "agent"
    state.apply(say(Propose(Proposal("cuisine", "Italian"))))
    with pytest.raises(IllegalMove, match="a reading is an utterance or Unreadable"):
        state.apply("Italian")


def test_apply_on_a_finished_dialogue_is_illegal():
    state = DialogueGame().start(DOM, "agent", "t")
    state.apply(say(Quit()))
    state.apply(Quit())
    assert state.to_act is None and state.outcome.outcome == "dead-end" and state.observe("user").step == "over"
    with pytest.raises(IllegalMove, match="over"):
        state.apply(say(Quit()))
    assert state.legal("agent").why_not(say(Quit())) == "the dialogue is over"


def test_the_turn_limit_ends_after_max_turns_utterances():
    state = DialogueGame(max_turns=2).start(DOM, "agent", "t")
    for seat in ("agent", "user"):
        state.apply(say(AskPreference("cuisine")))
        state.apply(AskPreference("cuisine"))
    assert state.outcome.outcome == "turn-limit" and state.outcome.turns == 2


def test_legal_lists_the_domains_utterances_that_are_legal_now():
    state = DialogueGame().start(DOM, "agent", "t")
    legal = state.legal("agent")
    assert legal.step == "open" and len(legal.decisions) < len(catalogue(DOM))
    assert all(u.kind not in ("accept", "reject", "booking") for u in legal.decisions)
    assert Propose(Proposal("restaurant", "Sakura")) in legal.decisions
    assert legal.why_not(Accept(Proposal("cuisine", "Italian"))).endswith("which the other side never proposed")
    assert state.legal("user").decisions is None and state.legal("user").why_not(say(Quit())) == "it is not user's turn"
    state.apply(say(Propose(Proposal("restaurant", "Sakura"))))
    reading = state.legal("user")
    assert reading.step == "read" and Booking("Sakura") not in reading.decisions  # a closing reading of an open move
    state.apply(Propose(Proposal("restaurant", "Sakura")))
    legal = state.legal("user")
    assert Accept(Proposal("restaurant", "Sakura")) in legal.decisions and Booking("Sakura") in legal.decisions
    game = state.game
    mask = game.mask(state, "user")
    assert sum(mask) == len(legal.decisions) and not any(game.mask(state, "agent"))
    assert [game.decision(state, "user", i) for i, ok in enumerate(mask) if ok] == list(legal.decisions)


def test_features_have_the_games_fixed_size_and_hold_the_seats_own_scores():
    game = DialogueGame()
    state = game.start(DOM, "agent", "t", prefs={"agent": prefs(A)})
    f = game.features(state, "agent")
    assert f.shape == (game.feature_count(DOM),) and f.dtype == np.float32
    assert f[1] == 1.0  # asked to open
    assert f[4] == pytest.approx(prefs(A)["cuisine"].scores()["French"] / 4)  # French is second best of 5
    assert not game.features(state, "user")[4:4 + 9].any()  # the user's seat has no preferences here


# --- what a seat observes ---------------------------------------------------------------
class Watcher:
    """A user's agent that keeps its observations and speaks a fixed structured move."""

    def __init__(self, seat=None, prefs=None):
        self.seen = []

    def act(self, observation):
        self.seen.append(observation)
        if observation.step == "read":
            return None  # the seat's reader reads
        return AskPreference("cuisine")


def test_a_user_agent_observes_its_own_preferences_and_relation_and_nothing_of_the_others():
    seq = simcore.seed_sequence(4)
    watcher = Watcher()
    match = dialogue_match(seq, agent="dominance-dominant-v3", user=watcher, max_turns=6)
    match.run()
    own = random_preferences(DOM, child(seq, "user-prefs"))  # as the API draws the user's
    seen = watcher.seen
    assert {o.step for o in seen} == {"reply", "read"}
    assert all(o.prefs == own and o.relation == "external" and o.seat == "user" for o in seen)
    assert list(Observation._fields) == ["seat", "step", "relation", "prefs", "turn", "max_turns", "said", "mine",
                                         "heard", "text", "record", "domain"]
    reply = next(o for o in seen if o.step == "reply")
    # the other side appears only through its words (and the reading of them, the seat's own)
    assert all(isinstance(text, str) for _speaker, text in reply.said)
    assert reply.mine == () or all(u == AskPreference("cuisine") for u in reply.mine)
    agent_prefs = random_preferences(DOM, child(seq, "agent-prefs"))
    assert all(agent_prefs != o.prefs for o in seen)


# --- a user's agent in a seat ------------------------------------------------------------
class Direct:
    """Proposes the restaurant of its favourite values; books what the other side proposes."""

    def __init__(self, domain, prefs):
        top = {c: p.ranking()[0] for c, p in prefs.items()}
        self.best = next(o.name for o in domain.options
                         if all(v == top[c] for c, v in zip(domain.criterion_names, o.values)))

    def act(self, observation):
        if observation.step == "read":
            return None
        heard = observation.heard
        if isinstance(heard, Propose) and heard.proposal.type == "restaurant":
            return Booking(heard.proposal.value)
        return Propose(Proposal("restaurant", self.best))


@pytest.mark.parametrize("how", ["class", "instance", "path", "registered"])
def test_a_user_agent_takes_either_seat_by_class_instance_path_or_id(how):
    seq = simcore.seed_sequence(2)
    if how == "registered":
        simcore.register("policy", "direct-diner-v1", Direct, meta={"system": "dominance"}, replace=True)
    agent = {"class": Direct, "instance": Direct(DOM, random_preferences(DOM, child(seq, "agent-prefs"))),
             "path": "tests.systems.dominance.test_dominance_game:Direct", "registered": "direct-diner-v1"}[how]
    try:
        result = simcore.dominance_dialogue(agent, "dominance-submissive-v3", seed=2)
        user_side = simcore.dominance_dialogue("dominance-dominant-v3", agent, seed=2, agent_opens=False)
    finally:
        if how == "registered":
            from simcore.registry import unregister

            unregister("policy", "direct-diner-v1")
    first = result.utterances[0]
    assert first[0] == "agent" and first[1].kind == "propose" and first[2].rule == "external"
    assert result.events[0].hidden["relation"] == "external" and result.events[0].text  # said by the seat's voice
    assert result.outcome == "booked"
    assert user_side.utterances[0][0] == "user"


def test_a_user_agents_illegal_move_is_an_agent_error_naming_it():
    class Rude:
        def act(self, observation):
            return None if observation.step == "read" else Accept(Proposal("cuisine", "Italian"))

    with pytest.raises(AgentError, match=r"your agent Rude in seat 'agent' \(open\): illegal move .*never proposed"):
        simcore.dominance_dialogue(Rude, seed=0)


def test_a_seat_takes_only_dominance_policies():
    with pytest.raises(InputError, match="user"):
        simcore.dominance_dialogue("dominance-peer-v3", "mind-v2")
    with pytest.raises(InputError, match="agent.*no act"):
        simcore.dominance_dialogue(object())


class Writer:
    """A text seat: words only; told when they could not be used."""

    def __init__(self):
        self.lines = ["what about the weather", "ok", "I'd rather have Japanese than French", "bye"]
        self.refusals = []

    def act(self, observation):
        if observation.step == "read":
            return None
        return self.lines.pop(0)

    def refused(self, words, reading, why):
        self.refusals.append((words, type(reading).__name__))


def test_a_text_seats_words_are_read_by_its_reader_and_refused_ones_come_back():
    writer = Writer()
    result = simcore.dominance_dialogue("dominance-peer-v3", writer, seed=1, agent_opens=False)
    assert writer.refusals == [("what about the weather", "Unreadable"), ("ok", "Unreadable")]
    said = [(s, u) for s, u, _d in result.utterances]
    assert said[0] == ("user", StatePreference("cuisine", "French", "Japanese"))
    assert result.events[0].text == "I'd rather have Japanese than French"

    class Mute:
        def act(self, observation):
            return None if observation.step == "read" else "mmm"

    with pytest.raises(AgentError, match="your agent Mute in seat 'user' .*its words could not be read as a move"):
        simcore.dominance_dialogue("dominance-peer-v3", Mute, seed=1, agent_opens=False)


# --- the misreading rule ----------------------------------------------------------------------
class Plain:
    """Words are the utterance's JSON; ``misread`` maps an utterance to what is read instead."""

    def __init__(self, misread=None):
        self.misread, self.spoken = misread or {}, []

    def speak(self, who, utt):
        self.spoken.append(utt)
        return json.dumps(utt.to_dict())

    def read(self, who, text, own=False):
        utt = utterance_from_dict(json.loads(text))
        return self.misread.get(utt, utt)


def test_a_move_illegal_only_after_a_misreading_ends_the_dialogue_unread_counted_and_unsaid():
    """The user reads the agent's Italian as French (a reading that passes every check), then
    accepts French, which nobody proposed: a counted misreading that ends the dialogue, and the
    user's voice is never asked to say the move."""
    italian, french = Propose(Proposal("cuisine", "Italian")), Propose(Proposal("cuisine", "French"))
    agent_voice, user_voice = Plain(), Plain({italian: french})

    class Opener:
        name, relation = "agent", "peer"

        def act(self, observation):
            return respond(self, observation)

        def decide(self, heard):
            return Decision(italian, "test", "open")

        def speak(self, utt):
            return agent_voice.speak(self, utt)

        def commit(self, utt):
            pass

        def hear(self, text):
            return agent_voice.read(self, text)

    likes_french = {**A, "cuisine": ["French", "Italian", "Japanese", "Chinese", "Turkish"]}
    user = DominanceAgent("user", "peer", DOM, prefs(likes_french), voice=user_voice)
    state = DialogueGame().start(DOM, "agent", "t")
    result = play(state, {"agent": Opener(), "user": user})
    assert (result.outcome, result.turns, result.misreadings) == ("unreadable", 1, 1)
    assert result.readings == 1 and result.readings_right == 0
    assert user_voice.spoken == []  # the accept of French was never said
    assert state.faults == [(2, "user", "its move rests on a misreading: user: accept of 'French', which the other "
                                        "side never proposed")]


def test_a_reading_that_is_no_legal_move_of_the_speaker_is_refused_and_counted():
    state = DialogueGame().start(DOM, "agent", "t")
    state.apply(say(AskPreference("cuisine")))
    state.apply(Accept(Proposal("cuisine", "Italian")))  # the agent proposed nothing
    result = state.outcome
    assert (result.outcome, result.misreadings, result.readings) == ("unreadable", 1, 0)
    assert result.events[0].cues["user"]["kind"] == "unreadable"


# --- the chat: a text seat on the same game --------------------------------------------------
def test_the_chat_stops_at_the_turn_limit_counting_the_persons_utterances():
    """--max-turns counts every utterance: with the agent opening and a limit of 2, the agent
    speaks once and the person once; the agent does not speak a third utterance."""
    from simcore.cli import cli

    r = CliRunner().invoke(cli, ["chat", "dominance", "--relation", "submissive", "--agent-opens", "--max-turns", "2"],
                           input="how about Italian?\nhow about cheap?\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("agent: ") == 1 and "you: how about Italian?" in r.output
    assert r.output.rstrip().endswith("(turn limit of 2 reached: no agreement)")
    assert "how about cheap?" not in r.output


def test_a_dialogue_leaves_no_reference_cycle():
    """Everything a dialogue made is freed by reference counting when it is dropped (no work
    left to the cyclic collector, which a 9,000-dialogue study would pay for): the transcript
    holds no reference back to its state."""
    import gc

    simcore.dominance_dialogue(seed=1)  # imports and caches first
    gc.collect()
    gc.disable()
    try:
        result = simcore.dominance_dialogue(seed=2)
        assert len(list(result.events)) > 1
        del result
        assert gc.collect() == 0
    finally:
        gc.enable()
