"""Injected noise is marked wherever a negotiation is shown (for teaching): simcore.noise
finds every event whose words or reading the mock made imperfect, none under exact wording; `show`
marks them; the report's step-throughs prefer a negotiation without any and mark what they show."""

from __future__ import annotations


from simcore import noise
from simcore.transcript import read_jsonl, runs
from tests.clirun import simcore


def _runs(capsys, tmp_path, *args):
    code, _, err = simcore(capsys, "run", *args, "--out", str(tmp_path), "--no-progress")
    assert code == 0, err
    return runs(read_jsonl(str(tmp_path / "transcripts.jsonl")))


def test_mind_tone_slips_are_marked_and_exact_wording_has_none(capsys, tmp_path):
    # (half the tone slips a band on purpose: the readings are right about half the time, below the
    # default --min-reading-accuracy, so the check is off)
    noisy = _runs(capsys, tmp_path / "a", "mind", "--groups", "4", "--variants", "mind", "--tone-noise", "0.5",
                  "--min-reading-accuracy", "0")
    exact = _runs(capsys, tmp_path / "b", "mind", "--groups", "4", "--variants", "mind", "--tone-noise", "0")
    assert sum(len(noise.notes(evs)) for evs in noisy.values()) > 0
    assert all(not noise.notes(evs) for evs in exact.values())
    from mockllm.tone import read_level

    for evs in noisy.values():  # every marked vote or update is one whose words state another level
        for e in evs:
            if e.seq in noise.notes(evs) and e.phase == "2-vote":
                assert read_level(e.text) != e.hidden["w"]


def test_astra_unclear_and_misread_answers_are_marked(capsys, tmp_path):
    got = _runs(capsys, tmp_path, "astra", "--partners", "base", "--setups", "integrative", "--episodes", "40",
                "--agents", "astra")
    kinds = {note.split(" (")[0] for evs in got.values() for note in noise.notes(evs).values()}
    assert "unclear answer" in kinds
    code, out, _ = simcore(capsys, "show", str(tmp_path / "transcripts.jsonl"), "--limit", "40")
    assert code == 0 and "[noise]" in out and "unclear answer (injected noise)" in out


def test_scorable_lost_cues_are_marked(capsys, tmp_path):
    got = _runs(capsys, tmp_path, "scorable", "--trials", "1", "--methods", "proposed-all")
    assert any("cues meant were not read back" in n for evs in got.values() for n in noise.notes(evs).values())
    exact = _runs(capsys, tmp_path / "x", "scorable", "--trials", "1", "--methods", "proposed-all", "--omit", "0",
                  "--vague", "0", "--misread", "0")
    assert all(not noise.notes(evs) for evs in exact.values())


def test_the_report_samples_noise_in_proportion_and_says_how(capsys, tmp_path):
    _runs(capsys, tmp_path, "astra", "--partners", "base", "--setups", "integrative", "--episodes", "20",
          "--agents", "astra")
    code, _, err = simcore(capsys, "report", str(tmp_path))
    assert code == 0, err
    html = (tmp_path / "report.html").read_text()
    assert "negotiations with injected noise are shown in the share the candidates carry them" in html
    episodes = list(runs(read_jsonl(str(tmp_path / "transcripts.jsonl"))).items())
    first = episodes[0]
    assert noise.notes(first[1])  # the file's first episode has noise (an unclear answer) ...
    # one kind: its first noisy candidate is shown when round(share) >= 1, else its first clean one
    cands = [(r, e) for r, e in episodes[:5] if len(e) > 1]
    share = sum(bool(noise.notes(e)) for _, e in cands) / len(cands)
    want = next(r for r, e in cands if bool(noise.notes(e)) == (share >= 0.5))
    assert f"Step-through: {want}<" in html
    assert f"{100 * share:.0f}%" in html


def test_noise_is_marked_inline_at_the_turn_where_it_happened(capsys, tmp_path):
    _runs(capsys, tmp_path, "astra", "--partners", "base", "--setups", "integrative", "--episodes", "20",
          "--agents", "astra")
    first_id, first = next(iter(runs(read_jsonl(str(tmp_path / "transcripts.jsonl"))).items()))
    notes = noise.notes(first)
    assert notes
    out = tmp_path / "one.html"
    code, _, err = simcore(capsys, "report", str(tmp_path), "--negotiation", first_id, "--out", str(out))
    assert code == 0, err
    html = out.read_text()
    rows = [r for r in html.split("<tr") if "injected noise:</b>" in r]
    seq, note = sorted(notes.items())[0]
    by_seq = {e.seq: e for e in first}
    # the mark sits in the row of the turn whose event carried the noise: its round and its words
    row = next(r for r in rows if f"#{seq}:" in r)
    assert f"r{by_seq[seq].round}" in row
    assert len(rows) <= len(notes)
