"""The dominance dialogue agent (response trees for dominant, peer and submissive relations).

The package by concern: :mod:`.registry` (names and registry entries), :mod:`.match` (one
dialogue set up: the entry ``simcore run``, the API and ``simcore chat dominance`` share),
:mod:`.agents` (the seat a user's agent sits in), :mod:`.envspec` (the environment's and
``check_policy``'s view), :mod:`.study` and :mod:`.tables`
(``simcore run dominance``'s jobs and tables), :mod:`.render` (``simcore show``'s rendering and
the playthroughs) and :mod:`.cli` (the command).  The game is
:mod:`simcore.protocols.dialogue`; the decision rules are in :mod:`policies.dominance` and
:mod:`policies.dominance_state`; the terminal chat is :mod:`simcore.chat_dominance`.

It declares no LLM roles and no claims (:data:`simcore.catalog.OPTIONAL`'s defaults): the
dominance agent's decisions are all the seed's response trees (an algorithm), the simulated user
is another such agent, and the study states no paper figure it compares across stand-ins.
"""

from simcore.noise import dominance_notes as noise_notes
from simcore.systems.dominance.cli import FIRST_LOOK, command, run_default
from simcore.systems.dominance.envspec import ENV
from simcore.systems.dominance.match import play_dialogue, start
from simcore.systems.dominance.registry import REGISTRY, SYSTEM
from simcore.systems.dominance.render import PLAYTHROUGHS, render_run
from simcore.systems.dominance.study import STUDY, DominanceConfig

#: the module of its section of ``simcore report``; the policy modules whose ``RULES`` are its rule tables
REPORT = "simcore.report.dominance"
RULE_MODULES = ("policies.dominance_rules",)

__all__ = ["FIRST_LOOK", "REPORT", "RULE_MODULES", "noise_notes", "SYSTEM", "STUDY", "REGISTRY", "command", "run_default", "render_run", "PLAYTHROUGHS", "DominanceConfig",
           "start", "play_dialogue", "ENV"]
