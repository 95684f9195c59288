"""The buy-sell study (``simcore run buysell``): its bytes whatever the worker count, and its
section of ``simcore report``."""

from __future__ import annotations

from simcore.launch import launch
from simcore.report import build
from simcore.systems.buysell.study import BuySellConfig


def test_the_study_is_deterministic_whatever_the_worker_count(tmp_path):
    config = BuySellConfig(episodes=3, sellers=("gpt-4", "gpt-3.5"), buyers=("gpt-4",), cost=(20, 40), value=(60, 80))
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        launch("simcore.systems.buysell:STUDY", config, workers=workers, out=str(out))
        outs.append([(out / f).read_bytes() for f in ("metrics.json", "transcripts.jsonl", "buysell_pairs.csv")])
    assert outs[0] == outs[1]
    assert b'"gpt-4__gpt-4"' in outs[0][0] and all(len(x) > 0 for x in outs[0])


def test_simcore_report_reads_a_buysell_run(tmp_path):
    launch("simcore.systems.buysell:STUDY", BuySellConfig(episodes=1, sellers=("gpt-4",), buyers=("gpt-4",)),
           out=str(tmp_path / "run"))
    assert build(str(tmp_path / "run"), str(tmp_path / "report.html"))
