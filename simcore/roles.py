"""The roles each paper gives to an LLM with no algorithm behind it, as registered data.

A paper's system is an algorithm plus roles left to an LLM: a baseline agent, a
partner, a judge, an estimate.  simcore plays each role with a rule-based *stand-in*.
A :class:`Role` records, for one role: the system, the passage that gives it to an
LLM, the stand-in simcore uses by default and the evidence each of its parameters
comes from (which figures built it, which are left to test it), and a *family* of
plausible stand-ins -- at least four, from tougher to softer, including the one read
from the paper's transcripts and a human-like one where human data exist -- over which
every headline is reported (:mod:`simcore.robustness`).

Each system's package may declare ``ROLES`` (a sequence of :class:`Role`; none when it does not) and
``CLAIMS`` (a sequence of :class:`Claim`, its headline comparisons); :func:`roles`
collects them.  ``simcore roles [SYSTEM]`` prints the inventory.

A family member is a set of config overrides (:attr:`StandIn.overrides`): the study's
config fields replaced for that member, so a family run is the same study with one
role's stand-in swapped and everything else, the seed included, unchanged.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import attrs

from simcore.catalog import STUDIES, available, part
from simcore.errors import UnknownIdError


def _frozen_mapping(value: Mapping[str, Any]) -> tuple:
    return tuple(sorted(dict(value).items()))


@attrs.frozen
class Evidence:
    """One parameter of a stand-in and where its value comes from."""

    parameter: str
    value: Any
    #: the figure, table, transcript or data set the value was read from, and how
    source: str


@attrs.frozen
class StandIn:
    """One member of a role's family: a name and the study-config overrides that select it."""

    name: str
    #: ``{config field: value}`` applied with ``attrs.evolve`` over the study's config
    overrides: tuple = attrs.field(converter=_frozen_mapping)
    description: str
    #: what the member is built from (a transcript reading, human data, a bound of the range)
    evidence: str

    def apply(self, config: Any) -> Any:
        return attrs.evolve(config, **dict(self.overrides))


@attrs.frozen
class Role:
    """A decision a paper gives to an LLM, and simcore's stand-ins for it."""

    #: ``system.role``, e.g. ``astra.partner``
    id: str
    system: str
    #: what the paper uses for it (e.g. "GPT-4o")
    llm: str
    #: the passage giving the decision to the LLM
    passage: str
    #: the registry id (or ids) of the default stand-in
    stand_in: str
    parameters: tuple = attrs.field(converter=tuple)  # of Evidence
    #: the figures used to build the stand-in (fixed before the method it is compared with was measured)
    built_from: str
    #: the figures left to test it (never used to set a parameter)
    left_to_test: str
    family: tuple = attrs.field(converter=tuple)  # of StandIn
    #: the name of the family member the study's defaults select
    default: str = attrs.field()
    #: the task id (:mod:`mockllm.tasks`) through which a backend plays the role's decisions
    #: (``--role ID=BACKEND``, :mod:`simcore.role_backends`); None: only the stand-in plays it
    task: str | None = None
    #: the language task through which the run's own backend already plays the role (its decision
    #: *is* that model call: ``--backend openai-compat-v1`` puts it on the model, no ``--role``); None: none
    backend_task: str | None = None
    #: how tough each member is, measured on its own run (a number read from metrics.json; higher is
    #: tougher on the paper's claims); the robustness tables order the family by it.  None: listing order
    toughness: Callable[[Mapping[str, Any]], Any] | None = attrs.field(default=None, eq=False)
    #: what :attr:`toughness` measures, in words
    toughness_text: str = ""

    @family.validator
    def _check_family(self, _attr, value):
        names = [m.name for m in value]
        if len(set(names)) != len(names):
            raise ValueError(f"role {self.id}: family member names repeat: {names}")
        if len(value) < 4:
            raise ValueError(f"role {self.id}: a family needs at least four stand-ins, got {len(value)}")

    @default.validator
    def _check_default(self, _attr, value):
        if value not in [m.name for m in self.family]:
            raise ValueError(f"role {self.id}: default {value!r} is not a family member")

    def member(self, name: str) -> StandIn:
        for m in self.family:
            if m.name == name:
                return m

        raise UnknownIdError(f"{self.id} stand-in", name, [m.name for m in self.family])


@attrs.frozen
class Claim:
    """A headline comparison a paper reports, as a signed quantity read from metrics.json.

    ``value(metrics)`` returns the quantity (e.g. ASTRA's mean points minus its
    partner's), or None when the run has no such figure; the claim's direction holds
    when ``holds(value)`` (by default ``value > 0``)."""

    id: str
    text: str
    #: the paper's figure(s) for it, as the paper prints them
    paper: str
    value: Callable[[Mapping[str, Any]], Any] = attrs.field(eq=False)
    holds: Callable[[float], bool] = attrs.field(default=lambda v: v > 0, eq=False)
    #: the 95% interval of the quantity, ``[low, high]``, read from metrics.json; None (the
    #: callable, or its answer): no interval, and the robustness tables cannot say the claim holds
    interval: Callable[[Mapping[str, Any]], Any] | None = attrs.field(default=None, eq=False)


def _known(system: str) -> str:
    if system not in STUDIES:
        raise UnknownIdError("system", system, STUDIES)
    return system


def roles(system: str | None = None) -> list[Role]:
    """Every declared role (of ``system`` only, when given), in study order."""

    systems = available() if system is None else [system]
    out: list[Role] = []
    for name in systems:
        out.extend(part(_known(name), "ROLES"))
    return out


def role(role_id: str) -> Role:
    """The role ``system.name``."""

    found = {r.id: r for r in roles()}
    if role_id not in found:
        raise UnknownIdError("role", role_id, found)
    return found[role_id]


def claims(system: str) -> list[Claim]:
    return list(part(_known(system), "CLAIMS"))


def describe_roles(system: str | None = None) -> str:
    """The inventory as text (``simcore roles``)."""
    lines: list[str] = []
    for r in roles(system):
        lines.append(f"{r.id}  [{r.system}] played in the paper by {r.llm}")
        lines.append(f"  given to an LLM by: {r.passage}")
        lines.append(f"  stand-in: {r.stand_in}")
        if r.task:
            lines.append(f"  played by a model: --role {r.id}=model (task {r.task}; the stand-in is the fallback)")
        if r.backend_task:
            lines.append(f"  played by the run's backend: its decision is the {r.backend_task} model call (a real "
                         f"--backend plays it; the mock's answer is the stand-in)")
        for e in r.parameters:
            lines.append(f"    {e.parameter} = {e.value!r}")
            lines.append(f"        from: {e.source}")
        lines.append(f"  built from: {r.built_from}")
        lines.append(f"  left to test it: {r.left_to_test}")
        lines.append(f"  family ({len(r.family)}):")
        for m in r.family:
            lines.append(f"    {m.name}{' (default)' if m.name == r.default else ''}: {m.description}")
            lines.append(f"        evidence: {m.evidence}")
        lines.append("")
    if not lines:
        return "no roles are declared" + (f" for system {system!r}" if system else "") + "\n"
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["Evidence", "StandIn", "Role", "Claim", "roles", "role", "claims", "describe_roles"]

