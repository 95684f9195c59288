"""NegotiationArena's buy-sell game (Bianchi et al. 2024): a seller and a buyer haggle over one object.

The package by concern: :mod:`.registry` (names and registry entries), :mod:`.evidence` (the LLM
players' stand-ins and the paper's logs), :mod:`.match` (one game set up: the entry ``simcore run``,
:func:`episode`, the environment and ``check_policy`` share), :mod:`.envspec` (the environment's
view), :mod:`.study` and :mod:`.tables` (``simcore run buysell``), :mod:`.render` (step-through,
playthroughs) and :mod:`.cli` (the command).  The game is :mod:`simcore.protocols.buysell`; the
decision rule :mod:`policies.buysell`; the words :mod:`mockllm.buysell`.
"""

from simcore.systems.buysell.cli import FIRST_LOOK, command, run_default
from simcore.systems.buysell.envspec import ENV
from simcore.systems.buysell.evidence import CLAIMS, ROLES
from simcore.systems.buysell.match import episode, start
from simcore.systems.buysell.registry import REGISTRY, SYSTEM
from simcore.systems.buysell.render import PLAYTHROUGHS, render_run
from simcore.systems.buysell.study import STUDY, BuySellConfig

#: the module of its section of ``simcore report``; no rule table (the stand-ins' rule is one function)
REPORT = "simcore.systems.buysell.report"
RULE_MODULES = ()


def noise_notes(events) -> dict:
    """The buy-sell mock injects no marked noise: no note for any event."""
    return {}


__all__ = ["FIRST_LOOK", "REPORT", "RULE_MODULES", "noise_notes", "SYSTEM", "STUDY", "REGISTRY", "ROLES", "CLAIMS", "command", "run_default", "render_run", "PLAYTHROUGHS",
           "BuySellConfig", "start", "episode", "ENV"]
