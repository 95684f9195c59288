"""Public utilities for a bilateral domain (ASTRA's): every outcome's points for both sides, the
Pareto frontier, the Nash point and the best joint points.

Every function takes the domain (a :class:`scenarios.bilateral.Domain`, a shipped id such as
``"casino-v1"`` or a domain file), the agent's valuation (None: the domain's own) and the
partner's (a :class:`scenarios.bilateral.Valuation`, e.g. ``domain.setup("integrative").partners[0]``).
An outcome is a tuple of the agent's units (:attr:`Domain.outcomes`); points are
:meth:`Domain.score` on each side.

>>> import simcore.bilateral as b
>>> from scenarios.bilateral import load_domain
>>> d = load_domain("casino-v1")
>>> pv = d.setup("integrative").partners[0]
>>> b.nash_point(d, None, pv).outcome        # all the food, one water to the agent; the rest to the partner
(3, 1, 0)
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import attrs

from scenarios.bilateral import Domain, Valuation, load_domain
from simcore.errors import InputError

#: scores within this distance are equal (the domain's scores are rounded to 9 decimals)
EPS = 1e-9


@attrs.frozen
class Point:
    """One outcome and both sides' points for it."""

    outcome: tuple
    agent: float
    partner: float

    @property
    def joint(self) -> float:
        return self.agent + self.partner


def _domain(domain: Any) -> Domain:
    if isinstance(domain, Domain):
        return domain
    if isinstance(domain, str):
        return load_domain(domain)
    raise InputError("domain", repr(domain)[:80], "expected a scenarios.bilateral.Domain, a shipped id or a file")


def _values(d: Domain, values: Optional[Valuation], name: str) -> Valuation:
    if values is None and name == "agent_values":
        return d.agent
    if not isinstance(values, Valuation) or len(values.weights) != len(d.issues):
        raise InputError(name, repr(values)[:80], f"expected a scenarios.bilateral.Valuation of {d.id}'s "
                                                  f"{len(d.issues)} issues")
    return values


def points(domain: Any, agent_values: Optional[Valuation], partner_values: Valuation) -> tuple[Point, ...]:
    """Every outcome with both sides' points, in :attr:`Domain.outcomes` order."""
    d = _domain(domain)
    av, pv = _values(d, agent_values, "agent_values"), _values(d, partner_values, "partner_values")
    return tuple(Point(o, a, p) for o, a, p in zip(d.outcomes, d.scores(av, "agent"), d.scores(pv, "partner")))


def _dominated(x: Point, by: Point) -> bool:
    return (by.agent >= x.agent - EPS and by.partner >= x.partner - EPS
            and (by.agent > x.agent + EPS or by.partner > x.partner + EPS))


def pareto_frontier(domain: Any, agent_values: Optional[Valuation], partner_values: Valuation) -> tuple[Point, ...]:
    """The Pareto-optimal outcomes (no other outcome gives one side more without giving the
    other less), every outcome of each optimal score pair, by the agent's points descending
    (ties: the partner's descending, then :attr:`Domain.outcomes` order)."""
    pts = points(domain, agent_values, partner_values)
    order = sorted(range(len(pts)), key=lambda i: (-pts[i].agent, -pts[i].partner, i))
    out, best_partner, last = [], float("-inf"), None
    for i in order:
        pt = pts[i]
        if last is not None and abs(pt.agent - last.agent) <= EPS and abs(pt.partner - last.partner) <= EPS:
            out.append(pt)  # (the same score pair as an optimal one: optimal too)
        elif pt.partner > best_partner + EPS:
            out.append(pt)
            best_partner, last = pt.partner, pt
    return tuple(out)


def is_pareto_optimal(domain: Any, agent_values: Optional[Valuation], partner_values: Valuation,
                      outcome: Sequence[int]) -> bool:
    """Whether ``outcome`` is on the Pareto frontier."""
    pts = points(domain, agent_values, partner_values)
    target = next((pt for pt in pts if pt.outcome == tuple(outcome)), None)
    if target is None:
        raise InputError("outcome", repr(outcome), "is not an outcome of the domain")
    return not any(_dominated(target, pt) for pt in pts)


def nash_point(domain: Any, agent_values: Optional[Valuation], partner_values: Valuation,
               disagreement: tuple[float, float] = (0.0, 0.0)) -> Optional[Point]:
    """The Nash bargaining solution among the outcomes: the one that maximises the product of
    both sides' gains over ``disagreement`` (what each scores without a deal: ``(0, 0)`` under
    simcore's default no-deal payoff, ``(batna, batna)`` under ``"batna"``), among the outcomes
    where neither side gains less than nothing; ties: the higher joint points, then
    :attr:`Domain.outcomes` order.  None when no outcome is worth the disagreement to both."""
    da, dp = (float(x) for x in disagreement)
    best, best_key = None, None
    for k, pt in enumerate(points(domain, agent_values, partner_values)):
        ga, gp = pt.agent - da, pt.partner - dp
        if ga < -EPS or gp < -EPS:
            continue
        key = (round(max(ga, 0.0) * max(gp, 0.0), 9), round(pt.joint, 9), -k)
        if best_key is None or key > best_key:
            best, best_key = pt, key
    return best


def max_joint(domain: Any, agent_values: Optional[Valuation], partner_values: Valuation) -> float:
    """The most joint points (agent + partner) any outcome gives."""
    return max(pt.joint for pt in points(domain, agent_values, partner_values))


__all__ = ["Point", "points", "pareto_frontier", "is_pareto_optimal", "nash_point", "max_joint"]
