"""The safe path for JSON from outside (:mod:`simcore.jsonread`) and its depth limit;
its users are tested in tests/core/test_outside_json.py."""

import json

import pytest

from simcore.jsonread import MAX_DEPTH, JSONProblem, loads, too_deep, too_deep_value


def test_the_depth_limit():
    for depth in (0, 1, MAX_DEPTH):
        text = "[" * depth + "]" * depth or "1"
        assert loads(text) is not None and not too_deep(text)
    assert too_deep("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert not too_deep(json.dumps({"a": "[" * 500, "b": "\\\"{" * 300}))  # brackets in strings do not count
    assert not too_deep(json.dumps([[1, 2]] * 1000))  # many brackets, little depth
    with pytest.raises(JSONProblem, match="nested too deeply"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    nested: list = []  # one level
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    assert not too_deep_value(nested) and too_deep_value([nested])
