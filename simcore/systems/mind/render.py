"""MIND negotiations as text: ``simcore show``'s rendering of a run (the dialogue with each
turn's hidden reasoning beside it, cf. the paper's D11-D15) and the golden playthroughs (the
paper's traces, played with exact wording)."""

from __future__ import annotations

from scenarios.travel import ITEMS
from scenarios.travel_traces import TRACES
from simcore.systems.mind.traces import play


def render_run(events) -> str:
    """A negotiation as a dialogue with the hidden reasoning beside each turn (cf. paper D11-D15)."""
    lines = [f"=== {events[0].run} ==="]
    for e in events:
        label = ITEMS[e.item].label if e.item in ITEMS else e.item
        h = e.hidden
        if e.phase == "1-propose":
            lines.append(f"  Phase 1, {e.speaker} (w={h.get('w')}):")
            lines.extend("    " + t for t in e.text.split("\n"))
        elif e.phase == "1-pick":
            lines.append(f"  --- {label} (members' w {h.get('w')}, values {h.get('values')}) ---")
            lines.append(f"  -> proposer {e.intent['proposer']}, current proposal \"{e.intent['proposal']}\"")
        elif e.phase == "2-vote":
            g = h.get("guessed_w")
            seen = f"guessed w'={g}" if g is not None else "no guess"
            lines.append(f"  R{e.round} {e.speaker} (w={h.get('w')}, own \"{h.get('own_value')}\"; {seen} -> "
                         f"{h.get('strategy')}) [{e.intent['vote']}] {e.text}")
        elif e.phase == "3-update":
            lines.append(f"  R{e.round} proposer {e.speaker} (w={h.get('w')}, dissent {h.get('dissent')}, "
                         f"read w'={h.get('read_dissent_w')}) [{e.intent['action']}] {e.text}")
        elif e.phase == "result":
            lines.append(f"  => consensus on \"{e.intent['value']}\" in round {e.round} "
                         f"({e.intent['agree']} of {e.intent['voters']} voters agree)")
        elif e.phase == "fallback":
            lines.append(f"  => no consensus after round {e.round}: fallback to \"{e.intent['value']}\" "
                         f"(highest w: {e.intent['holder']})")
    return "\n".join(lines)


def _trace_text(name: str) -> str:
    trace = next(t for t in TRACES if t.name == name)
    outcome, events = play(trace)
    head = [f"# {trace.title}", f"# item {trace.item}; members (value, w), proposer first: {list(trace.members)}",
            "# exact wording (tone_noise 0)", f"# paper: {trace.paper}"]
    if trace.note:
        head.append(f"# simcore vs paper: {trace.note}")
    tail = f"# outcome: consensus={outcome.consensus} final={outcome.final!r} rounds={outcome.rounds}"
    return "\n".join(head) + "\n" + render_run(list(events)) + "\n" + tail + "\n"


def _playthroughs() -> dict:
    return {t.name: (lambda name=t.name: _trace_text(name)) for t in TRACES}


PLAYTHROUGHS = _playthroughs()
