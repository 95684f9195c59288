"""docs/api.md's examples run (issue 18): every ```python block, in order, each in a fresh namespace."""

from __future__ import annotations

import os
import re

import pytest

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "api.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(DOC, encoding="utf-8").read(), re.S)


def test_the_page_has_an_example_per_system():
    text = "\n".join(BLOCKS)
    for fn in ("mind_group", "astra_episode", "scorable_session", "posterior", "dominance_dialogue"):
        assert f"simcore.{fn}(" in text


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_example_runs(k, capsys):
    exec(compile(BLOCKS[k], f"{DOC}:block{k}", "exec"), {"__name__": f"api_doc_{k}"})
    assert capsys.readouterr().out or "test_" in BLOCKS[k]
