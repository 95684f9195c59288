"""The mind.base role played by a backend: --role mind.base=BACKEND asks each
vote and proposer update of MIND's Base (MAD) agents of a model (Tables B3/B4), legal
moves only, the stand-in (base-v3) as the counted fallback; with the mock in the role the
run is the stand-in's run."""

from __future__ import annotations

import json

import pytest

from simcore.errors import ParseError
from simcore.systems.mind.model_roles import BASE
from tests.taskbackend import OneTask
from tests.clirun import simcore
from tests.modelnotes import without_notes

RUN = ["run", "mind", "--groups", "4", "--sizes", "2,3,4", "--seeds", "1", "--no-progress"]


def test_with_the_mock_in_the_role_the_run_is_the_stand_ins_run(capsys, tmp_path):
    assert simcore(capsys, *RUN, "--out", str(tmp_path / "a"))[0] == 0
    assert simcore(capsys, *RUN, "--role", "mind.base=model", "--out", str(tmp_path / "b"))[0] == 0
    # the same decisions and words; the role's events also carry the exchange behind each decision
    got, notes = without_notes(tmp_path / "b" / "transcripts.jsonl")
    assert notes > 0 and got == (tmp_path / "a" / "transcripts.jsonl").read_bytes()
    assert "model_decisions" not in (tmp_path / "a" / "transcripts.jsonl").read_text()
    for name in ("table1_performance.csv", "table2_dr_by_size.csv", "table4_judge.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    a, b = (json.loads((tmp_path / d / "metrics.json").read_text()) for d in "ab")
    rows = b["model_calls"]["by_task"]
    base = rows.pop("mind.base")
    assert base["asks"] > 0 and base["first_try"] == base["asks"]
    assert rows == a["model_calls"]["by_task"]



def BaseOnly(reply):
    """The mock for everything but the Base task, whose answers ``reply(context)`` gives."""
    return OneTask("mind.base", reply)


def _run(backend, roles=(("mind.base", "model"),)):
    from mockllm.client import CallStats, ModelClient
    from simcore.systems.mind.match import play_group
    from simcore.seeding import generator
    from simcore.systems.mind.study import STUDY, MindConfig
    from simcore.systems.mind.variants import base_role, variant_policy

    config = MindConfig(groups=1, sizes=(3,), variants=("base",), roles=roles)
    group = STUDY.group(config, 0, 0)
    policy, role = base_role(config, variant_policy(config, "base"), backend, 0, 0, "base")
    out = play_group(group, policy, [0] * len(group.items), ModelClient(backend), generator(1, "t"), "t")
    return out, (role.stats if role is not None else CallStats())


def test_a_model_that_always_disagrees_with_its_own_value_is_obeyed():
    """Voters always DISAGREE naming their own value when it differs from the proposal:
    every item whose voters hold another value goes to the round limit."""
    def disagree(ctx):
        if ctx["phase"] == "vote":
            other = ctx["your_private_value"] if ctx["your_private_value"] != ctx["current_proposal"] else \
                next(v for v in ctx["allowed_values"] if v != ctx["current_proposal"])
            return json.dumps({"decision": "DISAGREE", "value": other})
        return json.dumps({"decision": "KEEP", "value": None})

    out, stats = _run(BaseOnly(disagree))
    votes = [e for e in out.events if e.phase == "2-vote"]
    assert votes and all(e.intent["vote"] == "DISAGREE" for e in votes)
    assert all(not it.consensus for it in out.items)
    assert stats.by_task["mind.base"]["fallbacks"] == 0
    stand_in, _ = _run(BaseOnly(disagree), roles=())
    assert any(e.intent["vote"] == "AGREE" for e in stand_in.events if e.phase == "2-vote")


def test_an_illegal_answer_is_repaired_then_falls_back_counted():
    """DISAGREE naming the proposal itself is illegal (B3: a specific *alternative* value):
    repaired with the reason, then the stand-in's vote."""
    backend = BaseOnly(lambda ctx: json.dumps({"decision": "DISAGREE" if ctx["phase"] == "vote" else "UPDATE",
                                               "value": ctx["current_proposal"]}))
    out, stats = _run(backend)
    stand_in, _ = _run(BaseOnly(None), roles=())
    row = stats.by_task["mind.base"]
    assert row["asks"] == row["fallbacks"] > 0 and row["calls"] == 2 * row["asks"]
    assert any(n > 2 for _, n in backend.asked)  # repair conversations
    assert [e.intent for e in out.events] == [e.intent for e in stand_in.events]


def test_the_answer_is_checked_against_the_phase_and_the_allowed_values():
    vote, _, update, _ = BASE.examples(None)
    assert BASE.answer_schema(vote)["properties"]["decision"]["enum"] == ["AGREE", "DISAGREE"]
    assert "Luxury" not in BASE.answer_schema(vote)["properties"]["value"]["enum"]
    for bad, ctx in (('{"decision": "KEEP", "value": null}', vote), ('{"decision": "AGREE", "value": "Budget"}', vote),
                     ('{"decision": "DISAGREE", "value": "Cheap"}', vote),
                     ('{"decision": "UPDATE", "value": "Luxury"}', update), ('{"decision": 1}', vote)):
        with pytest.raises(ParseError):
            BASE.interpret(bad, ctx)
    assert BASE.interpret('{"decision": "disagree", "value": "Budget"}', vote) == {"decision": "DISAGREE",
                                                                                   "value": "Budget"}


def test_simcore_roles_names_the_base_role(capsys):
    code, out, _ = simcore(capsys, "roles", "mind")
    assert "--role mind.base=model (task mind.base" in out


@pytest.mark.parametrize("argv", [["run", "mind", "--groups", "1", "--role", "astra.tactic=model"],
                                  ["run", "scorable", "--role", "scorable.llm_pe=model"],
                                  ["run", "dominance", "--role", "mind.base=model"]])
def test_a_role_no_backend_can_play_in_the_system_is_refused_before_any_work(capsys, tmp_path, argv):
    from tests.clirun import one_line

    code, _, err = simcore(capsys, *argv, "--out", str(tmp_path / "o"))
    assert code == 2 and "not a role a backend can play in" in one_line(err)
    assert not (tmp_path / "o").exists()
