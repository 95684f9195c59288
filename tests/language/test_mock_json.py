"""The mock's JSON helpers and the memoised ``astra.speak`` answer give exactly what the
standard library and the plain template give."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mockllm import astra as lang
from mockllm.callrng import CallRng
from mockllm.mock import MockBackend
from scenarios.bilateral import load_domain
from simcore.jsontext import dumps_compact, dumps_spaced, loads

REFERENCE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=15)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_dumps_compact_is_the_compact_encoder(value):
    assert dumps_compact(value) == REFERENCE(value)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_dumps_spaced_is_json_dumps_without_ascii_escapes(value):
    assert dumps_spaced(value) == json.dumps(value, ensure_ascii=False)


def test_dumps_spaced_other_python_values_and_errors():
    for value in [(1, (2, 3)), {1: "a", True: None, 2.5: [1]}, float("nan"), "é\n\"", {"a": (None,)}]:
        assert dumps_spaced(value) == json.dumps(value, ensure_ascii=False)
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        dumps_spaced({"a": {1}})
    assert dumps_spaced({"ok": 1, "b": [1, 2]}) == '{"ok": 1, "b": [1, 2]}'


def test_dumps_compact_other_python_values_and_errors():
    for value in [(1, (2, 3)), {1: "a", True: None, 2.5: [1]}, float("inf"), "é\n\"", {"a": (None,)}]:
        assert dumps_compact(value) == REFERENCE(value)
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference detected"):
        dumps_compact({"a": loop})
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        dumps_compact({"a": {1}})
    with pytest.raises(TypeError, match="keys must be str"):
        dumps_compact({(1, 2): 0})
    assert dumps_compact({"ok": 1}) == '{"ok":1}'  # still fine after errors


def _same_outcome(f, g, text):
    try:
        want = ("value", f(text))
    except Exception as exc:  # noqa: BLE001 - the same exception is the point
        want = ("error", type(exc), str(exc))
    try:
        got = ("value", g(text))
    except Exception as exc:  # noqa: BLE001
        got = ("error", type(exc), str(exc))
    assert json.dumps(got, default=repr) == json.dumps(want, default=repr)


@settings(max_examples=300, deadline=None)
@given(_json, st.sampled_from(["", " ", "\n", "\ufeff", "x", " 1", "{}"]), st.sampled_from(["", " ", "\t"]))
def test_loads_is_json_loads(value, suffix, prefix):
    text = REFERENCE(value)
    for t in (text, prefix + text, text + suffix, prefix + text + suffix, text[:-1], text[1:]):
        _same_outcome(json.loads, loads, t)


def test_loads_edge_cases():
    for text in ["", " ", "{", '{"a": 1} x', "\ufeff{}", "[1,]", "NaN", "-Infinity", '"\\ud800"', "1e999",
                 '{"a":1,"a":2}', "[" * 100_000]:
        _same_outcome(json.loads, loads, text)
    with pytest.raises(TypeError):
        loads(None)
    assert loads(b'{"a": 1}') == {"a": 1}


def _contexts():
    d = load_domain("research-allocation-v1")
    casino = load_domain("casino-v1")
    ctxs = list(lang.SPEAK.examples(np.random.default_rng(0)))
    for dom in (casino, d):
        for k, o in enumerate(dom.outcomes[::7]):
            for role in ("agent", "partner"):
                ctxs.append(dict(role=role, mode="offer", offer=dom.state_offer(o, role),
                                 tactic=["", "RC", "LGR", None][k % 4], mention=[None, "food"][k % 2],
                                 warning=bool(k % 3 == 0)))
    ctxs += [dict(role="agent", mode=m, offer=None, tactic=None, mention=mention, warning=w)
             for m in lang.MODES if m != "offer" for mention in (None, "water", 1, True, 1.0) for w in (False, True, 1)]
    odd = {"self": {"food": True, "water": 1.0}, "other": {"food": 1}, "shared": {"lab": "x", "weekend": False}}
    ctxs.append(dict(role="agent", mode="offer", offer=odd, tactic="RC", mention=None, warning=False))
    return ctxs


@pytest.mark.parametrize("noise", [0.0, 0.5])
def test_speak_answers_are_the_plain_template(noise):
    """The memoised answer equals the template rendered and encoded directly, call after call."""
    options = {"astra_overspecify": noise}
    for _ in range(2):  # the second round is served by the memo
        for k, ctx in enumerate(_contexts()):
            ctx = json.loads(json.dumps(ctx))  # the mock sees the context parsed from the prompt
            got = lang.SPEAK.mock_answer(ctx, CallRng(k), options)
            rng = CallRng(k)
            offer = ctx.get("offer")
            if offer is not None:
                names = list(offer.get("other", {}))
                if noise > 0 and names and rng.random() < noise:
                    name = names[int(rng.integers(0, len(names)))]
                    offer = {**offer, "other": {**offer["other"], name: offer["other"][name] + 1}}
            want = json.dumps({"utterance": lang.SPEAK.render(ctx, offer), "offer": offer},
                              ensure_ascii=False, separators=(",", ":"))
            assert got == want


def test_speak_through_the_backend_round_trips():
    backend = MockBackend(exact=True)
    for ctx in _contexts()[:40]:
        text = backend.chat(lang.SPEAK.messages(**ctx), seed=3)
        utt, offer = lang.SPEAK.parse(text)
        assert (utt, offer) == lang.SPEAK.expected(ctx)
