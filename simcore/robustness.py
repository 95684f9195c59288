"""Every headline across a role's family of stand-ins (``simcore run SYSTEM --robustness``).

For each role the system declares (:mod:`simcore.roles`), the study is run once per
family member -- the same config and root seed, with only that role's stand-in swapped
-- and each of the system's claims is read from the member's metrics.  The table has,
per claim, the paper's figure, the value under each member, the range, and "holds
under k of n": how many members give the direction the paper reports.

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


def claim_row(claim: Claim, values: Mapping[str, Any]) -> dict:
    """One claim over a family: the values, their range and how many members hold it."""
    numbers = {name: _number(v) for name, v in values.items()}
    known = [v for v in numbers.values() if v is not None]
    holding = [name for name, v in numbers.items() if v is not None and claim.holds(v)]
    return {"text": claim.text, "paper": claim.paper, "values": numbers,
            "min": min(known) if known else None, "max": max(known) if known else None,
            "holds": len(holding), "n": len(known), "holding": holding}


def role_table(role: Role, claims: Sequence[Claim], rows: Mapping[str, dict]) -> Table:
    names = [m.name for m in role.family]
    table_rows = []
    for claim in claims:
        row = rows[claim.id]
        cells = [row["values"][n] for n in names]
        span = None if row["min"] is None else f"{row['min']:.4g} .. {row['max']:.4g}"
        table_rows.append([claim.text, claim.paper, *cells, span, f"{row['holds']} of {row['n']}"])
    return Table(name=f"robustness-{role.id.replace('.', '-')}",
                 title=f"Headlines across the family of stand-ins for {role.id} ({role.llm} in the paper)",
                 columns=("claim", "paper", *names, "range", "direction holds under"),
                 rows=table_rows,
                 note=f"default stand-in: {role.default}; each column is the same study and seed with only "
                      f"this role's stand-in changed (simcore roles {role.system} lists the members' evidence)")


def markdown(result: Mapping[str, Any]) -> str:
    """The tables of a robustness result as Markdown (one per role), values as signed differences."""
    out = []
    for role_id, role in result["roles"].items():
        names = [m["name"] for m in role["members"]]
        out.append(f"**{role_id}** (default: {role['default']})\n")
        out.append("| claim | paper | " + " | ".join(names) + " | holds under |")
        out.append("|---|---|" + "---|" * len(names) + "---|")
        for claim in role["claims"].values():
            cells = ["-" if claim["values"][n] is None else f"{claim['values'][n]:+.3f}" for n in names]
            out.append(f"| {claim['text']} | {claim['paper']} | " + " | ".join(cells)
                       + f" | {claim['holds']} of {claim['n']} |")
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
        for member in role.family:
            summary = run_study(study_path, configs[(role.id, member.name)], workers=workers, out_dir=None,
                                progress=progress, echo=None)
            for claim in claims:
                values[claim.id][member.name] = claim.value(summary.metrics)
        rows = {c.id: claim_row(c, values[c.id]) for c in claims}
        result["roles"][role.id] = {
            "llm": role.llm, "passage": role.passage, "default": role.default,
            "members": [{"name": m.name, "description": m.description, "evidence": m.evidence,
                         "overrides": {k: _plain(v) for k, v in m.overrides}} for m in role.family],
            "claims": rows}
        tables.append(role_table(role, claims, rows))
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
