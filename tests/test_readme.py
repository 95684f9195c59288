"""The README's quick start is true of the code."""

import contextlib
import io
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _readme() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        return fh.read()


def test_python_quick_start_runs_and_prints_the_outcome():
    block = re.search(r"```python\n(.*?)```", _readme(), re.S).group(1)
    code_lines = [ln for ln in block.splitlines() if ln.strip() and not ln.startswith(("import", "from"))]
    assert len(code_lines) <= 10
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, "README quick start", "exec"), {})
    lines = buf.getvalue().splitlines()
    assert lines and all(" -> " in ln and ("(consensus)" in ln or "(fallback)" in ln) for ln in lines)


def test_quick_start_commands_and_ci_agree():
    readme = _readme()
    quick = readme.split("## Quick start", 1)[1].split("```", 2)[1].strip().splitlines()
    assert quick == ["pip install . && simcore run", "pip install -e '.[test]' && python -m pytest"]
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as fh:
        ci = fh.read()
    assert "pip install --quiet -e '.[test" in ci and "python -m pytest" in ci
