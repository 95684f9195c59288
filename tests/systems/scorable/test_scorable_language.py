"""The scorable language tasks: truthful cues survive speak -> read, parsers refuse bad
output, and listeners' estimates come from the public record only."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.scorable import ESTIMATE, EXTRACT, SPEAK, direct_estimate, read_signals, render_cue
from mockllm.scripted import ScriptedBackend
from policies import bayes
from policies.llm_pe import issues_context, pe_estimate
from policies.scorable import choose_cues
from scenarios.scorable import load_shipped
from simcore.errors import ParseError
from simcore.seeding import derive, generator
from simcore.systems.scorable.match import start
from tests.mockasks import asks

GAME = load_shipped("harbour-sport-park")


def _speak(backend, party, cues, seed=1):
    client = ModelClient(backend)
    return client.ask(SPEAK, generator(seed, "s"), speaker=GAME.parties[party].name,
                      issues=issues_context(GAME), deal=list(GAME.deal_ids(GAME.initial_deal)), cues=cues)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5), st.integers(0, 10_000), st.integers(1, 6))
def test_exact_mock_carries_every_cue_and_the_reader_recovers_them(party, seed, k):
    cues = choose_cues(GAME, party, generator(seed, "cues"), k)
    text = _speak(MockBackend(exact=True), party, cues, seed)
    assert read_signals(text) == cues
    reply = ModelClient(MockBackend(exact=True)).ask(
        EXTRACT, generator(seed, "r"), speaker=GAME.parties[party].name, issues=issues_context(GAME),
        deal=["A1"], utterance=text)
    assert reply == {GAME.parties[party].name: cues}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5), st.integers(0, 10_000))
def test_cues_are_truthful_to_the_speakers_table(party, seed):
    scores = GAME.parties[party].scores
    imp = [max(r) - min(r) for r in scores]
    names = [i.name for i in GAME.issues]
    for cue in choose_cues(GAME, party, generator(seed, "c"), 6):
        codes = [c.strip() for c in cue["target"].split(",")]
        if cue["entity"] == "issue":
            ms = [names.index(c) for c in codes]
            if cue["signal_type"] == "point":
                assert imp[ms[0]] == (max(imp) if cue["stance"] == "prefer" else min(imp))
            else:
                assert (imp[ms[0]] > imp[ms[1]]) == (cue["stance"] == "prefer")
        else:
            vals = [scores[names.index(c[0])][int(c[1:]) - 1] for c in codes]
            row = scores[names.index(codes[0][0])]
            if cue["signal_type"] == "point":
                assert vals[0] == (max(row) if cue["stance"] == "prefer" else min(row))
            else:
                assert (vals[0] > vals[1]) == (cue["stance"] == "prefer")


def test_every_template_reads_back():
    labels = {"A": "Infrastructure", "B": "Ecology", "A1": "Water-based", "A2": "Amphibious", "B3": "Max effort"}
    kinds = [("issue", "point", "A"), ("issue", "comparison", "A, B"), ("option", "point", "A2"),
             ("option", "comparison", "A1, B3")]
    for entity, stype, target in kinds:
        for stance in ("prefer", "oppose"):
            cue = {"entity": entity, "signal_type": stype, "target": target, "stance": stance}
            for variant in range(3):
                assert read_signals(render_cue(cue, labels, variant)) == [cue]


def test_noise_omits_and_blurs_cues():
    cues = choose_cues(GAME, 3, generator(0, "c"), 6)
    noisy = MockBackend(scorable_omit=0.5, scorable_vague=0.5)
    lost = sum(len(cues) - len(read_signals(_speak(noisy, 3, cues, s))) for s in range(30))
    assert lost > 0
    silent = _speak(MockBackend(scorable_omit=1.0), 3, cues)
    assert read_signals(silent) == []


@pytest.mark.parametrize("task, text", [
    (EXTRACT, "no json here"),
    (EXTRACT, '{"Mayor": [{"entity": "thing", "signal_type": "point", "target": "A", "stance": "prefer"}]}'),
    (EXTRACT, '{"Mayor": "A"}'),
    (ESTIMATE, '{"A": [1, "x"]}'),
    (ESTIMATE, '[]'),
    (SPEAK, "   "),
])
def test_parsers_refuse_bad_output(task, text):
    with pytest.raises(ParseError):
        task.parse(text)


def test_pe_falls_back_on_a_table_that_does_not_fit_and_counts_it():
    client = ModelClient(ScriptedBackend(['{"A": [1, 2]}']))
    est, ok = pe_estimate(client, GAME, 1, [GAME.initial_deal], [], generator(0, "pe"))
    assert not ok and client.stats.fallbacks == 1
    assert [len(e) for e in est] == list(GAME.option_counts)
    client = ModelClient(ScriptedBackend(["garbage", "still garbage"]))
    est, ok = pe_estimate(client, GAME, 1, [], [], generator(0, "pe"))
    assert not ok and client.stats.fallbacks == 1


def test_direct_estimate_reads_signals():
    issues = issues_context(GAME)
    table = direct_estimate(issues, [], [{"entity": "issue", "signal_type": "point", "target": "D", "stance": "prefer"},
                                         {"entity": "option", "signal_type": "point", "target": "D3", "stance": "prefer"}])
    assert max(table["D"]) == max(max(r) for r in table.values()) and table["D"].index(max(table["D"])) == 2


def test_estimates_come_from_the_public_record_only():
    """Replay the transcript's public part (deals and signals read from the words)
    through a fresh posterior: the MSE the session reported is reproduced exactly."""
    from simcore.protocols.scorable import Settings

    s = Settings()
    res = start(GAME, "proposed-all", derive(11, "scorable", 0), settings=s).run()
    turns = [e for e in res.events if e.phase != "result"]
    T = len(turns) - 1
    names = [i.name for i in GAME.issues]
    short = [p.short for p in GAME.parties]
    sp = bayes.hypothesis_space(GAME.option_counts)
    posts = {n: bayes.Posterior(sp) for n in short}
    for ev in turns:
        deal = GAME.parse_deal(ev.intent["deal"])
        sigs = [bayes.resolve_signal(names, GAME.option_counts, r) for r in ev.cues["signals"]]
        posts[ev.speaker].update(deal, bayes.conceder_target(ev.round, T, s.assumed_reservation), s.sigma,
                                 [x for x in sigs if x is not None], s.floor)
        j = short.index(ev.speaker)
        mse = bayes.table_mse(posts[ev.speaker].estimate(), GAME.parties[j].scores)
        assert ev.hidden["mse"][ev.speaker] == round(mse, 2)
    # and the extraction prompt carries only public text: no score of any party appears
    backend = _Recording(MockBackend())
    start(GAME, "proposed-all", derive(11, "scorable", 0), backend=backend).run()
    for messages in backend.prompts:
        if messages[0].content.startswith("TASK: scorable-extract") or \
                messages[0].content.startswith("TASK: scorable-estimate"):
            assert "threshold" not in messages[1].content and "scores" not in messages[1].content


class _Recording:
    def __init__(self, inner):
        self.inner, self.prompts = inner, []

    def chat(self, messages, **kw):
        self.prompts.append(tuple(messages))
        return self.inner.chat(messages, **kw)


def test_round_trip_through_the_backend_checker():
    from mockllm.tasks import all_tasks

    backend = MockBackend(exact=True)
    for task in (SPEAK, EXTRACT, ESTIMATE):
        assert all_tasks()[task.id] is task
        for ctx in task.examples(np.random.default_rng(3)):
            text = backend.chat(task.messages(**ctx), seed=5)
            parsed = task.parse(text)
            want = task.expected(ctx)
            if want is not None:
                assert parsed == want


@pytest.mark.parametrize("task", [SPEAK, EXTRACT, ESTIMATE], ids=lambda t: t.id)
@pytest.mark.parametrize("noise", [{}, {"exact": True}], ids=["noisy", "exact"])
def test_the_mock_reads_the_callers_fields_with_the_full_round_trips_answers(task, noise, monkeypatch):
    """The three tasks hand their plain fields to the in-process mock (``mock_reads_fields``):
    every value, count, record and draw equals the full prompt round trip's, and the mock
    leaves the caller's fields as they were."""
    contexts = task.examples(np.random.default_rng(4))
    before = copy.deepcopy(contexts)
    assert task.mock_reads_fields
    fast = asks(task, True, contexts, noise, monkeypatch, 9)
    assert contexts == before
    assert fast == asks(task, False, contexts, noise, monkeypatch, 9)
