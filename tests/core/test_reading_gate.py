"""--min-reading-accuracy: a run whose accepted readings are wrong too often exits like one that
fell back too often (status 3, outputs written), on every system with readings; the mock at
its default noise passes."""

from __future__ import annotations

import json

import pytest

from clirun import one_line, simcore
from simcore.errors import FallbackShareExceeded, ReadingAccuracyTooLow
from simcore.readings import upper_bound
from simcore.runopts import DEFAULT_MIN_READING_ACCURACY

#: small runs with enough readings for a wrong reader to stand out beyond chance
SIZES = {"astra": ["--episodes", "1", "--partners", "base,greedy", "--setups", "integrative"],
         "dominance": ["--dialogues", "6"],
         "mind": ["--groups", "3"],
         "scorable": ["--trials", "1", "--methods", "proposed-p1,base-llm"]}
#: every system's study at its defaults but smaller (the sizes benchmarks/output_hashes.py --quick runs)
QUICK = {"astra": ["--episodes", "2"], "dominance": ["--dialogues", "6"], "mind": ["--groups", "12"],
         "scorable": ["--trials", "3"]}
#: each system's table of readings: its CSV and the accuracy column with the count beside it
TABLES = {"astra": ("astra_table1.csv", "readings right,readings"),
          "dominance": ("dominance_results.csv", "readings_right,readings"),
          "mind": ("table3_tom.csv", "readings right,readings"),
          "scorable": ("scorable_outcomes.csv", "readings_right,signals_read")}
WRONG = ["--backend", "adversarial-v1", "--backend-arg", "share=1.0", "--max-fallback-share", "1"]


def test_the_exit_status_is_the_fallback_checks():
    assert ReadingAccuracyTooLow.exit_code == FallbackShareExceeded.exit_code == 3


@pytest.mark.parametrize("system", sorted(SIZES))
def test_a_reader_that_parses_but_says_the_wrong_thing_fails_the_run(system, tmp_path, capsys):
    """adversarial-v1 at share 1.0: answers that pass every check but are not what was meant.
    Few fall back, so --max-fallback-share alone let these runs exit 0."""
    out = tmp_path / "o"
    code, stdout, err = simcore(capsys, "run", system, *SIZES[system], *WRONG, "--no-progress", "--out", str(out))
    line = one_line(err)
    assert code == ReadingAccuracyTooLow.exit_code, err
    assert "accepted readings" in line and f"below --min-reading-accuracy {DEFAULT_MIN_READING_ACCURACY:g}" in line
    readings = json.loads((out / "metrics.json").read_text())["readings"]
    assert readings["read"] > 0 and readings["accuracy"] < 0.2
    assert f"readings: {readings['read']} accepted, {readings['right']} right ({readings['accuracy']:.2%}" in stdout
    assert (out / "transcripts.jsonl").exists()  # the outputs are written
    code, _, err = simcore(capsys, "run", system, *SIZES[system], *WRONG, "--no-progress", "--out",
                           str(tmp_path / "p"), "--min-reading-accuracy", "0")
    assert code == 0, err


@pytest.mark.parametrize("system", sorted(QUICK))
def test_the_mock_at_its_default_noise_passes_comfortably(system, tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = simcore(capsys, "run", system, *QUICK[system], "--no-progress", "--out", str(out))
    assert code == 0, err
    readings = json.loads((out / "metrics.json").read_text())["readings"]
    assert readings["read"] > 100 and readings["accuracy"] >= DEFAULT_MIN_READING_ACCURACY + 0.15
    name, columns = TABLES[system]
    assert columns in (out / name).read_text().splitlines()[0]
    assert [line for line in stdout.splitlines() if line.startswith("readings: ")] == [
        f"readings: {readings['read']} accepted, {readings['right']} right ({readings['accuracy']:.2%}; "
        f"95% upper bound {upper_bound(readings['read'], readings['right']):.2%})"]


def test_a_sweep_is_checked_over_all_its_runs(tmp_path, capsys):
    args = ["run", "dominance", "--dialogues", "3", *WRONG, "--no-progress", "--grid", "max_turns=30,40",
            "--replicates", "1"]
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "a"))
    assert code == 3 and "below --min-reading-accuracy 0.6" in one_line(err), err
    assert (tmp_path / "a" / "sweep.json").exists()
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "b"), "--min-reading-accuracy", "0")
    assert code == 0, err


def test_bad_thresholds_are_one_line_before_any_work(tmp_path, capsys):
    for bad in ("nan", "-0.1", "2"):
        code, stdout, err = simcore(capsys, "run", "dominance", "--dialogues", "1", "--no-progress", "--out",
                                    str(tmp_path / "c"), "--min-reading-accuracy", bad)
        assert code == 2 and "--min-reading-accuracy" in one_line(err) and stdout == ""
        assert not (tmp_path / "c").exists()


def test_a_few_readings_with_one_slip_are_not_stopped_by_their_sample():
    """The check compares the threshold with the accuracy's 95% upper bound: one wrong
    reading of three is no evidence of a bad reader; thirty of a hundred wrong is."""
    from simcore.readings import check_reading_accuracy, reading_totals

    check_reading_accuracy({"readings": reading_totals(3, 1)}, 0.6, None)
    check_reading_accuracy({"readings": reading_totals(0, 0)}, 0.6, None)
    check_reading_accuracy({"readings": reading_totals(100, 30)}, 0.0, None)
    with pytest.raises(ReadingAccuracyTooLow, match="30 of 100 accepted readings"):
        check_reading_accuracy({"readings": reading_totals(100, 30)}, 0.6, "runs/x")


@pytest.mark.parametrize("read, right", [(1, 0), (3, 1), (20, 19), (415, 24), (100, 100), (7, 0)])
def test_the_upper_bound_is_scipys_clopper_pearson_bound(read, right):
    from scipy.stats import binomtest  # (heavy to import: only this test needs it)

    want = binomtest(right, read, alternative="less").proportion_ci(0.95).high
    assert upper_bound(read, right) == pytest.approx(want, abs=1e-12)


def test_from_python_no_threshold_means_no_check(tmp_path):
    """launch() checks what it is given; from Python nothing is checked unless asked."""
    from simcore.launch import launch
    from simcore.systems.dominance import DominanceConfig

    config = DominanceConfig(dialogues=3, backend="adversarial-v1", backend_args=(("share", "1.0"),))
    summary = launch("simcore.systems.dominance:STUDY", config, out=None)
    assert summary.metrics["readings"]["accuracy"] < 0.2
    with pytest.raises(ReadingAccuracyTooLow):
        launch("simcore.systems.dominance:STUDY", config, out=None, min_reading_accuracy=0.6)
