"""The rule tables shown to people are written from the policies' rule data (simcore.rules)."""

import os

from click.testing import CliRunner

from simcore import rules, ruletable
from simcore.cli import cli
from checkout import CHECKOUT  # noqa: E402

ROOT = CHECKOUT


def test_the_doc_tables_are_the_rule_data():
    for fname, names in rules.DOC_TABLES.items():
        text = open(os.path.join(ROOT, fname), encoding="utf-8").read()
        for name in names:
            assert rules.render_into(text, name) == text, (
                f"{fname}: the {name} table differs from the rule data; run python -m simcore.rules")


def test_a_changed_rule_shows_as_a_stale_table():
    text = open(os.path.join(ROOT, "docs", "systems", "mind.md"), encoding="utf-8").read()
    stale = text.replace("| 2 | w <= 3 (Neutral band) |", "| 2 | w <= 4 (Neutral band) |")
    assert stale != text and rules.render_into(stale, "mind-voter") == text


def test_every_rule_names_a_source_and_tables_are_numbered_in_order():
    rows = rules.rules("mind")
    assert {r.table for r in rows} == {"mind-voter", "mind-voter-no-appraisal", "mind-proposer", "base"}
    for r in rows:
        assert r.source and r.condition and r.action and r.keys


def test_the_report_lookup_names_the_row_a_decision_came_from():
    rows = ruletable.table(rules.rules("mind"), "mind-voter")
    assert ruletable.lookup(rows, "yield", "urgency").row == "3"
    assert ruletable.lookup(rows, "push", "anything").row == "4"
    assert ruletable.lookup(rows, "nonsense", None) is None


def test_list_params_prints_the_rule_tables():
    out = CliRunner().invoke(cli, ["run", "mind", "--list-params"]).output
    assert "rules mind-voter:" in out and "rules base:" in out
    assert "B9 \"SIGNAL READING\"" in out


def test_every_rule_a_dominance_reply_records_has_a_row():
    """Each rule id the response trees can record is a row of the trees' data."""
    import re

    from simcore.ruletable import lookup

    src = open(os.path.join(ROOT, "policies", "dominance.py"), encoding="utf-8").read()
    ids = set(re.findall(r'"((?:F\d|exit|open)\.[a-z-]+)"', src))
    assert len(ids) > 20
    rows = rules.rules("dominance")
    missing = sorted(i for i in ids if lookup(rows, "rule", i) is None)
    assert not missing, missing


def test_every_astra_tactic_has_a_row():
    from policies.astra_modules import TACTICS

    rows = rules.rules("astra")
    assert {r.row for r in rows} == set(TACTICS)
