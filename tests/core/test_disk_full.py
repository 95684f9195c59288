"""A full disk loses nothing and names the file that failed: one line, exit status 2,
the previous file (or none) left in place -- never a torn one -- and no temporary file
left behind: the ``--log-calls`` log, the ``--record`` cassette (new or ``--append``-ed),
a sweep's cassette appended in place, and the ``--out`` check's probe file.

The full disk is simulated: ``open`` returns, for the files under test, a file that
takes ``room`` more characters and then writes what fits and fails with ENOSPC, as a
real full disk does.  (By hand, as root: ``mount -t tmpfs -o size=64k tmpfs DIR`` and
point ``--log-calls`` / ``--record`` / ``--out`` into DIR.)"""

import builtins
import errno
import os

import pytest

from mockllm.cassette import write_lines
from simcore.errors import InputError
from simcore.files import AtomicFile
from tests.clirun import one_line, simcore

TINY = ["run", "mind", "--groups", "20", "--variants", "mind"]


class _Filling:
    """A file on a disk with ``room`` characters (or bytes) left."""

    def __init__(self, fh, room: int):
        self._fh, self.room = fh, room

    def write(self, data):
        if len(data) <= self.room:
            self.room -= len(data)
            return self._fh.write(data)
        self._fh.write(data[:self.room])
        self._fh.flush()
        self.room = 0
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()

    def __getattr__(self, name):
        return getattr(self._fh, name)


@pytest.fixture
def full_disk(monkeypatch):
    """``full_disk(word, room)``: files whose name holds ``word`` (the target's temporary
    file too) have ``room`` characters left."""
    real_open = builtins.open

    def install(word: str, room: int) -> None:
        def filling_open(path, mode="r", *args, **kwargs):
            fh = real_open(path, mode, *args, **kwargs)
            if word in os.path.basename(str(path)) and any(m in mode for m in "wax"):
                return _Filling(fh, room)
            return fh

        monkeypatch.setattr(builtins, "open", filling_open)

    return install


def _leftovers(directory) -> list[str]:
    return sorted(n for n in os.listdir(directory) if ".tmp-" in n or "write-test" in n)


def test_log_calls_on_a_full_disk(tmp_path, full_disk, capsys):
    log = tmp_path / "logs" / "calls.jsonl"
    log.parent.mkdir()
    full_disk("calls.jsonl", 3000)
    status, _, err = simcore(capsys, *TINY, "--out", str(tmp_path / "o"), "--log-calls", str(log))
    line = one_line(err)
    assert status == 2 and line.startswith(f"simcore: error: {log}: cannot write (No space left on device)"), line
    assert not log.exists() and _leftovers(log.parent) == []


def test_log_calls_on_a_full_disk_keeps_the_previous_log(tmp_path, full_disk, capsys):
    log = tmp_path / "calls.jsonl"
    log.write_text('{"an": "earlier log"}\n')
    full_disk("calls.jsonl", 3000)
    status, _, err = simcore(capsys, *TINY, "--out", str(tmp_path / "o"), "--log-calls", str(log), "--overwrite")
    assert status == 2 and str(log) in one_line(err)
    assert log.read_text() == '{"an": "earlier log"}\n' and _leftovers(tmp_path) == []


def test_the_call_log_is_kept_when_the_run_stops(tmp_path, capsys):
    """A run stopped by its backend keeps the calls it made (a log says why it stopped)."""
    log = tmp_path / "calls.jsonl"
    cassette = tmp_path / "small.jsonl"  # the first groups' exchanges only: the replay stops at a miss
    assert simcore(capsys, "run", "mind", "--groups", "2", "--variants", "mind", "--out", str(tmp_path / "a"),
                   "--record", str(cassette))[0] == 0
    status, _, err = simcore(capsys, *TINY, "--out", str(tmp_path / "o"), "--log-calls", str(log),
                             "--replay", str(cassette))
    assert status == 3 and "no recorded response" in err, err
    assert log.read_text().count("\n") >= 1 and _leftovers(tmp_path) == []


def test_record_on_a_full_disk_names_the_cassette(tmp_path, full_disk, capsys):
    cassette = tmp_path / "c" / "new.jsonl"
    cassette.parent.mkdir()
    out = tmp_path / "o"
    full_disk("new.jsonl", 20_000)
    status, _, err = simcore(capsys, *TINY, "--out", str(out), "--record", str(cassette))
    line = one_line(err)
    assert status == 2 and line.startswith(f"simcore: error: {cassette}: cannot write"), line
    assert "transcripts.jsonl" not in line
    assert not cassette.exists() and _leftovers(cassette.parent) == []
    assert not out.exists() or os.listdir(out) == []


def test_record_append_on_a_full_disk_keeps_the_old_cassette(tmp_path, full_disk, capsys):
    cassette = tmp_path / "c.jsonl"
    assert simcore(capsys, "run", "mind", "--groups", "2", "--variants", "mind", "--out", str(tmp_path / "a"),
                   "--record", str(cassette))[0] == 0
    before = cassette.read_bytes()
    full_disk("c.jsonl", 20_000)
    status, _, err = simcore(capsys, *TINY, "--out", str(tmp_path / "b"), "--record", str(cassette), "--append")
    assert status == 2 and str(cassette) in one_line(err)
    assert cassette.read_bytes() == before and _leftovers(tmp_path) == []


def test_a_recorded_cassette_is_complete_and_unchanged(tmp_path, capsys):
    """The cassette written through its temporary file: every exchange, replayable; --append
    adds the second run's exchanges after the first's bytes."""
    cassette = tmp_path / "c.jsonl"
    assert simcore(capsys, "run", "mind", "--groups", "2", "--variants", "mind", "--out", str(tmp_path / "a"),
                   "--record", str(cassette))[0] == 0
    first = cassette.read_bytes()
    assert first.startswith(b'{"cassette": ') and first.endswith(b"\n")
    assert simcore(capsys, "run", "mind", "--groups", "2", "--variants", "mind", "--out", str(tmp_path / "r"),
                   "--replay", str(cassette))[0] == 0
    assert (tmp_path / "r" / "metrics.json").read_bytes() == (tmp_path / "a" / "metrics.json").read_bytes()
    assert simcore(capsys, "run", "mind", "--groups", "3", "--variants", "mind", "--out", str(tmp_path / "b"),
                   "--record", str(cassette), "--append")[0] == 0
    both = cassette.read_bytes()
    assert both.startswith(first) and both.count(b'{"cassette": ') == 1 and len(both) > len(first)
    assert _leftovers(tmp_path) == []


def test_a_cassette_appended_in_place_is_cut_back_on_a_full_disk(tmp_path, full_disk):
    """A sweep's runs append to their cassette as they go: a failed append is cut off."""
    path = tmp_path / "sweep.cassette.jsonl"
    write_lines([(str(path), {"backend": "mock-v1"}, {"key": "a", "response": "x"})])
    before = path.read_bytes()
    full_disk("sweep.cassette", 10)
    with pytest.raises(InputError, match=f"{path}: cannot write .No space left on device.; the exchanges"):
        write_lines([(str(path), {"backend": "mock-v1"}, {"key": "b", "response": "y" * 100})])
    assert path.read_bytes() == before


def test_a_full_disk_at_the_out_check_leaves_no_probe_and_no_directory(tmp_path, full_disk, capsys):
    out = tmp_path / "new" / "o"
    full_disk("simcore-write-test", 0)
    status, stdout, err = simcore(capsys, *TINY, "--out", str(out))
    assert status == 2 and "cannot write in this directory (No space left on device)" in one_line(err)
    assert stdout == "" and os.listdir(tmp_path) == []  # neither the probe nor the directories it made


def test_another_files_error_is_not_blamed_on_an_atomic_file(tmp_path):
    path = tmp_path / "transcripts.jsonl"
    with pytest.raises(OSError) as exc:
        with AtomicFile(str(path)) as fh:
            fh.write("x\n")
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "other"))
    assert not isinstance(exc.value, InputError) and os.listdir(tmp_path) == []


def test_a_kept_log_survives_an_error_but_not_its_own(tmp_path, full_disk):
    path = tmp_path / "calls.jsonl"
    with pytest.raises(RuntimeError):
        with AtomicFile(str(path), keep_on_error=True) as fh:
            fh.write("one\n")
            raise RuntimeError("the backend stopped")
    assert path.read_text() == "one\n"
    full_disk("calls.jsonl", 5)
    with pytest.raises(InputError, match="calls.jsonl: cannot write"):
        with AtomicFile(str(path), keep_on_error=True) as fh:
            fh.write("two\n")
            fh.write("three\n")
    assert path.read_text() == "one\n" and os.listdir(tmp_path) == ["calls.jsonl"]
