"""The dominance renderings: a dialogue turn by turn (``simcore show``, ``simcore playthroughs``)
and the golden playthroughs (``tests/playthroughs/dominance-*.txt``)."""

from __future__ import annotations

from policies.dominance import ScriptedUser
from policies.dominance_state import total_order
from scenarios.restaurants import load_domain
from simcore import seeding
from simcore.systems.dominance.match import play_dialogue, start
from simcore.systems.dominance.registry import SYSTEM


def render_run(events) -> str:
    events = list(events)
    if not events:
        return ""
    lines = [f"== {events[0].run}"]
    for ev in events:
        if ev.phase == "end":
            i = ev.intent
            tail = f": {i.get('booked')} (booked by {i.get('booked_by')})" if i.get("booked") else ""
            lines.append(f"-- {i.get('outcome')} after {i.get('turns')} turns{tail}")
            continue
        rel = ev.hidden.get("relation", "")
        lines.append(f"{ev.round:>2} {ev.speaker} ({rel}): {ev.text}")
        lines.append(f"     [{ev.hidden.get('figure')} / {ev.hidden.get('rule')}] {ev.hidden.get('why', '')}".rstrip())
    return "\n".join(lines)


def _fixed_prefs(domain, orders):
    return {c.name: total_order(c.name, orders[c.name], c.values) for c in domain.criteria}


_SMALL_A = {"cuisine": ["Italian", "French", "Japanese", "Chinese", "Turkish"], "cost": ["cheap", "expensive"],
            "ambiance": ["calm", "noisy"]}
_SMALL_B = {"cuisine": ["Japanese", "Chinese", "Italian", "French", "Turkish"], "cost": ["cheap", "expensive"],
            "ambiance": ["noisy", "calm"]}


def _playthrough(agent_rel, user_rel, agent_opens=True):
    def build():
        domain = load_domain("restaurants-small-v1")
        seq = seeding.derive(0, SYSTEM, "playthrough", agent_rel, user_rel)
        result, _a, _s = play_dialogue(domain, agent_rel, user_rel, _fixed_prefs(domain, _SMALL_A),
                                       _fixed_prefs(domain, _SMALL_B), rng_agent=seeding.child(seq, "agent"),
                                       rng_user=seeding.child(seq, "user"), agent_opens=agent_opens,
                                       run_id=f"{SYSTEM}/playthrough/{agent_rel}__{user_rel}")
        return render_run(result.events) + "\n"

    return build


def _scripted_playthrough():
    """A peer agent and a scripted user, who opens; the script's lines are read by the user's
    seat like any words."""
    domain = load_domain("restaurants-small-v1")
    seq = seeding.derive(0, SYSTEM, "playthrough", "scripted")
    user = ScriptedUser(["What cuisine do you like?", "I'd rather have Japanese than French", "How about Italian?",
                         "I'd rather have cheap than expensive", "ok", "no", "let's go to Trattoria Roma"])
    match = start(domain, {"agent": "peer", "user": user}, prefs={"agent": _fixed_prefs(domain, _SMALL_A)},
                  rngs={"agent": seeding.child(seq, "agent"), "user": seeding.child(seq, "user")}, first="user",
                  run_id=f"{SYSTEM}/playthrough/scripted")
    result, _agents, _stats = match.run()
    return render_run(result.events) + "\n"


PLAYTHROUGHS = {
    "dominant-vs-submissive": _playthrough("dominant", "submissive"),
    "peer-vs-peer": _playthrough("peer", "peer", agent_opens=False),
    "submissive-vs-dominant": _playthrough("submissive", "dominant"),
    "scripted-user": _scripted_playthrough,
}
