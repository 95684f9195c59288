"""Task prompts: one :class:`Task` per thing the agents ask a language model to do.

A task renders a prompt from named context fields and parses the model's answer.
Every prompt has the same layout, so a real model reads it as instructions and the
mock backend can recognise it:

    system:  "TASK: <task id>" on the first line, then the instructions
    user:    "### CONTEXT" and, on the next line, a JSON object of the fields in order;
             then a blank line, "### QUESTION" and the task's closing: the question it
             asks, the exact answer format and one short example answer

The prompt ends with what a model must do next (a small model follows the last lines
best).  The closing is the same text for every call of a task, so the mock recognises
a prompt exactly (the system text and the closing must be the task's own) and reads
the context back from the one JSON line.  The instructions are simcore's own words.

A task also carries the mock's answer rule (``mock_answer``), which sees only the
context parsed back out of the prompt text -- the same information a real model would
get -- and, when its answer is structured, the answer's JSON schema built from the
context (``answer_schema``, with enums of the scenario's real values), which an HTTP
backend sends as the request's ``response_format``.

A free-text answer (a message, a ``SAY:`` line, an utterance) is checked by
:meth:`Task.reject_echo`: an answer that repeats the prompt (its markers, the context's
JSON keys, the example answer) or states one of the context's private fields
(:meth:`Task.leaks`, e.g. a traveller's willingness) is a parse error.
"""

from __future__ import annotations

import copy
import importlib
import json
import marshal
import pkgutil
import re
from typing import Any, Mapping

import numpy as np

from mockllm import checks
from mockllm.backend import Message
from simcore import caches
from simcore.errors import ParseError, UnrecognisedPrompt
from simcore.jsontext import dumps_compact, loads
from simcore.once import Once
from simcore.textsafe import well_formed_data

CONTEXT_HEADER = "### CONTEXT"
QUESTION_HEADER = "### QUESTION"
TASK_PREFIX = "TASK: "
#: texts of the prompt's frame; a free-text answer containing one repeats the prompt
PROMPT_MARKERS = ("TASK:", CONTEXT_HEADER, QUESTION_HEADER, "Answer format:", "Example answer:")


_TASKS: dict[str, "Task"] = {}
_SYSTEM_CACHE: dict[tuple[str, str], Message] = caches.memo("mockllm.tasks: system messages by task and instructions")
_CLOSING_CACHE: dict[tuple[str, str, str, str], str] = caches.memo("mockllm.tasks: prompts' closing questions")
_dumps = dumps_compact  # the text of json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class Task:
    """Base class; subclasses set ``id``/``instructions``/``fields`` and implement
    ``parse`` and ``mock_answer``."""

    id: str = ""
    instructions: str = ""
    fields: tuple[str, ...] = ()
    #: the closing of the prompt: the question asked, the answer's exact format, and
    #: one short example answer (with made-up values, not the scenario's)
    question: str = ""
    answer_format: str = ""
    example: str = ""
    #: fields sent only when the caller gives them a value (not None), after ``fields``;
    #: a prompt without them is the task's prompt with none of them
    optional_fields: tuple[str, ...] = ()
    #: options of the mock backend this task reads, with their defaults
    mock_options: Mapping[str, Any] = {}
    #: the answer's token budget, sent as ``max_tokens`` by an HTTP backend (a choice:
    #: the mock's longest answers are about 330 characters, a sentence or a small JSON
    #: object; 256 tokens leave room for a wordier model and stop one that runs on)
    max_tokens: int = 256

    @property
    def system_text(self) -> str:
        return f"{TASK_PREFIX}{self.id}\n{self.instructions}"

    @property
    def closing_text(self) -> str:
        """The prompt's last block (after the context line), the same for every call."""
        key = (self.id, self.question, self.answer_format, self.example)
        text = _CLOSING_CACHE.get(key)
        if text is None:  # (a task with none of the three, e.g. a test's, has no closing)
            lines = [self.question] if self.question else []
            lines += [f"{label}: {part}" for label, part in (("Answer format", self.answer_format),
                                                             ("Example answer", self.example)) if part]
            text = _CLOSING_CACHE[key] = f"\n\n{QUESTION_HEADER}\n" + "\n".join(lines) if lines else ""
        return text

    def context_fields(self, context: Mapping[str, Any]) -> dict:
        """The fields of the prompt's context line, in order: every one of ``fields``
        (a TypeError naming those ``context`` lacks), then each optional field given a value."""
        try:
            fields = {name: context[name] for name in self.fields}
        except KeyError:
            missing = [f for f in self.fields if f not in context]
            raise TypeError(f"task {self.id}: missing context field(s) {missing}") from None
        for name in self.optional_fields:
            if context.get(name) is not None:
                fields[name] = context[name]
        return fields

    def messages(self, **context: Any) -> tuple[Message, Message]:
        body = _dumps(self.context_fields(context))
        key = (self.id, self.instructions)  # str hashes are cached: a cheap lookup
        system = _SYSTEM_CACHE.get(key)
        if system is None:
            system = _SYSTEM_CACHE[key] = Message("system", self.system_text)
        return system, Message("user", f"{CONTEXT_HEADER}\n{body}{self.closing_text}")

    def answer_schema(self, context: Mapping[str, Any]) -> dict | None:
        """The JSON schema of a structured answer to the prompt of ``context`` (enums of
        the scenario's real values, see :mod:`mockllm.schema`), or None for a free-text
        answer.  The base class has none."""
        return None

    def leaks(self, said: str, context: Mapping[str, Any]) -> str | None:
        """What private field of ``context`` the free-text answer ``said`` states, or None.
        The base class knows no private field."""
        return None

    def reject_echo(self, said: str, context: Mapping[str, Any], text: str) -> str:
        """``said`` unless it repeats the prompt or leaks a private field (a ParseError).

        Repeating the prompt: one of its frame's markers (``TASK:``, ``### CONTEXT`` ...),
        a key of the context JSON written as JSON (``"willingness":``), the example
        answer's words, or a placeholder of the answer format (``<your words>``).  A leak:
        whatever :meth:`leaks` finds.

        The example's words are compared as words (:func:`example_words`): the answer
        copies the example when its words, casefolded, hold the example's words in a row,
        whatever stands between them -- whitespace, punctuation, quotes -- and around them
        ("i take 2 rope and you take 1 rope !" copies "I take 2 rope and you take 1
        rope.").  An answer that shares words with the example but not all of them in
        order is no copy: the example's values are made up, and an answer about the
        scenario may well say "How about ..." or "since it suits how I travel"."""
        key = (self.id, self.fields, self.optional_fields, self.example, self.answer_format)
        rules = _ECHO_RULES.get(key)
        if rules is None:
            rules = _ECHO_RULES[key] = _echo_rules(self.fields + self.optional_fields, self.example,
                                                   self.answer_format)
        frame, keys, phrases, slots = rules
        if frame.search(said) is not None:  # a marker or a key is there: which, in this order
            for marker in PROMPT_MARKERS:  # as the prompt writes them ("our task: ..." is no echo)
                if marker in said:
                    raise ParseError(self.id, f"the answer repeats the prompt ({marker!r})", text)
            hit = keys.search(said) if keys is not None else None
            if hit is not None:
                raise ParseError(self.id, f"the answer repeats the prompt's context (the key {hit.group(1)!r})",
                                 text)
        folded = said.casefold()
        words = None
        for phrase, needed in phrases:
            # an answer holding the phrase's words holds each of them in its folded text:
            # the answer's words are found only then (the usual answer misses the first)
            for word in needed:
                if word not in folded:
                    break
            else:
                if words is None:
                    words = f" {' '.join(checks.WORD.findall(folded))} "
                if phrase in words:
                    raise ParseError(self.id, "the answer copies the prompt's example answer", text)
        for slot, low in slots:
            if low in folded:
                raise ParseError(self.id, f"the answer copies the answer format's placeholder {slot!r}", text)
        problem = self.leaks(said, context)
        if problem:
            raise ParseError(self.id, f"the answer leaks a private field: {problem}", text)
        problem = checks.runaway(said)
        if problem:
            raise ParseError(self.id, f"the answer is not a message: {problem}", text)
        return said

    def parse(self, text: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def check(self, parsed: Any, context: Mapping[str, Any], text: str) -> Any:
        """``parsed`` if it names only real values of the scenario in ``context`` (the
        prompt's own fields); else a :class:`ParseError`.  The base class checks nothing."""
        return parsed

    def interpret(self, text: str, context: Mapping[str, Any]) -> Any:
        """The model's answer to the prompt of ``context``, parsed and checked against it.

        The one place where every failure to read an answer becomes a :class:`ParseError`
        (which the client retries, then answers with the caller's counted fallback): a
        parser or a check that meets an answer nobody foresaw and raises anything else
        (a ``RecursionError``, an ``OverflowError``, a ``KeyError`` ...) must not end the
        run, because model output is never trusted.  The exception's type and message are
        kept in the ParseError's problem, so the fuzz tests still show where it came from.
        """
        try:
            if not isinstance(text, str):
                raise ParseError(self.id, f"the answer is a {type(text).__name__}, not text", repr(text)[:200])
            return self.check(self.parse(text), context, text)
        except ParseError:
            raise
        except Exception as exc:  # noqa: BLE001 - see the docstring
            raise ParseError(self.id, f"unreadable answer ({type(exc).__name__}: {exc})"[:300], text) from None

    def mock_answer(self, context: Mapping[str, Any], rng: np.random.Generator,
                    options: Mapping[str, Any]) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    #: whether the mock's answer only reads its context, never changes or keeps it (a subclass
    #: that says so sets it): the in-process client then hands plain fields (:func:`plain_fields`)
    #: to the mock as they are instead of their JSON round trip (the round trip costs an
    #: eighth of a Phase-1 proposal's ask)
    mock_reads_fields: bool = False

    #: whether :meth:`mock_answer_known` says when the mock's answer is known (a subclass
    #: that says so overrides it); the client then checks each known answer to a context
    #: once
    knows_answers: bool = False

    def mock_answer_known(self, context: Mapping[str, Any], rng: np.random.Generator,
                          options: Mapping[str, Any], key: bytes) -> tuple[str, bool]:
        """:meth:`mock_answer` for the plain fields ``context`` (:func:`plain_fields`), which
        :func:`known_key` names ``key``, and whether the answer is *known*: the template's
        exact reading of the context (no noise drawn), so that its text and the verdict of
        :meth:`interpret` on it are functions of the context's fields alone.
        :class:`~mockllm.client.ModelClient` then parses and checks a known answer to
        fields it has seen accepted no more (it copies the value it took, :meth:`known_copy`).
        ``context`` holds the caller's own objects: it must not be changed.  The base class
        knows nothing."""
        return self.mock_answer(context, rng, options), False

    def known_copy(self, value: Any) -> Any:
        """A copy of an accepted value that shares nothing mutable with it (for
        :meth:`mock_answer_known`'s memo: each caller gets its own)."""
        return copy.deepcopy(value)

    def examples(self, rng: np.random.Generator) -> list[dict]:
        """Context dicts that exercise the task (used by the conformance checks)."""
        return []

    def expected(self, context: Mapping[str, Any]) -> Any:
        """What ``parse`` must return for the mock's answer at zero noise, or None if
        there is no single right answer."""
        return None

    # helpers for subclasses -------------------------------------------------
    def load_json(self, text: str) -> Any:
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end < start:
            raise ParseError(self.id, "no JSON object", text)
        body = text[start:end + 1]
        try:
            # (a lone surrogate the model wrote as an escape becomes U+FFFD, as the backend's own do)
            return well_formed_data(body, loads(body))
        except json.JSONDecodeError as exc:
            raise ParseError(self.id, f"invalid JSON: {exc.msg}", text) from None
        except RecursionError:
            raise ParseError(self.id, "JSON nested too deeply", text) from None
        except ValueError as exc:  # e.g. an integer longer than Python converts (sys.int_info)
            raise ParseError(self.id, f"invalid JSON: {exc}", text) from None


_PHRASES: dict[str, tuple[str, ...]] = caches.memo("mockllm.tasks: an example answer's phrases")
_WORDS: dict[str, tuple[tuple[str, ...], ...]] = caches.memo("mockllm.tasks: an example answer's words")
_ECHO_RULES: dict[tuple, tuple] = caches.memo("mockllm.tasks: echo rules by task fields")
_PLACEHOLDER = re.compile(r"<[^<>\n]{1,200}>")  # a slot of an answer format, e.g. <your words>


def _echo_rules(fields, example: str, answer_format: str) -> tuple:
    """What :meth:`Task.reject_echo` looks for, built once per task: one pattern matching
    any frame marker or key, the context's keys written as JSON keys (one pattern), the
    example's phrases (each as its words between spaces, `` i take 2 rope ... ``, with its
    distinct words, longest first), the format's placeholders."""
    keys = (re.compile(r'"(' + "|".join(re.escape(f) for f in fields) + r')"\s*:') if fields else None)
    # one search finds whether any marker or key is there at all (the usual answer: none)
    frame = re.compile("|".join([re.escape(m) for m in PROMPT_MARKERS]
                                + ([keys.pattern] if keys is not None else [])))
    slots = tuple((slot, slot.casefold()) for slot in _PLACEHOLDER.findall(answer_format))
    phrases = tuple((f" {' '.join(words)} ", tuple(sorted(set(words), key=lambda w: (-len(w), w))))
                    for words in example_words(example))
    return frame, keys, phrases, slots


def example_words(example: str) -> tuple[tuple[str, ...], ...]:
    """The words (:data:`mockllm.checks.WORD`, casefolded) of each phrase an answer copying
    ``example`` would contain: the example itself without a leading label such as ``SAY:``,
    and, for a JSON example, each of its texts of three words or more (an ``utterance``)."""
    got = _WORDS.get(example)
    if got is None:
        got = _WORDS[example] = tuple(w for w in (tuple(checks.WORD.findall(p)) for p in _example_phrases(example))
                                      if w)
    return got


def _example_phrases(example: str) -> tuple[str, ...]:
    """The texts an answer copying ``example`` would contain (casefolded, whitespace collapsed):
    the example itself without a leading label such as ``SAY:``, and, for a JSON example,
    each of its texts of three words or more (an ``utterance``)."""
    got = _PHRASES.get(example)
    if got is None:
        texts = [re.sub(r"^[A-Z]+:\s*", "", example.strip())]
        try:
            data = loads(example) if example.lstrip().startswith("{") else None
        except ValueError:
            data = None
        stack = [data]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str) and len(item.split()) >= 3:
                texts.append(item)
        got = _PHRASES[example] = tuple(p for p in (" ".join(t.split()).casefold() for t in texts) if p)
    return got


def register_task(task: Task) -> Task:
    if task.id in _TASKS and type(_TASKS[task.id]) is not type(task):
        raise ValueError(f"task id {task.id!r} registered twice")
    _TASKS[task.id] = task
    _READS_BACK.clear()  # (a task replaced under its id is no longer what its prompts read back as)
    return task


def _import_task_modules() -> None:
    """Every module of the ``mockllm`` package, on first lookup: a task lives in one and
    registers itself when it is imported (a new system's tasks are found by being there)."""
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__, f"{__package__}."):
        importlib.import_module(info.name)


_load = Once(_import_task_modules)


def all_tasks() -> dict[str, Task]:
    _load()
    return dict(sorted(_TASKS.items()))


def get_task(task_id: str) -> Task:
    _load()
    try:
        return _TASKS[task_id]
    except KeyError:
        raise UnrecognisedPrompt(f"unknown task {task_id!r}; known: {', '.join(sorted(_TASKS))}") from None


def read_prompt(messages) -> tuple[Task, dict]:
    """Recognise a task prompt and parse its context back; raise on anything else."""
    if not messages:
        raise UnrecognisedPrompt("empty prompt: no messages")
    system = messages[0].content
    if messages[0].role != "system" or not system.startswith(TASK_PREFIX):
        raise UnrecognisedPrompt(
            "prompt not recognised: the first message must be a system message starting with "
            f"'{TASK_PREFIX}<task id>'; got {system[:60]!r}")
    end = system.find("\n")
    task_id = system[len(TASK_PREFIX):end if end >= 0 else None].strip()
    task = get_task(task_id)
    cached = _SYSTEM_CACHE.get((task.id, task.instructions))
    expected = cached.content if cached is not None else task.system_text
    if system != expected:
        raise UnrecognisedPrompt(f"prompt for task {task_id!r} does not match its template")
    # the context is the first user turn: a repair conversation (the rejected answer
    # and a request to answer again, see mockllm.client.repair_messages) follows it
    user = messages[1].content if len(messages) > 1 and messages[1].role == "user" else ""
    if not user.startswith(CONTEXT_HEADER + "\n"):
        raise UnrecognisedPrompt(f"prompt for task {task_id!r} has no '{CONTEXT_HEADER}' block")
    closing = task.closing_text
    end = len(user) - len(closing)
    if not user.endswith(closing) or user.find("\n", len(CONTEXT_HEADER) + 1, end) >= 0:
        # (the context is one line of JSON: its text never holds a newline)
        raise UnrecognisedPrompt(f"prompt for task {task_id!r}: the block after the context is not "
                                 f"the task's '{QUESTION_HEADER}' closing")
    try:
        context = loads(user[len(CONTEXT_HEADER) + 1:end])
    except (json.JSONDecodeError, RecursionError):
        raise UnrecognisedPrompt(f"prompt for task {task_id!r}: context is not a JSON object") from None
    if not isinstance(context, dict):
        raise UnrecognisedPrompt(f"prompt for task {task_id!r}: context is not a JSON object")
    missing = [f for f in task.fields if f not in context]
    if missing:
        raise UnrecognisedPrompt(f"prompt for task {task_id!r} lacks field(s) {missing}")
    return task, context


_SCALARS = frozenset((str, int, float, bool, type(None)))
#: ints below this in size are written as JSON text whatever ``sys.set_int_max_str_digits``
#: says (at most 603 digits; the limit cannot be set below 640): a larger one may make the
#: prompt's rendering raise, so it is never taken as plain
_INT_BOUND = 1 << 2000


def prompt_context(fields: dict) -> dict:
    """The context :func:`read_prompt` reads back from the prompt of ``fields`` (what
    :meth:`Task.context_fields` gives): ``loads(dumps_compact(fields))``, raising what the
    prompt's rendering raises.  When every value is a str, int (below :data:`_INT_BOUND`),
    float, bool or None (those exact types), the JSON round trip gives an equal dict of the
    same types, so ``fields`` itself is returned."""
    for value in fields.values():
        kind = type(value)
        if kind not in _SCALARS or (kind is int and not -_INT_BOUND < value < _INT_BOUND):
            return loads(_dumps(fields))
    return fields


#: a choice: JSON data nested deeper than this is not walked by :func:`plain_fields`
_PLAIN_DEPTH = 16


def _plain(value: Any, depth: int) -> bool:
    """Whether ``value`` (not a scalar) is a dict or list of plain JSON data (see :func:`plain_fields`)."""
    if depth <= 0:
        return False
    kind = type(value)
    if kind is dict:
        for key in value:
            if type(key) is not str:
                return False
        items = value.values()
    elif kind is list:
        items = value
    else:
        return False
    scalars = _SCALARS
    for item in items:
        kind = type(item)
        if kind is int:
            if not -_INT_BOUND < item < _INT_BOUND:
                return False
        elif kind not in scalars and not _plain(item, depth - 1):
            return False
    return True


def plain_fields(fields: dict) -> bool:
    """Whether every value of ``fields`` is JSON data of exact types -- str, int (below
    :data:`_INT_BOUND`), float, bool, None, and dicts (str keys) and lists of them, at most
    :data:`_PLAIN_DEPTH` deep.  Then :func:`prompt_context` would give an equal dict of the
    same types (and the prompt's rendering raises nothing), so the mock may read them as
    they are."""
    for value in fields.values():
        kind = type(value)
        if kind is int:
            if not -_INT_BOUND < value < _INT_BOUND:
                return False
        elif kind not in _SCALARS and not _plain(value, _PLAIN_DEPTH):
            return False
    return True


def known_key(fields: dict) -> bytes | None:
    """A key naming ``fields`` type for type, or None: their :mod:`marshal` text (format 0:
    no references, no interning marks, so it depends on the values alone).  marshal writes
    only objects of exact built-in types (a subclass of int or str is refused; an object
    with the buffer protocol is written as bytes) and writes each type with its own code
    (``True``, ``1`` and ``1.0`` differ, and ``0.0`` and ``-0.0``; a list is not a tuple;
    dict keys in order), and its text reads back as the value it was written from: equal
    keys mean the same fields, type for type (any NaN reads back as a NaN).  Whether the
    fields are plain JSON data is :func:`plain_fields`' question: plain data is written
    with the codes of plain types only, so a key of plain fields is only ever a key of
    the same plain fields (bytes and a bytearray may share a key: neither is plain)."""
    try:
        return marshal.dumps(fields, 0)
    except Exception:  # noqa: BLE001 - an object marshal does not write (a subclass, a class instance ...),
        return None  # or too deep: no key, and the context takes the prompt's JSON round trip


_READS_BACK: dict[int, tuple[Task, bool]] = caches.memo("mockllm.tasks: whether a task's prompts read back as it")  # id(task) -> (task, whether its prompts read back as it)


def reads_back(task: Task) -> bool:
    """Whether :func:`read_prompt` recognises ``task``'s prompts as ``task`` itself (it is the
    task registered under its id, and a prompt it renders is read back as that task):
    then the mock's answer may be computed from :func:`prompt_context` without the text
    (:func:`mockllm.mock.in_process`).  Checked once per task (again after any
    :func:`register_task`)."""
    got = _READS_BACK.get(id(task))  # (by id: a task need not be hashable)
    if got is not None and got[0] is task:
        return got[1]
    if _TASKS.get(task.id) is not task:  # not registered (not kept: a registered one is)
        return False
    kind = type(task)
    # the prompt must be the base class's rendering of context_fields (no override)
    known = (kind.messages is Task.messages and kind.context_fields is Task.context_fields
             and kind.system_text is Task.system_text and kind.closing_text is Task.closing_text)
    if known:
        try:
            read, _ = read_prompt(task.messages(**dict.fromkeys(task.fields)))
        except Exception:  # noqa: BLE001 - any failure: not this shortcut's to explain
            read = None
        known = read is task
    _READS_BACK[id(task)] = (task, known)  # (the task kept, so its id is not reused)
    return known


def all_mock_options() -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for task in all_tasks().values():
        opts.update(task.mock_options)
    return opts

