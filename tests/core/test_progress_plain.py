"""Progress when standard error is not a terminal: plain lines, at an
interval, so a CI log or ``| tee`` shows a long run is alive."""

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


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_time_left_comes_from_the_measured_rate():
    """On a fake clock: 10 of 100 jobs done in 20 s is 2 s a job, so 90 jobs left take 180 s;
    when the next 40 take 20 s (0.8 s a job so far), the 50 left take 40 s."""
    clock = FakeClock()
    bar = Progress(100, "scorable", stream=io.StringIO(), interval=3600, clock=clock)
    assert bar.eta() is None  # nothing measured yet
    clock.now += 20
    bar.advance(10)
    assert bar.eta() == 180.0
    assert bar.line(clock.now) == f"scorable [{'###':<30}] 10/100 20s ETA 3m00s"
    clock.now += 20
    bar.advance(40)
    assert bar.eta() == 40.0
    assert bar.line(clock.now).endswith("50/100 40s ETA 40s")


def test_a_bar_names_what_follows_it_without_estimating_it():
    """A system of the default study: its ETA is its own; the systems after it are named as
    not started and not estimated."""
    from simcore.progress import AFTER

    clock = FakeClock()
    token = AFTER.set("then astra, dominance (not started: no estimate)")
    try:
        bar = Progress(4, "scorable", stream=io.StringIO(), interval=3600, clock=clock)
    finally:
        AFTER.reset(token)
    clock.now += 3
    bar.advance()
    assert bar.line(clock.now).endswith("1/4 3s ETA 9s; then astra, dominance (not started: no estimate)")
    bar.advance(3)
    assert "then" not in bar.line(clock.now)  # done: nothing is said about the rest
    assert "then" not in Progress(4, "mind", stream=io.StringIO()).line(0.0)  # outside the default study
