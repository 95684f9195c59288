"""NegotiationArena's buy-sell game (Bianchi et al. 2024): a seller and a buyer haggle over one object.

The package by concern: :mod:`.registry` (names and registry entries), :mod:`.evidence` (the LLM
players' stand-ins and the paper's logs), :mod:`.match` (one game set up: the entry ``simcore run``,
the API, the environment and ``check_policy`` share), :mod:`.envspec` (the environment's view and
:func:`episode`), :mod:`.render` (step-through, playthroughs); the study, optional in a system:
:mod:`.study` and :mod:`.tables` (``simcore run buysell``), :mod:`.cli` (the command) and
:mod:`.report` (its section of ``simcore report``).  The game is :mod:`simcore.protocols.buysell`;
the decision rule :mod:`policies.buysell`; the words :mod:`mockllm.buysell`.  The names it leaves
out take :data:`simcore.catalog.OPTIONAL`'s defaults: no claims, no rule tables, no noise marks.
"""

from simcore.systems.buysell.cli import FIRST_LOOK, command
from simcore.systems.buysell.envspec import ENV, episode
from simcore.systems.buysell.evidence import ROLES
from simcore.systems.buysell.match import start
from simcore.systems.buysell.registry import REGISTRY, SYSTEM
from simcore.systems.buysell.render import PLAYTHROUGHS, render_run
from simcore.systems.buysell.study import STUDY, BuySellConfig

__all__ = ["SYSTEM", "REGISTRY", "ROLES", "ENV", "render_run", "PLAYTHROUGHS", "episode", "start", "STUDY", "command",
           "FIRST_LOOK", "BuySellConfig"]
