"""The command as an installed package sees it: ``python -m simcore`` and the commands
that need a source checkout, run from a copy of the packages without the tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from checkout import CHECKOUT  # noqa: E402

ROOT = CHECKOUT
PACKAGES = ("simcore", "policies", "mockllm", "scenarios")


def simcore(*args, cwd, path):
    env = dict(os.environ, PYTHONPATH=path)
    return subprocess.run([sys.executable, "-m", "simcore", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """site-packages as ``pip install .`` leaves it: the four packages, no tests/, no setup.cfg."""
    site = tmp_path_factory.mktemp("site-packages")
    for pkg in PACKAGES:
        shutil.copytree(os.path.join(ROOT, pkg), site / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return site


def test_python_dash_m_simcore_is_the_simcore_command(tmp_path):
    as_module = simcore("--help", cwd=tmp_path, path=ROOT)
    assert as_module.returncode == 0, as_module.stderr
    assert as_module.stdout.startswith("Usage: simcore ")
    for command in ("run", "show", "playthroughs", "scenarios"):
        assert command in as_module.stdout
    bad = simcore("run", "nosuch", cwd=tmp_path, path=ROOT)
    assert bad.returncode == 2 and "nosuch" in bad.stderr


@pytest.mark.parametrize("args", [("playthroughs",), ("playthroughs", "--check")])
def test_playthroughs_refuse_outside_a_checkout(installed, tmp_path, args):
    done = simcore(*args, cwd=tmp_path, path=str(installed))
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "source checkout" in lines[0], done.stderr
    assert done.stdout == ""
    assert not (installed / "tests").exists()  # nothing written into site-packages


def test_playthroughs_check_passes_in_the_checkout(tmp_path):
    done = simcore("playthroughs", "--check", cwd=tmp_path, path=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_toml_data_files_load_without_the_stdlib_tomllib(tmp_path, monkeypatch):
    """Python 3.10 has no ``tomllib``; setup.cfg installs ``tomli`` there instead."""
    pytest.importorskip("tomli")
    from scenarios.datafile import read_data

    monkeypatch.setitem(sys.modules, "tomllib", None)  # import tomllib -> ModuleNotFoundError
    path = tmp_path / "x.toml"
    path.write_text('name = "Café Zürich"\n[a]\nb = 2\n', encoding="utf-8")
    assert read_data(str(path)) == {"name": "Café Zürich", "a": {"b": 2}}


def test_no_test_folder_shadows_a_package():
    """A folder under tests/ named like one of simcore's packages would be imported instead of it
    by a script run from tests/ (tests/toy_study.py): an editable install's finder comes last."""
    packages = {"simcore", "mockllm", "policies", "scenarios"}
    clashes = [os.path.relpath(os.path.join(top, d), CHECKOUT)
               for top, dirs, _ in os.walk(os.path.join(CHECKOUT, "tests")) for d in dirs if d in packages]
    assert not clashes
