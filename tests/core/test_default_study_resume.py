"""``simcore run`` (the default study of every system) can be continued after Ctrl-C with
--resume: the systems finished with the same seed are kept, the rest run again."""

from __future__ import annotations

import importlib
import json
import os

from simcore.default_study import after_note
from simcore.progress import AFTER
from tests.clirun import simcore as run_simcore

NAMES = ("mind", "scorable", "astra", "dominance")


def _fake_studies(monkeypatch, calls, interrupt_at=None, afters=None):
    """Each system's run_default writes a metrics.json (a stand-in for its study, which
    takes minutes); the one named ``interrupt_at`` is stopped by Ctrl-C halfway."""
    from simcore import catalog as studies

    afters = [] if afters is None else afters
    for name in NAMES:
        module = importlib.import_module(studies.STUDIES[name])

        def run_default(seed=0, workers=1, out=None, progress=None, first_look=False, _name=name):
            calls.append(_name)
            afters.append(AFTER.get())
            os.makedirs(out, exist_ok=True)
            if _name == interrupt_at:
                open(os.path.join(out, "transcripts.jsonl.tmp-1"), "w").close()
                raise KeyboardInterrupt
            with open(os.path.join(out, "metrics.json"), "w") as fh:
                json.dump({"seed": seed}, fh)

        monkeypatch.setattr(module, "run_default", run_default)
    monkeypatch.setattr("simcore.cli.studied", lambda: NAMES)


def simcore(capsys, *args) -> tuple[int, str]:
    """(exit status, stdout + stderr) of the simcore command."""
    code, out, err = run_simcore(capsys, *args)
    return code or 0, out + err


def test_an_interrupted_default_study_resumes_where_it_stopped(tmp_path, monkeypatch, capsys):
    out = str(tmp_path / "runs")
    calls: list = []
    _fake_studies(monkeypatch, calls, interrupt_at="astra")
    code, _ = simcore(capsys, "run", "--out", out, "--seed", "4")
    assert code == 130 and calls == ["mind", "scorable", "astra"]  # Ctrl-C during astra

    code, text = simcore(capsys, "run", "--out", out, "--seed", "4")
    assert code == 2 and "--resume" in text

    calls.clear()
    _fake_studies(monkeypatch, calls)
    code, text = simcore(capsys, "run", "--out", out, "--seed", "4", "--resume")
    assert code == 0, text
    assert calls == ["astra", "dominance"]  # the two finished systems are kept
    assert "done earlier with seed 4, kept" in text
    for name in NAMES:
        assert json.load(open(os.path.join(out, name, "default-study.json"))) == {"seed": 4}

    calls.clear()
    code, _ = simcore(capsys, "run", "--out", out, "--seed", "4", "--resume")
    assert code == 0 and calls == []


def test_resume_refuses_another_seed_or_a_plain_runs_results(tmp_path, monkeypatch, capsys):
    out = str(tmp_path / "runs")
    calls: list = []
    _fake_studies(monkeypatch, calls)
    assert simcore(capsys, "run", "--out", out, "--seed", "1")[0] == 0
    calls.clear()
    code, text = simcore(capsys, "run", "--out", out, "--seed", "2", "--resume")
    assert code == 2 and "seed 1, not 2" in text and calls == []

    plain = tmp_path / "plain"
    (plain / "mind").mkdir(parents=True)
    (plain / "mind" / "metrics.json").write_text("{}")
    code, text = simcore(capsys, "run", "--out", str(plain), "--resume")
    assert code == 2 and "not of an interrupted default study" in text and calls == []


def test_the_overall_line_says_which_system_k_of_n_and_guesses_no_time_for_systems_not_started():
    """Nothing about a system has been measured before it runs: the line names the systems not
    started and estimates no time for them (a fixed share of each system said "about 2m37s
    left" when 9m40s remained)."""
    from simcore.default_study import after_note, overall_line

    line = overall_line(["mind", "scorable", "astra", "dominance"], ["mind"], 20.0)
    assert line == ("default study: 1 of 4 systems done, 20s; not started: scorable, astra, dominance "
                    "(no estimate before each has run)")
    assert overall_line(["mind"], ["mind"], 5.0) == "default study: 1 of 1 systems done, 5s"
    assert after_note(["mind", "scorable", "astra"], "scorable") == "then astra (not started: no estimate)"
    assert after_note(["mind", "scorable"], "scorable") == ""


def test_each_systems_progress_line_names_the_systems_after_it(tmp_path, monkeypatch, capsys):
    calls: list = []
    afters: list = []
    _fake_studies(monkeypatch, calls, afters=afters)
    code, _ = simcore(capsys, "run", "--out", str(tmp_path / "r"))
    assert code == 0 and afters == [after_note(NAMES, n) for n in NAMES]
    assert afters[0] == "then scorable, astra, dominance (not started: no estimate)" and afters[-1] == ""
    assert AFTER.get() == ""


def test_the_default_study_prints_the_overall_line(tmp_path, monkeypatch, capsys):
    calls: list = []
    _fake_studies(monkeypatch, calls)
    code, text = simcore(capsys, "run", "--out", str(tmp_path / "r"))
    assert code == 0 and "== astra (3 of 4) ==" in text and "default study: 4 of 4 systems done" in text
