"""A backend for role tests: one task's answers given by a function, the mock for the rest."""

from __future__ import annotations

import json

from mockllm.mock import MockBackend


class OneTask:
    """The mock for every task but ``task``, whose answers ``reply(context)`` gives (the prompt
    rendered and its context read back from the text, as a real backend would get it);
    ``asked`` keeps each of that task's requests as (context, number of messages)."""

    def __init__(self, task: str, reply):
        self.prefix, self.mock, self.reply, self.asked = f"TASK: {task}\n", MockBackend(), reply, []

    def chat(self, messages, *, temperature=0.0, seed=None, schema=None):
        if messages[0].content.startswith(self.prefix):
            ctx = json.loads(messages[1].content.split("\n")[1])
            self.asked.append((ctx, len(messages)))
            return self.reply(ctx)
        return self.mock.chat(messages, temperature=temperature, seed=seed)
