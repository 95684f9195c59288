"""Conformance checks every registered policy and backend must pass.

In the spirit of Gymnasium's ``check_env`` and PettingZoo's ``api_test``:

* :func:`check_backend` -- every task prompt gets a string answer that the task's
  parser reads; the same seed gives the same text; for the mock at zero noise,
  ``parse(answer) == task.expected(context)`` (render/parse round trip); an unknown
  prompt is refused with :class:`UnrecognisedPrompt`.
* :func:`check_policy` -- the policy's protocol plays a short negotiation with it
  (``protocol.conformance_run(policy_id, seed)``); the protocol raises
  :class:`IllegalMove` on any illegal action; every event is a frozen
  :class:`Event` with JSON payloads; the same seed gives the identical transcript.

Each system's protocol is registered with an object providing
``conformance_run(policy_id: str, seed: int) -> Sequence[Event]``.
"""

from __future__ import annotations

import json

import attrs
import numpy as np

from mockllm.backend import Message
from mockllm.tasks import all_tasks
from simcore.errors import ParseError, UnrecognisedPrompt
from simcore.registry import Spec, make, resolve
from simcore.transcript import Event


class ConformanceError(AssertionError):
    pass


def _fail(what: str, msg: str):
    raise ConformanceError(f"{what}: {msg}")


def check_backend(backend, *, exact: bool = False, name: str = "backend", examples_per_task: int = 4) -> int:
    """Run the checks on a backend instance; return the number of prompts sent."""
    sent = 0
    for task in all_tasks().values():
        rng = np.random.default_rng(12345)
        for ctx in task.examples(rng)[:examples_per_task]:
            messages = task.messages(**ctx)
            a = backend.chat(messages, temperature=0.0, seed=7)
            b = backend.chat(messages, temperature=0.0, seed=7)
            sent += 2
            if not isinstance(a, str):
                _fail(name, f"task {task.id}: answer is {type(a).__name__}, not str")
            if a != b:
                _fail(name, f"task {task.id}: same seed gave different answers")
            try:
                parsed = task.interpret(a, ctx)  # parsed and checked against the prompt
            except ParseError as exc:
                _fail(name, f"task {task.id}: answer not parseable: {exc}")
            if exact:
                want = task.expected(ctx)
                if want is not None and parsed != want:
                    _fail(name, f"task {task.id}: parse(answer) = {parsed!r}, expected {want!r}")
    from mockllm.mock import MockBackend

    if isinstance(backend, MockBackend):  # the mock must refuse what no task produced
        try:
            backend.chat((Message("system", "You are a helpful assistant."), Message("user", "hi")), seed=1)
        except UnrecognisedPrompt:
            pass
        else:
            _fail(name, "accepted a prompt no task produced")
    return sent


def _check_events(what: str, events) -> None:
    if not events:
        _fail(what, "conformance run produced no events")
    for ev in events:
        if not isinstance(ev, Event):
            _fail(what, f"produced {type(ev).__name__}, not Event")
        if not attrs.has(type(ev)) or not type(ev).__attrs_attrs__:
            _fail(what, "events must be attrs classes")
        try:
            json.loads(ev.to_json())
        except (TypeError, ValueError) as exc:
            _fail(what, f"event payload is not JSON: {exc}")
        try:
            ev.text = ev.text  # type: ignore[misc]
        except attrs.exceptions.FrozenInstanceError:
            pass
        else:
            _fail(what, "Event is not frozen")


PROTOCOLS = {"mind": "travel-vote-v1", "astra": "alternating-offers-v1", "scorable": "scorable-v1",
             "dominance": "dominance-dialogue-v1"}


def check_policy(policy, *, system: str | None = None, role: str | None = None, seeds=(0, 1)) -> int:
    """Run the checks on a policy; return the number of events checked.

    ``policy`` is a registered id, or your own policy -- a class or factory, or a
    ``"package.module:Class"`` reference -- with ``system`` (``"mind"``, ``"astra"``) and, for
    ASTRA, ``role`` (``"agent"``, the default, or ``"partner"``): it is registered for the run
    under a temporary id and played by the system's protocol like a built-in one.  A failure
    raises :class:`ConformanceError` saying which check failed and how."""
    if isinstance(policy, str) and ":" not in policy:
        return _check_registered(policy, seeds)
    from simcore.argcheck import load_ref
    from simcore.registry import register, unregister

    if system not in PROTOCOLS:
        _fail(repr(policy), f"system must be one of {', '.join(PROTOCOLS)} for a policy that is not registered")
    obj = load_ref(policy, "policy") if isinstance(policy, str) else policy
    pid = "user-check-v1"
    meta = {"system": system, "protocol": PROTOCOLS[system], "role": role or ("agent" if system == "astra" else None)}
    register("policy", pid, obj, meta={k: v for k, v in meta.items() if v}, replace=True)
    try:
        return _check_registered(pid, seeds)
    except ConformanceError:
        raise
    except Exception as exc:  # the policy broke the protocol: say where
        _fail(f"{policy!r} ({system})", f"{type(exc).__name__}: {exc}")
    finally:
        unregister("policy", pid)


def _check_registered(policy_id: str, seeds) -> int:
    spec = resolve("policy", policy_id)
    protocol_id = spec.meta.get("protocol")
    if not protocol_id:
        _fail(policy_id, "registry entry has no meta['protocol']")
    pspec = resolve("protocol", protocol_id)
    runner = pspec.meta.get("conformance")  # a conformance runner registered beside the protocol
    protocol = Spec(kind="protocol", id=pspec.id, entry_point=runner).load()() if runner else \
        make("protocol", protocol_id)
    n = 0
    for seed in seeds:
        first = list(protocol.conformance_run(spec.id, seed))
        again = list(protocol.conformance_run(spec.id, seed))
        _check_events(spec.id, first)
        if [e.to_json() for e in first] != [e.to_json() for e in again]:
            _fail(spec.id, f"seed {seed}: two runs gave different transcripts")
        n += len(first)
    return n
