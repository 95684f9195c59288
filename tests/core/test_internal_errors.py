"""A policy's illegal move is a bug in simcore, not the user's bad input: one line naming
the policy, the move and the rule it breaks, a request to report it, exit status 1; the
traceback only with SIMCORE_DEBUG.  (Illegal moves a model's answer implies stay counted
fallbacks: tests/core/test_fuzz_runs.py, tests/language/test_model_output.py.)"""

from __future__ import annotations

import pytest

from clirun import simcore


def _dominance_books_unproposed(monkeypatch):
    from policies.dominance import DominanceAgent
    from simcore.protocols.dialogue import Booking, Decision

    monkeypatch.setattr(DominanceAgent, "decide",
                        lambda self, heard: Decision(Booking("Nowhere Diner"), "Fig. 9", "a broken rule"))
    return (["run", "dominance", "--dialogues", "1", "--agent", "dominant", "--user", "peer"],
            ["DominanceAgent", "Fig. 9 a broken rule", "Booking(option='Nowhere Diner')",
             "booking of unknown restaurant 'Nowhere Diner'"])


def _astra_partner_accepts_nothing(monkeypatch):
    from policies.partners import Partner
    from simcore.protocols.alternating import Action

    monkeypatch.setattr(Partner, "act", lambda self, obs: Action("accept", "Deal."))
    return (["run", "astra", "--episodes", "1", "--partners", "base", "--setups", "integrative"],
            ["Partner in seat 'partner'", "Action(kind='accept'", "ACCEPT is legal only with an offer of the other side"])


def _scorable_deal_off_the_board(monkeypatch):
    monkeypatch.setattr("simcore.systems.scorable.agents.choose_deal", lambda game, *a, **k: ((99,), {}))
    return (["run", "scorable", "--trials", "1", "--methods", "proposed-p1"],
            ["Negotiator 'proposed-p1' in seat", "(propose)", "(99,)", "a deal is one option per issue"])


def _mind_update_names_no_option(monkeypatch):
    from policies.mind import MindPolicy
    from simcore.protocols.travel_moves import Update

    monkeypatch.setattr(MindPolicy, "update", lambda self, me, proposal, dissents, n: Update("UPDATE", "the moon"))
    return (["run", "mind", "--groups", "1", "--variants", "mind"],
            ["'the moon'", "the value must be an option of"])


@pytest.mark.parametrize("broken", [_dominance_books_unproposed, _astra_partner_accepts_nothing,
                                    _scorable_deal_off_the_board, _mind_update_names_no_option])
def test_a_policys_illegal_move_is_an_internal_error(broken, monkeypatch, tmp_path, capsys):
    args, named = broken(monkeypatch)
    monkeypatch.delenv("SIMCORE_DEBUG", raising=False)
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "a"), "--no-progress")
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1, err
    line = lines[0]
    assert line.startswith("simcore: internal error: policy ") and "made an illegal move" in line
    assert "bug in simcore, not in your input" in line and "report" in line and "SIMCORE_DEBUG=1" in line
    for part in named:
        assert part in line, (part, line)
    monkeypatch.setenv("SIMCORE_DEBUG", "1")
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "b"), "--no-progress")
    assert code == 1 and "Traceback (most recent call last)" in err
    assert err.strip().splitlines()[-1] == line
