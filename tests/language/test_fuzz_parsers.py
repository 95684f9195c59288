"""Fuzzing every parser in mockllm: arbitrary text and mutated valid outputs.

Each task's ``parse`` must return a result or raise the library's ParseError -- never
anything else -- and a run goes on through the counted fallback.  The mock's prompt
reader must likewise only raise UnrecognisedPrompt.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mockllm.backend import Message
from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.scripted import ScriptedBackend
from mockllm.tasks import all_tasks, read_prompt
from simcore.errors import ParseError, UnrecognisedPrompt

TASKS = all_tasks()
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _valid_answers(task):
    rng = np.random.default_rng(7)
    backend = MockBackend()
    return [backend.chat(task.messages(**ctx), seed=k) for k, ctx in enumerate(task.examples(rng))]


VALID = {tid: _valid_answers(t) for tid, t in TASKS.items()}


def _parse_or_parse_error(task, text):
    try:
        task.parse(text)
    except ParseError:
        pass


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12)


@pytest.mark.parametrize("task_id", sorted(TASKS))
@FUZZ
@given(text=st.text(max_size=300))
def test_arbitrary_text(task_id, text):
    _parse_or_parse_error(TASKS[task_id], text)


@pytest.mark.parametrize("task_id", sorted(TASKS))
@FUZZ
@given(value=json_like)
def test_arbitrary_json(task_id, value):
    import json

    _parse_or_parse_error(TASKS[task_id], json.dumps(value))


@pytest.mark.parametrize("task_id", sorted(t for t in TASKS if VALID[t]))
@FUZZ
@given(data=st.data())
def test_mutated_valid_outputs(task_id, data):
    text = data.draw(st.sampled_from(VALID[task_id]))
    cut = data.draw(st.integers(0, len(text)))
    ins = data.draw(st.text(max_size=8))
    mutated = data.draw(st.sampled_from([
        text[:cut], text[cut:], text[:cut] + ins + text[cut:], text.replace('"', "'"),
        text.replace(":", ""), text.upper(), text[::-1]]))
    _parse_or_parse_error(TASKS[task_id], mutated)


@FUZZ
@given(system=st.text(max_size=80), user=st.text(max_size=200))
def test_prompt_reader_only_refuses_clearly(system, user):
    try:
        read_prompt([Message("system", system), Message("user", user)])
    except UnrecognisedPrompt:
        pass


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_a_run_continues_through_the_counted_fallback(task_id):
    task = TASKS[task_id]
    examples = task.examples(np.random.default_rng(0))
    if not examples:
        pytest.skip("task has no examples")
    client = ModelClient(ScriptedBackend(["", "   "]))  # every parser must refuse an empty answer
    assert client.ask(task, np.random.default_rng(0), fallback=lambda: "fallback", **examples[0]) == "fallback"
    assert client.stats.fallbacks == 1


# --- answers checked against the prompt's scenario (Task.interpret) -----------------
def _examples_with_answers(task):
    backend = MockBackend()
    return [(ctx, backend.chat(task.messages(**ctx), seed=k))
            for k, ctx in enumerate(task.examples(np.random.default_rng(3)))]


EXAMPLES = {tid: _examples_with_answers(t) for tid, t in TASKS.items()}


def _strictly(task, text, ctx):
    """parse then check, without the net of Task.interpret: each may refuse only with a
    ParseError, so no crash found by fuzzing is merely masked by the net."""
    try:
        task.check(task.parse(text), ctx, text)
    except ParseError:
        pass


@pytest.mark.parametrize("task_id", sorted(t for t in TASKS if EXAMPLES[t]))
@FUZZ
@given(data=st.data())
def test_answers_are_read_and_checked_or_refused_with_a_parse_error(task_id, data):
    from tests.strategies import model_answers

    task = TASKS[task_id]
    ctx, answer = data.draw(st.sampled_from(EXAMPLES[task_id]))
    text = data.draw(model_answers(answer, ctx))
    _strictly(task, text, ctx)
    try:
        task.interpret(text, ctx)
    except ParseError:
        pass


@pytest.mark.parametrize("task_id", sorted(t for t in TASKS if EXAMPLES[t]))
def test_the_noisy_mock_answers_pass_the_scenario_checks(task_id):
    """The checks refuse no answer the mock gives at its default noise (no false alarms)."""
    task = TASKS[task_id]
    backend = MockBackend()
    for ctx in task.examples(np.random.default_rng(11)):
        for seed in range(25):
            task.interpret(backend.chat(task.messages(**ctx), seed=seed), ctx)
