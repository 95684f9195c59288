"""A rule-based pairwise judge for two transcripts of the same group (MIND Table 4).

The paper asks an LLM judge to compare Plan A and Plan B on five criteria (its Table
E16).  simcore scores each criterion from countable evidence and declares the higher
score the winner of that criterion (equal scores: a tie); the overall winner is the
side that wins more criteria.

| criterion (E16) | evidence counted for one transcript |
|---|---|
| Negotiation Rationality | items whose final value is held by a highest-w agent of the item |
| Preference Alignment | S_total of the group: sum_i sum_c w_ic 1(v_ic = V_c) |
| Reason-Value Validity | share of messages that quote the value they argue for and give a reason |
| Opinion Change Justification | share of moves (proposer Phase-3 turns, voter turns from round 2 on) whose words give a reason that fits the move: giving ground needs a reason about others or indifference (urgency, majority, signal, balance, indifferent), holding needs one about one's own stake (defend, preference, balance); no move at all scores 1 |
| Fluency & Naturalness | variety of wording: distinct word trigrams / all word trigrams over the group's messages |

Evidence is read from the transcript text with the travel reader (the words), and
from the item outcomes (values, w and final values), never from a variant's name.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from mockllm.travel import REASON_TEXT, read
from simcore.errors import ParseError

_CLAUSES = tuple(c for kind, cs in REASON_TEXT.items() for c in cs if c)


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

CRITERIA = ("rationality", "alignment", "reason_validity", "change_justification", "fluency")


def evidence(items: Sequence[Mapping], texts: Sequence[str]) -> dict:
    top_hits = sum(any(v == it["final"] and w == max(it["ws"]) for v, w in zip(it["values"], it["ws"]))
                   for it in items)
    s_total = sum(w * (v == it["final"]) for it in items for v, w in zip(it["values"], it["ws"]))
    valid = sum(_valid(t) for t in texts)
    changes = sum(it.get("moves", 0) for it in items)
    explained = sum(it.get("justified_moves", 0) for it in items)
    grams: list[tuple[str, ...]] = []
    for t in texts:
        words = t.lower().split()
        grams.extend(zip(words, words[1:], words[2:]))
    return {
        "rationality": float(top_hits),
        "alignment": float(s_total),
        "reason_validity": valid / len(texts) if texts else 0.0,
        "change_justification": explained / changes if changes else 1.0,
        "fluency": len(set(grams)) / len(grams) if grams else 0.0,
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
