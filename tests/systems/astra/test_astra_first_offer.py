"""Who makes the first offer (``first_offer``): in the paper's Figure 10 and Table 9 the partner
does; astra-agent-v4 invites it once its questions are answered, v1-v3 offer first (Table 7)."""

from __future__ import annotations

import pytest

import simcore
from policies.astra import AgentParams


def _moves(ep):
    return [(e.speaker, e.phase) for e in ep.events if e.phase not in ("greet", "answer", "ask_highest", "ask_lowest")]


def _tactics(ep):
    return [(e.hidden.get("trace") or {}).get("tactic") for e in ep.events if e.speaker == "agent" and e.phase == "offer"]


def test_the_partner_makes_the_first_offer_in_v4():
    ep = simcore.astra_episode("astra-agent-v4", "base-partner-v2", seed=3)
    assert _moves(ep)[:3] == [("agent", "invite"), ("partner", "offer"), ("agent", "offer")]


@pytest.mark.parametrize("agent", ["astra-agent-v3", "astra-agent-v1"])
def test_older_versions_offer_first(agent):
    ep = simcore.astra_episode(agent, "base-partner-v2", seed=3)
    assert _moves(ep)[0] == ("agent", "offer")


def test_first_offer_is_a_checked_parameter():
    assert AgentParams().first_offer == "partner"
    with pytest.raises(ValueError):
        AgentParams.build(first_offer="nobody")


def test_lic_fires_in_play_when_a_concession_is_below_significant():
    """LIC ("Early in the negotiation; no initial concessions have been made") fires in play where a
    partner's concession is below ``significant`` (1 point), so RC does not answer it: the research
    allocation domain's fractional scores against the conceder partner."""
    ep = simcore.astra_episode("astra-agent-v4", "conceder-partner-v1", domain="research-allocation-v1", seed=0)
    assert _tactics(ep)[:2] == ["AEO", "LIC"]
