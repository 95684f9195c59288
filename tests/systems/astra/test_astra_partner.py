"""The stand-ins for ASTRA's GPT-4o Partner-Base: built from the partner's own turns in
the paper's transcripts, checked against CaSiNo's human negotiators, which were not used to build it."""

from __future__ import annotations

import statistics

import pytest

from scenarios.bilateral import load_domain
from simcore.seeding import derive
from simcore.systems.astra.match import play_episode
from simcore.systems.astra.params import PARTNER_KWARGS
from simcore.systems.astra.registry import BASE_PARTNERS, DEFAULT_BASE_PARTNER
from tests.clirun import simcore

CASINO = load_domain("casino-v1")


def self_play(base_partner: str, episodes: int = 20):
    """The base partner against itself on CaSiNo's two paper setups: (deal rate, points per participant)."""
    statuses, points = [], []
    for setup in ("integrative", "distributive"):
        for e in range(episodes):
            ep, _ = play_episode(CASINO, "partner", "base", setup, derive(0, "astra-selfplay", setup, e),
                                 run_id=f"astra/selfplay/{setup}/e{e}", base_partner=base_partner)
            statuses.append(ep.status)
            if ep.status == "agreement":
                points += [ep.agent_score, ep.partner_score]
    return statuses.count("agreement") / len(statuses), (statuses, points)


def test_the_default_partner_makes_deals_with_itself_like_casinos_humans():
    # CaSiNo (Chawla et al. 2021): 1,005 of 1,030 human dialogues end in a deal, at 18.98 points per
    # participant.  base-partner-v1 (the partner that offers by fixed rules) reaches no deal at all.
    rate, (_, points) = self_play(DEFAULT_BASE_PARTNER)
    assert rate >= 0.9
    assert abs(statistics.mean(points) - 18.98) <= 2.0


def test_the_old_default_is_kept_as_the_tough_member_and_still_reaches_no_deal():
    rate, _ = self_play("base-partner-v1", episodes=5)
    assert rate == 0.0


def test_the_transcript_partner_opens_and_concedes_as_the_papers_gpt4o_partner():
    # Table 7 / Figs. 10-11: openings 19-21 of 36, about 1 point per further offer, lowest offer 15
    from policies.partners import TRANSCRIPT_LOWEST, TRANSCRIPT_OPENINGS

    kw = PARTNER_KWARGS[BASE_PARTNERS[DEFAULT_BASE_PARTNER]]
    assert kw["open_share"] * 36 == pytest.approx(statistics.median(TRANSCRIPT_OPENINGS))
    assert kw["floor_share"] * 36 == pytest.approx(min(TRANSCRIPT_LOWEST))
    ep, _ = play_episode(CASINO, "partner", "base", "distributive", derive(0, "open"), run_id="astra/open",
                         base_partner=DEFAULT_BASE_PARTNER)
    own = [e.hidden["true_scores"][1] for e in ep.events if e.speaker == "partner" and "true_scores" in e.hidden]
    assert 19 <= own[0] <= 21
    assert all(0 <= a - b <= 2 for a, b in zip(own, own[1:]))  # concedes in small steps, never backs up


def test_partner_vs_partner_runs_from_the_command_line(capsys, tmp_path):
    code, out, err = simcore(capsys, "run", "astra", "--agents", "partner", "--partners", "base",
                             "--setups", "integrative", "--episodes", "3", "--out", str(tmp_path / "o"),
                             "--no-progress")
    assert code == 0, err
    assert "partner     base" in out or "partner  base" in out


def test_the_robustness_table_has_every_claim_under_every_stand_in(capsys, tmp_path):
    import json

    code, _, err = simcore(capsys, "run", "astra", "--partners", "base", "--setups", "integrative",
                           "--episodes", "3", "--robustness", "--out", str(tmp_path / "r"), "--no-progress")
    assert code == 0, err
    data = json.loads((tmp_path / "r" / "robustness.json").read_text())
    role = data["roles"]["astra.partner"]
    assert [m["name"] for m in role["members"]] == ["tough", "firm", "transcripts", "human-like", "soft"]
    for claim in role["claims"].values():
        assert set(claim["values"]) == {"tough", "firm", "transcripts", "human-like", "soft"}
        assert all(isinstance(v, float) for v in claim["values"].values())
