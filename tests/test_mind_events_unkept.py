"""Events nobody reads are not built (issue 21): ``negotiate_group(events=False)`` plays the
same negotiation -- outcomes, model calls, fallbacks -- with no events, and a MIND study
without transcripts builds events only for the judge's two variants, its tables those of a
run that keeps every event."""

from __future__ import annotations

import os

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from simcore.protocols import travel_vote
from simcore.protocols.travel_vote import negotiate_group
from simcore.registry import make
from simcore.seeding import generator
from simcore.studies.mind import STUDY, MindConfig
from simcore.study import run_study


def test_a_group_without_events_is_the_same_negotiation():
    config = MindConfig(groups=6)
    for g in range(6):
        group = STUDY.group(config, 0, g)
        pick = generator(0, "mind", 0, g, "proposer")
        proposers = [int(pick.integers(group.size)) for _ in group.items]
        outs, stats = [], []
        for events in (True, False):
            client = ModelClient(MockBackend())
            outs.append(negotiate_group(group, make("policy", "mind-v2"), proposers, client,
                                        generator(0, "unkept", g), f"mind/t{g}", events=events))
            stats.append(client.stats.task_counts())
        kept, unkept = outs
        assert kept.events and unkept.events == ()
        assert kept.items == unkept.items and kept.fallbacks == unkept.fallbacks
        assert stats[0] == stats[1]


def test_a_study_without_transcripts_builds_only_the_judges_events(tmp_path, monkeypatch):
    built = []
    real = travel_vote._Log.__init__

    def spy(self, run, keep=True):
        built.append((run.rsplit("/", 1)[-1], keep))
        real(self, run, keep)

    with_transcripts = MindConfig(groups=3)
    run_study("simcore.studies.mind:STUDY", with_transcripts, workers=1, out_dir=str(tmp_path / "kept"),
              progress=False)
    monkeypatch.setattr(travel_vote._Log, "__init__", spy)
    run_study("simcore.studies.mind:STUDY", MindConfig(groups=3, transcripts=False), workers=1,
              out_dir=str(tmp_path / "unkept"), progress=False)
    kept = {v for v, keep in built if keep}
    assert kept == {"mind", "base"} and {v for v, keep in built if not keep}  # (the other variants)
    tables = sorted(n for n in os.listdir(tmp_path / "kept") if n.endswith(".csv"))
    assert "table4_judge.csv" in tables
    for name in tables:  # every table, the judge's too, as with every event built
        assert (tmp_path / "kept" / name).read_bytes() == (tmp_path / "unkept" / name).read_bytes(), name
