"""Every reader of JSON from outside (result files, logs, cassettes, data files, a
server's answers) goes through :mod:`simcore.jsonread`: deep nesting, an integer of
more digits than Python converts and broken JSON are each one line naming the file,
exit status 2 -- never a RecursionError or ValueError traceback."""

import os
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO

import pytest

from mockllm.openai_compat import OpenAICompatBackend
from simcore.cli import main
from simcore.default_study import MARK, finished_seed
from simcore.errors import BackendError
from tests.clirun import one_line, simcore
from checkout import CHECKOUT  # noqa: E402

TINY = ["run", "mind", "--groups", "2", "--variants", "mind"]
PAYLOADS = {
    "deep": ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    "deep-parsable": ('{"a": ' + "[" * 300 + "]" * 300 + "}", "nested too deeply"),  # parses; a walk may not
    "huge-int": ('{"a": ' + "9" * 5000 + "}", "a number has too many digits"),
    "broken": ('{"a": ', "not valid JSON"),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A plain run, a sweep and a recorded cassette to damage."""
    root = tmp_path_factory.mktemp("made")
    for argv in ([*TINY, "--out", str(root / "run")],
                 [*TINY, "--replicates", "1", "--out", str(root / "sweep")],
                 [*TINY, "--record", str(root / "cas.jsonl"), "--out", str(root / "rec")]):
        with redirect_stdout(StringIO()), redirect_stderr(StringIO()):
            main(argv)  # (a failure exits: SystemExit fails the fixture)
    return root


def _damage(made, tmp_path, where, payload):
    """The argv that reads the damaged file, and the file's path."""
    if where in ("metrics.json", "sweep.json", "robustness.json"):
        d = tmp_path / "r"
        if where == "sweep.json":
            shutil.copytree(made / "sweep", d)
        else:
            d.mkdir()
        (d / where).write_text(payload + "\n", encoding="utf-8")
        return ["report", str(d)], d / where
    if where == "transcript":
        d = tmp_path / "r"
        shutil.copytree(made / "run", d)
        lines = (made / "run" / "transcripts.jsonl").read_text(encoding="utf-8")
        (d / "transcripts.jsonl").write_text(payload + "\n" + lines, encoding="utf-8")
        return ["show", str(d / "transcripts.jsonl")], d / "transcripts.jsonl"
    if where == "sweep.jsonl":
        d = tmp_path / "r"
        shutil.copytree(made / "sweep", d)
        head, *rest = (made / "sweep" / "sweep.jsonl").read_text(encoding="utf-8").splitlines(True)
        (d / "sweep.jsonl").write_text(head + payload + "\n" + "".join(rest), encoding="utf-8")
        return [*TINY, "--replicates", "1", "--resume", "--out", str(d)], d / "sweep.jsonl"
    if where == "cassette":
        path = tmp_path / "c.jsonl"
        head = (made / "cas.jsonl").read_text(encoding="utf-8").splitlines(True)[0]
        path.write_text(head + payload + "\n", encoding="utf-8")
        return [*TINY, "--replay", str(path), "--out", str(tmp_path / "o")], path
    if where == "game":
        path = tmp_path / "g.json"
        path.write_text(payload, encoding="utf-8")
        return ["run", "scorable", "--trials", "1", "--game", str(path), "--out", str(tmp_path / "o")], path
    raise AssertionError(where)


@pytest.mark.parametrize("payload", sorted(PAYLOADS))
@pytest.mark.parametrize("where", ["metrics.json", "sweep.json", "robustness.json", "transcript", "sweep.jsonl",
                                   "cassette", "game"])
def test_outside_json_is_one_line(made, tmp_path, capsys, where, payload):
    text, problem = PAYLOADS[payload]
    argv, path = _damage(made, tmp_path, where, text)
    status, _, err = simcore(capsys, *argv)
    line = one_line(err)
    assert status == 2 and line.startswith(f"simcore: error: {path}") and "Traceback" not in err, line
    if where != "cassette":  # (a cassette line says what an entry needs)
        assert problem in line, line


def test_a_damaged_default_study_mark_is_not_a_finished_system(tmp_path):
    (tmp_path / "metrics.json").write_text("{}")
    for text in (PAYLOADS["deep"][0], PAYLOADS["huge-int"][0], '{"seed": 0'):
        (tmp_path / MARK).write_text(text)
        assert finished_seed(str(tmp_path)) is None
    (tmp_path / MARK).write_text('{"seed": 4}\n')
    assert finished_seed(str(tmp_path)) == 4


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"choices": ' + b"9" * 5000 + b"}",
                                  b'{"choices": [{"message": {"content": "x", "z": ' + b"[" * 300 + b"]" * 300
                                  + b"}}]}"])
def test_a_server_answer_too_deep_or_too_long_is_a_backend_error(body):
    backend = OpenAICompatBackend(base_url="http://127.0.0.1:9/v1", model="m")
    with pytest.raises(BackendError, match="response is not JSON"):
        backend._content(body, "http://127.0.0.1:9/v1/chat/completions")


def test_every_module_reads_outside_json_through_jsonread():
    """No other module calls json.load/json.loads on text from outside: those that do hold
    only their own values (listed here with the reason)."""
    root = CHECKOUT
    own = {"simcore/jsonread.py": "the safe path itself",
           "simcore/resultlog.py": "re-reads a record it has just encoded",
           "simcore/sweep.py": "re-reads the base config it has just encoded",
           "simcore/testing.py": "test helper on its own events",
           "simcore/strategies.py": "test strategy on the mock's own answers",
           "simcore/systems/mind/study.py": "its own compressed cache",
           "simcore/transcript.py": "only asks whether a last line is complete",
           "simcore/jsontext.py": "the mock's fast path for its own texts",
           "mockllm/dominance.py": "re-reads a vocabulary it has just encoded",
           "simcore/systems/astra/model_roles.py": "reads the mock's own answer",
           "simcore/systems/mind/model_roles.py": "reads the mock's own answer",
           "mockllm/travel.py": "a model answer: catches every JSON error as a ParseError",
           "mockllm/tasks.py": "model answers: catches every JSON error as a ParseError"}
    found = set()
    for folder in ("simcore", "mockllm", "scenarios", "policies"):
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        text = fh.read()
                    if re.search(r"\bjson\.loads?\(", text):
                        found.add(rel)
    assert found <= set(own), sorted(found - set(own))
