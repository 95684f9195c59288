"""A MIND sweep log whose header names the study by its simcore 0.1 path
("simcore.studies.mind:STUDY") resumes under the study's path now
("simcore.systems.mind:STUDY"): the same study, its recorded runs kept."""

from __future__ import annotations

import json

from simcore.catalog import system_of_study
from simcore.sweep import run_sweep
from simcore.systems.mind import STUDY_PATH, MindConfig


def test_a_sweep_logged_under_the_old_study_path_resumes(tmp_path):
    out = tmp_path / "sweep"
    run_sweep(STUDY_PATH, MindConfig(groups=1), grid=["tone_noise=0,0.3"], replicates=1, out=str(out), progress=False)
    log = out / "sweep.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["study"] == "simcore.systems.mind:STUDY"
    header["study"] = "simcore.studies.mind:STUDY"
    log.write_text("\n".join([json.dumps(header, separators=(",", ":"))] + lines[1:]) + "\n", encoding="utf-8")
    said = []
    run_sweep(STUDY_PATH, MindConfig(groups=1), grid=["tone_noise=0,0.3"], replicates=1, out=str(out),
              resume=True, progress=False, echo=said.append)
    assert any("2 of 2 run(s) already recorded" in s for s in said), said


def test_a_study_path_names_its_system():
    assert system_of_study("simcore.systems.mind:STUDY") == system_of_study("simcore.studies.mind:STUDY") == "mind"
    assert system_of_study("mypkg.study:STUDY") is None and system_of_study(None) is None
