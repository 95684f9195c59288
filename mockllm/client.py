"""Asking a backend for a task, with repair retries and a counted fallback.

Policies talk to the language layer through :class:`ModelClient`.  Output that the
task's parser cannot read is asked again, up to ``tries`` requests in all (default
:data:`DEFAULT_TRIES`: one retry), each with a fresh seed; a retry is a *repair
conversation*: the prompt, the rejected answer as an assistant message, and a user
message saying why it was not accepted (:func:`repair_messages`), so a real model
can correct itself.  If every try fails the caller's rule-based fallback is used and
counted in :class:`CallStats`, which the run reports in its metrics.  ``tries`` and
``temperature`` default to the backend's ``answer_tries`` / ``temperature``
attributes when it has them (``--backend-arg tries=4 temperature=0.7`` for the HTTP
backend), else to one retry and temperature 0.  A :class:`BackendError` (the backend
gave up after its own bounded retries) also falls back when the caller gives a fallback, counted in both
``fallbacks`` and ``backend_errors``; without a fallback it propagates.  A
:class:`~simcore.errors.BackendFatal` (refused credentials, nothing listening, a
cassette without the request) is never a fallback: it stops the run.  An answer longer
than :data:`MAX_ANSWER_CHARS` is refused as a parse error before the parser sees it, and
so is an answer the backend says was cut off at its token budget (``finish_reason``
``"length"``: :data:`CUT_OFF`), whatever it says -- a model that had not finished may
still have written a sentence that passes the checks.  Each answer is made well-formed
Unicode first (:func:`simcore.textsafe.well_formed`: a lone surrogate becomes U+FFFD, as
the HTTP backend does where it decodes), so no backend's text can make a later write
fail.  When the caller's fallback answers, :attr:`ModelClient.last_fallback` says why
(the number of tries, or the backend's failure), for a fallback that reports it.
Nothing is guessed silently.

An opt-in record of each ask (:attr:`ModelClient.exchanges`, None by default: nothing is
kept): the prompt's messages, every answer with the reason the task refused it (each
refusal is a repair turn, whose messages :func:`repair_messages` rebuilds from these),
the value taken and whether the caller's fallback answered.  A role on a backend keeps
it so that its transcript events can show the exchange (:mod:`mockllm.exchanges`).

The counts are kept per task (:data:`TASK_COUNTS`) so that a run can report, for each
thing the agents ask a model, how often it was asked and how often the rule took over.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

import attrs
import numpy as np

from mockllm import calllog
from mockllm.backend import ChatBackend, Message, takes_schema
from mockllm.mock import in_process
from mockllm.tasks import Task, known_key, plain_fields, prompt_context
from simcore.errors import BackendError, ParseError
from simcore.seeding import call_seed
from simcore.textsafe import well_formed

T = TypeVar("T")

#: a choice: a task answer is a sentence or a small JSON object; one million characters
#: is far beyond any of them and keeps a runaway answer away from the parsers
MAX_ANSWER_CHARS = 1_000_000

#: a choice: the rejected answer is quoted back to the model up to this many
#: characters (a runaway answer must not grow every repair prompt without bound)
MAX_QUOTED_CHARS = 2000

#: a choice kept from before repairs existed: one retry (two requests) per ask
DEFAULT_TRIES = 2

#: a choice: more tries than this multiplies a slow local model's run time for little gain
MAX_TRIES = 10

#: the refusal of an answer the server cut off at its token budget (see _interpret)
CUT_OFF = "the answer was cut off at its token budget (finish_reason 'length')"

#: a choice: the in-process answers a client remembers as checked (a negotiation says a few
#: hundred different things); when full, it starts again
MAX_KNOWN = 4096

#: The per-task counters, in report order.  ``asks``: answers the agents needed (one
#: ``ask``); ``calls``: requests sent to the backend; ``retries``: requests after the
#: first of an ask (repair conversations); ``first_try``: asks whose first answer was
#: accepted; ``repaired``: asks accepted on a retry; ``fallbacks``: asks answered by
#: the caller's rule; ``backend_errors``: asks whose backend call failed (each also a
#: fallback).  They are deterministic: latency (wall-clock time) is reported only to
#: the call observer (:mod:`mockllm.calllog`), never here.
TASK_COUNTS = ("asks", "calls", "retries", "first_try", "repaired", "fallbacks", "backend_errors")


def repair_messages(messages: Sequence[Message], answer: str, problem: str) -> tuple[Message, ...]:
    """The retry of ``messages`` after ``answer`` was rejected for ``problem``: the
    original prompt, the answer as the assistant's turn, and a user turn asking again.
    The prompt's first two messages are unchanged, so the mock still recognises it."""
    quoted = answer if len(answer) <= MAX_QUOTED_CHARS else answer[:MAX_QUOTED_CHARS] + "..."
    return (*messages, Message("assistant", quoted),
            Message("user", f"Your answer above was not accepted because: {problem}. "
                            "Answer again, exactly in the format the instructions give."))


def check_tries(tries: Any) -> int:
    """``tries`` as an int in [1, MAX_TRIES]; a ValueError naming the problem otherwise."""
    if isinstance(tries, bool) or not isinstance(tries, int) or not 1 <= tries <= MAX_TRIES:
        raise ValueError(f"tries must be an integer from 1 to {MAX_TRIES}, got {tries!r}")
    return tries


def _row() -> dict:
    return dict.fromkeys(TASK_COUNTS, 0)


@attrs.define
class CallStats:
    calls: int = 0
    retries: int = 0
    fallbacks: int = 0
    by_task: dict = attrs.field(factory=dict)
    #: backend failures (network, HTTP status, malformed response) answered by a fallback
    backend_errors: int = 0
    asks: int = 0
    first_try: int = 0
    repaired: int = 0

    def _bump(self, task_id: str, what: str) -> None:
        row = self.by_task.get(task_id)
        if row is None:
            row = self.by_task[task_id] = _row()
        row[what] += 1

    def count_fallback(self, task_id: str) -> None:
        """Count a fallback decided after the answer was read: the caller found the
        answer impossible in the negotiation's state (e.g. the dialogue protocol meets
        a reading that is no legal move of its speaker)."""
        self.fallbacks += 1
        self._bump(task_id, "fallbacks")

    def add(self, other: "CallStats") -> "CallStats":
        """Adds ``other``'s counts to these (in place); returns self."""
        for name in TASK_COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by_task = merge_by_task([self.by_task, other.by_task])
        return self

    def task_counts(self) -> dict:
        """``{task id: {counter: n}}`` with the task ids sorted (plain dicts: picklable, JSON)."""
        return merge_by_task([self.by_task])


def merge_by_task(tables: Iterable[Mapping[str, Mapping[str, int]]]) -> dict:
    """The sum of several ``{task id: {counter: n}}`` tables, task ids sorted."""
    out: dict[str, dict] = {}
    for table in tables:
        for task_id, row in table.items():
            acc = out.setdefault(task_id, _row())
            for name, n in row.items():
                acc[name] = acc.get(name, 0) + int(n)
    return {k: out[k] for k in sorted(out)}


@attrs.define
class ModelClient:
    backend: ChatBackend
    stats: CallStats = attrs.field(factory=CallStats)
    #: None: the backend's ``temperature`` attribute, else 0
    temperature: float | None = None
    #: requests per ask at most; None: the backend's ``answer_tries``, else DEFAULT_TRIES
    tries: int | None = None
    #: None (default): no record.  A list: every ask appends one dict, ``{"task": id,
    #: "prompt": [[role, content], ...], "answers": [{"text": answer, "refused": reason or
    #: None} or {"error": backend error}, ...], "value": the value taken or None,
    #: "fallback": whether the caller's fallback answered}`` (the caller drains it)
    exchanges: list | None = None
    #: why the caller's fallback answered the last ask that fell back (``"no answer was
    #: readable in 2 tries"``, ``"the backend failed (try 1 of 2)"``), for a fallback that
    #: says why; "" before any
    last_fallback: str = attrs.field(default="", init=False, eq=False)
    #: ``{(id(task), known_key(fields)): [task, plain fields?, (accepted value,) or None]}``: the
    #: contexts of tasks that ``knows_answers`` met in process, and the value taken from the
    #: mock's known answer to them (:meth:`~mockllm.tasks.Task.mock_answer_known`)
    _known: dict = attrs.field(factory=dict, init=False, repr=False, eq=False)

    def _open(self, task: Task, prompt: Sequence[Message] | None, context: Mapping[str, Any]) -> dict | None:
        """The record of one ask, appended to :attr:`exchanges` (None when not kept)."""
        if self.exchanges is None:
            return None
        if prompt is None:
            prompt = task.messages(**context)
        rec = {"task": task.id, "prompt": [[m.role, m.content] for m in prompt], "answers": [],
               "value": None, "fallback": False}
        self.exchanges.append(rec)
        return rec

    def _count(self, task_id: str, what: str) -> None:
        setattr(self.stats, what, getattr(self.stats, what) + 1)
        self.stats._bump(task_id, what)

    def ask(self, task: Task, rng: np.random.Generator, *, fallback: Callable[[], T] | None = None,
            **context: Any) -> Any:
        """Parsed answer of ``task`` for ``context``; the fallback after ``tries`` unreadable answers.

        "Unreadable" is whatever :meth:`~mockllm.tasks.Task.interpret` refuses: an answer
        its parser cannot read, or one naming what the scenario in the prompt lacks.

        The template mock's first try may skip the prompt text (:func:`mockllm.mock.in_process`):
        the same answer from the context it would have read back; a retry renders the prompt.
        For a task whose mock only reads its context (``mock_reads_fields``), plain fields
        go to the mock as they are (their JSON round trip is equal, type for type).
        For a task that ``knows_answers``, plain fields (JSON data of exact types,
        :func:`~mockllm.tasks.plain_fields`) go to the mock as they are, and the mock says
        whether its answer is *known* -- the template's exact reading of the fields, no noise
        drawn (:meth:`~mockllm.tasks.Task.mock_answer_known`): a known answer to fields
        (named type for type by :func:`~mockllm.tasks.known_key`) this client has accepted
        before is not parsed and checked again -- the text and the verdict are the same --
        and the caller gets a copy of the value taken then.  The counts, records and values
        are those of the full path; refused answers are never remembered."""
        backend = self.backend
        # what the first try sends: the in-process mock's context, or the rendered prompt (both
        # made before anything is counted: they raise what rendering raises)
        first = _in_process_first(self._known, task, context) if in_process(backend, task) else None
        prompt = None if first is not None else task.messages(**context)
        temperature = self.temperature
        if temperature is None:
            temperature = float(getattr(backend, "temperature", None) or 0.0)
        tries = self.tries if self.tries is not None else getattr(backend, "answer_tries", None)
        tries = DEFAULT_TRIES if tries is None else check_tries(tries)
        stats, task_id = self.stats, task.id
        row = stats.by_task.get(task_id)
        if row is None:
            row = stats.by_task[task_id] = _row()
        stats.asks += 1
        row["asks"] += 1
        rec = None if self.exchanges is None else self._open(task, prompt, context)
        extra = None  # the answer's JSON schema (None for free text), for a backend that can use it
        messages = prompt
        last: ParseError | None = None
        why = None  # (the backend's failure, when it ended the tries)
        observed = calllog._observer is not None  # (a call observer gets each call: _report)
        for attempt in range(tries):
            stats.calls += 1
            row["calls"] += 1
            if attempt:
                stats.retries += 1
                row["retries"] += 1
            start = time.monotonic() if observed else 0.0
            known = False
            try:
                if first is not None and not attempt:
                    direct, key, seen = first
                    if key is not None:
                        text, known = backend.answer_known(task, direct, call_seed(rng), key)
                    else:
                        text = backend.answer_context(task, direct, call_seed(rng))
                else:
                    if extra is None:
                        extra = {"schema": task.answer_schema(context)} if takes_schema(backend) else {}
                    text = backend.chat(messages, temperature=temperature, seed=call_seed(rng), **extra)
                    if type(text) is str:  # (any backend: text from outside, made encodable where it enters)
                        text = well_formed(text)
            except BackendError as exc:
                said = well_formed(str(exc))
                if observed:
                    _report(task_id, attempt, start, "backend_error", messages, 0, said, backend)
                if rec is not None:
                    rec["answers"].append({"error": said[:300]})
                # the backend already retried what may pass; the caller's rule takes over
                if fallback is None:
                    raise
                stats.backend_errors += 1
                row["backend_errors"] += 1
                why = f"the backend failed (try {attempt + 1} of {tries})"
                break
            if known and seen[2] is not None:  # this known answer was accepted before: the same verdict
                value = task.known_copy(seen[2][0])
            else:
                try:
                    value = _interpret(task, text, context, backend)
                except ParseError as exc:
                    if observed:
                        _report(task_id, attempt, start, "parse_error", messages, len(text), exc.problem, backend)
                    if rec is not None:
                        rec["answers"].append({"text": text, "refused": exc.problem})
                    last = exc
                    if prompt is None:
                        prompt = task.messages(**context)
                    # the retries are repair conversations through the backend's chat
                    messages = repair_messages(prompt, text, exc.problem)
                    continue
                if known:
                    seen[2] = (task.known_copy(value),)
            if observed:
                _report(task_id, attempt, start, "ok", messages, len(text), "", backend)
            if rec is not None:
                rec["answers"].append({"text": text, "refused": None})
                rec["value"] = value
            if attempt:
                stats.repaired += 1
                row["repaired"] += 1
            else:
                stats.first_try += 1
                row["first_try"] += 1
            return value
        if fallback is None:
            raise last  # type: ignore[misc]  # (only reached after parse errors)
        stats.fallbacks += 1
        row["fallbacks"] += 1
        if rec is not None:
            rec["fallback"] = True
        self.last_fallback = why or f"no answer was readable in {tries} {'try' if tries == 1 else 'tries'}"
        return fallback()


def _in_process_first(known: dict, task: Task, context: Mapping[str, Any]) -> tuple:
    """What the in-process mock's first try reads (:func:`mockllm.mock.in_process`):
    ``(context, key, seen)`` -- the caller's own fields where they are plain (equal, type for
    type, to what the mock reads back from the prompt) else their prompt rendering; for a task
    that ``knows_answers``, the fields' key and their entry in ``known`` (the client's
    :attr:`ModelClient._known`), else None and None."""
    fields = task.context_fields(context)
    seen = key = None
    if task.knows_answers:
        key = known_key(fields)
        if key is not None:
            seen = known.get((id(task), key))
            if seen is None or seen[0] is not task:  # first met: are the fields plain JSON data?
                if len(known) >= MAX_KNOWN:
                    known.clear()
                seen = known[(id(task), key)] = [task, plain_fields(fields), None]
            if not seen[1]:
                key = None
    if key is not None or (task.mock_reads_fields and plain_fields(fields)):
        return fields, key, seen
    return prompt_context(fields), key, seen


def _interpret(task: Task, text: str, context: Mapping[str, Any], backend: Any) -> Any:
    """The answer parsed and checked against its prompt (:meth:`Task.interpret`).  An answer
    the backend says was cut off at its token budget (its ``last_finish_reason`` is
    ``"length"``; recorded in cassettes, so a replay repairs with the same words) is refused whatever it says -- the model had not finished ("What
    cuisin" passes a check that only asks for a sentence) -- and the refusal names the
    parse problem too when there is one.  (The in-process mock's answers are never cut off.)"""
    cut = getattr(backend, "last_finish_reason", None) == "length"
    try:
        if len(text) > MAX_ANSWER_CHARS:
            raise ParseError(task.id, f"answer longer than {MAX_ANSWER_CHARS} characters", text[:200])
        value = task.interpret(text, context)
    except ParseError as exc:
        if cut:
            raise ParseError(task.id, f"{CUT_OFF}: {exc.problem}", text) from None
        raise
    if cut:
        raise ParseError(task.id, CUT_OFF, text)
    return value


def _report(task_id: str, attempt: int, start: float, result: str, messages: Sequence[Message],
            answer_chars: int, problem: str, backend: Any = None) -> None:
    """Report one backend call to the call observer (:mod:`mockllm.calllog`): one event per
    request it made.  A backend that keeps its requests (``last_requests``: the HTTP
    backend's ``(seconds, outcome, problem)`` of each) gets one event for each request it
    retried itself, with that request's duration and outcome (``timeout``,
    ``backend_error``), then the event of the last request, with the call's result; each
    then carries ``request`` (1, 2, ...).  Any other backend: one event, the call's
    wall-clock time."""
    if calllog._observer is None:
        return
    inner = getattr(backend, "inner", backend)  # (a recorder passes these on)
    prompt_chars = sum(len(m.content) for m in messages)
    requests = getattr(inner, "last_requests", None)
    latency = round(time.monotonic() - start, 4)
    event = {"task": task_id, "attempt": attempt + 1, "latency_s": latency, "result": result,
             "prompt_chars": prompt_chars, "answer_chars": answer_chars}
    if requests:
        for k, (seconds, outcome, said) in enumerate(requests[:-1], 1):
            calllog.report({"task": task_id, "attempt": attempt + 1, "request": k, "latency_s": seconds,
                            "result": outcome, "prompt_chars": prompt_chars, "answer_chars": 0,
                            **({"problem": said[:300]} if said else {})})
        seconds, outcome, _said = requests[-1]
        event["latency_s"] = seconds
        if len(requests) > 1:
            event["request"] = len(requests)
        if result == "backend_error" and outcome == "timeout":
            event["result"] = "timeout"
    if problem:
        event["problem"] = problem[:300]
    finish = getattr(backend, "last_finish_reason", None)
    if finish:
        event["finish_reason"] = finish
    usage = getattr(inner, "last_usage", None)
    if usage:
        event.update({k: v for k, v in usage.items()})
    calllog.report(event)
