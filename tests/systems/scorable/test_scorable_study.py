"""The scorable study end to end: determinism, worker independence, the command,
metrics.json's shape, ``simcore show``, golden playthroughs and conformance."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from scenarios.scorable import load_shipped
from simcore.cli import cli
from simcore.seeding import derive
from simcore.study import run_study
from simcore.systems import scorable as study_mod
from simcore.systems.scorable import METHOD_IDS, PLAYTHROUGHS, STUDY, ScorableConfig
from simcore.systems.scorable.match import start
from checkout import TESTS  # noqa: E402

PLAY_DIR = os.path.join(TESTS, "playthroughs")


def test_same_seed_same_transcript():
    game = load_shipped("harbour-sport-park")
    a = start(game, "proposed-p1", derive(4, "scorable", 2)).run()
    b = start(game, "proposed-p1", derive(4, "scorable", 2)).run()
    c = start(game, "proposed-p1", derive(5, "scorable", 2)).run()
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert [e.to_json() for e in a.events] != [e.to_json() for e in c.events]
    for e in a.events:
        assert e.run.startswith("scorable/")


def test_shared_turn_draws_change_nothing():
    # the study shares each turn's cues among the methods of a trial; every method must
    # play exactly as it does alone, whatever the order the methods are played in
    from simcore.protocols.scorable import Settings
    from simcore.systems.scorable.model import TurnDraws

    game = load_shipped("harbour-sport-park")
    seq = derive(2, "scorable", 7)
    alone = {m: start(game, m, seq).run() for m in METHOD_IDS}
    draws = TurnDraws(game, seq, Settings().cues_per_turn)
    for m in reversed(METHOD_IDS):
        shared = start(game, m, seq, draws=draws).run()
        assert [e.to_json() for e in shared.events] == [e.to_json() for e in alone[m].events], m
        assert shared.record == alone[m].record
    with pytest.raises(ValueError, match="another trial"):
        start(game, "base-llm", derive(2, "scorable", 8), draws=draws).run()


def test_results_do_not_depend_on_worker_count(tmp_path):
    cfg = ScorableConfig(seed=3, trials=4, methods=("base-llm", "proposed-all"), keep_transcripts=1)
    path = "simcore.systems.scorable:STUDY"
    one = run_study(path, cfg, workers=1, out_dir=str(tmp_path / "w1"))
    two = run_study(path, cfg, workers=2, out_dir=str(tmp_path / "w2"))
    assert one.metrics == two.metrics
    for name in ("metrics.json", "transcripts.jsonl", "scorable_outcomes.csv", "scorable_mse.csv"):
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w2" / name).read_bytes()


def test_command_writes_the_documented_metrics(tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["run", "scorable", "--trials", "3", "--methods", "base-om-p1,llm-pe-all",
                                   "--seed", "7", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Table 1 analogue" in res.output and "Table 2 analogue" in res.output
    m = json.loads((out / "metrics.json").read_text())
    assert (m["system"], m["game"], m["seed"]) == ("scorable", "harbour-sport-park", 7)
    assert set(m["results"]) == {"base-om-p1", "llm-pe-all"}
    for block in m["results"].values():
        assert {"FAR", "PAR", "LAR", "MSE"} <= set(block)
        assert set(block["MSE"]) == {"DoT", "Env", "Uni", "Cit", "May", "avg"}
        assert 0 <= block["FAR"] <= block["PAR"] <= block["LAR"] <= 1
    assert m["claim_intervals"] == {}  # neither MSE claim's pair of methods was run
    shown = CliRunner().invoke(cli, ["show", str(out / "transcripts.jsonl"), "--limit", "1"]).output
    assert "RESULT" in shown and "MSE now" in shown and "top hypothesis about" in shown


def test_far_implies_par_and_par_implies_lar():
    cfg = ScorableConfig(trials=3, keep_transcripts=0)
    for job in STUDY.jobs(cfg):
        out = STUDY.run_job(cfg, job)
        for rec in out.record.values():
            assert (not rec["FAR"] or rec["PAR"]) and (not rec["PAR"] or rec["LAR"])


@pytest.mark.parametrize("args, words", [
    (["--methods", "proposed,base-llm"], "valid: base-llm"),
    (["--trials", "0"], "0"),
    (["--floor", "1.5"], "1.5"),
])
def test_bad_options_are_explained(args, words):
    res = CliRunner().invoke(cli, ["run", "scorable", *args])
    assert res.exit_code == 2 and words in res.output


def test_bad_game_file_is_one_line_exit_2(tmp_path, capsys):
    from simcore.cli import main

    bad = tmp_path / "g.json"
    bad.write_text('{"issues": [], "parties": [], "initial_deal": []}', encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["run", "scorable", "--game", str(bad), "--trials", "1", "--out", str(tmp_path / "o")])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "g.json: issues: must be a non-empty list" in err


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthroughs_match_golden_files(name):
    with open(os.path.join(PLAY_DIR, f"scorable-{name}.txt"), encoding="utf-8") as fh:
        assert PLAYTHROUGHS[name]() == fh.read()


def test_every_scorable_policy_passes_conformance():
    from simcore.registry import registered
    from simcore.testing import check_policy

    ids = registered("policy", system="scorable")
    assert len(ids) == len(METHOD_IDS)
    for pid in ids:
        assert check_policy(pid, seeds=(0,)) > 0


def test_registry_entries():
    from simcore.registry import make

    game = make("scenario", "harbour-sport-park")
    assert game.counts()["passing"] == 21
    assert make("policy", "scorable-proposed-all").who == "all"
    assert "describe" in study_mod.REGISTRY[0]["meta"]


def test_a_sweep_logged_under_the_studies_module_path_resumes(tmp_path, capsys):
    """A sweep log naming the study ``simcore.studies.scorable:STUDY`` is the scorable study's:
    ``--resume`` continues it (and ``simcore report`` reads it)."""
    from simcore.cli import main
    from simcore.sweep import LOG_NAME

    out = tmp_path / "sweep"
    args = ["run", "scorable", "--trials", "1", "--methods", "base-llm", "--grid", "sigma=1,2", "--replicates", "1", "--no-progress",
            "--out", str(out)]
    main(args)
    log = out / LOG_NAME
    header, *records = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(header)
    assert head["study"] == "simcore.systems.scorable:STUDY"
    head["study"] = "simcore.studies.scorable:STUDY"
    log.write_text("\n".join([json.dumps(head), records[0]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    main(args + ["--resume"])
    said = capsys.readouterr()
    assert "1 of 2 run(s) already recorded" in said.out + said.err
    assert len(log.read_text(encoding="utf-8").splitlines()) == 3
