"""MIND group travel negotiation (Base, MIND, Tone-only, Appraisal-only).

The package by concern: :mod:`.registry` (names and registry entries), :mod:`.evidence` (the
LLM roles' stand-ins and the paper's claims), :mod:`.agents` (who sits in a member's seat:
the built-in member, its voice, the wrappers of a user's agent), :mod:`.match` (one group's
negotiation set up: the entry ``simcore run``, the API, the environment and ``check_policy``
share), :mod:`.variants` (the policy each variant of the study plays), :mod:`.study` and
:mod:`.tables` (``simcore run mind``'s jobs, metrics and tables), :mod:`.render` (``simcore
show``'s rendering and the playthroughs) and :mod:`.cli` (the command).  The game is
:mod:`simcore.protocols.travel_vote`; the decision rules are in :mod:`policies.mind` and
:mod:`policies.mad`.
"""

from simcore.systems.mind.cli import STUDY_PATH, calibrate_tone_noise, command, run_default
from simcore.systems.mind.envspec import ENV
from simcore.systems.mind.evidence import CLAIMS, READER_FITS, ROLES, TOM_PAPER
from simcore.systems.mind.match import play_group, start
from simcore.systems.mind.registry import POLICY_IDS, REGISTRY, SYSTEM, VARIANTS, describe_scenario
from simcore.systems.mind.render import PLAYTHROUGHS, render_run
from simcore.systems.mind.study import STUDY, MindConfig
from simcore.systems.mind.tables import tables

__all__ = ["ENV", "SYSTEM", "STUDY", "STUDY_PATH", "REGISTRY", "ROLES", "CLAIMS", "PLAYTHROUGHS", "command", "run_default",
           "render_run", "describe_scenario", "calibrate_tone_noise", "MindConfig", "VARIANTS", "POLICY_IDS",
           "TOM_PAPER", "READER_FITS", "tables", "start", "play_group"]
