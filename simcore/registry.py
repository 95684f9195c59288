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
import re
from typing import Any, Callable, Iterable, Mapping

import attrs

from simcore.errors import UnknownIdError

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
_builtins_loaded = False

# Each system's study module declares ``REGISTRY``: a list of Spec keyword dicts.
BUILTIN_MODULES = (
    "simcore.studies.mind",
    "simcore.studies.scorable",
    "simcore.studies.astra",
    "simcore.studies.dominance",
    "mockllm.registrations",
)


def _load_builtins() -> None:
    global _builtins_loaded
    if _builtins_loaded:
        return
    _builtins_loaded = True
    import importlib.util

    for name in BUILTIN_MODULES:
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        for entry in getattr(module, "REGISTRY", ()):
            if entry["id"] not in _specs[entry["kind"]]:
                register(**entry)


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
    raise UnknownIdError(kind, id, table)


def make(kind: str, id: str, **overrides: Any) -> Any:
    """Build the registered ``kind``/``id`` with its registered kwargs updated by ``overrides``."""
    spec = resolve(kind, id)
    return spec.load()(**{**spec.kwargs, **overrides})


def registered(kind: str, *, system: str | None = None) -> list[str]:
    """Sorted ids of ``kind``; with ``system``, only those whose ``meta['system']`` matches."""
    _load_builtins()
    return sorted(i for i, s in _specs[kind].items() if system is None or s.meta.get("system") == system)


def specs(kind: str) -> Iterable[Spec]:
    _load_builtins()
    return [(_specs[kind][i]) for i in sorted(_specs[kind])]
