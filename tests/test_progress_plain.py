"""Progress when standard error is not a terminal (issue 19 item 11): plain lines, at an
interval, so a CI log or ``| tee`` shows a long run is alive (before: nothing at all)."""

import io

from simcore.progress import Progress


def test_plain_lines_when_stderr_is_not_a_terminal():
    out = io.StringIO()
    bar = Progress(3, "mind", stream=out, interval=0)
    for _ in range(3):
        bar.advance()
    bar.close()
    lines = out.getvalue().splitlines()
    assert [ln.split("]")[1].split()[0] for ln in lines] == ["1/3", "2/3", "3/3"]
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()


def test_no_line_before_the_interval_and_none_when_switched_off():
    out = io.StringIO()
    bar = Progress(3, "mind", stream=out, interval=3600)
    bar.advance(3)
    bar.close()
    assert out.getvalue() == ""  # a quick run stays quiet
    off = io.StringIO()
    bar = Progress(3, "mind", stream=off, interval=0, enabled=False)  # --no-progress
    bar.advance(3)
    assert off.getvalue() == ""


def test_the_interval_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("SIMCORE_PROGRESS_INTERVAL", "7")
    assert Progress(1, stream=io.StringIO()).interval == 7.0
    monkeypatch.setenv("SIMCORE_PROGRESS_INTERVAL", "soon")
    assert Progress(1, stream=io.StringIO()).interval == 30.0
