"""The parties' rule-based strategy in the scorable game (stands in for the LLM party).

The seed's parties are GPT-4.1 agents (sec. 4.1); the seed gives no proposal rule, so
every row below is a choice except where a passage is named.  Every choice is a field of
:class:`simcore.protocols.scorable.Settings` (the registry kwargs of protocol
``scorable-v1``; ``simcore run scorable --list-params``).

=====================  ==========================================  ======================================
rule                   what it does                                source
=====================  ==========================================  ======================================
aspiration             ``u'_n(t) = tau_n + (best_n - tau_n) *      ``aspiration_start``/``_end`` (0.59 /
                       x(t)``, ``x(t) = start + (end - start) *    0.37, ``scorable-v2``): the Base-LLM
                       (t / T) ** (1 / e)``: a share of the        role's own proposals in the public
                       range between threshold and best own        benchmark's logs (GPT-4, 33 sessions
                       score, moving from ``start`` at the         of this game, 820 proposals: a
                       opening to ``end`` at the final turn T      linear fit of the share each proposal
                                                                   left above the proposer's threshold;
                                                                   docs/systems/scorable.md "The negotiator").
                                                                   ``scorable-v1``: 1 / 0, from the best
                                                                   own score to the threshold (no
                                                                   evidence).  ``concession_exponent`` e
                                                                   (default 1, linear): choice, the
                                                                   time-dependent conceder the seed's
                                                                   observers assume (sec. 3.1)
candidates             every deal whose own (true) score >= the    choice: a party never proposes below
                       aspiration (with ``threshold_test`` "above",  its current aspiration, nor a deal it
                       also > its threshold) that changes at most  would not accept itself.
                       ``amend_max_issues`` issues of the deal on  ``amend_max_issues`` 2 (``scorable-v2``):
                       the table (every such deal when none of     the Base-LLM role's own proposals in the
                       those qualifies)                            benchmark's logs change a median of 2
                                                                   issues of the deal on the table (794
                                                                   proposals: 0: 109, 1: 215, 2: 257, 3:
                                                                   135, 4: 57, 5: 21); None (v1): any deal
acceptance predicted   ``share``: j accepts the best               choice (``acceptance_rule``,
                       ``assumed_share`` of all deals by its       ``assumed_share`` 0.5,
                       estimated table (ties included);            ``assumed_threshold`` 50): thresholds
                       ``threshold``: estimated score >=           are private and not estimated (seed,
                       ``assumed_threshold``; ``learnt``: j        Limitations).  ``learnt``: the logs'
                       accepts an estimated score at least that    answers -- every deal a party puts on
                       of the least valued deal j has put on the   the table is one it accepts (684 of 685
                       table (``share`` before j has proposed)     counters; benchmarks/base_llm_responses.py)
deal chosen            key maximised in order: every veto holder   choice; the pass rule it aims at is
                       predicted to accept, number predicted to    the seed's sec. 2 "at least a minimum
                       accept, lowest percentile standing among    required number of parties, including
                       the others, their sum, own score; then the  all veto holders"
                       lowest deal index (deterministic)
estimates used         the party's method's shared estimate        seed sec. 4.1 (p1 / all configurations)
                       (Bayes, LLM-PE) when it estimates
echo stand-in          a party without an estimator (Base-LLM;     seed sec. 4.1 "Base-LLM: ... without
                       every party but p1 in the "p1"              explicit preference estimation" and
                       configurations) values each option of j     sec. 2 "parties infer others'
                       by its share of j's public deals so far:    preferences from the history of d_t
                       100/M per issue times that share           and u_t": the whole deal history
                       (100/(M K_m) before j has proposed)         (``echo_history`` "all"; "last" reads
                                                                   only j's latest deal -- the study's
                                                                   pre-issue-10 description)
cues                   see below                                   choice (``cues_per_turn`` 3); kinds
                                                                   are the seed's Figure 2 signals
=====================  ==========================================  ======================================

Cues (what the party says about itself; always truthful to its own table).  Importance
of issue m = max - min of its own scores on m.  Candidate cues: the most important issue
(issue point, prefer); a least important issue when strictly less important (issue point,
oppose); a pair of issues of different importance (issue comparison, prefer the more
important -- or, with probability 1/2, oppose the less important first); the best option
of an issue it cares about (option point, prefer); the worst option of such an issue
(option point, oppose); two options of one issue with different scores (option
comparison, prefer/oppose likewise).  ``cues_per_turn`` (default 3) distinct kinds are
drawn at random per turn; issues are drawn with probability proportional to importance.
"""

from __future__ import annotations

import itertools
import math
from typing import Mapping, Sequence

import attrs
import numpy as np

from scenarios.scorable import Game
from simcore.ruletable import Rule

#: the negotiator's proposal rule as data (docs/systems/scorable.md is written from it; the report cites it)
RULES = (
    Rule("scorable-negotiator", "1", "every turn after p1's opening",
         "aspiration u'(t) = tau + (best - tau) (1 - (t/T)^(1/e)), from the best own score to the threshold",
         'seed 1 "gradually lowers its aspiration level"; the curve and e = 1 are choices', "concession_exponent",
         keys=[("propose", "aspiration")]),
    Rule("scorable-negotiator", "2", "candidates", "deals whose own score >= aspiration (with `amend_max_issues`: "
         "those changing at most that many issues of the deal on the table, when any reaches it)",
         "choice (no passage gives the candidate set)", "amend_max_issues", keys=[("propose", "candidates")]),
    Rule("scorable-negotiator", "3", "among the candidates",
         "the one predicted most accepted: every veto holder; the number accepting; the lowest, then the summed "
         "percentile standing among the others; own score; the lowest deal index",
         'seed 2 "at least a minimum required number of parties, including all veto holders"; the order is a '
         "choice", "acceptance_rule", keys=[("propose", "*")]),
    Rule("scorable-negotiator", "4", "the prediction of party j",
         "its method's shared estimate when the party estimates, else the echo of j's public deals "
         "(and, with `echo_words`, of its words): j accepts the best `assumed_share` (0.5) of deals by it",
         'seed 4.1 Base-LLM "without explicit preference estimation"; 2 "infer others\' preferences from the '
         'history of d_t and u_t"', "assumed_share", keys=[("predict", "*")]),
    Rule("scorable-negotiator", "4b", "the prediction of party j, learnt rule",
         "j accepts a deal whose estimated score is at least that of the least valued deal j has itself put on "
         "the table (its proposals; p1's opening, the game's initial deal, excluded); the share rule before j "
         "has proposed",
         "the benchmark's GPT-4 logs: 684 of 685 counters meet their proposer's threshold, 106 of 109 unchanged "
         "re-proposals come from a party the table satisfied (benchmarks/base_llm_responses.py); the fallback is "
         "a choice", "acceptance_rule", keys=[("predict", "*")]),
)


def aspiration(game: Game, party: int, turn: int, last_turn: int, exponent: float = 1.0, start: float = 1.0,
               end: float = 0.0) -> float:
    """``tau + (best - tau) * x(t)`` with ``x`` going from ``start`` at turn 0 to ``end`` at
    the last turn, ``x(t) = start + (end - start) * (t / T) ** (1 / exponent)`` (``start`` 1,
    ``end`` 0: from the best own score down to the threshold, the first stand-in)."""
    p = game.parties[party]
    frac = 0.0 if last_turn <= 0 else min(max(turn / last_turn, 0.0), 1.0)
    return p.threshold + (p.best - p.threshold) * (start + (end - start) * frac ** (1.0 / exponent))


def estimated_deal_scores(game: Game, est: Sequence[np.ndarray]) -> np.ndarray:
    """(n_deals,) estimated score of every deal: linear in the per-issue estimates, summed
    issue by issue (a reduction over the first axis adds its rows in order)."""
    return np.add.reduce(np.concatenate(est, dtype=float)[game.deal_cells], axis=0)


def echo_estimate(game: Game, deals: Sequence[Sequence[int]]) -> tuple[np.ndarray, ...]:
    """Base-LLM's stand-in: j values each option by how often it appeared in ``deals`` (j's
    public deals: all of them by default, the seed's "history of d_t"; the caller passes
    only the last one for ``echo_history="last"``) -- 100/M per issue times the share of
    those deals holding that option; before j has proposed, 100/(M K_m) for every option."""
    M = game.n_issues
    if not deals:
        return tuple(np.full(k, 100.0 / (M * k)) for k in game.option_counts)
    arr = np.asarray(deals, dtype=int)
    counts = game.option_counts
    ends = list(itertools.accumulate(counts))
    starts = [e - k for e, k in zip(ends, counts)]
    # every issue's counts in one bincount: issue m's options are bins starts[m] .. ends[m] - 1
    share = np.bincount((arr + starts).ravel(), minlength=ends[-1]) * (100.0 / (M * len(arr)))
    return tuple(share[a:b] for a, b in zip(starts, ends))


def echo_with_words(game: Game, deals: Sequence[Sequence[int]], signals: Sequence) -> tuple[np.ndarray, ...]:
    """:func:`echo_estimate` of j's deals, then what j's words said about single options
    (``bayes.Signal`` objects read from j's utterances, in order): an option j said it
    prefers is raised to the top of its issue's row, one it opposes to zero; a comparison
    puts the preferred option above the other.  Issue-level signals name no option and
    change nothing."""
    est = [row.copy() for row in echo_estimate(game, deals)]
    for sig in signals:
        if sig.entity != "option":
            continue
        if sig.signal_type == "point":
            (m, o), = sig.items
            top = max(float(est[m].max()), 100.0 / (game.n_issues * len(est[m])))
            est[m][o] = top if sig.stance == "prefer" else 0.0
        else:
            (m1, o1), (m2, o2) = sig.items
            hi, lo = ((m1, o1), (m2, o2)) if sig.stance == "prefer" else ((m2, o2), (m1, o1))
            if est[hi[0]][hi[1]] <= est[lo[0]][lo[1]]:
                est[hi[0]][hi[1]], est[lo[0]][lo[1]] = est[lo[0]][lo[1]] + 1e-6, est[hi[0]][hi[1]]
    return tuple(est)


def blend_with_truth(game: Game, party: int, est: Sequence[np.ndarray], known: float) -> tuple[np.ndarray, ...]:
    """``known * truth + (1 - known) * est`` per table entry: what a party's negotiator makes
    of ``party``'s table when it knows the share ``known`` of it without any estimator (the
    LLM's own reading of the prompts and the dialogue; ``implicit_knowledge``), the rest
    coming from ``est`` (its method's estimate, or the echo)."""
    return tuple(known * np.asarray(t, dtype=float) + (1.0 - known) * np.asarray(e, dtype=float)
                 for t, e in zip(game.parties[party].scores, est))


def learnt_bound(est_scores: np.ndarray, shown: Sequence[int]) -> float | None:
    """The ``learnt`` rule's acceptance line for a party: the lowest estimated score among the
    deals that party has itself put on the table (``shown``: their indices in ``game.deals``),
    or None before it has put any.  Every deal a party proposes is one it accepts (the
    benchmark's GPT-4 logs: 684 of 685 counters meet their proposer's threshold, and 106 of the
    109 unchanged re-proposals come from a party the table satisfied;
    benchmarks/base_llm_responses.py), so the least valued of them, by the listener's estimate,
    is a level the party has shown it accepts."""
    if len(shown) == 0:
        return None
    return float(est_scores[np.asarray(shown, dtype=np.intp)].min())


def _accept_from_sorted(est_scores: np.ndarray, ranked: np.ndarray, rule: str, assumed_share: float,
                        assumed_threshold: float, bound: float | None = None) -> np.ndarray:
    """(n_deals,) bool: deals another party is predicted to accept, from its estimated
    scores (``ranked``: the same, sorted).  ``share``: the best ``assumed_share`` of all
    deals by the estimate (ties included); ``threshold``: estimated score >=
    ``assumed_threshold``; ``learnt``: estimated score >= ``bound`` (:func:`learnt_bound`),
    the ``share`` rule while the party has put no deal on the table (``bound`` None)."""
    if rule == "threshold":
        return est_scores >= assumed_threshold - 1e-9
    if rule == "learnt" and bound is not None:
        return est_scores >= bound - 1e-9
    k = max(1, int(math.ceil(assumed_share * est_scores.size)))
    return est_scores >= ranked[est_scores.size - k] - 1e-9


@attrs.frozen(eq=False)
class DealView:
    """One estimate of another party as a proposer uses it: the estimated score of every
    deal (``full``), the same sorted (``ranked``, for percentile standings) and the deals
    that party is predicted to accept (``accept``).  Built once per estimate and reused
    for every turn until that estimate changes."""

    full: np.ndarray
    ranked: np.ndarray
    accept: np.ndarray
    standing: np.ndarray  # percentile standing of every deal: share of deals estimated no better


def deal_view(game: Game, est: Sequence[np.ndarray], rule: str = "share", assumed_share: float = 0.5,
              assumed_threshold: float = 50.0, shown: Sequence[int] = ()) -> DealView:
    """``shown``: indices (in ``game.deals``) of the deals the estimated party has put on
    the table, read by the ``learnt`` rule only."""
    full = estimated_deal_scores(game, est)
    ranked = np.sort(full)
    standing = ranked.searchsorted(full + 1e-9, side="right") / full.size
    bound = learnt_bound(full, shown) if rule == "learnt" else None
    return DealView(full, ranked, _accept_from_sorted(full, ranked, rule, assumed_share, assumed_threshold, bound),
                    standing)


def deal_index(game: Game, deal: Sequence[int]) -> int:
    """The row of ``deal`` in ``game.deals`` (lexicographic order)."""
    return int(np.ravel_multi_index(tuple(int(x) for x in deal), game.option_counts))


def _changes(game: Game, anchor: Sequence[int]) -> np.ndarray:
    """(n_deals,) how many issues of ``anchor`` each deal changes: issue by issue, an outer sum
    (deals are in lexicographic order)."""
    out = np.zeros(1, dtype=np.intp)
    for k, a in zip(game.option_counts, anchor):
        out = np.add.outer(out, np.arange(k) != int(a)).ravel()
    return out


def choose_deal(game: Game, party: int, level: float, estimates: Mapping[int, Sequence[np.ndarray] | DealView],
                assumed_threshold: float = 50.0, rule: str = "share",
                assumed_share: float = 0.5, strict: bool = False, anchor: Sequence[int] | None = None,
                max_changes: int | None = None) -> tuple[tuple[int, ...], dict]:
    """The proposal of ``party`` at aspiration ``level`` given its estimates of the others
    (per-issue tables, or :class:`DealView` objects already built from them).  ``strict``:
    the party accepts only scores above its threshold, so it proposes none at it.  With
    ``anchor`` (the deal on the table) and ``max_changes``, only deals that change at most
    that many issues of it are candidates (all deals when none of those reaches ``level``)."""
    own = game.deal_scores[party]
    ok = own >= level - 1e-9
    if strict:
        ok &= own > game.parties[party].threshold
    if anchor is not None and max_changes is not None:
        near = ok & (_changes(game, anchor) <= max_changes)
        if near.any():
            ok = near
    cand = np.flatnonzero(ok)
    if cand.size == 0:  # level above the best deal (cannot happen with aspiration()); take the best
        cand = np.array([int(np.argmax(own))])
    n_acc = np.ones(cand.size, dtype=int)
    veto_ok = np.ones(cand.size, dtype=bool)
    worst = np.ones(cand.size)
    total = np.zeros(cand.size)
    for j in range(game.n_parties):
        if j == party:
            continue
        view = estimates[j]
        if not isinstance(view, DealView):
            view = deal_view(game, view, rule, assumed_share, assumed_threshold)
        acc = view.accept[cand]
        pct = view.standing[cand]  # percentile standing of each candidate in j's estimated ranking
        n_acc += acc
        np.minimum(worst, pct, out=worst)
        total += pct
        if game.parties[j].veto:
            veto_ok &= acc
    # the keys in order, each maximised among the candidates left by the ones before; the
    # lowest index (cand is ascending) among those still tied
    left = np.arange(cand.size)
    for key in (veto_ok, n_acc, worst, total, own[cand]):
        if left.size == 1:
            break
        vals = key[left]
        left = left[vals == vals.max()]
    pick = int(left[0])
    best = int(cand[pick])
    info = {"aspiration": round(float(level), 3), "candidates": int(cand.size),
            "predicted_accept": int(n_acc[pick]), "predicted_veto_ok": bool(veto_ok[pick]),
            "own_score": float(own[best])}
    return tuple(int(x) for x in game.deals[best]), info


def issue_importance(game: Game, party: int) -> np.ndarray:
    return np.array([max(r) - min(r) for r in game.parties[party].scores])


def choose_cues(game: Game, party: int, rng: np.random.Generator, k: int = 3) -> list[dict]:
    """Truthful preference cues about ``party``'s own table (see the module docstring)."""
    scores = game.parties[party].scores
    names = [i.name for i in game.issues]
    imp = issue_importance(game, party)
    cared = np.flatnonzero(imp > 0)
    cues: list[dict] = []

    def pick_issue(pool):
        w = imp[pool].astype(float)
        w = w / w.sum() if w.sum() > 0 else np.full(len(pool), 1.0 / len(pool))
        return int(pool[rng.choice(len(pool), p=w)])

    def cue(entity, stype, target, stance):
        return {"entity": entity, "signal_type": stype, "target": target, "stance": stance}

    kinds = []
    top = np.flatnonzero(imp == imp.max())
    kinds.append(("issue_top", lambda: cue("issue", "point", names[int(rng.choice(top))], "prefer")))
    low = np.flatnonzero(imp == imp.min())
    if imp.min() < imp.max():
        kinds.append(("issue_low", lambda: cue("issue", "point", names[int(rng.choice(low))], "oppose")))
        def issue_cmp():
            while True:
                a, b = rng.choice(len(names), size=2, replace=False)
                if imp[a] != imp[b]:
                    break
            hi, lo = (a, b) if imp[a] > imp[b] else (b, a)
            if rng.random() < 0.5:
                return cue("issue", "comparison", f"{names[hi]}, {names[lo]}", "prefer")
            return cue("issue", "comparison", f"{names[lo]}, {names[hi]}", "oppose")
        kinds.append(("issue_cmp", issue_cmp))
    if cared.size:
        def opt_best():
            m = pick_issue(cared)
            row = np.asarray(scores[m])
            o = int(rng.choice(np.flatnonzero(row == row.max())))
            return cue("option", "point", game.issues[m].option_id(o), "prefer")
        def opt_worst():
            m = pick_issue(cared)
            row = np.asarray(scores[m])
            o = int(rng.choice(np.flatnonzero(row == row.min())))
            return cue("option", "point", game.issues[m].option_id(o), "oppose")
        def opt_cmp():
            m = pick_issue(cared)
            row = np.asarray(scores[m])
            while True:
                a, b = rng.choice(len(row), size=2, replace=False)
                if row[a] != row[b]:
                    break
            hi, lo = (a, b) if row[a] > row[b] else (b, a)
            iss = game.issues[m]
            if rng.random() < 0.5:
                return cue("option", "comparison", f"{iss.option_id(hi)}, {iss.option_id(lo)}", "prefer")
            return cue("option", "comparison", f"{iss.option_id(lo)}, {iss.option_id(hi)}", "oppose")
        kinds += [("opt_best", opt_best), ("opt_worst", opt_worst), ("opt_cmp", opt_cmp)]
    chosen = rng.choice(len(kinds), size=min(k, len(kinds)), replace=False)
    for i in sorted(int(c) for c in chosen):
        cues.append(kinds[i][1]())
    return cues
