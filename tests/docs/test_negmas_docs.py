"""docs/users/negmas.md's examples run (each ```python block in a fresh namespace); skipped without the
NegMAS extra and the agent packages."""

from __future__ import annotations

import os
import re

import pytest
from checkout import CHECKOUT  # noqa: E402

pytest.importorskip("negmas")
pytest.importorskip("negmas_genius_agents")

DOC = os.path.join(CHECKOUT, "docs", "users", "negmas.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(DOC, encoding="utf-8").read(), re.S)


def test_the_page_has_both_examples():
    text = "\n".join(BLOCKS)
    assert "AstraNegotiator" in text and "SAOMechanism" in text
    assert "simcore.astra_episode(" in text and "negmas_genius_agents" in text


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_example_runs(k, capsys):
    exec(compile(BLOCKS[k], f"{DOC}:block{k}", "exec"), {"__name__": f"negmas_doc_{k}"})
    assert capsys.readouterr().out
