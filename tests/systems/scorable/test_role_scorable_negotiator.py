"""The scorable.negotiator role played by a backend: --role scorable.negotiator=BACKEND
asks every proposal of the parties that do not estimate of a model (one option id per issue,
each among its issue's options), the stand-in (scorable-v1's negotiator) as the counted
fallback; with the mock in the role the run is the stand-in's run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simcore.errors import ParseError
from simcore.systems.scorable.model_roles import NEGOTIATOR, stand_in_proposal
from tests.taskbackend import OneTask
from tests.clirun import simcore
from tests.modelnotes import without_notes

RUN = ["run", "scorable", "--trials", "2", "--methods", "base-llm,proposed-p1", "--no-progress"]


def test_with_the_mock_in_the_role_the_run_is_the_stand_ins_run(capsys, tmp_path):
    assert simcore(capsys, *RUN, "--out", str(tmp_path / "a"))[0] == 0
    assert simcore(capsys, *RUN, "--role", "scorable.negotiator=model", "--out", str(tmp_path / "b"))[0] == 0
    assert (tmp_path / "a" / "scorable_outcomes.csv").read_bytes() == (tmp_path / "b" / "scorable_outcomes.csv").read_bytes()
    plain, notes = without_notes(tmp_path / "b" / "transcripts.jsonl")
    assert plain == (tmp_path / "a" / "transcripts.jsonl").read_bytes() and notes == 2 * (25 + 20)
    a, b = (json.loads((tmp_path / d / "metrics.json").read_text()) for d in "ab")
    rows = b["model_calls"]["by_task"]
    role = rows.pop("scorable.negotiator")
    # base-llm: 25 proposals by the parties (p1's opening is the game's); proposed-p1: the 20 of the others
    assert role["asks"] == 2 * (25 + 20) and role["first_try"] == role["asks"]
    assert rows == a["model_calls"]["by_task"]



def RoleOnly(reply):
    """The mock for everything but the negotiator task, whose answers ``reply(context)`` gives."""
    return OneTask("scorable.negotiator", reply)


def _play(backend, method="base-llm", roles=(("scorable.negotiator", "model"),)):
    from scenarios.scorable import load_game
    from simcore.seeding import derive
    from simcore.systems.scorable import ScorableConfig
    from simcore.systems.scorable.match import start

    game = load_game("harbour-sport-park")
    config = ScorableConfig(trials=1, methods=(method,), roles=roles)
    res = start(game, method, derive(0, "scorable", 0), settings=config.settings(), backend=backend,
                roles=config.roles).run()
    return res, (res.role_stats[0] if res.role_stats else None)


def test_a_model_that_always_proposes_one_deal_is_obeyed_and_the_stand_ins_choice_is_kept_beside_it():
    fixed = {"A": "A2", "B": "B2", "C": "C2", "D": "D2", "E": "E3"}  # one of the 3 unanimous deals
    res, stats = _play(RoleOnly(lambda ctx: json.dumps(fixed)))
    turns = [e for e in res.events if e.phase in ("turn", "final")]
    assert all(e.intent["deal"] == list(fixed.values()) for e in turns)
    assert res.record["FAR"] and res.record["PAR"] and stats.by_task["scorable.negotiator"]["fallbacks"] == 0
    moved = [e for e in turns if "stand_in_deal" in e.hidden]
    assert moved and all(e.hidden["stand_in_deal"] != e.intent["deal"] for e in moved)
    plain, _ = _play(RoleOnly(None), roles=())
    assert not plain.record["PAR"]  # the stand-in reaches no deal here (docs/systems/scorable.md)


def test_only_the_parties_that_do_not_estimate_ask_the_model():
    backend = RoleOnly(lambda ctx: json.dumps(stand_in_proposal(ctx)))
    _play(backend, method="proposed-p1")
    asked = {ctx["you"] for ctx, _ in backend.asked}
    assert asked == {"DoT", "Env", "Uni", "Cit", "May"}  # every party but p1 (SportCo)
    backend = RoleOnly(lambda ctx: json.dumps(stand_in_proposal(ctx)))
    _play(backend, method="proposed-all")
    assert backend.asked == []


def test_an_unreadable_answer_is_repaired_then_falls_back_to_the_stand_in_counted():
    backend = RoleOnly(lambda ctx: json.dumps({"A": "A9", "B": "B1"}))
    res, stats = _play(backend)
    plain, _ = _play(RoleOnly(None), roles=())
    row = stats.by_task["scorable.negotiator"]
    assert row["asks"] == row["fallbacks"] == 25 and row["calls"] > row["asks"]
    assert any(n > 2 for _, n in backend.asked)  # repair conversations
    assert [e.intent for e in res.events] == [e.intent for e in plain.events]


def test_the_answer_is_one_legal_option_per_issue():
    ctx = NEGOTIATOR.examples(np.random.default_rng(0))[0]
    schema = NEGOTIATOR.answer_schema(ctx)
    assert schema["properties"]["D"]["enum"] == ["D1", "D2", "D3", "D4"] and set(schema["required"]) == set("ABCDE")
    good = {"A": "A1", "B": "B2", "C": "C3", "D": "D4", "E": "E5"}
    assert NEGOTIATOR.interpret(json.dumps(good), ctx) == good
    assert NEGOTIATOR.interpret(json.dumps({"deal": good}), ctx) == good
    for bad in ({**good, "A": "B1"}, {k: v for k, v in good.items() if k != "E"}, {**good, "F": "F1"},
                {**good, "C": 3}, ["A1", "B2"]):
        with pytest.raises(ParseError):
            NEGOTIATOR.interpret(json.dumps(bad), ctx)


def test_the_mock_recomputes_the_stand_ins_proposal_from_the_prompt_alone():
    """Every proposal of a whole session: the stand-in's deal equals what the mock reads from the
    context the model would get (the deal space, tie-breaks and echo rebuilt from it)."""
    from simcore.systems.scorable.model_roles import negotiator_context
    from scenarios.scorable import load_game
    from simcore.protocols.scorable import session_order
    from simcore.seeding import derive
    from simcore.systems.scorable.match import start

    game = load_game("harbour-sport-park")
    for trial in range(3):
        seq = derive(0, "scorable", trial)
        order = session_order(game, seq)
        res = start(game, "base-llm", seq).run()
        history = [tuple(int(x[1:]) - 1 for x in e.intent["deal"]) for e in res.events if e.phase != "result"]
        for t in range(1, len(history)):
            ctx = negotiator_context(game, order[t], t, game.turns + 1, history[:t], order[:t])
            assert tuple(stand_in_proposal(ctx).values()) == game.deal_ids(history[t]), (trial, t)


def test_simcore_roles_names_the_negotiator_role(capsys):
    code, out, _ = simcore(capsys, "roles", "scorable")
    assert code == 0 and "--role scorable.negotiator=model (task scorable.negotiator" in out


def test_a_kept_trial_records_each_proposal_the_model_made_for_the_step_through():
    """The decision's exchange (prompt, answers, the parse, the stand-in's proposal) is in the
    turn's event when the trial's transcript is kept."""
    fixed = {"A": "A2", "B": "B2", "C": "C2", "D": "D2", "E": "E3"}
    res, _ = _play(RoleOnly(lambda ctx: "no deal here" if ctx["turn"] == 1 else json.dumps(fixed)))
    turns = [e for e in res.events if e.phase in ("turn", "final")]
    first = turns[0].hidden["model_decisions"][0]
    assert first["task"] == "scorable.negotiator" and first["fallback"] and first["decision"] == first["stand_in"]
    assert first["prompt"][0][1].startswith("TASK: scorable.negotiator") and len(first["asks"][0]["answers"]) > 1
    later = turns[1].hidden["model_decisions"][0]
    assert later["decision"] == list(fixed.values()) and not later["fallback"]
    assert later["asks"][0]["value"] == fixed


def test_the_report_and_show_display_the_models_proposals(capsys, tmp_path):
    """A run with an answer the stand-in would not give: the step-through shows the prompt,
    the raw answer, the parse and the stand-in's proposal; show prints a [model] line."""
    out = tmp_path / "r"
    assert simcore(capsys, *RUN, "--role", "scorable.negotiator=adversarial-v1", "--out", str(out))[0] == 0
    code, shown, _ = simcore(capsys, "show", str(out / "transcripts.jsonl"), "--limit", "1")
    assert code == 0 and "[model] #2 " in shown and ": scorable.negotiator: answered " in shown
    assert simcore(capsys, "report", str(out))[0] == 0
    page = next(out.glob("*.html")).read_text(encoding="utf-8")
    assert "TASK: scorable.negotiator" in page and "the stand-in would have proposed" in page


def test_simcore_roles_says_which_roles_the_runs_backend_already_plays(capsys):
    for system, role, task in (("scorable", "scorable.llm_pe", "scorable-estimate"),
                               ("mind", "mind.reader", "travel.read-v1")):
        code, out, _ = simcore(capsys, "roles", system)
        block = out[out.index(role + "  ["):]
        assert code == 0 and f"played by the run's backend: its decision is the {task} model call" in block
