"""One ASTRA everywhere: the Python API, the environment, ``check_policy``'s opponents and the
NegMAS bridge seat the study's agent (``simcore run astra``'s ``astra``) and its default partner
when no agent is named, so a user who leaves the agent out gets the agent the results are about."""

from __future__ import annotations

import inspect

import simcore
from simcore.systems.astra.envspec import DEFAULTS
from simcore.systems.astra.match import episode_match
from simcore.systems.astra.registry import AGENTS, DEFAULT_AGENTS, DEFAULT_BASE_PARTNER
from simcore.systems.astra.study import AstraConfig


def test_the_api_and_the_environment_default_to_the_study_agent_and_partner():
    study_agent = AGENTS[DEFAULT_AGENTS[0]]
    assert DEFAULT_AGENTS[0] in AstraConfig().agents
    for fn in (simcore.astra_episode, episode_match):
        params = inspect.signature(fn).parameters
        assert (params["agent"].default, params["partner"].default) == (study_agent, DEFAULT_BASE_PARTNER)
    assert DEFAULTS == {"agent": study_agent, "partner": DEFAULT_BASE_PARTNER}


def test_a_default_episode_is_the_study_agents():
    default = simcore.astra_episode(seed=3)
    named = simcore.astra_episode(AGENTS["astra"], DEFAULT_BASE_PARTNER, seed=3)
    assert [(e.speaker, e.text) for e in default.events] == [(e.speaker, e.text) for e in named.events]
    assert default.events[0].speaker == "partner"  # the study's agent lets the partner open
