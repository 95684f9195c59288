"""Preferences and mental models of the dominance agent.

==========================  ===========================================================
rule                        source
==========================  ===========================================================
preferences are pairwise    notes: "a set of pairwise statements less < more (one side
statements, closed          may be empty: most / least preferred), closed transitively"
transitively
(None, v): v beats every    notes: "most preferred"; (v, None): every other value beats
other value                 v ("least preferred")
score(v) = #beaten -        notes: "+1 for every value it beats and -1 for every value
#beating                    that beats it"; contradictory pairs cancel
bestScoreOfPreference       seed Fig. 2; the highest score of the criterion's values
self / other / OAS models   notes: "self (my preferences), other (what I have learned of
                            the user's), OAS (what I have told the user about mine)"
isInOAS(value)              notes: "I have already stated a preference about that value"
option utility              notes: "options judged by utility ranking"; here
                            sum over criteria of score(value) / bestScore (each criterion
                            weighs the same; choice where the sources are silent)
option acceptable           notes: dominant top quarter, peer top half, submissive top
                            half or an option already on the table (ties at the
                            threshold count as inside; ``option_share`` parameter)
==========================  ===========================================================

Statements are never removed: :meth:`Preferences.add` only grows the set (a
contradicting statement is kept and cancels in the score), so no stated preference
is ever lost.
"""

from __future__ import annotations

import math
from typing import Iterable, Optional

import attrs
import numpy as np
from simcore import caches

RELATIONS = ("dominant", "peer", "submissive")
Pair = tuple  # (less | None, more | None)


def _closure(values: tuple[str, ...], statements: tuple[Pair, ...]) -> frozenset:
    """The transitive closure of the statements, stars expanded over ``values``."""
    edges: set = set()
    for less, more in statements:
        if less is None:
            edges.update((x, more) for x in values if x != more)
        elif more is None:
            edges.update((less, x) for x in values if x != less)
        else:
            edges.add((less, more))
    if len(edges) > 1:
        succ = {v: {b for a, b in edges if a == v} for v in values}
        changed = True
        while changed:
            changed = False
            for v in values:
                grown = set(succ[v])
                for w in succ[v]:
                    grown |= succ[w]
                grown.discard(v)
                if grown != succ[v]:
                    succ[v] = grown
                    changed = True
        edges = {(a, b) for a in values for b in succ[a]}
    return frozenset(edges)


@attrs.frozen
class Preferences:
    """Pairwise preference statements over one criterion's values (a value object)."""

    criterion: str
    values: tuple[str, ...] = attrs.field(converter=tuple)
    statements: tuple[Pair, ...] = attrs.field(default=(), converter=tuple)

    @statements.validator
    def _check(self, _a, stmts):
        for less, more in stmts:
            for v in (less, more):
                if v is not None and v not in self.values:
                    raise ValueError(f"{v!r} is not a value of {self.criterion!r}")
            if less == more:
                raise ValueError(f"statement ({less!r}, {more!r}) compares a value with itself")

    def add(self, less: Optional[str], more: Optional[str]) -> "Preferences":
        """A copy with the statement added (no-op when already stated)."""
        if (less, more) in self.statements:
            return self
        return attrs.evolve(self, statements=self.statements + ((less, more),))

    @property
    def closure(self) -> frozenset:
        c = _CLOSURE_CACHE.get((self.values, self.statements))
        if c is None:
            c = _closure(self.values, self.statements)
            if len(_CLOSURE_CACHE) > 50000:
                _CLOSURE_CACHE.clear()
            _CLOSURE_CACHE[(self.values, self.statements)] = c
        return c

    def prefers(self, less: str, more: str) -> bool:
        """``less < more`` follows from the statements."""
        return (less, more) in self.closure

    def implies(self, less: Optional[str], more: Optional[str]) -> bool:
        """The statement (less, more) -- stars allowed -- follows from what is stated."""
        clo = self.closure
        if less is None:
            return all((x, more) in clo for x in self.values if x != more)
        if more is None:
            return all((less, x) in clo for x in self.values if x != less)
        return (less, more) in clo

    def score(self, value: str) -> int:
        clo = self.closure
        return sum(1 for a, b in clo if b == value) - sum(1 for a, b in clo if a == value)

    def scores(self) -> dict[str, int]:
        out = {v: 0 for v in self.values}
        for a, b in self.closure:
            out[b] += 1
            out[a] -= 1
        return out

    def best_score(self) -> int:
        """bestScoreOfPreference (seed Fig. 2)."""
        return max(self.scores().values())

    def mentions(self, value: str) -> bool:
        return any(value in st for st in self.statements)

    def ranking(self) -> tuple[str, ...]:
        """Values by score, best first; ties keep the domain order."""
        sc = self.scores()
        return tuple(sorted(self.values, key=lambda v: (-sc[v], self.values.index(v))))


_CLOSURE_CACHE: dict = caches.memo("policies.dominance_state: preference closures by statements")


def total_order(criterion: str, ranking_best_first: Iterable[str], values: tuple[str, ...]) -> Preferences:
    """Preferences stating a total order (consecutive pairs; the closure does the rest)."""
    r = list(ranking_best_first)
    stmts = tuple((r[i + 1], r[i]) for i in range(len(r) - 1))
    return Preferences(criterion, values, stmts)


def random_preferences(domain, rng: np.random.Generator) -> dict[str, Preferences]:
    """A random total order per criterion (each permutation equally likely)."""
    out = {}
    for c in domain.criteria:
        perm = rng.permutation(len(c.values))
        out[c.name] = total_order(c.name, [c.values[i] for i in perm], c.values)
    return out


@attrs.frozen
class OptionJudge:
    """Utility ranking of whole options for one agent (computed once from ``self``)."""

    utility: dict = attrs.field(eq=False)
    order: tuple = attrs.field(converter=tuple, eq=False)  # option names, best first
    threshold: dict = attrs.field(eq=False)                # relation -> utility cut

    @classmethod
    def build(cls, domain, prefs: dict[str, Preferences], option_share: dict[str, float]) -> "OptionJudge":
        norm = {}
        for c in domain.criteria:
            sc = prefs[c.name].scores()
            best = max(sc.values())
            norm[c.name] = {v: (s / best if best > 0 else 0.0) for v, s in sc.items()}
        names = domain.criterion_names
        util = {o.name: round(sum(norm[c][v] for c, v in zip(names, o.values)), 9) for o in domain.options}
        order = sorted(util, key=lambda n: -util[n])  # stable: domain order among ties
        n = len(order)
        thr = {}
        for rel, share in option_share.items():
            k = max(1, math.ceil(share * n))
            thr[rel] = util[order[k - 1]]
        return cls(util, tuple(order), thr)

    def in_top(self, name: str, relation: str) -> bool:
        return self.utility[name] >= self.threshold[relation]

    def normalised(self, name: str) -> float:
        lo, hi = self.utility[self.order[-1]], self.utility[self.order[0]]
        return 1.0 if hi == lo else (self.utility[name] - lo) / (hi - lo)
