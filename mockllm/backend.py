"""The one-method chat backend interface (in the spirit of Simon Willison's ``llm``)."""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import attrs

ROLES = ("system", "user", "assistant")


@attrs.frozen
class Message:
    role: str = attrs.field(validator=attrs.validators.in_(ROLES))
    content: str = attrs.field(validator=attrs.validators.instance_of(str))

    def to_dict(self) -> dict:
        return {"role": self.role, "content": self.content}


@runtime_checkable
class ChatBackend(Protocol):
    """Messages in, text out.

    ``seed`` makes a stochastic backend reproducible; a backend that cannot honour
    it (a remote model) passes it along where the server supports it.
    """

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None) -> str: ...
