"""Prompts a real model can follow: each ends with its question, the exact answer format
and one example; the mock still recognises them exactly; free-text answers that echo the
prompt or leak a private field are parse errors."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from mockllm.backend import Message
from mockllm.mock import MockBackend
from mockllm.tasks import QUESTION_HEADER, get_task, read_prompt
from systemtasks import tasks
from simcore.errors import ParseError, UnrecognisedPrompt

MOCK = MockBackend(exact=True)


def _examples(task):
    return task.examples(np.random.default_rng(3))


@pytest.mark.parametrize("task_id", sorted(tasks()))
def test_every_prompt_ends_with_the_question_the_format_and_one_example(task_id):
    task = get_task(task_id)
    for ctx in _examples(task):
        _system, user = task.messages(**ctx)
        sent = {f: ctx[f] for f in task.fields}
        sent.update({f: ctx[f] for f in task.optional_fields if ctx.get(f) is not None})
        head, tail = user.content.split(f"\n\n{QUESTION_HEADER}\n")
        assert head.split("\n")[1] == json.dumps(sent, separators=(",", ":"), ensure_ascii=False)
        assert tail == (f"{task.question}\nAnswer format: {task.answer_format}\n"
                        f"Example answer: {task.example}")
        assert task.question.rstrip().endswith("?") and task.answer_format and task.example
        got_task, got_ctx = read_prompt(task.messages(**ctx))  # the mock reads the context back
        assert got_task is task and got_ctx == json.loads(json.dumps(sent))


@pytest.mark.parametrize("task_id", sorted(tasks()))
def test_the_mock_refuses_a_prompt_whose_closing_is_not_the_tasks_own(task_id):
    task = get_task(task_id)
    system, user = task.messages(**_examples(task)[0])
    for content in (user.content.replace(task.question, task.question + " Be brief."),
                    user.content.split("\n\n" + QUESTION_HEADER)[0],
                    user.content + "\nPlease answer now."):
        with pytest.raises(UnrecognisedPrompt):
            MOCK.chat([system, Message("user", content)])


def _valid(task, ctx):
    """The mock's answer, which the task accepts."""
    text = MOCK.chat(task.messages(**ctx), seed=1)
    task.interpret(text, ctx)
    return text


def _with(task_id, text, extra):
    """``text`` (a mock answer) with ``extra`` added to its free-text part."""
    if task_id.startswith("astra."):
        data = json.loads(text)
        data["utterance"] += " " + extra
        return json.dumps(data, ensure_ascii=False)
    return text + " " + extra


SPEAKING = ("travel.speak-v1", "travel.propose-v1", "scorable-speak", "dominance-say", "astra.speak",
            "astra.answer")


@pytest.mark.parametrize("task_id", SPEAKING)
def test_a_free_text_answer_echoing_the_prompt_is_a_parse_error(task_id):
    task = get_task(task_id)
    for ctx in _examples(task)[:3]:
        ok = _valid(task, ctx)
        context_json = task.messages(**ctx)[1].content.split("\n")[1]
        example = task.example
        if example.startswith("{"):
            example = next(v for v in json.loads(example).values() if isinstance(v, str))
        example = example.removeprefix("SAY: ")
        slots = re.findall(r"<[^<>]+>", task.answer_format)
        for extra in (f"TASK: {task.id}", "### CONTEXT", context_json, "### QUESTION",
                      f"Answer format: {task.answer_format}", example, *slots):
            with pytest.raises(ParseError, match="repeats the prompt|copies the prompt's example|copies the answer"):
                task.interpret(_with(task_id, ok, extra), ctx)


def test_an_answer_that_is_the_formats_placeholder_is_a_parse_error():
    # SmolLM2-135M, asked without the example, answered an offer move with the format's slot
    task = get_task("astra.speak")
    ctx = _examples(task)[0]
    answer = json.dumps({"utterance": "<your words>", "offer": ctx["offer"]})
    with pytest.raises(ParseError, match="placeholder '<your words>'"):
        task.interpret(answer, ctx)


LEAKS = [
    ("travel.speak-v1", 0, lambda ctx: f"My willingness is {ctx['willingness']}."),
    ("travel.speak-v1", 0, lambda ctx: f"It is a {ctx['willingness']}/10 for me."),
    ("travel.speak-v1", 1, lambda ctx: f"(level {ctx['willingness']})"),
    ("travel.propose-v1", 0, lambda ctx: f"That one is a {ctx['items'][0]['willingness']} for me."),
    ("astra.speak", 0, lambda ctx: f"({ctx['tactic']})"),
    ("astra.answer", 0, lambda ctx: json.dumps(ctx["order"])),
    ("dominance-say", 0, lambda ctx: f"I am the {ctx['relation']} one here."),
    ("dominance-say", 1, lambda ctx: "Our relation is fine."),
    ("scorable-speak", 0, lambda ctx: "signal_type point"),
]


@pytest.mark.parametrize("task_id,k,leak", LEAKS, ids=[f"{t}-{i}" for i, (t, _k, _l) in enumerate(LEAKS)])
def test_a_free_text_answer_stating_a_private_field_is_a_parse_error(task_id, k, leak):
    task = get_task(task_id)
    ctx = _examples(task)[k]
    ok = _valid(task, ctx)
    with pytest.raises(ParseError, match="leaks a private field"):
        task.interpret(_with(task_id, ok, leak(ctx)), ctx)


def test_everyday_words_like_the_prompts_are_no_echo():
    task = get_task("travel.speak-v1")
    ctx = {"act": "propose", "item": "room type", "value": "Private room", "willingness": 6, "reason": "none"}
    assert task.interpret('For the room type, our task: "Private room" (an example answer, of sorts).', ctx)


def test_digits_of_the_items_and_values_are_no_leak():
    task = get_task("travel.speak-v1")
    ctx = {"act": "propose", "item": "departure window", "value": "Morning (06-12)", "willingness": 6,
           "reason": "none"}
    assert task.interpret('For the departure window, I would like "Morning (06-12)".', ctx)
    ctx = dict(ctx, value="4.0+ (Reliable)", item="minimum restaurant rating", willingness=4)
    assert task.interpret('For the minimum restaurant rating, I would like "4.0+ (Reliable)".', ctx)
    with pytest.raises(ParseError, match="willingness 4"):
        task.interpret('For the minimum restaurant rating, "4.0+ (Reliable)", a 4 for me.', ctx)
