"""The scorable multi-party game with the Bayesian opponent model (the seed's Tables 1 and 2).

The package by concern: :mod:`.methods` (the seven method configurations and their registered
policy object), :mod:`.registry` (names and registry entries), :mod:`.evidence` (the LLM
roles' stand-ins and the seed's claims), :mod:`.model` (what a session's built-in parties
share: the turn draws, the public reading, the estimates, the measurements), :mod:`.agents`
(the built-in negotiator and a user's agent's voice), :mod:`.match` (one session set up: the
entry ``simcore run`` and the API share), :mod:`.study` and :mod:`.tables` (``simcore run
scorable``'s jobs and tables), :mod:`.render` (step-through, playthroughs) and :mod:`.cli`
(the command).  The game is :mod:`simcore.protocols.scorable`; the decision rules are in
:mod:`policies.scorable`, :mod:`policies.bayes` and :mod:`policies.llm_pe`.
"""

from simcore.systems.scorable.cli import command, run_default
from simcore.systems.scorable.envspec import ENV
from simcore.systems.scorable.evidence import CLAIMS, ROLES
from simcore.systems.scorable.match import SessionResult, session_match, start
from simcore.systems.scorable.methods import METHOD_IDS, METHODS, Method
from simcore.systems.scorable.model import TurnDraws
from simcore.systems.scorable.registry import GAMES, REGISTRY, SYSTEM
from simcore.systems.scorable.render import PLAYTHROUGHS, render_run
from simcore.systems.scorable.study import STUDY, ScorableConfig

__all__ = ["ENV", "SYSTEM", "STUDY", "REGISTRY", "ROLES", "CLAIMS", "command", "run_default", "render_run", "PLAYTHROUGHS",
           "ScorableConfig", "METHODS", "METHOD_IDS", "GAMES", "Method", "start", "session_match", "SessionResult",
           "TurnDraws"]
