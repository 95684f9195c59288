"""``--role ROLE=BACKEND``: one role's decisions played by a backend (issue 20).

A role (:mod:`simcore.roles`) that names a ``task`` can be played by a backend instead of
its rule-based stand-in: the policy asks the role's task through a
:class:`~mockllm.client.ModelClient` of its own (so ``metrics.json``'s
``model_calls.by_task`` counts the role under its task id), and every answer the task
refuses -- after the client's repairs -- falls back, counted, to the stand-in's decision.

BACKEND is ``model`` (the run's backend: ``--backend`` with its arguments, or the
``--replay`` cassette; a ``--record`` run records the role's requests in the same
cassette) or the id of a backend that needs no server (``mock-v1``, ``mock-exact-v1``).
A backend that needs a server plays a role only as the run's backend (``--backend
openai-compat-v1 ... --role ROLE=model``): one server and one set of arguments per run.

The mock answers a role's task with the stand-in's own decision, read from the prompt's
context, so a run with the mock in a role gives the stand-in run's results.

The decisions of astra.tactic, astra.partner, mind.base and scorable.negotiator carry, in
their transcript events, the exchange behind them (``hidden.model_decisions``: the prompt, the raw answers,
the parsed value, the repairs and any fallback; :mod:`mockllm.exchanges`), for
``simcore report``'s step-through and ``simcore show``.

Each role's calls draw their seeds from a generator of their own (``child(episode
sequence, "role", ROLE)``), so putting a role on a backend leaves every other draw of
the run as it was.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from simcore.errors import InputError

#: the BACKEND word for the run's own backend
MODEL = "model"


def playable(system: str | None = None) -> dict:
    """``{role id: task id}`` of the roles a backend can play (of ``system`` when given)."""
    from simcore.roles import roles

    return {r.id: r.task for r in roles(system) if r.task}


def parse_roles(pairs: Sequence[str], system: str) -> tuple:
    """``("ROLE=BACKEND", ...)`` checked, as sorted ``((role, backend), ...)``; InputError
    (one line naming what is wrong) for an unknown or unplayable role, a role given twice,
    an unknown backend id or a backend that needs a server."""
    from simcore.registry import resolve

    if not pairs:
        return ()
    valid = playable(system)
    out: dict[str, str] = {}
    for pair in pairs:
        role, sep, backend = (part.strip() for part in str(pair).partition("="))
        if not sep or not role or not backend:
            raise InputError("--role", pair, "expected ROLE=BACKEND, e.g. astra.tactic=model")
        if role not in valid:
            known = ", ".join(sorted(valid)) or "none"
            raise InputError("--role", role, f"not a role a backend can play in {system}; valid: {known} "
                                             f"(`simcore roles {system}` lists every role)")
        if role in out:
            raise InputError("--role", role, "given twice")
        if backend != MODEL:
            try:
                spec = resolve("backend", backend)
            except Exception as exc:  # noqa: BLE001 - UnknownIdError names the valid ids
                raise InputError("--role", pair, f"{MODEL!r} (the run's backend) or a backend id: {exc}") from None
            if (spec.meta or {}).get("network"):
                raise InputError("--role", pair, f"{spec.id} needs a server: give it as the run's backend "
                                                 f"(--backend {spec.id} ...) and the role as {role}={MODEL}")
            backend = spec.id
        out[role] = backend
    return tuple(sorted(out.items()))


def check_roles(value: Any, system: str) -> tuple:
    """A config's ``roles`` field (pairs or a mapping) checked as :func:`parse_roles` does."""
    items = value.items() if isinstance(value, Mapping) else value
    return parse_roles([f"{k}={v}" for k, v in items], system)


def role_client(roles: Sequence, role_id: str, run_backend, *, temperature: float | None = None,
                record: bool = False):
    """The :class:`~mockllm.client.ModelClient` of ``role_id`` when ``roles`` puts it on a
    backend, else None.  ``temperature``: the role's sampling temperature (None: the
    backend's, as for the words).  ``record``: the client keeps a record of each ask
    (:attr:`~mockllm.client.ModelClient.exchanges`), for a role that drains it into its
    decisions' transcript events (:mod:`mockllm.exchanges`)."""
    from mockllm.client import ModelClient

    backend = dict(roles).get(role_id)
    if backend is None:
        return None
    if backend == MODEL:
        chosen = run_backend
    else:
        from simcore.backends import build_backend

        chosen = build_backend(backend)
    return ModelClient(chosen, temperature=temperature, exchanges=[] if record else None)


def role_backend_label(config: Any, role_id: str) -> str | None:
    """What plays ``role_id`` in a run of ``config`` (its ``roles``, ``backend`` and
    ``backend_args``), for a table heading -- "the run's backend openai-compat-v1 (model M)",
    "mock-v1" -- or None when its stand-in does."""
    backend = dict(getattr(config, "roles", ()) or ()).get(role_id)
    if backend is None:
        return None
    if backend == MODEL:
        model = dict(getattr(config, "backend_args", ()) or ()).get("model")
        return f"the run's backend {config.backend}" + (f" (model {model})" if model else "")
    return backend


__all__ = ["MODEL", "playable", "parse_roles", "check_roles", "role_client", "role_backend_label"]
