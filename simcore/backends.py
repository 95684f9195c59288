"""Building a study's chat backend from command-line words.

``--backend ID`` names a registered backend (``mock-v1``, ``mock-exact-v1``,
``openai-compat-v1``); ``--backend-arg KEY=VALUE`` passes its constructor arguments
(for the HTTP backend: ``base_url``, ``model``, ``api_key_env``, ``timeout``, ...; the
API key itself is only ever read from the environment); each value is converted to the
type the constructor's annotation names (``max_tokens=128`` becomes the integer 128,
``stream=true`` a bool, ``max_tokens=none`` None), and text that is not of that type is
refused before the run.  ``--record PATH`` wraps the
backend in a :class:`~mockllm.cassette.RecordingBackend`; ``--replay PATH`` answers
from a cassette instead of any backend, byte-identically, offline; a request the
cassette lacks stops the run unless ``replay_misses="fallback"``.

:func:`http_settings` completes the HTTP backend's arguments the way people expect
(``--model`` / ``--base-url``, ``$OPENAI_BASE_URL``, the server's only model), and
:func:`check_backend_files` checks the ``--record`` and ``--log-calls`` paths; the
command line runs both before any work (:func:`simcore.cli_options.backend_settings`).
"""

from __future__ import annotations

import inspect
import inspect as _inspect
import os
from typing import Any, Callable, Mapping, Sequence

from mockllm.cassette import RecordingBackend, ReplayBackend, check_header, looks_like_cassette, read_header
from mockllm.openai_compat import (BASE_URL_ENV, DEFAULT_KEY_ENV, MODELS_TIMEOUT, REDACTED, OpenAICompatBackend,
                                   auth_header, list_models)
from simcore.errors import BackendError, InputError
from simcore.files import RUN_FILES, SWEEP_FILES
from simcore.registry import make, registered, resolve


def parse_backend_args(pairs: Sequence[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError("--backend-arg", pair, "expected KEY=VALUE")
        out.append((key.strip(), value))
    return tuple(out)


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _kinds(annotation: Any, default: Any) -> tuple[str, ...]:
    """The type names a constructor argument accepts, from its annotation (a string
    under ``from __future__ import annotations``, e.g. ``"int | None"``), else from the
    type of its default."""
    if isinstance(annotation, str) and annotation:
        return tuple(part.strip() for part in annotation.replace("Optional[", "").rstrip("]").split("|"))
    if annotation is not inspect.Parameter.empty and isinstance(annotation, type):
        return (annotation.__name__,)
    if default is None or default is inspect.Parameter.empty:
        return ()
    return (type(default).__name__,)


def _convert(value: str, annotation: Any = inspect.Parameter.empty, default: Any = None) -> Any:
    """``value`` (command-line text) as the type the constructor argument expects: an
    ``int`` argument gets an int (``max_tokens=128`` is sent as 128, not "128"), a
    ``float`` a float, a ``bool`` a bool, an optional one None for ``none``; a ValueError
    when the text is not of that type."""
    kinds = _kinds(annotation, default)
    text = value.strip()
    if "None" in kinds and text.lower() in ("none", "null"):
        return None
    if "bool" in kinds:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(value)
    if "int" in kinds:
        try:
            return int(text)
        except ValueError:
            if "float" not in kinds:
                raise
    if "float" in kinds:
        return float(text)
    return value


def check_arg_names(backend_id: str, args: Sequence[tuple[str, str]] = ()) -> Mapping[str, inspect.Parameter]:
    """The constructor parameters of backend ``backend_id``; InputError for an argument
    in ``args`` that is none of them."""
    spec = resolve("backend", backend_id)
    params = inspect.signature(spec.load()).parameters
    for key, _value in args:
        if key not in params or key == "self":
            valid = ", ".join(p for p in params if p != "self")
            raise InputError("--backend-arg", key, f"not an argument of {spec.id}; valid: {valid}")
    return params


def build_backend(backend_id: str, args: Sequence[tuple[str, str]] = (), *, record: str | None = None,
                  replay: str | None = None, mock_options: Mapping[str, Any] | None = None,
                  replay_misses: str = "error"):
    """The backend a study run uses.  ``mock_options`` (such as ``tone_noise``) apply only
    to the noisy mock (``mock-vN``)."""

    if replay:
        return ReplayBackend(replay, misses=replay_misses)
    spec = resolve("backend", backend_id)
    params = check_arg_names(backend_id, args)
    kwargs: dict[str, Any] = {}
    for key, value in args:
        param = params[key]
        try:
            kwargs[key] = _convert(value, param.annotation, param.default)
        except ValueError:
            want = " or ".join(k for k in _kinds(param.annotation, param.default) if k != "None") or "text"
            raise InputError("--backend-arg", key, f"cannot read {value!r} as {want}") from None
    if spec.name == "mock":  # the noisy mock takes the study's noise; mock-exact keeps zero
        kwargs = {**(mock_options or {}), **kwargs}
    try:
        backend = make("backend", spec.id, **kwargs)
    except (TypeError, ValueError) as exc:
        raise InputError("--backend", spec.id, str(exc)) from None
    if not record:
        return backend
    meta = {"backend": spec.id, "model": getattr(backend, "model", None),
            "backend_args": [list(a) for a in args]}
    return RecordingBackend(backend, record, meta)


def backend_identity(backend_id: str, args: Sequence[tuple[str, str]] = (), replay: str | None = None) -> dict:
    """``metrics["backend"]``: the backend id and model a run's answers came from; for a
    replay, those the cassette was recorded with (``null`` when its header lacks them)."""
    if replay:

        meta = read_header(replay) or {}
        return {"id": meta.get("backend"), "model": meta.get("model")}
    return {"id": backend_id, "model": dict(args).get("model")}


# ---------------------------------------------------------------- the HTTP backend's settings

#: a choice: a key shorter than this is likely a placeholder ("x", "EMPTY") that may well
#: occur in an answer, where it is redacted all the same (a warning says so)
SHORT_KEY = 8


def is_openai_compat(backend_id: str) -> bool:
    """Whether the registered backend ``backend_id`` is the OpenAI-compatible HTTP backend
    (or a subclass of it)."""

    factory = resolve("backend", backend_id).load()
    return _inspect.isclass(factory) and issubclass(factory, OpenAICompatBackend)


def http_settings(backend_id: str, args: Sequence[tuple[str, str]], *, model: str | None = None,
                  base_url: str | None = None, backend_given: bool = True,
                  echo: Callable[[str], None] | None = None,
                  model_option: str = "--model") -> tuple[str, tuple[tuple[str, str], ...]]:
    """The backend id and its arguments, completed for the OpenAI-compatible backend.

    ``model`` and ``base_url`` are the ``--model`` / ``--base-url`` shortcuts of
    ``--backend-arg model=`` / ``base_url=``; given without ``--backend``
    (``backend_given`` false), they select ``openai-compat-v1``.  For that backend,
    in order of precedence: ``base_url`` is the explicit value, else ``$OPENAI_BASE_URL``;
    ``model`` the explicit value, else the only model ``GET {base_url}/models`` lists
    (several: one line listing them; none or no answer: one line); the API key is read
    from ``$api_key_env`` (default ``$OPENAI_API_KEY``) when a request is sent -- a
    variable named with ``api_key_env`` that is unset gets a warning line (so does a key
    shorter than :data:`SHORT_KEY`, redacted from the answers all the same), and a model
    taken from the server a note, through ``echo`` (standard error on the command line).
    Everything resolved is added to the arguments (``base_url`` and ``model`` first), so
    the cassette header and ``metrics.json`` name it.  Raises InputError (one line) for anything wrong.
    ``model_option`` is the option that gives the model, as the messages name it (a role's own
    server: ``--role-arg ROLE:model``)."""

    echo = echo or (lambda _line: None)
    if (model is not None or base_url is not None) and not backend_given:
        backend_id = "openai-compat-v1"
    if not is_openai_compat(backend_id):
        if model is not None or base_url is not None:
            option = "--model" if model is not None else "--base-url"
            raise InputError(option, model if model is not None else base_url,
                             f"applies to the OpenAI-compatible backend (openai-compat-v1), not --backend {backend_id}")
        return backend_id, tuple(args)
    check_arg_names(backend_id, args)
    args = list(args)
    n_given = len(args)
    given = dict(args)
    for option, key, value in (("--base-url", "base_url", base_url), ("--model", "model", model)):
        if value is None:
            continue
        if not value.strip():
            raise InputError(option, "", "empty value")
        if key in given and given[key] != value:
            raise InputError(option, value, f"conflicts with --backend-arg {key}={given[key]}; give one")
        if key not in given:
            args.append((key, value))
            given[key] = value
    if "base_url" not in given:
        env = (os.environ.get(BASE_URL_ENV) or "").strip()
        if not env:
            raise InputError("--base-url", "", f"not given and ${BASE_URL_ENV} is not set: pass --base-url URL "
                                               "(or --backend-arg base_url=URL), e.g. http://127.0.0.1:8000/v1")
        if not env.startswith(("http://", "https://")):
            raise InputError(f"${BASE_URL_ENV}", env, "must start with http:// or https://")
        args.append(("base_url", env))
        given["base_url"] = env
    key_env = given.get("api_key_env")
    if key_env is not None and key_env.strip() and not (os.environ.get(key_env) or "").strip():
        echo(f"simcore: warning: ${key_env} is not set (--backend-arg api_key_env={key_env}): "
             "requests are sent without an API key")
    key_env = key_env or DEFAULT_KEY_ENV
    try:
        auth_header(key_env)
    except BackendError as exc:
        raise InputError(f"${key_env}", "", str(exc)) from None
    key = (os.environ.get(key_env) or "").strip()
    if 0 < len(key) < SHORT_KEY:
        echo(f"simcore: warning: the API key in ${key_env} is only {len(key)} characters long; every "
             f"occurrence of it in the model's answers is replaced by {REDACTED}")
    if "model" not in given:
        name, url = _only_model(backend_id, args, model_option)
        echo(f"simcore: {model_option} not given: using {name!r}, the only model {url} lists")
        args.append(("model", name))
    if len(args) == n_given:
        return backend_id, tuple(args)
    # something was added: base_url and model go first (each as given last), so
    # ``--base-url U --model M --backend-arg ...`` is ``--backend-arg base_url=U
    # --backend-arg model=M --backend-arg ...`` (the same cassette header, byte for byte)
    first = [(k, dict(args)[k]) for k in ("base_url", "model")]
    return backend_id, tuple(first + [(k, v) for k, v in args if k not in ("base_url", "model")])


def _only_model(backend_id: str, args: Sequence[tuple[str, str]], option: str = "--model") -> tuple[str, str]:
    """The one model the server lists and the URL that lists it (see
    :func:`http_settings`); InputError naming ``option`` otherwise."""

    ask = f"{option}=NAME" if option.startswith("--role-arg") else f"{option} NAME"
    probe = build_backend(backend_id, [*args, ("model", "?")])  # checks every other argument first
    url = f"{probe.base_url}/models"
    try:
        names = list_models(probe.base_url, api_key_env=probe.api_key_env,
                            timeout=min(probe.timeout, MODELS_TIMEOUT))
    except BackendError as exc:
        raise InputError(option, "", f"not given, and the server's models cannot be listed ({exc}): "
                                     f"pass {ask}") from None
    if not names:
        raise InputError(option, "", f"not given, and {url} lists no model: pass {ask}")
    if len(names) > 1:
        shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
        raise InputError(option, "", f"not given, and {url} lists {len(names)} models ({shown}): "
                                     f"choose one with {ask}")
    return names[0], url


# ---------------------------------------------------------------- the backend's output files

def check_output_file(option: str, path: str) -> None:
    """``path`` can be created by this run: not empty, not a directory, in a directory
    that exists (none is created) and is writable.  InputError naming ``option`` otherwise.
    Whether the file may already exist is the caller's rule."""
    if not str(path).strip():
        raise InputError(option, "", "empty path")
    if os.path.isdir(path):
        raise InputError(option, path, "is a directory; give a file name")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.lexists(parent):
        raise InputError(option, path, f"the directory {parent} does not exist (it is not created; make it first)")
    if not os.path.isdir(parent):
        raise InputError(option, path, f"{parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(option, path, f"cannot write in the directory {parent}")


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def check_backend_files(*, record: str | None = None, append: bool = False, log_calls: str | None = None,
                        replay: str | None = None, overwrite: bool = False, out: str | None = None) -> None:
    """Check the files the backend options name before any work (InputError, one line):

    * ``--record``: a new file in an existing writable directory; an existing one only with
      ``append``, and then it must be a cassette (its header is checked);
    * ``--log-calls``: the same, but an existing file is replaced only with ``overwrite``,
      and never a cassette; it is never the ``--record`` or ``--replay`` file;
    * neither is a result file the run writes in ``out`` (metrics.json, transcripts.jsonl,
      a table's CSV, a sweep's files).
    """

    for option, path in (("--record", record), ("--log-calls", log_calls)):
        if path and out and str(out).strip() and _same(os.path.dirname(os.path.abspath(path)), out):
            name = os.path.basename(path)
            if name in RUN_FILES + SWEEP_FILES or name.endswith(".csv"):
                raise InputError(option, path, f"is a result file the run writes in --out {out}; choose another name")

    if record:
        check_output_file("--record", record)
        if os.path.lexists(record):
            if not append:
                raise InputError("--record", record, "the cassette exists; choose a new path, or pass --append to "
                                                     "add this run's exchanges to it")
            if not os.path.isfile(record):
                raise InputError("--record", record, "is not a regular file")
            if os.path.getsize(record) and not looks_like_cassette(record):
                raise InputError("--record", record, "is not a cassette; --append adds only to a cassette")
            check_header(record)
    if log_calls:
        check_output_file("--log-calls", log_calls)
        for option, other in (("--record", record), ("--replay", replay)):
            if other and _same(log_calls, other):
                raise InputError("--log-calls", log_calls, f"is also the {option} cassette; give the call log "
                                                           "its own file")
        if os.path.lexists(log_calls):
            if os.path.isfile(log_calls) and looks_like_cassette(log_calls):
                raise InputError("--log-calls", log_calls, "is a cassette; give the call log its own file")
            if not overwrite:
                raise InputError("--log-calls", log_calls, "exists; choose a new path, or pass --overwrite to "
                                                           "replace it")
            if not os.path.isfile(log_calls):
                raise InputError("--log-calls", log_calls, "is not a regular file")


#: the header fields a replay reads: an appended run must share them with the cassette
_REPLAYED_FIELDS = ("backend", "model", "tries", "temperature")


def check_append(record: str, backend_id: str, args: Sequence[tuple[str, str]] = ()) -> None:
    """``--record PATH --append`` onto a cassette with a header: this run's backend, model,
    tries and temperature must be the header's (a replay answers every exchange with
    those); InputError naming the first that differs."""

    if not os.path.exists(record) or not os.path.getsize(record):
        return
    old = check_header(record)
    if old is None:
        return
    new = build_backend(backend_id, args, record=record).header
    for name in _REPLAYED_FIELDS:
        if old.get(name) != new.get(name):
            raise InputError("--append", record, f"the cassette was recorded with {name} {old.get(name)!r}, this run "
                                                 f"has {new.get(name)!r}; record to a new cassette")


def backend_object(backend: Any, name: str = "backend"):
    """A backend from a registered id (made from the registry), or the object itself when it has
    ``chat()``; anything else is one :class:`~simcore.errors.InputError` naming ``name``."""
    if isinstance(backend, str):
        valid = registered("backend")
        if backend not in valid:
            raise InputError(name, backend, f"unknown backend id; valid: {', '.join(valid)} (a real model: "
                                            "simcore.backends.build_backend, or your object with chat())")
        return make("backend", backend)
    if not callable(getattr(backend, "chat", None)):
        raise InputError(name, type(backend).__name__, "expected a backend id or an object with chat()")
    return backend
