"""``adversarial-v1``: a backend that answers like a bad model, for fault-injection runs.

It answers each request as the exact mock would, except a share of them (``share``),
drawn per request from ``seed`` and the request's own text, so a run is reproducible
and byte-identical whatever the worker count.  Those it answers with

* for a task whose answer is structured (it has an answer schema): a random value that
  *satisfies the schema* -- real criteria, values, issues and options of the scenario,
  but not the ones the prompt calls for (a reading of Italian as "propose Chinese");
* for a free-text task: the mock's answer with its words shuffled, cut, or replaced by
  other words of the prompt.

Such answers pass any server-side schema constraint, so they are what a weak model
behind ``json_schema`` writes.  simcore must never crash on them: each is checked
against the scenario, retried, then a counted fallback (``benchmarks/adversarial_answers.py``
runs the campaign over the four systems; ``tests/language/test_adversarial_backend.py`` a small one).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any, Mapping, Sequence

from mockllm.backend import Message, as_messages
from mockllm.mock import MockBackend
from mockllm.tasks import read_prompt
from simcore.errors import InputError


def sample(schema: Mapping[str, Any], rnd: random.Random, words: Sequence[str] = ("x",), depth: int = 0) -> Any:
    """A random value satisfying ``schema`` (the subset :mod:`mockllm.schema` emits)."""
    if "anyOf" in schema:
        return sample(rnd.choice(schema["anyOf"]), rnd, words, depth)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rnd.choice(list(schema["enum"]))
    kind = schema.get("type", "string")
    if isinstance(kind, list):
        kind = rnd.choice(kind)
    if kind == "object":
        props = schema.get("properties", {})
        return {k: sample(v, rnd, words, depth + 1) for k, v in props.items()}
    if kind == "array":
        lo = int(schema.get("minItems", 0))
        hi = int(schema.get("maxItems", lo + 4))
        return [sample(schema.get("items", {}), rnd, words, depth + 1) for _ in range(rnd.randint(lo, max(lo, hi)))]
    if kind == "integer":
        return rnd.randint(int(schema.get("minimum", -5)), int(schema.get("maximum", 100)))
    if kind == "number":
        return round(rnd.uniform(float(schema.get("minimum", -5)), float(schema.get("maximum", 100))), 3)
    if kind == "boolean":
        return rnd.random() < 0.5
    if kind == "null":
        return None
    return " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 4)))


def _words(value: Any, out: list) -> list:
    if isinstance(value, str):
        out.extend(w for w in re.findall(r"[A-Za-z][\w'-]*", value) if len(w) > 1)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            out.append(str(k))
            _words(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _words(v, out)
    return out


def garble_text(answer: str, rnd: random.Random, words: Sequence[str]) -> str:
    """The mock's free-text answer, made wrong: words shuffled, cut or swapped for others."""
    toks = answer.split()
    how = rnd.randrange(3)
    if how == 0 and len(toks) > 2:
        head, rest = toks[:1], toks[1:]
        rnd.shuffle(rest)
        toks = head + rest
    elif how == 1 and toks:
        toks = toks[: rnd.randint(1, len(toks))]
    else:
        toks = [rnd.choice(words) if rnd.random() < 0.4 else t for t in toks]
    return " ".join(toks)


class AdversarialBackend:
    """The exact mock, except ``share`` of the requests answered as a bad model would."""

    uses_schema = False

    def __init__(self, share: float = 0.3, seed: int = 0):
        if not 0.0 <= share <= 1.0:

            raise InputError("--backend-arg", "share", f"must be within 0..1, got {share}")
        self.share, self.seed = float(share), int(seed)
        self.inner = MockBackend(exact=True)
        self.bad = 0

    def chat(self, messages: Sequence[Message], *, temperature: float = 0.0, seed: int | None = None) -> str:
        messages = as_messages(messages)
        answer = self.inner.chat(messages, temperature=temperature, seed=seed)
        digest = hashlib.sha256(json.dumps([self.seed, seed, [(m.role, m.content) for m in messages]])
                                .encode()).digest()
        rnd = random.Random(int.from_bytes(digest[:8], "big"))
        if rnd.random() >= self.share:
            return answer
        task, context = read_prompt(messages)
        words = _words(context, []) or ["x"]
        schema = task.answer_schema(context)
        self.bad += 1
        if schema is not None:
            return json.dumps(sample(schema, rnd, words))
        return garble_text(answer, rnd, words)
