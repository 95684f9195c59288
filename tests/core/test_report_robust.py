"""``simcore report`` on damaged input: a ``metrics.json`` with a
field of the wrong type or shape, or without one, is one line naming the file and the
field (exit 2), never a traceback; a model's control characters do not reach the page.
The torn last transcript line is in tests/core/test_show_stream.py (show and report agree)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simcore.cli import main

SYSTEM_ARGS = {
    "mind": ["--groups", "3"],
    "scorable": ["--trials", "2", "--keep-transcripts", "1", "--methods", "base-llm,llm-pe-p1,proposed-all"],
    "astra": ["--episodes", "1", "--partners", "base,greedy", "--setups", "integrative,distributive"],
    "dominance": ["--dialogues", "2"],
}
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def cli(*argv: str) -> tuple[int, str, str]:
    """``simcore ARGV`` in-process: (exit status, stdout, stderr).  An exception other
    than SystemExit -- what a traceback would print -- propagates and fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
            code = 0
        except SystemExit as exc:
            code = 0 if exc.code is None else exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("robust")
    for system, extra in SYSTEM_ARGS.items():
        code, _, err = cli("run", system, *extra, "--out", str(root / system), "--no-progress")
        assert code == 0, err
    return root


def damaged(runs, tmp_path, system: str, change) -> tuple[int, str]:
    """Report a copy of the run whose metrics.json ``change`` edited: (exit status, stderr)."""
    copy = tmp_path / f"{system}-copy"
    if not copy.exists():
        shutil.copytree(runs / system, copy)
    metrics = json.loads((runs / system / "metrics.json").read_text(encoding="utf-8"))
    change(metrics)
    (copy / "metrics.json").write_text(json.dumps(metrics), encoding="utf-8")
    code, _, err = cli("report", str(copy), "--out", str(tmp_path / "r.html"))
    return code, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simcore: error: "), err[-800:]
    return lines[0]


@pytest.mark.parametrize("system", list(SYSTEM_ARGS))
def test_results_that_are_not_an_object(runs, tmp_path, system):
    def change(m):
        m["results"] = ["not", "an", "object"]

    code, err = damaged(runs, tmp_path, system, change)
    assert code == 2
    assert f"{tmp_path / (system + '-copy') / 'metrics.json'}: results: a list" in one_line(err)


@pytest.mark.parametrize("system, field", [("mind", "F"), ("scorable", "FAR"), ("astra", "walk_away_rate"),
                                           ("dominance", "success_rate")])
def test_a_string_where_a_number_belongs(runs, tmp_path, system, field):
    name = {}

    def change(m):
        name["run"] = next(k for k, v in m["results"].items() if field in v)
        m["results"][name["run"]][field] = "0.5"

    code, err = damaged(runs, tmp_path, system, change)
    assert code == 2
    assert f"metrics.json: results.{name['run']}.{field}: a string (\"0.5\"), not what the report can read" \
        in one_line(err)


def test_a_missing_key_is_named(runs, tmp_path):
    def change(m):
        del m["tom"]["mind"]["confusion"]["counts"]

    code, err = damaged(runs, tmp_path, "mind", change)
    assert code == 2 and "metrics.json: tom.mind.confusion.counts: missing" in one_line(err)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False),
                        st.text(max_size=5), st.lists(st.integers(), max_size=3),
                        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_metrics_are_reported_or_refused_in_one_line(runs, tmp_path, data):
    """Random edits of a real metrics.json -- a value replaced by another JSON value, or
    a key removed -- give exit 0 or exit 2 with one line naming the file; no traceback."""
    system = data.draw(st.sampled_from(list(SYSTEM_ARGS)), label="system")
    metrics = json.loads((runs / system / "metrics.json").read_text(encoding="utf-8"))
    fields = [p for p in _paths(metrics) if p and p[0] != "system"]

    def change(m):
        for _ in range(data.draw(st.integers(1, 3), label="edits")):
            path = data.draw(st.sampled_from(fields), label="field")
            holder = m
            try:
                for key in path[:-1]:
                    holder = holder[key]
                if isinstance(holder, dict) and data.draw(st.booleans(), label="remove"):
                    holder.pop(path[-1], None)
                else:
                    holder[path[-1]] = data.draw(JSON_VALUES, label="value")
            except (KeyError, IndexError, TypeError):  # an earlier edit removed or replaced the way there
                pass

    code, err = damaged(runs, tmp_path, system, change)
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert "metrics.json" in one_line(err)


def test_control_characters_do_not_reach_the_page(runs, tmp_path):
    copy = tmp_path / "evil"
    shutil.copytree(runs / "mind", copy)
    path = copy / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["text"] += "\x1b[2J\x1b]0;pwned\x07\x9b"
    path.write_text("\n".join([json.dumps(first, ensure_ascii=False)] + lines[1:]) + "\n", encoding="utf-8")
    out = tmp_path / "n.html"
    code, _, err = cli("report", str(copy), "--negotiation", first["run"], "--out", str(out))
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert "\\x1b[2J\\x1b]0;pwned\\x07\\x9b" in html and not RAW.search(html.replace("\n", ""))
