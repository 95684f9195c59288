"""Fuzzing the model's answers: do parsers or runs crash on what a model may say?

Two campaigns, both deterministic (``random.Random(seed)``), no timing:

1. ``parsers``: mutated answers (the mock's answers to every task's examples, with JSON
   parts replaced by names of the scenario or odd values, cut, reversed, deeply nested,
   overlong numbers ...) through every task's ``parse`` and, where the code has it,
   ``interpret`` (parse + scenario check).  Counts answers that raised anything but a
   ParseError.
2. ``runs``: small studies of every system recorded from the mock to a cassette, about
   8% of the answers mutated (half of them given again to the retry, as a model that
   answers a prompt badly twice), replayed in-process; a request the mutated run makes
   that the cassette lacks is answered by the mock.  Counts runs that raised.

    PYTHONPATH=. python benchmarks/fuzz_model_output.py [--inputs 55000] [--runs 25]

Results: benchmarks/results-fuzz-model-output.md.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import os
import random
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mockllm.backend import Message  # noqa: E402
from mockllm.cassette import request_key  # noqa: E402
from mockllm.mock import MockBackend  # noqa: E402
from mockllm.tasks import all_tasks  # noqa: E402
from simcore.errors import ParseError  # noqa: E402

DEEP = '{"a": ' + "[" * 50_000 + "]" * 50_000 + "}"
LONG = '{"a": 1' + "0" * 5000 + "}"


def _words(v, out):
    if isinstance(v, str):
        out.append(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            out.append(k)
            _words(x, out)
    elif isinstance(v, list):
        for x in v:
            _words(x, out)
    return out


def _edit(v, rnd, words):
    if isinstance(v, dict) and v and rnd.random() < 0.6:
        k = rnd.choice(list(v))
        if rnd.random() < 0.25:
            return {kk: vv for kk, vv in v.items() if kk != k}
        return {**v, k: _edit(v[k], rnd, words)}
    if isinstance(v, list) and v and rnd.random() < 0.6:
        i = rnd.randrange(len(v))
        return v[:i] + [_edit(v[i], rnd, words)] + v[i + 1:]
    return rnd.choice([None, True, 0, -1, 10 ** 400, 1e308, "", rnd.choice(words), [], {}, "x" * 50, 3.5, 99,
                       [rnd.choice(words)], {rnd.choice(words): rnd.choice(words)}])


def mutate(text: str, context, rnd: random.Random) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    words = _words(context, []) + (_words(data, []) if data is not None else []) or ["x"]
    r = rnd.random()
    if r < 0.02:
        return DEEP
    if r < 0.04:
        return LONG
    if data is not None and r < 0.8:
        return json.dumps(_edit(data, rnd, words))
    cut = rnd.randrange(len(text) + 1)
    return rnd.choice([text[:cut], text[cut:], text.upper(), text[::-1], text.replace('"', "'"), "", text + text,
                       rnd.choice(words)])


def parsers(n: int, seed: int = 0) -> dict:
    mock = MockBackend()
    examples = [(t, ctx, mock.chat(t.messages(**ctx), seed=k))
                for t in all_tasks().values() for k, ctx in enumerate(t.examples(np.random.default_rng(3)))]
    rnd = random.Random(seed)
    crashes = {"parse": collections.Counter(), "interpret": collections.Counter()}
    for i in range(n):
        task, ctx, answer = examples[i % len(examples)]
        text = mutate(answer, ctx, rnd)
        calls = [("parse", lambda: task.parse(text))]
        if hasattr(task, "interpret"):
            calls.append(("interpret", lambda: task.interpret(text, ctx)))
        for name, call in calls:
            try:
                call()
            except ParseError:
                pass
            except Exception as exc:  # noqa: BLE001 - what we count
                crashes[name][f"{task.id}: {type(exc).__name__}"] += 1
    return {"inputs": n, **{k: dict(v) for k, v in crashes.items()}}


class StubbornCassette:
    """Answers from a mutated cassette; a mutated answer is given again to its retry; a
    request the cassette lacks is answered by the mock."""

    def __init__(self, cassette: str = "", exact: bool = False):
        self.mock = MockBackend(exact=exact)
        self.answers, self.again = {}, {}
        with open(cassette, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                self.answers.setdefault(row["key"], row["response"])
                if row.get("again"):
                    msgs = tuple(Message(m["role"], m["content"]) for m in row["messages"])
                    self.again.setdefault(request_key(msgs, 0.0, None), row["response"])

    def chat(self, messages, *, temperature=0.0, seed=None):
        got = self.answers.get(request_key(messages, temperature, seed))
        if got is None:
            got = self.again.get(request_key(messages, 0.0, None))
        return got if got is not None else self.mock.chat(messages, temperature=temperature, seed=seed)


SYSTEMS = {
    "mind": ("simcore.systems.mind", "MindConfig", dict(groups=2, sizes=(3,))),
    "scorable": ("simcore.systems.scorable", "ScorableConfig", dict(trials=1, methods=("llm-pe-all", "proposed-p1"))),
    "astra": ("simcore.systems.astra", "AstraConfig", dict(episodes=1)),
    "dominance": ("simcore.systems.dominance", "DominanceConfig", dict(dialogues=1)),
}


def runs(per_system: int, seed: int = 0) -> dict:
    from simcore.registry import register, unregister
    from simcore.study import run_study

    out = {}
    register("backend", "stubborn-cassette-fuzz-v1", StubbornCassette, replace=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for system, (module, cname, kw) in SYSTEMS.items():
                cls = getattr(importlib.import_module(module), cname)
                study = f"{module}:STUDY"
                cassette = os.path.join(tmp, f"{system}.jsonl")
                run_study(study, cls(seed=seed, record=cassette, **kw), out_dir=os.path.join(tmp, f"{system}-rec"))
                rows = [json.loads(line) for line in open(cassette, encoding="utf-8")]
                aborted = collections.Counter()
                for k in range(per_system):
                    rnd = random.Random(1000 * seed + k)
                    path = os.path.join(tmp, f"{system}-m{k}.jsonl")
                    with open(path, "w", encoding="utf-8") as fh:
                        for row in rows:
                            if rnd.random() < 0.08:
                                ctx = json.loads(row["messages"][-1]["content"].split("\n", 1)[1])
                                row = {**row, "response": mutate(row["response"], ctx, rnd), "again": rnd.random() < 0.5}
                            fh.write(json.dumps(row) + "\n")
                    cfg = cls(seed=seed, backend="stubborn-cassette-fuzz-v1", **kw,
                              backend_args=(("cassette", path), ("exact", str(system == "dominance"))))
                    try:
                        run_study(study, cfg, out_dir=os.path.join(tmp, f"{system}-r{k}"))
                    except Exception as exc:  # noqa: BLE001 - what we count
                        aborted[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1
                out[system] = {"runs": per_system, "aborted": sum(aborted.values()), "why": dict(aborted)}
    finally:
        unregister("backend", "stubborn-cassette-fuzz-v1")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", type=int, default=55_000)
    ap.add_argument("--runs", type=int, default=25, help="mutated replays per system")
    args = ap.parse_args()
    print(json.dumps({"parsers": parsers(args.inputs), "runs": runs(args.runs)}, indent=1))


if __name__ == "__main__":
    main()
