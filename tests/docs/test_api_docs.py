"""docs/users/api.md's and docs/users/env.md's examples run: every ```python block, each in a fresh namespace."""

from __future__ import annotations

import itertools
import os
import re
import time

import pytest
from checkout import CHECKOUT  # noqa: E402

DOCS = os.path.join(CHECKOUT, "docs", "users")
DOC = os.path.join(DOCS, "api.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(DOC, encoding="utf-8").read(), re.S)
ENV_BLOCKS = re.findall(r"```python\n(.*?)```", open(os.path.join(DOCS, "env.md"), encoding="utf-8").read(), re.S)


def test_the_page_has_an_example_per_system():
    text = "\n".join(BLOCKS)
    for fn in ("mind_group", "astra_episode", "scorable_session", "posterior", "dominance_dialogue"):
        assert f"simcore.{fn}(" in text


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_example_runs(k, capsys):
    exec(compile(BLOCKS[k], f"{DOC}:block{k}", "exec"), {"__name__": f"api_doc_{k}"})
    assert capsys.readouterr().out or "test_" in BLOCKS[k]


@pytest.mark.parametrize("k", range(len(ENV_BLOCKS)))
def test_env_example_runs(k, capsys):
    pytest.importorskip("pettingzoo")  # the optional extra simcore.make_env needs
    exec(compile(ENV_BLOCKS[k], f"docs/users/env.md:block{k}", "exec"), {"__name__": f"env_doc_{k}"})
    assert capsys.readouterr().out


PROPERTY_BLOCKS = [(name, block) for name, blocks in (("api.md", BLOCKS), ("env.md", ENV_BLOCKS))
                   for block in blocks if "@given" in block]


@pytest.mark.parametrize("name, block", PROPERTY_BLOCKS)
def test_property_examples_pass_whatever_the_machines_speed(name, block, monkeypatch):
    """A docs property test must not depend on how fast the machine is (a loaded CI runner
    failed hypothesis's "too slow" health check): here every clock reading hypothesis takes is
    one second after the last, so every example takes a second to draw and to run."""
    clock = itertools.count(step=1.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    exec(compile(block, f"{DOCS}/{name}:property example", "exec"), {"__name__": "docs_property_example"})


def test_the_docs_have_a_property_example():
    assert PROPERTY_BLOCKS
