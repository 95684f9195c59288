"""A rule-based pairwise judge for two transcripts of the same group (MIND Table 4).

The paper asks an LLM judge to compare Plan A and Plan B on five criteria (its Table
E16).  simcore scores each criterion from countable evidence and declares the higher
score the winner of that criterion (equal scores: a tie); the overall winner is the
side that wins more criteria.

| criterion (E16) | evidence counted for one transcript |
|---|---|
| Negotiation Rationality | among the items settled by debate (not by the fallback, which picks the highest-w value by construction), the share whose final value is held by a highest-w member; 0 when no item was settled by debate |
| Preference Alignment | S_total of the group: sum_i sum_c w_ic 1(v_ic = V_c) |
| Reason-Value Validity | share of messages that quote the value they argue for and give a reason |
| Opinion Change Justification | share of moves (proposer Phase-3 turns; voter turns from round 2 on) whose words give a reason that fits the move: giving ground (a proposer changing its proposal; a voter agreeing to a value that is neither its own nor its last offer) needs a reason about others or indifference (urgency, majority, signal, balance, indifferent), holding needs one about its own stake (defend, preference, balance); no move at all scores 1 |
| Fluency & Naturalness | variety of wording: the moving-average type-token ratio (MATTR) of the group's messages over windows of 50 words |

Everything but the outcome criteria is read from the transcript: the public record
(Phase-1 proposals, votes, revised values, updates) and the words, read back with the
travel reader -- never from a variant's name or a policy's private labels.  Under the
rule-based policies both variants always give fitting, quoted reasons, so criteria 3
and 4 tie; they can separate variants only with a real model.  Fluency favours the
variants that speak with tone, whose templates have three phrasings per willingness
level against one plain verb per act for the others.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from mockllm.travel import REASON_TEXT, read
from simcore.errors import ParseError
from simcore.transcript import Event

CRITERIA = ("rationality", "alignment", "reason_validity", "change_justification", "fluency")
CHANGE_REASONS = ("urgency", "majority", "signal", "balance", "indifferent")
HOLD_REASONS = ("defend", "preference", "balance")
MATTR_WINDOW = 50

_CLAUSES = tuple(c for cs in REASON_TEXT.values() for c in cs if c)


def _reason(text: str) -> str | None:
    try:
        return read(text).reason
    except ParseError:
        return None


def _valid(text: str) -> bool:
    """The message quotes the value(s) it argues for and gives a reason.  A Phase-1
    message (one line per item) is valid when every item line quotes its value and the
    message gives a reason once."""
    if "\n" in text:
        lines = [ln for ln in text.split("\n") if ln.startswith("- ")]
        return bool(lines) and all(ln.count('"') >= 2 for ln in lines) and any(c in text for c in _CLAUSES)
    try:
        u = read(text)
    except ParseError:
        return False
    return bool(u.value) and u.reason != "none" and f'"{u.value}"' in text


def _moves(events: Sequence[Event]) -> tuple[int, int]:
    """(moves, moves whose words give a fitting reason), from the public record and words."""
    own: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    last_offer: dict[tuple[str, str], str | None] = {}
    moves = fitting = 0
    for e in events:
        if e.phase == "1-propose":
            own[e.speaker] = dict(e.intent.get("proposals", {}))
        elif e.phase == "1-pick":
            current[e.item] = e.intent["proposal"]
        elif e.phase == "2-vote":
            key = (e.speaker, e.item)
            if e.round > 1:
                proposal = current[e.item]
                gives_ground = (e.intent["vote"] == "AGREE"
                                and proposal not in (own.get(e.speaker, {}).get(e.item), last_offer.get(key)))
                moves += 1
                fitting += _reason(e.text) in (CHANGE_REASONS if gives_ground else HOLD_REASONS)
            last_offer[key] = e.intent.get("revised_value")
        elif e.phase == "3-update":
            changed = e.intent["value"] != current[e.item]
            moves += 1
            fitting += _reason(e.text) in (CHANGE_REASONS if changed else HOLD_REASONS)
            current[e.item] = e.intent["value"]
    return moves, fitting


def mattr(texts: Sequence[str], window: int = MATTR_WINDOW) -> float:
    """Moving-average type-token ratio of the words of ``texts`` (all words if fewer).

    Computed in O(n): a word at position i counts as a distinct type in every window
    that starts after its previous occurrence and still contains it."""
    words = [w for t in texts for w in t.lower().split()]
    n = len(words)
    if n == 0:
        return 0.0
    if n <= window:
        return len(set(words)) / n
    last: dict[str, int] = {}
    total = 0
    starts = n - window  # windows start at 0..starts
    for i, w in enumerate(words):
        lo = last.get(w, -1) + 1  # first window start after the previous occurrence ...
        if i - window + 1 > lo:
            lo = i - window + 1  # ... that still contains position i
        hi = i if i < starts else starts
        if hi >= lo:
            total += hi - lo + 1
        last[w] = i
    return total / (window * (starts + 1))


def evidence(items: Sequence[Mapping], events: Sequence[Event]) -> dict:
    debated = [it for it in items if it["consensus"]]
    top_hits = sum(any(v == it["final"] and w == max(it["ws"]) for v, w in zip(it["values"], it["ws"]))
                   for it in debated)
    s_total = sum(w * (v == it["final"]) for it in items for v, w in zip(it["values"], it["ws"]))
    texts = [e.text for e in events if e.text]
    moves, fitting = _moves(events)
    return {
        "rationality": top_hits / len(debated) if debated else 0.0,
        "alignment": float(s_total),
        "reason_validity": sum(_valid(t) for t in texts) / len(texts) if texts else 0.0,
        "change_justification": fitting / moves if moves else 1.0,
        "fluency": mattr(texts),
    }


def compare(a: Mapping[str, float], b: Mapping[str, float]) -> dict:
    """Per criterion 'A', 'B' or 'tie', and the overall verdict."""
    out = {}
    a_wins = b_wins = 0
    for c in CRITERIA:
        if a[c] > b[c]:
            out[c] = "A"
            a_wins += 1
        elif b[c] > a[c]:
            out[c] = "B"
            b_wins += 1
        else:
            out[c] = "tie"
    out["overall"] = "A" if a_wins > b_wins else "B" if b_wins > a_wins else "tie"
    return out


def win_rates(verdicts: Sequence[Mapping[str, str]]) -> dict:
    """Shares of A wins, ties and B wins per criterion (A = the first plan)."""
    out = {}
    n = len(verdicts)
    for c in CRITERIA + ("overall",):
        if n == 0:
            out[c] = {"win": None, "tie": None, "loss": None}
            continue
        out[c] = {"win": sum(v[c] == "A" for v in verdicts) / n,
                  "tie": sum(v[c] == "tie" for v in verdicts) / n,
                  "loss": sum(v[c] == "B" for v in verdicts) / n}
    out["n"] = n
    return out
