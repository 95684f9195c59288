"""The astra.partner role played by a backend: --role astra.partner=BACKEND asks
the GPT-4o Partner-Base's moves (accept, or which option to offer) of a model; only legal
moves are taken, the rule-based stand-in is the counted fallback, and with the mock in
the role the run is the stand-in's run."""

from __future__ import annotations

import json

import pytest

from mockllm.client import CallStats
from mockllm.mock import MockBackend
from scenarios.bilateral import load_domain as _domain
from simcore.errors import ParseError
from simcore.seeding import derive
from simcore.systems.astra.match import play_episode
from simcore.systems.astra.model_roles import PARTNER
from tests.clirun import simcore
from tests.modelnotes import without_notes


class PartnerOnly:
    """The exact mock for everything but the partner task, whose answers ``reply`` gives."""

    def __init__(self, reply):
        self.mock, self.reply, self.contexts = MockBackend(exact=True), reply, []

    def chat(self, messages, *, temperature=0.0, seed=None, schema=None):
        if messages[0].content.startswith("TASK: astra.partner\n"):
            ctx = json.loads(messages[1].content.split("\n")[1])
            self.contexts.append(ctx)
            return self.reply(ctx)
        return self.mock.chat(messages, temperature=temperature, seed=seed)


def _episode(backend, roles=(("astra.partner", "model"),), agent="astra"):
    stats = CallStats()
    ep, rec = play_episode(_domain("casino-v1"), agent, "base", "integrative", derive(5, "p"), run_id="p",
                           backend=backend, round_limit=8, stats=stats, roles=roles)
    return ep, rec, stats


@pytest.mark.parametrize("domain", ["casino-v1", "research-allocation-v1"])
def test_with_the_mock_in_the_role_the_run_is_the_stand_ins_run(capsys, tmp_path, domain):
    run = ["run", "astra", "--domain", domain, "--episodes", "2", "--partners", "base,greedy",
           "--agents", "astra,no-astra", "--rounds", "8", "--no-progress"]
    assert simcore(capsys, *run, "--out", str(tmp_path / "a"))[0] == 0
    assert simcore(capsys, *run, "--role", "astra.partner=model", "--out", str(tmp_path / "b"))[0] == 0
    # the same decisions and words; the role's events also carry the exchange behind each decision
    got, notes = without_notes(tmp_path / "b" / "transcripts.jsonl")
    assert notes > 0 and got == (tmp_path / "a" / "transcripts.jsonl").read_bytes()
    assert "model_decisions" not in (tmp_path / "a" / "transcripts.jsonl").read_text()
    for name in ("astra_table1.csv", "astra_by_setup.csv", "astra_tactics.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    a, b = (json.loads((tmp_path / d / "metrics.json").read_text()) for d in "ab")
    rows = b["model_calls"]["by_task"]
    partner = rows.pop("astra.partner")
    assert partner["asks"] > 0 and partner["first_try"] == partner["asks"]
    assert rows == a["model_calls"]["by_task"]


def test_the_models_offer_is_the_partners_offer():
    """A model that always offers option 0 (its best split): every partner offer is worth its maximum."""
    backend = PartnerOnly(lambda ctx: json.dumps({"move": "offer", "option": 0}))
    ep, _, stats = _episode(backend)
    mine = [e.hidden["true_scores"][1] for e in ep.events if e.speaker == "partner" and "true_scores" in e.hidden]
    assert mine and set(mine) == {max(o["your_points"] for o in backend.contexts[0]["options"])}
    stand_in, _, _ = _episode(PartnerOnly(None), roles=())
    theirs = [e.hidden["true_scores"][1] for e in stand_in.events
              if e.speaker == "partner" and "true_scores" in e.hidden]
    assert theirs != mine
    assert stats.by_task["astra.partner"]["fallbacks"] == 0


def test_a_model_that_accepts_ends_the_negotiation_at_the_first_offer():
    """(astra-agent-v3 makes the first offer; v4 invites the partner's.)"""
    backend = PartnerOnly(lambda ctx: json.dumps({"move": "accept", "option": None}))
    ep, _, stats = _episode(backend, agent="astra-v3")
    assert ep.status == "agreement"
    assert [e for e in ep.events if e.speaker == "partner"][-1].intent["mode"] == "accept"
    assert stats.by_task["astra.partner"] == {**stats.by_task["astra.partner"], "asks": 1, "first_try": 1}


def test_an_illegal_accept_is_repaired_then_the_rules_offer_is_made_counted():
    """'accept' with no offer on the table: refused with the reason, asked again, then the
    stand-in's own offer (a counted fallback)."""
    from types import SimpleNamespace

    from mockllm.client import ModelClient
    from simcore.systems.astra.model_roles import PartnerRole
    from mockllm.scripted import ScriptedBackend
    from policies.partners import make_partner
    from simcore.seeding import generator

    d = _domain("casino-v1")
    partner = make_partner("base-transcripts", d, d.setup("integrative").partners[0], None, None)
    script = ScriptedBackend(['{"move": "accept", "option": null}'] * 2)
    role = PartnerRole(ModelClient(script, tries=2), generator(0, "p"))
    rule = partner.pick(partner.target)
    got = role.choose(partner, SimpleNamespace(rounds_left=5, deadline_warned=False), None, rule)
    assert got == rule
    row = role.client.stats.by_task["astra.partner"]
    assert (row["asks"], row["calls"], row["fallbacks"]) == (1, 2, 1)
    assert "no offer on the table" in script.prompts[1][-1].content


def test_the_answer_is_checked_against_the_prompts_options():
    ex = PARTNER.examples(None)
    first, later = ex[0], ex[1]
    assert PARTNER.answer_schema(first)["properties"]["move"]["enum"] == ["offer"]
    assert PARTNER.answer_schema(later)["properties"]["move"]["enum"] == ["accept", "offer"]
    n = len(later["options"])
    for bad in ('{"move": "offer", "option": %d}' % n, '{"move": "offer"}', '{"move": "walk"}',
                '{"move": "offer", "option": true}', "no"):
        with pytest.raises(ParseError):
            PARTNER.interpret(bad, later)
    with pytest.raises(ParseError):
        PARTNER.interpret('{"move": "accept", "option": null}', first)
    assert PARTNER.interpret('{"move": "offer", "option": 3}', later) == {"move": "offer", "option": 3}
    # options are listed best first, with the points the partner gets
    points = [o["your_points"] for o in later["options"]]
    assert points == sorted(points, reverse=True)


def test_simcore_roles_names_the_partner_role(capsys):
    code, out, _ = simcore(capsys, "roles", "astra")
    assert "--role astra.partner=model (task astra.partner" in out
