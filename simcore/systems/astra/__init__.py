"""ASTRA bilateral bargaining (the agent with ASTRA, stages 1-3 and the LP, against partner agents).

The package by concern: :mod:`.registry` (names and registry entries), :mod:`.params` (every
agent and partner parameter), :mod:`.evidence` (the LLM roles' stand-ins and the paper's
claims), :mod:`.match` (one negotiation set up: the entry ``simcore run``, the API, the
environment and ``check_policy`` share), :mod:`.study` and :mod:`.tables` (``simcore run
astra``'s jobs and tables), :mod:`.render` (step-through, playthroughs, Figure 7) and
:mod:`.cli` (the command).  The game is :mod:`simcore.protocols.alternating`; the decision
rules are in :mod:`policies.astra`, :mod:`policies.astra_modules`, :mod:`policies.lp` and
:mod:`policies.partners`.
"""

from simcore.noise import astra_notes as noise_notes
from simcore.systems.astra.cli import FIRST_LOOK, command, run_default
from simcore.systems.astra.envspec import ENV
from simcore.systems.astra.evidence import CLAIMS, ROLES
from simcore.systems.astra.match import play_episode, start
from simcore.systems.astra.registry import REGISTRY, SYSTEM
from simcore.systems.astra.render import PLAYTHROUGHS, plot_offers, render_run
from simcore.systems.astra.study import STUDY, AstraConfig

#: the module of its section of ``simcore report``; the policy modules whose ``RULES`` are its rule tables
REPORT = "simcore.report.astra"
RULE_MODULES = ("policies.astra_modules",)

__all__ = ["FIRST_LOOK", "REPORT", "RULE_MODULES", "noise_notes", "SYSTEM", "STUDY", "REGISTRY", "ROLES", "CLAIMS", "command", "run_default", "render_run", "PLAYTHROUGHS",
           "AstraConfig", "start", "play_episode", "plot_offers", "ENV"]
