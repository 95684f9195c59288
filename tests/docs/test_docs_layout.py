"""The docs stay short, current and connected: the README is a front page (at most 160 lines),
no page of README.md, docs/ or benchmarks/*.md tells the project's history by issue number
(that is CHANGELOG.md's and git log's job), and every relative link in README.md and docs/
names a file or folder that exists."""

from __future__ import annotations

import pathlib
import re

import pytest

from checkout import CHECKOUT  # noqa: E402

ROOT = pathlib.Path(CHECKOUT)
#: an issue number ("issue" or "issues", an optional "#", digits, any case); not an option such as
#: ``--amend-max-issues 2``
ISSUE = re.compile(r"(?<![-\w])issues?\s+#?\d+|second\s+reading|before\s+issue", re.I)  # across line breaks too
#: [text](target) and ![alt](target), the target up to a space or the closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _pages() -> list[pathlib.Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _no_history() -> list[pathlib.Path]:
    return [p for p in _pages() + sorted((ROOT / "benchmarks").glob("*.md")) if p.name != "CHANGELOG.md"]


def test_the_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 160, f"README.md has {len(lines)} lines (at most 160: details go in docs/)"


@pytest.mark.parametrize("page", _no_history(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_issue_numbers(page):
    text = page.read_text(encoding="utf-8")
    found = [f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {' '.join(m.group(0).split())}"
             for m in ISSUE.finditer(text)]
    assert not found, "history belongs in CHANGELOG.md: " + "; ".join(found)


def _relative_links(page: pathlib.Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)  # not in code blocks
    text = re.sub(r"`[^`\n]*`", "", text)                                          # nor in code spans
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:|#", t)]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = [t for t in _relative_links(page)
              if not (page.parent / t.split("#", 1)[0]).exists()]
    assert not broken, f"{page.relative_to(ROOT)}: links to no file: {broken}"


def test_the_checks_catch_what_they_look_for(tmp_path):
    page = tmp_path / "p.md"
    n = 12  # the issue number, kept out of this file's own lines (tests/test_no_history_words.py)
    page.write_text("See [a](missing.md), [b](https://x.org), `[c](nope.md)`, [d](#top).\n"
                    f"Fixed in Issue #{n}; --amend-max-issues 2 is an option; as the second\nreading says.\n", encoding="utf-8")
    assert _relative_links(page) == ["missing.md"]
    assert [m.group(0) for m in ISSUE.finditer(page.read_text())] == [f"Issue #{n}", "second\nreading"]
