"""Scorable multi-party games as data: the one validated loader for the game file format.

A game file is JSON (``.json``) or TOML (``.toml``, read with the standard library's
``tomllib``) with these fields (see ``docs/systems/scorable.md`` for a full example)::

    format        "simcore-scorable-game/1"   (optional; checked when present)
    id            short name, e.g. "harbour-sport-park"  (default: the file stem)
    title, description                        (optional strings)
    issues        list of {name, title, options: [option label, ...]}
                  name is letters only (A, B, ...); option k (1-based) of issue A is "A<k>"
    parties       list of {name, short, role: "p1"|"p2"|"other", veto: bool,
                  threshold: 0..100, scores: {issue name: [score per option]}}
    initial_deal  p1's opening deal: ["A1", "B1", ...] (one option id per issue, in issue
                  order) or {"A": "A1", ...}
    turns         number of turns between the opening and the final proposal
                  (default 4 x number of parties)

Rules the loader enforces (each failure is an :class:`~simcore.errors.InputError`
naming the file, the party/issue and the problem): 3 to 8 parties with unique names;
exactly one ``p1`` and at most one ``p2``; at least one veto holder; unique issue
names; 2 to 20 options per issue; a score list per party and issue whose length equals
the option count, scores within 0..100 and the best options summing to at most 100;
thresholds within 0..100; every option of the initial deal known.

Acceptance is ``score >= threshold`` (the benchmark's prompt; the seed's deal counts
need it); ``strict=True`` gives the seed's sec. 2 wording ``score > threshold`` (an
option: Harbour Sport Park then has 18 passing and 1 unanimous deal, not the seed's 21
and 3).  A deal *passes* when at least N-1 parties accept it, every veto holder among
them; it is *unanimous* when all N accept.
"""

from __future__ import annotations

import functools
import math
import os
import re
from typing import Any, Mapping

import attrs
import numpy as np

from scenarios.datafile import read_data
from simcore import caches
from simcore.errors import InputError

FORMAT = "simcore-scorable-game/1"
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SHIPPED = ("harbour-sport-park", "harbour-sport-park-original")
ROLES = ("p1", "p2", "other")
MAX_DEALS = 2_000_000
_ISSUE_NAME = re.compile(r"^[^\W\d_]+$")  # letters of any script; mockllm/scorable.py reads them back


def _tuple_of_str(v):
    return tuple(str(x) for x in v)


@attrs.frozen
class Issue:
    name: str
    title: str
    options: tuple[str, ...] = attrs.field(converter=_tuple_of_str)

    def option_id(self, k: int) -> str:
        return f"{self.name}{k + 1}"

    @property
    def option_ids(self) -> tuple[str, ...]:
        return tuple(self.option_id(k) for k in range(len(self.options)))


@attrs.frozen
class Party:
    name: str
    short: str
    role: str = attrs.field(validator=attrs.validators.in_(ROLES))
    veto: bool
    threshold: float
    scores: tuple[tuple[float, ...], ...] = attrs.field(
        converter=lambda rows: tuple(tuple(float(x) for x in r) for r in rows))

    @property
    def best(self) -> float:
        return float(sum(max(r) for r in self.scores))


@attrs.frozen(eq=False)
class Game:
    """A validated scorable game.  Deals are tuples of option indices (0-based)."""

    id: str
    title: str
    description: str
    issues: tuple[Issue, ...] = attrs.field(converter=tuple)
    parties: tuple[Party, ...] = attrs.field(converter=tuple)
    initial_deal: tuple[int, ...] = attrs.field(converter=tuple)
    turns: int
    source: str = ""

    # -- structure ---------------------------------------------------------
    @property
    def n_parties(self) -> int:
        return len(self.parties)

    @property
    def n_issues(self) -> int:
        return len(self.issues)

    @functools.cached_property
    def option_counts(self) -> tuple[int, ...]:
        return tuple(len(i.options) for i in self.issues)

    @property
    def p1(self) -> int:
        return next(k for k, p in enumerate(self.parties) if p.role == "p1")

    @property
    def veto_holders(self) -> tuple[int, ...]:
        return tuple(k for k, p in enumerate(self.parties) if p.veto)

    @functools.cached_property
    def n_deals(self) -> int:
        return int(math.prod(self.option_counts))

    def deal_ids(self, deal) -> tuple[str, ...]:
        return tuple(iss.option_id(int(k)) for iss, k in zip(self.issues, deal))

    def deal_str(self, deal) -> str:
        return "".join(self.deal_ids(deal))

    def parse_deal(self, ids, source: str = "<deal>") -> tuple[int, ...]:
        return _parse_deal(self, ids, source)

    # -- scores --------------------------------------------------------------
    @functools.cached_property
    def deals(self) -> np.ndarray:
        """Every deal as a (n_deals, M) array of option indices, in lexicographic order."""
        grids = np.meshgrid(*[np.arange(k) for k in self.option_counts], indexing="ij")
        return np.stack([g.ravel() for g in grids], axis=1).astype(np.int16)

    @functools.cached_property
    def deal_cells(self) -> np.ndarray:
        """:func:`deal_cells` of this game's issues."""
        return deal_cells(self.option_counts)

    def tables(self) -> list[list[np.ndarray]]:
        return [[np.asarray(r, dtype=float) for r in p.scores] for p in self.parties]

    @functools.cached_property
    def deal_scores(self) -> np.ndarray:
        """(N, n_deals) true score of every deal for every party."""
        d = self.deals
        out = np.zeros((self.n_parties, len(d)))
        for n, p in enumerate(self.parties):
            for m, row in enumerate(p.scores):
                out[n] += np.asarray(row)[d[:, m]]
        return out

    def score(self, party: int, deal) -> float:
        return float(sum(self.parties[party].scores[m][int(k)] for m, k in enumerate(deal)))

    def accepts(self, deal, strict: bool = False) -> tuple[bool, ...]:
        """Per party: score >= threshold (``strict``: score > threshold)."""
        if strict:
            return tuple(self.score(n, deal) > p.threshold for n, p in enumerate(self.parties))
        return tuple(self.score(n, deal) >= p.threshold for n, p in enumerate(self.parties))

    def passes(self, deal, strict: bool = False) -> bool:
        acc = self.accepts(deal, strict)
        return sum(acc) >= self.n_parties - 1 and all(acc[v] for v in self.veto_holders)

    def unanimous(self, deal, strict: bool = False) -> bool:
        return all(self.accepts(deal, strict))

    def acceptance(self, strict: bool = False) -> np.ndarray:
        """(n_parties, n_deals) bool: each party's :meth:`accepts` of every deal of :attr:`deals`."""
        thr = np.array([p.threshold for p in self.parties])[:, None]
        return self.deal_scores > thr if strict else self.deal_scores >= thr

    def passing(self, strict: bool = False, acc: np.ndarray | None = None) -> np.ndarray:
        """(n_deals,) bool: :meth:`passes` of every deal of :attr:`deals` (``acc``: the
        :meth:`acceptance` table when the caller has it already)."""
        if acc is None:
            acc = self.acceptance(strict)
        return (acc.sum(axis=0) >= self.n_parties - 1) & acc[list(self.veto_holders)].all(axis=0)

    def counts(self, strict: bool = False) -> dict[str, int]:
        """Number of deals, of passing deals and of unanimous deals."""
        acc = self.acceptance(strict)
        return {"deals": int(acc.shape[1]), "passing": int(self.passing(acc=acc).sum()),
                "unanimous": int((acc.sum(axis=0) == self.n_parties).sum())}


def deal_cells(option_counts: tuple[int, ...]) -> np.ndarray:
    """(n_issues, n_deals) for every deal in lexicographic order (:attr:`Game.deals`), the cell of
    its option on each issue in the issues' score rows laid end to end: a per-issue table,
    concatenated and indexed by it, gives every deal's entries, one row per issue."""
    grids = np.meshgrid(*[np.arange(k) for k in option_counts], indexing="ij")
    offsets = np.cumsum((0,) + tuple(option_counts[:-1]))
    cells = np.stack([g.ravel() + off for g, off in zip(grids, offsets)]).astype(np.intp)
    cells.setflags(write=False)
    return cells


# ---------------------------------------------------------------------------
# loading and validation
# ---------------------------------------------------------------------------
def _need(cond: bool, source: str, field: str, problem: str) -> None:
    if not cond:
        raise InputError(source, field, problem)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _parse_deal(game: Game, ids, source: str, field: str = "initial_deal") -> tuple[int, ...]:
    names = [i.name for i in game.issues]
    if isinstance(ids, Mapping):
        _need(set(ids) == set(names), source, field,
              f"needs exactly one option per issue ({', '.join(names)}); got keys {sorted(map(str, ids))}")
        ids = [ids[n] for n in names]
    _need(isinstance(ids, (list, tuple)) and len(ids) == len(names), source, field,
          f"needs one option id per issue in order ({', '.join(names)})")
    out = []
    for issue, oid in zip(game.issues, ids):
        _need(isinstance(oid, str) and oid in issue.option_ids, source, f"{field}.{issue.name}",
              f"unknown option {oid!r}; valid: {', '.join(issue.option_ids)}")
        out.append(issue.option_ids.index(oid))
    return tuple(out)


def from_dict(data: Any, source: str = "<game>") -> Game:
    """Validate a parsed game file and build the :class:`Game`."""
    _need(isinstance(data, Mapping), source, "", "a game file must hold a JSON/TOML object")
    fmt = data.get("format", FORMAT)
    _need(fmt == FORMAT, source, "format", f"unsupported format {fmt!r}; expected {FORMAT!r}")
    known = {"format", "id", "title", "description", "issues", "parties", "initial_deal", "turns"}
    extra = sorted(set(data) - known)
    _need(not extra, source, ", ".join(extra), f"unknown field(s); valid: {', '.join(sorted(known))}")
    for key in ("issues", "parties", "initial_deal"):
        _need(key in data, source, key, "missing")
    stem = os.path.splitext(os.path.basename(source))[0] if source else "game"
    gid = data.get("id", stem)
    _need(isinstance(gid, str) and gid.strip() != "", source, "id", "must be a non-empty string")
    for key in ("title", "description"):
        _need(isinstance(data.get(key, ""), str), source, key, "must be a string")

    raw_issues = data["issues"]
    _need(isinstance(raw_issues, list) and len(raw_issues) >= 1, source, "issues", "must be a non-empty list")
    issues, seen = [], set()
    for i, ri in enumerate(raw_issues):
        where = f"issues[{i}]"
        _need(isinstance(ri, Mapping), source, where, "must be an object with name and options")
        name = ri.get("name")
        _need(isinstance(name, str) and bool(_ISSUE_NAME.match(name)), source, f"{where}.name",
              f"issue name must be letters only (like 'A'), got {name!r}")
        where = f"issue {name}"
        _need(name not in seen, source, where, "duplicate issue name")
        seen.add(name)
        opts = ri.get("options")
        _need(isinstance(opts, list) and 2 <= len(opts) <= 20, source, f"{where}.options",
              "must be a list of 2 to 20 option labels")
        _need(all(isinstance(o, str) and o.strip() for o in opts), source, f"{where}.options",
              "option labels must be non-empty strings")
        _need(len(set(opts)) == len(opts), source, f"{where}.options", "duplicate option label")
        title = ri.get("title", name)
        _need(isinstance(title, str), source, f"{where}.title", "must be a string")
        issues.append(Issue(name=name, title=title, options=tuple(opts)))
    n_deals = math.prod(len(i.options) for i in issues)
    _need(n_deals <= MAX_DEALS, source, "issues", f"{n_deals} deals exceed the limit of {MAX_DEALS}")

    raw_parties = data["parties"]
    _need(isinstance(raw_parties, list) and 3 <= len(raw_parties) <= 8, source, "parties",
          "must be a list of 3 to 8 parties")
    parties, names, shorts = [], set(), set()
    for i, rp in enumerate(raw_parties):
        where = f"parties[{i}]"
        _need(isinstance(rp, Mapping), source, where, "must be an object")
        pk = sorted(set(rp) - {"name", "short", "role", "veto", "threshold", "scores"})
        _need(not pk, source, where, f"unknown field(s) {pk}")
        name = rp.get("name")
        _need(isinstance(name, str) and name.strip() != "", source, f"{where}.name", "must be a non-empty string")
        where = f"party {name}"
        _need(name not in names, source, where, "duplicate party name")
        names.add(name)
        short = rp.get("short", name)
        _need(isinstance(short, str) and short.strip() != "", source, f"{where}.short", "must be a non-empty string")
        _need(short not in shorts, source, f"{where}.short", f"duplicate short name {short!r}")
        shorts.add(short)
        role = rp.get("role", "other")
        _need(role in ROLES, source, f"{where}.role", f"unknown role {role!r}; valid: {', '.join(ROLES)}")
        veto = rp.get("veto", False)
        _need(isinstance(veto, bool), source, f"{where}.veto", "must be true or false")
        th = rp.get("threshold")
        _need(_is_number(th) and 0 <= th <= 100, source, f"{where}.threshold",
              f"threshold must be a number within 0..100, got {th!r}")
        sc = rp.get("scores")
        _need(isinstance(sc, Mapping), source, f"{where}.scores", "must map each issue name to a score list")
        unknown = sorted(set(sc) - seen)
        _need(not unknown, source, f"{where}.scores", f"unknown issue(s) {unknown}")
        rows = []
        for issue in issues:
            row = sc.get(issue.name)
            _need(row is not None, source, f"{where}.scores.{issue.name}", "missing")
            _need(isinstance(row, list) and len(row) == len(issue.options), source,
                  f"{where}.scores.{issue.name}",
                  f"table length {len(row) if isinstance(row, list) else '?'} differs from the "
                  f"option count {len(issue.options)}")
            _need(all(_is_number(x) and 0 <= x <= 100 for x in row), source,
                  f"{where}.scores.{issue.name}", "scores must be numbers within 0..100")
            rows.append(tuple(row))
        best = sum(max(r) for r in rows)
        _need(best <= 100 + 1e-9, source, f"{where}.scores",
              f"the best options sum to {best:g}; a score table must total at most 100")
        parties.append(Party(name=name, short=short, role=role, veto=veto, threshold=float(th), scores=rows))
    roles = [p.role for p in parties]
    _need(roles.count("p1") == 1, source, "parties", f"exactly one party must have role 'p1' (found {roles.count('p1')})")
    _need(roles.count("p2") <= 1, source, "parties", "at most one party may have role 'p2'")
    _need(any(p.veto for p in parties), source, "parties", "no veto holder (set \"veto\": true on at least one party)")
    _need(all(p.veto for p in parties if p.role == "p2"), source, "parties",
          "the party with role 'p2' has no veto; in the seed game p1 and p2 are the two veto holders (section "
          "4.1), so set \"veto\": true on it, or give it role 'other'")

    turns = data.get("turns", 4 * len(parties))
    _need(isinstance(turns, int) and not isinstance(turns, bool) and 1 <= turns <= 1000, source, "turns",
          f"must be an integer within 1..1000, got {turns!r}")
    game = Game(id=gid, title=data.get("title", gid), description=data.get("description", ""),
                issues=tuple(issues), parties=tuple(parties), initial_deal=(), turns=turns, source=source)
    deal = _parse_deal(game, data["initial_deal"], source)
    return attrs.evolve(game, initial_deal=deal)


def load_file(path: str) -> Game:
    """Load and validate a game file (``.json`` or ``.toml``)."""
    return from_dict(read_data(path), path)


@caches.lru("scenarios.scorable: shipped games by name", maxsize=16)
def load_shipped(name: str = "harbour-sport-park") -> Game:
    """A game shipped in ``scenarios/data`` by name."""
    if name not in SHIPPED:
        raise InputError("scenarios", "game", f"unknown game {name!r}; shipped: {', '.join(SHIPPED)}")
    return load_file(os.path.join(DATA_DIR, f"{name}.json"))


@caches.lru("scenarios.scorable: games by reference", maxsize=16)
def load_game(ref: str) -> Game:
    """A game by registry id (``harbour-sport-park`` / ``harbour-sport-park-v1``) or file path."""
    base = re.sub(r"-v\d+$", "", ref)
    if base in SHIPPED and not os.path.sep in ref:
        return load_shipped(base)
    if os.path.exists(ref) or ref.endswith((".json", ".toml")):
        return load_file(ref)
    raise InputError("--game", ref, f"neither a shipped game ({', '.join(SHIPPED)}) nor an existing file")


def unreachable(game: Game, strict: bool = False) -> list[str]:
    """The parties whose threshold no deal reaches (their best options sum to less, or with
    ``strict`` to at most it)."""
    out = []
    for p in game.parties:
        best = sum(max(row) for row in p.scores)
        if best < p.threshold or (strict and best <= p.threshold):
            out.append(f"{p.short} (best deal scores {best:g}, threshold {p.threshold:g})")
    return out


def check_playable(game: Game, option: str = "--game", ref: str = "", strict: bool = False) -> list[str]:
    """One InputError when no deal of ``game`` passes (every method would score 0/0/0);
    otherwise the warnings to show (parties no deal can satisfy)."""
    c = game.counts(strict=strict)
    if c["passing"] == 0:
        raise InputError(option, ref or game.source, f"no deal passes ({c['deals']} deals; >= N-1 parties above "
                         "their thresholds incl. every veto holder): every method would score 0/0/0"
                         + (f"; no deal reaches the threshold of {', '.join(unreachable(game, strict))}" if unreachable(game, strict) else ""))
    return [f"{ref or game.source}: no deal reaches the threshold of {u}" for u in unreachable(game, strict)]


def describe(scenario_id: str) -> str:
    """Text for ``simcore scenarios show``: issues, parties and the deal counts."""
    game = load_game(scenario_id)
    c = game.counts()
    lines = [f"{scenario_id}: {game.title} -- {game.description}",
             f"{game.n_parties} parties, {game.n_issues} issues, {game.turns} turns + opening + final",
             f"deals: {c['deals']}; passing (>= N-1 accept incl. every veto holder): {c['passing']} "
             f"({100 * c['passing'] / c['deals']:.1f}%); unanimous: {c['unanimous']} "
             f"({100 * c['unanimous'] / c['deals']:.1f}%)",
             f"p1's initial deal: {' '.join(game.deal_ids(game.initial_deal))}", "", "issues:"]
    for iss in game.issues:
        lines.append(f"  {iss.name} {iss.title}: " + ", ".join(f"{oid} {o}" for oid, o in zip(iss.option_ids, iss.options)))
    lines += ["", "parties (threshold, veto, score table):"]
    for p in game.parties:
        tab = "  ".join(f"{iss.name}{list(int(x) if float(x).is_integer() else x for x in r)}"
                        for iss, r in zip(game.issues, p.scores))
        lines.append(f"  {p.short:8s} {p.role:5s} tau={p.threshold:g}{' veto' if p.veto else ''}  {tab}")
    return "\n".join(lines)
