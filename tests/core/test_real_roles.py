"""Real model answers in a role, replayed: SmolLM2-135M-Instruct playing ASTRA's
stage-3 tactic choice (tests/cassettes/real/astra-tactic-json_object.jsonl) and ASTRA's
partner (astra-partner-json_object.jsonl) and MIND's Base agents (mind-base-json_object.jsonl);
the parse counts are asserted in
tests/language/test_real_cassettes.py.  What the model decided is pinned here: the
tactics it chose by majority of five samples, and the headline they led to, beside what the
stand-in chooses in the same states (docs/users/real-models.md, "A model in a role")."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clirun import simcore
from checkout import TESTS  # noqa: E402

HERE = Path(TESTS) / "cassettes" / "real"
#: the recordings' words and readings are SmolLM2's: both checks off (tests/language/test_real_cassettes.py measures them)
RUN = ["run", "astra", "--episodes", "1", "--setups", "integrative,distributive", "--partners", "base",
       "--agents", "astra", "--rounds", "6", "--max-fallback-share", "1", "--min-reading-accuracy", "0", "--no-progress"]


def _tactics(out: Path) -> list:
    return [e["hidden"]["trace"]["tactic"] for e in map(json.loads, (out / "transcripts.jsonl").read_text().splitlines())
            if e["speaker"] == "agent" and (e.get("hidden") or {}).get("trace")]


def test_the_models_tactic_choices_replay(capsys, tmp_path):
    code, _, err = simcore(capsys, *RUN, "--replay", str(HERE / "astra-tactic-json_object.jsonl"),
                           "--role", "astra.tactic=model", "--out", str(tmp_path / "m"))
    assert code == 0, err
    # the model's majorities: collaborative every time (MGF, then LGR, against the partner's
    # neutral opening, LIC after its concession), where the stand-in chooses AEO, AEO, RC
    assert _tactics(tmp_path / "m") == ["MGF", "LGR", "LIC"]
    m = json.loads((tmp_path / "m" / "metrics.json").read_text())
    pair = m["results"]["astra__base"]
    assert (pair["agent_score_all"], pair["partner_score_all"]) == (22.5, 16.5)


def test_the_stand_in_in_the_same_run_chooses_otherwise(capsys, tmp_path):
    """The same command, the same model for the words, the stand-in for the tactic
    (astra-tactic-standin-json_object.jsonl): competitive answers to the partner's opening (AEO)
    and RC after its concession, where the model chose collaborative tactics; the headline is
    the model's, 22.5 vs 16.5 (27-15 and 18-18), reached by other offers."""
    code, _, err = simcore(capsys, *RUN, "--replay", str(HERE / "astra-tactic-standin-json_object.jsonl"),
                           "--out", str(tmp_path / "s"))
    assert code == 0, err
    assert _tactics(tmp_path / "s") == ["AEO", "RC", "AEO", "RC"]
    pair = json.loads((tmp_path / "s" / "metrics.json").read_text())["results"]["astra__base"]
    assert (pair["agent_score_all"], pair["partner_score_all"]) == (22.5, 16.5)


def test_the_model_as_the_partner_never_concedes(capsys, tmp_path):
    """SmolLM2 in the astra.partner role offers itself the same 27-point split six times out of
    six (the stand-in opens at 20 and concedes a point per offer), and ASTRA takes a deal worth
    7 and 9 to it at the deadline (astra-partner-json_object.jsonl)."""
    code, _, err = simcore(capsys, *RUN, "--replay", str(HERE / "astra-partner-json_object.jsonl"),
                           "--role", "astra.partner=model", "--out", str(tmp_path / "p"))
    assert code == 0, err
    events = [json.loads(line) for line in (tmp_path / "p" / "transcripts.jsonl").read_text().splitlines()]
    partner = [e["hidden"]["true_scores"][1] for e in events
               if e["speaker"] == "partner" and "true_scores" in (e.get("hidden") or {})]
    assert partner == [27.0] * 6
    pair = json.loads((tmp_path / "p" / "metrics.json").read_text())["results"]["astra__base"]
    assert (pair["agent_score_all"], pair["partner_score_all"], pair["agreement_rate"]) == (8.0, 27.0, 1.0)


def test_the_model_as_mind_base_agrees_where_the_stand_in_holds(capsys, tmp_path):
    """SmolLM2 in the mind.base role (mind-base-json_object.jsonl): its two votes taken first
    try are AGREEs to a proposal the stand-in (base-v3, importance 6-7 > 3) would refuse; its
    AGREE / KEEP answers that also name a value are refused (B3: "If AGREE, set this to null"),
    one update is repaired; every item still reaches consensus or the round limit."""
    code, _, err = simcore(capsys, "run", "mind", "--groups", "1", "--sizes", "2", "--variants", "base",
                           "--seeds", "1", "--role", "mind.base=model", "--max-fallback-share", "1",
                           "--no-progress", "--replay", str(HERE / "mind-base-json_object.jsonl"),
                           "--out", str(tmp_path / "b"))
    assert code == 0, err
    events = [json.loads(line) for line in (tmp_path / "b" / "transcripts.jsonl").read_text().splitlines()]
    votes = [(e["item"], e["intent"]["vote"]) for e in events if e["phase"] == "2-vote"]
    assert votes[0] == ("acc_review", "AGREE")
    updates = [e["intent"] for e in events if e["phase"] == "3-update"]
    assert {"action": "UPDATE", "value": "1 meal/day"} in updates


def test_mind_base_headline_with_the_model_and_with_the_stand_in(capsys, tmp_path):
    args = ["run", "mind", "--groups", "1", "--sizes", "2", "--variants", "base", "--seeds", "1",
            "--max-fallback-share", "1", "--no-progress"]
    got = {}
    for name, extra in (("model", ["--role", "mind.base=model"]), ("standin", [])):
        code, _, err = simcore(capsys, *args, *extra, "--replay", str(HERE / f"mind-base{'-standin' if extra == [] else ''}"
                                                                            f"-json_object.jsonl"),
                               "--out", str(tmp_path / name))
        assert code == 0, err
        r = json.loads((tmp_path / name / "metrics.json").read_text())["results"]["base"]
        got[name] = (round(r["F"], 4), r["S_total"], round(r["DHR"], 4), r["DR"])
    assert got == {"model": (0.3333, 7.0, 0.3333, 1.0), "standin": (0.5, 19.0, 1.0, 1.0)}
