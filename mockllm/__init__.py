"""The language layer: chat backends, task prompts and their parsers.

``mockllm`` turns structured intents into words and words into structured cues.  It
never decides anything: decisions live in :mod:`policies`.  Every backend implements
the one-method :class:`~mockllm.backend.ChatBackend` protocol, so the deterministic
:class:`~mockllm.mock.MockBackend` and a real model behind
:class:`~mockllm.openai_compat.OpenAICompatBackend` are interchangeable.
"""

from mockllm.backend import ChatBackend, Message
from mockllm.client import CallStats, ModelClient

__all__ = ["ChatBackend", "Message", "ModelClient", "CallStats"]
