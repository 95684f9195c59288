"""The ASTRA study end to end: determinism, worker independence, the command, the
metrics shape, ``simcore show``, playthroughs and conformance."""

import json
import os

from click.testing import CliRunner

from simcore.cli import cli, main
from simcore.systems.astra import PLAYTHROUGHS, AstraConfig, play_episode
from simcore.seeding import derive
from simcore.study import run_study
from simcore.testing import check_policy
from scenarios.bilateral import load_domain
from checkout import TESTS  # noqa: E402

PLAY_DIR = os.path.join(TESTS, "playthroughs")
KEYS = {"agent_score_all", "partner_score_all", "agent_score_agreed", "partner_score_agreed",
        "agreement_rate", "walk_away_rate", "pareto_optimal_share"}


def test_same_seed_same_episode():
    d = load_domain("casino-v1")
    a, ra = play_episode(d, "astra", "base", "mixed", derive(3, "astra", "t"), run_id="astra/t")
    b, rb = play_episode(d, "astra", "base", "mixed", derive(3, "astra", "t"), run_id="astra/t")
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events] and ra == rb
    assert all(e.run.startswith("astra/") for e in a.events)


def test_results_do_not_depend_on_worker_count(tmp_path):
    cfg = AstraConfig(seed=5, episodes=3, partners=("base", "greedy"), setups=("integrative", "mixed"))
    one = run_study("simcore.systems.astra:STUDY", cfg, workers=1, out_dir=str(tmp_path / "w1"))
    two = run_study("simcore.systems.astra:STUDY", cfg, workers=2, out_dir=str(tmp_path / "w2"))
    assert one.metrics == two.metrics
    for name in ("metrics.json", "transcripts.jsonl", "astra_table1.csv"):
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w2" / name).read_bytes()


def test_command_writes_the_documented_metrics(tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["run", "astra", "--episodes", "2", "--partners", "base,fair",
                                   "--setups", "integrative", "--seed", "4", "--weights-sweep", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Table 1 analogue" in res.output and "Table 4 analogue" in res.output
    m = json.loads((out / "metrics.json").read_text())
    assert (m["system"], m["seed"]) == ("astra", 4)
    assert set(m["results"]) == {"astra__base", "astra__fair", "no-astra__base", "no-astra__fair"}
    for block in m["results"].values():
        assert KEYS <= set(block)
        assert 0 <= block["agreement_rate"] <= 1 and 0 <= block["walk_away_rate"] <= 1
    assert len(m["weights_sweep"]["results"]) == 6
    shown = CliRunner().invoke(cli, ["show", str(out / "transcripts.jsonl"), "--limit", "1"]).output
    assert "NegoAgent" in shown and "[ASTRA: Offer selection]" in shown


def test_research_domain_runs(tmp_path):
    res = CliRunner().invoke(cli, ["run", "astra", "--domain", "research-allocation-v1", "--episodes", "1",
                                   "--partners", "base", "--agents", "astra", "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output


def test_bad_options_list_what_is_valid(tmp_path, capsys):
    res = CliRunner().invoke(cli, ["run", "astra", "--setups", "cooperative"])
    assert res.exit_code == 2 and "valid: integrative, distributive, mixed" in res.output
    res = CliRunner().invoke(cli, ["run", "astra", "--partners", "nice"])
    assert res.exit_code == 2 and "valid: base, greedy, fair, boulware, conceder" in res.output
    bad = tmp_path / "d.json"
    bad.write_text('{"format": "simcore-bilateral-1", "id": "x", "issues": []}')
    try:
        main(["run", "astra", "--domain", str(bad)])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert "d.json: issues: expected a non-empty list" in err and "Traceback" not in err


def test_playthroughs_match_golden_files():
    for name, build in PLAYTHROUGHS.items():
        with open(os.path.join(PLAY_DIR, f"astra-{name}.txt"), encoding="utf-8") as fh:
            assert build() == fh.read(), name


def test_every_astra_policy_passes_conformance():
    from simcore.registry import registered

    ids = registered("policy", system="astra")
    assert len(ids) == 15  # four versions of the agent, two without ASTRA, four partners, five stand-ins for Partner-Base
    for pid in ids:
        assert check_policy(pid, seeds=(0,)) > 0


def test_plot_offers_against_the_frontier(tmp_path):
    import pytest

    pytest.importorskip("matplotlib")
    out = tmp_path / "p"
    res = CliRunner().invoke(cli, ["run", "astra", "--episodes", "2", "--partners", "base", "--agents", "astra",
                                   "--setups", "integrative", "--plot", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "astra_offers.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_agent_learns_priorities_only_from_words():
    """With every answer unclear, the first IPP is the opposite of the agent's own order,
    whatever the partner's true values (no channel but the text and the offers)."""
    from mockllm.mock import MockBackend

    d = load_domain("casino-v1")
    backend = MockBackend(exact=True, astra_unclear_answer=1.0)
    for setup in ("integrative", "distributive"):
        ep, _ = play_episode(d, "astra", "base", setup, derive(1, "astra", "words"), run_id="astra/w",
                             backend=backend)
        first = next(e.hidden["ipp"] for e in ep.events if e.speaker == "agent" and e.hidden.get("ipp"))
        assert first == ["firewood", "water", "food"]


def test_headline_pools_only_the_papers_setups(tmp_path):
    """The Table 1 analogue pools integrative and distributive; "mixed" is simcore's
    addition, shown (labelled) only in the per-setup table."""
    cfg = AstraConfig(seed=2, episodes=2, partners=("base",), agents=("astra", "astra-v1"))
    res = run_study("simcore.systems.astra:STUDY", cfg, workers=1, out_dir=str(tmp_path / "h"))
    m = res.metrics
    assert m["headline_setups"] == ["integrative", "distributive"]
    assert m["results"]["astra__base"]["episodes"] == 4 and "astra-v1__base" in m["results"]
    assert m["by_setup"]["astra__base__mixed"]["episodes"] == 2
    assert "mixed (simcore)" in (tmp_path / "h" / "astra_by_setup.csv").read_text()


def test_agent_params_are_checked_before_work(tmp_path):
    res = CliRunner().invoke(cli, ["run", "astra", "--agent-param", "reo_scope=sometimes"])
    assert res.exit_code == 2 and "reo_scope=sometimes" in res.output
    res = CliRunner().invoke(cli, ["run", "astra", "--agent-param", "nonsense=1"])
    assert res.exit_code == 2 and "smax_share" in res.output
    res = CliRunner().invoke(cli, ["run", "astra", "--partner-param", "floor_share=half"])
    assert res.exit_code == 2 and "floor_share=half" in res.output
    out = tmp_path / "p"
    res = CliRunner().invoke(cli, ["run", "astra", "--episodes", "1", "--partners", "base", "--agents", "astra",
                                   "--setups", "distributive", "--agent-param", "order=REO,AEO,RNC,CSC,NCR,RC,LIC,MGF,LGR",
                                   "--agent-param", "deadline_rounds_left=1,2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    cfg = json.loads((out / "metrics.json").read_text())["config"]
    assert dict(cfg["agent_params"])["deadline_rounds_left"] == [1, 2]
