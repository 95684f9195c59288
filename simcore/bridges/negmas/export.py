"""A simcore bilateral domain as NegMAS sees it: an outcome space, one utility function per side.

| simcore | NegMAS |
|---|---|
| an ``integer`` issue of ``count`` units | ``make_issue(count + 1, name)``: the units the **agent** side receives, ``0..count`` |
| a ``categorical`` issue | ``make_issue([option, ...], name)``: the option's name |
| a ``binary`` issue | ``make_issue(2, name)``: 0 or 1 |
| an outcome ``(x1, x2, ...)`` (:attr:`Domain.outcomes`) | the same tuple, categorical options by name (:func:`to_negmas`, :func:`from_negmas`) |
| a side's :class:`~scenarios.bilateral.Valuation` | a ``LinearAdditiveUtilityFunction``: one table per issue, ``u(o) = Domain.score(values, o, side) / M`` with ``M`` the side's best score, so that ``u`` is in ``[0, 1]`` and the side's best outcome is worth 1 (Genius agents expect utilities in ``[0, 1]``) |
| the no-deal payoff (``"zero"`` or ``"batna"``) | the reserved value: ``0`` or ``batna / M`` |

:func:`scenario` puts both sides together as a ``negmas.inout.Scenario`` (what NegMAS's tournaments
take); its ``info["simcore"]`` names the domain, the sides and the scales.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import attrs
from negmas.inout import Scenario
from negmas.outcomes import make_issue, make_os
from negmas.preferences import LinearAdditiveUtilityFunction
from negmas.preferences.value_fun import TableFun

from scenarios.bilateral import Domain, Valuation, load_domain
from simcore.errors import InputError

SIDES = ("agent", "partner")
PAYOFFS = ("zero", "batna")


def domain_of(domain: Any) -> Domain:
    """A :class:`~scenarios.bilateral.Domain` from itself, a shipped id or a domain file."""
    if isinstance(domain, Domain):
        return domain
    if isinstance(domain, str):
        return load_domain(domain)
    raise InputError("domain", repr(domain)[:80], "expected a scenarios.bilateral.Domain, a shipped id or a file")


def outcome_space(domain: Any):
    """The NegMAS ``CartesianOutcomeSpace`` of ``domain`` (the module docstring's table)."""
    d = domain_of(domain)
    issues = []
    for issue in d.issues:
        if issue.kind == "categorical":
            issues.append(make_issue(list(issue.options), issue.name))
        else:
            issues.append(make_issue(issue.size, issue.name))
    return make_os(issues, name=d.id)


def to_negmas(domain: Domain, outcome: Sequence[int]) -> tuple:
    """A simcore outcome as a NegMAS outcome (categorical options by name)."""
    return tuple(issue.options[x] if issue.kind == "categorical" else int(x)
                 for issue, x in zip(domain.issues, outcome))


def from_negmas(domain: Domain, outcome: Sequence[Any]) -> Optional[tuple]:
    """A NegMAS outcome as one of ``domain``'s outcomes, or None when it is not one."""
    if outcome is None or len(outcome) != len(domain.issues):
        return None
    out = []
    for issue, v in zip(domain.issues, outcome):
        if issue.kind == "categorical":
            if v not in issue.options:
                return None
            out.append(issue.options.index(v))
        else:
            try:
                x = int(v)
            except (TypeError, ValueError):
                return None
            if x != v or not 0 <= x < issue.size:
                return None
            out.append(x)
    return tuple(out)


def scale(domain: Domain, values: Valuation, side: str) -> float:
    """``M``: the side's best score on the domain (1 when it is not positive)."""
    best = max(domain.scores(values, side))
    return float(best) if best > 0 else 1.0


def reserved_points(domain: Domain, no_deal_payoff: str) -> float:
    """What a side scores without a deal, in points."""
    if no_deal_payoff not in PAYOFFS:
        raise InputError("no_deal_payoff", repr(no_deal_payoff), f"valid: {', '.join(map(repr, PAYOFFS))}")
    return float(domain.batna) if no_deal_payoff == "batna" else 0.0


def utility_function(domain: Any, values: Optional[Valuation] = None, side: str = "agent", *,
                     no_deal_payoff: str = "zero", space: Any = None, name: Optional[str] = None):
    """``values``' owner's utility function on ``side`` (``"agent"`` or ``"partner"``) as a NegMAS
    ``LinearAdditiveUtilityFunction`` scaled to ``[0, 1]`` (:func:`scale`), with the no-deal
    payoff as its reserved value; ``values`` None: the domain's agent valuation.  ``space``: the
    outcome space to attach (None: :func:`outcome_space`)."""
    d = domain_of(domain)
    if side not in SIDES:
        raise InputError("side", repr(side), "valid: 'agent', 'partner'")
    values = d.agent if values is None else values
    if not isinstance(values, Valuation) or len(values.weights) != len(d.issues):
        raise InputError("values", repr(values)[:80], f"expected a Valuation of {d.id}'s {len(d.issues)} issues")
    m = scale(d, values, side)
    tables = []
    for issue, w, f in zip(d.issues, values.weights, values.factors):
        if issue.kind == "integer":
            table = {x: w * (x if side == "agent" else issue.count - x) / m for x in range(issue.count + 1)}
        elif issue.kind == "categorical":
            table = {opt: w * f[k] / m for k, opt in enumerate(issue.options)}
        else:
            table = {x: w * x / m for x in range(2)}
        tables.append(TableFun(table))
    return LinearAdditiveUtilityFunction(
        values=tables, outcome_space=space if space is not None else outcome_space(d),
        reserved_value=reserved_points(d, no_deal_payoff) / m, name=name or f"{d.id}:{side}")


def scenario(domain: Any = "casino-v1", partner_values: Optional[Valuation] = None, *, setup: str = "integrative",
             agent_values: Optional[Valuation] = None, no_deal_payoff: str = "zero"):
    """Both sides of ``domain`` as a ``negmas.inout.Scenario``: ``ufuns[0]`` the agent's
    (``agent_values``, default the domain's), ``ufuns[1]`` the partner's (``partner_values``,
    default the first valuation of ``setup``'s pool).  ``info["simcore"]`` holds the domain id,
    the setup, the no-deal payoff and each side's scale ``M``."""
    d = domain_of(domain)
    av = d.agent if agent_values is None else agent_values
    pv = d.setup(setup).partners[0] if partner_values is None else partner_values
    space = outcome_space(d)
    ufuns = (utility_function(d, av, "agent", no_deal_payoff=no_deal_payoff, space=space),
             utility_function(d, pv, "partner", no_deal_payoff=no_deal_payoff, space=space))
    info = {"simcore": {"domain": d.id, "setup": setup if partner_values is None else None,
                        "no_deal_payoff": no_deal_payoff, "scales": [scale(d, av, "agent"), scale(d, pv, "partner")]}}
    return Scenario(outcome_space=space, ufuns=ufuns, info=info, name=d.id)


@attrs.frozen
class Owner:
    """Whose utility function a NegMAS ``ufun`` is, in simcore's terms: its valuation, the side
    whose units the outcome's integer issues count (``"agent"``: the NegMAS outcome's own
    numbers; ``"partner"``: ``count - x``), and the scale ``M``."""

    values: Valuation
    side: str
    scale: float


def owner_of(domain: Any, ufun: Any, values: Optional[Valuation] = None) -> Owner:
    """The :class:`Owner` of ``ufun`` on ``domain``: ``values`` when given (on the side whose
    scaled export ``ufun`` equals), else the first of the domain's own valuations (the agent's,
    then each setup's partners) whose scaled export on either side equals ``ufun`` on every
    outcome.  A utility function that is none of them is one :class:`InputError` (give
    ``values``)."""
    d = domain_of(domain)
    if ufun is None:
        raise InputError("ufun", "None", "the negotiator has no utility function (give it one: "
                                         "simcore.bridges.negmas.utility_function)")
    got = [float(ufun(to_negmas(d, o))) for o in d.outcomes]
    candidates = [values] if values is not None else [d.agent] + [p for s in d.setups for p in s.partners]
    for v in candidates:
        for side in SIDES:
            m = scale(d, v, side)
            if all(abs(u * m - s) <= 1e-6 * max(1.0, abs(s)) for u, s in zip(got, d.scores(v, side))):
                return Owner(v, side, m)
    what = "the given values" if values is not None else f"any valuation of {d.id} (the agent's or a setup's partner)"
    raise InputError("ufun", getattr(ufun, "name", type(ufun).__name__) or type(ufun).__name__,
                     f"is not the scaled export of {what} on either side: build it with "
                     "simcore.bridges.negmas.utility_function, or give the negotiator values=")
