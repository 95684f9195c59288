"""The astra.tactic role played by a backend: --role astra.tactic=BACKEND asks
ASTRA's stage-3 tactic choice of a model (2.3: best-fit tactic, majority of five samples),
legal answers only, stand-in as the counted fallback; with the mock in the role the run
is the stand-in's run."""

from __future__ import annotations

import json

import pytest

from mockllm.backend import Message
from mockllm.mock import MockBackend
from policies import astra_modules as M
from scenarios.bilateral import load_domain as _domain
from simcore.seeding import derive
from simcore.systems.astra.match import play_episode
from simcore.systems.astra.model_roles import TACTIC, majority, ranking
from tests.clirun import one_line, simcore
from tests.modelnotes import without_notes

RUN = ["run", "astra", "--episodes", "2", "--setups", "integrative,distributive", "--partners", "base,greedy",
       "--agents", "astra", "--rounds", "8", "--no-progress"]


class TacticOnly:
    """The exact mock for everything but the tactic task, whose answers ``reply`` gives."""

    def __init__(self, reply):
        self.mock, self.reply, self.tactic_prompts = MockBackend(exact=True), reply, []

    def chat(self, messages, *, temperature=0.0, seed=None, schema=None):
        if messages[0].content.startswith("TASK: astra.tactic\n"):
            self.tactic_prompts.append((tuple(messages), temperature, seed))
            return self.reply(messages)
        return self.mock.chat(messages, temperature=temperature, seed=seed)


def _episode(backend, roles=(("astra.tactic", "model"),), partner="greedy", setup="distributive"):
    from mockllm.client import CallStats

    stats = CallStats()
    ep, rec = play_episode(_domain("casino-v1"), "astra", partner, setup, derive(3, "t"), run_id="t",
                           backend=backend, round_limit=8, stats=stats, roles=roles)
    tactics = [e.hidden["trace"]["tactic"] for e in ep.events if e.speaker == "agent" and e.hidden.get("trace")]
    return ep, rec, stats, tactics


def test_with_the_mock_in_the_role_the_run_is_the_stand_ins_run(capsys, tmp_path):
    code, out_a, _ = simcore(capsys, *RUN, "--out", str(tmp_path / "a"))
    assert code == 0
    code, out_b, _ = simcore(capsys, *RUN, "--role", "astra.tactic=model", "--out", str(tmp_path / "b"))
    assert code == 0
    # the same decisions and words; the role's events also carry the exchange behind each decision
    got, notes = without_notes(tmp_path / "b" / "transcripts.jsonl")
    assert notes > 0 and got == (tmp_path / "a" / "transcripts.jsonl").read_bytes()
    assert "model_decisions" not in (tmp_path / "a" / "transcripts.jsonl").read_text()
    for name in ("astra_table1.csv", "astra_by_setup.csv", "astra_tactics.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    a, b = (json.loads((tmp_path / d / "metrics.json").read_text()) for d in "ab")
    assert b["config"].pop("roles") == [["astra.tactic", "model"]] and "roles" not in a["config"]
    rows = b["model_calls"]["by_task"]
    tactic = rows.pop("astra.tactic")
    assert tactic["asks"] > 0 and tactic["asks"] % 5 == 0 and tactic["first_try"] == tactic["asks"]
    assert rows == a["model_calls"]["by_task"]
    for key in ("results", "by_setup", "tactics", "fallbacks"):
        assert a[key] == b[key]


def test_the_model_decides_the_tactic_when_its_answer_is_legal():
    """A backend that always answers the first listed tactic: every multi-option turn gets it
    (the stand-in, tft, chooses otherwise somewhere), five seeded samples per decision."""
    def first_listed(messages):
        ctx = json.loads(messages[1].content.split("\n")[1])
        return json.dumps({"tactic": ctx["tactics"][0]["code"]})

    _, _, _, stand_in = _episode(TacticOnly(first_listed), roles=())
    backend = TacticOnly(first_listed)
    _, _, stats, got = _episode(backend)
    assert got != stand_in
    firsts = [json.loads(p[0][1].content.split("\n")[1])["tactics"][0]["code"] for p in backend.tactic_prompts]
    assert set(got) <= set(firsts) | {"LGR"}
    row = stats.by_task["astra.tactic"]
    assert row["asks"] == len(backend.tactic_prompts) and row["fallbacks"] == 0 and row["asks"] % 5 == 0
    seeds = [p[2] for p in backend.tactic_prompts]
    assert len(set(seeds)) == len(seeds)  # seeded per call
    assert {p[1] for p in backend.tactic_prompts} == {1.0}  # Appendix B.1's temperature


def test_an_illegal_tactic_is_repaired_then_falls_back_to_the_stand_in_counted():
    """'RNC' is legal only against a partner whose last two offers raised its own score; asked
    otherwise it is refused with the reason, retried, and the stand-in decides."""
    _, rec0, _, stand_in = _episode(TacticOnly(lambda m: '{"tactic": "RNC"}'), roles=())
    backend = TacticOnly(lambda m: '{"tactic": "RNC"}')
    _, rec, stats, got = _episode(backend)
    row = stats.by_task["astra.tactic"]
    legal = [json.loads(p[0][1].content.split("\n")[1]) for p in backend.tactic_prompts]
    refused = sum(1 for ctx in legal if "RNC" not in [t["code"] for t in ctx["tactics"]])
    assert refused > 0 and row["fallbacks"] > 0
    assert row["calls"] > row["asks"]  # repairs were asked
    repairs = [p for p in backend.tactic_prompts if len(p[0]) > 2]
    assert repairs and "not one of the scenario's" in repairs[0][0][-1].content
    # where RNC was never legal, the stand-in's tactic stands
    assert all(g == s or g == "RNC" for g, s in zip(got, stand_in))
    assert rec["fallbacks"] >= row["fallbacks"]


def test_unreadable_answers_fall_back_and_the_schema_enumerates_the_legal_tactics():
    c = M.TacticContext(offers_exchanged=3, agent_offers=1, partner_offer_sa=14.0, partner_offer_sp=20.0,
                        stance="neutral", stance_delta=0.0, fairness="unfair", agent_conceded=False,
                        last_own_concession=0.0, agent_max=36.0, prev_own=30.0, partner_offers=2)
    from simcore.systems.astra.model_roles import tactic_context

    ctx = tactic_context(c, M.applicable(c))
    assert TACTIC.answer_schema(ctx)["properties"]["tactic"]["enum"] == list(M.applicable(c))
    from simcore.errors import ParseError

    for bad in ("no json", '{"tactic": 3}', '{"tactic": "XYZ"}', '["NCR"]'):
        with pytest.raises(ParseError):
            TACTIC.interpret(bad, ctx)
    assert TACTIC.interpret('{"tactic": "ncr"}', ctx) == "NCR"


def test_majority_and_its_documented_tie_break():
    assert majority(["NCR", "LGR", "NCR", None, "LGR"], lambda tied: "tie") == "tie"
    assert majority(["NCR", "LGR", "NCR", None, None], lambda tied: "tie") == "NCR"
    assert majority([None] * 5, lambda tied: "tie") is None
    assert majority(["LGR", "NCR", "NCR", "LGR", "AEO"], lambda tied: tied) == ["LGR", "NCR"]
    assert ranking(M.TacticParams())[:6] == ("CSC", "RC", "MGF", "REO", "NCR", "RNC")
    assert ranking(M.TacticParams(selection="precedence")) == M.ORDER_PAPER


def test_a_tie_goes_to_the_stand_in_then_to_its_ranking():
    from mockllm.client import ModelClient
    from simcore.systems.astra.model_roles import TacticRole
    from mockllm.scripted import ScriptedBackend
    from simcore.seeding import generator

    c = M.TacticContext(offers_exchanged=3, agent_offers=1, partner_offer_sa=14.0, partner_offer_sp=20.0,
                        stance="neutral", stance_delta=0.0, fairness="unfair", agent_conceded=False,
                        last_own_concession=0.0, agent_max=36.0, prev_own=30.0, partner_offers=2)
    legal = M.applicable(c)
    assert {"NCR", "MGF", "LGR"} <= set(legal)
    votes = ['{"tactic": "LGR"}', '{"tactic": "MGF"}', '{"tactic": "LGR"}', '{"tactic": "MGF"}', "junk", "junk"]
    role = TacticRole(ModelClient(ScriptedBackend(votes), tries=2), generator(0, "x"))
    assert role.choose(c, M.TacticParams(), stand_in="MGF") == "MGF"  # the stand-in among the tied
    role = TacticRole(ModelClient(ScriptedBackend(votes), tries=2), generator(0, "x"))
    assert role.choose(c, M.TacticParams(), stand_in="NCR") == "MGF"  # else its ranking: MGF before LGR
    role = TacticRole(ModelClient(ScriptedBackend(["junk"] * 10), tries=2), generator(0, "x"))
    assert role.choose(c, M.TacticParams(), stand_in="NCR") == "NCR"  # no vote: the stand-in
    assert role.client.stats.by_task["astra.tactic"]["fallbacks"] == 5


def test_a_recorded_role_replays_byte_identically(capsys, tmp_path):
    cassette = tmp_path / "c.jsonl"
    code, _, err = simcore(capsys, *RUN, "--backend", "mock-v1", "--role", "astra.tactic=model",
                           "--record", str(cassette), "--out", str(tmp_path / "a"))
    assert code == 0, err
    assert any('TASK: astra.tactic' in line for line in cassette.read_text().splitlines()[1:])
    code, _, err = simcore(capsys, *RUN, "--replay", str(cassette), "--role", "astra.tactic=model",
                           "--out", str(tmp_path / "b"))
    assert code == 0, err
    for name in ("transcripts.jsonl", "metrics.json", "astra_table1.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_the_role_on_another_mock_than_the_runs_backend(capsys, tmp_path):
    code, _, err = simcore(capsys, *RUN, "--role", "astra.tactic=mock-exact-v1", "--out", str(tmp_path / "a"))
    assert code == 0, err
    m = json.loads((tmp_path / "a" / "metrics.json").read_text())
    assert m["config"]["roles"] == [["astra.tactic", "mock-exact-v1"]]
    assert m["model_calls"]["by_task"]["astra.tactic"]["asks"] > 0


@pytest.mark.parametrize("arg, words", [
    ("astra.tactic", "expected ROLE=BACKEND"),
    ("astra.nope=model", "not a role a backend can play in astra"),
    ("mind.judge=model", "not a role a backend can play in astra"),
    ("astra.tactic=nope-v9", "unknown backend id 'nope-v9'"),
    ("astra.tactic=openai-compat-v1", "needs a server"),
])
def test_a_bad_role_is_one_line_and_exit_2(capsys, tmp_path, arg, words):
    code, _, err = simcore(capsys, *RUN, "--role", arg, "--out", str(tmp_path / "a"))
    assert code == 2
    assert words in one_line(err)
    assert not (tmp_path / "a").exists()


def test_a_role_given_twice_is_refused(capsys, tmp_path):
    code, _, err = simcore(capsys, *RUN, "--role", "astra.tactic=model", "--role", "astra.tactic=mock-v1",
                           "--out", str(tmp_path / "a"))
    assert code == 2 and "given twice" in one_line(err)


def test_simcore_roles_names_the_playable_role(capsys):
    code, out, _ = simcore(capsys, "roles", "astra")
    assert code == 0
    assert "played by a model: --role astra.tactic=model (task astra.tactic" in out


def test_the_prompt_is_recognised_by_the_mock_and_names_its_source():
    import simcore.systems.astra.model_roles as mod

    assert "2.3" in mod.__doc__ and "Table 5" in mod.__doc__
    ex = TACTIC.examples(None)[0]
    msgs = TACTIC.messages(**ex)
    assert msgs[0].content.startswith("TASK: astra.tactic\n")
    answer = MockBackend().chat([Message(m.role, m.content) for m in msgs], seed=1)
    assert TACTIC.interpret(answer, ex) == TACTIC.expected(ex)
