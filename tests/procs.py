"""Processes on Linux, read from /proc, for the tests that kill runs."""

from __future__ import annotations

import os


def children(pid: int) -> set[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after the last ')'
        fields = stat[stat.rfind(b")") + 2:].split()
        if int(fields[1]) == pid:
            found.add(int(name))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] != b"Z"  # a zombie has died
