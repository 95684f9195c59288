"""A system whose package exports only the contract's names (no study, command, report section,
claims, rule tables or noise finder) is played by the API, the environment, check_policy and the
playthroughs, and ``simcore run`` says plainly that it has no study."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import simcore
import simcore.catalog
from simcore import noise, playthroughs
from simcore.catalog import STUDIES, part, studied
from simcore.cli import cli
from simcore.roles import claims, roles
from simcore.rules import rules
from simcore.testing import check_policy


@pytest.fixture
def contract_only(monkeypatch):
    monkeypatch.setitem(STUDIES, "buysell", "tests.contract_only_system")


def test_the_names_left_out_take_their_defaults(contract_only):
    assert part("buysell", "STUDY") is None and part("buysell", "command") is None
    assert part("buysell", "REPORT") is None and part("buysell", "CLAIMS") == () and part("buysell", "RULE_MODULES") == ()
    assert "buysell" not in studied() and "mind" in studied()
    assert not [e for e in simcore.catalog.REGISTRY if e["id"] == "buysell-study-v1"]
    assert claims("buysell") == [] and [r.id for r in roles("buysell")] == ["buysell.seller", "buysell.buyer"]
    assert not [r for r in rules("buysell")]


def test_the_api_the_environment_check_policy_and_the_playthroughs_play_it(contract_only):
    ep, _record = simcore.negotiate("buysell", seed=3, seller="buysell-seller-gpt-4-v1")
    assert ep.status == "deal" and noise.notes(ep.events) == {}
    assert "t 1 seller  PROPOSAL 50" in part("buysell", "ENV").render(ep.events)
    assert check_policy("buysell-buyer-gpt-4-v1", seeds=range(1)) > 0
    assert "buysell-gpt-4-vs-gpt-4.txt" in playthroughs.generate()


def test_simcore_run_lists_only_the_studies_and_names_a_system_without_one(contract_only):
    result = CliRunner().invoke(cli, ["run", "buysell"])
    assert result.exit_code == 2 and "system 'buysell' has no study to run" in result.output
    listed = CliRunner().invoke(cli, ["run", "--help"]).output
    assert "mind" in listed and "buysell" not in listed
