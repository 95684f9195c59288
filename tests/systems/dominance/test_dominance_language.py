"""The language layer: read(say(u)) == u for every utterance, relation and phrasing;
free text in the supported forms; a clear 'cannot read'; counted fallbacks."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings

from mockllm.client import ModelClient
from mockllm.dominance import READ, SAY, T, phrasings, read_text, render
from mockllm.mock import MockBackend
from policies.dominance import Voice
from scenarios.restaurants import load_domain
from simcore.protocols.dialogue import (Accept, AskPreference, Booking, Propose, Proposal, Quit, Reject,
                                        StatePreference, Unreadable, utterance_from_dict)
from tests.strategies import dominance_utterances

SMALL = load_domain("restaurants-small-v1")
BIG = load_domain("restaurants-420-v1")


def all_utterances(d, options=30):
    out = []
    for c in d.criteria:
        for a, b in itertools.permutations(c.values, 2):
            out += [StatePreference(c.name, a, b), AskPreference(c.name, a, b)]
        for v in c.values:
            out += [StatePreference(c.name, None, v), StatePreference(c.name, v, None), AskPreference(c.name, None, v),
                    AskPreference(c.name, v, None)]
            out += [k(Proposal(c.name, v)) for k in (Propose, Accept, Reject)]
        out.append(AskPreference(c.name))
    for o in d.options[:options]:
        out += [k(Proposal(d.topic, o.name)) for k in (Propose, Accept, Reject)] + [Booking(o.name)]
    return out + [Quit()]


@pytest.mark.parametrize("domain", [SMALL, BIG], ids=["small", "420"])
def test_every_phrasing_reads_back(domain):
    voc = domain.vocabulary()
    for u in all_utterances(domain):
        for rel in T:
            d = u.to_dict()
            det = None
            if isinstance(u, Propose) and u.proposal.type == domain.topic:
                det = list(domain.option(u.proposal.value).values)
            n = len(phrasings(rel, d, domain.topic))
            for i in range(n):
                text = render(rel, d, domain.topic, det, i)
                assert utterance_from_dict(read_text(text, voc)) == u, (rel, i, text)


@settings(max_examples=60, deadline=None)
@given(dominance_utterances(SMALL))
def test_round_trip_through_the_backend(u):
    client = ModelClient(MockBackend(exact=True))
    rng = np.random.default_rng(3)
    voice = Voice(SMALL, client, rng)

    class Who:
        relation = "submissive"
        my_last_proposal = None

    text = voice.speak(Who, u)
    assert voice.read(Who, text) == u
    assert client.stats.fallbacks == 0


def test_styles_differ_by_relation():
    u = Propose(Proposal("cuisine", "Italian")).to_dict()
    dom = {render("dominant", u, "restaurant", None, i) for i in range(3)}
    sub = {render("submissive", u, "restaurant", None, i) for i in range(3)}
    assert all(t.endswith(".") for t in dom) and all(t.endswith("?") for t in sub)
    ask = AskPreference("cuisine").to_dict()
    assert all("?" in render("submissive", ask, "restaurant", None, i) for i in range(3))


V = SMALL.vocabulary()


@pytest.mark.parametrize("text,want", [
    ("I'd rather have Italian than Chinese", StatePreference("cuisine", "Chinese", "Italian")),
    ("i prefer japanese food over french food.", StatePreference("cuisine", "French", "Japanese")),
    ("Italian is my favourite", StatePreference("cuisine", None, "Italian")),
    ("I don't like Turkish", StatePreference("cuisine", "Turkish", None)),
    ("what cuisine do you like?", AskPreference("cuisine")),
    ("What about the price?", AskPreference("cost")),
    ("do you prefer calm or noisy?", AskPreference("ambiance", "noisy", "calm")),
    ("how about cheap?", Propose(Proposal("cost", "cheap"))),
    ("let's go to Chez Luigi", Propose(Proposal("restaurant", "Chez Luigi"))),
    ("Italian it is!", Accept(Proposal("cuisine", "Italian"))),
    ("book a table at Sakura", Booking("Sakura")),
    ("bye", Quit()),
])
def test_free_text(text, want):
    assert utterance_from_dict(read_text(text, V)) == want


def test_yes_no_answer_the_last_proposal():
    last = {"type": "cuisine", "value": "French"}
    assert utterance_from_dict(read_text("ok", V, last)) == Accept(Proposal("cuisine", "French"))
    assert utterance_from_dict(read_text("No.", V, last)) == Reject(Proposal("cuisine", "French"))
    r = read_text("ok", V, None)
    assert r["kind"] == "unreadable" and "proposed nothing" in r["why"]


@pytest.mark.parametrize("text,words", [
    ("what is the weather like", "not one of the supported forms"),
    ("I'd rather have Italian than cheap", "different criteria"),
    ("I'd rather have pizza than Chinese", "'pizza' is not a known value"),
    ("", "empty"),
])
def test_says_clearly_when_it_cannot(text, words):
    r = read_text(text, V)
    assert r["kind"] == "unreadable" and words in r["why"] and "try:" in r["why"]


def test_unknown_restaurant_is_unreadable_for_the_listener():
    voice = Voice(SMALL, ModelClient(MockBackend(exact=True)), np.random.default_rng(0))

    class Who:
        my_last_proposal = None

    r = voice.read(Who, "let's go to Chez Nobody")
    assert isinstance(r, Unreadable) and "Chez Nobody" in r.why


def test_garbled_answers_are_retried_then_counted_fallbacks():
    client = ModelClient(MockBackend(exact=True, dominance_garble=1.0))
    voice = Voice(SMALL, client, np.random.default_rng(0))

    class Who:
        relation = "dominant"
        my_last_proposal = None

    text = voice.speak(Who, Propose(Proposal("cuisine", "Italian")))
    assert text == "Let's have Italian."
    assert client.stats.fallbacks == 1 and client.stats.retries == 1


def test_parsers_refuse_bad_output():
    from simcore.errors import ParseError

    with pytest.raises(ParseError):
        SAY.parse("no label")
    with pytest.raises(ParseError):
        READ.parse('{"kind": "propose"}')
    with pytest.raises(ParseError):
        READ.parse("not json")


def test_prompt_carries_no_hidden_state():
    """The reader's prompt holds the text, the public vocabulary and the reader's own last proposal."""
    seen = []

    class Spy(MockBackend):
        def chat(self, messages, **kw):
            seen.append(messages)
            return super().chat(messages, **kw)

    voice = Voice(SMALL, ModelClient(Spy(exact=True)), np.random.default_rng(0))

    class Who:
        my_last_proposal = None

    voice.read(Who, "I'd rather have Italian than Chinese")
    from mockllm.tasks import read_prompt

    _task, ctx = read_prompt(seen[0])
    assert sorted(ctx) == ["last_proposal", "text", "vocabulary"]
    assert ctx["vocabulary"] == SMALL.vocabulary() and ctx["last_proposal"] is None


def test_several_phrasings_per_kind_and_relation():
    for rel, slots in T.items():
        assert set(slots) == set(T["peer"])
        for slot, options in slots.items():
            assert len(options) >= 2, (rel, slot)
    for slot in T["peer"]:
        assert not set(T["dominant"][slot]) & set(T["submissive"][slot]), slot
