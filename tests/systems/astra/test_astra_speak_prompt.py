"""``astra.speak``'s prompt tells a real model every move it may be asked to say: each mode
of ``mockllm.astra.MODES`` is named in the prompt, and the ones that are more than a word
("invite": ask the other side to propose a split) say what to do, in the terms the task's
check holds the answer to (an invite states no offer)."""

from __future__ import annotations

import re

import pytest

from mockllm import astra
from mockllm.tasks import get_task
from simcore.errors import ParseError

TASK = get_task("astra.speak")
INVITE = {"role": "agent", "mode": "invite", "offer": None, "tactic": None, "mention": None, "warning": False}


def _system(context: dict) -> str:
    system, _user = TASK.messages(**context)
    return system.content


@pytest.mark.parametrize("mode", astra.MODES)
def test_the_prompt_names_every_mode(mode):
    assert re.search(rf"(?<![\w]){re.escape(mode)}(?![\w])", _system({**INVITE, "mode": mode})), mode


def test_the_prompt_says_what_an_invite_is():
    described = re.search(r"\binvite \(([^)]*)\)", _system(INVITE))
    assert described, "the prompt names 'invite' without saying what it asks"
    assert "propose a split" in described.group(1) and "none yourself" in described.group(1)


def test_the_check_holds_an_invite_to_what_the_prompt_asks():
    """An invite that asks for the other side's split passes; one that states a split of
    its own is refused (the prompt: 'stating none yourself')."""
    asked = ("Thanks, that helps. What split would you propose?", None)
    assert TASK.check(asked, INVITE, '{"utterance": "...", "offer": null}') == asked
    stated = ("I take 2 food and you take 1 food.", {"self": {"food": 2}, "other": {"food": 1}, "shared": {}})
    with pytest.raises(ParseError, match="an offer where the move"):
        TASK.check(stated, INVITE, "{}")
