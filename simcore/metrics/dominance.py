"""Counting the dominance behaviours in a dialogue, and pooling them over a study.

Per dialogue and side (``agent`` / ``user``), from the utterances in order:

==============  ==================================================================
count           definition
==============  ==================================================================
proposals       Propose utterances (values and options)
asks            AskPreference utterances
states          StatePreference utterances
accepts         Accept utterances, plus a Booking said in reply to the other's
                Propose (accepting an option proposal closes with Booking, Fig. 5)
rejects         Reject utterances
concessions     Accept / accepting Booking / Propose of something the speaker ranks
                below its own best: a value v with score(v) < bestScore(c), or an
                option with utility below the speaker's best option's utility
leads           utterances that open a (sub-)negotiation: the first utterance of the
                dialogue, or one whose subject (criterion, or the topic for options)
                differs from the subject of the utterance it answers (Booking and
                Quit excluded)
==============  ==================================================================

The four observer-rated behaviours of the original study as counted here:

* H1 self-centred  = (proposals + states) / (proposals + states + asks)
* H2 concessions   = concessions per dialogue
* H3 demanding     = 1 - accepts / proposals received from the other side
* H4 lead          = leads / (leads of both sides)

Satisfaction of a side with a booked option = (u - u_min) / (u_max - u_min), its own
option utility min-max normalised over the domain; averaged over booked dialogues.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from simcore.protocols.dialogue import Accept, AskPreference, Booking, Propose, Quit, Reject, StatePreference, subject

COUNTS = ("proposals", "asks", "states", "accepts", "rejects", "concessions", "leads")
SIDES = ("agent", "user")


def _is_concession(agent, utt) -> bool:
    if isinstance(utt, Booking):
        return agent.judge.utility[utt.option] < agent.judge.utility[agent.judge.order[0]]
    p = utt.proposal
    if p.type == agent.topic:
        return agent.judge.utility[p.value] < agent.judge.utility[agent.judge.order[0]]
    return agent.score(p.type, p.value) < agent._best[p.type]


def count_dialogue(utterances: Sequence[tuple], agents: Mapping[str, Any], topic: str) -> dict:
    """``{side: {count: n}}`` from ``(speaker, utterance, decision)`` triples."""
    out = {s: dict.fromkeys(COUNTS, 0) for s in agents}
    received = {s: 0 for s in agents}
    prev = None
    for speaker, utt, _dec in utterances:
        row = out[speaker]
        if isinstance(utt, Propose):
            row["proposals"] += 1
            for s in agents:
                if s != speaker:
                    received[s] += 1
        elif isinstance(utt, AskPreference):
            row["asks"] += 1
        elif isinstance(utt, StatePreference):
            row["states"] += 1
        elif isinstance(utt, Reject):
            row["rejects"] += 1
        accepting = isinstance(utt, Accept) or (isinstance(utt, Booking) and prev is not None
                                                 and isinstance(prev[1], Propose) and prev[0] != speaker)
        if accepting:
            row["accepts"] += 1
        if (accepting or isinstance(utt, Propose)) and _is_concession(agents[speaker], utt):
            row["concessions"] += 1
        if not isinstance(utt, (Booking, Quit)):
            if prev is None or subject(utt, topic) != subject(prev[1], topic):
                row["leads"] += 1
        prev = (speaker, utt)
    for s in agents:
        out[s]["received"] = received[s]
    return out


def dialogue_record(result, agents: Mapping[str, Any], topic: str) -> dict:
    counts = count_dialogue(result.utterances, agents, topic)
    sat = {s: (agents[s].judge.normalised(result.booked) if result.booked else None) for s in agents}
    return {"outcome": result.outcome, "turns": result.turns, "booked": result.booked,
            "booked_by": result.booked_by, "satisfaction": sat, "counts": counts}


def _mean(xs: Iterable[float]):
    xs = list(xs)
    return (sum(xs) / len(xs)) if xs else None


def behaviours(counts: Sequence[Mapping[str, int]], other_leads: Sequence[int]) -> dict:
    """H1-H4 pooled over dialogues (ratios of sums)."""
    tot = {k: sum(c[k] for c in counts) for k in COUNTS + ("received",)}
    talk = tot["proposals"] + tot["states"] + tot["asks"]
    lead_all = tot["leads"] + sum(other_leads)
    return {
        "self_centred": (tot["proposals"] + tot["states"]) / talk if talk else None,
        "concessions_per_dialogue": tot["concessions"] / len(counts) if counts else None,
        "demanding": 1 - tot["accepts"] / tot["received"] if tot["received"] else None,
        "lead_share": tot["leads"] / lead_all if lead_all else None,
    }


def pool_pair(records: Sequence[Mapping[str, Any]]) -> dict:
    """The metrics.json entry for one agent__user pair."""
    n = len(records)
    booked = [r for r in records if r["outcome"] == "booked"]
    out: dict[str, Any] = {
        "dialogues": n,
        "success_rate": len(booked) / n if n else None,
        "mean_turns": _mean(r["turns"] for r in records),
        "agent_satisfaction": _mean(r["satisfaction"]["agent"] for r in booked),
        "user_satisfaction": _mean(r["satisfaction"]["user"] for r in booked),
        "outcomes": {k: sum(1 for r in records if r["outcome"] == k) / n if n else None
                     for k in ("booked", "dead-end", "turn-limit", "unreadable")},
    }
    for side in SIDES:
        other = "user" if side == "agent" else "agent"
        cs = [r["counts"][side] for r in records]
        row = {k: _mean(c[k] for c in cs) for k in COUNTS}
        row.update(behaviours(cs, [r["counts"][other]["leads"] for r in records]))
        out[side] = row
    return out


def pool_relation(records_by_pair: Mapping[tuple, Sequence[Mapping[str, Any]]], relation: str) -> dict:
    """H1-H4 of every side played with ``relation``, over all pairs and both roles."""
    cs, others = [], []
    for (agent_rel, user_rel), recs in records_by_pair.items():
        for side, rel in (("agent", agent_rel), ("user", user_rel)):
            if rel != relation:
                continue
            other = "user" if side == "agent" else "agent"
            cs.extend(r["counts"][side] for r in recs)
            others.extend(r["counts"][other]["leads"] for r in recs)
    return behaviours(cs, others) if cs else {}
