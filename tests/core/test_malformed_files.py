"""A corpus of malformed data files: each gives one clear error line and exit status 2.

Files live in tests/malformed/<kind>/; each kind is read by one CLI entry point.  The
message must name the file, and every file that is syntactically a data file must also
have its offending field named.
"""

import os
import re
import subprocess
import sys

import pytest
from checkout import TESTS  # noqa: E402

HERE = TESTS
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "malformed")
COMMANDS = {
    "game": ["run", "scorable", "--trials", "1", "--game"],
    "bilateral": ["run", "astra", "--episodes", "1", "--domain"],
    "restaurants": ["run", "dominance", "--dialogues", "1", "--domain"],
    "transcript": ["show"],
}
# files whose problem is the whole file (syntax, encoding, shape), not one field
WHOLE_FILE = {"truncated.json", "empty.json", "not-an-object.json", "non-utf8.json", "deep-nesting.json",
              "not-json.jsonl", "non-utf8.jsonl", "huge-number.json"}
CASES = sorted((kind, name) for kind in COMMANDS for name in os.listdir(os.path.join(CORPUS, kind)))


def test_the_corpus_covers_every_kind_of_damage():
    names = {name for _, name in CASES}
    for needed in ("truncated.json", "non-utf8.json", "huge-number.json", "deep-nesting.json"):
        assert sum(n == needed for _, n in CASES) >= 3, needed
    assert any("wrong-type" in n for n in names) and any("unknown" in n for n in names)
    assert any("out-of-range" in n or "negative" in n for n in names)


def _run(argv, capsys):
    """``simcore ARGV`` in-process: (exit status, stderr).  An uncaught exception (a
    traceback) fails the test by propagating."""
    from simcore.cli import main

    with pytest.raises(SystemExit) as exc:
        main(argv)
    return exc.value.code, capsys.readouterr().err


@pytest.mark.parametrize("kind, name", CASES)
def test_malformed_file_gives_one_clear_line(kind, name, tmp_path, capsys):
    path = os.path.join(CORPUS, kind, name)
    argv = COMMANDS[kind] + [path]
    if kind != "transcript":
        argv += ["--out", str(tmp_path)]
    status, err = _run(argv, capsys)
    assert status == 2, err[-500:]
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err[-500:]
    assert lines[0].startswith("simcore: error: ") and path in lines[0]
    if name not in WHOLE_FILE and kind != "transcript":
        detail = lines[0].split(path, 1)[1]
        assert re.match(r": [\w\[\]. -]+: ", detail), lines[0]  # ": <field>: <problem>"


def test_the_cli_process_prints_no_traceback(tmp_path):
    """One case end to end in a real process (the in-process cases cover the rest), run as a
    user types it -- no --out, so the default runs/scorable -- in a fresh directory, never the
    checkout (which may hold the Quick start's runs/)."""
    path = os.path.join(CORPUS, "game", "deep-nesting.json")
    proc = subprocess.run([sys.executable, "-m", "simcore.cli", "run", "scorable", "--game", path],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "PYTHONPATH": ROOT})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [f"simcore: error: {path}: nested too deeply (more than 100 levels)"]


def test_loaders_use_safe_parsers_only():
    # marshal only to write (mockllm.tasks.known_key: a key of the caller's own values); never to read
    bad = re.compile(r"import (pickle|shelve)|from (pickle|shelve|marshal) import|\b(pickle|shelve)\.|\bmarshal\.(?!dumps\()"
                     r"|\beval\(|\bexec\(|yaml\.(load|unsafe)")
    for folder in ("scenarios", "simcore", "mockllm", "policies"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if f.endswith(".py"):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        text = fh.read()
                    assert not bad.search(text), f"{folder}/{f} uses an unsafe parser"
