"""simcore run astra-population on a few opponents: its tables and records, byte-identical outputs
whatever the worker count, and its one-line errors; skipped without the NegMAS extra."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("negmas")

from simcore.bridges.negmas.population_study import STUDY, PopulationConfig, group_of, pooled  # noqa: E402
from simcore.study import run_study  # noqa: E402
from tests.clirun import simcore as run_cli  # noqa: E402

PATH = "simcore.bridges.negmas.population_study:STUDY"
SMALL = dict(setups=("integrative", "distributive"), episodes=2, references=("boulware",), packages=(),
             extra=("negmas.sao:AspirationNegotiator", "negmas.sao:ToughNegotiator"))


def test_the_jobs_are_each_agent_against_the_references_then_the_population():
    config = PopulationConfig(**SMALL)
    assert [j.key for j in STUDY.jobs(config)] == [
        (a, o) for a in ("astra", "no-astra")
        for o in ("boulware", "negmas.sao:AspirationNegotiator", "negmas.sao:ToughNegotiator")]
    assert group_of("boulware") == "simcore" and group_of("negmas_negolog:AgentGG") == "negmas-negolog"


def test_outputs_are_byte_identical_for_one_and_two_workers(tmp_path):
    config = PopulationConfig(**SMALL)
    one = run_study(PATH, config, workers=1, out_dir=str(tmp_path / "w1"))
    run_study(PATH, config, workers=2, out_dir=str(tmp_path / "w2"))
    for name in ("metrics.json", "population_summary.csv", "population_agents.csv"):
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w2" / name).read_bytes(), name
    m = one.metrics
    assert m["versions"]["negmas"].startswith("0.16")
    pair = m["pairs"]["astra__negmas.sao:AspirationNegotiator"]
    assert pair["episodes"] == 4 and pair["errors"] == 0
    assert set(m["groups"]) == {"astra__simcore", "astra__other", "astra__population", "no-astra__simcore",
                                "no-astra__other", "no-astra__population"}


def test_pooled_figures_by_hand():
    recs = [{"setup": "s", "status": "agreement", "agent_score": 20.0, "partner_score": 20.0, "rounds": 5,
             "walked_by": "", "cause": "", "pareto": True, "joint_share": 40 / 42, "priority_match": True},
            {"setup": "s", "status": "walk_away", "agent_score": 0.0, "partner_score": 0.0, "rounds": 4,
             "walked_by": "partner", "cause": "exception", "pareto": None, "joint_share": 0.0,
             "priority_match": None},
            {"setup": "s", "status": "error", "error": "x"}]
    m = pooled(recs)
    assert (m["episodes"], m["errors"], m["agreement_rate"], m["agent_points"]) == (3, 1, 0.5, 10.0)
    assert m["pareto_share_agreed"] == 1.0 and m["walk_aways"] == {"partner: exception": 1}
    assert m["joint_share"] == round(20 / 42, 4)


def test_the_command_runs_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    rc, out, err = run_cli(capsys, "run", "astra-population", "--packages", "", "--opponent",
                           "negmas.sao:AspirationNegotiator", "--references", "fair", "--setups", "integrative",
                           "--episodes", "1", "--agents", "astra", "--no-progress", "--out", str(tmp_path / "r"))
    assert rc == 0, err
    metrics = json.loads((tmp_path / "r" / "metrics.json").read_text())
    assert list(metrics["pairs"]) == ["astra__fair", "astra__negmas.sao:AspirationNegotiator"]
    rc, out, err = run_cli(capsys, "run", "astra-population", "--setups", "nowhere", "--out", str(tmp_path / "x"))
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--setups" in err
    rc, out, err = run_cli(capsys, "run", "astra-population", "--packages", "no_such_pkg", "--out",
                           str(tmp_path / "y"))
    assert rc == 2 and "--packages" in err
