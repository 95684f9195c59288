"""``simcore show`` streams its transcript and prints nothing raw.

It reads one line at a time and keeps only the runs it prints (a line of another run
is looked at for its run id only), stops reading once it has the ``--limit`` runs it
prints, caps a line's length (``/dev/zero`` is one line error, not a process growing
without bound), turns a read error (``/proc/self/mem``) into one line, skips a torn
last line with a warning exactly as ``simcore report`` does, and escapes every control
character of a model's words and of the error lines.
"""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from simcore import show as show_mod
from simcore import transcript
from simcore.cli import main
from tests.clirun import simcore
from simcore.textsafe import visible

ATTACK = "\x1b[2J\x1b]0;pwned\x07"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def cli(argv, capsys) -> tuple[int, str, str]:
    """``simcore ARGV`` in-process: (exit status, stdout, stderr); a traceback fails the test."""
    code, out, err = simcore(capsys, *argv)
    return code or 0, out, err


def one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("simcore: error: "), err[-800:]
    return lines[0]


def headers(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("=== ")]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("show-stream") / "mind"
    try:
        main(["run", "mind", "--groups", "3", "--variants", "base,mind", "--out", str(out), "--no-progress"])
    except SystemExit as exc:
        assert not exc.code
    return out


@pytest.fixture()
def lines(run_dir) -> list[str]:
    return (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)


def run_of(line: str) -> str:
    return json.loads(line)["run"]


def test_without_group_reading_stops_after_the_runs_shown(lines, tmp_path, monkeypatch, capsys):
    """The first run, then 200 copies of the rest and a line that is not JSON: ``--limit 1``
    reads the first run and the next run's first line, nothing more."""
    first = run_of(lines[0])
    head = [ln for ln in lines if run_of(ln) == first]
    assert lines[:len(head)] == head
    big = tmp_path / "big.jsonl"
    with open(big, "w", encoding="utf-8") as fh:
        fh.writelines(head)
        for _ in range(200):
            fh.writelines(lines[len(head):])
        fh.write("not json\n")
    read = []
    real = show_mod.jsonl_lines

    def counting(path):
        for item in real(path):
            read.append(item[0])
            yield item

    monkeypatch.setattr(show_mod, "jsonl_lines", counting)
    code, out, err = cli(["show", str(big), "--limit", "1"], capsys)
    assert code == 0, err
    assert headers(out) == [f"=== {first} ==="]
    assert len(read) == len(head) + 1


def test_with_group_only_the_shown_run_is_parsed(lines, run_dir, monkeypatch, capsys):
    """``--group mind`` matches every run of the variant mind: the first is printed, the
    others are named from their ids alone -- no other line is parsed into an event."""
    parsed = []
    real = transcript.Event.from_json.__func__

    def counting(cls, line, source="<transcript>", lineno=0):
        parsed.append(lineno)
        return real(cls, line, source, lineno)

    monkeypatch.setattr(transcript.Event, "from_json", classmethod(counting))
    matching = list(dict.fromkeys(run_of(ln) for ln in lines if run_of(ln).endswith("/mind")))
    assert len(matching) == 3
    code, out, err = cli(["show", str(run_dir / "transcripts.jsonl"), "--group", "mind"], capsys)
    assert code == 0, err
    assert headers(out) == [f"=== {matching[0]} ==="]
    assert out.rstrip().splitlines()[-1].startswith(f"(2 more run(s) match 'mind': {matching[1]}, {matching[2]};")
    assert len(parsed) == sum(run_of(ln) == matching[0] for ln in lines)


def test_a_line_longer_than_the_cap_is_one_error(lines, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(transcript, "MAX_LINE", 1 << 20, raising=False)
    path = tmp_path / "long.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(lines[:3])
        fh.write("x" * (3 << 20))
    code, _, err = cli(["show", str(path), "--limit", "99"], capsys)
    assert code == 2
    assert one_error_line(err) == (f"simcore: error: {path}: line 4: longer than 1 MiB without a line break: "
                                   "not a transcript")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_by_the_line_cap(monkeypatch, capsys):
    monkeypatch.setattr(transcript, "MAX_LINE", 1 << 20, raising=False)
    code, _, err = cli(["show", "/dev/zero"], capsys)
    assert code == 2 and "/dev/zero: line 1: longer than 1 MiB" in one_error_line(err)


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc/self/mem")
def test_a_read_error_is_one_line(capsys):
    code, _, err = cli(["show", "/proc/self/mem"], capsys)
    assert code == 2 and "/proc/self/mem: line 1: cannot read (" in one_error_line(err)


def test_show_and_report_agree_on_a_torn_last_line(run_dir, lines, tmp_path, capsys):
    """A last line cut off mid-way (no newline, not complete JSON) is skipped by both with
    the same warning line; the runs before it are shown and reported."""
    torn = tmp_path / "torn"
    shutil.copytree(run_dir, torn)
    path = torn / "transcripts.jsonl"
    text = "".join(lines)
    path.write_text(text[:-40], encoding="utf-8")
    warning = (f"simcore: warning: {path}: line {len(lines)}: cut off (no newline at the end, not complete "
               "JSON), as a write stopped mid-line leaves it; skipped")
    code, out, err = cli(["show", str(path), "--group", run_of(lines[-1])], capsys)
    assert code == 0 and err.splitlines() == [warning]
    assert headers(out) == [f"=== {run_of(lines[-1])} ==="]
    code, out, err = cli(["report", str(torn), "--out", str(tmp_path / "r.html")], capsys)
    assert code == 0 and err.splitlines() == [warning]
    code, out, err = cli(["report", str(torn), "--negotiation", run_of(lines[-1]),
                          "--out", str(tmp_path / "n.html")], capsys)
    assert code == 0 and err.splitlines() == [warning]
    # cut at a line's end without its newline: a complete event, kept without a word
    path.write_text(text[:-1], encoding="utf-8")
    code, out, err = cli(["show", str(path), "--group", run_of(lines[-1])], capsys)
    assert code == 0 and err == ""
    # the same damage on a line that is not the last is an error for both
    path.write_text(text[:-40] + "\n" + lines[-1], encoding="utf-8")
    code, _, err = cli(["show", str(path), "--group", run_of(lines[-1])], capsys)
    assert code == 2 and f"line {len(lines)}: not valid JSON" in one_error_line(err)
    code, _, err = cli(["report", str(torn), "--negotiation", run_of(lines[-1]),
                        "--out", str(tmp_path / "n.html")], capsys)
    assert code == 2 and f"line {len(lines)}: not valid JSON" in one_error_line(err)


def test_a_models_control_characters_are_printed_escaped(lines, tmp_path, capsys):
    """An answer ending in a clear-screen and a window-title sequence (and a one-byte
    CSI) shows as visible text; no control character but the line break reaches stdout."""
    first = json.loads(lines[0])
    first["text"] += ATTACK + "\x9b31m"
    path = tmp_path / "evil.jsonl"
    path.write_text(json.dumps(first, ensure_ascii=False) + "\n" + "".join(lines[1:]), encoding="utf-8")
    text = show_mod.show_file(str(path), limit=1)
    assert "\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m" in text and not RAW.search(text)
    code, out, _ = cli(["show", str(path), "--limit", "1"], capsys)
    assert code == 0 and "\\x1b[2J\\x1b]0;pwned\\x07" in out and not RAW.search(out)


def test_error_lines_escape_what_they_quote(lines, tmp_path, capsys):
    """A run id holding an escape sequence, quoted by an error line, is escaped there too."""
    ev = json.loads(lines[0])
    ev["run"] = "mind/s0/" + ATTACK + "/mind"
    path = tmp_path / "evil-id.jsonl"
    path.write_text(json.dumps(ev, ensure_ascii=False) + "\n", encoding="utf-8")
    code, _, err = cli(["show", str(path), "--group", "nothing-like-it"], capsys)
    line = one_error_line(err)
    assert code == 2 and "mind/s0/\\x1b[2J\\x1b]0;pwned\\x07/mind" in line and not RAW.search(err.rstrip("\n"))


def test_visible_escapes_c0_del_and_c1_but_keeps_line_breaks_and_tabs():
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible("\x00\x07\x1b[1m\r\x7f\x80\x9b\x9f\xa0é") == "\\x00\\x07\\x1b[1m\\x0d\\x7f\\x80\\x9b\\x9f\xa0é"
    assert visible("a\tb\nc\x1b", oneline=True) == "a\\tb\\nc\\x1b"
    assert visible("plain text") == "plain text"
