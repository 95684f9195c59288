"""MIND's metrics (paper section 4.1), computed from per-item outcomes.

Notation: ``C`` the negotiated items over all groups, ``A_c`` the agents of item
``c``'s group, ``v_ic`` agent i's own value, ``w_ic`` its willingness, ``V_c`` the final
value, ``C_debate`` the items settled by consensus (no fallback), ``Top(c)`` the agents
with the highest w on item c.

| metric | formula |
|---|---|
| Total Fidelity F | sum_c sum_{i in A_c} 1(v_ic = V_c) / sum_c abs(A_c)  (pooled over agent-item pairs) |
| Debate Hit-Rate DHR | (1 / abs(C_debate)) sum_{c in C_debate} 1(exists i in Top(c): v_ic = V_c) |
| Debate Ratio DR | abs(C_debate) / abs(C) |
| Total Satisfaction S_total | mean over groups of sum_i sum_c w_ic 1(v_ic = V_c) |
| Fairness J | mean over groups of Jain's index (sum_i S_i)^2 / (n sum_i S_i^2), S_i = sum_c w_ic 1(v_ic = V_c); a group whose S_i are all 0 has no index and is left out (counted in ``J_undefined``) |
| High-w Hit | share of agent-item pairs with w_ic >= high_w (8) where v_ic = V_c |
| proposer win rate by w | share of items whose final value is the proposer's own value, by the proposer's w band 1-3, 4-6, 7-8, 9-10 |
| DR by size | DR over the items of groups of each size |
| ToM MAE, r, Acc(+-1), Acc(+-2) | over every Phase-2a appraisal (a voter reading the proposer), as the paper counts inference instances: mean abs(w_true - w_pred), Pearson r, share with abs error <= 1, <= 2; w_pred is the voter's inference (``no_cue_guess`` when the words had no marker).  The mock reader is deterministic, so the voters reading one message agree: ``n_messages`` reports how many distinct messages the n appraisals read |

The paper gives no formula for High-w Hit; simcore reads it as the share of
high-stakes preferences (w >= 8, the "w >= 8 constraints" of section 4.2) that
survive into the plan.  Rates are fractions in [0, 1].
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

W_BANDS = (("1-3", 1, 3), ("4-6", 4, 6), ("7-8", 7, 8), ("9-10", 9, 10))


def _rate(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


def jain(s: Sequence[float]) -> float | None:
    """Jain's fairness index of non-negative values; None when all are zero."""
    top = max(s, default=0.0)
    if 0 < top < 1e-100:  # squares would underflow to subnormals (index above 1): scale first
        s = [x / top for x in s]
    total = sum(s)
    sq = sum(x * x for x in s)
    if sq == 0:
        return None
    return total * total / (len(s) * sq)


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    n = len(x)
    if n < 2:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / math.sqrt(sxx * syy)


def outcome_metrics(groups: Iterable[Mapping], *, high_w: int = 8) -> dict:
    """Metrics of one variant over groups; each group is a record with ``size`` and
    ``items`` (dicts with values, ws, proposer, final, consensus)."""
    n_items = n_debate = debate_hit = 0
    fid_num = fid_den = 0
    hw_num = hw_den = 0
    s_totals, jains = [], []
    size_items: dict[str, list[int]] = {}
    win = {b: [0, 0] for b, _, _ in W_BANDS}
    for g in groups:
        s_i = [0.0] * g["size"]
        for it in g["items"]:
            vals, ws, final = it["values"], it["ws"], it["final"]
            n_items += 1
            top = max(ws)
            hit = any(v == final and w == top for v, w in zip(vals, ws))
            if it["consensus"]:
                n_debate += 1
                debate_hit += hit
            row = size_items.setdefault(str(g["size"]), [0, 0])
            row[0] += it["consensus"]
            row[1] += 1
            for i, (v, w) in enumerate(zip(vals, ws)):
                ok = v == final
                fid_num += ok
                fid_den += 1
                s_i[i] += w * ok
                if w >= high_w:
                    hw_num += ok
                    hw_den += 1
            wp = ws[it["proposer"]]
            for b, lo, hi in W_BANDS:
                if lo <= wp <= hi:
                    win[b][0] += vals[it["proposer"]] == final
                    win[b][1] += 1
        s_totals.append(sum(s_i))
        jains.append(jain(s_i))
    return {
        "F": _rate(fid_num, fid_den),
        "DHR": _rate(debate_hit, n_debate),
        "DR": _rate(n_debate, n_items),
        "S_total": _rate(sum(s_totals), len(s_totals)),
        "J": _rate(sum(j for j in jains if j is not None), sum(j is not None for j in jains)),
        "J_undefined": sum(j is None for j in jains),
        "high_w_hit": _rate(hw_num, hw_den),
        "DR_by_size": {k: _rate(v[0], v[1]) for k, v in sorted(size_items.items())},
        "win_rate_by_w": {b: _rate(v[0], v[1]) for b, v in win.items()},
        "n_groups": len(s_totals),
        "n_items": n_items,
        "n_debate": n_debate,
        "n_pairs": fid_den,
        "n_high_w": hw_den,
    }


def tom_metrics(pairs: Sequence[tuple[int, int]]) -> dict:
    """ToM accuracy over (w_true, w_pred) pairs."""
    n = len(pairs)
    if n == 0:
        return {"MAE": None, "pearson": None, "acc1": None, "acc2": None, "n": 0}
    err = [abs(t - p) for t, p in pairs]
    return {
        "MAE": sum(err) / n,
        "pearson": pearson([t for t, _ in pairs], [p for _, p in pairs]),
        "acc1": sum(e <= 1 for e in err) / n,
        "acc2": sum(e <= 2 for e in err) / n,
        "n": n,
    }
