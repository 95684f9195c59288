"""The one-method chat backend interface (in the spirit of Simon Willison's ``llm``)."""

from __future__ import annotations

import inspect
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

import attrs

from simcore import caches
from simcore.errors import InputError

ROLES = ("system", "user", "assistant")


@attrs.frozen
class Message:
    role: str = attrs.field(validator=attrs.validators.in_(ROLES))
    content: str = attrs.field(validator=attrs.validators.instance_of(str))

    def to_dict(self) -> dict:
        return {"role": self.role, "content": self.content}


def as_messages(messages: Any) -> Sequence[Message]:
    """``messages`` as :class:`Message` objects: each a Message or a dict with ``role`` and
    ``content`` (as OpenAI's API takes them); anything else is one InputError."""

    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence) or not messages:
        raise InputError("messages", type(messages).__name__, "expected a non-empty list of messages")
    out = []
    for k, m in enumerate(messages):
        if isinstance(m, Message):
            out.append(m)
            continue
        if isinstance(m, Mapping) and set(m) >= {"role", "content"}:
            try:
                out.append(Message(m["role"], m["content"]))
                continue
            except (TypeError, ValueError) as exc:
                raise InputError("messages", f"[{k}]", f"not a message ({exc.args[0] if exc.args else exc})") from None
        raise InputError("messages", f"[{k}]", f"expected a Message or a dict with role ({', '.join(ROLES)}) "
                                               f"and content, got {type(m).__name__}")
    return out


@runtime_checkable
class ChatBackend(Protocol):
    """Messages in, text out.

    ``seed`` makes a stochastic backend reproducible; a backend that cannot honour
    it (a remote model) passes it along where the server supports it.

    ``schema`` (optional) is the JSON schema the answer must satisfy, built by the task
    from the prompt's context (:meth:`mockllm.tasks.Task.answer_schema`), or None for a
    free-text answer.  A backend that can constrain its output sends it to the server
    (:class:`~mockllm.openai_compat.OpenAICompatBackend`); any other may ignore it (the
    mock does: its answers satisfy the schema by construction, which the tests check).
    A backend whose ``chat`` takes no ``schema`` argument still works: it is not sent
    one (:func:`takes_schema`); nor is one that sets ``uses_schema = False`` (the mock,
    which would ignore it: the client then spends nothing building it).
    """

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None, schema: Mapping[str, Any] | None = None) -> str: ...


_TAKES_SCHEMA: dict[type, bool] = caches.memo("mockllm.backend: whether a backend class takes a schema")


def takes_schema(backend: Any) -> bool:
    """Whether ``backend.chat`` accepts a ``schema`` keyword (or any keyword) and uses it."""
    if getattr(backend, "uses_schema", True) is False:
        return False
    kind = type(backend)
    known = _TAKES_SCHEMA.get(kind)
    if known is None:
        try:
            params = inspect.signature(backend.chat).parameters.values()
        except (TypeError, ValueError):
            params = ()
        known = _TAKES_SCHEMA[kind] = any(p.name == "schema" or p.kind is p.VAR_KEYWORD for p in params)
    return known
