"""The files the backend options name are checked before any work --
a malformed cassette header, --record and --log-calls on the same file, a call log that
would overwrite a file (a cassette above all), a directory that does not exist or is a
file -- each one line naming what is wrong, exit 2, nothing written or created."""

from __future__ import annotations

import json
import os

import pytest

from clirun import one_line, simcore
from mockllm.cassette import ReplayBackend
from simcore.errors import InputError

RUN = ["run", "astra", "--episodes", "1", "--partners", "base", "--setups", "integrative", "--no-progress"]


@pytest.fixture(scope="module")
def cassette(tmp_path_factory):
    """A cassette recorded by a small mock run (its header and exchanges)."""
    from simcore.cli import main

    d = tmp_path_factory.mktemp("rec")
    path = d / "c.jsonl"
    try:
        main([*RUN, "--out", str(d / "o"), "--record", str(path)])
    except SystemExit as exc:
        assert exc.code == 0
    return path


def _with_header(src, tmp_path, **fields):
    lines = src.read_text().splitlines()
    header = json.loads(lines[0])
    header["cassette"].update(fields)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return path


@pytest.mark.parametrize("field, value, needle", [
    ("backend_args", 1, "list of [KEY, VALUE] pairs"),
    ("backend_args", [["model"]], "list of [KEY, VALUE] pairs"),
    ("backend_args", [["tries", 3]], "list of [KEY, VALUE] pairs"),
    ("temperature", "x", "number from 0 to 2"),
    ("temperature", -1, "number from 0 to 2"),
    ("temperature", True, "number from 0 to 2"),
    ("tries", 0, "integer from 1 to"),
    ("tries", 1.5, "integer from 1 to"),
    ("tries", 99, "integer from 1 to"),
    ("tries", "2", "integer from 1 to"),
    ("backend", 5, "string or null"),
    ("model", [], "string or null"),
    ("colour", "blue", "unknown field"),
])
def test_a_bad_cassette_header_is_one_line_naming_file_and_field(cassette, field, value, needle, tmp_path, capsys):
    bad = _with_header(cassette, tmp_path, **{field: value})
    code, out, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--replay", str(bad))
    line = one_line(err)
    assert code == 2 and out == "" and not (tmp_path / "o").exists()
    assert line.startswith(f"simcore: error: {bad}: cassette header: {field}: ") and needle in line, line
    with pytest.raises(InputError):  # from Python too
        ReplayBackend(str(bad))


def test_a_header_that_is_not_an_object_and_an_empty_header(cassette, tmp_path, capsys):
    lines = cassette.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(['{"cassette": 1}', *lines[1:]]) + "\n")
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--replay", str(bad))
    assert code == 2 and f"{bad}: cassette header: must be a JSON object" in one_line(err)
    empty = tmp_path / "empty-header.jsonl"  # a header with no field is a header, not an exchange
    empty.write_text("\n".join(['{"cassette": {}}', *lines[1:]]) + "\n")
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "p"), "--replay", str(empty))
    assert code == 0, err


@pytest.mark.parametrize("system, args", [("astra", RUN[2:]), ("mind", ["--groups", "2"]),
                                          ("scorable", ["--trials", "1"]), ("dominance", ["--dialogues", "1"])])
@pytest.mark.parametrize("kind", ["empty", "headerless", "header-only"])
def test_an_empty_or_headerless_cassette_is_refused_before_any_work(cassette, system, args, kind, tmp_path, capsys):
    """Not at the first request (a BackendFatal, exit 3) but up front: one line, exit 2."""
    lines = cassette.read_text().splitlines(True)
    text = {"empty": "", "headerless": "".join(lines[1:]), "header-only": lines[0]}[kind]
    bad = tmp_path / f"{kind}.jsonl"
    bad.write_text(text)
    out = tmp_path / "o"
    for extra in ([], ["--replay-misses", "fallback"]):
        code, stdout, err = simcore(capsys, "run", system, *args, "--out", str(out), "--replay", str(bad), *extra)
        line = one_line(err)
        assert code == 2 and stdout == "" and line.startswith(f"simcore: error: {bad}: "), line
        assert not out.exists()


def test_a_good_header_still_replays(cassette, tmp_path, capsys):
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--replay", str(cassette))
    assert code == 0, err


def test_record_and_log_calls_on_the_same_file_are_refused(tmp_path, capsys):
    path = tmp_path / "both.jsonl"
    code, out, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--record", str(path),
                             "--log-calls", str(tmp_path / "." / "both.jsonl"))
    assert code == 2 and out == "" and "--log-calls" in one_line(err) and "--record" in err
    assert not path.exists() and not (tmp_path / "o").exists()


def test_log_calls_is_never_the_replayed_cassette(cassette, tmp_path, capsys):
    before = cassette.read_bytes()
    for extra in ([], ["--overwrite"]):
        code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--replay", str(cassette),
                               "--log-calls", str(cassette), *extra)
        assert code == 2 and "--log-calls" in one_line(err)
    assert cassette.read_bytes() == before


def test_log_calls_refuses_an_existing_file_unless_overwrite_and_never_a_cassette(cassette, tmp_path, capsys):
    log = tmp_path / "calls.jsonl"
    log.write_text("keep me\n")
    code, out, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--log-calls", str(log))
    assert code == 2 and out == "" and f"--log-calls: {log}: exists" in one_line(err) and "--overwrite" in err
    assert log.read_text() == "keep me\n" and not (tmp_path / "o").exists()
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--log-calls", str(log), "--overwrite")
    assert code == 0, err
    assert all(json.loads(line)["task"] for line in log.read_text().splitlines())
    before = cassette.read_bytes()
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "p"), "--log-calls", str(cassette), "--overwrite")
    assert code == 2 and "is a cassette" in one_line(err)
    assert cassette.read_bytes() == before and not (tmp_path / "p").exists()


@pytest.mark.parametrize("option", ["--record", "--log-calls"])
def test_a_missing_directory_is_refused_before_any_work_and_not_created(option, tmp_path, capsys):
    path = tmp_path / "nonexist" / "x.jsonl"
    code, out, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), option, str(path))
    line = one_line(err)
    assert code == 2 and out == "" and line.startswith(f"simcore: error: {option}: {path}: ")
    assert "does not exist" in line
    assert not (tmp_path / "nonexist").exists() and not (tmp_path / "o").exists()


@pytest.mark.parametrize("option", ["--record", "--log-calls"])
def test_a_file_as_the_directory_is_refused_naming_it(option, tmp_path, capsys):
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0\n")
    path = a_file / "c.jsonl"
    code, out, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), option, str(path))
    line = one_line(err)
    assert code == 2 and out == "" and line == f"simcore: error: {option}: {path}: {a_file} is not a directory"
    assert a_file.read_text() == "root:x:0:0\n" and not (tmp_path / "o").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_directory_is_refused(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--log-calls", str(locked / "l.jsonl"))
        assert code == 2 and "cannot write in the directory" in one_line(err)
    finally:
        locked.chmod(0o700)


def test_append_adds_only_to_a_cassette(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "o"), "--record", str(notes), "--append")
    assert code == 2 and "is not a cassette" in one_line(err) and notes.read_text() == "my notes\n"


@pytest.mark.parametrize("option, name", [("--log-calls", "metrics.json"), ("--record", "transcripts.jsonl"),
                                          ("--log-calls", "astra_results.csv")])
def test_a_backend_file_is_never_a_result_file_of_out(option, name, tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    code, _, err = simcore(capsys, *RUN, "--out", str(out), option, str(out / name))
    assert code == 2 and "is a result file the run writes in --out" in one_line(err)
    assert list(out.iterdir()) == []
    code, _, err = simcore(capsys, *RUN, "--out", str(out), option, str(out / "calls.jsonl"))
    assert code == 0, err


def test_append_refuses_a_cassette_recorded_with_other_settings(tmp_path, capsys):
    """A replay asks with the header's tries and temperature and reports its backend and
    model: exchanges recorded with others would replay wrongly."""
    from fakeopenai import FakeOpenAI

    path = tmp_path / "c.jsonl"
    assert simcore(capsys, *RUN, "--out", str(tmp_path / "a"), "--record", str(path))[0] == 0
    size = path.stat().st_size
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "c"), "--record", str(path), "--append",
                           "--backend", "mock-exact-v1")
    assert code == 2 and "the cassette was recorded with backend 'mock-v1'" in one_line(err)
    assert path.stat().st_size == size
    server = FakeOpenAI(("m",))
    try:
        code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "b"), "--record", str(path), "--append",
                               "--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}",
                               "--backend-arg", "model=m")
    finally:
        server.close()
    assert code == 2 and "backend 'mock-v1'" in one_line(err)
    assert path.stat().st_size == size and server.posts == []
    code, _, err = simcore(capsys, *RUN, "--out", str(tmp_path / "d"), "--record", str(path), "--append")
    assert code == 0, err
