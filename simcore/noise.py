"""The noise the mock language layer injected into a negotiation, found in its transcript.

The mock is a stand-in for a model's imperfect words and readings, and it injects that
imperfection on purpose (a tone that slips to a neighbouring band, an unclear or misread
answer, a cue left out, a garbled sentence).  For teaching, every such event is marked where
a negotiation is shown (``simcore show``, the report's step-throughs), so a reader does not
take the noise for a broken rule.  Each event is found by comparing what a message meant (its
intent, kept in the transcript) with what its words say or what the listener read:

| system | noise | found where |
|---|---|---|
| mind | a tone slip (``tone_noise``) | a speaker's words state a willingness level other than its w |
| astra | an unclear answer (``astra_unclear_answer``) | a priority answer that names no item |
| astra | a misread (``astra_misread``) | the agent read a stated priority other than the one the partner answered |
| scorable | a cue left out or said vaguely (``scorable_omit``, ``scorable_vague``), or dropped by the reader (``scorable_misread``) | a cue the speaker meant that no signal read back matches |
| dominance | a garbled sentence (``dominance_garble``) | the listener's reading differs from the speaker's utterance |

Each system's package names its finder (``noise_notes``: the functions below for the four
papers' systems; a system that names none marks nothing, ``simcore.catalog.no_noise``); :func:`notes` returns ``{event seq: note}``; exact wording (``MockBackend(exact=True)``,
tone_noise 0, ...) gives none.  The chat with the dominance agent uses exact wording.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from mockllm.tone import read_level
from scenarios.travel import ITEMS
from simcore.catalog import STUDIES, part
from simcore.transcript import Event


def mind_notes(events: Sequence[Event]) -> dict[int, str]:

    out = {}
    for e in events:
        if not e.text:
            continue
        w = e.hidden.get("w")
        if e.phase == "1-propose" and isinstance(w, Mapping):
            slips = []
            for key, true_w in w.items():
                label = ITEMS[key].label if key in ITEMS else key
                line = next((ln for ln in e.text.split("\n") if f"the {label}," in ln), None)
                said = read_level(line) if line else None
                if said is not None and said != true_w:
                    slips.append(f"{label}: words say {said}, w is {true_w}")
            if slips:
                out[e.seq] = "tone slip (injected noise): " + "; ".join(slips)
        elif e.phase in ("2-vote", "3-update") and isinstance(w, int):
            said = read_level(e.text)
            if said is not None and said != w:
                out[e.seq] = f"tone slip (injected noise): the words say willingness {said}, the speaker's w is {w}"
    return out


def astra_notes(events: Sequence[Event]) -> dict[int, str]:
    out = {}
    answered: dict[str, str] = {}  # question -> the item the partner's order puts there
    for e in events:
        if e.speaker == "partner" and e.intent.get("mode") == "answer":
            q, order = e.intent.get("question"), e.hidden.get("order")
            if order:
                answered[q] = order[0] if q == "highest" else order[-1]
                if not any(item in (e.text or "") for item in order):
                    out[e.seq] = "unclear answer (injected noise): it names no item"
        elif e.speaker == "agent":
            for cues in e.hidden.get("read", ()) or ():
                wrong = [f"read {q} = {cues.get(q)}, the partner's {q} is {answered[q]}"
                         for q in ("highest", "lowest") if cues.get(q) and q in answered and cues[q] != answered[q]]
                if wrong:
                    out[e.seq] = "misread (injected noise): " + "; ".join(wrong)
    return out


def scorable_notes(events: Sequence[Event]) -> dict[int, str]:
    out = {}
    for e in events:
        meant = e.hidden.get("cues_meant")
        if not meant:
            continue
        read = {(s.get("entity"), s.get("target"), s.get("stance")) for s in (e.cues or {}).get("signals", ())
                if isinstance(s, Mapping)}
        lost = [c for c in meant if (c.get("entity"), c.get("target"), c.get("stance")) not in read]
        if lost:
            out[e.seq] = (f"{len(lost)} of {len(meant)} cues meant were not read back (injected noise: left out, "
                          f"said vaguely or misread): " + "; ".join(f"{c['stance']} {c['target']}" for c in lost))
    return out


def dominance_notes(events: Sequence[Event]) -> dict[int, str]:
    out = {}
    for e in events:
        for listener, reading in (e.cues or {}).items():
            if isinstance(reading, Mapping) and reading and reading != e.intent:
                out[e.seq] = f"garbled (injected noise): {listener} read {reading}, the speaker meant {e.intent}"
    return out


def notes(events: Sequence[Event]) -> dict[int, str]:
    """``{seq: note}`` for every event of one negotiation that carries injected noise."""
    events = list(events)
    if not events:
        return {}
    system = events[0].run.split("/", 1)[0]
    return part(system, "noise_notes")(events) if system in STUDIES else {}


def lines(events: Sequence[Event]) -> list[str]:
    """The notes as text lines, one per marked event, in order."""
    by_seq = {e.seq: e for e in events}
    return [f"  [noise] #{seq} {by_seq[seq].speaker} (round {by_seq[seq].round}): {note}"
            for seq, note in sorted(notes(events).items())]
