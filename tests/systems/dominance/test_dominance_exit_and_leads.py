"""The seed's exit condition, leading as the seed words it, whose preferences
steer the booking, the v1 / v2 registry versions and ``--list-params``.  Each test is
built from a branch of the seed's figures; the ones marked "old" fail under the pre-issue
reading (v1 exit, leads = every change of subject)."""

import json

import attrs
import pytest
from click.testing import CliRunner

from policies.dominance import V1_EXIT, V2_EXIT, AgentParams, DominanceAgent, DominancePolicy
from policies.dominance_state import total_order
from scenarios.restaurants import load_domain
from simcore.cli import cli
from simcore.driver import play
from simcore.metrics.dominance import count_dialogue
from simcore.protocols.dialogue import (Accept, AskPreference, Booking, DialogueGame, Propose, Proposal,
                                        StatePreference, utterance_from_dict)
from simcore.registry import describe_params, make, register, resolve, spec_params, unregister

DOM = load_domain("restaurants-small-v1")
A = {"cuisine": ["Italian", "French", "Japanese", "Chinese", "Turkish"], "cost": ["cheap", "expensive"],
     "ambiance": ["calm", "noisy"]}
B = {"cuisine": ["Turkish", "Chinese", "Japanese", "French", "Italian"], "cost": ["cheap", "expensive"],
     "ambiance": ["calm", "noisy"]}
V1 = AgentParams(**V1_EXIT)


def prefs(orders):
    return {c.name: total_order(c.name, orders[c.name], c.values) for c in DOM.criteria}


class Plain:
    """Say the utterance as its JSON; read it back exactly (the exit logic does not depend on
    the words)."""

    def speak(self, who, utt):
        return json.dumps(utt.to_dict())

    def read(self, who, text, own=False):
        return utterance_from_dict(json.loads(text))


def dialogue(rel_a, rel_b, params=AgentParams(), max_turns=40):
    a = DominanceAgent("agent", rel_a, DOM, prefs(A), params=params, voice=Plain())
    b = DominanceAgent("user", rel_b, DOM, prefs(B), params=params, voice=Plain())
    agents = {"agent": a, "user": b}
    return play(DialogueGame(max_turns).start(DOM, "agent", "t"), agents), agents


# --- the exit ------------------------------------------------------------------
def test_fig4_counter_proposal_ping_pong_ends_by_the_exit():
    """Fig. 4: two dominant agents with different favourite cuisines counter-propose
    (F4.dominant-counter-propose) each other's proposal.  Old: they loop to the turn
    limit.  v2 ended the repeated exchange and called it a dead end; v3 calls it what it
    is, a stalled dialogue (the seed's dead end is "no possible remaining compromise to find")."""
    old, _ = dialogue("dominant", "dominant", V1)
    assert old.outcome == "turn-limit" and old.turns == 40
    new, _ = dialogue("dominant", "dominant")
    assert new.outcome == "stalled" and new.turns < 10
    v2, _ = dialogue("dominant", "dominant", AgentParams(**V2_EXIT))
    assert v2.outcome == "dead-end" and v2.turns == new.turns
    assert new.utterances[-1][2].rule == "exit.repeat"
    rules = [d.rule for _s, _u, d in new.utterances[:-1]]
    assert set(rules) == {"open.dominant", "F4.dominant-counter-propose"}


def test_fig7_keep_proposing_then_exit():
    """Fig. 7 "he will keep proposing the proposal": the dominant re-proposes its rejected
    favourite (the branch stays reachable); when the peer rejects it again, nothing has
    changed and the exchange ends by the exit rather than at the limit."""
    new, _ = dialogue("dominant", "peer")
    rules = [d.rule for _s, _u, d in new.utterances]
    assert "F7.dominant-repropose" in rules
    assert new.outcome == "stalled" and rules[-1] == "exit.repeat"
    old, _ = dialogue("dominant", "peer", V1)
    assert old.outcome == "turn-limit"


def test_counter_proposal_counts_as_refusal():
    """Fig. 4: a counter-proposal answers a proposal that "is not acceptable".  With the
    criterion exit on, a dominant whose only acceptable cuisine was countered quits; under
    v1 (only Reject refuses) it counter-proposes again."""
    def after_counter(params):
        a = DominanceAgent("agent", "dominant", DOM, prefs(A), params=params)
        a.commit(Propose(Proposal("cuisine", "Italian")))
        heard = Propose(Proposal("cuisine", "Turkish"))
        a.perceive(heard)
        return a, a.decide(heard)

    a, dec = after_counter(AgentParams(exit_criterion=True))
    assert a.countered_values["cuisine"] == {"Italian"} and dec.rule == "exit.criterion"
    _, dec = after_counter(attrs.evolve(V1, exit_criterion=True))
    assert dec.rule == "F4.dominant-counter-propose"


def test_exit_never_cuts_a_dialogue_that_would_book():
    from simcore.systems.dominance import DominanceConfig, STUDY
    from simcore.study import Job

    for version in ("v1", "v2"):
        cfg = DominanceConfig(dialogues=30, language="direct", transcripts=False, version=version)
        recs = [STUDY.run_job(cfg, Job(i, (i,))).record["records"] for i in range(30)]
        if version == "v1":
            v1 = recs
    for r1, r2 in zip(v1, recs):
        for pair in r1:
            assert (r1[pair]["booked"], r1[pair]["outcome"] == "booked") == \
                   (r2[pair]["booked"], r2[pair]["outcome"] == "booked")
            if r1[pair]["outcome"] == "turn-limit":
                assert r2[pair]["outcome"] == "dead-end"


# --- leads ---------------------------------------------------------------------
def _count(turns):
    a = DominanceAgent("agent", "submissive", DOM, prefs(A))
    u = DominanceAgent("user", "dominant", DOM, prefs(B))
    return count_dialogue([(s, utt, None) for s, utt in turns], {"agent": a, "user": u}, DOM.topic)


def test_fig6_asking_is_not_leading_proposing_ones_favourite_is():
    """Fig. 6: the submissive opens a criterion by asking (defers), the dominant by
    "proposing his most preferred value" (directs).  Counting every first mention as a lead (the v1 policies) gives both one."""
    c = _count([("agent", AskPreference("cuisine")),
                ("user", StatePreference("cuisine", None, "Turkish")),
                ("agent", Propose(Proposal("cuisine", "Turkish"))),      # adopts the other's favourite
                ("user", Accept(Proposal("cuisine", "Turkish"))),
                ("agent", AskPreference("cost")),
                ("user", Propose(Proposal("cost", "cheap"))),             # the dominant's own value
                ("agent", Accept(Proposal("cost", "cheap")))])
    assert c["agent"]["leads"] == 0 and c["agent"]["subject_changes"] == 2   # old: 2 "leads"
    # the dominant's answer to the question stays on the subject; its own cost proposal leads
    assert c["user"]["leads"] == 1


def test_steering_first_to_put_forward_and_booked_proposer():
    opt = next(o for o in DOM.options if o.values == ("Turkish", "cheap", "calm"))
    c = _count([("user", Propose(Proposal("cuisine", "Turkish"))),
                ("agent", Accept(Proposal("cuisine", "Turkish"))),
                ("user", Propose(Proposal("cost", "cheap"))),
                ("agent", Accept(Proposal("cost", "cheap"))),
                ("agent", StatePreference("ambiance", None, "calm")),
                ("user", Propose(Proposal("ambiance", "calm"))),
                ("agent", Accept(Proposal("ambiance", "calm"))),
                ("user", Propose(Proposal("restaurant", opt.name))),
                ("agent", Booking(opt.name))])
    assert (c["user"]["forwarded"], c["agent"]["forwarded"]) == (2, 1)
    assert (c["user"]["proposed_booked"], c["agent"]["proposed_booked"]) == (1, 0)
    assert c["agent"]["leads"] == 1      # the stated preference opened ambiance
    assert c["user"]["leads"] == 3       # Turkish, cheap, the option; calm was the agent's first


# --- registry versions and --list-params ---------------------------------------
@pytest.mark.parametrize("rel", ["dominant", "peer", "submissive"])
def test_v1_and_v2_keep_their_exits_v3_is_the_default(rel):
    assert make("policy", f"dominance-{rel}-v1").params() == AgentParams(**V1_EXIT)
    assert make("policy", f"dominance-{rel}-v2").params() == AgentParams(**V2_EXIT)
    assert make("policy", f"dominance-{rel}").params() == AgentParams()
    assert resolve("policy", f"dominance-{rel}").id == f"dominance-{rel}-v3"
    # every choice is a named parameter in the registry entry
    kw = resolve("policy", f"dominance-{rel}-v3").kwargs
    assert {f.name for f in attrs.fields(DominancePolicy)} == set(kw)


def test_every_dominance_and_scorable_parameter_has_a_source_note():
    for system in ("dominance", "scorable"):
        text = describe_params(system)
        assert "(no source note)" not in text, text
    assert "exit_on_repeat = True" in describe_params("dominance")


def test_list_params_cli():
    r = CliRunner().invoke(cli, ["run", "dominance", "--list-params"])
    assert r.exit_code == 0, r.output
    for rel in ("dominant", "peer", "submissive"):
        assert f"policy dominance-{rel}-v1" in r.output and f"policy dominance-{rel}-v2" in r.output
    assert "exit_counter_refusal = False" in r.output and "seed Fig. 4" in r.output
    assert "seed Fig. 2" in r.output and "choice" in r.output
    r = CliRunner().invoke(cli, ["run", "scorable", "--list-params"])
    assert r.exit_code == 0 and "protocol scorable-v1" in r.output and "sigma = 1.0" in r.output


@attrs.frozen
class _ToyParams:
    gamma: float = attrs.field(default=0.5, metadata={"source": "choice: a toy"})


@attrs.frozen
class _ToyPolicy:
    PARAMS = _ToyParams
    name: str = attrs.field(default="x", metadata={"source": "Table 9"})


def _toy_factory(alpha=1, *, beta="b", **rest):
    return None


def test_list_params_reads_any_registered_policy():
    """Generic: attrs fields (+ the PARAMS class), spec kwargs override defaults; plain
    callables by signature; notes from field metadata."""
    register("policy", "toy-a-v1", _ToyPolicy, kwargs={"gamma": 0.9}, meta={"system": "toysys"})
    register("policy", "toy-b-v1", _toy_factory, meta={"system": "toysys"})
    try:
        a = {p.name: p for p in spec_params(resolve("policy", "toy-a-v1"))}
        assert a["gamma"].default == 0.9 and a["gamma"].source == "choice: a toy"
        assert a["name"].default == "x" and a["name"].source == "Table 9"
        b = {p.name: p.default for p in spec_params(resolve("policy", "toy-b-v1"))}
        assert b == {"alpha": 1, "beta": "b"}
        text = describe_params("toysys")
        assert "toy-a-v1" in text and "gamma = 0.9" in text and "(no source note)" in text
    finally:
        unregister("policy", "toy-a-v1")
        unregister("policy", "toy-b-v1")


# --- scorable: Base-LLM's stand-in reads the whole deal history (seed sec. 2) ------------
def test_scorable_base_llm_description_matches_the_code():
    """The registry describes Base-LLM as the code runs it: counting all of j's deals, as the
    seed's sec. 2 ("the history of d_t") supports, not "echoing their last public deal"; the
    last-deal reading is a real option."""
    from policies.scorable import echo_estimate
    from scenarios.scorable import load_game
    from simcore.protocols.scorable import Settings
    from simcore.systems.scorable.match import start
    from simcore.seeding import derive

    desc = resolve("policy", "scorable-base-llm-v1").description
    assert "last public deal" not in desc and "all" in desc
    game = load_game("harbour-sport-park")
    deals = [(0, 1, 2, 3, 4), (1, 1, 0, 0, 2)]
    est = echo_estimate(game, deals)
    assert est[0][0] == est[0][1] == pytest.approx(100 / 5 / 2)   # both deals count, half each
    assert Settings().echo_history == "all"
    diff = 0
    for trial in range(3):
        recs = [start(game, "base-om-p1", derive(5, "scorable", trial),
                      settings=Settings(echo_history=h)).run().record for h in ("all", "last")]
        diff += recs[0] != recs[1]
    assert diff > 0   # "last" is a different reading, not a relabelling


@attrs.frozen
class _Inner:
    delta: int = attrs.field(default=2, metadata={"source": "Table 3"})


@attrs.frozen
class _Outer:
    inner: _Inner = attrs.field(factory=_Inner)
    gamma: float = attrs.field(default=0.5, metadata={"source": "eq. 7"})


def _flat_factory(domain, params: _Outer = None, **choices):
    return None


def test_list_params_finds_notes_through_annotated_params():
    """An entry point taking flat kwargs for an annotated attrs params class (ASTRA's shape)
    gets each kwarg's note from that class's (nested) fields."""
    register("policy", "toy-c-v1", _flat_factory, kwargs={"gamma": 0.7, "delta": 3}, meta={"system": "toysys2"})
    try:
        got = {p.name: (p.default, p.source) for p in spec_params(resolve("policy", "toy-c-v1"))}
        assert got["gamma"] == (0.7, "eq. 7") and got["delta"] == (3, "Table 3")
    finally:
        unregister("policy", "toy-c-v1")
