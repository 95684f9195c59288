"""The scorable system's renderings: a session turn by turn (``simcore show``) and the golden
playthroughs."""

from __future__ import annotations

from scenarios.scorable import load_game
from simcore.seeding import derive
from simcore.systems.scorable.match import start
from simcore.systems.scorable.registry import SYSTEM
from simcore.systems.scorable.study import ScorableConfig


def render_run(events) -> str:
    """A session turn by turn: deal, words, signals read, the estimate of the speaker."""
    events = list(events)
    if not events:
        return ""
    run = events[0].run
    lines = [f"== {run} =="]
    for ev in events:
        if ev.phase == "result":
            h = ev.hidden
            lines.append(f"RESULT  {ev.text}")
            lines.append(f"        accepted by: {', '.join(h.get('accepted_by', []))}; "
                         f"FAR={int(bool(h.get('FAR')))} PAR={int(bool(h.get('PAR')))} LAR={int(bool(h.get('LAR')))}")
            if h.get("mse"):
                lines.append("        p1's final MSE: " + "  ".join(f"{k} {v:.1f}" for k, v in h["mse"].items()))
            continue
        deal = " ".join(ev.intent.get("deal", []))
        h = ev.hidden
        extra = []
        if "aspiration" in h:
            extra.append(f"aspiration {h['aspiration']:.1f}")
        if "own_score" in h:
            extra.append(f"own score {h['own_score']:g}")
        if "predicted_accept" in h:
            extra.append(f"predicts {h['predicted_accept']} accept{'' if h.get('predicted_veto_ok') else ', veto missing'}")
        lines.append(f"[{ev.round:2d}] {ev.speaker:8s} {ev.phase:5s} {deal}" + (f"   ({'; '.join(extra)})" if extra else ""))
        lines.append(f"     \"{ev.text}\"")
        sigs = (ev.cues or {}).get("signals", [])
        if sigs:
            lines.append("     read: " + "; ".join(f"{s['stance']} {s['target']}" for s in sigs))
        est = h.get("estimate_of_speaker")
        if est:
            for desc, p in est.get("top", []):
                lines.append(f"     top hypothesis about {ev.speaker}: {desc}  p={p:.3g}")
            if "table" in est:
                lines.append(f"     LLM-PE table for {ev.speaker}: " +
                             "  ".join(f"{k}{v}" for k, v in est["table"].items()))
        if h.get("mse"):
            lines.append("     MSE now: " + "  ".join(f"{k} {v:.1f}" for k, v in h["mse"].items()))
    return "\n".join(lines)


def _playthrough(method: str, seed: int) -> str:
    cfg = ScorableConfig()
    res = start(load_game("harbour-sport-park"), method, derive(seed, SYSTEM, "playthrough"), settings=cfg.settings(),
                backend=cfg.make_backend(), run_id=f"{SYSTEM}/playthrough/{method}/s{seed}").run()
    return render_run(res.events) + "\n"


PLAYTHROUGHS = {
    "proposed-all": lambda: _playthrough("proposed-all", 0),
    "base-om-p1": lambda: _playthrough("base-om-p1", 0),
    "llm-pe-p1": lambda: _playthrough("llm-pe-p1", 0),
}
