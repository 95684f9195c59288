"""``--role ROLE=BACKEND``: one role's decisions played by a backend.

A role (:mod:`simcore.roles`) that names a ``task`` can be played by a backend instead of
its rule-based stand-in: the policy asks the role's task through a
:class:`~mockllm.client.ModelClient` of its own (so ``metrics.json``'s
``model_calls.by_task`` counts the role under its task id), and every answer the task
refuses -- after the client's repairs -- falls back, counted, to the stand-in's decision.

BACKEND is one of

* ``model``: the run's backend (``--backend`` with its arguments, or the ``--replay``
  cassette; a ``--record`` run records the role's requests in the same cassette), which
  speaks the words too;
* a backend id (``mock-v1``, ``mock-exact-v1``, ``openai-compat-v1``): a backend of the
  role's own, whatever speaks the words; its arguments come from ``--role-arg
  ROLE:KEY=VALUE`` (an OpenAI-compatible server needs ``base_url``; without ``model`` the
  command line takes the only model the server lists);
* an ``http://`` or ``https://`` URL: short for ``openai-compat-v1`` with that ``base_url``.

So ``--role mind.base=http://127.0.0.1:8765/v1`` puts Base's votes on a server while the
mock speaks every word, and with ``--base-url A --role mind.base=http://B/v1`` the words go
to server A and the role to server B.  A role on a server of its own is neither recorded nor
replayed (a cassette holds the run's backend): to record a role, put it on the run's backend.

A config's ``roles`` holds ``(role, backend)`` pairs, the backend as ``model``, an id, or an
id with its arguments, ``"openai-compat-v1 base_url=URL model=NAME"`` (:func:`backend_text`;
argument values hold no whitespace).  The API key is never an argument: it is read from the
environment variable ``api_key_env`` names, as for the run's backend.

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

from mockllm.client import ModelClient
from simcore.backends import build_backend, check_arg_names, http_settings, is_openai_compat
from simcore.errors import BackendError, InputError
from simcore.registry import resolve
from simcore.roles import roles

#: the BACKEND word for the run's own backend
MODEL = "model"


def playable(system: str | None = None) -> dict:
    """``{role id: task id}`` of the roles a backend can play (of ``system`` when given)."""

    return {r.id: r.task for r in roles(system) if r.task}


def split_backend(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A role's backend (``model``, an id, ``"ID KEY=VALUE ..."`` or an http(s) URL) as
    ``(id, ((key, value), ...))``; a URL is ``openai-compat-v1`` with that ``base_url``."""
    text = str(text).strip()
    if text.startswith(("http://", "https://")):
        return "openai-compat-v1", (("base_url", text),)
    head, *rest = text.split()
    args = []
    for part in rest:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise InputError("--role", text, f"{part!r} is not KEY=VALUE")
        args.append((key, value))
    return head, tuple(args)


def backend_text(backend_id: str, args=()) -> str:
    """The config's form of a role's own backend: the id, then ``KEY=VALUE`` for each argument."""
    return " ".join([backend_id, *(f"{k}={v}" for k, v in args)])


def parse_role_args(texts: Sequence[str]) -> dict:
    """``("ROLE:KEY=VALUE", ...)`` as ``{role: [(key, value), ...]}`` (order kept); InputError
    for text of another form."""
    out: dict[str, list] = {}
    for text in texts:
        role, _, rest = str(text).partition(":")
        key, sep, value = rest.partition("=")
        if not sep or not role.strip() or not key.strip():
            raise InputError("--role-arg", text, "expected ROLE:KEY=VALUE, e.g. mind.base:model=NAME")
        out.setdefault(role.strip(), []).append((key.strip(), value))
    return out


def parse_roles(pairs: Sequence[str], system: str, role_args: Sequence[str] = ()) -> tuple:
    """``("ROLE=BACKEND", ...)`` and ``("ROLE:KEY=VALUE", ...)`` checked, as sorted ``((role,
    backend), ...)`` (a backend of the role's own with its arguments, :func:`backend_text`);
    InputError (one line naming what is wrong) for an unknown or unplayable role, a role given
    twice, an unknown backend id or argument, a server without its address, or an argument
    for a role without a backend of its own.  Nothing is asked of a server here."""

    extra = parse_role_args(role_args)
    if not pairs and not extra:
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
        if backend == MODEL:
            if role in extra:
                raise InputError("--role-arg", role, f"{role} is on the run's backend ({role}={MODEL}): its "
                                                     "arguments are the run's --backend-arg")
            out[role] = MODEL
            continue
        backend_id, args = split_backend(backend)
        try:
            spec = resolve("backend", backend_id)
        except Exception as exc:  # noqa: BLE001 - UnknownIdError names the valid ids
            raise InputError("--role", pair, f"{MODEL!r} (the run's backend), a backend id or a server's "
                                             f"URL: {exc}") from None
        args = args + tuple(extra.get(role, ()))
        keys = [k for k, _ in args]
        for key, value in args:
            if keys.count(key) > 1:
                raise InputError("--role-arg", f"{role}:{key}", "given twice")
            if not value.strip() or any(c.isspace() for c in value):
                raise InputError("--role-arg", f"{role}:{key}", f"{value!r}: a value of a role's backend argument "
                                                                f"is one word, without spaces")
        try:
            check_arg_names(spec.id, args)
        except InputError as exc:
            raise InputError("--role-arg", f"{role}:{exc.field}", exc.problem) from None
        if (spec.meta or {}).get("network") and "base_url" not in keys:
            raise InputError("--role", pair, f"{spec.id} needs a server: give its address, {role}=http://HOST:PORT/v1 "
                                             f"(or --role-arg {role}:base_url=URL)")
        out[role] = backend_text(spec.id, args)
    for role in extra:
        if role not in out:
            raise InputError("--role-arg", role, f"{role} has no backend of its own: give --role {role}=BACKEND "
                                                 "(a backend id or a server's URL)")
    return tuple(sorted(out.items()))


def complete_roles(roles: Sequence, *, record: str | None = None, replay: str | None = None,
                   echo=None) -> tuple:
    """The command line's last step for ``roles`` (checked by :func:`parse_roles`), before any
    work: a role on a server of its own is refused with ``record`` or ``replay`` (a cassette
    holds the run's backend), and its arguments are completed as the run's backend's are
    (:func:`simcore.backends.http_settings`: without ``model``, the only model the server
    lists; the API key variable checked); every role's own backend is built once, so a bad
    argument value is one line here."""

    out = []
    for role, backend in roles:
        if backend == MODEL:
            out.append((role, backend))
            continue
        backend_id, args = split_backend(backend)
        if (resolve("backend", backend_id).meta or {}).get("network"):
            if record or replay:
                option = "--record" if record else "--replay"
                raise InputError(option, record or replay,
                                 f"a cassette holds the run's backend, not {role}'s server of its own: record it "
                                 f"with the role on the run's backend ({role}={MODEL} and --backend ...)")
            if is_openai_compat(backend_id):
                backend_id, args = http_settings(backend_id, args, backend_given=True, echo=echo,
                                                 model_option=f"--role-arg {role}:model")
        try:
            build_backend(backend_id, args)
        except InputError as exc:
            raise InputError("--role-arg", f"{role}:{exc.field}", exc.problem) from None
        except BackendError as exc:  # an argument value the backend refuses
            raise InputError("--role", role, str(exc)) from None
        out.append((role, backend_text(backend_id, args)))
    return tuple(out)


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

    backend = dict(roles).get(role_id)
    if backend is None:
        return None
    if backend == MODEL:
        chosen = run_backend
    else:

        chosen = build_backend(*split_backend(backend))
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
    backend_id, args = split_backend(backend)
    args = dict(args)
    return (backend_id + (f" at {args['base_url']}" if args.get("base_url") else "")
            + (f" (model {args['model']})" if args.get("model") else ""))


__all__ = ["MODEL", "playable", "split_backend", "backend_text", "parse_role_args", "parse_roles", "complete_roles",
           "check_roles", "role_client", "role_backend_label"]
