"""The README's quick start is true of the code."""

import contextlib
import importlib.util
import io
import os
import re
import shlex

from simcore.catalog import available
from checkout import CHECKOUT  # noqa: E402

ROOT = CHECKOUT


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
    *items, episode = lines
    assert items and all(" -> " in ln and ("(consensus)" in ln or "(fallback)" in ln) for ln in items)
    assert episode.split()[0] in ("agreement", "walk_away", "no_agreement")


def test_quick_start_commands_and_ci_agree():
    readme = _readme()
    quick = readme.split("## Quick start", 1)[1].split("```", 2)[1].strip().splitlines()
    assert quick == ["pip install . && simcore run", "pip install -e '.[test]' && python -m pytest -n 2"]
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as fh:
        ci = fh.read()
    assert "pip install --quiet -e '.[test" in ci and "python -m pytest" in ci


def _quick_start() -> str:
    return _readme().split("## Quick start", 1)[1].split("\n## ", 1)[0]


def test_supported_pythons_agree_across_setup_cfg_readme_and_ci():
    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, "setup.cfg"), encoding="utf-8")
    lo, hi = re.fullmatch(r">=3\.(\d+),\s*<3\.(\d+)", cfg["options"]["python_requires"].strip()).groups()
    versions = [f"3.{m}" for m in range(int(lo), int(hi))]
    assert set(re.findall(r"Python :: (3\.\d+)$", cfg["metadata"]["classifiers"], re.M)) == set(versions)
    assert f"Python {versions[0]}-{versions[-1]}" in _quick_start()
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as fh:
        ci = fh.read()
    assert f"\nOLDEST={versions[0]}\n" in ci and f"\nNEWEST={versions[-1]}\n" in ci


def test_quick_start_says_how_long_the_default_study_takes_and_how_to_use_both_cores():
    quick = _quick_start()
    assert "simcore run --workers 2" in quick
    assert re.search(r"\d+ (s|min)\b.*one (core|worker)", quick, re.S)
    assert re.search(r"\d+ (s|min)\b.*two (cores|workers)", quick, re.S)


def _readme_commands():
    """.ci/readme_commands.py, the script .ci/run runs the README's command lines with."""
    spec = importlib.util.spec_from_file_location("readme_commands", os.path.join(ROOT, ".ci", "readme_commands.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.readme_commands(_readme())


def test_every_readme_run_after_the_quick_start_writes_where_no_earlier_run_did():
    """The README's command lines run as written, in order, after the Quick start (.ci/run runs
    them all): a run into a directory that already holds results is refused (exit 2) unless it
    passes --overwrite or --resume, so each new run has its own --out."""
    quick, later = _readme_commands()
    assert quick[0].endswith("&& simcore run")
    filled = {f"runs/{s}" for s in available()}  # the Quick start's default study
    runs = 0
    for line in later:
        for part in line.split("&&"):
            argv = shlex.split(part, comments=True)
            if argv[:2] != ["simcore", "run"]:
                continue
            runs += 1
            system = argv[2] if len(argv) > 2 and not argv[2].startswith("-") else None
            out = argv[argv.index("--out") + 1] if "--out" in argv else None
            if system:
                dirs = {os.path.normpath(out or f"runs/{system}")}
            elif "--first-look" in argv:  # every system, small, into OUT/first-look/SYSTEM
                dirs = {os.path.normpath(os.path.join(out or "runs", "first-look", s)) for s in available()}
            else:  # the default study: OUT/SYSTEM for every system
                dirs = {os.path.normpath(os.path.join(out or "runs", s)) for s in available()}
            again = "--overwrite" in argv or "--resume" in argv
            assert again or not dirs & filled, f"refused after the Quick start (holds results): {line}"
            filled |= dirs
    assert runs >= 6


def test_ci_runs_the_quick_start_then_every_readme_command():
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as fh:
        ci = fh.read()
    steps = [ln for ln in ci.splitlines() if ln.startswith("step ")]
    assert "quick_start" in steps[0] and "readme_commands.py" in steps[1], steps[:2]
    assert 'readme_lines "Quick start"' in ci  # the lines are read from the README, not copied
