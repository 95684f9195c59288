"""The deterministic mock backend: a real :class:`ChatBackend` that answers task
prompts from templates.

It reads the prompt text (never the caller's objects), recognises the task by its
header, parses the context block back out, and writes an answer in the task's output
format from the task's templates.  Given the same messages and seed it returns the
same text (the call's draws come from a :class:`~mockllm.callrng.CallRng` seeded
by ``seed``).  A prompt it does not recognise raises :class:`UnrecognisedPrompt`.

Options (keyword arguments) are the knobs the tasks declare in ``mock_options``,
e.g. ``tone_noise`` for the travel tasks; an unknown option name is an error.
``exact=True`` sets every float option (all of them are noise probabilities) to 0.

The in-process shortcut: :class:`~mockllm.client.ModelClient` asks
:func:`in_process` whether it may skip the prompt text for a backend; only for a
``MockBackend`` itself (not a subclass, not a wrapper such as a cassette's recorder or
player) while no call observer is installed (progress, ``--log-calls``), and only for a
task :func:`~mockllm.tasks.read_prompt` reads back as itself.  It then calls
:meth:`MockBackend.answer_context` with the context the mock would have read back
(:func:`~mockllm.tasks.prompt_context`): the same answer, byte for byte, without
rendering the prompt and parsing it again (tested on every system's study).  A retry
(a repair conversation) always goes through :meth:`MockBackend.chat`.  A task that
``knows_answers`` (``astra.speak``) is answered by :meth:`MockBackend.answer_known`
from the caller's own fields when they are plain JSON data, and says whether the answer
is the template's exact reading of them (no noise drawn), so that the client checks
such an answer once per context (:meth:`~mockllm.tasks.Task.mock_answer_known`).
``SIMCORE_MOCK_FASTPATH=0`` in the environment (or :data:`FASTPATH` set to False)
turns the shortcut off.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from mockllm import calllog
from mockllm.backend import Message, as_messages
from mockllm.callrng import CallRng
from mockllm.tasks import Task, all_mock_options, read_prompt, reads_back
from simcore.errors import InputError

#: whether :func:`in_process` may answer a MockBackend's calls without the prompt text
FASTPATH = os.environ.get("SIMCORE_MOCK_FASTPATH", "1").strip() != "0"


class MockBackend:
    #: the answers come from templates; a schema would be ignored, so none is built
    uses_schema = False
    #: no settings of its own: the client's defaults (one retry, temperature 0), as for a
    #: backend without these attributes (declared so that reading them costs no lookup miss)
    answer_tries: int | None = None
    temperature: float | None = None

    def __init__(self, *, exact: bool = False, **options: Any):
        known = all_mock_options()
        if exact:  # every noise knob at zero: the answer is the template's exact reading
            known = {k: (0.0 if isinstance(v, float) else v) for k, v in known.items()}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InputError("MockBackend", ", ".join(unknown),
                             f"unknown option; valid: {', '.join(sorted(known))}")
        self.options = {**known, **options}
        self.calls = 0

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None, schema: Mapping[str, Any] | None = None) -> str:
        """The templated answer; ``schema`` is ignored (the answers satisfy it, see the tests).
        ``messages`` are :class:`Message` objects or dicts with ``role`` and ``content``."""
        if not messages or type(messages[0]) is not Message:
            messages = as_messages(messages)
        task, context = read_prompt(messages)
        self.calls += 1
        rng = CallRng(0 if seed is None else seed)
        return task.mock_answer(context, rng, self.options)

    def answer_context(self, task: Task, context: Mapping[str, Any], seed: int) -> str:
        """What :meth:`chat` answers to ``task``'s prompt whose context line reads back
        as ``context`` (:func:`~mockllm.tasks.prompt_context`), with ``seed``: the
        in-process shortcut, for :func:`in_process` callers only."""
        self.calls += 1
        return task.mock_answer(context, CallRng(seed), self.options)

    def answer_known(self, task: Task, context: Mapping[str, Any], seed: int, key: bytes) -> tuple[str, bool]:
        """:meth:`answer_context` and whether the answer is known (:meth:`Task.mock_answer_known`),
        for a task that ``knows_answers``, with the caller's own plain fields as ``context``,
        which :func:`~mockllm.tasks.known_key` names ``key``: for :func:`in_process` callers only."""
        self.calls += 1
        return task.mock_answer_known(context, CallRng(seed), self.options, key)

    def __repr__(self) -> str:
        return f"MockBackend({', '.join(f'{k}={v!r}' for k, v in sorted(self.options.items()))})"


def in_process(backend: Any, task: Task) -> bool:
    """Whether a call of ``task`` to ``backend`` may skip the prompt text: ``backend`` is
    exactly a :class:`MockBackend`, :data:`FASTPATH` is on, no call observer is installed
    and ``task``'s prompts read back as ``task`` (:func:`~mockllm.tasks.reads_back`)."""
    return type(backend) is MockBackend and FASTPATH and calllog._observer is None and reads_back(task)
