"""Section 4.3's "Base + Tone Only": the study's Tone-only (tone-only-v4) decides as Base and
speaks with MIND's tone; the B5 readings (tone-only-v2, -v3) stay registered."""

from __future__ import annotations

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.travel import read
from simcore.registry import make
from simcore.seeding import generator
from simcore.systems.mind import STUDY, MindConfig
from simcore.systems.mind.match import play_group
from simcore.systems.mind.registry import VARIANTS

CONFIG = MindConfig(groups=6)


def play(policy_id: str, g: int):
    group = STUDY.group(CONFIG, 0, g)
    pick = generator(0, "mind", 0, g, "proposer")
    proposers = [int(pick.integers(group.size)) for _ in group.items]
    return play_group(group, make("policy", policy_id), proposers, ModelClient(MockBackend()),
                      generator(0, "tone-only-test", g), f"mind/s0/g{g}/{policy_id}")


def test_the_study_tone_only_is_base_plus_tone():
    assert VARIANTS["tone-only"] == "tone-only-v4"
    toned = 0
    for g in range(6):
        t, b = play("tone-only-v4", g), play("base-v3", g)
        assert [(i.final, i.consensus, i.rounds) for i in t.items] == [(i.final, i.consensus, i.rounds) for i in b.items]
        for e in t.events:
            if e.phase == "2-vote" and e.text:
                toned += read(e.text).willingness is not None
        assert all(read(e.text).willingness is None for e in b.events if e.phase == "2-vote" and e.text)
    assert toned > 0  # the words carry the tone Base's never do


def test_the_b5_readings_stay_registered():
    assert make("policy", "tone-only-v3").warm_stance == "accommodate"
    assert make("policy", "tone-only-v2").warm_stance == "compromise"
