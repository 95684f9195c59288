"""The restaurant domain of the dominance dialogue agent, and its one validated loader.

A domain is a JSON file::

    {"id": "restaurants-small-v1",            # optional; defaults to the file stem + "-v1"
     "topic": "restaurant",                    # the name of a whole option ("the topic")
     "description": "...",                     # optional
     "criteria": [{"name": "cuisine", "values": ["French", "Chinese", ...]}, ...],
     "options": [{"name": "Chez Luigi", "values": {"cuisine": "Italian", ...}}, ...]}

``options`` may instead be ``{"product": true, "name": "{cuisine} {cost} ..."}``: every
combination of criterion values becomes one restaurant, named by the template.  The
420-restaurant variant ships in this compact form (``data/restaurants-420.json``) and is
expanded here; the small variant lists its 20 named restaurants explicitly.

Rules checked (each failure is an :class:`~simcore.errors.InputError` naming the file and
field): at least one criterion; every criterion has >= 2 distinct values; a value belongs
to one criterion only (so a sentence naming a value names its criterion); no value or
criterion equals the topic; names contain no ``. ! ? ( ) ,`` (the text layer uses them
as delimiters); every option names one known value per criterion; option names are
unique (case-insensitive); no two options have the same values.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Any, Mapping

import attrs

from scenarios.datafile import read_data
from simcore import caches
from simcore.errors import InputError

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
BUILTIN = {
    "restaurants-small-v1": os.path.join(DATA_DIR, "restaurants-small.json"),
    "restaurants-420-v1": os.path.join(DATA_DIR, "restaurants-420.json"),
}
#: a name: letters (any script, accents included) and digits, with spaces, ' & - inside;
#: the mock language layer reads names back with the same rule (mockllm/dominance.py)
_NAME_OK = re.compile(r"^[^\W_](?:[^\W_]|[ '&-])*$")


@attrs.frozen
class Criterion:
    name: str
    values: tuple[str, ...] = attrs.field(converter=tuple)


@attrs.frozen
class Option:
    name: str
    values: tuple[str, ...] = attrs.field(converter=tuple)  # one per criterion, in criteria order


@attrs.frozen
class Domain:
    id: str
    topic: str
    criteria: tuple[Criterion, ...] = attrs.field(converter=tuple)
    options: tuple[Option, ...] = attrs.field(converter=tuple)
    description: str = ""
    _index: Mapping[str, Any] = attrs.field(factory=dict, eq=False, repr=False)

    def __attrs_post_init__(self):
        idx = self._index
        idx["crit"] = {c.name: i for i, c in enumerate(self.criteria)}
        idx["value_crit"] = {v: c.name for c in self.criteria for v in c.values}
        idx["value_lower"] = {v.lower(): v for c in self.criteria for v in c.values}
        idx["opt"] = {o.name: o for o in self.options}
        idx["opt_lower"] = {o.name.lower(): o for o in self.options}
        idx["by_values"] = {o.values: o for o in self.options}

    # lookups -----------------------------------------------------------------
    @property
    def criterion_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.criteria)

    def criterion(self, name: str) -> Criterion:
        return self.criteria[self._index["crit"][name]]

    def criterion_index(self, name: str) -> int:
        return self._index["crit"][name]

    def has_criterion(self, name: str) -> bool:
        return name in self._index["crit"]

    def criterion_of(self, value: str) -> str | None:
        """The criterion a value belongs to (values are unique across criteria)."""
        return self._index["value_crit"].get(value)

    def canonical_value(self, text: str) -> str | None:
        return self._index["value_lower"].get(text.strip().lower())

    def option(self, name: str) -> Option | None:
        return self._index["opt"].get(name) or self._index["opt_lower"].get(name.strip().lower())

    def value_of(self, option: Option, criterion: str) -> str:
        return option.values[self._index["crit"][criterion]]

    def describe_option(self, option: Option) -> str:
        return ", ".join(option.values)

    def vocabulary(self) -> dict:
        """What the text layer may know: the topic and criteria with their values."""
        return {"topic": self.topic, "criteria": {c.name: list(c.values) for c in self.criteria}}


# loading ---------------------------------------------------------------------
def _need(cond: bool, source: str, field: str, problem: str) -> None:
    if not cond:
        raise InputError(source, field, problem)


def _check_name(source: str, field: str, name: Any) -> str:
    _need(isinstance(name, str) and name.strip() != "", source, field, "must be a non-empty string")
    _need(bool(_NAME_OK.match(name)), source, field,
          f"{name!r} may use only letters, digits, spaces, ' & - (and must not start with a symbol)")
    return name


def domain_from_dict(data: Any, source: str = "<domain>", default_id: str = "domain-v1") -> Domain:
    """Validate a parsed domain document; raise :class:`InputError` naming the bad field."""
    _need(isinstance(data, dict), source, "", "expected a JSON object at the top level")
    known = {"id", "topic", "description", "criteria", "options"}
    unknown = sorted(set(data) - known)
    _need(not unknown, source, ", ".join(unknown), f"unknown field(s); valid: {', '.join(sorted(known))}")
    did = data.get("id", default_id)
    _need(isinstance(did, str) and re.match(r"^[a-z0-9][a-z0-9_.-]*-v\d+$", did or "") is not None,
          source, "id", f"{did!r} must look like 'name-v1'")
    topic = _check_name(source, "topic", data.get("topic", "restaurant"))
    crits = data.get("criteria")
    _need(isinstance(crits, list) and len(crits) >= 1, source, "criteria", "must be a non-empty list")
    criteria: list[Criterion] = []
    seen_values: dict[str, str] = {}
    for i, c in enumerate(crits):
        where = f"criteria[{i}]"
        _need(isinstance(c, dict) and set(c) == {"name", "values"}, source, where,
              "must be an object with exactly 'name' and 'values'")
        name = _check_name(source, f"{where}.name", c["name"])
        _need(name.lower() != topic.lower(), source, f"{where}.name", "must differ from the topic")
        _need(name not in {x.name for x in criteria}, source, f"{where}.name", f"duplicate criterion {name!r}")
        vals = c["values"]
        _need(isinstance(vals, list) and len(vals) >= 2, source, f"{where}.values",
              "must be a list of at least 2 values")
        for j, v in enumerate(vals):
            _check_name(source, f"{where}.values[{j}]", v)
            low = v.lower()
            _need(low != topic.lower(), source, f"{where}.values[{j}]", "must differ from the topic")
            _need(low not in seen_values, source, f"{where}.values[{j}]",
                  f"value {v!r} already belongs to criterion {seen_values.get(low)!r}; values must be unique")
            seen_values[low] = name
        criteria.append(Criterion(name, tuple(vals)))
    cnames = [c.name for c in criteria]
    raw = data.get("options")
    options: list[Option] = []
    if isinstance(raw, dict):
        _need(set(raw) == {"product", "name"} and raw.get("product") is True, source, "options",
              "a generated option list must be {\"product\": true, \"name\": \"<template>\"}")
        template = raw["name"]
        _need(isinstance(template, str), source, "options.name", "must be a string template")
        for combo in itertools.product(*(c.values for c in criteria)):
            try:
                nm = template.format(**dict(zip(cnames, combo)))
            except (KeyError, IndexError, ValueError) as exc:
                raise InputError(source, "options.name", f"bad template ({exc}); use {{criterion}} fields") from None
            options.append(Option(_check_name(source, "options.name", nm), combo))
    else:
        _need(isinstance(raw, list) and len(raw) >= 1, source, "options",
              "must be a non-empty list (or {\"product\": true, \"name\": ...})")
        for i, o in enumerate(raw):
            where = f"options[{i}]"
            _need(isinstance(o, dict) and set(o) == {"name", "values"}, source, where,
                  "must be an object with exactly 'name' and 'values'")
            nm = _check_name(source, f"{where}.name", o["name"])
            vals = o["values"]
            _need(isinstance(vals, dict), source, f"{where}.values", "must map each criterion to a value")
            missing = [c for c in cnames if c not in vals]
            extra = sorted(set(vals) - set(cnames))
            _need(not missing, source, f"{where}.values", f"missing criterion/criteria {missing}")
            _need(not extra, source, f"{where}.values", f"unknown criterion/criteria {extra}; valid: {cnames}")
            combo = []
            for c in criteria:
                v = vals[c.name]
                _need(v in c.values, source, f"{where}.values.{c.name}",
                      f"{v!r} is not a value of {c.name}; valid: {', '.join(c.values)}")
                combo.append(v)
            options.append(Option(nm, tuple(combo)))
    lowered: dict[str, int] = {}
    combos: dict[tuple, str] = {}
    for i, o in enumerate(options):
        low = o.name.lower()
        _need(low not in lowered, source, f"options[{i}].name", f"duplicate restaurant name {o.name!r}")
        _need(low not in seen_values and low != topic.lower(), source, f"options[{i}].name",
              f"{o.name!r} is also a criterion value or the topic")
        lowered[low] = i
        _need(o.values not in combos, source, f"options[{i}].values",
              f"same values as {combos.get(o.values)!r}")
        combos[o.values] = o.name
    desc = data.get("description", "")
    _need(isinstance(desc, str), source, "description", "must be a string")
    return Domain(did, topic, tuple(criteria), tuple(options), desc)


def load_domain(id_or_path: str) -> Domain:
    """A shipped domain by id (``restaurants-small-v1``, ``restaurants-420-v1``, or without the
    version) or any JSON file in the same format."""
    key = id_or_path
    if key not in BUILTIN and f"{key}-v1" in BUILTIN:
        key = f"{key}-v1"
    path = BUILTIN.get(key, id_or_path)
    if key not in BUILTIN and not os.path.exists(path):
        raise InputError(id_or_path, "domain",
                         f"no such file, and not a shipped domain id; valid ids: {', '.join(BUILTIN)}")
    return _load_path(path)


_CACHE: dict[str, Domain] = caches.memo("scenarios.restaurants: loaded domains by id")


def _load_path(path: str) -> Domain:
    full = os.path.abspath(path)
    try:
        stamp = (full, os.path.getmtime(full))
    except OSError as exc:
        raise InputError(path, "", exc.strerror or str(exc)) from None
    cached = _CACHE.get(str(stamp))
    if cached is not None:
        return cached
    data = read_data(path)
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    default_id = re.sub(r"[^a-z0-9_.-]", "-", stem).strip("-") or "domain"
    dom = domain_from_dict(data, path, f"{default_id}-v1")
    _CACHE[str(stamp)] = dom
    return dom


def make_domain(id: str = "restaurants-small-v1") -> Domain:
    """Registry entry point: ``make("scenario", "restaurants-small-v1")``."""
    return load_domain(id)


def describe(scenario_id: str) -> str:
    """Text for ``simcore scenarios show``."""
    d = load_domain(scenario_id)
    lines = [f"{d.id}: {d.description}", f"topic: {d.topic}; {len(d.options)} options"]
    for c in d.criteria:
        lines.append(f"  {c.name}: {', '.join(c.values)}")
    shown = d.options[:12]
    lines.append("options:" if len(d.options) <= 12 else f"options (first 12 of {len(d.options)}):")
    for o in shown:
        lines.append(f"  {o.name}: {d.describe_option(o)}")
    return "\n".join(lines)
