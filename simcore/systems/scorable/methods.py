"""The seven method configurations of the seed (sec. 4.1, Table 1): which estimator the
parties use and who estimates.  :class:`Method` is the registered policy object of each
(``scorable-<method>-v1``); a session with one is set up by
:func:`simcore.systems.scorable.match.start`."""

from __future__ import annotations

import attrs

#: method id -> (display name, estimator, who estimates)
METHODS: dict[str, tuple[str, str, str]] = {
    "base-llm": ("Base-LLM", "none", "none"),
    "base-om-p1": ("Base-OM (p1)", "om", "p1"),
    "base-om-all": ("Base-OM (all)", "om", "all"),
    "llm-pe-p1": ("LLM-PE (p1)", "pe", "p1"),
    "llm-pe-all": ("LLM-PE (all)", "pe", "all"),
    "proposed-p1": ("Proposed (p1)", "proposed", "p1"),
    "proposed-all": ("Proposed (all)", "proposed", "all"),
}
METHOD_IDS = tuple(METHODS)


def estimates(method: str, party: int, p1: int) -> bool:
    """True when ``party`` estimates the others in ``method`` (every party for the "all"
    configurations, p1 alone for the "p1" ones, nobody for Base-LLM)."""
    who = METHODS[method][2]
    return who == "all" or (who == "p1" and party == p1)


@attrs.frozen
class Method:
    """A registered policy: one of the seven method configurations of the seed."""

    method: str = attrs.field(validator=attrs.validators.in_(METHOD_IDS), metadata={"source": (
        "seed sec. 4.1 and Table 1: the seven method configurations (estimator x who estimates: p1 / all)")})

    @property
    def name(self) -> str:
        return METHODS[self.method][0]

    @property
    def estimator(self) -> str:
        return METHODS[self.method][1]

    @property
    def who(self) -> str:
        return METHODS[self.method][2]
