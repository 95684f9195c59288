"""H4 per partner relation: both counts as measured, and "undefined" (never 0) where neither side
ever led: a submissive against a submissive never leads its own values."""

from simcore.report.dominance import h4_table
from simcore.study import run_study
from simcore.systems.dominance import DominanceConfig


def _run():
    return run_study("simcore.systems.dominance:STUDY", DominanceConfig(seed=0, dialogues=6, language="direct",
                                                                        transcripts=False), workers=1)


def test_h4_is_reported_per_partner_with_undefined_never_zero():
    s = _run()
    h4 = s.metrics["h4_by_partner"]
    assert set(h4) == {"dominant", "peer", "submissive"}
    assert all(set(by) == {"dominant", "peer", "submissive"} for by in h4.values())
    # a submissive against a submissive never leads: the share has no denominator
    assert h4["submissive"]["submissive"]["leads_own_values"] is None
    # a share against another relation is the complement of that relation's share against it
    for a, b in (("dominant", "peer"), ("dominant", "submissive"), ("peer", "submissive")):
        x, y = h4[a][b]["opens_subjects"], h4[b][a]["opens_subjects"]
        assert abs(x + y - 1) < 1e-12
    # the study's table and the report show the undefined share as such
    tab = next(t for t in s.tables if t.name == "dominance_h4_by_partner")
    row = next(r for r in tab.rows if r[:2] == ("submissive", "submissive"))
    assert row[2] == "undefined"
    assert "undefined" in tab.render() and "undefined" in tab.to_csv()
    html = h4_table(s.metrics)
    assert "undefined" in html and "submissive" in html


def test_h4_opens_subjects_is_measured_against_every_partner():
    h4 = _run().metrics["h4_by_partner"]
    for partner in ("dominant", "peer", "submissive"):
        for rel in ("dominant", "peer", "submissive"):
            v = h4[rel][partner]["opens_subjects"]
            assert v is None or 0 <= v <= 1
