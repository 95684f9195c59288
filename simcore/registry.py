"""Registries with versioned ids, in the manner of Gymnasium's ``register``/``make``.

Kinds: ``scenario``, ``policy``, ``protocol``, ``backend`` and ``study``.  An id is
``name-vN``; ``make(kind, "name")`` without a version resolves to the highest
registered version.  Entry points are ``"module:attr"`` strings (imported only when
made, so the CLI starts fast) or callables.  A changed behaviour gets a new version
so that sweeps naming ``mind-v1`` keep meaning the same thing.

The built-in entries are declared by each system's study module (its ``REGISTRY``
list) and loaded on first use.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import sys
import typing
from importlib.metadata import entry_points
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs

from simcore.catalog import STUDIES
from simcore.errors import UnknownIdError
from simcore.once import Once
from simcore.textsafe import visible

KINDS = ("scenario", "policy", "protocol", "backend", "study")
_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*-v(\d+)$")


@attrs.frozen
class Spec:
    """One registered thing: where to find it and the keyword arguments it is made with."""

    kind: str = attrs.field(validator=attrs.validators.in_(KINDS))
    id: str = attrs.field()
    entry_point: Any  # "module:attr" or a callable
    kwargs: Mapping[str, Any] = attrs.field(factory=dict)
    description: str = ""
    meta: Mapping[str, Any] = attrs.field(factory=dict)

    @id.validator
    def _check_id(self, _attr, value):
        if not _ID.match(value):
            raise ValueError(f"registry id {value!r} must look like 'name-v1'")

    @property
    def name(self) -> str:
        return self.id.rsplit("-v", 1)[0]

    @property
    def version(self) -> int:
        return int(self.id.rsplit("-v", 1)[1])

    def load(self) -> Callable[..., Any]:
        if callable(self.entry_point):
            return self.entry_point
        module, _, attr = str(self.entry_point).partition(":")
        obj = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj


_specs: dict[str, dict[str, Spec]] = {k: {} for k in KINDS}

# Each system's study module declares ``REGISTRY``: a list of Spec keyword dicts.
def _builtin_modules() -> tuple[str, ...]:
    """The modules whose ``REGISTRY`` lists simcore's own entries: the systems' and the backends'."""
    return ("simcore.catalog", *STUDIES.values(), "mockllm.registrations")


#: the entry-point group through which an installed package adds its own policies (or scenarios,
#: backends...): each entry point names a list of registry entries (dicts of :func:`register`'s
#: arguments), a function returning one, or a module with a ``REGISTRY`` list
PLUGIN_GROUP = "simcore.policies"


def _import_builtins() -> None:

    for name in _builtin_modules():
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        for entry in getattr(module, "REGISTRY", ()):
            if entry["id"] not in _specs[entry["kind"]]:
                register(**entry)
                _builtin[entry["kind"]].add(entry["id"])
    _import_plugins()


#: the ids simcore itself registers, per kind (everything else is a user's or a plugin's)
_builtin: dict[str, set[str]] = {k: set() for k in KINDS}
#: plugins that could not be loaded: (entry point, why), each reported once on standard error
BROKEN_PLUGINS: list[tuple[str, str]] = []


def is_builtin(kind: str, id: str) -> bool:
    """True when ``id`` is one of simcore's own registry entries of ``kind``."""
    _load_builtins()
    return id in _builtin[kind]


def _import_plugins() -> None:
    """Registry entries from installed packages (entry points in :data:`PLUGIN_GROUP`).  A
    plugin that cannot be loaded fails alone: one line on standard error naming it, and the
    others and simcore's own entries still load (an unknown id then names it)."""


    for ep in entry_points(group=PLUGIN_GROUP):
        where = f"entry point {ep.name} = {ep.value} ({PLUGIN_GROUP})"
        try:
            obj = ep.load()
            entries = getattr(obj, "REGISTRY", obj)
            if callable(entries):
                entries = entries()
            entries = [dict(e) for e in entries]
            for entry in entries:
                Spec(**{k: entry[k] for k in ("kind", "id", "entry_point")})  # checks kind and id
        except Exception as exc:  # a broken plugin: the user's, reported, not fatal
            why = f"cannot be loaded ({type(exc).__name__}: {exc})"
            BROKEN_PLUGINS.append((where, why))
            print(visible(f"simcore: warning: {where}: {why}; skipped", oneline=True), file=sys.stderr)
            continue
        for entry in entries:
            if entry["id"] not in _specs[entry["kind"]]:
                register(**entry)


_load_builtins = Once(_import_builtins)


def register(kind: str, id: str, entry_point: Any, kwargs: Mapping[str, Any] | None = None,
             description: str = "", meta: Mapping[str, Any] | None = None, *, replace: bool = False) -> Spec:
    """Register ``entry_point`` under ``kind``/``id``; a duplicate id is an error unless ``replace``."""
    spec = Spec(kind=kind, id=id, entry_point=entry_point, kwargs=dict(kwargs or {}),
                description=description, meta=dict(meta or {}))
    if id in _specs[kind] and not replace:
        raise ValueError(f"{kind} id {id!r} is already registered")
    _specs[kind][id] = spec
    return spec


def unregister(kind: str, id: str) -> None:
    _specs[kind].pop(id, None)


def snapshot() -> list[Spec]:
    """Every registered spec that another process can rebuild: its entry point a
    ``"module:attr"`` string, or a callable found again by its module and name (not one
    defined in a notebook or in the ``__main__`` script) -- for a process that does not
    inherit this one's memory, a pool worker started by a fork server (:func:`restore`)."""
    _load_builtins()
    return [spec for table in _specs.values() for spec in table.values() if _portable(spec.entry_point)]


def _portable(entry_point: Any) -> bool:
    if isinstance(entry_point, str):
        return True
    module, name = getattr(entry_point, "__module__", None), getattr(entry_point, "__qualname__", "")
    if not module or module == "__main__" or "<" in name:  # a lambda or a function's local class
        return False
    obj = sys.modules.get(module)
    for part in name.split("."):
        obj = getattr(obj, part, None)
    return obj is entry_point


def restore(specs: Sequence[Spec]) -> None:
    """Register the specs of :func:`snapshot` here, replacing those of the same id."""
    _load_builtins()
    for spec in specs:
        _specs[spec.kind][spec.id] = spec


def resolve(kind: str, id: str) -> Spec:
    """The spec for ``id``; a bare name resolves to its highest version."""
    if kind not in KINDS:
        raise UnknownIdError("kind", kind, KINDS)
    _load_builtins()
    table = _specs[kind]
    if id in table:
        return table[id]
    versions = [s for s in table.values() if s.name == id]
    if versions:
        return max(versions, key=lambda s: s.version)
    if BROKEN_PLUGINS:  # the id may be a broken plugin's
        raise UnknownIdError(kind, id, list(table) + [f"(not loaded: {w})" for w, _ in BROKEN_PLUGINS])
    raise UnknownIdError(kind, id, table)


def make(kind: str, id: str, **overrides: Any) -> Any:
    """Build the registered ``kind``/``id`` with its registered kwargs updated by ``overrides``."""
    spec = resolve(kind, id)
    return spec.load()(**{**spec.kwargs, **overrides})


def registered(kind: str, *, system: str | None = None) -> list[str]:
    """Sorted ids of ``kind``; with ``system``, only those whose ``meta['system']`` matches."""
    _load_builtins()
    return sorted(i for i, s in _specs[kind].items() if system is None or s.meta.get("system") == system)


@attrs.frozen
class Param:
    """One constructor parameter of a registered thing, as ``--list-params`` shows it."""

    name: str
    default: Any
    source: str  # the passage, or "choice: reason"; "" when the class gives no note


#: attribute of an entry point naming an attrs class whose fields it also takes as keywords
PARAMS_ATTR = "PARAMS"
#: attribute of a plain entry point naming the arguments the runner passes at run time (the
#: domain, the model client, the generator, ...): not choices, so never listed as parameters
RUNTIME_ATTR = "RUNTIME_ARGS"
#: attribute of an entry point giving ``{parameter: note}`` for keywords no attrs field describes
SOURCES_ATTR = "SOURCES"


def _field_default(f: "attrs.Attribute") -> Any:
    if f.default is attrs.NOTHING:
        return attrs.NOTHING
    if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
        return f.default.factory() if not f.default.takes_self else attrs.NOTHING
    return f.default


def _hinted_notes(obj: Any) -> dict:
    """``{field: note}`` from the attrs classes a plain callable's parameters are annotated
    with (and their attrs-typed fields), so flat kwargs such as ``alpha`` of an entry point
    taking ``params: AgentParams`` find the note on ``AgentParams.alpha``."""

    target = obj.__init__ if isinstance(obj, type) else obj
    try:
        hints = typing.get_type_hints(target)
    except Exception:  # unresolvable annotations: no notes, never an error
        return {}
    notes: dict = {}
    todo = [a for h in hints.values() for a in (typing.get_args(h) or (h,))]
    seen: set = set()
    while todo:
        cls = todo.pop()
        if not (isinstance(cls, type) and attrs.has(cls)) or cls in seen:
            continue
        seen.add(cls)
        try:
            attrs.resolve_types(cls)
        except Exception:
            pass
        for f in attrs.fields(cls):
            note = (f.metadata or {}).get("source")
            if note and f.name not in notes:
                notes[f.name] = str(note)
            if f.type is not None and not isinstance(f.type, str):
                todo.extend(typing.get_args(f.type) or (f.type,))
    return notes


def spec_params(spec: Spec) -> list[Param]:
    """The parameters of ``spec``: every attrs field of its entry point (and of the attrs
    class named by the entry point's ``PARAMS`` attribute), the value in the spec's kwargs
    overriding the field default, the note from the field's ``metadata["source"]``; for a
    plain function or class, the parameters of its signature that are registered choices
    (given in the spec's kwargs, or optional and not named in the entry point's
    ``RUNTIME_ARGS``: a required argument the spec does not give, such as the domain, the
    client or the generator, is passed at run time and is not a parameter); then any spec
    kwarg not covered by those.  A note missing from a field can be given by the entry
    point's ``SOURCES`` or the spec's ``meta["sources"]`` (``{parameter: note}``)."""

    obj = spec.load()
    out: list[Param] = []
    seen: set = set()
    classes = [c for c in (obj, getattr(obj, PARAMS_ATTR, None)) if isinstance(c, type) and attrs.has(c)]
    for cls in classes:
        for f in attrs.fields(cls):
            if f.name in seen or f.name.startswith("_"):
                continue
            seen.add(f.name)
            default = spec.kwargs.get(f.name, _field_default(f))
            out.append(Param(f.name, default, str((f.metadata or {}).get("source", ""))))
    if not classes and callable(obj):
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            sig = None
        runtime = set(getattr(obj, RUNTIME_ATTR, ()))
        for p in (sig.parameters.values() if sig is not None else ()):
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in seen:
                continue
            if p.name not in spec.kwargs and (p.name in runtime or p.default is p.empty):
                continue  # a run-time argument, not a registered choice
            seen.add(p.name)
            default = spec.kwargs.get(p.name, attrs.NOTHING if p.default is p.empty else p.default)
            out.append(Param(p.name, default, ""))
    notes = {**_hinted_notes(obj), **dict(getattr(obj, SOURCES_ATTR, None) or {}),
             **(spec.meta.get("sources", {}) or {})}
    out = [p if p.source or p.name not in notes else attrs.evolve(p, source=str(notes[p.name])) for p in out]
    out += [Param(k, v, str(notes.get(k, ""))) for k, v in spec.kwargs.items() if k not in seen]
    return out


def _param_lines(lines: list, name: str, default: Any, source: str, depth: int = 0) -> None:
    """One parameter; a default that is itself an attrs object is expanded field by field
    (``params.alpha``), each with its own field's note."""
    pad = "  " * (depth + 1)
    if attrs.has(type(default)) and depth < 3:
        lines.append(f"{pad}{name}: {type(default).__name__}" + (f"  -- {source}" if source else ""))
        for f in attrs.fields(type(default)):
            if not f.name.startswith("_"):
                _param_lines(lines, f"{name}.{f.name}", getattr(default, f.name),
                             str((f.metadata or {}).get("source", "")), depth + 1)
        return
    lines.append(f"{pad}{name} = {'(required)' if default is attrs.NOTHING else repr(default)}")
    lines.append(f"{pad}    {source or '(no source note)'}")


def describe_params(system: str, kinds: Sequence[str] = ("policy", "protocol")) -> str:
    """Text listing every registered ``kinds`` entry of ``system`` with its parameters."""
    lines = []
    for kind in kinds:
        for spec in specs(kind):
            if spec.meta.get("system") != system:
                continue
            lines.append(f"{kind} {spec.id}: {spec.description}".rstrip(": "))
            params = spec_params(spec)
            if not params:
                lines.append("  (no parameters)")
            for p in params:
                _param_lines(lines, p.name, p.default, p.source)
            lines.append("")
    if not lines:
        return f"no policy or protocol is registered for system {system!r}"
    return "\n".join(lines).rstrip() + "\n"


def specs(kind: str) -> Iterable[Spec]:
    _load_builtins()
    return [(_specs[kind][i]) for i in sorted(_specs[kind])]
