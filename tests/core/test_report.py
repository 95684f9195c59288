"""``simcore report``: the HTML of a small run of every system and of a small sweep has
every section, figure and step, loads nothing from outside, and bad input gets one
line and exit status 2."""

from __future__ import annotations

import json
import os
import re
import shutil
from html import escape as html_escape

import pytest

from simcore.cli import main

SYSTEM_ARGS = {
    "mind": ["--groups", "3"],
    "scorable": ["--trials", "2", "--keep-transcripts", "1", "--methods", "base-llm,llm-pe-p1,proposed-all"],
    "astra": ["--episodes", "1", "--partners", "base,greedy", "--setups", "integrative,distributive"],
    "dominance": ["--dialogues", "2"],
}


def cli(*args: str) -> int:
    try:
        main(list(args))
    except SystemExit as exc:
        return exc.code or 0
    return 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    for system, extra in SYSTEM_ARGS.items():
        assert cli("run", system, *extra, "--out", str(root / "all" / system), "--no-progress") == 0
    assert cli("run", "mind", "--groups", "2", "--variants", "base,mind", "--grid", "tone_noise=0,0.3",
               "--replicates", "2", "--out", str(root / "sweep"), "--no-progress") == 0
    return root


def report(path, *extra) -> str:
    out = os.path.join(str(path), "test-report.html")
    assert cli("report", str(path), "--out", out, *extra) == 0
    with open(out, encoding="utf-8") as fh:
        return fh.read()


def ids(html: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', html))


def assert_self_contained(html: str) -> None:
    assert "<script" not in html.lower()
    assert "@import" not in html and "url(" not in html
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls  # the SVG namespace is a name, never fetched
    for href in re.findall(r'href="([^"]*)"', html):
        assert href.startswith("#"), href
    assert not re.search(r'\bsrc="', html)
    for target in re.findall(r'href="#([^"]+)"', html):
        assert target in ids(html), f"link to a missing anchor #{target}"


EXPECTED = {
    "mind": {"mind-table1", "mind-dr-size", "mind-win-w", "mind-tom-mind", "mind-tom-appraisal-only", "mind-judge",
             "mind-steps"},
    "scorable": {"scorable-rates", "scorable-mse-turn", "scorable-party-mse", "scorable-steps"},
    "astra": {"astra-fig7", "astra-walk_away_rate", "astra-pareto_optimal_share", "astra-setup-astra",
              "astra-setup-no-astra", "astra-steps"},
    "dominance": {"dom-h-agent", "dom-h-user", "dom-counts", "dom-outcomes", "dominance-steps"},
}
SAMPLED = {  # one step-through per kind
    "mind": ["mind/s0/g0/base", "mind/s0/g0/mind", "mind/s0/g0/tone-only", "mind/s0/g0/appraisal-only"],
    "scorable": ["scorable/s0/base-llm/t0", "scorable/s0/llm-pe-p1/t0", "scorable/s0/proposed-all/t0"],
    "dominance": [f"dominance/s0/d0/{a}__{u}" for a in ("dominant", "peer", "submissive")
                  for u in ("dominant", "peer", "submissive")][:8],
}


@pytest.mark.parametrize("system", list(SYSTEM_ARGS))
def test_system_report_has_every_section_figure_and_step(runs, system):
    html = report(runs / "all" / system)
    assert_self_contained(html)
    assert EXPECTED[system] <= ids(html), EXPECTED[system] - ids(html)
    assert html.count("<svg") >= len([i for i in EXPECTED[system] if not i.endswith("steps")])
    assert "Not shown" not in html  # every figure had its data
    from simcore.report.steps import anchor

    for rid in SAMPLED.get(system, []):
        assert f'id="{anchor(rid)}"' in html and f'href="#{anchor(rid)}"' in html


def _events(path, run_id):
    from simcore.transcript import read_jsonl

    return [e for e in read_jsonl(os.path.join(str(path), "transcripts.jsonl")) if e.run == run_id]


def test_mind_step_through_explains_every_turn_with_its_rule(runs):
    path = runs / "all" / "mind"
    html = report(path, "--negotiation", "g1/mind")
    events = _events(path, "mind/s0/g1/mind")
    body = html.split("<tbody>", 1)[1]
    assert body.count("<tr") == len(events)  # one row per transcript event
    votes = [e for e in events if e.phase == "2-vote"]
    assert body.count("voter row") == len(votes)  # every vote names the row of the rule table that fired
    assert "rule not in the report" not in body and "records no reason" not in body
    assert "Table B7" in body and "Alg. 1 line 3" in body and "proposer&#x27;s true w" in body
    for e in votes:
        assert html_escape(e.text) in body


def test_tone_only_votes_cite_the_band_stance_rows(runs):
    path = runs / "all" / "mind"
    events = [e for g in range(3) for e in _events(path, f"mind/s0/g{g}/tone-only")]
    html = "".join(report(path, "--negotiation", f"g{g}/tone-only") for g in range(3))
    pushes = sum(e.phase == "2-vote" and (e.hidden["strategy"] in ("push", "compromise")
                                          or (e.hidden["strategy"], e.hidden.get("reason")) == ("yield", "compromise"))
                 for e in events)  # band stances, the Warm band's accommodation (row 5') included
    assert pushes and html.count("voter, no appraisal:") == pushes
    assert "voter row 4" not in html and "voter row 5" not in html


def test_astra_step_through_shows_lp_candidates_and_tactic(runs):
    path = runs / "all" / "astra"
    html = report(path, "--negotiation", "astra/base/integrative/alpha=0.35,beta=0.65/e0")
    assert_self_contained(html)
    assert 'class="cand"' in html and 'class="chosen"' in html
    assert "Table 5" in html and "stage 1: fairness, stance" in html and "lambda" in html


def test_scorable_step_through_shows_hypotheses_and_mse(runs):
    html = report(runs / "all" / "scorable", "--negotiation", "proposed-all/t0")
    assert "top hypotheses" in html and "MSE so far" in html and "eq. 5" in html


def test_dominance_step_through_names_tree_and_branch(runs):
    path = runs / "all" / "dominance"
    html = report(path, "--negotiation", "d1/peer__peer")
    events = _events(path, "dominance/s0/d1/peer__peer")
    for e in events:
        if e.phase != "end":
            assert f'<span class="rule">{e.hidden["rule"]}</span>' in html
    assert "response tree Fig." in html


def test_every_system_in_one_page(runs):
    html = report(runs / "all")
    assert_self_contained(html)
    for system in SYSTEM_ARGS:
        assert f'id="sys-{system}"' in html
        assert EXPECTED[system] <= ids(html)


def test_sweep_report_plots_each_headline_metric_with_intervals(runs):
    html = report(runs / "sweep")
    assert_self_contained(html)
    for leaf in ("DR", "DHR", "F", "S_total", "J", "high_w_hit", "acc2"):
        assert f'id="sweep-mind-{leaf}"' in html
    # intervals drawn: two replicates per point give a Student-t interval at each point
    assert html.count('stroke-width="1.2" opacity="0.7"') >= 2 * 2


def test_report_is_deterministic(runs):
    assert report(runs / "all" / "mind") == report(runs / "all" / "mind")


def test_mind_metrics_hold_intervals_and_confusion(runs):
    with open(runs / "all" / "mind" / "metrics.json", encoding="utf-8") as fh:
        m = json.load(fh)
    for variant, r in m["results"].items():
        assert r["ci95"]["F"] and r["ci95"]["DR"] and r["ci95"]["S_total"]  # defined in every resample
        for key in ("F", "DHR", "DR", "high_w_hit", "S_total", "J"):
            if r["ci95"][key] is None:  # undefined in too many resamples of 3 groups
                continue
            lo, hi = r["ci95"][key]
            assert lo <= hi
            if key not in ("S_total", "J"):
                assert 0.0 <= lo and hi <= 1.0
    for variant, t in m["tom"].items():
        assert sum(map(sum, t["confusion"]["counts"])) == t["n"]


# ------------------------------------------------------------------ bad input
def one_line_exit_2(capsys, *args) -> str:
    assert cli(*args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("simcore: error:"), err
    return err


def test_directory_without_a_run(tmp_path, capsys):
    err = one_line_exit_2(capsys, "report", str(tmp_path))
    assert "holds no simcore run" in err
    assert "no such directory" in one_line_exit_2(capsys, "report", str(tmp_path / "nope"))


def test_unknown_negotiation_id(runs, capsys):
    err = one_line_exit_2(capsys, "report", str(runs / "all" / "mind"), "--negotiation", "g999/mind",
                          "--out", str(runs / "x.html"))
    assert "no negotiation 'g999/mind'" in err and "mind/s0/g0/base" in err
    err = one_line_exit_2(capsys, "report", str(runs / "all" / "mind"), "--negotiation", "mind",
                          "--out", str(runs / "x.html"))
    assert "matches" in err


def test_transcript_from_another_version(runs, tmp_path, capsys):
    copy = tmp_path / "old"
    shutil.copytree(runs / "all" / "mind", copy)
    lines = (copy / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    old = []
    for line in lines:  # an older layout: the votes carry no strategy
        ev = json.loads(line)
        if ev["phase"] == "2-vote":
            ev["hidden"].pop("strategy")
        old.append(json.dumps(ev))
    (copy / "transcripts.jsonl").write_text("\n".join(old) + "\n", encoding="utf-8")
    err = one_line_exit_2(capsys, "report", str(copy))
    assert "hidden.strategy" in err and "another simcore version" in err
    (copy / "transcripts.jsonl").write_text('{"run":"mind/s0/g0/base","seq":0,"speaker":"a","phase":"x",'
                                            '"turn":3}\n', encoding="utf-8")
    assert "unknown field" in one_line_exit_2(capsys, "report", str(copy))
    metrics = json.loads((copy / "metrics.json").read_text(encoding="utf-8"))
    metrics["system"] = "chess"
    (copy / "metrics.json").write_text(json.dumps(metrics), encoding="utf-8")
    assert "'chess' is not a system" in one_line_exit_2(capsys, "report", str(copy))


def test_sweep_with_failed_runs(runs, tmp_path, capsys):
    copy = tmp_path / "failed"
    shutil.copytree(runs / "sweep", copy)
    summary = json.loads((copy / "sweep.json").read_text(encoding="utf-8"))
    summary["ok"], summary["failed"] = summary["ok"] - 1, 1
    (copy / "sweep.json").write_text(json.dumps(summary), encoding="utf-8")
    err = one_line_exit_2(capsys, "report", str(copy))
    assert "1 failed" in err and "sweep_failures.csv" in err


def test_out_in_a_missing_directory(runs, capsys):
    err = one_line_exit_2(capsys, "report", str(runs / "all" / "mind"), "--out", str(runs / "no" / "r.html"))
    assert "does not exist" in err


def test_wilson_interval():
    from simcore.report.scorable import wilson

    lo, hi = wilson(0.0, 20)  # not the empty interval of rate +- 1.96 SE
    assert lo == 0.0 and 0.16 < hi < 0.17
    lo, hi = wilson(0.5, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3


def test_svg_leaves_missing_values_out():
    from simcore.report import svg

    out = svg.bar_chart("t", ["a", "b"], {"s": [0.5, None]}, percent=True)
    assert out.count("<rect") == 2 and "n/a" in out  # background + one bar
    assert svg.nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]


def test_selected_events_equal_the_transcript_reader(runs):
    """The report reads the same events as ``read_jsonl`` (the reader of ``simcore show``)."""
    from simcore.report.load import select_runs
    from simcore.transcript import read_jsonl, runs as group

    path = str(runs / "all" / "astra" / "transcripts.jsonl")
    every = group(read_jsonl(path))
    wanted = set(list(every)[1::3])
    assert select_runs(path, lambda rid: rid in wanted) == {k: v for k, v in every.items() if k in wanted}


def test_run_without_transcripts_says_what_is_missing(tmp_path):
    out = tmp_path / "mind"
    assert cli("run", "mind", "--groups", "2", "--no-transcripts", "--out", str(out), "--no-progress") == 0
    html = report(out)
    assert "Not shown: step-throughs: transcripts.jsonl holds no negotiation" in html
    assert "mind-table1" in ids(html)


def test_astra_report_keeps_simcores_setup_out_of_the_headline(tmp_path):
    """The Table 1 analogue pools only the paper's setups and says so;
    the by-setup table gives each setup on its own with simcore's ``mixed`` marked as its
    addition; the Figure 4 analogue (tactics by stance) is shown.  (A headline "pooled over the setups", no mark or no tactics table
    fails it.)"""
    out = tmp_path / "astra"
    assert cli("run", "astra", "--episodes", "1", "--partners", "base", "--setups", "integrative,distributive,mixed",
               "--out", str(out), "--no-progress") == 0
    html = report(out)
    assert "Table 1 analogue, pooled over the paper&#x27;s setups integrative, distributive; mixed (simcore&#x27;s " \
           "addition) left out" in html
    assert "pooled over the setups" not in html
    by = html.split("By setup: each setup on its own", 1)[1].split("</table>", 1)[0]
    assert by.count("mixed (simcore)") == 2 and by.count(">integrative<") == 2 and by.count(">distributive<") == 2
    m = json.loads((out / "metrics.json").read_text())
    t1 = html.split("Table 1 analogue", 1)[1].split("</table>", 1)[0]
    assert f"<td>{m['results']['astra__base']['agent_score_all']:.2f}</td>" in t1
    assert "Figure 4 analogue: tactics chosen by the partner&#x27;s stance" in html
    # a run written before the headline setups were recorded: said, not guessed
    del m["headline_setups"]
    (out / "metrics.json").write_text(json.dumps(m))
    assert "pooled over every setup of the run (a run made before" in report(out)


# ---------------------------------------------------------------- today's metrics shown right

def test_a_heatmap_column_label_wider_than_its_column_wraps_instead_of_overlapping():
    from simcore.report import svg

    rows = ["submissive vs submissive", "peer vs peer"]
    cols = ["proposals", "asks", "states", "accepts", "rejects", "concessions", "leads", "subject changes"]
    out = svg.heatmap("t", rows, cols, [[1.0] * 8, [2.0] * 8])
    assert ">subject</text>" in out and ">changes</text>" in out and ">subject changes</text>" not in out
    assert ">proposals</text>" in out  # a label that fits stays on one line


def test_the_forced_choice_judge_shows_each_criterions_coin_share_and_evidence():
    from simcore.report.mind import fig_judge

    judge = {"a": "mind", "b": "base", "n": 30,
             "rationality": {"win": 0.4, "loss": 0.6, "tie_break": 0.25},
             "overall": {"win": 0.8, "loss": 0.2, "tie_break": 0.1},
             "evidence": {"mind": {"rationality": 0.859}, "base": {"rationality": 0.837}}}
    html = fig_judge({"judge": judge})
    assert "decided by coin" in html and "25.0%" in html and "10.0%" in html
    assert "0.859" in html and "0.837" in html


def test_the_run_readings_are_named_in_the_scorable_and_dominance_sections():
    from types import SimpleNamespace

    from simcore.report import dominance, scorable

    cfg = {"acceptance_rule": "share", "threshold_test": "above", "echo_history": "last"}
    html = "".join(s[2] for s in scorable.sections(SimpleNamespace(metrics={"config": cfg, "results": {}})))
    assert "threshold test above" in html and "echo history last" in html
    cfg = {"domain": "d", "version": "v1", "exit_on_repeat": False, "exit_criterion": None}
    html = "".join(s[2] for s in dominance.sections(SimpleNamespace(metrics={"config": cfg, "results": {}})))
    assert "agent version v1" in html and "exit_on_repeat False" in html and "exit_criterion" not in html
