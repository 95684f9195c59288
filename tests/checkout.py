"""A listing of the checkout's files, for the session's check that no test writes into it
(conftest.py)."""

from __future__ import annotations

import os

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the tests folder (its data: playthroughs, cassettes, malformed files; the helper modules)
TESTS = os.path.join(CHECKOUT, "tests")
#: directories of tools, not of the project, that a test session may write in
NOT_LOOKED_AT = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".ci-venvs", ".ci-venv", ".ci-browser"}


def checkout_files(root: str = CHECKOUT) -> dict[str, tuple[int, int]]:
    """{relative path: (size, mtime in ns)} of every file and directory under ``root``
    but the tool caches and virtualenvs (:data:`NOT_LOOKED_AT`)."""
    found: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in NOT_LOOKED_AT
                       and not os.path.exists(os.path.join(dirpath, d, "pyvenv.cfg"))]
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            is_dir = name in dirnames
            found[os.path.relpath(path, root) + ("/" if is_dir else "")] = (0 if is_dir else st.st_size,
                                                                             0 if is_dir else st.st_mtime_ns)
    return found


def changed_files(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """``+ path`` (added), ``- path`` (removed) and ``~ path`` (size or time changed), sorted by path."""
    lines = [f"+ {p}" for p in after.keys() - before.keys()]
    lines += [f"- {p}" for p in before.keys() - after.keys()]
    lines += [f"~ {p}" for p in before.keys() & after.keys() if before[p] != after[p]]
    return sorted(lines, key=lambda ln: ln[2:])
