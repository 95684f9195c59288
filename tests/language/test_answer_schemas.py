"""Constrained answers: every structured task builds its answer's JSON schema from the
prompt's context, the mock's answers satisfy it, and the HTTP backend sends it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mockllm import schema as S
from mockllm.backend import takes_schema
from mockllm.cassette import RecordingBackend, ReplayBackend
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.openai_compat import OpenAICompatBackend, response_format
from mockllm.scripted import ScriptedBackend
from mockllm.tasks import get_task
from systemtasks import tasks

def _examples(task):
    return task.examples(np.random.default_rng(7))


def _structured(tid) -> bool:
    task = get_task(tid)
    return any(task.answer_schema(ctx) is not None for ctx in _examples(task))


#: every task, by whether its answer is structured (a JSON schema) or free text
STRUCTURED = tuple(sorted(t for t in tasks() if _structured(t)))
FREE_TEXT = tuple(sorted(t for t in tasks() if not _structured(t)))


def test_every_task_is_either_structured_or_free_text():
    """A task's answers are structured for every context or free text for every one; the
    papers' systems have both kinds."""
    for tid in tasks():
        task = get_task(tid)
        kinds = {task.answer_schema(ctx) is None for ctx in _examples(task)}
        assert len(kinds) == 1, tid
    assert {"astra.speak", "mind.judge", "scorable-extract", "dominance-read"} <= set(STRUCTURED)
    assert {"dominance-say", "scorable-speak", "travel.speak-v1"} <= set(FREE_TEXT)


@pytest.mark.parametrize("task_id", STRUCTURED)
@pytest.mark.parametrize("exact", [True, False], ids=["exact", "noisy"])
def test_the_mocks_answers_satisfy_the_schema_of_their_prompt(task_id, exact):
    task, mock = get_task(task_id), MockBackend(exact=exact)
    for k, ctx in enumerate(_examples(task)):
        schema = task.answer_schema(ctx)
        assert json.loads(json.dumps(schema)) == schema  # plain JSON data, sendable as is
        for seed in range(1 if exact else 12):
            answer = mock.chat(task.messages(**ctx), seed=100 * k + seed)
            S.validate(json.loads(answer), schema)  # raises naming the first violation


# each case: (task, example index, an answer of the right form naming what the scenario lacks)
OUTSIDE = [
    ("astra.read", 0, {"highest": "rope", "lowest": None}),
    ("astra.speak", 0, {"utterance": "x", "offer": {"self": {"food": 3, "water": 2, "firewood": 0},
                                                     "other": {"food": 0, "water": 1, "rope": 3}, "shared": {}}}),
    ("astra.speak", 0, {"utterance": "x", "offer": {"self": {"food": 4, "water": 2, "firewood": 0},
                                                     "other": {"food": 0, "water": 1, "firewood": 3}, "shared": {}}}),
    ("astra.speak", 1, {"utterance": "Hello", "offer": {"self": {}, "other": {}, "shared": {}}}),
    ("travel.read-v1", 0, {"act": "insist", "value": "4.0+ (Reliable)", "willingness": 5, "reason": "none"}),
    ("travel.read-v1", 0, {"act": "propose", "value": "4.5+", "willingness": 5, "reason": "none"}),
    ("travel.read-v1", 0, {"act": "propose", "value": "4.0+ (Reliable)", "willingness": 11, "reason": "none"}),
    ("scorable-extract", 0, {"Mayor": [{"entity": "option", "signal_type": "point", "target": "D1",
                                        "stance": "prefer"}]}),
    ("scorable-extract", 0, {"Mayor": [{"entity": "issue", "signal_type": "point", "target": "A1",
                                        "stance": "prefer"}]}),
    ("scorable-extract", 0, {"SportCo": []}),
    ("scorable-estimate", 0, {"A": [1, 2, 3], "B": [1, 2, 3], "C": [1, 2]}),
    ("scorable-estimate", 0, {"A": [1, 2, 300], "B": [1, 2, 3], "C": [1, 2, 3]}),
    ("dominance-read", 0, {"kind": "state", "criterion": "cuisine", "less": "cheap", "more": "Italian"}),
    ("dominance-read", 0, {"kind": "propose", "type": "cost", "value": "Italian"}),
    ("dominance-read", 0, {"kind": "order", "option": "Sakura"}),
]


@pytest.mark.parametrize("task_id,k,answer", OUTSIDE, ids=[f"{t}-{i}" for i, (t, _k, _a) in enumerate(OUTSIDE)])
def test_the_schema_refuses_what_the_prompts_scenario_lacks(task_id, k, answer):
    task = get_task(task_id)
    with pytest.raises(ValueError):
        S.validate(answer, task.answer_schema(_examples(task)[k]))


def test_the_validator_reads_json_types_and_refuses_keywords_it_does_not_know():
    S.validate(3, S.integer(1, 5))
    for bad, schema in ((True, S.integer(0, 5)), (1, {"type": "boolean"}), (6, S.integer(1, 5)),
                        ({"a": 1, "b": 2}, S.obj({"a": {"type": "integer"}})), ({}, S.obj({"a": S.STRING})),
                        ([1], {"type": "array", "items": S.STRING}), ("x", {"anyOf": [S.integer(0, 1), {"type": "null"}]}),
                        (True, S.enum([1, 2])), ([1, 2, 3], {"type": "array", "maxItems": 2})):
        with pytest.raises(ValueError):
            S.validate(bad, schema)
    with pytest.raises(ValueError, match="outside the supported subset"):
        S.validate("x", {"type": "string", "pattern": "x"})


def test_the_client_sends_each_task_its_schema_and_a_backend_without_the_argument_still_works():
    task = get_task("astra.read")
    ctx = _examples(task)[0]
    scripted = ScriptedBackend(['{"highest": "firewood", "lowest": null}'])
    assert ModelClient(scripted).ask(task, np.random.default_rng(0), **ctx) == {"highest": "firewood", "lowest": None}
    assert scripted.schemas == [task.answer_schema(ctx)]

    class Old:  # a backend written before schemas existed
        def chat(self, messages, *, temperature=0.0, seed=None):
            return '{"highest": null, "lowest": null}'

    assert not takes_schema(Old())
    assert ModelClient(Old()).ask(task, np.random.default_rng(0), **ctx) == {"highest": None, "lowest": None}
    assert not takes_schema(MockBackend())  # it would ignore the schema: none is built for it


def test_a_recording_passes_the_schema_on_and_a_replay_accepts_it(tmp_path):
    task = get_task("astra.read")
    ctx = _examples(task)[0]
    inner = ScriptedBackend(['{"highest": "firewood", "lowest": null}'])
    path = str(tmp_path / "c.jsonl")
    rec = RecordingBackend(inner, path)
    answer = ModelClient(rec).ask(task, np.random.default_rng(0), **ctx)
    assert inner.schemas == [task.answer_schema(ctx)]
    assert ModelClient(ReplayBackend(path)).ask(task, np.random.default_rng(0), **ctx) == answer


def test_response_format_in_each_mode():
    schema = get_task("astra.read").answer_schema(_examples(get_task("astra.read"))[0])
    assert response_format(schema, "off") is None and response_format(None, "json_schema") is None
    assert response_format(schema, "json_object") == {"type": "json_object", "schema": schema}
    assert response_format(schema, "json_schema") == {
        "type": "json_schema", "json_schema": {"name": "astra_read", "schema": schema, "strict": True}}
    with pytest.raises(Exception, match="schema must be one of"):
        OpenAICompatBackend("http://127.0.0.1:9/v1", "m", schema="grammar")


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "off"])
def test_the_http_backend_sends_the_schema_as_response_format(mode):
    from tests.language.test_http_backend import Stub

    task = get_task("dominance-read")
    ctx = _examples(task)[0]
    stub = Stub([("ok", '{"kind": "quit", "reason": "no"}')])
    try:
        backend = OpenAICompatBackend(stub.url, "m", timeout=5, max_retries=0, schema=mode)
        ModelClient(backend).ask(task, np.random.default_rng(0), **ctx)
        ModelClient(backend).ask(get_task("dominance-say"), np.random.default_rng(0), fallback=lambda: "",
                                 **_examples(get_task("dominance-say"))[0])
    finally:
        stub.close()
    structured, free = (r["body"] for r in stub.requests[:2])
    assert "response_format" not in free  # a free-text task has no schema
    assert structured.get("response_format") == response_format(task.answer_schema(ctx), mode)
