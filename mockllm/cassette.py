"""Record a run made with any backend and replay it offline, byte-identically.

A cassette is a JSON Lines file; each line holds one exchange:
``{"key": <sha256 of the request>, "messages": [...], "temperature": t, "seed": s,
"response": "..."}``.  The key covers the messages, temperature and seed, so replay
returns exactly what the backend said to exactly that request.  Nothing else (no
API key, no headers) is stored.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Sequence

from mockllm.backend import ChatBackend, Message
from simcore.errors import BackendError, InputError


def request_key(messages: Sequence[Message], temperature: float, seed: int | None) -> str:
    blob = json.dumps({"messages": [m.to_dict() for m in messages], "temperature": temperature,
                       "seed": seed}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class RecordingBackend:
    """Passes every request to ``inner`` and appends the exchange to ``path``."""

    def __init__(self, inner: ChatBackend, path: str):
        self.inner = inner
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None) -> str:
        response = self.inner.chat(messages, temperature=temperature, seed=seed)
        line = {"key": request_key(messages, temperature, seed),
                "messages": [m.to_dict() for m in messages], "temperature": temperature,
                "seed": seed, "response": response}
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
        return response


class ReplayBackend:
    """Answers from a cassette; a request it has not seen is a clear error."""

    def __init__(self, path: str):
        self.path = path
        self.responses: dict[str, str] = {}
        try:
            with open(path, encoding="utf-8") as fh:
                for lineno, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                        self.responses[row["key"]] = row["response"]
                    except (json.JSONDecodeError, KeyError, TypeError):
                        raise InputError(path, f"line {lineno}", "not a cassette entry "
                                         "(needs JSON with 'key' and 'response')") from None
        except OSError as exc:
            raise InputError(path, "", exc.strerror or str(exc)) from None
        except UnicodeDecodeError:
            raise InputError(path, "", "not UTF-8 text") from None

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0,
             seed: int | None = None) -> str:
        key = request_key(messages, temperature, seed)
        try:
            return self.responses[key]
        except KeyError:
            first = messages[0].content.split("\n", 1)[0] if messages else ""
            raise BackendError(f"{self.path}: no recorded response for this request "
                               f"({first!r}, seed={seed}); re-record the cassette") from None
