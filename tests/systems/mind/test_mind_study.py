"""The MIND study end to end: determinism, worker independence, outputs, CLI, traces."""

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.travel import PROPOSE, SPEAK
from policies.mind import MindPolicy
from scenarios.travel import CATALOGUE, ITEMS, contested_items, generate_group, soft_conflicts
from scenarios.travel_traces import TRACES
from simcore.cli import cli
from simcore.systems.mind import STUDY, MindConfig
from simcore.systems.mind.match import play_group
from simcore.systems.mind.traces import play


def test_catalogue_matches_appendix_a():
    cats = [it.category for it in CATALOGUE]
    assert len(CATALOGUE) == 20
    assert (cats.count("accommodation"), cats.count("restaurant"), cats.count("flight"),
            cats.count("inter-city")) == (8, 6, 5, 1)
    assert ITEMS["acc_review"].ordinal and not ITEMS["acc_house_rules"].ordinal
    assert all(it.flexible in it.options for it in CATALOGUE)


@pytest.mark.parametrize("size", [2, 3, 4])
def test_groups_share_a_trip_and_have_three_soft_conflicts(size):
    g = generate_group("g", size, np.random.default_rng(size))
    assert g.size == size and len(soft_conflicts(g.members)) >= 3
    assert list(g.items) == contested_items(g.members)
    for key in g.items:
        prefs = [m.pref(key) for m in g.members]
        assert len({p.value for p in prefs}) > 1 and max(p.w for p in prefs) >= 6
    again = generate_group("g", size, np.random.default_rng(size))
    assert again == g


def test_same_seed_same_transcript_and_different_seed_differs():
    cfg = MindConfig(groups=3, seed=11)
    a = [e.to_json() for j in STUDY.jobs(cfg) for e in STUDY.run_job(cfg, j).events]
    b = [e.to_json() for j in STUDY.jobs(cfg) for e in STUDY.run_job(cfg, j).events]
    c = [e.to_json() for j in STUDY.jobs(MindConfig(groups=3, seed=12))
         for e in STUDY.run_job(MindConfig(groups=3, seed=12), j).events]
    assert a == b and a != c


class _FixedWords:
    """Mock backend whose speakers all use the words of willingness 5, whatever their w."""

    def __init__(self):
        self.inner = MockBackend(tone_noise=0.0)

    def chat(self, messages, *, temperature=0.0, seed=None):
        from mockllm.tasks import read_prompt

        task, ctx = read_prompt(messages)
        if task is SPEAK and ctx["willingness"] is not None:
            messages = SPEAK.messages(**dict(ctx, willingness=5))
        if task is PROPOSE:
            messages = PROPOSE.messages(items=[dict(e, willingness=5) for e in ctx["items"]], reason=ctx["reason"])
        return self.inner.chat(messages, temperature=temperature, seed=seed)


def test_listeners_guess_from_words_only():
    """Changing speakers' hidden w with their words fixed changes no listener's guess:
    neither the voters' readings of the proposer (Phase 2a) nor the proposer's readings
    of the dissenters (Phase 3)."""
    from scenarios.travel_traces import Trace, group_for

    readings = []
    for proposer_w, voter_ws in ((2, (6, 6)), (9, (5, 6))):
        trace = Trace("t", "t", "rest_budget",
                      (("Luxury", proposer_w), ("Budget", voter_ws[0]), ("Economy", voter_ws[1])), "", True, "", 1)
        out = play_group(group_for(trace), MindPolicy(), [0], ModelClient(_FixedWords()),
                              np.random.default_rng(0), "mind/t")
        apps = out.items[0].appraisals
        assert {a.true_w for a in apps if a.speaker == 0} == {proposer_w}
        readings.append([(a.phase, a.round, a.reader, a.speaker, a.guessed_w) for a in apps])
    assert readings[0] == readings[1]
    assert {r[0] for r in readings[0]} == {"2a", "3"} and all(r[4] == 5 for r in readings[0])


@pytest.mark.parametrize("trace", TRACES, ids=lambda t: t.name)
def test_paper_traces(trace):
    outcome, events = play(trace)
    assert (outcome.consensus, outcome.final, outcome.rounds) == (
        trace.expect_consensus, trace.expect_final, trace.expect_rounds)
    if trace.name == "rational-deadlock":
        proposals = [e.intent["value"] for e in events if e.phase == "3-update"]
        assert proposals == ["Budget", "Moderate"]  # the oscillation of Table D14
    if trace.name == "strategic-update":
        assert [e.intent["action"] for e in events if e.phase == "3-update"] == ["UPDATE"]


def test_cli_outputs_and_worker_independence(tmp_path):
    runner = CliRunner()
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        res = runner.invoke(cli, ["run", "mind", "--groups", "6", "--seed", "3", "--workers", str(workers),
                                  "--out", str(out)])
        assert res.exit_code == 0, res.output
        outs.append({name: (out / name).read_bytes() for name in sorted(os.listdir(out))})
    assert outs[0] == outs[1]
    names = set(outs[0])
    assert {"metrics.json", "transcripts.jsonl", "table1_performance.csv", "table2_dr_by_size.csv",
            "table3_tom.csv", "table4_judge.csv"} <= names
    m = json.loads(outs[0]["metrics.json"])
    assert m["system"] == "mind" and m["seed"] == 3 and isinstance(m["fallbacks"], int)
    for variant in ("base", "mind", "tone-only", "appraisal-only"):
        r = m["results"][variant]
        assert {"F", "DHR", "DR", "S_total", "J", "high_w_hit", "DR_by_size", "win_rate_by_w"} <= set(r)
        assert set(r["win_rate_by_w"]) == {"1-3", "4-6", "7-8", "9-10"}
        assert set(r["DR_by_size"]) == {"2", "3", "4"}
    assert set(m["tom"]) == {"mind", "appraisal-only"}
    assert {"MAE", "pearson", "acc1", "acc2", "n"} <= set(m["tom"]["mind"])
    assert m["judge"]["a"] == "mind" and 0 <= m["judge"]["overall"]["win"] <= 1
    shown = runner.invoke(cli, ["show", str(tmp_path / "w1" / "transcripts.jsonl"), "--group", "g2/mind"])
    assert shown.exit_code == 0 and "Phase 1" in shown.output and "R1" in shown.output


@pytest.mark.parametrize("args, message", [
    (["--variants", "mind,bogus"], "give one of base, mind, tone-only, appraisal-only"),
    (["--sizes", "1,3"], "out of range; valid: 2..8"),
    (["--tone-noise", "1.5"], "1.5"),
    (["--groups", "0"], "0"),
])
def test_cli_rejects_bad_options(args, message):
    res = CliRunner().invoke(cli, ["run", "mind", *args])
    assert res.exit_code == 2 and message in res.output


def test_show_bad_file_is_one_clear_line(tmp_path):
    from simcore.cli import main

    bad = tmp_path / "t.jsonl"
    bad.write_text("{not json\n")
    with pytest.raises(SystemExit) as exc:
        main(["show", str(bad)])
    assert exc.value.code == 2
