"""Every headline across a role's family of stand-ins (``simcore run SYSTEM --robustness``).

For each role the system declares (:mod:`simcore.roles`), the study is run once per
family member -- the same config and root seed, with only that role's stand-in swapped
-- and each of the system's claims is read from the member's metrics with its 95% interval
(:attr:`simcore.roles.Claim.interval`).  The table has, per claim, the paper's figure, the
value and interval under each member, the range, and "holds under k of n": k members whose
interval lies wholly on the paper's side, of n members with a value; the others are counted
apart as inconclusive (the interval takes in no difference), reversed, or without an
interval.  A family whose members all give the same value and interval "does not affect"
the claim and is left out of k and n.  Members are shown from tougher to softer by the
role's measured toughness (:attr:`simcore.roles.Role.toughness`, read from each member's
own run), in listing order for a role that measures none.

Outputs (in ``--out``): ``robustness.json`` (every value), one CSV table per role,
``robustness-<role>.csv``, and ``robustness.md`` (the tables as the docs show them).  Members run one after another; each member's jobs run on
``workers`` as a plain run's do, so the values do not depend on the worker count.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Mapping, Sequence

from simcore.errors import InputError
from simcore.files import write_atomic
from simcore.roles import Claim, Role, claims as system_claims, roles as system_roles
from simcore.study import dumps_metrics, run_study
from simcore.tables import Table

ROBUSTNESS_FILE = "robustness.json"


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


HOLDS, REVERSED, INCONCLUSIVE, NO_INTERVAL = "holds", "reversed", "inconclusive", "no interval"


def _interval(value: Any) -> tuple[float, float] | None:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    lo, hi = _number(value[0]), _number(value[1])
    return None if lo is None or hi is None else (min(lo, hi), max(lo, hi))


def status(claim: Claim, value: float | None, interval: tuple[float, float] | None) -> str | None:
    """Whether the claim holds under one stand-in: :data:`HOLDS` when its whole 95% interval is on
    the paper's side (it excludes no difference), :data:`REVERSED` when the whole interval is on
    the other side, :data:`INCONCLUSIVE` when it takes in no difference, :data:`NO_INTERVAL`
    when the claim has none; None when there is no value."""
    if value is None:
        return None
    if interval is None:
        return NO_INTERVAL
    lo, hi = interval
    if claim.holds(lo) and claim.holds(hi):
        return HOLDS
    if not claim.holds(lo) and not claim.holds(hi) and not lo <= 0 <= hi:
        return REVERSED
    return INCONCLUSIVE


def claim_row(claim: Claim, values: Mapping[str, Any], intervals: Mapping[str, Any] | None = None) -> dict:
    """One claim over a family: the values, their 95% intervals, each member's :func:`status`,
    their range, and "holds under k of n" (k members whose interval is on the paper's side, n
    members with a value; ``inconclusive`` and ``no_interval`` count the rest apart).  A family
    whose members all give the same value and interval *does not affect* the claim (the role
    cannot move the metric): it is reported so and left out of k and n (both 0)."""
    intervals = intervals or {}
    numbers = {name: _number(v) for name, v in values.items()}
    spans = {name: _interval(intervals.get(name)) for name in values}
    known = [v for v in numbers.values() if v is not None]
    statuses = {name: status(claim, numbers[name], spans[name]) for name in values}
    affects = not (len(known) == len(numbers) > 1 and len(set(known)) == 1 and len(set(spans.values())) == 1)
    counted = [s for s in statuses.values() if s is not None] if affects else []
    return {"text": claim.text, "paper": claim.paper, "values": numbers,
            "intervals": {n: None if i is None else list(i) for n, i in spans.items()},
            "status": statuses, "affects": affects,
            "min": min(known) if known else None, "max": max(known) if known else None,
            "holds": counted.count(HOLDS), "n": len(counted), "inconclusive": counted.count(INCONCLUSIVE),
            "reversed": counted.count(REVERSED), "no_interval": counted.count(NO_INTERVAL),
            "holding": [n for n, st in statuses.items() if st == HOLDS and affects]}


def verdict(row: Mapping[str, Any]) -> str:
    """"k of n" with what is counted apart, or "does not affect"."""
    if not row.get("affects", True):
        return "does not affect"
    apart = [f"{row[k]} {k.replace('_', ' ')}" for k in ("inconclusive", "reversed", "no_interval") if row.get(k)]
    return f"{row['holds']} of {row['n']}" + (f" ({', '.join(apart)})" if apart else "")


def cell(row: Mapping[str, Any], name: str) -> str:
    """One member's value with its 95% interval, signed."""
    value = row["values"].get(name)
    if value is None:
        return "-"
    span = (row.get("intervals") or {}).get(name)
    return f"{value:+.3f}" + ("" if span is None else f" [{span[0]:+.3f}, {span[1]:+.3f}]")


def order(role: Role, toughness: Mapping[str, Any]) -> list[str]:
    """The family's names from tougher to softer by the measured toughness (members without
    one last, in listing order); listing order when the role measures none."""
    names = [m.name for m in role.family]
    if role.toughness is None:
        return names
    known = {n: _number(toughness.get(n)) for n in names}
    return sorted(names, key=lambda n: (known[n] is None, -(known[n] or 0.0), names.index(n)))


def role_table(role: Role, claims: Sequence[Claim], rows: Mapping[str, dict],
               names: Sequence[str] | None = None) -> Table:
    names = list(names) if names is not None else [m.name for m in role.family]
    table_rows = []
    for claim in claims:
        row = rows[claim.id]
        span = None if row["min"] is None else f"{row['min']:.4g} .. {row['max']:.4g}"
        table_rows.append([claim.text, claim.paper, *(cell(row, n) for n in names), span, verdict(row)])
    order_note = (f"members from tougher to softer by {role.toughness_text}" if role.toughness is not None
                  else "members in listing order (no measured toughness)")
    return Table(name=f"robustness-{role.id.replace('.', '-')}",
                 title=f"Headlines across the family of stand-ins for {role.id} ({role.llm} in the paper)",
                 columns=("claim", "paper", *names, "range", "holds under"),
                 rows=table_rows,
                 note=f"default stand-in: {role.default}; each column is the same study and seed with only "
                      f"this role's stand-in changed, the value [its 95% interval]; {order_note}; a claim holds "
                      f"under a stand-in only when its interval excludes no difference (else inconclusive, or "
                      f"reversed, counted apart); 'does not affect': every stand-in gives the same value, so "
                      f"the role cannot move it (simcore roles {role.system} lists the members' evidence)")


def markdown(result: Mapping[str, Any]) -> str:
    """The tables of a robustness result as Markdown (one per role), values as signed differences
    with their 95% intervals, members from tougher to softer where the role measures toughness."""
    out = []
    for role_id, role in result["roles"].items():
        names = role.get("order") or [m["name"] for m in role["members"]]
        by = role.get("toughness_text")
        out.append(f"**{role_id}** (default: {role['default']}; "
                   + (f"tougher to softer by {by}" if by else "listing order") + ")\n")
        out.append("| claim | paper | " + " | ".join(names) + " | holds under |")
        out.append("|---|---|" + "---|" * len(names) + "---|")
        for claim in role["claims"].values():
            cells = [cell(claim, n) for n in names]
            out.append(f"| {claim['text']} | {claim['paper']} | " + " | ".join(cells) + f" | {verdict(claim)} |")
        if by:
            out.append("")
            out.append("toughness: " + ", ".join(
                f"{n} {role['toughness'][n]:.3f}" if role["toughness"].get(n) is not None else f"{n} -"
                for n in names))
        out.append("")
    return "\n".join(out)


def run_robustness(study_path: str, config: Any, system: str, *, workers: int = 1, out: str | None = None,
                   progress: bool | None = None, echo: Callable[[str], None] | None = None,
                   role_ids: Sequence[str] | None = None) -> dict:
    """Run the study once per family member of each role of ``system``; return the results
    (the content of ``robustness.json``), write them to ``out`` and echo the tables."""

    chosen = system_roles(system)
    if role_ids:
        known = {r.id: r for r in chosen}
        bad = [r for r in role_ids if r not in known]
        if bad:
            raise InputError("--robustness", ",".join(bad), f"unknown role; valid: {', '.join(known)}")
        chosen = [known[r] for r in role_ids]
    claims = system_claims(system)
    if not chosen or not claims:
        raise InputError("--robustness", system, "this system declares no role family or no headline claim")
    # every member's config is built (and validated) before any work: a member the run's other
    # options rule out (e.g. the informed judge with --role mind.judge=model) stops the run here
    configs = {(role.id, m.name): m.apply(config) for role in chosen for m in role.family}
    result: dict = {"system": system, "seed": getattr(config, "seed", None), "roles": {}}
    tables = []
    for role in chosen:
        values: dict[str, dict[str, Any]] = {c.id: {} for c in claims}
        intervals: dict[str, dict[str, Any]] = {c.id: {} for c in claims}
        toughness: dict[str, Any] = {}
        for member in role.family:
            summary = run_study(study_path, configs[(role.id, member.name)], workers=workers, out_dir=None,
                                progress=progress, echo=None)
            for claim in claims:
                values[claim.id][member.name] = claim.value(summary.metrics)
                intervals[claim.id][member.name] = None if claim.interval is None else claim.interval(summary.metrics)
            if role.toughness is not None:
                toughness[member.name] = _number(role.toughness(summary.metrics))
        rows = {c.id: claim_row(c, values[c.id], intervals[c.id]) for c in claims}
        names = order(role, toughness)
        result["roles"][role.id] = {
            "llm": role.llm, "passage": role.passage, "default": role.default, "order": names,
            "toughness_text": role.toughness_text if role.toughness is not None else "",
            "toughness": toughness,
            "members": [{"name": m.name, "description": m.description, "evidence": m.evidence,
                         "overrides": {k: _plain(v) for k, v in m.overrides}} for m in role.family],
            "claims": rows}
        tables.append(role_table(role, claims, rows, names))
    if out is not None:

        os.makedirs(out, exist_ok=True)
        write_atomic(os.path.join(out, ROBUSTNESS_FILE), dumps_metrics(result))
        write_atomic(os.path.join(out, "robustness.md"), markdown(result))
        for table in tables:
            write_atomic(os.path.join(out, f"{table.name}.csv"), table.to_csv(), newline="")
    if echo is not None:
        for table in tables:
            echo(table.render())
            echo("")
        if out is not None:
            echo(f"wrote {os.path.join(out, ROBUSTNESS_FILE)} and {len(tables)} CSV table(s)")
    return result


def _plain(value: Any) -> Any:
    """A config override as JSON can hold it (tuples of pairs stay lists)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
