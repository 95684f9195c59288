"""A MIND study without transcripts (``--no-transcripts``) is the same study: its tables --
the judge's too, which reads the transcripts of its two variants -- are those of a run that
keeps every event, and it writes no transcript line."""

from __future__ import annotations

import os

from simcore.study import run_study
from simcore.systems.mind import STUDY_PATH, MindConfig


def test_a_study_without_transcripts_has_the_tables_of_one_with_them(tmp_path):
    run_study(STUDY_PATH, MindConfig(groups=3), workers=1, out_dir=str(tmp_path / "kept"), progress=False)
    run_study(STUDY_PATH, MindConfig(groups=3, transcripts=False), workers=1, out_dir=str(tmp_path / "unkept"),
              progress=False)
    tables = sorted(n for n in os.listdir(tmp_path / "kept") if n.endswith(".csv"))
    assert "table4_judge.csv" in tables
    for name in tables:  # every table, the judge's too, as with every event kept
        assert (tmp_path / "kept" / name).read_bytes() == (tmp_path / "unkept" / name).read_bytes(), name
    assert (tmp_path / "kept" / "transcripts.jsonl").read_bytes()
    assert not os.path.exists(tmp_path / "unkept" / "transcripts.jsonl") or \
        not (tmp_path / "unkept" / "transcripts.jsonl").read_bytes()
