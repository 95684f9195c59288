"""The role inventory and the robustness runner (simcore.roles, simcore.robustness), tried on a
small family declared over the dominance study's ``garble`` option."""

from __future__ import annotations

import json

import pytest

from simcore.roles import Claim, Evidence, Role, StandIn, describe_roles
from tests.clirun import one_line, simcore


def _family(n=4):
    return tuple(StandIn(f"g{k}", {"garble": k / 10}, f"garble {k / 10}", "a test member") for k in range(n))


def _role(**kw):
    base = dict(id="dominance.test", system="dominance", llm="a test LLM", passage="none (a test)",
                stand_in="dominance-*-v2", parameters=(Evidence("garble", 0.0, "a test"),),
                built_from="nothing", left_to_test="nothing", family=_family(), default="g0")
    return Role(**{**base, **kw})


def test_a_family_needs_four_distinct_members_and_a_default_among_them():
    with pytest.raises(ValueError, match="at least four"):
        _role(family=_family(3))
    with pytest.raises(ValueError, match="repeat"):
        _role(family=_family(3) + (StandIn("g0", {}, "dup", "dup"),))
    with pytest.raises(ValueError, match="not a family member"):
        _role(default="nope")


@pytest.fixture
def declared(monkeypatch):
    import simcore.systems.dominance as study

    def booked(metrics):
        return metrics["results"]["peer__peer"]["mean_turns"] - 17

    monkeypatch.setattr(study, "ROLES", (_role(),), raising=False)
    monkeypatch.setattr(study, "CLAIMS", (Claim("booked", "peer pairs talk for more than 17 turns", "n/a", booked),),
                        raising=False)
    return study


def test_roles_command_lists_the_inventory(declared, capsys):
    code, out, _ = simcore(capsys, "roles", "dominance")
    assert code == 0
    assert out == describe_roles("dominance")
    assert "dominance.test" in out and "g0 (default)" in out and "from: a test" in out


def test_robustness_runs_one_study_per_member_and_counts_where_the_claim_holds(declared, capsys, tmp_path):
    code, out, err = simcore(capsys, "run", "dominance", "--dialogues", "3", "--agent", "peer", "--user", "peer",
                             "--robustness", "--out", str(tmp_path / "r"), "--no-progress")
    assert code == 0, err
    data = json.loads((tmp_path / "r" / "robustness.json").read_text())
    row = data["roles"]["dominance.test"]["claims"]["booked"]
    assert list(row["values"]) == ["g0", "g1", "g2", "g3"]
    # on three dialogues garble does not move the mean turns: the family does not affect the claim
    assert len(set(row["values"].values())) == 1
    assert not row["affects"] and row["n"] == 0 and row["holds"] == 0 and "does not affect" in out
    assert row["status"] == dict.fromkeys(row["values"], "no interval")  # the test claim has no interval
    assert "holds under" in out and (tmp_path / "r" / "robustness-dominance-test.csv").exists()
    # each member is the plain run with that member's overrides
    code, _, err = simcore(capsys, "run", "dominance", "--dialogues", "3", "--agent", "peer", "--user", "peer",
                           "--garble", "0.2", "--out", str(tmp_path / "plain"), "--no-progress")
    assert code == 0, err
    plain = json.loads((tmp_path / "plain" / "metrics.json").read_text())
    assert row["values"]["g2"] == pytest.approx(plain["results"]["peer__peer"]["mean_turns"] - 17)


def test_robustness_refuses_an_unknown_role_and_a_sweep(declared, capsys, tmp_path):
    code, _, err = simcore(capsys, "run", "dominance", "--robustness", "nope", "--out", str(tmp_path / "a"))
    assert code == 2 and "unknown role" in one_line(err) and "dominance.test" in err
    code, _, err = simcore(capsys, "run", "dominance", "--robustness", "--replicates", "2",
                           "--out", str(tmp_path / "b"))
    assert code == 2 and "cannot be combined" in one_line(err)
