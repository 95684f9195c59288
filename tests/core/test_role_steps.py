"""A decision a role on a backend made, shown step by step: the event
records the prompt, every raw answer, the parse, the repairs with the parser's reasons,
any fallback and the stand-in's decision (``hidden.model_decisions``,
mockllm/exchanges.py); ``simcore report`` shows them in the step-through and
``simcore show`` in one line each.  Replayed from the real SmolLM2 cassettes of
tests/cassettes/real/ (test_real_roles.py runs the same commands)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mockllm.client import ModelClient
from mockllm.exchanges import summary
from mockllm.mock import MockBackend
from mockllm.scripted import ScriptedBackend
from policies import astra_modules as M
from simcore.seeding import generator
from simcore.systems.astra.model_roles import TACTIC, TacticRole
from simcore.transcript import MODEL_DECISIONS
from tests.clirun import simcore
from tests.modelnotes import without_notes
from checkout import TESTS  # noqa: E402

REAL = Path(TESTS) / "cassettes" / "real"
#: (the SmolLM2 recordings' words and readings: both checks off)
ASTRA = ["run", "astra", "--episodes", "1", "--setups", "integrative,distributive", "--partners", "base",
         "--agents", "astra", "--rounds", "6", "--max-fallback-share", "1", "--min-reading-accuracy", "0",
         "--no-progress"]
MIND = ["run", "mind", "--groups", "1", "--sizes", "2", "--variants", "base", "--seeds", "1",
        "--role", "mind.base=model", "--max-fallback-share", "1", "--no-progress"]
TACTIC_EPISODE = "astra/s0/astra/base/integrative/alpha=0.35,beta=0.65/e0"


def _events(out: Path) -> list:
    return [json.loads(line) for line in (out / "transcripts.jsonl").read_text().splitlines()]


def _notes(out: Path) -> list:
    return [(e["seq"], n) for e in _events(out) for n in e["hidden"].get(MODEL_DECISIONS, ())]


def _context():
    c = M.TacticContext(offers_exchanged=3, agent_offers=1, partner_offer_sa=14.0, partner_offer_sp=20.0,
                        stance="neutral", stance_delta=0.0, fairness="unfair", agent_conceded=False,
                        last_own_concession=0.0, agent_max=36.0, prev_own=30.0, partner_offers=2)
    return c, M.applicable(c)


# ------------------------------------------------------------------ the client's record
def test_the_client_keeps_no_record_unless_asked():
    client = ModelClient(ScriptedBackend(['{"tactic": "LGR"}']))
    c, legal = _context()
    from simcore.systems.astra.model_roles import tactic_context

    assert client.ask(TACTIC, generator(0, "x"), fallback=lambda: None, **tactic_context(c, legal)) == "LGR"
    assert client.exchanges is None


def test_a_role_client_records_only_when_its_role_asks():
    from simcore.role_backends import role_client

    roles = (("astra.tactic", "mock-v1"),)
    assert role_client(roles, "astra.tactic", None, record=True).exchanges == []
    assert role_client(roles, "astra.tactic", None).exchanges is None
    assert role_client(roles, "astra.partner", None, record=True) is None  # (not on a backend)


def test_the_record_holds_the_prompt_each_answer_its_reason_and_the_fallback():
    from simcore.systems.astra.model_roles import tactic_context

    c, legal = _context()
    context = tactic_context(c, legal)
    backend = ScriptedBackend(["no json here", '{"tactic": "NOPE"}', '{"tactic": "LGR"}', "junk", "junk"])
    plain, kept = ModelClient(backend, tries=3), ModelClient(ScriptedBackend(backend.replies), tries=3, exchanges=[])
    for client in (plain, kept):
        assert client.ask(TACTIC, generator(0, "x"), fallback=lambda: "stand-in", **context) == "LGR"
        assert client.ask(TACTIC, generator(0, "y"), fallback=lambda: "stand-in", **context) == "stand-in"
    assert plain.stats == kept.stats  # the record changes no count
    first, second = kept.exchanges
    assert first["task"] == "astra.tactic"
    assert first["prompt"] == [[m.role, m.content] for m in TACTIC.messages(**context)]
    assert [a["text"] for a in first["answers"]] == ["no json here", '{"tactic": "NOPE"}', '{"tactic": "LGR"}']
    reasons = [a["refused"] for a in first["answers"]]
    assert reasons[0] and "NOPE" in reasons[1] and reasons[2] is None
    assert (first["value"], first["fallback"]) == ("LGR", False)
    # the script runs out on the third try: a backend error, then the fallback
    assert [sorted(a) for a in second["answers"]] == [["refused", "text"], ["refused", "text"], ["error"]]
    assert (second["value"], second["fallback"]) == (None, True)


def test_the_in_process_mock_is_recorded_with_the_prompt_it_skipped():
    from simcore.systems.astra.model_roles import tactic_context

    c, legal = _context()
    context = tactic_context(c, legal)
    client = ModelClient(MockBackend(), exchanges=[])
    got = client.ask(TACTIC, generator(0, "x"), **context)
    (rec,) = client.exchanges
    assert rec["prompt"] == [[m.role, m.content] for m in TACTIC.messages(**context)]
    assert rec["answers"] == [{"text": TACTIC.mock_answer(context, None, {}), "refused": None}]
    assert rec["value"] == got


def test_a_vote_of_samples_is_one_note_with_its_votes_and_rule():
    c, legal = _context()
    votes = ['{"tactic": "LGR"}', '{"tactic": "MGF"}', '{"tactic": "LGR"}', '{"tactic": "MGF"}', "junk", "junk"]
    role = TacticRole(ModelClient(ScriptedBackend(votes), tries=2, exchanges=[]), generator(0, "x"))
    assert role.choose(c, M.TacticParams(), stand_in="NCR") == "MGF"
    (n,) = role.notes
    assert n["votes"] == ["LGR", "MGF", "LGR", "MGF", None]
    assert (n["decision"], n["stand_in"], n["fallback"]) == ("MGF", "NCR", False)
    assert n["rule"] == "a tie between LGR, MGF: the first in the stand-in's ranking"
    assert [a["fallback"] for a in n["asks"]] == [False] * 4 + [True]
    assert "prompt" not in n["asks"][0]  # the five samples share the note's prompt
    assert summary(n) == "astra.tactic: 5 samples voted LGR, MGF, LGR, MGF, - (1 fell back) -> MGF (the stand-in: NCR)"
    # without a record (a client that keeps none) the role keeps no note
    role = TacticRole(ModelClient(ScriptedBackend(votes), tries=2), generator(0, "x"))
    assert role.choose(c, M.TacticParams(), stand_in="NCR") == "MGF" and role.notes == []


# ------------------------------------------------------------------ real cassettes, replayed
def test_the_models_tactic_votes_are_in_the_transcript_the_report_and_show(capsys, tmp_path):
    out = tmp_path / "t"
    code, _, err = simcore(capsys, *ASTRA, "--replay", str(REAL / "astra-tactic-json_object.jsonl"),
                           "--role", "astra.tactic=model", "--out", str(out))
    assert code == 0, err
    notes = _notes(out)
    assert len(notes) == 3  # the three offers whose tactic was asked (test_real_roles: MGF, LGR, LIC)
    seq, first = notes[0]
    assert first["task"] == "astra.tactic" and first["prompt"][0][1].startswith("TASK: astra.tactic\n")
    assert [a["answers"][0]["text"] for a in first["asks"]] == ['{"tactic": "LGR"}', '{"tactic": "MGF"}',
                                                                '{"tactic": "MGF"}', '{\n  "tactic": "MGF"\n}',
                                                                '{\n  "tactic": "MGF"\n}']
    assert (first["votes"], first["decision"], first["stand_in"], first["fallback"]) == (
        ["LGR", "MGF", "MGF", "MGF", "MGF"], "MGF", "AEO", False)
    assert [n["decision"] for _, n in notes] == ["MGF", "LGR", "LIC"]

    code, _, err = simcore(capsys, "report", str(out), "--negotiation", TACTIC_EPISODE, "--out", str(tmp_path / "n.html"))
    assert code == 0, err
    page = (tmp_path / "n.html").read_text()
    assert page.count('<div class="model"') == 1  # this episode's one asked tactic
    assert "played by a model: astra.tactic</span> decided <b>MGF</b> &mdash; the stand-in's decision: AEO" in page
    assert "votes of the 5 samples: LGR, MGF, MGF, MGF, MGF" in page
    assert "<details><summary>prompt (2 messages, " in page and "TASK: astra.tactic\nYou decide the tactic" in page
    assert "{&quot;tactic&quot;: &quot;LGR&quot;}</code>" in page  # a raw answer, escaped
    assert "parsed: <b>LGR</b>" in page
    assert "<script" not in page

    code, shown, _ = simcore(capsys, "show", str(out / "transcripts.jsonl"), "--group", TACTIC_EPISODE)
    assert code == 0
    assert (f"  [model] #{seq} agent (round 4): astra.tactic: 5 samples voted LGR, MGF, MGF, MGF, MGF -> MGF "
            "(the stand-in: AEO)") in shown.splitlines()


def test_the_models_base_votes_show_repairs_and_fallbacks(capsys, tmp_path):
    out = tmp_path / "b"
    code, _, err = simcore(capsys, *MIND, "--replay", str(REAL / "mind-base-json_object.jsonl"), "--out", str(out))
    assert code == 0, err
    events = {e["seq"]: e for e in _events(out)}
    notes = _notes(out)
    assert [events[s]["phase"] for s, _ in notes] == ["2-vote", "2-vote", "3-update", "2-vote", "2-vote",
                                                      "3-update", "2-vote"]
    fell = [(s, n) for s, n in notes if n["fallback"]]
    assert len(fell) == 4
    s, n = fell[0]
    (ask,) = n["asks"]
    assert [a["refused"] for a in ask["answers"]] == ["AGREE takes no other value (value must be null)"] * 3
    # the fallback's decision is the stand-in's, and it is what the event did
    assert n["stand_in"] == n["decision"] == {"vote": "DISAGREE", "revised_value": events[s]["intent"]["revised_value"]}
    assert events[s]["intent"]["vote"] == "DISAGREE"
    repaired = [n for _, n in notes if not n["fallback"] and len(n["asks"][0]["answers"]) > 1]
    assert [n["asks"][0]["value"] for n in repaired] == [{"decision": "UPDATE", "value": "1 meal/day"}]

    code, _, err = simcore(capsys, "report", str(out), "--negotiation", "g0/base", "--out", str(tmp_path / "n.html"))
    assert code == 0, err
    page = (tmp_path / "n.html").read_text()
    assert page.count('<div class="model"') == 7
    assert ("no answer could be used: the stand-in decided (<b>vote: DISAGREE, revised_value: 3 meals/day</b>)"
            in page)
    assert "refused: AGREE takes no other value (value must be null)" in page
    assert ('repaired: the answer went back to the model with the user turn "Your answer above was not '
            'accepted because: KEEP takes no other value (value must be null).' in page)
    assert "parsed: <b>decision: UPDATE, value: 1 meal/day</b>" in page
    assert "no answer taken: counted as a fallback" in page

    code, shown, _ = simcore(capsys, "show", str(out / "transcripts.jsonl"))
    assert code == 0
    lines = [line for line in shown.splitlines() if "[model]" in line]
    assert len(lines) == 7
    assert lines[1].endswith("mind.base: 3 answer(s) refused (last: AGREE takes no other value (value must be "
                             "null)) -> the stand-in decided vote: DISAGREE, revised_value: 3 meals/day")
    assert "answered {decision: UPDATE, value: 1 meal/day} on try 3 (repaired) -> action: UPDATE" in lines[2]


def test_the_partners_moves_name_the_stand_ins_option(capsys, tmp_path):
    out = tmp_path / "p"
    code, _, err = simcore(capsys, *ASTRA, "--replay", str(REAL / "astra-partner-json_object.jsonl"),
                           "--role", "astra.partner=model", "--out", str(out))
    assert code == 0, err
    notes = [n for _, n in _notes(out)]
    assert len(notes) == 6 and all(n["task"] == "astra.partner" for n in notes)
    assert {json.dumps(n["decision"]) for n in notes} == {'{"move": "offer", "option": 9}'}
    assert all(n["stand_in"]["move"] == "offer" and n["stand_in"]["option"] != 9 for n in notes)
    code, _, err = simcore(capsys, "report", str(out), "--negotiation", "distributive/alpha=0.35,beta=0.65/e0",
                           "--out", str(tmp_path / "n.html"))
    assert code == 0, err
    page = (tmp_path / "n.html").read_text()
    assert page.count("played by a model: astra.partner</span> decided <b>move: offer, option: 9</b>") == 3
    assert page.count("the paper&#x27;s LLM partner, played by a model") == 3
    assert "{&quot;move&quot;: &quot;offer&quot;, &quot;option&quot;: 9}" in page


def test_a_replay_gives_the_same_notes_byte_for_byte(capsys, tmp_path):
    for name in ("a", "b"):
        code, _, err = simcore(capsys, *MIND, "--replay", str(REAL / "mind-base-json_object.jsonl"),
                               "--out", str(tmp_path / name))
        assert code == 0, err
    assert (tmp_path / "a" / "transcripts.jsonl").read_bytes() == (tmp_path / "b" / "transcripts.jsonl").read_bytes()


def test_a_recorded_role_with_repairs_and_fallbacks_replays_byte_identically(capsys, tmp_path):
    """A bad model (adversarial-v1: schema-valid answers that are wrong half the time) in
    mind.base, recorded, then replayed: the same notes, repairs and fallbacks included."""
    run = ["run", "mind", "--groups", "2", "--sizes", "3", "--variants", "base", "--seeds", "1",
           "--role", "mind.base=model", "--max-fallback-share", "1", "--no-progress"]
    cassette = tmp_path / "c.jsonl"
    code, _, err = simcore(capsys, *run, "--backend", "adversarial-v1", "--backend-arg", "share=0.6",
                           "--record", str(cassette), "--out", str(tmp_path / "a"))
    assert code == 0, err
    code, _, err = simcore(capsys, *run, "--replay", str(cassette), "--out", str(tmp_path / "b"))
    assert code == 0, err
    a = (tmp_path / "a" / "transcripts.jsonl").read_bytes()
    assert a == (tmp_path / "b" / "transcripts.jsonl").read_bytes()
    notes = [n for _, n in _notes(tmp_path / "a")]
    assert any(n["fallback"] for n in notes)
    assert any(not n["fallback"] and len(n["asks"][0]["answers"]) > 1 for n in notes)


# ------------------------------------------------------------------ a stand-in run is as it was
def test_a_stand_in_runs_page_has_no_model_part_and_equals_the_roles_page_without_its_notes(capsys, tmp_path):
    run = ["run", "mind", "--groups", "3", "--sizes", "2,3", "--seeds", "1", "--no-progress"]
    assert simcore(capsys, *run, "--out", str(tmp_path / "a"))[0] == 0
    assert simcore(capsys, *run, "--role", "mind.base=model", "--out", str(tmp_path / "b"))[0] == 0
    assert "model_decisions" not in (tmp_path / "a" / "transcripts.jsonl").read_text()
    shutil.copytree(tmp_path / "b", tmp_path / "c")
    stripped, n = without_notes(tmp_path / "b" / "transcripts.jsonl")
    assert n > 0
    (tmp_path / "c" / "transcripts.jsonl").write_bytes(stripped)
    pages = {}
    for name in "abc":
        code, _, err = simcore(capsys, "report", str(tmp_path / name), "--out", str(tmp_path / f"{name}.html"))
        assert code == 0, err
        pages[name] = (tmp_path / f"{name}.html").read_text().replace(str(tmp_path / name), "RUN")
    assert 'class="model"' not in pages["a"] and 'class="model"' in pages["b"]
    assert pages["a"] == pages["c"]
    code, shown, _ = simcore(capsys, "show", str(tmp_path / "a" / "transcripts.jsonl"))
    assert code == 0 and "[model]" not in shown


@pytest.mark.parametrize("answer", ['{"tactic": "LGR"}\x1b[2J\x1b]0;pwned\x07', '{"tactic": "\x9bLGR"}'])
def test_control_characters_of_an_answer_are_shown_escaped(answer):
    from simcore.report.model import note_html

    n = {"task": "astra.tactic", "prompt": [["system", "TASK\x07"], ["user", "x"]],
         "asks": [{"answers": [{"text": answer, "refused": "bad\x1b[0m"}], "value": None, "fallback": True}],
         "fallback": True, "stand_in": "AEO\x1b", "decision": "AEO\x1b"}
    html = note_html(n)
    assert not any(ch in html for ch in "\x1b\x07\x9b")
    assert "\\x1b" in html or "\\x9b" in html
