"""simcore.once.Once: the loader behind the task table and the registry."""

import threading
import time

from simcore.once import Once


def test_runs_once_and_a_call_from_inside_returns_at_once():
    calls = []

    def load():
        calls.append(1)
        once()  # a module being imported looks an id up: must not recurse or deadlock

    once = Once(load)
    once()
    once()
    assert calls == [1]


def test_other_threads_wait_for_the_first_call_to_finish():
    finished = []

    def load():
        time.sleep(0.05)  # long enough for the other threads to arrive while it runs
        finished.append(True)

    once = Once(load)
    seen = []

    def ask():
        once()
        seen.append(bool(finished))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == [True] * 4 and finished == [True]
