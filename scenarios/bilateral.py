"""Bilateral multi-issue domains (ASTRA): the one validated loader.

A domain file is JSON (``format: "simcore-bilateral-1"``)::

    {
      "format": "simcore-bilateral-1",
      "id": "casino-v1",
      "title": "CaSiNo camping",
      "description": "...",
      "issues": [
        {"name": "food", "type": "integer", "count": 3},
        {"name": "lab", "type": "categorical", "options": ["computer", "chemistry", "biology"]},
        {"name": "weekend", "type": "binary"}
      ],
      "levels": [5, 4, 3],            # issue weights a priority order is mapped onto
      "option_levels": [1, 0.6, 0.2], # option factors an option order is mapped onto
      "batna": 5,                      # the agent's BATNA (points)
      "theta_f": 4,                    # fairness threshold of eq. 1
      "lp": {"min_own": 10, "min_partner": 5},
      "agent": {<valuation>},
      "setups": {"integrative": {"partners": [{<valuation>}, ...], "source": "paper"}, ...}
    }

A *valuation* maps every issue to its value for one side: an ``integer`` issue to
the points per unit that side receives; a ``categorical`` issue to
``{"weight": w, "options": {option: factor}}`` (the side scores ``w * factor`` of the
chosen option -- the option is shared); a ``binary`` issue to the points that side
scores when it is true (shared, e.g. weekend use).  A setup lists one or more partner
valuations; an episode draws one of them uniformly from its own seed.  A setup's optional
``source`` is ``"paper"`` (default: a setup the paper reports) or ``"simcore"`` (simcore's
addition); headline tables pool only the paper's setups.

An *outcome* is a tuple with one int per issue: the units the **agent** gets
(integer issues), the option index (categorical) or 0/1 (binary).  The partner gets
``count - x`` units of an integer issue.  Outcomes are enumerated in
``itertools.product`` order (issues in file order, values ascending), which is the
order the LP tie-break refers to.

Every error in a file is an :class:`~simcore.errors.InputError` naming the file and
the field.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
from types import MappingProxyType
from collections.abc import Mapping
from typing import Any

import attrs

from scenarios.datafile import read_data
from simcore import caches
from simcore.errors import InputError

FORMAT = "simcore-bilateral-1"
KINDS = ("integer", "categorical", "binary")
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
_MAX_TABLES = 256  # score tables kept per domain (one per valuation and side)
SHIPPED = {"casino-v1": "casino.json", "research-allocation-v1": "research-allocation.json"}


@attrs.frozen
class Issue:
    name: str
    kind: str = attrs.field(validator=attrs.validators.in_(KINDS))
    count: int = 1  # integer issues: units to split
    options: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    @property
    def size(self) -> int:
        """How many values this issue takes in an outcome."""
        if self.kind == "integer":
            return self.count + 1
        if self.kind == "categorical":
            return len(self.options)
        return 2

    def label(self, value: int) -> str:
        if self.kind == "categorical":
            return self.options[value]
        if self.kind == "binary":
            return "True" if value else "False"
        return str(value)


@attrs.frozen
class Valuation:
    """One side's values: ``weights[i]`` per issue; ``factors[i]`` per option (categorical only)."""

    weights: tuple[float, ...] = attrs.field(converter=tuple)
    factors: tuple[tuple[float, ...], ...] = attrs.field(converter=lambda fs: tuple(tuple(f) for f in fs))

    def as_dict(self, issues) -> dict:
        out: dict[str, Any] = {}
        for issue, w, f in zip(issues, self.weights, self.factors):
            if issue.kind == "categorical":
                out[issue.name] = {"weight": w, "options": dict(zip(issue.options, f))}
            else:
                out[issue.name] = w
        return out


@attrs.frozen
class Setup:
    name: str
    partners: tuple[Valuation, ...] = attrs.field(converter=tuple)
    source: str = attrs.field(default="paper", validator=attrs.validators.in_(("paper", "simcore")))


@attrs.frozen
class Domain:
    id: str
    title: str
    description: str
    issues: tuple[Issue, ...] = attrs.field(converter=tuple)
    levels: tuple[float, ...] = attrs.field(converter=tuple)
    option_levels: tuple[float, ...] = attrs.field(converter=tuple)
    batna: float
    theta_f: float
    min_own: float
    min_partner: float
    agent: Valuation
    setups: tuple[Setup, ...] = attrs.field(converter=tuple)
    source: str = ""

    # --- outcome space ------------------------------------------------------
    @functools.cached_property
    def outcomes(self) -> tuple[tuple[int, ...], ...]:
        return tuple(itertools.product(*(range(i.size) for i in self.issues)))

    def score(self, val: Valuation, outcome, side: str = "agent") -> float:
        """Points of ``val``'s owner for ``outcome``; ``side`` says which side it is."""
        total = 0.0
        for issue, w, f, x in zip(self.issues, val.weights, val.factors, outcome):
            if issue.kind == "integer":
                total += w * (x if side == "agent" else issue.count - x)
            elif issue.kind == "categorical":
                total += w * f[x]
            else:
                total += w * x
        return round(total, 9)

    @functools.cached_property
    def _score_tables(self) -> dict:
        """The cache behind :meth:`score_table`: ``{(valuation, side): {outcome: score}}``."""
        return {}

    def score_table(self, val: Valuation, side: str = "agent") -> Mapping[tuple, float]:
        """``{outcome: self.score(val, outcome, side)}`` for every outcome (read-only).

        Built on first use and kept on the domain: the domain and the valuation are
        immutable, so the table can never go stale, and a negotiation looks scores up
        every turn instead of recomputing them (at most ``_MAX_TABLES`` are kept)."""
        values, table = self._tables(val, side)
        if table is None:
            table = MappingProxyType(dict(zip(self.outcomes, values)))
            self._score_tables[(val, side)] = (values, table)
        return table

    def scores(self, val: Valuation, side: str = "agent") -> tuple[float, ...]:
        """``self.score(val, o, side)`` of every outcome ``o``, in :attr:`outcomes` order
        (kept with :meth:`score_table`)."""
        return self._tables(val, side)[0]

    def _tables(self, val: Valuation, side: str) -> tuple:
        key = (val, side)
        got = self._score_tables.get(key)
        if got is None:
            if len(self._score_tables) >= _MAX_TABLES:
                self._score_tables.clear()
            got = self._score_tables[key] = (self._all_scores(val, side), None)  # (the mapping: when asked for)
        return got

    def _all_scores(self, val: Valuation, side: str) -> tuple[float, ...]:
        """:meth:`score` of every outcome at once, bit for bit: the per-issue terms are the
        same products, added in the same order (``0.0 + t0 + t1 + ...``, issues in file
        order) and rounded alike, but each prefix sum is shared by every outcome that
        starts with it (``itertools.product`` order: the first issue varies slowest)."""
        n = len(self.issues)
        if len(val.weights) < n or len(val.factors) < n:  # (score's zip stops early: keep its reading)
            return tuple(self.score(val, o, side) for o in self.outcomes)
        sums = [0.0]
        whole, bound = True, 0.0  # every term a whole float, and the largest sum's size at most bound
        agent = side == "agent"
        for (_, kind, count, options), w, f in zip(self._issue_specs, val.weights, val.factors):
            if kind == "integer":  # (issue.size values: count + 1, the options, or 0/1)
                terms = [w * x for x in range(count + 1)] if agent else [w * (count - x) for x in range(count + 1)]
            elif kind == "categorical":
                terms = [w * f[x] for x in range(len(options))]
            else:
                terms = [w * x for x in range(2)]
            if whole:  # (floats times ints, or floats times floats, are floats: is_integer reads them all)
                whole = (type(w) is float and (kind != "categorical" or all(type(x) is float for x in f))
                         and all(map(float.is_integer, terms)))
                bound += max(map(abs, terms)) if whole else 0.0
            sums = [s + t for s in sums for t in terms]
        if whole and bound < 2.0 ** 52:  # whole sums, each exact: round(s, 9) is s itself
            return tuple(sums)
        return tuple([round(s, 9) for s in sums])

    @functools.cached_property
    def agent_units(self) -> tuple[int, ...]:
        """The units of the integer issues the agent gets in each outcome (the sum over the
        integer issues of the outcome's values), in :attr:`outcomes` order."""
        units = [0]
        for issue in self.issues:
            step = range(issue.size) if issue.kind == "integer" else (0,) * issue.size
            units = [u + x for u in units for x in step]
        return tuple(units)

    def max_score(self, val: Valuation, side: str = "agent") -> float:
        return max(self.score(val, o, side) for o in self.outcomes)

    def setup(self, name: str) -> Setup:
        for s in self.setups:
            if s.name == name:
                return s
        raise InputError(self.source or self.id, "setups", f"no setup {name!r}; valid: "
                         f"{', '.join(s.name for s in self.setups)}")

    @property
    def setup_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.setups)

    @property
    def paper_setups(self) -> tuple[str, ...]:
        """The setups the paper reports (headline tables pool only these)."""
        return tuple(s.name for s in self.setups if s.source == "paper")

    def issue_index(self, name: str) -> int:
        for i, issue in enumerate(self.issues):
            if issue.name == name:
                return i
        raise KeyError(name)

    @functools.cached_property
    def _labels(self) -> dict:
        return {o: " ".join(f"{i.name}={i.label(x)}" for i, x in zip(self.issues, o)) for o in self.outcomes}

    def describe_outcome(self, outcome) -> str:
        """``food=3 water=2 firewood=0`` (the agent's units; shared values by name)."""
        return self._labels[tuple(outcome)]

    # --- valuations from priority orders ------------------------------------
    def valuation_from_order(self, order, option_orders=None) -> Valuation:
        """Weights from ``levels`` by issue priority order (names, most important
        first); option factors from ``option_levels`` by option order."""
        weights = [0.0] * len(self.issues)
        for rank, name in enumerate(order):
            weights[self.issue_index(name)] = float(self.levels[rank])
        factors = []
        for i, issue in enumerate(self.issues):
            if issue.kind == "categorical":
                opts = (option_orders or {}).get(issue.name, issue.options)
                f = [0.0] * len(issue.options)
                for rank, opt in enumerate(opts):
                    f[issue.options.index(opt)] = float(self.option_levels[min(rank, len(self.option_levels) - 1)])
                factors.append(tuple(f))
            else:
                factors.append(())
        return Valuation(tuple(weights), tuple(factors))

    def order_of(self, val: Valuation) -> tuple[str, ...]:
        """Issue names by decreasing weight (ties in file order)."""
        idx = sorted(range(len(self.issues)), key=lambda i: (-val.weights[i], i))
        return tuple(self.issues[i].name for i in idx)

    def option_orders_of(self, val: Valuation) -> dict:
        out = {}
        for i, issue in enumerate(self.issues):
            if issue.kind == "categorical":
                idx = sorted(range(len(issue.options)), key=lambda k: (-val.factors[i][k], k))
                out[issue.name] = tuple(issue.options[k] for k in idx)
        return out

    # --- offers as stated by a speaker --------------------------------------
    def check_offer(self, raw: Any, speaker: str) -> tuple[int, ...]:
        """The outcome an offer stated by ``speaker`` ("agent" or "partner") means.

        ``raw`` is ``{"self": {issue: units}, "other": {issue: units}, "shared":
        {issue: option | bool}}``.  Raises :class:`IllegalOffer` with a reason when an
        integer issue's units do not add up to what exists or a shared value is not
        one of the issue's values.
        """
        if type(raw) is not dict and not isinstance(raw, Mapping):  # (a plain dict skips the ABC check)
            raise IllegalOffer("the offer is not a mapping")
        own = raw.get("self") or {}
        other = raw.get("other") or {}
        shared = raw.get("shared") or {}
        out = []
        for name, kind, count, options in self._issue_specs:
            if kind == "integer":
                a, b = own.get(name), other.get(name)
                if (type(a) is not int or type(b) is not int) and (  # plain ints pass at once
                        not isinstance(a, int) or not isinstance(b, int) or isinstance(a, bool) or isinstance(b, bool)):
                    raise IllegalOffer(f"{name}: both shares must be whole numbers")
                if a < 0 or b < 0:
                    raise IllegalOffer(f"{name}: negative units")
                if a + b > count:
                    raise IllegalOffer(f"{name}: asks for {a}+{b}={a + b} units but only {count} exist")
                if a + b < count:
                    raise IllegalOffer(f"{name}: assigns {a + b} of {count} units")
                out.append(a if speaker == "agent" else b)
            elif kind == "categorical":
                v = shared.get(name)
                if v not in options:
                    raise IllegalOffer(f"{name}: {v!r} is not one of {', '.join(options)}")
                out.append(options.index(v))
            else:
                v = shared.get(name)
                if not isinstance(v, bool):
                    raise IllegalOffer(f"{name}: {v!r} is not true or false")
                out.append(int(v))
        return tuple(out)

    def state_offer(self, outcome, speaker: str) -> dict:
        """The raw (stated) form of ``outcome`` from ``speaker``'s point of view.

        One of this domain's own outcome tuples (an element of :attr:`outcomes`, as the
        policies pick them) is stated from :attr:`_statements` (fresh copies of the
        prepared dicts); any other sequence (a list, numpy ints) is stated directly."""
        prepared = self._statements[speaker == "agent"].get(outcome) if type(outcome) is tuple else None
        if prepared is not None and prepared[0] is outcome:
            _, own, other, shared = prepared
            return {"self": own.copy(), "other": other.copy(), "shared": shared.copy()}
        return self._state(outcome, speaker)

    def _state(self, outcome, speaker: str) -> dict:
        """:meth:`state_offer` issue by issue."""
        own, other, shared = {}, {}, {}
        for (name, kind, count, options), x in zip(self._issue_specs, outcome):
            if kind == "integer":
                mine = x if speaker == "agent" else count - x
                own[name], other[name] = mine, count - mine
            elif kind == "categorical":
                shared[name] = options[x]
            else:
                shared[name] = bool(x)
        return {"self": own, "other": other, "shared": shared}

    @functools.cached_property
    def _statements(self) -> dict[bool, dict[tuple, tuple]]:
        """``{speaker is the agent: {outcome: (outcome, self, other, shared)}}``: the
        statement of every outcome from each seat, prepared once (a pure function of
        the immutable issues; the outcome object itself is kept so :meth:`state_offer`
        can tell its own plain-int tuples from equal ones of other types).
        :meth:`state_offer` hands out copies, never these dicts."""
        return {is_agent: {o: (o, *self._state(o, "agent" if is_agent else "partner").values())
                           for o in self.outcomes} for is_agent in (True, False)}

    @functools.cached_property
    def _issue_specs(self) -> tuple[tuple[str, str, int, tuple[str, ...]], ...]:
        """``(name, kind, count, options)`` of every issue, in file order: the issues'
        fields unpacked once (issues are immutable) for the per-turn offer checks."""
        return tuple((i.name, i.kind, i.count, i.options) for i in self.issues)


class IllegalOffer(ValueError):
    """An offer that names more units than exist or a value an issue does not have."""


# --- loading -----------------------------------------------------------------
def _need(data: Mapping, key: str, source: str, where: str = ""):
    if key not in data:
        raise InputError(source, f"{where}{key}", "missing")
    return data[key]


def _number(value, source, field, *, positive=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(source, field, f"expected a number, got {value!r}")
    if positive and value <= 0:
        raise InputError(source, field, f"must be positive, got {value!r}")
    return float(value)


def _valuation(data, issues, source, field) -> Valuation:
    if not isinstance(data, Mapping):
        raise InputError(source, field, "expected an object mapping every issue to its value")
    names = [i.name for i in issues]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise InputError(source, f"{field}.{unknown[0]}", f"unknown issue; issues: {', '.join(names)}")
    weights, factors = [], []
    for issue in issues:
        f = f"{field}.{issue.name}"
        if issue.name not in data:
            raise InputError(source, f, "missing value for this issue")
        v = data[issue.name]
        if issue.kind == "categorical":
            if not isinstance(v, Mapping) or "weight" not in v or "options" not in v:
                raise InputError(source, f, "expected {\"weight\": w, \"options\": {option: factor}}")
            opts = v["options"]
            if not isinstance(opts, Mapping) or set(opts) != set(issue.options):
                raise InputError(source, f"{f}.options", f"must give a factor for exactly {', '.join(issue.options)}")
            weights.append(_number(v["weight"], source, f"{f}.weight"))
            factors.append(tuple(_number(opts[o], source, f"{f}.options.{o}") for o in issue.options))
        else:
            weights.append(_number(v, source, f))
            factors.append(())
    return Valuation(tuple(weights), tuple(factors))


def parse_domain(data: Any, source: str = "<domain>") -> Domain:
    if not isinstance(data, Mapping):
        raise InputError(source, "", "expected a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise InputError(source, "format", f"expected {FORMAT!r}, got {fmt!r}")
    did = _need(data, "id", source)
    if not isinstance(did, str) or not did:
        raise InputError(source, "id", "expected a non-empty string")
    raw_issues = _need(data, "issues", source)
    if not isinstance(raw_issues, list) or not raw_issues:
        raise InputError(source, "issues", "expected a non-empty list")
    issues, seen = [], set()
    for k, ri in enumerate(raw_issues):
        where = f"issues[{k}]."
        if not isinstance(ri, Mapping):
            raise InputError(source, f"issues[{k}]", "expected an object")
        name = _need(ri, "name", source, where)
        if not isinstance(name, str) or not name or name in seen:
            raise InputError(source, f"{where}name", f"must be a unique non-empty string, got {name!r}")
        seen.add(name)
        kind = _need(ri, "type", source, where)
        if kind not in KINDS:
            raise InputError(source, f"{where}type", f"{kind!r} is not one of {', '.join(KINDS)}")
        if kind == "integer":
            count = _need(ri, "count", source, where)
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 20:
                raise InputError(source, f"{where}count", f"expected an integer 1..20, got {count!r}")
            issues.append(Issue(name, kind, count=count))
        elif kind == "categorical":
            opts = _need(ri, "options", source, where)
            if (not isinstance(opts, list) or len(opts) < 2
                    or not all(isinstance(o, str) and o for o in opts) or len(set(opts)) != len(opts)):
                raise InputError(source, f"{where}options", "expected a list of at least two distinct names")
            issues.append(Issue(name, kind, options=tuple(opts)))
        else:
            issues.append(Issue(name, kind))
    size = 1
    for i in issues:
        size *= i.size
    if size > 200_000:
        raise InputError(source, "issues", f"outcome space of {size} outcomes is too large (max 200000)")
    levels = _need(data, "levels", source)
    if not isinstance(levels, list) or len(levels) != len(issues):
        raise InputError(source, "levels", f"expected a list of {len(issues)} numbers (one per priority rank)")
    levels = tuple(_number(v, source, f"levels[{k}]") for k, v in enumerate(levels))
    if list(levels) != sorted(levels, reverse=True):
        raise InputError(source, "levels", "must be in decreasing order")
    option_levels = data.get("option_levels", [1.0])
    if not isinstance(option_levels, list) or not option_levels:
        raise InputError(source, "option_levels", "expected a non-empty list of numbers")
    option_levels = tuple(_number(v, source, f"option_levels[{k}]") for k, v in enumerate(option_levels))
    ncat = max((len(i.options) for i in issues if i.kind == "categorical"), default=0)
    if ncat and len(option_levels) < ncat:
        raise InputError(source, "option_levels", f"needs at least {ncat} values")
    batna = _number(_need(data, "batna", source), source, "batna")
    theta_f = _number(data.get("theta_f", 4), source, "theta_f")
    lp = data.get("lp", {})
    if not isinstance(lp, Mapping):
        raise InputError(source, "lp", "expected an object")
    min_own = _number(lp.get("min_own", 0), source, "lp.min_own")
    min_partner = _number(lp.get("min_partner", 0), source, "lp.min_partner")
    agent = _valuation(_need(data, "agent", source), issues, source, "agent")
    raw_setups = _need(data, "setups", source)
    if not isinstance(raw_setups, Mapping) or not raw_setups:
        raise InputError(source, "setups", "expected a non-empty object of named setups")
    setups = []
    for name, rs in raw_setups.items():
        where = f"setups.{name}"
        if not isinstance(rs, Mapping) or not isinstance(rs.get("partners"), list) or not rs["partners"]:
            raise InputError(source, f"{where}.partners", "expected a non-empty list of partner valuations")
        origin = rs.get("source", "paper")
        if origin not in ("paper", "simcore"):
            raise InputError(source, f"{where}.source", f"expected 'paper' or 'simcore', got {origin!r}")
        setups.append(Setup(name, tuple(_valuation(p, issues, source, f"{where}.partners[{k}]")
                                        for k, p in enumerate(rs["partners"])), origin))
    domain = Domain(id=did, title=str(data.get("title", did)), description=str(data.get("description", "")),
                    issues=tuple(issues), levels=levels, option_levels=option_levels, batna=batna,
                    theta_f=theta_f, min_own=min_own, min_partner=min_partner, agent=agent,
                    setups=tuple(setups), source=source)
    _check_floors(domain, source)
    return domain


def _check_floors(d: Domain, source: str) -> None:
    """The LP floors (``lp.min_own``, ``lp.min_partner``) must leave some outcome: for
    the agent's values and each partner valuation of each setup, one outcome must give
    the agent at least ``min_own`` and that partner at least ``min_partner``."""
    own = d.scores(d.agent, "agent")  # (cached on the domain: the protocol reads the same table)
    best_own = max(own)
    if min(d.min_own, d.min_partner) < 0:
        which = "lp.min_own" if d.min_own < 0 else "lp.min_partner"
        raise InputError(source, which, "must not be negative")
    if d.min_own > best_own + 1e-9:
        raise InputError(source, "lp.min_own", f"{d.min_own:g} is more than the agent can score "
                         f"(at most {best_own:g})")
    floor, outcomes, min_partner = d.min_own - 1e-9, d.outcomes, d.min_partner
    feasible = [i for i, sa in enumerate(own) if sa >= floor]  # (outcomes giving the agent its floor)
    for setup in d.setups:
        for k, partner in enumerate(setup.partners):
            # one outcome that leaves the partner its floor is enough (the test below passes for the best
            # exactly when it passes for some outcome): found, usually among the first, with no table built
            if any(not min_partner > d.score(partner, outcomes[i], "partner") + 1e-9 for i in feasible):
                continue
            theirs = d.scores(partner, "partner")
            best = max([theirs[i] for i in feasible], default=None)
            if best is None or d.min_partner > best + 1e-9:
                raise InputError(source, "lp.min_partner",
                                 f"{d.min_partner:g} leaves no outcome for setups.{setup.name}.partners[{k}] "
                                 f"(with lp.min_own {d.min_own:g} the partner scores at most {best:g})")


@caches.lru("scenarios.bilateral: loaded domains by id or path", maxsize=32)
def load_domain(path_or_id: str) -> Domain:
    """A shipped domain by id (``casino-v1``, ``casino``) or a domain file by path."""
    key = path_or_id
    if key in SHIPPED or f"{key}-v1" in SHIPPED:
        path = os.path.join(DATA_DIR, SHIPPED.get(key) or SHIPPED[f"{key}-v1"])
    else:
        path = key
        if not os.path.exists(path):
            raise InputError(path, "", f"no such domain file or shipped domain id (shipped: "
                             f"{', '.join(SHIPPED)})")
    return parse_domain(read_data(path), path)


def describe(scenario_id: str) -> str:
    """Text for ``simcore scenarios show``."""
    d = load_domain(scenario_id)
    lines = [f"{d.id}: {d.title}", d.description, "issues:"]
    for i in d.issues:
        extra = f"{i.count} units" if i.kind == "integer" else (", ".join(i.options) if i.options else "true/false")
        lines.append(f"  {i.name} ({i.kind}): {extra}")
    lines.append(f"outcomes: {len(d.outcomes)}; BATNA {d.batna:g}; theta_f {d.theta_f:g}; "
                 f"LP floors own>={d.min_own:g} partner>={d.min_partner:g}")
    lines.append(f"agent: {json.dumps(d.agent.as_dict(d.issues))} (max {d.max_score(d.agent):g})")
    for s in d.setups:
        for k, p in enumerate(s.partners):
            tag = " (simcore's addition)" if s.source == "simcore" else ""
            lines.append(f"setup {s.name}[{k}]{tag}: partner {json.dumps(p.as_dict(d.issues))}")
    return "\n".join(lines)
