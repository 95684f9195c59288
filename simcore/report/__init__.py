"""``simcore report``: one self-contained HTML page from what ``simcore run`` wrote.

:func:`build` finds the run(s) in a directory (:mod:`simcore.report.load`), draws each
system's figures and tables (one module per system, one function per figure, SVG
written by :mod:`simcore.report.svg`), and adds step-throughs of a sample of
negotiations (:mod:`simcore.report.steps`).  ``negotiation=ID`` gives a page with the
step-through of that one negotiation.  No part of the page is fetched when it is
opened: no script, no external font, image or style sheet.
"""

from __future__ import annotations

import importlib
import os

from simcore import noise
from simcore.catalog import STUDIES, part
from simcore.errors import InputError
from simcore.files import write_atomic
from simcore.report import checked, load, page, sweep as sweep_mod
from simcore.report.steps import RULE, Sampler, anchor, mark_noise, match, pick_one, render_steps
from simcore.robustness import cell, verdict

SAMPLE = 8
#: runs of each kind read as candidates for its step-through (steps.RULE says which is shown)
SAMPLE_CANDIDATES = 5


def _module(system: str):
    """The system's section of the report: the module its package names (``REPORT``)."""
    return importlib.import_module(part(system, "REPORT"))


def _noise_html(events) -> str:

    marked = noise.notes(events)
    if not marked:
        return ""
    by_seq = {e.seq: e for e in events}
    items = "".join(f"<li><b>#{seq} {page.esc(by_seq[seq].speaker)}</b> (round {by_seq[seq].round}): "
                    f"{page.esc(note)}</li>" for seq, note in sorted(marked.items()))
    return ('<div class="noise"><p class="note">Injected noise in this negotiation: the mock language layer '
            'stands in for a model\'s imperfect words and readings and injects these on purpose '
            '(docs: simcore/noise.py). Decisions that follow them are the rules working on noisy input.</p>'
            f'<ul class="sample">{items}</ul></div>')


def _steps_html(mod, run_id: str, events) -> str:
    intro = (page.note(mod.outcome(events)) if hasattr(mod, "outcome") else "") + _noise_html(events)
    return render_steps(run_id, mark_noise(mod.step_rows, events, noise.notes(events)), intro=intro)


def _check_runs(source: str, system: str, run_ids) -> None:
    for rid in run_ids:
        if rid.split("/", 1)[0] != system:
            raise InputError(source, "run", f"run id {rid!r} is not a {system} negotiation: transcript from "
                                            "another run or another simcore version?")


def _run_section(run: load.Run, sample: int, first: bool) -> tuple[str, list[tuple[str, str]]]:
    mod = _module(run.system)
    parts, toc = [], []
    tpath = run.transcript

    got, sampler = {}, Sampler(mod.kind, sample, per_kind=SAMPLE_CANDIDATES)
    if tpath is not None:
        got = load.select_runs(tpath, sampler)
        _check_runs(tpath, run.system, got)
        got = sampler.pick(got, lambda events: not noise.notes(events))
    read = os.path.join(run.path, "metrics.json") + (f" or {tpath}" if got else "")
    with checked.reading(run.metrics, os.path.join(run.path, "metrics.json"), read):
        for title, sid, body in mod.sections(run, got):
            parts.append(page.section(title, body, sid, level=3))
    if tpath is None:
        parts.append(page.missing("step-throughs: this run kept no transcripts.jsonl "
                                  "(--no-transcripts, or transcripts turned off)."))
    else:
        if got:
            items = "".join(f'<li><a href="#{anchor(rid)}">{page.esc(rid)}</a> '
                            f'<span class="note">{page.esc(mod.outcome(evs) if hasattr(mod, "outcome") else "")}'
                            f"</span></li>" for rid, evs in got.items())
            share = "none" if sampler.noisy_share is None else f"{100 * sampler.noisy_share:.0f}%"
            listing = (page.note(f"{sampler.seen} negotiations in this transcript. The sample ("
                                 f"{getattr(mod, 'KIND', 'kind')}): "
                                 + RULE.format(per_kind=SAMPLE_CANDIDATES, limit=sample, share=share)
                                 + ". Injected noise (a tone slip, an unclear or misread answer, a lost cue, "
                                 f"a garbled sentence) is marked. Any other one: "
                                 f"simcore report {run.path} --negotiation RUN_ID")
                       + f'<ul class="sample">{items}</ul>')
            body = listing + "".join(_steps_html(mod, rid, evs) for rid, evs in got.items())
        else:
            body = page.missing("step-throughs: transcripts.jsonl holds no negotiation (a run with "
                                "--no-transcripts, or --keep-transcripts 0).")
        parts.append(page.section("Step through a negotiation", body, f"{run.system}-steps", level=3))
    robust = run.robustness
    if robust is not None:
        rpath = load.robustness_path(run.path)
        with checked.reading(robust, rpath, rpath):
            body = robustness_body(robust)
        parts.append(page.section("Headlines across the stand-ins of each LLM role", body,
                                  f"{run.system}-robustness", level=3))
    sid = f"sys-{run.system}"
    toc.append((sid, run.system))
    return page.section(f"{run.system}: {run.path}", "".join(parts), sid, first=first), toc


def _sweep_section(sw: load.Sweep, first: bool) -> tuple[str, list[tuple[str, str]]]:

    sid = f"sweep-{sw.system}"
    spath = os.path.join(sw.path, "sweep.json")
    with checked.reading(sw.summary, spath, spath):
        body = sweep_mod.body(sw)
    return page.section(f"{sw.system} sweep: {sw.path}", body, sid, first=first), [(sid, f"{sw.system} sweep")]


def robustness_body(data: dict) -> str:
    """One table per role: each claim under each stand-in, its range and where its direction holds."""
    out = []
    for role_id, role in data["roles"].items():
        names = role.get("order") or [m["name"] for m in role["members"]]
        rows = []
        for claim in role["claims"].values():
            rows.append([claim.get("text", ""), claim.get("paper", ""), *(cell(claim, n) for n in names),
                         verdict(claim) if "holds" in claim and "n" in claim else "?"])
        members = "".join(f"<li><b>{page.esc(m['name'])}</b>"
                          f"{' (default)' if m['name'] == role.get('default') else ''}: "
                          f"{page.esc(m.get('description', ''))}</li>" for m in role["members"])
        out.append(page.note(f"{role_id}: played in the paper by {role.get('llm', '?')} "
                             f"({role.get('passage', '')}). Each column is the same study and seed with only "
                             f"this role's stand-in changed; each value [its 95% interval]; a claim holds "
                             f"under a stand-in only when its interval excludes no difference"
                             + (f"; members from tougher to softer by {role['toughness_text']}"
                                if role.get("toughness_text") else "") + ".")
                   + page.table(["claim", "paper", *names, "direction holds under"], rows)
                   + f'<ul class="sample">{members}</ul>')
    return "".join(out)


def _robustness_section(item: load.Robustness, first: bool) -> tuple[str, list[tuple[str, str]]]:
    sid = f"robust-{item.system}"
    rpath = os.path.join(item.path, load.ROBUSTNESS)
    with checked.reading(item.data, rpath, rpath):
        body = robustness_body(item.data)
    return (page.section(f"{item.system} across stand-ins: {item.path}", body, sid,
                         first=first), [(sid, f"{item.system} robustness")])


def render(run_dir: str, *, negotiation: str | None = None, sample: int = SAMPLE) -> str:
    """The HTML text of the report of ``run_dir``."""
    found = load.discover(run_dir)
    if negotiation is not None:
        return _negotiation_page(run_dir, found, negotiation)
    body, toc = [], []
    for k, item in enumerate(found):
        if isinstance(item, load.Sweep):
            html, t = _sweep_section(item, k == 0)
        elif isinstance(item, load.Robustness):
            html, t = _robustness_section(item, k == 0)
        else:
            html, t = _run_section(item, sample, k == 0)
        body.append(html)
        toc += t
    kinds = ", ".join(("sweep of " if isinstance(f, load.Sweep) else "")
                      + f.system + (" (robustness)" if isinstance(f, load.Robustness) else "") for f in found)
    sub = [f"Run directory: {run_dir}", f"Contents: {kinds}",
           "Self-contained page: figures are inline SVG; nothing is loaded from the network."]
    return page.document("simcore report", sub, toc, "".join(body))


def _negotiation_page(run_dir: str, found, wanted: str) -> str:
    runs = [f for f in found if isinstance(f, load.Run)]
    system = wanted.split("/", 1)[0]
    if system in STUDIES and len(runs) > 1:
        runs = [r for r in runs if r.system == system] or runs
    with_t = [r for r in runs if r.transcript is not None]
    if not with_t:
        raise InputError(run_dir, "--negotiation", "this directory has no transcripts.jsonl to step through")
    hits = {}
    for run in with_t:
        got = load.select_runs(run.transcript, lambda rid: match(rid, wanted))
        for rid, evs in got.items():
            hits[rid] = (run, evs)
    examples = [] if hits else load.run_ids(with_t[0].transcript)[:4]
    rid = pick_one(hits, wanted, run_dir, examples)
    run, events = hits[rid]
    _check_runs(run.transcript, run.system, [rid])
    mod = _module(run.system)
    body = page.section(f"{run.system} negotiation", _steps_html(mod, rid, events), "negotiation", first=True)
    return page.document(f"simcore: {rid}", [f"Run directory: {run_dir}", "One negotiation, turn by turn."], [], body)


def build(run_dir: str, out: str | None = None, *, negotiation: str | None = None, sample: int = SAMPLE) -> str:
    """Write the report; returns the path written."""
    if not os.path.isdir(run_dir):
        raise InputError(run_dir, "", "no such directory" if not os.path.exists(run_dir) else "not a directory")
    if out is None:
        name = "report.html" if negotiation is None else f"negotiation-{page.slug(negotiation)}.html"
        out = os.path.join(run_dir, name)
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise InputError(out, "--out", f"directory {parent} does not exist")
    if os.path.isdir(out):
        raise InputError(out, "--out", "is a directory; give a file name such as report.html")
    text = render(run_dir, negotiation=negotiation, sample=sample)

    write_atomic(out, text)  # temporary file, fsync, rename; an OSError is one InputError line
    return out
