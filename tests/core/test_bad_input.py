"""Bad input on the command line gets one line naming what is wrong, exit status 2,
before any work: output locations, options before the system name,
results already on disk, non-finite numbers, empty lists, grid values, data files
and ``simcore show``."""

import json
import os
import subprocess
import sys

import pytest

from simcore.cli import main
from checkout import TESTS  # noqa: E402

HERE = TESTS
ROOT = os.path.dirname(HERE)
TINY = ["run", "mind", "--groups", "2", "--variants", "mind"]


def _run(argv, capsys):
    """``simcore ARGV`` in-process: (exit status, stdout, stderr); a traceback fails the test."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err[-800:]
    assert lines[0].startswith("simcore: error: "), lines[0]
    return lines[0]


# ---------------------------------------------------------------- --out


def test_out_under_a_file_is_refused_before_the_run(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    out = str(tmp_path / "afile" / "x")
    status, stdout, err = _run(TINY + ["--out", out], capsys)
    assert status == 2 and "is a file, not a directory" in _one_line(err)
    assert stdout == ""  # no table: nothing was computed


@pytest.mark.parametrize("out, problem", [("", "empty path"), ("/dev/null", "not a directory"),
                                          ("/proc/simcore-x", "cannot create")])
def test_unusable_out_is_one_line(out, problem, capsys):
    status, stdout, err = _run(TINY + ["--out", out], capsys)
    assert status == 2 and problem in _one_line(err) and stdout == ""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_out_is_one_line(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        status, _, err = _run(TINY + ["--out", str(ro / "x")], capsys)
    finally:
        ro.chmod(0o700)
    assert status == 2 and "cannot create" in _one_line(err)


def test_out_that_cannot_be_written_is_one_line(tmp_path, capsys, monkeypatch):
    """A directory the OS refuses to write in (read-only file system), checked by a probe
    file before the study starts."""
    import builtins

    real_open = builtins.open

    def refusing_open(path, mode="r", *args, **kwargs):
        if "simcore-write-test" in str(path):
            raise OSError(30, "Read-only file system")
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing_open)
    status, stdout, err = _run(TINY + ["--out", str(tmp_path / "o")], capsys)
    assert status == 2 and "Read-only file system" in _one_line(err) and stdout == ""


# ---------------------------------------------------------------- existing results


def test_results_are_not_overwritten_without_overwrite(tmp_path, capsys):
    out = str(tmp_path / "o")
    assert _run(TINY + ["--out", out], capsys)[0] == 0
    before = (tmp_path / "o" / "metrics.json").read_bytes()
    status, _, err = _run(TINY + ["--out", out, "--seed", "3"], capsys)
    assert status == 2 and "--overwrite" in _one_line(err)
    assert (tmp_path / "o" / "metrics.json").read_bytes() == before
    assert _run(TINY + ["--out", out, "--seed", "3", "--overwrite"], capsys)[0] == 0
    assert (tmp_path / "o" / "metrics.json").read_bytes() != before


def test_a_sweep_does_not_write_beside_a_plain_run(tmp_path, capsys):
    out = str(tmp_path / "o")
    assert _run(TINY + ["--out", out], capsys)[0] == 0
    status, _, err = _run(TINY + ["--out", out, "--replicates", "2"], capsys)
    assert status == 2 and "earlier run" in _one_line(err)
    assert not (tmp_path / "o" / "sweep.jsonl").exists()
    # with --overwrite the sweep replaces the plain run: no stale file is left beside it
    assert _run(TINY + ["--out", out, "--replicates", "2", "--overwrite"], capsys)[0] == 0
    assert not (tmp_path / "o" / "metrics.json").exists() and (tmp_path / "o" / "sweep.jsonl").exists()
    status, _, err = _run(TINY + ["--out", out], capsys)  # and a plain run does not write beside a sweep
    assert status == 2 and "a sweep" in _one_line(err)


def test_overwrite_and_resume_contradict(tmp_path, capsys):
    status, _, err = _run(TINY + ["--out", str(tmp_path), "--replicates", "2", "--resume", "--overwrite"],
                          capsys)
    assert status == 2 and "--overwrite" in _one_line(err)


# ---------------------------------------------------------------- options before the system name


def test_options_before_the_system_name_are_honoured(tmp_path):
    """``simcore run --seed 5 --out X mind`` (a real process): the seed is used and the
    results go to X/mind, as the group's --out help says."""
    proc = subprocess.run([sys.executable, "-m", "simcore.cli", "run", "--seed", "5", "--out",
                           str(tmp_path / "X"), "mind", "--groups", "2", "--variants", "mind"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "PYTHONPATH": ROOT})
    assert proc.returncode == 0, proc.stderr
    metrics = json.loads((tmp_path / "X" / "mind" / "metrics.json").read_text())
    assert metrics["seed"] == 5


def test_an_option_after_the_system_name_wins(tmp_path, capsys):
    out = str(tmp_path / "o")
    assert _run(["run", "--seed", "5", *TINY[1:], "--seed", "7", "--out", out], capsys)[0] == 0
    assert json.loads((tmp_path / "o" / "metrics.json").read_text())["seed"] == 7


# ---------------------------------------------------------------- option values


@pytest.mark.parametrize("argv, needle", [
    (TINY + ["--tone-noise", "nan"], "--tone-noise"),
    (["run", "astra", "--episodes", "1", "--alpha", "nan"], "--alpha"),
    (["run", "astra", "--episodes", "1", "--beta", "NaN"], "--beta"),
    (["run", "scorable", "--trials", "1", "--sigma", "inf"], "--sigma"),
    (["run", "scorable", "--trials", "1", "--omit", "nan"], "--omit"),
    (["run", "dominance", "--dialogues", "1", "--garble", "nan"], "--garble"),
    (["run", "astra", "--episodes", "1", "--setups", ","], "--setups"),
    (TINY + ["--backend", "openai-compat-v1"], "base_url"),
    (TINY + ["--grid", "backend=nosuch", "--replicates", "1"], "nosuch"),
    (TINY + ["--grid", "backend=mock-v1,openai-compat-v1", "--replicates", "1"], "base_url"),
])
def test_bad_option_values_are_one_line(argv, needle, tmp_path, capsys):
    status, stdout, err = _run(argv + ["--out", str(tmp_path / "o")], capsys)
    assert status == 2 and needle in _one_line(err)
    assert not (tmp_path / "o" / "sweep.jsonl").exists() and not (tmp_path / "o" / "metrics.json").exists()


# ---------------------------------------------------------------- data files


def test_duplicate_key_is_named(tmp_path, capsys):
    path = os.path.join(HERE, "malformed", "bilateral", "duplicate-key-batna.json")
    status, _, err = _run(["run", "astra", "--episodes", "1", "--domain", path, "--out", str(tmp_path)], capsys)
    assert status == 2 and f"{path}: batna: key given twice" in _one_line(err)


def test_names_in_any_script_are_accepted(tmp_path, capsys):
    with open(os.path.join(ROOT, "scenarios", "data", "restaurants-small.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    data["id"] = "restaurants-unicode-v1"
    data["options"][0]["name"] = "Café Zürich"
    data["options"][1]["name"] = "Sushi 寿司"
    path = tmp_path / "unicode.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    status, _, err = _run(["run", "dominance", "--dialogues", "4", "--domain", str(path),
                           "--out", str(tmp_path / "o")], capsys)
    assert status == 0, err
    metrics = json.loads((tmp_path / "o" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["fallbacks"] == 0


def test_a_scorable_issue_named_in_another_script_is_read_back():
    from mockllm.scorable import _CODE
    import re

    from scenarios.scorable import _ISSUE_NAME

    assert _ISSUE_NAME.match("Ä") and _ISSUE_NAME.match("Б")
    assert re.search(_CODE, "(Б2)").group(1) == "Б2"


# ---------------------------------------------------------------- simcore show


@pytest.fixture(scope="module")
def two_seed_transcript(tmp_path_factory):
    out = tmp_path_factory.mktemp("show") / "o"
    proc = subprocess.run([sys.executable, "-m", "simcore.cli", "run", "mind", "--groups", "8", "--seeds", "2",
                           "--variants", "mind,base", "--out", str(out)],
                          capture_output=True, text=True, cwd=out.parent, timeout=300,
                          env={**os.environ, "PYTHONPATH": ROOT})
    assert proc.returncode == 0, proc.stderr
    return out / "transcripts.jsonl"


def test_show_group_prints_one_negotiation(two_seed_transcript, capsys):
    status, out, _ = _run(["show", str(two_seed_transcript), "--group", "g7/mind"], capsys)
    assert status == 0
    headers = [ln for ln in out.splitlines() if ln.startswith("=== ")]
    assert headers == ["=== mind/s0/g7/mind ==="]
    assert "mind/s1/g7/mind" in out.splitlines()[-1]  # the other seed's run is named, not printed
    status, out, _ = _run(["show", str(two_seed_transcript), "--group", "mind/s1/g7/mind"], capsys)
    assert [ln for ln in out.splitlines() if ln.startswith("=== ")] == ["=== mind/s1/g7/mind ==="]


@pytest.mark.parametrize("name", ["metrics.json", "table1_performance.csv"])
def test_show_on_a_file_that_is_not_a_transcript(two_seed_transcript, name, capsys):
    status, _, err = _run(["show", str(two_seed_transcript.parent / name)], capsys)
    assert status == 2 and name in _one_line(err)


def test_show_survives_mutated_transcripts(two_seed_transcript, tmp_path, capsys):
    """Seeded mutations of a real transcript: each one is shown or refused in one line."""
    import random

    from simcore.errors import InputError
    from simcore.show import show_file

    rng = random.Random(11)
    values = [None, 0, -1, 10**30, 1.5, "", "x", [], [1, 2], {}, {"a": 1}, True]
    events = [json.loads(ln) for ln in two_seed_transcript.read_text(encoding="utf-8").splitlines()[:80]]
    path = tmp_path / "m.jsonl"
    refused = 0
    for _ in range(300):
        mutated = json.loads(json.dumps(events))
        for _ in range(rng.randint(1, 3)):
            ev = rng.choice(mutated)
            target = ev
            key = rng.choice(list(target))
            while isinstance(target[key], dict) and target[key] and rng.random() < 0.6:
                target = target[key]
                key = rng.choice(list(target))
            if rng.random() < 0.2:
                del target[key]
            else:
                target[key] = rng.choice(values)
        path.write_text("\n".join(json.dumps(e) for e in mutated) + "\n", encoding="utf-8")
        try:
            show_file(str(path), limit=3)
        except InputError:
            refused += 1
    assert refused > 0


def test_run_every_system_checks_every_output_directory_first(tmp_path, capsys):
    """``simcore run`` (every default study) refuses before the first study starts when
    any system's directory -- here the third one's -- already holds results."""
    (tmp_path / "X" / "astra").mkdir(parents=True)
    (tmp_path / "X" / "astra" / "metrics.json").write_text("{}")
    status, stdout, err = _run(["run", "--out", str(tmp_path / "X")], capsys)
    assert status == 2 and "astra" in _one_line(err) and "--overwrite" in err
    assert stdout == "" and not (tmp_path / "X" / "mind" / "metrics.json").exists()
