"""The study end to end: properties of simulated dialogues, determinism across workers,
metrics.json shape, the CLI, the chat command, and the golden playthroughs."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.dominance import DominanceAgent, ScriptedUser
from policies.dominance_state import RELATIONS, random_preferences
from scenarios.restaurants import load_domain
from simcore import seeding
from simcore.protocols.dialogue import Booking, Propose, Proposal, StatePreference
from simcore.systems.dominance import PLAYTHROUGHS, STUDY, DominanceConfig, play_dialogue, render_run, start
from checkout import TESTS  # noqa: E402

SMALL = load_domain("restaurants-small-v1")
BIG = load_domain("restaurants-420-v1")


def dialogue(domain, a, u, seed, max_turns=40, opens=True):
    seq = seeding.derive(seed, "dominance", "test")
    pa = random_preferences(domain, seeding.child(seq, "pa"))
    pu = random_preferences(domain, seeding.child(seq, "pu"))
    return play_dialogue(domain, a, u, pa, pu, rng_agent=seeding.child(seq, "a"), rng_user=seeding.child(seq, "u"),
                         agent_opens=opens, run_id=f"dominance/test/{seed}", max_turns=max_turns)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RELATIONS), st.sampled_from(RELATIONS), st.integers(0, 10**6),
       st.integers(2, 40), st.booleans(), st.sampled_from([SMALL, BIG]))
def test_dialogue_properties(a, u, seed, max_turns, opens, domain):
    result, agents, stats = dialogue(domain, a, u, seed, max_turns, opens)
    # ends within the turn limit
    assert 1 <= result.turns <= max_turns
    assert result.outcome in ("booked", "dead-end", "stalled", "turn-limit")
    assert stats.fallbacks == 0
    # a booked restaurant is acceptable to the side that accepted it
    if result.booked:
        speaker, utt, dec = result.utterances[-1]
        assert isinstance(utt, Booking)
        if dec.rule == "F5.booking":  # the booker accepted the other's proposal
            assert agents[speaker].option_acceptable(result.booked)
    # state updates never lose a stated preference; the listener's model holds exactly what it read
    for speaker, utt, _dec in result.utterances:
        listener = "user" if speaker == "agent" else "agent"
        if isinstance(utt, StatePreference):
            stmt = (utt.less, utt.more)
            assert stmt in agents[speaker].oas[utt.criterion].statements
            assert stmt in agents[listener].other[utt.criterion].statements
    for side, ag in agents.items():
        for c, model in ag.other.items():
            other = "user" if side == "agent" else "agent"
            said = {(x.less, x.more) for s, x, _ in result.utterances
                    if s == other and isinstance(x, StatePreference) and x.criterion == c}
            assert set(model.statements) == said


def test_every_event_names_figure_and_rule():
    result, _agents, _stats = dialogue(SMALL, "peer", "submissive", 5)
    for ev in result.events[:-1]:
        assert ev.hidden["figure"] and ev.hidden["rule"] and ev.run.startswith("dominance/")
    assert result.events[-1].phase == "end"


def test_scripted_user():
    import numpy as np

    prefs = random_preferences(SMALL, np.random.default_rng(1))
    name = DominanceAgent("agent", "submissive", SMALL, prefs).judge.order[-1]
    user = ScriptedUser([Propose(Proposal("restaurant", name)), f"how about {name}?"])
    match = start(SMALL, {"agent": "submissive", "user": user}, prefs={"agent": prefs},
                  rngs={"agent": np.random.default_rng(2), "user": np.random.default_rng(3)}, first="user",
                  run_id="dominance/scripted")
    result, _agents, _stats = match.run()
    rules = [d.rule for s, _u, d in result.utterances if s == "agent"]
    assert rules == ["F5.submissive-state", "F5.booking"]  # the second time it is on the table
    assert result.booked == name


def _run(tmp_path, workers, **kw):
    from simcore.study import run_study

    cfg = DominanceConfig(seed=3, dialogues=4, **kw)
    out = tmp_path / f"w{workers}"
    run_study("simcore.systems.dominance:STUDY", cfg, workers=workers, out_dir=str(out))
    return out


def test_workers_do_not_change_results(tmp_path):
    a, b = _run(tmp_path, 1), _run(tmp_path, 2)
    for f in ("metrics.json", "transcripts.jsonl", "dominance_matrix.csv", "dominance_behaviours.csv"):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_metrics_shape(tmp_path):
    out = _run(tmp_path, 1, agent=("dominant", "submissive"), user=("peer",))
    m = json.loads((out / "metrics.json").read_text())
    assert m["system"] == "dominance" and m["seed"] == 3
    assert set(m["results"]) == {"dominant__peer", "submissive__peer"}
    r = m["results"]["dominant__peer"]
    for k in ("success_rate", "mean_turns", "agent_satisfaction", "user_satisfaction"):
        assert k in r
    assert 0 <= r["success_rate"] <= 1
    for side in ("agent", "user"):
        assert {"proposals", "asks", "states", "accepts", "rejects", "concessions", "leads"} <= set(r[side])


def test_same_preferences_across_pairs():
    cfg = DominanceConfig(seed=1, dialogues=1)
    out = STUDY.run_job(cfg, STUDY.jobs(cfg)[0])
    assert len(out.record["records"]) == 9


def test_cli_bad_relation_lists_valid(tmp_path):
    from simcore.cli import cli

    r = CliRunner().invoke(cli, ["run", "dominance", "--agent", "boss", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "dominant, peer, submissive" in r.output


def test_cli_runs(tmp_path):
    r = subprocess.run([sys.executable, "-m", "simcore.cli", "run", "dominance", "--dialogues", "2",
                        "--agent", "dominant", "--user", "submissive,peer", "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "agent \\ user" in r.stdout and (tmp_path / "metrics.json").exists()
    shown = subprocess.run([sys.executable, "-m", "simcore.cli", "show", str(tmp_path / "transcripts.jsonl"),
                            "--group", "d0/dominant__peer"], capture_output=True, text=True)
    assert shown.returncode == 0 and "[open / open." in shown.stdout or "[Fig." in shown.stdout


def test_chat_through_cli_runner():
    from simcore.cli import cli

    lines = "what cuisine do you like?\nblah blah\nok\nhow about cheap?\n"
    r = CliRunner().invoke(cli, ["chat", "dominance", "--relation", "submissive"], input=lines)
    assert r.exit_code == 0, r.output
    assert "agent:" in r.output and "[Sec. 2 / F2.react]" in r.output
    assert "I could not read that" in r.output
    assert "proposed nothing" in r.output


def test_chat_books_a_table():
    from simcore.cli import cli

    r = CliRunner().invoke(cli, ["chat", "dominance", "--relation", "dominant", "--seed", "4"],
                           input="what cuisine do you like?\nlist\n")
    assert r.exit_code == 0
    # propose the agent's own best restaurant: a dominant agent books it at once
    from simcore.chat_dominance import command  # noqa: F401

    seq = seeding.derive(4, "dominance", "chat", "dominant")
    agent = DominanceAgent("agent", "dominant", SMALL, random_preferences(SMALL, seeding.child(seq, "prefs")))
    best = agent.judge.order[0]
    r = CliRunner().invoke(cli, ["chat", "dominance", "--relation", "dominant", "--seed", "4"],
                           input=f"let's go to {best}\n")
    assert "[Fig. 5 / F5.booking]" in r.output and f"(booked: {best})" in r.output


def test_chat_subprocess_pipe():
    r = subprocess.run([sys.executable, "-m", "simcore.cli", "chat", "dominance", "--relation", "peer"],
                       input="I'd rather have Italian than Chinese\nbye\n", capture_output=True, text=True)
    assert r.returncode == 0 and "[Fig. 1 /" in r.stdout


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthroughs_match_golden_files(name):
    import os

    path = os.path.join(TESTS, "playthroughs", f"dominance-{name}.txt")
    with open(path, encoding="utf-8") as fh:
        assert PLAYTHROUGHS[name]() == fh.read()


def test_render_run_names_outcome():
    result, _a, _s = dialogue(SMALL, "dominant", "submissive", 2)
    text = render_run(result.events)
    assert text.splitlines()[-1].startswith("-- ")


@pytest.mark.parametrize("relation", RELATIONS)
def test_conformance_of_registered_policies(relation):
    from simcore.testing import check_policy

    assert check_policy(f"dominance-{relation}-v1") > 0


def test_illegal_moves_are_refused():
    from simcore.errors import IllegalMove
    from simcore.protocols.dialogue import Accept, replay_record

    with pytest.raises(IllegalMove, match="never proposed"):
        replay_record(SMALL, [("agent", Accept(Proposal("cuisine", "Italian")))])
    with pytest.raises(IllegalMove, match="not a value"):
        replay_record(SMALL, [("agent", Propose(Proposal("cuisine", "cheap")))])
    with pytest.raises(IllegalMove, match="neither proposed"):
        replay_record(SMALL, [("agent", Booking("Sakura"))])
    with pytest.raises(IllegalMove, match="closed"):
        replay_record(SMALL, [("agent", Propose(Proposal("restaurant", "Sakura"))), ("user", Booking("Sakura")),
                              ("agent", Propose(Proposal("cuisine", "Italian")))])


def test_direct_language_mode(tmp_path):
    from simcore.study import run_study

    cfg = DominanceConfig(seed=2, dialogues=3, language="direct")
    s1 = run_study("simcore.systems.dominance:STUDY", cfg, workers=1, out_dir=str(tmp_path / "a"))
    s2 = run_study("simcore.systems.dominance:STUDY", cfg, workers=2, out_dir=str(tmp_path / "b"))
    assert (tmp_path / "a" / "transcripts.jsonl").read_bytes() == (tmp_path / "b" / "transcripts.jsonl").read_bytes()
    assert s1.metrics["results"] == s2.metrics["results"]
    nt = DominanceConfig(seed=2, dialogues=3, language="direct", transcripts=False)
    s3 = run_study("simcore.systems.dominance:STUDY", nt, workers=1)
    assert s3.metrics["results"] == s1.metrics["results"]


def test_decisions_do_not_depend_on_the_phrasing():
    """Backend and direct language paths phrase differently; the read utterances, hence every
    decision and every metric, are the same."""
    from simcore.study import run_study

    a = run_study("simcore.systems.dominance:STUDY", DominanceConfig(seed=5, dialogues=3, garble=0.3), workers=1)
    b = run_study("simcore.systems.dominance:STUDY", DominanceConfig(seed=5, dialogues=3, language="direct"),
                  workers=1)
    assert a.metrics["fallbacks"] > 0 and b.metrics["fallbacks"] == 0
    assert a.metrics["behaviours_by_relation"] == b.metrics["behaviours_by_relation"]
    ra, rb = a.metrics["results"], b.metrics["results"]
    for k in ra:
        ra[k].pop("fallbacks"), rb[k].pop("fallbacks")
    assert ra == rb


def test_a_submissive_booking_is_said_as_done_never_asked():
    """A booking closes the dialogue, so it is said as done, never asked: a "shall I book a table
    for us at Bosphorus?" would end the dialogue without reading the user's "no"."""
    from mockllm.dominance import T, read_text, SMALL_VOCAB

    for relation, forms in T.items():
        for form in forms["booking"]:
            said = form.format(v="Sakura")
            assert "?" not in said, (relation, said)
            assert read_text(said, SMALL_VOCAB) == {"kind": "booking", "option": "Sakura"}


def test_chat_greets_reveals_the_agent_and_scores_the_booking():
    """Greetings, forms people type, and the agent's hidden preferences and the
    booked option's score at the end; piped input is echoed once as 'you: ...'."""
    from simcore.cli import cli

    seq = seeding.derive(4, "dominance", "chat", "dominant")
    agent = DominanceAgent("agent", "dominant", SMALL, random_preferences(SMALL, seeding.child(seq, "prefs")))
    best = agent.judge.order[0]
    r = CliRunner().invoke(cli, ["chat", "dominance", "--relation", "dominant", "--seed", "4"],
                           input=f"hello\nwhat kind of cuisine do you want?\nItalian or Chinese?\nlet's go to {best}\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("you: hello") == 0 and "agent: Hello!" in r.output  # a greeting uses no turn
    assert r.output.count("you: Italian or Chinese?") == 1 and "I could not read" not in r.output
    assert "the agent's hidden preferences" in r.output
    assert f"{best} scores 1.00 for the agent" in r.output


def test_chat_prints_control_characters_escaped():
    from simcore.cli import cli

    r = CliRunner().invoke(cli, ["chat", "dominance"], input="hi\x1b]0;pwned\x07\nbye\n")
    assert r.exit_code == 0 and "\x1b" not in r.output and "\\x1b]0;pwned\\x07" in r.output


def test_a_sweep_logged_under_the_studys_former_path_resumes(tmp_path):
    """A dominance sweep log whose header names ``simcore.studies.dominance:STUDY`` (the path
    simcore 0.1 wrote) is the same sweep for --resume: its missing run is played, the rest kept."""
    from simcore.cli import cli

    out = tmp_path / "sweep"
    args = ["run", "dominance", "--dialogues", "2", "--agent", "peer", "--user", "peer", "--grid",
            "dominant_factor=0.5,0.7", "--replicates", "1", "--language", "direct", "--no-transcripts", "--out",
            str(out), "--no-progress", "--workers", "1"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    log = out / "sweep.jsonl"
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["study"] == "simcore.systems.dominance:STUDY"
    header["study"] = "simcore.studies.dominance:STUDY"
    log.write_text("\n".join([json.dumps(header)] + lines[1:-1]) + "\n")
    r = CliRunner().invoke(cli, args + ["--resume"])
    assert r.exit_code == 0, r.output
    assert "1 of 2 run(s) already recorded" in r.output
    assert len(log.read_text().splitlines()) == 3
