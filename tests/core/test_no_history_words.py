"""Code, tests, help texts and benchmark scripts describe what is, not how it came to be: no .py
file under the project's code folders names an issue number ("issue 19", "issues #3") or says
"second reading" / "before issue".  History lives in git log.
"""

from __future__ import annotations

import re
from pathlib import Path

from checkout import CHECKOUT

ROOT = Path(CHECKOUT)
FOLDERS = ("simcore", "mockllm", "policies", "scenarios", "benchmarks", "tests", ".ci")
#: an issue number (not an option name such as ``--amend-max-issues 2``, as in tests/docs/test_docs_layout.py)
HISTORY = re.compile(r"(?<![-\w])issues?\s+#?\d+|second\s+reading|before\s+issue", re.IGNORECASE)
#: the checks themselves (their patterns and examples name what they look for)
CHECKS = ("tests/core/test_no_history_words.py", "tests/docs/test_docs_layout.py")


def _py_files():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in CHECKS:
                yield rel, path


def test_no_py_file_names_the_projects_history():
    found = [f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {' '.join(m.group(0).split())}"
             for rel, path in _py_files()
             for text in (path.read_text(encoding="utf-8"),)
             for m in HISTORY.finditer(text)]
    assert found == [], "history words (say what the code does instead):\n" + "\n".join(found)


def test_the_pattern_finds_what_it_should_and_not_a_negotiation_issue():
    assert HISTORY.search("# stage 3 (Issue #17)") and HISTORY.search("as read before Issue 21")
    assert HISTORY.search("the Second reading of the rules") and HISTORY.search("a second\n    reading")
    assert not HISTORY.search("change a median of 2 issues of the deal on the table")
    assert not HISTORY.search("--amend-max-issues 2 is an option")
