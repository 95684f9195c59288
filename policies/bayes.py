"""The exact Bayesian opponent model of the seed (sections 3.1-3.3, Appendix B.2).

Hypothesis space (after Hindriks and Tykhonov 2008)
    A hypothesis h = (issue ranking, one evaluation shape per issue).
    * Weights: every ranking of the M issues; the issue ranked r-th least important
      gets weight r / (M(M+1)/2), so weights are proportional to rank and sum to 1.
      M! weight vectors (120 for M = 5).  The seed (App. B.2) gives only "all possible
      permutations of issue rankings"; the rank-to-weight map is Hindriks and Tykhonov's
      (2008), the methodology B.2 says it follows.
    * Shapes: for an issue with K options, K linear "triangular" shapes, one peaking
      at each option p: v(o) = 1 - |o - p| / max(p, K-1-p), so v(p) = 1 and the
      farthest option gets 0 (downhill when p is the first option, uphill when it is
      the last).  prod K_m combinations (3*3*4*4*5 = 720 for the seed's game).
    The space is the product: 120 x 720 = 86,400 hypotheses for Harbour Sport Park.
    It is stored factored as (ranking index, shape-combination index): the posterior
    is a (M!, prod K) array; per-hypothesis arrays (weights, shape choices as uint8)
    are built once per game shape and cached at module level (:func:`hypothesis_space`).

Utility of a deal under h (eq. 2): U(d; h) = sum_m w_m v_m(d_m), on the [0, 1] scale.

Numeric likelihood (eq. 3): P(d_t | h) ~ exp(-(U(d_t; h) - u'(t))^2 / (2 sigma^2)),
    with sigma on the same [0, 1] utility scale (default 1.0, Appendix B.2) and the
    assumed target of a conceding opponent u'(t) = 1 - (1 - r) t / T (linear
    concession from 1 at the opening to the assumed reservation r at the final
    turn T; r = 0.5 by default -- the seed does not give u'(t)).

Linguistic likelihood (eq. 4, Luce's choice axiom), for every signal kind of the
seed's Figure 2 (entity issue/option x point/comparison x prefer/oppose); c(o) = w_m v_m(o):

    (source: eq. 4 gives the "issue x, point, prefer" row; the other rows are simcore's
    forms of its sentence "likelihoods for comparison or opposition are calculated based on
    the relative ratios of components within w and v" -- a choice of form, each the plainest
    Luce ratio of the named components; the signal kinds are Figure 2's; the floor below is
    a choice)

    =========================  ==============================================  ===========
    signal                     P(z | h)                                         alternatives
    =========================  ==============================================  ===========
    issue x, point, prefer     w_x / sum_m w_m                                  M
    issue x, point, oppose     (1 - w_x) / sum_m (1 - w_m)                      M
    issues (x, y), prefer      w_x / (w_x + w_y)                                2
    issues (x, y), oppose      w_y / (w_x + w_y)                                2
    option o of m, prefer      v_m(o) / sum_o' v_m(o')                          K_m
    option o of m, oppose      (1 - v_m(o)) / sum_o' (1 - v_m(o'))              K_m
    options (a, b), prefer     c(a) / (c(a) + c(b))   (1/2 when both are 0)     2
    options (a, b), oppose     c(b) / (c(a) + c(b))                             2
    =========================  ==============================================  ===========

    Each is mixed with a uniform floor: P' = (1 - eps) P + eps / (alternatives), so no
    hypothesis gets probability zero and complementary signals still sum to 1
    (eps = ``floor``, default 0.05; choice: the seed gives no floor, and without one a
    single contrary signal would zero a hypothesis for good).

Sources of the other rules: hypothesis space -- App. B.2 ("all possible permutations of
issue rankings", "modeled as linear functions", 120 x 720); utility -- eq. 2; numeric
likelihood -- eq. 3 with sigma = 1.0 from App. B.2 (its [0, 1] scale is a choice);
assumed target u'(t) -- choice (``assumed_reservation``; sec. 3.1 says only "gradually
lowers its aspiration level"); posterior -- eq. 5; estimate -- sec. 4.2 (MSE against the
true score functions).  ``simcore run scorable --list-params`` prints every parameter.

Posterior (eq. 5): log P(h | ...) += log P(d_t | h) + sum_z log P(z | h), normalised by
the sum of exp; kept in factored form (offer terms over all hypotheses, ranking-only and
shape-only signal terms as two vectors -- see :class:`Posterior`), log-probabilities more
than 600 below the maximum held there (``LOG_FLOOR``).

Estimated score table: est_m(o) = 100 * E_post[w_m v_m(o)], computed as
(W^T P) aggregated by each issue's shape choice -- linear, so expected utilities of
deals are sums of per-issue estimates and no hypotheses x deals matrix is ever built.

Sharing: the posterior about party j depends only on the public history (j's deals
and the signals read from j's words) and the likelihood settings, so it is the same
for every observer using the same model; a session's model
(:mod:`simcore.systems.scorable.model`) computes it once per party per turn and every
observer reads the shared copy.
"""

from __future__ import annotations

import itertools
import math
import threading
from typing import Iterable, Mapping, Sequence

import attrs
import numpy as np

from simcore import caches
from simcore.errors import InputError

MAX_HYPOTHESES = 5_000_000
#: log-probabilities (relative to the most probable hypothesis) are held at or above
#: this value so the arithmetic never enters the slow subnormal range; the mass this
#: can add is below 1e-255 and changes no reported digit.
LOG_FLOOR = -600.0
#: the unnormalised log-posterior is re-centred on its maximum when that drifts beyond
#: +-SHIFT_AT, so exp() never overflows nor loses the whole mass to underflow.
SHIFT_AT = 30.0
#: below this normalising sum the factored posterior is folded back into one array.
UNDERFLOW_GUARD = 1e-200
#: log-probabilities that agree to this many decimals are ties in :meth:`Posterior.top`.
TIE_DECIMALS = 9
#: bins per issue in :attr:`HypothesisSpace.peak_cells` (more when an issue has more options): every
#: issue's block of masses starts 64 bytes after the one before
CELL_STRIDE = 8
ENTITIES = ("issue", "option")
SIGNAL_TYPES = ("point", "comparison")
STANCES = ("prefer", "oppose")


@attrs.frozen
class Signal:
    """One extracted preference signal, resolved to indices.

    ``items`` holds one (issue, option) pair for a point signal and two for a
    comparison; the option is -1 for issue signals.
    """

    entity: str = attrs.field(validator=attrs.validators.in_(ENTITIES))
    signal_type: str = attrs.field(validator=attrs.validators.in_(SIGNAL_TYPES))
    items: tuple[tuple[int, int], ...] = attrs.field(converter=lambda v: tuple(tuple(int(a) for a in x) for x in v))
    stance: str = attrs.field(validator=attrs.validators.in_(STANCES))

    @items.validator
    def _check(self, _a, v):
        want = 1 if self.signal_type == "point" else 2
        if len(v) != want:
            raise ValueError(f"{self.signal_type} signal needs {want} target(s), got {len(v)}")


def resolve_signal(issue_names: Sequence[str], option_counts: Sequence[int], raw: Mapping) -> Signal | None:
    """The :class:`Signal` for one extracted JSON signal, or None if its target is unknown."""
    try:
        entity, stype, stance, target = raw["entity"], raw["signal_type"], raw["stance"], str(raw["target"])
    except (KeyError, TypeError):
        return None
    try:
        return _resolve(tuple(issue_names), tuple(option_counts), entity, stype, stance, target)
    except TypeError:  # an unhashable field value: not a signal
        return None


@caches.lru("policies.bayes: resolved signals", maxsize=4096)
def _resolve(issue_names: tuple[str, ...], option_counts: tuple[int, ...], entity, stype, stance,
             target: str) -> Signal | None:
    parts = [p.strip() for p in target.split(",") if p.strip()]
    if entity not in ENTITIES or stype not in SIGNAL_TYPES or stance not in STANCES:
        return None
    if len(parts) != (1 if stype == "point" else 2):
        return None
    items = []
    for part in parts:
        head = part.rstrip("0123456789")
        tail = part[len(head):]
        if head not in issue_names:
            return None
        m = list(issue_names).index(head)
        if entity == "issue":
            if tail:
                return None
            items.append((m, -1))
        else:
            if not tail or not 1 <= int(tail) <= option_counts[m]:
                return None
            items.append((m, int(tail) - 1))
    if stype == "comparison" and items[0] == items[1]:
        return None
    return Signal(entity=entity, signal_type=stype, items=tuple(items), stance=stance)


def shape_values(k: int) -> np.ndarray:
    """(K, K) array: row p is the triangular shape peaking at option p, in [0, 1]."""
    o = np.arange(k)
    rows = [1.0 - np.abs(o - p) / max(p, k - 1 - p) for p in range(k)]
    return np.array(rows)


@attrs.frozen(eq=False)
class HypothesisSpace:
    option_counts: tuple[int, ...]
    W: np.ndarray          # (P, M) float64 weights per ranking
    W1: np.ndarray         # (P, M + 1): W with a column of ones (offer likelihood in one matmul)
    shape_choice: np.ndarray  # (M, S) uint8: peak option of issue m in combination s
    shape_vals: tuple       # per issue (K, K) float64
    shape_table: tuple      # per issue (S, K) float64: v_m(o) for every combination s
    option_rows: tuple      # per issue (K, S) float64, contiguous: v_m(o) over s for option o
    #: (M * S,) intp: the bin of (issue m, combination s), issue m's peak option in s plus
    #: ``peak_starts[m]``: one bincount gives every issue's masses by peak
    peak_cells: np.ndarray
    peak_starts: tuple      # per issue, its first bin: CELL_STRIDE (or the most options) apart

    @property
    def n_rankings(self) -> int:
        return self.W.shape[0]

    @property
    def n_shapes(self) -> int:
        return self.shape_choice.shape[1]

    @property
    def size(self) -> int:
        return self.n_rankings * self.n_shapes

    def describe(self, r: int, s: int, issue_names: Sequence[str]) -> str:
        order = np.argsort(-self.W[r], kind="stable")
        ranking = ">".join(issue_names[m] for m in order)
        shapes = " ".join(f"{issue_names[m]}{int(self.shape_choice[m, s]) + 1}" for m in range(len(issue_names)))
        return f"{ranking} | peaks {shapes}"


@caches.lru("policies.bayes: hypothesis spaces", maxsize=8)
def hypothesis_space(option_counts: tuple[int, ...], max_hypotheses: int = MAX_HYPOTHESES) -> HypothesisSpace:
    """The (cached) hypothesis space for a game with these option counts."""
    m = len(option_counts)
    size = math.factorial(m) * math.prod(option_counts)
    if size > max_hypotheses:
        raise InputError("bayes", "hypothesis space",
                         f"{math.factorial(m)} rankings x {math.prod(option_counts)} shape combinations = "
                         f"{size} hypotheses exceed the limit of {max_hypotheses}")
    ranks = np.array(list(itertools.permutations(range(1, m + 1))), dtype=np.float64).reshape(-1, m)
    W = ranks / (m * (m + 1) / 2)
    grids = np.meshgrid(*[np.arange(k) for k in option_counts], indexing="ij")
    choice = np.stack([g.ravel() for g in grids], axis=0).astype(np.uint8)
    vals = tuple(shape_values(k) for k in option_counts)
    table = tuple(vals[i][choice[i]] for i in range(m))
    rows = tuple(np.ascontiguousarray(t.T) for t in table)
    W1 = np.hstack([W, np.ones((W.shape[0], 1))])
    stride = max(CELL_STRIDE, max(option_counts))
    starts = tuple(stride * i for i in range(m))
    cells = (choice.astype(np.intp) + np.array(starts, dtype=np.intp)[:, None]).ravel()
    for a in (W, W1, choice, *vals, *table, *rows, cells):
        a.setflags(write=False)
    return HypothesisSpace(option_counts=tuple(option_counts), W=W, W1=W1, shape_choice=choice,
                           shape_vals=vals, shape_table=table, option_rows=rows, peak_cells=cells,
                           peak_starts=starts)


def conceder_target(turn: int, last_turn: int, reservation: float = 0.5) -> float:
    """u'(t) = 1 - (1 - r) t / T on the [0, 1] scale."""
    frac = 0.0 if last_turn <= 0 else min(max(turn / last_turn, 0.0), 1.0)
    return 1.0 - (1.0 - reservation) * frac


def deal_utility(space: HypothesisSpace, deal: Sequence[int]) -> np.ndarray:
    """(P, S) array of U(d; h) for every hypothesis (eq. 2)."""
    A = np.stack([space.option_rows[m][int(o)] for m, o in enumerate(deal)])  # (M, S)
    return space.W @ A


def offer_loglik(space: HypothesisSpace, deal: Sequence[int], target: float, sigma: float) -> np.ndarray:
    """log P(d | h) up to a constant (eq. 3), shape (P, S)."""
    diff = deal_utility(space, deal)
    diff -= target
    diff *= diff
    diff *= -1.0 / (2.0 * sigma * sigma)
    return diff


def signal_lik(space: HypothesisSpace, sig: Signal, floor: float) -> np.ndarray:
    """P(z | h) with the floor mixed in; broadcastable to (P, S)."""
    W = space.W
    if sig.entity == "issue":
        x = sig.items[0][0]
        if sig.signal_type == "point":
            n_alt = W.shape[1]
            if sig.stance == "prefer":
                p = W[:, x] / W.sum(axis=1)
            else:
                p = (1.0 - W[:, x]) / (1.0 - W).sum(axis=1) if n_alt > 1 else np.ones(W.shape[0])
        else:
            n_alt = 2
            y = sig.items[1][0]
            num = W[:, x] if sig.stance == "prefer" else W[:, y]
            p = num / (W[:, x] + W[:, y])
        p = p[:, None]
    else:
        n_alt = 2
        if sig.signal_type == "point":
            m, o = sig.items[0]
            tab = space.shape_table[m]  # (S, K)
            n_alt = tab.shape[1]
            if sig.stance == "prefer":
                p = tab[:, o] / tab.sum(axis=1)
            else:
                p = (1.0 - tab[:, o]) / (1.0 - tab).sum(axis=1)
            p = p[None, :]
        else:
            (ma, oa), (mb, ob) = sig.items
            if ma == mb:  # the issue weight cancels
                ca, cb = space.shape_table[ma][:, oa][None, :], space.shape_table[ma][:, ob][None, :]
            else:
                ca = np.multiply.outer(W[:, ma], space.option_rows[ma][oa])
                cb = np.multiply.outer(W[:, mb], space.option_rows[mb][ob])
            # c(a) / (c(a) + c(b)); the 1e-12 terms make 0/0 exactly 1/2 and change
            # nothing else at double precision (c values are >= 1/15 or exactly 0)
            tot = ca + cb
            tot += 2e-12
            num = (ca if sig.stance == "prefer" else cb) + 1e-12
            num /= tot
            p = num
    p = p * (1.0 - floor)
    p += floor / n_alt
    return p


@caches.lru("policies.bayes: cross-issue comparisons", maxsize=4096)
def _cross_comparison(option_counts: tuple[int, ...], sig: Signal, floor: float):
    """A comparison of options of two different issues, in factored form.

    Its likelihood depends on the hypothesis only through (w_a, w_b) -- at most M(M-1)
    distinct pairs over the rankings -- and (v_a(o_a), v_b(o_b)) -- a few distinct pairs
    over the shape combinations -- so it is a small (R x Q) table of log-likelihoods plus
    an index per ranking (R) and per shape combination (Q); the update gathers it into
    (P, S) in one pass.  Same values as :func:`signal_lik`.
    """
    sp = hypothesis_space(option_counts)
    (ma, oa), (mb, ob) = sig.items
    uw, ri = np.unique(np.stack([sp.W[:, ma], sp.W[:, mb]], axis=1), axis=0, return_inverse=True)
    uv, qi = np.unique(np.stack([sp.option_rows[ma][oa], sp.option_rows[mb][ob]], axis=1), axis=0,
                       return_inverse=True)
    ca = np.multiply.outer(uw[:, 0], uv[:, 0])
    cb = np.multiply.outer(uw[:, 1], uv[:, 1])
    num = ca if sig.stance == "prefer" else cb
    p = (num + 1e-12) / (ca + cb + 2e-12)
    table = np.log((1.0 - floor) * p + floor / 2)
    return ri.ravel().astype(np.intp), qi.ravel().astype(np.intp), table


@caches.lru("policies.bayes: signal log-likelihoods", maxsize=4096)
def _signal_loglik(option_counts: tuple[int, ...], sig: Signal, floor: float) -> tuple[bool, np.ndarray]:
    """log P(z | h) of a signal that depends on the ranking only (True, a vector over the
    rankings) or on the shape combination only (False, a vector over the combinations): the
    log of :func:`signal_lik`, held at or above log(1e-300)."""
    lik = np.log(np.maximum(signal_lik(hypothesis_space(option_counts), sig, floor), 1e-300))
    by_rank = lik.shape[1] == 1
    vec = np.ascontiguousarray(lik[:, 0] if by_rank else lik[0])
    vec.setflags(write=False)
    return by_rank, vec


_local = threading.local()


def _scratch(shape: tuple[int, int]) -> np.ndarray:
    """One (rankings, shapes) work array per thread, shared by every posterior: keeps the
    working set of a session with several posteriors small (and cache-resident)."""
    bufs = _local.__dict__.setdefault("bufs", {})
    buf = bufs.get(shape)
    if buf is None:
        buf = bufs[shape] = np.empty(shape)
    return buf


class Posterior:
    """A posterior over one opponent's hypotheses (uniform prior), kept in factored log
    form: ``log P(r, s) = core(r, s) + by_rank(r) + by_shape(s) - log Z``.

    * ``core`` (rankings x shape combinations) collects the offer likelihoods and
      cross-issue option comparisons -- the only terms that couple ranking and shapes;
    * ``by_rank`` collects the issue signals (they depend on the ranking only) and
      ``by_shape`` the single-issue option signals (the shape combination only), so a
      signal costs O(rankings + shapes), not a pass over every hypothesis;
    * ``Z`` and the estimate come from one matmul: q[m, s] = sum_r w_m(r) e^{by_rank(r)}
      e^{core(r, s)} e^{by_shape(s)}, and since each ranking's weights sum to 1,
      Z = sum_{m, s} q[m, s].

    ``core`` is re-centred on its maximum when that drifts beyond +-``SHIFT_AT`` and held
    within ``LOG_FLOOR`` of it; the vectors are re-centred on their maxima every update.
    If the three maxima fall on such different hypotheses that Z would underflow, the
    factors are folded into ``core`` and re-centred (never happens with the seed's
    settings; tested with a tiny sigma).  An offer costs a matmul, a square, a subtract,
    two reductions and an exp over the hypotheses.
    """

    def __init__(self, space: HypothesisSpace):
        self.space = space
        self._core = np.zeros((space.n_rankings, space.n_shapes))
        self._rank = np.zeros(space.n_rankings)
        self._shape = np.zeros(space.n_shapes)
        self.observations = 0
        self._stale = True
        self._q: np.ndarray | None = None     # (M, S) weighted masses, see the class docstring
        self._total = 0.0

    def copy(self) -> "Posterior":
        other = Posterior(self.space)
        other._core, other._rank, other._shape = self._core.copy(), self._rank.copy(), self._shape.copy()
        other.observations = self.observations
        return other

    def _refresh(self) -> None:
        """Re-centre, hold the floor, take exp(core) and the weighted masses q and Z."""
        core = self._core
        hi = float(core.max())
        if not -SHIFT_AT <= hi <= SHIFT_AT:
            core -= hi
            hi = 0.0
        if float(core.min()) < hi + LOG_FLOOR:
            np.maximum(core, hi + LOG_FLOOR, out=core)
        self._rank -= self._rank.max()
        self._shape -= self._shape.max()
        e = np.exp(core, out=_scratch(core.shape))
        sp = self.space
        q = (sp.W * np.exp(self._rank)[:, None]).T @ e
        q *= np.exp(self._shape)[None, :]
        total = float(q.sum())
        if not total > UNDERFLOW_GUARD:  # fold the factors in and start again from max 0
            core += self._rank[:, None]
            core += self._shape[None, :]
            core -= core.max()
            self._rank[:] = 0.0
            self._shape[:] = 0.0
            np.maximum(core, LOG_FLOOR, out=core)
            np.exp(core, out=e)
            q = sp.W.T @ e
            total = float(q.sum())
        self._q, self._total, self._stale = q, total, False

    def update(self, deal: Sequence[int] | None = None, target: float = 1.0, sigma: float = 1.0,
               signals: Iterable[Signal] = (), floor: float = 0.05) -> None:
        """One Bayes step (eq. 5): the offer (if any) and every signal."""
        sp = self.space
        t1 = _scratch(self._core.shape)  # no (P, S) temporaries per update
        if deal is not None:
            # [W 1] @ [k v(d); -k u'] = k (U(d; h) - u') with k = 1 / (sigma sqrt 2): the
            # squared result is the negated log-likelihood, in one matmul and one square
            k = 1.0 / (sigma * math.sqrt(2.0))
            aug = np.empty((len(deal) + 1, sp.n_shapes))
            for m, o in enumerate(deal):
                np.multiply(sp.option_rows[m][int(o)], k, out=aug[m])
            aug[-1] = -k * target
            np.matmul(sp.W1, aug, out=t1)
            np.square(t1, out=t1)
            self._core -= t1
        for sig in signals:
            if sig.entity == "option" and sig.signal_type == "comparison" and sig.items[0][0] != sig.items[1][0]:
                ri, qi, table = _cross_comparison(sp.option_counts, sig, floor)
                np.take(table[ri], qi, axis=1, out=t1)
                self._core += t1
            else:
                by_rank, lik = _signal_loglik(sp.option_counts, sig, floor)
                if by_rank:
                    self._rank += lik
                else:
                    self._shape += lik
        self._stale = True
        self.observations += 1

    def _current(self) -> None:
        if self._stale:
            self._refresh()

    @property
    def logp(self) -> np.ndarray:
        """The normalised log-posterior, shape (rankings, shape combinations) (a new array)."""
        self._current()
        out = self._core + self._rank[:, None]
        out += self._shape[None, :]
        out -= math.log(self._total)
        return out

    def probs(self) -> np.ndarray:
        """The normalised posterior, shape (rankings, shape combinations) (a new array)."""
        self._current()
        out = np.exp(self._core)
        out *= np.exp(self._rank)[:, None]
        out *= np.exp(self._shape)[None, :]
        out /= self._total
        return out

    def estimate(self) -> tuple[np.ndarray, ...]:
        """Per issue, 100 * E[w_m v_m(o)] for every option o (the 0-100 score scale)."""
        self._current()
        sp = self.space
        q = self._q * (100.0 / self._total)
        mass = np.bincount(sp.peak_cells, weights=q.ravel())  # every issue's mass by peak, in one pass
        return tuple(mass[b:b + k] @ sp.shape_vals[m]
                     for m, (b, k) in enumerate(zip(sp.peak_starts, sp.option_counts)))

    def top(self, k: int = 3) -> list[tuple[int, int, float]]:
        """The k most probable hypotheses as (ranking index, shape index, probability).

        Log-probabilities equal to ``TIE_DECIMALS`` decimals count as tied (hypotheses that
        are equally probable in exact arithmetic differ by rounding only) and ties go to
        the lowest index, so the list does not depend on the order of floating-point
        operations."""
        flat = self.logp.ravel()
        k = min(k, flat.size)
        kth = np.partition(flat, flat.size - k)[flat.size - k]
        idx = np.flatnonzero(flat >= kth - 10.0 ** -TIE_DECIMALS)
        idx = idx[np.lexsort((idx, -np.round(flat[idx], TIE_DECIMALS)))][:k]
        S = self.space.n_shapes
        return [(int(i // S), int(i % S), float(math.exp(flat[i]))) for i in idx]


def table_mse(estimate: Sequence[np.ndarray], truth: Sequence[Sequence[float]]) -> float:
    """Mean over every (issue, option) entry of (estimate - true score)^2; ``truth`` is the
    per-issue score lists or the same already concatenated into one array."""
    diff = np.concatenate(estimate, dtype=float)
    diff -= truth if isinstance(truth, np.ndarray) else np.concatenate(truth, dtype=float)
    diff *= diff
    return float(np.add.reduce(diff) / diff.size)  # the mean
