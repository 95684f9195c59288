"""A copy of the prompt's example answer is refused however it is punctuated.

A base model put the ASTRA prompt's example "I take 2 rope and you take 1 rope" into every
turn, without its final period (or ending with " !"), and the check compared characters.
It compares words now: case, whitespace, punctuation and quotes between and around them
aside.  An answer that shares words with the example but not all of them in a row is
accepted (the mock's answers among them: its fallback counts stay 0, see
benchmarks/output_hashes.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mockllm.mock import MockBackend
from mockllm.tasks import all_tasks, read_prompt
from scenarios.bilateral import load_domain
from simcore.errors import ParseError
from simcore.seeding import derive
from simcore.systems.astra.match import play_episode

TASKS = all_tasks()
SPEAK = TASKS["astra.speak"]
GREET = dict(role="partner", mode="greet", offer=None, tactic=None, mention=None, warning=False)

ROPE_COPIES = [
    "I take 2 rope and you take 1 rope",            # the base model's answer: no final period
    "I take 2 rope and you take 1 rope !",
    "I take 2 rope and you take 1 rope!!",
    "i TAKE 2 rope,\n and you take   1 rope...",
    "\u201cI take 2 rope and you take 1 rope.\u201d",
    "'I take 2 rope and you take 1 rope'",
    "Sure: I take 2 rope and you take 1 rope. Deal?",
]


@pytest.mark.parametrize("utterance", ROPE_COPIES)
def test_the_astra_example_copied_is_refused_however_punctuated(utterance):
    with pytest.raises(ParseError, match="copies the prompt's example answer"):
        SPEAK.interpret(json.dumps({"utterance": utterance, "offer": None}), GREET)


@pytest.mark.parametrize("utterance", [
    "I take 2 food and you take 1 water.",             # the example's shape about the scenario's items
    "I take 2 rope and you take 1 food.",
    "Hello! I take it you would like some rope too?",
    "You take 1 rope and I take 2 rope.",              # the same words, not in the example's order
    "I take 2 ropes and you take 1 rope.",
])
def test_answers_sharing_words_with_the_example_are_accepted(utterance):
    assert SPEAK.interpret(json.dumps({"utterance": utterance, "offer": None}), GREET)[0] == utterance


@pytest.mark.parametrize("task_id,answer,context", [
    ("dominance-say", "SAY: How about somewhere with live jazz", None),
    ("dominance-say", "SAY: how about somewhere with LIVE jazz !", None),
    ("travel.speak-v1", "For the beach day I'd really like Sunrise swim since it suits how I travel",
     {"act": "propose", "item": "beach day", "value": "Sunrise swim", "willingness": None, "reason": "preference"}),
    ("scorable-speak", "A1, B2 and C3 -- we propose harbour x1 solar y2 solar y2 is what we want", None),
])
def test_every_free_text_example_copied_without_its_punctuation_is_refused(task_id, answer, context):
    task = TASKS[task_id]
    ctx = context or task.examples(np.random.default_rng(0))[0]
    if task_id == "dominance-say":
        ctx = dict(ctx, utterance={"kind": "talk"})  # a move naming nothing: only the echo check speaks
    with pytest.raises(ParseError, match="copies the prompt's example answer"):
        task.interpret(answer, ctx)


def test_the_travel_examples_own_reason_is_no_copy():
    """The mock gives the reason "since it suits how I travel", as the example does."""
    ctx = {"act": "propose", "item": "beach day", "value": "Sunrise swim", "willingness": None,
           "reason": "preference"}
    said = 'For the beach day, I propose "Sunrise swim", since it suits how I travel.'
    assert TASKS["travel.speak-v1"].interpret(said, ctx) == said


class CopiesTheExample:
    """The mock for every task but astra.speak, whose every answer is the example's utterance
    without its final period (what a base model answered in 29 of 29 turns)."""

    def __init__(self):
        self.mock = MockBackend()
        self.asks = 0  # astra.speak's first tries

    def chat(self, messages, *, temperature=0.0, seed=None):
        task, context = read_prompt(messages)
        if task.id == "astra.speak":
            self.asks += len(messages) == 2
            offer = context.get("offer")
            return json.dumps({"utterance": "I take 2 rope and you take 1 rope", "offer": offer})
        return self.mock.chat(messages, temperature=temperature, seed=seed)


def test_an_episode_whose_model_copies_the_example_falls_back_on_every_turn():
    backend = CopiesTheExample()
    ep, rec = play_episode(load_domain("casino-v1"), "astra", "base", "integrative", derive(5, "t"), run_id="t",
                           backend=backend)
    texts = [e.text for e in ep.events if e.speaker in ("agent", "partner")]
    assert texts and not any("rope" in t for t in texts)  # no copied example reached the transcript
    assert rec["fallbacks"] == backend.asks > 0  # every turn's answer refused, retried, then the rule's words
