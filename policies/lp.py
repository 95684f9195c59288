"""ASTRA stage 2: the offer LP (paper Figure 8, eq. 3) and its parameter sweep.

One problem, two solver backends behind one interface (:class:`Solver.solve`):

``pulp``  (the reference) builds the integer program of Figure 8 with PuLP and
          solves it with HiGHS (``highspy``); categorical issues become one-hot binaries with
          ``sum == 1`` and binary issues a 0/1 variable, as in Table 8.
``exact`` enumerates the finite outcome space.

The problem, for the agent's values ``v_a`` and the inferred partner values ``v_p``::

    maximize   S_a + (1 - lambda) * S_p
    subject to S_a <= max_bound,  S_a >= min_own,  S_p >= min_partner
    (CaSiNo: min_own = 10, min_partner = 5, Figure 8)

**Tie-break (both backends).**  Among the outcomes whose objective is within
``TOL = 1e-6`` of the optimum, take the one with the highest agent score ``S_a``
(again within ``TOL``), and among those the one that comes first in the domain's
enumeration order (``itertools.product`` over the issues in file order, values
ascending).  The pulp backend realises this lexicographically with three solves
(maximize the objective; fix it and maximize ``S_a``; fix both and minimize the
enumeration index, which is a linear mixed-radix number of the variables), so the
two backends return the same outcome, not only the same objective value.  An
infeasible problem returns ``None`` and is dropped from the sweep (the public code
kept such solves as bogus candidates).

**Sweep (section 2.3).**  lambda is taken in a window of +-0.3 around the chosen
value in steps of 0.1, computed in integer tenths so it never leaves [0, 1] (the
public code's float ranges produced lambda > 1); ``max_bound`` from the chosen bound
downward in 1-point steps for ``bound_span`` points (paper: 10; code: 6).  Unique
outcomes are sorted by agent score, then partner score, then enumeration index; after
the agent's first offer only candidates with ``S_a >= `` its previous offer's
agent score or ``S_p >=`` its previous offer's partner score are kept; the top
``top_n`` (default 5) are the candidates.
"""

from __future__ import annotations

import warnings
from typing import Optional, Sequence

import attrs
import pulp

from policies.pulp_compat import add_variable, make_engine, solved_optimal
from simcore import caches

TOL = 1e-6
_SPACES: dict = caches.memo("policies.lp: outcome spaces with both sides' scores")


@attrs.frozen
class Space:
    """The outcome space with both sides' scores (the agent's true values, the
    partner's *inferred* values)."""

    outcomes: tuple = attrs.field(repr=False)
    s_a: tuple = attrs.field(repr=False)
    s_p: tuple = attrs.field(repr=False)
    domain: object = attrs.field(repr=False, eq=False)
    own: object = attrs.field(repr=False)
    partner: object = attrs.field(repr=False)
    _order_cache: dict = attrs.field(factory=dict, repr=False, eq=False)
    _index: dict = attrs.field(factory=dict, repr=False, eq=False)

    def index_of(self, outcome) -> int:
        if not self._index:
            self._index.update({o: i for i, o in enumerate(self.outcomes)})
        return self._index[outcome]

    @classmethod
    def cached(cls, domain, own, partner) -> "Space":
        """A shared Space per (domain, own values, partner values) -- pure data, so
        sharing it between episodes cannot change results."""
        key = (domain.id, domain.source, own, partner)
        got = _SPACES.get(key)
        if got is None:
            if len(_SPACES) > 4096:
                _SPACES.clear()
            got = _SPACES[key] = cls.build(domain, own, partner)
        return got

    @classmethod
    def build(cls, domain, own, partner) -> "Space":
        # (domain.scores: the same values as domain.score outcome by outcome, kept on the domain)
        return cls(domain.outcomes, domain.scores(own, "agent"), domain.scores(partner, "partner"), domain, own,
                   partner)

    def order_for(self, lam_tenths: int, min_own: float, min_partner: float) -> list:
        """Feasible outcome indices (ignoring the bound) in tie-break order for lambda."""
        key = (lam_tenths, min_own, min_partner)
        got = self._order_cache.get(key)
        if got is None:
            k = 1.0 - lam_tenths / 10.0
            s_a, s_p = self.s_a, self.s_p
            feas = [i for i in range(len(s_a)) if s_a[i] >= min_own - TOL and s_p[i] >= min_partner - TOL]
            # sort by objective (rounded to TOL so float noise cannot split a tie), then S_a, then index
            got = sorted(feas, key=lambda i: (-round((s_a[i] + k * s_p[i]) / TOL) * TOL, -round(s_a[i] / TOL), i))
            got = [(i, s_a[i]) for i in got]
            self._order_cache[key] = got
        return got


@attrs.frozen
class Solution:
    index: int
    outcome: tuple
    s_a: float
    s_p: float
    objective: float


def _lam_tenths(lam: float) -> int:
    t = int(round(lam * 10))
    if not 0 <= t <= 10 or abs(t / 10 - lam) > 1e-9:
        raise ValueError(f"lambda must be a multiple of 0.1 in [0, 1], got {lam!r}")
    return t


class ExactSolver:
    """Enumeration of the outcome space, in the documented tie-break order."""

    name = "exact"

    def solve(self, space: Space, lam: float, max_bound: float, min_own: float,
              min_partner: float) -> Optional[Solution]:
        t = _lam_tenths(lam)
        for i, sa in space.order_for(t, min_own, min_partner):
            if sa <= max_bound + TOL:
                sp = space.s_p[i]
                return Solution(i, space.outcomes[i], sa, sp, sa + (1 - t / 10) * sp)
        return None


    def solve_many(self, space: Space, lam: float, bounds, min_own: float, min_partner: float) -> list:
        """``[solve(...).index for b in bounds]`` (None when infeasible) in one pass over
        the ordered outcomes; the same answers as :meth:`solve`."""
        t = _lam_tenths(lam)
        out: dict = {}
        left = sorted(set(bounds))
        for i, sa in space.order_for(t, min_own, min_partner):
            if not left:
                break
            while left and sa <= left[-1] + TOL:
                out[left.pop()] = i
        return [out.get(b) for b in bounds]


class PulpSolver:
    """The integer program of Figure 8 built with PuLP (three lexicographic solves for
    the tie-break), solved by HiGHS through the ``highspy`` package (default) or by the
    CBC binary that PuLP 3 bundles (``engine="cbc"``).

    Works with PuLP 3.0.2 and later, 3.x and 4.x alike (:mod:`policies.pulp_compat`
    holds the two places where the APIs differ).  HiGHS is the default because PuLP 4
    no longer ships CBC while ``highspy`` installs from PyPI as a wheel on every
    platform PuLP supports; both engines return the same outcome (the tie-break makes
    the optimum unique) -- tests compare both with :class:`ExactSolver`.
    """

    name = "pulp"
    ENGINES = ("highs", "cbc")

    def __init__(self, time_limit: float | None = None, engine: str = "highs"):
        if engine not in self.ENGINES:
            raise ValueError(f"unknown pulp engine {engine!r}; valid: {', '.join(self.ENGINES)}")
        self.time_limit = time_limit
        self.engine = engine

    def _model(self, prob, space: Space):


        domain, own, partner = space.domain, space.own, space.partner
        s_a, s_p, index, decode = 0, 0, 0, []
        radix = 1
        radices = []
        for issue in reversed(domain.issues):
            radices.append(radix)
            radix *= issue.size
        radices.reverse()
        for k, (issue, wa, fa, wp, fp, r) in enumerate(zip(domain.issues, own.weights, own.factors,
                                                           partner.weights, partner.factors, radices)):
            if issue.kind == "integer":
                x = add_variable(prob, f"x{k}", 0, issue.count, "Integer")
                s_a += wa * x
                s_p += wp * (issue.count - x)
                index += r * x
                decode.append(("int", x))
            elif issue.kind == "categorical":
                ys = [add_variable(prob, f"c{k}_{j}", 0, 1, "Binary") for j in range(len(issue.options))]
                s_a += pulp.lpSum(wa * fa[j] * y for j, y in enumerate(ys))
                s_p += pulp.lpSum(wp * fp[j] * y for j, y in enumerate(ys))
                index += pulp.lpSum(r * j * y for j, y in enumerate(ys))
                decode.append(("cat", ys))
            else:
                b = add_variable(prob, f"b{k}", 0, 1, "Binary")
                s_a += wa * b
                s_p += wp * b
                index += r * b
                decode.append(("bin", b))
        return s_a, s_p, index, decode

    def _infeasible(self, space: Space, max_bound: float, min_own: float, min_partner: float) -> bool:
        """Whether no outcome meets the constraints: the least total violation of the three
        score constraints, each given a slack variable, is above ``TOL``."""


        prob = pulp.LpProblem("ASTRA_offer_feasibility", pulp.LpMinimize)
        s_a, s_p, _index, decode = self._model(prob, space)
        slack = [add_variable(prob, f"slack{k}", 0, None, "Continuous") for k in range(3)]
        prob.setObjective(pulp.lpSum(slack))
        prob += (s_a - slack[0] <= max_bound + TOL, "bound")
        prob += (s_a + slack[1] >= min_own - TOL, "min_own")
        prob += (s_p + slack[2] >= min_partner - TOL, "min_partner")
        for k, (kind, var) in enumerate(decode):
            if kind == "cat":
                prob += (pulp.lpSum(var) == 1, f"one_of_{k}")
        if not self._run(prob):  # pragma: no cover - feasible by construction
            raise pulp.PulpSolverError(f"the {self.engine} engine solved no elastic problem")
        return pulp.value(prob.objective) > TOL

    def _run(self, prob) -> bool:

        return solved_optimal(prob.solve(make_engine(self.engine, self.time_limit)))

    def solve(self, space: Space, lam: float, max_bound: float, min_own: float,
              min_partner: float) -> Optional[Solution]:

        with warnings.catch_warnings():  # pulp 3.3 deprecation notices for the 4.0 API
            warnings.simplefilter("ignore", DeprecationWarning)
            return self._solve(space, lam, max_bound, min_own, min_partner)

    def _solve(self, space, lam, max_bound, min_own, min_partner):

        t = _lam_tenths(lam)
        prob = pulp.LpProblem("ASTRA_offer", pulp.LpMaximize)
        s_a, s_p, index, decode = self._model(prob, space)
        objective = s_a + (1 - t / 10) * s_p
        # Every constraint is named and every objective is a fresh expression: PuLP 3.0-3.2
        # name the objective's expression "OBJ" in place, so a later constraint built from
        # that same expression object would collide with it ("overlapping constraint names").
        prob.setObjective(objective + 0)
        prob += (s_a <= max_bound + TOL, "bound")
        prob += (s_a >= min_own - TOL, "min_own")
        prob += (s_p >= min_partner - TOL, "min_partner")
        for k, (kind, var) in enumerate(decode):
            if kind == "cat":
                prob += (pulp.lpSum(var) == 1, f"one_of_{k}")
        try:
            optimal = self._run(prob)
        except pulp.PulpSolverError:
            # CBC 2.10 (PuLP 3's bundled binary) dies with a segmentation fault, with
            # preprocessing off, on some problems whose relaxation is feasible but that have
            # no integer solution (agent weights (0, 4, 0), lambda 0.3, bound 10.8: 4 x1 in
            # [10, 10.8]); HiGHS and the exact solver say infeasible.  The elastic problem
            # is feasible whatever the constraints, so it decides: infeasible -> None.
            if self._infeasible(space, max_bound, min_own, min_partner):
                return None
            raise
        if not optimal:
            return None
        z = pulp.value(objective)
        prob += (objective >= z - TOL, "fix_objective")
        prob.setObjective(s_a + 0)
        if not self._run(prob):  # pragma: no cover - feasible by construction
            return None
        best_a = pulp.value(s_a)
        prob += (s_a >= best_a - TOL, "fix_s_a")
        prob.sense = pulp.LpMinimize
        prob.setObjective(index + 0)
        if not self._run(prob):  # pragma: no cover
            return None
        outcome = []
        for kind, var in decode:
            if kind == "cat":
                outcome.append(max(range(len(var)), key=lambda j: var[j].varValue))
            else:
                outcome.append(int(round(var.varValue)))
        outcome = tuple(outcome)
        i = space.outcomes.index(outcome)
        return Solution(i, outcome, space.s_a[i], space.s_p[i], space.s_a[i] + (1 - t / 10) * space.s_p[i])


SOLVERS = {"exact": ExactSolver, "pulp": PulpSolver}


def make_solver(name: str):
    try:
        return SOLVERS[name]()
    except KeyError:
        raise ValueError(f"unknown solver {name!r}; valid: {', '.join(SOLVERS)}") from None


@caches.lru("policies.lp: lambda windows", maxsize=256)
def lambda_window(lam: float, window: float = 0.3, step: float = 0.1) -> tuple[float, ...]:
    """lambda values of the sweep: +-window around ``lam`` in ``step`` steps, inside [0, 1]."""
    c, w, s = _lam_tenths(lam), int(round(window * 10)), max(1, int(round(step * 10)))
    return tuple(k / 10 for k in range(max(0, c - w), min(10, c + w) + 1, s))


@attrs.frozen
class SweepResult:
    candidates: tuple[Solution, ...]
    solves: int
    infeasible: int


def sweep(solver, space: Space, lam: float, bound: float, *, min_own: float, min_partner: float,
          window: float = 0.3, bound_span: int = 10, top_n: int = 5,
          previous: Optional[Sequence[float]] = None) -> SweepResult:
    """Stage 2: solve over the lambda window and the descending bounds; top-N candidates."""
    many = getattr(solver, "solve_many", None)
    cache_key = ("sweep", lam, bound, min_own, min_partner, window, bound_span)
    cached = space._order_cache.get(cache_key) if many else None  # exact answers are pure: reuse
    if cached is None:
        found: dict[int, Solution] = {}
        solves = infeasible = 0
        bounds = [bound - k for k in range(0, bound_span + 1)]
        for lam_k in lambda_window(lam, window):
            if many:
                idx = many(space, lam_k, bounds, min_own, min_partner)
            else:
                idx = [None if s is None else s.index for s in
                       (solver.solve(space, lam_k, b, min_own, min_partner) for b in bounds)]
            k = 1 - lam_k
            for i in idx:
                solves += 1
                if i is None:
                    infeasible += 1
                    continue
                if i not in found:
                    found[i] = Solution(i, space.outcomes[i], space.s_a[i], space.s_p[i],
                                        space.s_a[i] + k * space.s_p[i])
        cached = (tuple(sorted(found.values(), key=lambda s: (-s.s_a, -s.s_p, s.index))), solves, infeasible)
        if many:
            space._order_cache[cache_key] = cached
    cands, solves, infeasible = cached
    if previous is not None:
        pa, pp = previous
        cands = [c for c in cands if c.s_a >= pa - TOL or c.s_p >= pp - TOL]
    return SweepResult(tuple(cands[:top_n]), solves, infeasible)
