"""ASTRA metrics (Tables 1 and 4, section 5.2).

Per episode (``episode_record``) and pooled over the episodes of one agent/partner
pairing (``aggregate``):

| metric | formula |
|---|---|
| ``agent_score_all`` / ``partner_score_all`` | mean final score over all episodes (no deal scores 0 by default) |
| ``agent_score_agreed`` / ``partner_score_agreed`` | mean final score over episodes that ended in agreement (None if none did) |
| ``joint_score_all`` / ``joint_score_agreed`` | mean of agent + partner score |
| ``agreement_rate`` | agreements / episodes |
| ``walk_away_rate`` | episodes ended by a walk-away / episodes |
| ``pareto_optimal_share`` | agent offers that are Pareto-optimal under both sides' true values / all agent offers |
| ``partner_pareto_optimal_share`` | the same share for the partner's offers (Figure 7 sets the two side by side) |
| ``pareto_distance_mean`` | mean Euclidean distance, in (agent score, partner score) space, from each agent offer to the nearest Pareto-optimal outcome |
| ``priority_match_rate`` | episodes whose final inferred partner priority order equals the partner's true order / episodes with an inferred order |
| ``invalid_moves`` | offers the protocol rejected (over-specified units, unknown values), total |
| ``fallbacks`` | model answers that no try could parse (two tries by default, ``--backend-arg tries=N``) and were replaced by the rule-based fallback, total |
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from simcore import caches
from simcore.metrics.means import mean95, welch95
from simcore.metrics.proportions import newcombe95


@caches.lru("simcore.metrics.astra: Pareto frontiers of point sets", maxsize=64)
def _frontier_cached(points: tuple) -> tuple:
    return frontier(points)


def frontier(points: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """The Pareto-optimal (agent, partner) score pairs among ``points``."""
    pts = sorted(set((round(a, 9), round(p, 9)) for a, p in points), key=lambda x: (-x[0], -x[1]))
    out, best_p = [], -math.inf
    for a, p in pts:
        if p > best_p + 1e-12:
            out.append((a, p))
            best_p = p
    return tuple(out)


def score_points(domain, agent_values, partner_values) -> tuple:
    return tuple((domain.score(agent_values, o, "agent"), domain.score(partner_values, o, "partner"))
                 for o in domain.outcomes)


def pareto_stats(front: Sequence[tuple[float, float]], offers: Sequence[Sequence[float]]):
    """(number Pareto-optimal, list of distances) for agent offers given as score pairs."""
    opt, dists = 0, []
    fset = set(front)
    for a, p in offers:
        key = (round(a, 9), round(p, 9))
        if key in fset:
            opt += 1
            dists.append(0.0)
            continue
        dominated = any(fa >= a - 1e-9 and fp >= p - 1e-9 and (fa > a + 1e-9 or fp > p + 1e-9) for fa, fp in front)
        if not dominated:
            opt += 1
        dists.append(0.0 if not dominated else min(math.hypot(a - fa, p - fp) for fa, fp in front))
    return opt, dists


def _mean(xs):
    xs = list(xs)
    return (sum(xs) / len(xs)) if xs else None


def _r(x, nd=4):
    return None if x is None else round(float(x), nd)


#: why the agent walked away (:func:`walk_away_cause`)
WALK_AWAY_CAUSES = ("rule", "misread", "unclear")


def aggregate(records: Sequence[Mapping]) -> dict:
    """Pool episode records (dicts from the study) into the metrics of one pairing."""
    n = len(records)
    agreed = [r for r in records if r["status"] == "agreement"]
    offers = sum(r["agent_offers"] for r in records)
    p_offers = sum(r.get("partner_offers", 0) for r in records)
    matched = [r["priority_match"] for r in records if r["priority_match"] is not None]
    return {
        "episodes": n,
        "agent_score_all": _r(_mean(r["agent_score"] for r in records)),
        "partner_score_all": _r(_mean(r["partner_score"] for r in records)),
        "agent_score_agreed": _r(_mean(r["agent_score"] for r in agreed)),
        "partner_score_agreed": _r(_mean(r["partner_score"] for r in agreed)),
        "joint_score_all": _r(_mean(r["agent_score"] + r["partner_score"] for r in records)),
        "joint_score_agreed": _r(_mean(r["agent_score"] + r["partner_score"] for r in agreed)),
        "agreement_rate": _r(len(agreed) / n if n else None),
        "walk_away_rate": _r(sum(1 for r in records if r["status"] == "walk_away") / n if n else None),
        # the agent's walk-aways by cause (walk_away_cause): after injected noise or a rule on true readings
        "walk_aways_by_cause": {c: sum(1 for r in records if r.get("walk_away_cause") == c)
                                for c in WALK_AWAY_CAUSES},
        "pareto_optimal_share": _r(sum(r["pareto_optimal"] for r in records) / offers if offers else None),
        "pareto_distance_mean": _r(sum(r["pareto_distance_sum"] for r in records) / offers if offers else None),
        "partner_pareto_optimal_share": _r(sum(r.get("partner_pareto_optimal", 0) for r in records) / p_offers
                                           if p_offers else None),
        "priority_match_rate": _r(_mean(1.0 if m else 0.0 for m in matched)),
        "mean_rounds": _r(_mean(r["rounds"] for r in records)),
        "invalid_moves": int(sum(r["invalid_moves"] for r in records)),
        "fallbacks": int(sum(r["fallbacks"] for r in records)),
        # accuracy: the agent's readings of the partner's words against what the partner meant
        "readings": int(sum(r.get("readings", (0, 0))[0] for r in records)),
        "reading_accuracy": _r(sum(r.get("readings", (0, 0))[1] for r in records)
                               / sum(r.get("readings", (0, 0))[0] for r in records)
                               if any(r.get("readings", (0, 0))[0] for r in records) else None),
    }


def _rounded(span) -> list | None:
    return None if span is None else [_r(span[0]), _r(span[1])]


def claim_intervals(astra: Sequence[Mapping], without: Sequence[Mapping]) -> dict:
    """95% intervals of the differences the ASTRA claims compare (simcore.systems.astra.evidence),
    from the episodes of ASTRA against the base partner and of the agent without ASTRA against it:
    the score gap to the partner, paired by episode (all, agreements); ASTRA's agreed score minus
    the agent's without ASTRA (Welch: the two agents' episodes are independent); the walk-away
    shares' and the Pareto-optimal offer shares' differences (Newcombe, from Wilson intervals;
    an episode's offers are counted as independent, which narrows that interval)."""
    out: dict = {}
    if astra:
        agreed = [r for r in astra if r["status"] == "agreement"]
        out["astra_beats_partner_all"] = _rounded(mean95([r["agent_score"] - r["partner_score"] for r in astra]))
        out["astra_beats_partner_agreed"] = _rounded(mean95([r["agent_score"] - r["partner_score"] for r in agreed]))
        span = newcombe95(sum(r["pareto_optimal"] for r in astra), sum(r["agent_offers"] for r in astra),
                          sum(r.get("partner_pareto_optimal", 0) for r in astra),
                          sum(r.get("partner_offers", 0) for r in astra))
        out["astra_offers_nearer_frontier"] = None if span is None else [_r(span[0]), _r(span[1])]
    if astra and without:
        out["astra_beats_no_astra"] = _rounded(welch95([r["agent_score"] for r in astra if r["status"] == "agreement"],
                                                       [r["agent_score"] for r in without if r["status"] == "agreement"]))
        span = newcombe95(sum(1 for r in astra if r["status"] == "walk_away"), len(astra),
                          sum(1 for r in without if r["status"] == "walk_away"), len(without))
        out["astra_walks_away_more"] = None if span is None else [_r(span[0]), _r(span[1])]
    return out


def tactic_shares(records: Sequence[Mapping]) -> dict:
    """{stance: {"offers": n, tactic: share of n}} from the episodes' ``tactics`` counts
    (keys ``"<stance>/<tactic>"``); ``"all"`` pools the stances."""
    counts: dict = {}
    for r in records:
        for key, n in r.get("tactics", {}).items():
            stance, tactic = key.split("/")
            for s in (stance, "all"):
                counts.setdefault(s, {})
                counts[s][tactic] = counts[s].get(tactic, 0) + n
    out = {}
    for stance, c in counts.items():
        total = sum(c.values())
        out[stance] = {"offers": total, **{t: round(n / total, 4) for t, n in sorted(c.items())}}
    return out



def walk_away_cause(noise_notes) -> str:
    """Why the agent walked away, from the noise the mock injected into the episode
    (``noise_notes``: :func:`simcore.noise.astra_notes`'s values): ``"misread"`` after a misread
    of a stated priority, else ``"unclear"`` after an unclear answer, else ``"rule"`` (a
    walk-away rule acting on true readings)."""
    notes = list(noise_notes)
    if any(n.startswith("misread") for n in notes):
        return "misread"
    if any(n.startswith("unclear") for n in notes):
        return "unclear"
    return "rule"
