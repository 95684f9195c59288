"""The travel language layer: round trips, reading from words only, fallbacks."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mockllm import tone
from mockllm.backend import Message
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.scripted import ScriptedBackend
from mockllm.travel import PROPOSE, READ, SPEAK, TravelUtterance, read, render, render_all
from scenarios.travel import BAND_ORDER, BANDS, CATALOGUE, band_of
from simcore.errors import InputError, ParseError, UnrecognisedPrompt
from tests.strategies import travel_utterances


@settings(max_examples=300, deadline=None)
@given(travel_utterances(), st.integers(0, 2**31 - 1))
def test_read_render_round_trip(case, seed):
    label, u = case
    text = render(u, label, np.random.default_rng(seed), tone_noise=0.0)
    assert read(text) == u


@settings(max_examples=60, deadline=None)
@given(travel_utterances(), st.integers(0, 2**31 - 1))
def test_round_trip_through_the_backend(case, seed):
    label, u = case
    client = ModelClient(MockBackend(exact=True))
    rng = np.random.default_rng(seed)
    text = client.ask(SPEAK, rng, act=u.act, item=label, value=u.value, willingness=u.willingness, reason=u.reason)
    assert client.ask(READ, rng, message=text, item=None) == u
    assert client.stats.fallbacks == 0


def test_every_band_reads_back_exactly():
    rng = np.random.default_rng(0)
    for w in range(1, 11):
        for _ in range(10):
            u = TravelUtterance("propose", "Moderate", w, "preference")
            assert read(render(u, "dining budget tier", rng, 0.0)).willingness == w
    assert {band_of(w) for w in (9, 10)} == {"Strict"}
    assert [band_of(w) for w in (1, 3, 4, 6, 7, 8)] == ["Neutral", "Neutral", "Warm", "Warm", "Firm", "Firm"]


def test_phase1_message_reads_per_item():
    entries = [(it.label, it.options[0], (k % 10) + 1) for k, it in enumerate(CATALOGUE)]
    text = render_all(entries, np.random.default_rng(3), 0.0)
    for label, value, w in entries:
        u = read(text, item=label)
        assert (u.value, u.willingness) == (value, w)
    with pytest.raises(ParseError):
        read("Here is what I'd like for the trip:\n- For the room type, I propose \"Shared room\".",
             item="departure window")


def test_tone_noise_slips_only_to_a_neighbouring_band():
    rng = np.random.default_rng(1)
    order = BAND_ORDER
    for w in range(1, 11):
        seen = set()
        for _ in range(200):
            level = tone.worded_level(w, rng, 1.0)
            k, j = order.index(band_of(w)), order.index(band_of(level))
            assert abs(k - j) == 1
            seen.add(level)
        lo, hi = BANDS[band_of(w)]
        neighbours = {lv for lv in range(1, 11) if abs(order.index(band_of(lv)) - order.index(band_of(w))) == 1}
        assert seen == neighbours  # every level of the neighbouring band(s), none of its own
    assert all(tone.worded_level(w, rng, 0.0) == w for w in range(1, 11))
    slips = sum(tone.worded_level(5, rng, 0.2) != 5 for _ in range(5000))
    assert 0.17 < slips / 5000 < 0.23


def test_plain_words_carry_no_willingness():
    u = TravelUtterance("disagree", "Romantic", None, "balance")
    assert read(render(u, "dining atmosphere", np.random.default_rng(0), 0.3)).willingness is None


def test_unknown_prompt_is_refused_clearly():
    backend = MockBackend()
    with pytest.raises(UnrecognisedPrompt, match="TASK: <task id>"):
        backend.chat([Message("system", "You are a helpful assistant."), Message("user", "hi")])
    with pytest.raises(UnrecognisedPrompt, match="unknown task"):
        backend.chat([Message("system", "TASK: travel.nothing-v9\nhello"), Message("user", "### CONTEXT\n{}")])
    with pytest.raises(InputError, match="unknown option"):
        MockBackend(tone_nosie=0.1)


def test_unparseable_output_retried_once_then_counted_fallback():
    client = ModelClient(ScriptedBackend(["not json", "still not json"]))
    got = client.ask(READ, np.random.default_rng(0), fallback=lambda: "FALLBACK", message="x", item=None)
    assert got == "FALLBACK"
    assert (client.stats.calls, client.stats.retries, client.stats.fallbacks) == (2, 1, 1)
    ok = ModelClient(ScriptedBackend(["garbage", '{"act": "agree", "value": "Romantic", "willingness": 4}']))
    said = 'Agreed on the dining atmosphere: I like "Romantic".'  # the value read must be in the message
    assert ok.ask(READ, np.random.default_rng(0), fallback=lambda: None, message=said, item=None).willingness == 4
    assert ok.stats.fallbacks == 0
    with pytest.raises(ParseError):
        ModelClient(ScriptedBackend(["{}", "{}"])).ask(READ, np.random.default_rng(0), message="x", item=None)


def test_speak_accepts_plain_text_or_a_json_wrapper():
    assert SPEAK.parse(' {"message": "Fine by me."} ') == "Fine by me."
    assert SPEAK.parse("Fine by me.\n") == "Fine by me."
    with pytest.raises(ParseError):
        SPEAK.parse("   ")
    with pytest.raises(ParseError):
        PROPOSE.parse('{"message": ')


def test_read_rejects_out_of_range_willingness():
    with pytest.raises(ParseError):
        READ.parse('{"act": "agree", "value": "x", "willingness": 14, "reason": "none"}')
    with pytest.raises(ParseError):
        READ.parse('{"act": "shout", "value": "x", "willingness": 4, "reason": "none"}')
