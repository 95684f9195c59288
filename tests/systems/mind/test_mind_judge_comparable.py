"""A criterion on which a plan has nothing checkable is "not comparable" for that group (neither
side wins it, the tables count it apart), and the informed judge knows every reason Base is given."""

from __future__ import annotations

import numpy as np
import pytest

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from simcore.metrics.mind_judge import (CRITERIA, NOT_COMPARABLE, blind_evidence, compare, conversation_key,
                                        judged_turns, settle, win_rates)
from simcore.registry import make
from simcore.seeding import generator
from simcore.systems.mind import STUDY, MindConfig
from simcore.systems.mind.match import play_group

CONFIG = MindConfig(groups=8)


def play(policy_id: str, g: int):
    group = STUDY.group(CONFIG, 0, g)
    pick = generator(0, "mind", 0, g, "proposer")
    proposers = [int(pick.integers(group.size)) for _ in group.items]
    out = play_group(group, make("policy", policy_id), proposers, ModelClient(MockBackend()),
                     generator(0, "comparable-test", g), f"mind/s0/g{g}/{policy_id}")
    return list(out.events)


@pytest.fixture(scope="module")
def plans():
    return [(play("mind-v2", g), play("base-v3", g)) for g in range(6)]


def test_stake_based_criteria_are_not_comparable_when_base_states_no_stake(plans):
    # B1 forbids Base to state a stake: the stake-based tests have nothing to check in its plan,
    # which is no pass (the judge once scored Base 1.000 on rationality in every group)
    for g, (mind, base) in enumerate(plans):
        eb = blind_evidence(base)
        assert eb["rationality"] is None and eb["alignment"] is None
        em = blind_evidence(mind)
        assert em["alignment"] is not None
        v = compare(em, eb, np.random.default_rng(g), conversation_key(mind), conversation_key(base))
        assert v["rationality"] == NOT_COMPARABLE and v["alignment"] == NOT_COMPARABLE
        assert set(v["not_comparable"]) == {"rationality", "alignment"}
        assert "rationality" not in v["tie_break"]
        assert v["overall"] in ("A", "B")


def test_a_plan_judged_against_itself_is_comparable_where_it_states_stakes(plans):
    mind, _ = plans[0]
    e = blind_evidence(mind)
    v = compare(e, e, np.random.default_rng(0), "k", "k")
    assert v["not_comparable"] == [c for c in CRITERIA if e[c] is None]


def test_overall_is_the_majority_of_the_comparable_criteria_and_tables_count_them_apart():
    verdict = {"rationality": NOT_COMPARABLE, "alignment": NOT_COMPARABLE, "reason_validity": "B",
               "change_justification": "B", "fluency": "A"}
    v = settle(verdict, np.random.default_rng(0))
    assert v["overall"] == "B" and not v["overall_tie_break"] and v["tie_break"] == []
    assert v["overall_no_fluency"] == "B"
    rates = win_rates([v, settle({c: "A" for c in CRITERIA}, np.random.default_rng(1))])
    assert rates["rationality"] == {"win": 0.5, "loss": 0.0, "tie_break": 0.0, "not_comparable": 0.5}
    assert rates["overall"]["win"] + rates["overall"]["loss"] == 1.0


def test_the_informed_v2_judge_knows_bases_compromise_and_support_reasons(plans):
    said = {"v1": [], "v2": []}
    for _, base in plans:
        for judge in said:
            said[judge] += [t for t in judged_turns(base, judge) if t["reason"] in ("compromise", "support")]
    assert said["v2"] and len(said["v1"]) == len(said["v2"])
    assert not any(t["valid"] for t in said["v1"])  # v1 does not know these reasons: every one false
    assert all(t["valid"] for t in said["v2"])  # B3-B4 give them, and base-v3 says them only when true
