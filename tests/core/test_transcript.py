"""Transcript events: payload normalisation keeps plain payloads as they are and converts
everything else exactly as the straightforward definition does."""

import json

import attrs
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.transcript import Event, _jsonable


def _reference(value):
    """The definition: dicts with str keys, lists for tuples, dicts for attrs objects,
    Python scalars for numpy scalars; anything else as it is."""
    if isinstance(value, dict) or (hasattr(value, "items") and not attrs.has(type(value))):
        return {k if type(k) is str else str(k): _reference(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_reference(v) for v in value]
    if attrs.has(type(value)):
        return _reference(attrs.asdict(value, recurse=False))
    if isinstance(value, np.generic):
        return value.item()
    return value


@attrs.frozen
class _Point:
    x: int
    y: tuple


_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5),
                     st.integers(-5, 5).map(np.int64), st.floats(-2, 2).map(np.float64))
_payloads = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 9)), inner, max_size=4),
        st.builds(_Point, inner, st.lists(inner, max_size=2).map(tuple))),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=4), _payloads, max_size=5))
def test_payloads_are_normalised_like_the_definition(payload):
    got = _jsonable(payload)
    want = _reference(payload)
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)
    assert _jsonable(want) is want  # a plain payload is kept, not copied


def test_plain_payloads_are_kept_and_others_converted():
    plain = {"mode": "offer", "offer": [1, 2, 3], "nested": {"a": [{"b": None}]}, "x": 1.5, "t": True}
    assert _jsonable(plain) is plain
    assert _jsonable({}) == {} and _jsonable([]) == []
    assert _jsonable({"offer": (1, 2)}) == {"offer": [1, 2]}
    assert _jsonable({"offer": [1, (2, 3)]}) == {"offer": [1, [2, 3]]}
    assert _jsonable({"n": [np.int64(2)]}) == {"n": [2]}
    assert _jsonable({1: "a"}) == {"1": "a"}
    ev = Event("r", 0, "a", "say", intent={"p": _Point(1, (2,))}, hidden={"s": (0.5, 1)})
    assert ev.intent == {"p": {"x": 1, "y": [2]}} and ev.hidden == {"s": [0.5, 1]}
    assert Event.from_json(ev.to_json()) == ev
