"""The mind.judge role played by a backend: --role mind.judge=BACKEND asks the
Table 4 verdict of a model through E16/E17's prompt (the blind judge's inputs only), A or B
for each criterion and overall, the stand-in's verdict the counted fallback; with the mock
in the role the run is the stand-in's run but for the ties, which the study settles with its
coin and the mock with a coin of its own."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mockllm.mock import MockBackend
from simcore.errors import ParseError
from simcore.metrics.mind_judge import CRITERIA, blind_evidence, compare, conversation_key, letters, settle
from simcore.systems.mind.model_roles import JUDGE, JUDGE_KEYS, events_of, judge_context
from tests.taskbackend import OneTask
from tests.clirun import one_line, simcore

RUN = ["run", "mind", "--groups", "4", "--sizes", "2,3,4", "--seeds", "1", "--variants", "mind,base",
       "--no-progress"]
SAME = ("transcripts.jsonl", "table1_performance.csv", "table2_dr_by_size.csv", "table4_judge.csv")


def _metrics(path):
    return json.loads((path / "metrics.json").read_text())


@pytest.mark.parametrize("backend", ["model", "mock-v1"])
def test_with_the_mock_in_the_role_the_run_is_the_stand_ins_run_but_for_the_ties(capsys, tmp_path, backend):
    assert simcore(capsys, *RUN, "--out", str(tmp_path / "a"))[0] == 0
    assert simcore(capsys, *RUN, "--role", f"mind.judge={backend}", "--out", str(tmp_path / "b"))[0] == 0
    for name in SAME[:3]:  # the negotiations and their tables
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    a, b = _metrics(tmp_path / "a"), _metrics(tmp_path / "b")
    rows = b["model_calls"]["by_task"]
    judge = rows.pop("mind.judge")
    assert judge["asks"] == 4 and judge["first_try"] == 4 and judge["fallbacks"] == 0
    assert rows == a["model_calls"]["by_task"]
    assert 0 < a["judge"]["change_justification"]["tie_break"] < 1  # the stand-in's coin had work to do
    assert b["judge"]["change_justification"]["tie_break"] == 0  # the model (here the mock) named every winner
    # Base states no stake: rationality is not comparable whoever judges
    assert a["judge"]["rationality"]["not_comparable"] == b["judge"]["rationality"]["not_comparable"] == 1



def JudgeOnly(reply):
    """The mock for everything but the judge task, whose answers ``reply(context)`` gives."""
    return OneTask("mind.judge", reply)


def _group(backend, roles=(("mind.judge", "model"),), groups=3):
    """The verdicts of ``groups`` groups and the run's counts, run through the study's own job."""
    from simcore.study import Job
    from simcore.systems.mind import STUDY, MindConfig

    config = MindConfig(groups=groups, sizes=(2, 3, 4), variants=("mind", "base"), roles=roles, transcripts=False)
    import simcore.backends as backends

    saved = backends.build_backend
    backends.build_backend = lambda *a, **k: backend  # (run_job builds its backend by id)
    try:
        outs = [STUDY.run_job(config, Job(g, (0, g))) for g in range(groups)]
    finally:
        backends.build_backend = saved
    return outs


def test_the_prompt_read_back_gives_the_stand_ins_verdict_where_the_evidence_decides():
    """The mock answering through chat (the prompt rendered, its context read back from the text)
    gives every group the stand-in's verdict on each criterion the evidence decides (the
    conversations in the prompt carry all the blind judge reads); the criteria the stand-in's
    coin settled get the mock's own coin."""
    backend = JudgeOnly(lambda ctx: JUDGE.mock_answer(ctx, None, {}))
    played = _group(backend, groups=6)
    stand_in = _group(JudgeOnly(None), roles=(), groups=6)
    assert len(backend.asked) == 6 and all(n == 2 for _, n in backend.asked)  # answered first try
    ties = 0
    for p, s in zip(played, stand_in):
        for c in CRITERIA:
            if c in s.record["judge"]["tie_break"]:
                ties += 1
            else:
                assert p.record["judge"][c] == s.record["judge"][c], c
    assert ties > 0


def test_the_mocks_tie_coin_swaps_with_the_plans_and_is_fair():
    from simcore.systems.mind.model_roles import tie_letter

    plans = _events(groups=6)
    heads = 0
    for mind, base in plans:
        ab = judge_context(mind, base, "mind", "base")
        ba = judge_context(base, mind, "base", "mind")
        for c in CRITERIA:
            x, y = tie_letter(ab, c), tie_letter(ba, c)
            assert {x, y} == {"A", "B"}
            heads += x == "A"
    assert 0 < heads < 6 * len(CRITERIA)


def test_an_equal_answer_is_refused():
    """E16 asks who wins, A or B: "equal" is no answer the paper allows, so it is repaired and
    then falls back to the stand-in's verdict, counted."""
    equal = JudgeOnly(lambda ctx: json.dumps({**{k: "equal" for k in JUDGE_KEYS.values()}, "overall": "equal"}))
    played = _group(equal)
    stand_in = _group(JudgeOnly(None), roles=())
    assert [o.record["judge"] for o in played] == [o.record["judge"] for o in stand_in]
    assert any(n > 2 for _, n in equal.asked)  # repair conversations


def test_the_models_verdict_is_taken_and_the_rest_of_the_run_is_unchanged():
    """A judge that always names Plan A gives A everything; the negotiations (and every other
    draw) are the stand-in run's; nothing is left to the coin."""
    always_a = JudgeOnly(lambda ctx: json.dumps({**{k: "A" for k in JUDGE_KEYS.values()}, "overall": "A"}))
    played = _group(always_a)
    stand_in = _group(JudgeOnly(None), roles=())
    for p, s in zip(played, stand_in):
        assert p.record["variants"] == s.record["variants"]
        v = p.record["judge"]
        assert all(v[c] == "A" for c in CRITERIA if c not in v["not_comparable"]) and v["overall"] == "A"
        assert set(v["not_comparable"]) == {"rationality", "alignment"}  # Base states no stake
        assert v["tie_break"] == [] and v["overall_tie_break"] is False
    assert any(s.record["judge"][c] == "B" for s in stand_in for c in CRITERIA)  # (the stand-in differs)


def test_settle_draws_the_coin_as_compare_does():
    rng = np.random.default_rng(3)
    for _ in range(200):
        a = {c: float(rng.integers(0, 3)) for c in CRITERIA}
        b = {c: float(rng.integers(0, 3)) for c in CRITERIA}
        for overall in ("all", "no-fluency", "outcome", "process"):
            seed = int(rng.integers(1 << 30))
            want = compare(a, b, np.random.default_rng(seed), "k1", "k2", overall=overall)
            assert settle(letters(a, b), np.random.default_rng(seed), "k1", "k2", overall=overall) == want
    stated = settle(dict.fromkeys(CRITERIA, "A"), np.random.default_rng(0), stated_overall="B")
    assert stated["overall"] == "B" and stated["overall_tie_break"] is False


def _events(groups=3):
    from simcore.systems.mind.match import play_group
    from mockllm.client import ModelClient
    from simcore.seeding import generator
    from simcore.systems.mind.study import STUDY, MindConfig
    from simcore.systems.mind.variants import variant_policy

    config = MindConfig(groups=groups)
    out = []
    for g in range(groups):
        group = STUDY.group(config, 0, g)
        plans = []
        for variant in ("mind", "base"):
            res = play_group(group, variant_policy(config, variant), [0] * len(group.items),
                                  ModelClient(MockBackend()), generator(5, g, variant), f"t/{variant}")
            plans.append(list(res.events))
        out.append(plans)
    return out


def test_the_context_holds_what_the_blind_judge_reads_and_nothing_hidden():
    for events_a, events_b in _events():
        ctx = judge_context(events_a, events_b, "mind", "base")
        assert list(ctx) == list(JUDGE.fields)
        for side, events in (("a", events_a), ("b", events_b)):
            rebuilt = events_of(ctx[f"conversation_{side}"])
            assert blind_evidence(rebuilt) == blind_evidence(events)
            assert conversation_key(rebuilt) == conversation_key(events)
        text = json.dumps(ctx)
        assert '"w"' not in text and "hidden" not in text and "guessed" not in text and "strategy" not in text
        # the hidden fields do not reach the prompt
        import attrs

        blanked = [attrs.evolve(e, hidden={}) for e in events_a]
        assert judge_context(blanked, events_b, "mind", "base") == ctx


def test_the_answer_is_parsed_and_checked():
    ctx = JUDGE.examples(None)[0]
    schema = JUDGE.answer_schema(ctx)
    assert set(schema["properties"]) == set(JUDGE_KEYS.values()) | {"overall"}
    assert all(p["enum"] == ["A", "B"] for p in schema["properties"].values())
    good = {**{k: "A" for k in JUDGE_KEYS.values()}, "overall": "Plan B"}
    got = JUDGE.interpret("Verdict: " + json.dumps(good), ctx)
    assert got == {**dict.fromkeys(CRITERIA, "A"), "overall": "B"}
    for bad in ("Plan A is better overall.", json.dumps({**good, "overall": "C"}),
                json.dumps({k: "A" for k in JUDGE_KEYS.values()}), json.dumps({**good, "fluency_naturalness": 1}),
                "[\"A\", \"B\"]", json.dumps({**good, "overall": "equal"})):
        with pytest.raises(ParseError):
            JUDGE.interpret(bad, ctx)


def test_nonsense_answers_are_repaired_then_fall_back_counted():
    """A judge that answers prose: every ask tried twice (a repair conversation with the
    parser's reason), then the stand-in's verdict, counted."""
    prose = JudgeOnly(lambda ctx: "Plan A is clearly the better negotiation.")
    played = _group(prose)
    stand_in = _group(JudgeOnly(None), roles=())
    assert [o.record["judge"] for o in played] == [o.record["judge"] for o in stand_in]
    assert {n for _, n in prose.asked} == {2, 4}  # the prompt, then the repair conversation
    for o in played:
        row = o.calls["mind.judge"]
        assert (row["asks"], row["calls"], row["fallbacks"], row["first_try"]) == (1, 2, 1, 0)
        assert o.fallbacks >= 1


def test_a_nonsense_judge_stops_the_run_at_the_fallback_share(capsys, tmp_path, monkeypatch):
    """Through the CLI: every judge answer refused; the default --max-fallback-share stops the
    run with exit 3 and one line naming the share (outputs written), never a traceback;
    with --max-fallback-share 1 it finishes."""
    import simcore.backends as backends

    real = backends.build_backend
    monkeypatch.setattr(backends, "build_backend",
                        lambda *a, **k: JudgeOnly(lambda ctx: '{"overall": "maybe"}') if a[0] == "mock-v1"
                        else real(*a, **k))
    code, _, err = simcore(capsys, *RUN, "--role", "mind.judge=model", "--max-fallback-share", "0.001",
                           "--out", str(tmp_path / "o"))
    assert code == 3 and "Traceback" not in err and "fallback" in err.lower()
    m = _metrics(tmp_path / "o")
    assert m["model_calls"]["by_task"]["mind.judge"]["fallbacks"] == 4
    code, stdout, err = simcore(capsys, *RUN, "--role", "mind.judge=model", "--max-fallback-share", "1",
                                "--out", str(tmp_path / "p"))
    assert code == 0, err
    # the heading says what judged: here the blind stand-in on every group, the model's answers refused
    assert _metrics(tmp_path / "p")["judge"]["judged_by"] == {"backend": "the run's backend mock-v1", "stand_in": 4}
    assert "the rule-based blind judge on 4 of 4 groups, where the answer was refused" in stdout


@pytest.mark.parametrize("role", ["model", "mock-exact-v1"])
def test_table_4_says_what_judged(capsys, tmp_path, role):
    """With the judge in a role, Table 4's heading names the backend that judged (and on how many
    groups the blind stand-in stood in), never "rule-based blind judge" alone; without the
    role, the heading and metrics are the rule-based judge's."""
    code, stdout, err = simcore(capsys, *RUN, "--role", f"mind.judge={role}", "--out", str(tmp_path / "r"))
    assert code == 0, err
    heading = next(line for line in stdout.splitlines() if line.startswith("Table 4 analogue"))
    who = "the run's backend mock-v1" if role == "model" else "mock-exact-v1"
    assert heading.startswith(f"Table 4 analogue: judged by {who} in the mind.judge role")
    assert "rule-based blind judge:" not in heading and "0 of 4 groups" in heading
    assert _metrics(tmp_path / "r")["judge"]["judged_by"] == {"backend": who, "stand_in": 0}
    assert simcore(capsys, "report", str(tmp_path / "r"))[0] == 0  # the report's caption says it too
    page = (tmp_path / "r" / "report.html").read_text()
    assert f"judged by {who} in the mind.judge role" in page.replace("&#x27;", "'")
    assert "the rule-based judge&#x27;s verdicts" not in page
    code, stdout, err = simcore(capsys, *RUN, "--out", str(tmp_path / "s"))
    heading = next(line for line in stdout.splitlines() if line.startswith("Table 4 analogue"))
    assert heading.startswith("Table 4 analogue: rule-based blind judge:")
    assert "judged_by" not in _metrics(tmp_path / "s")["judge"]


def test_the_adversarial_backend_never_crashes_the_judge(capsys, tmp_path):
    """adversarial-v1 answers the judge with schema-valid random verdicts (A, B or equal for
    each criterion: legal opinions, so taken) and garbles the words (counted fallbacks) and the
    readings: the run ends with exit 3 at the default thresholds, one line, then again for its
    wrong readings with --max-fallback-share 1, and finishes with both checks off."""
    args = [*RUN, "--backend", "adversarial-v1", "--backend-arg", "share=1", "--role", "mind.judge=model"]
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "o"))
    assert code == 3 and "Traceback" not in err
    code, _, err = simcore(capsys, *args, "--max-fallback-share", "1", "--out", str(tmp_path / "q"))
    assert code == 3 and "below --min-reading-accuracy" in err
    code, _, err = simcore(capsys, *args, "--max-fallback-share", "1", "--min-reading-accuracy", "0",
                           "--out", str(tmp_path / "p"))
    assert code == 0, err
    m = _metrics(tmp_path / "p")
    row = m["model_calls"]["by_task"]["mind.judge"]
    assert row["asks"] == 4 and row["first_try"] == 4
    assert m["model_calls"]["fallbacks"] > 0
    assert m["judge"]["n"] == 4


def test_simcore_roles_names_the_judge_role(capsys):
    code, out, _ = simcore(capsys, "roles", "mind")
    assert code == 0 and "--role mind.judge=model (task mind.judge" in out


@pytest.mark.parametrize("extra, why", [(["--judge", "v1"], "blind judge"),
                                        (["--variants", "mind"], "needs both")])
def test_a_judge_role_the_run_cannot_use_is_refused_before_any_work(capsys, tmp_path, extra, why):
    args = [a for a in RUN if a not in ("--variants", "mind,base")]
    code, _, err = simcore(capsys, *args, *extra, "--role", "mind.judge=model", "--out", str(tmp_path / "o"))
    assert code == 2 and why in one_line(err)
    assert not (tmp_path / "o").exists()


def test_robustness_over_the_judges_stand_ins_with_the_judge_on_a_backend_is_refused_first(capsys, tmp_path,
                                                                                           monkeypatch):
    """The judge family's other members (another overall rule, the informed v1 judge) cannot
    run with a backend in the judge's role: one line, exit 2, before any study is run."""
    import simcore.study as study

    ran = []
    real = study.run_study
    monkeypatch.setattr(study, "run_study", lambda *a, **k: ran.append(1) or real(*a, **k))
    code, _, err = simcore(capsys, *RUN, "--robustness", "--role", "mind.judge=mock-v1", "--out", str(tmp_path / "o"))
    assert code == 2 and "a backend plays the blind judge" in one_line(err)
    assert ran == []
