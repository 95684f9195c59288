"""Counting the dominance behaviours in a dialogue, and pooling them over a study.

Per dialogue and side (``agent`` / ``user``), from the utterances in order:

================  ================================================================
count             definition
================  ================================================================
proposals         Propose utterances (values and options)
asks              AskPreference utterances
states            StatePreference utterances
accepts           Accept utterances, plus a Booking said in reply to the other's
                  Propose (accepting an option proposal closes with Booking, Fig. 5)
rejects           Reject utterances
concessions       Accept / accepting Booking / Propose of something the speaker ranks
                  below its own best: a value v with score(v) < bestScore(c), or an
                  option with utility below the speaker's best option's utility
leads             utterances that direct the negotiation toward the speaker's own
                  preferences, in the seed's words: a Propose of a value the speaker
                  put forward first, or of an option the speaker is the first to
                  propose that holds such a value -- Fig. 6 "he directs the negotiation
                  ... by proposing his most preferred value", sec. 5.1 "A dominant
                  agent leads the negotiation and keeps on proposing values", Fig. 8
                  "proposing other proposals, which represent the principal of
                  controlling the flow" --, and a StatePreference that opens a new
                  subject -- Fig. 8 "he opens the negotiation by stating his
                  preferences on the new discussed criterion. By consequence, the
                  agent manages the flow".  Not leads: AskPreference (Fig. 6: the
                  submissive "considers the preferences of the user ... asks the user";
                  Fig. 7 "he assumes that his knowledge is not sufficient"), a Propose
                  of what the other put forward first (adopting its preference, Fig.
                  1) -- including an option made only of values the other put forward
                  first, such as the submissive's option of the agreed values (Fig. 6)
                  --, Accept, Reject, Booking, Quit
subject_changes   the reference notes' "leads" (who opens subjects): the first utterance and
                  every utterance whose subject (criterion, or the topic for options)
                  differs from that of the utterance it answers (Booking and Quit
                  excluded) -- questions included
forwarded         of the booked option's values, how many this side put forward first
                  (proposed the value, stated it as the preferred one, or proposed an
                  option holding it, before the other did)
proposed_booked   1 when this side was the first to propose the booked option
================  ================================================================

The four observer-rated behaviours of the original study as counted here:

* H1 self-centred  = (proposals + states) / (proposals + states + asks); beside it
  ``proposal_share`` = proposals / (proposals + asks), the notes' own counterpart ("share
  of proposals vs questions").  Counting a StatePreference with the proposals is simcore's
  choice: a stated preference voices one's own preferences, as a proposal does (Fig. 6: the
  peer opens "by expressing his preferences"), where a question defers to the other's
* H2 concessions   = concessions per dialogue
* H3 demanding     = 1 - accepts / proposals received from the other side
* H4 lead          = leads / (leads of both sides); ``subject_change_share`` is the same
  ratio for ``subject_changes`` (the pre-issue-10 count, reported beside it)

Whose preferences steer the outcome (over booked dialogues): ``forwarded_share`` =
forwarded / values of the booked options; ``booked_proposer_share`` = proposed_booked /
booked dialogues.

Satisfaction of a side with a booked option = (u - u_min) / (u_max - u_min), its own
option utility min-max normalised over the domain; averaged over booked dialogues.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from simcore.protocols.dialogue import Accept, AskPreference, Booking, Propose, Quit, Reject, StatePreference, subject

COUNTS = ("proposals", "asks", "states", "accepts", "rejects", "concessions", "leads", "subject_changes",
          "forwarded", "proposed_booked")
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
    domain = next(iter(agents.values())).domain
    first_value: dict = {}    # (criterion, value) -> side that put it forward first
    first_option: dict = {}   # option name -> side that proposed it first
    booked = None
    prev = None
    for speaker, utt, _dec in utterances:
        row = out[speaker]
        opens = prev is None or subject(utt, topic) != subject(prev[1], topic)
        if isinstance(utt, Propose):
            row["proposals"] += 1
            for s in agents:
                if s != speaker:
                    received[s] += 1
            p = utt.proposal
            if p.type == topic:
                # an option leads when the speaker is the first to propose it and it holds a value
                # the speaker put forward first (a value no one named before counts as put forward
                # now); an option made only of values the other put forward first adopts them
                own = [first_value.setdefault(cv, speaker) == speaker
                       for cv in zip(domain.criterion_names, domain.option(p.value).values)]
                row["leads"] += first_option.setdefault(p.value, speaker) == speaker and any(own)
            else:
                row["leads"] += first_value.setdefault((p.type, p.value), speaker) == speaker
        elif isinstance(utt, AskPreference):
            row["asks"] += 1
        elif isinstance(utt, StatePreference):
            row["states"] += 1
            row["leads"] += opens
            if utt.more is not None:
                first_value.setdefault((utt.criterion, utt.more), speaker)
        elif isinstance(utt, Reject):
            row["rejects"] += 1
        elif isinstance(utt, Booking):
            booked = utt.option
        accepting = isinstance(utt, Accept) or (isinstance(utt, Booking) and prev is not None
                                                 and isinstance(prev[1], Propose) and prev[0] != speaker)
        if accepting:
            row["accepts"] += 1
        if (accepting or isinstance(utt, Propose)) and _is_concession(agents[speaker], utt):
            row["concessions"] += 1
        if not isinstance(utt, (Booking, Quit)) and opens:
            row["subject_changes"] += 1
        prev = (speaker, utt)
    if booked is not None:
        for cv in zip(domain.criterion_names, domain.option(booked).values):
            who = first_value.get(cv)
            if who is not None:
                out[who]["forwarded"] += 1
        if first_option.get(booked) is not None:
            out[first_option[booked]]["proposed_booked"] = 1
    for s in agents:
        out[s]["received"] = received[s]
        out[s]["booked_values"] = len(domain.criterion_names) if booked is not None else 0
        out[s]["booked"] = int(booked is not None)
    return out


def dialogue_record(result, agents: Mapping[str, Any], topic: str) -> dict:
    counts = count_dialogue(result.utterances, agents, topic)
    sat = {s: (agents[s].judge.normalised(result.booked) if result.booked else None) for s in agents}
    last = result.utterances[-1][2] if result.utterances else None
    exit_rule = last.rule if result.outcome in ("dead-end", "stalled") and last is not None else None
    return {"outcome": result.outcome, "exit": exit_rule, "turns": result.turns, "booked": result.booked,
            "booked_by": result.booked_by, "satisfaction": sat, "counts": counts,
            "readings": [result.readings, result.readings_right]}


def _mean(xs: Iterable[float]):
    xs = list(xs)
    return (sum(xs) / len(xs)) if xs else None


def behaviours(counts: Sequence[Mapping[str, int]], other_counts: Sequence[Mapping[str, int]]) -> dict:
    """H1-H4 and the steering shares, pooled over dialogues (ratios of sums)."""
    keys = COUNTS + ("received", "booked_values", "booked")
    tot = {k: sum(c.get(k, 0) for c in counts) for k in keys}
    talk = tot["proposals"] + tot["states"] + tot["asks"]
    lead_all = tot["leads"] + sum(c["leads"] for c in other_counts)
    change_all = tot["subject_changes"] + sum(c["subject_changes"] for c in other_counts)
    return {
        "self_centred": (tot["proposals"] + tot["states"]) / talk if talk else None,
        "proposal_share": (tot["proposals"] / (tot["proposals"] + tot["asks"])
                           if tot["proposals"] + tot["asks"] else None),
        "concessions_per_dialogue": tot["concessions"] / len(counts) if counts else None,
        "demanding": 1 - tot["accepts"] / tot["received"] if tot["received"] else None,
        "lead_share": tot["leads"] / lead_all if lead_all else None,
        "subject_change_share": tot["subject_changes"] / change_all if change_all else None,
        "forwarded_share": tot["forwarded"] / tot["booked_values"] if tot["booked_values"] else None,
        "booked_proposer_share": tot["proposed_booked"] / tot["booked"] if tot["booked"] else None,
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
                     for k in ("booked", "dead-end", "stalled", "turn-limit", "unreadable")},
        "exits": {k: sum(1 for r in records if r.get("exit") == k) / n if n else None
                  for k in sorted({r["exit"] for r in records if r.get("exit")})},
    }
    made = sum(r.get("readings", (0, 0))[0] for r in records)
    # of the listeners' accepted readings, the share that were exactly what the speaker said (the
    # protocol knows both): 1.0 with the exact mock, what a real reader gets right otherwise
    out["readings"] = int(made)
    out["reading_accuracy"] = (sum(r.get("readings", (0, 0))[1] for r in records) / made) if made else None
    for side in SIDES:
        other = "user" if side == "agent" else "agent"
        cs = [r["counts"][side] for r in records]
        row = {k: _mean(c[k] for c in cs) for k in COUNTS}
        row.update(behaviours(cs, [r["counts"][other] for r in records]))
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
            others.extend(r["counts"][other] for r in recs)
    return behaviours(cs, others) if cs else {}


def pool_relation_vs(records_by_pair: Mapping[tuple, Sequence[Mapping[str, Any]]], relation: str,
                     partner: str) -> dict:
    """H4 of every side played with ``relation`` against a side played with ``partner`` (both
    roles): ``leads_own_values`` (``lead_share``) and ``opens_subjects``
    (``subject_change_share``).  A share whose two sides never lead (or never open a subject) is
    undefined: ``None``, never 0."""
    cs, others = [], []
    for (agent_rel, user_rel), recs in records_by_pair.items():
        for side, rel, other_rel in (("agent", agent_rel, user_rel), ("user", user_rel, agent_rel)):
            if rel != relation or other_rel != partner:
                continue
            other = "user" if side == "agent" else "agent"
            cs.extend(r["counts"][side] for r in recs)
            others.extend(r["counts"][other] for r in recs)
    if not cs:
        return {}
    b = behaviours(cs, others)
    return {"leads_own_values": b["lead_share"], "opens_subjects": b["subject_change_share"]}
