"""The dominance dialogue agent (response trees for dominant, peer and submissive relations).

The package by concern: :mod:`.registry` (names and registry entries), :mod:`.match` (one
dialogue set up: the entry ``simcore run``, the API and ``simcore chat dominance`` share),
:mod:`.agents` (the seat a user's agent sits in), :mod:`.envspec` (the environment's and
``check_policy``'s view), :mod:`.study` and :mod:`.tables`
(``simcore run dominance``'s jobs and tables), :mod:`.render` (``simcore show``'s rendering and
the playthroughs) and :mod:`.cli` (the command).  The game is
:mod:`simcore.protocols.dialogue`; the decision rules are in :mod:`policies.dominance` and
:mod:`policies.dominance_state`; the terminal chat is :mod:`simcore.chat_dominance`.
"""

from simcore.systems.dominance.cli import command, run_default
from simcore.systems.dominance.envspec import ENV
from simcore.systems.dominance.match import play_dialogue, start
from simcore.systems.dominance.registry import REGISTRY, SYSTEM
from simcore.systems.dominance.render import PLAYTHROUGHS, render_run
from simcore.systems.dominance.study import STUDY, DominanceConfig

__all__ = ["SYSTEM", "STUDY", "REGISTRY", "command", "run_default", "render_run", "PLAYTHROUGHS", "DominanceConfig",
           "start", "play_dialogue", "ENV"]
