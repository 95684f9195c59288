"""The session's check that no test writes into the checkout (conftest.py, checkout.py)
sees a file added, removed or rewritten, and not the tool caches or virtualenvs."""

from __future__ import annotations

import os

from checkout import changed_files, checkout_files


def _tree(root):
    (root / "runs").mkdir()
    (root / "README.md").write_text("a")
    (root / "tests").mkdir()
    (root / "tests" / "a.py").write_text("x = 1")
    for cache in (".hypothesis", "__pycache__", ".pytest_cache", ".git", ".ci-venvs"):
        (root / cache).mkdir()
    (root / "venv").mkdir()
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin")


def test_an_added_a_removed_and_a_rewritten_file_are_named(tmp_path):
    _tree(tmp_path)
    before = checkout_files(str(tmp_path))
    (tmp_path / "runs" / "scorable").mkdir()
    (tmp_path / "runs" / "scorable" / "metrics.json").write_text("{}")
    (tmp_path / "tests" / "a.py").unlink()
    (tmp_path / "README.md").write_text("ab")
    assert changed_files(before, checkout_files(str(tmp_path))) == [
        "~ README.md", "+ runs/scorable/", "+ runs/scorable/metrics.json", "- tests/a.py"]


def test_a_file_rewritten_with_the_same_size_is_named(tmp_path):
    _tree(tmp_path)
    before = checkout_files(str(tmp_path))
    st = os.stat(tmp_path / "README.md")
    (tmp_path / "README.md").write_text("b")
    os.utime(tmp_path / "README.md", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert changed_files(before, checkout_files(str(tmp_path))) == ["~ README.md"]


def test_tool_caches_and_virtualenvs_are_not_looked_at(tmp_path):
    _tree(tmp_path)
    before = checkout_files(str(tmp_path))
    for d in (".hypothesis", "__pycache__", ".pytest_cache", ".git", ".ci-venvs", "venv"):
        (tmp_path / d / "new").write_text("x")
    (tmp_path / "tests" / "__pycache__").mkdir()
    (tmp_path / "tests" / "__pycache__" / "a.pyc").write_text("x")
    assert changed_files(before, checkout_files(str(tmp_path))) == []
