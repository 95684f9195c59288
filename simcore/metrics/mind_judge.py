"""A rule-based pairwise judge for two transcripts of the same group (MIND Table 4).

Two judges.  The default, :func:`blind_evidence` (``judge="blind"``), is blind and
symmetric: it sees only what E17 gives the paper's judge -- the version label (which it
ignores), the final constraints and the conversation -- and computes every criterion
with one test applied identically to both plans.  Importance is only what a member's
words state (the tone level its Phase-1 line reads as; none for a variant that speaks
without tone), never its hidden alpha.  :func:`evidence` (``judge="v1"`` or ``"v2"``) also
reads each member's value and alpha; v2 also knows the reasons B3-B4 give Base (compromise:
an AGREE to a value not one's own; support: as in the blind table), which v1 marks false.

A criterion on which a plan has nothing checkable (the blind evidence is None: no stated
stake for Rationality or Alignment, no checkable reason for Reason-Value Validity or Opinion
Change, no words for Fluency) is :data:`NOT_COMPARABLE` for the group: neither plan wins it,
no coin is drawn, :func:`win_rates` counts it apart, and the overall winner is the side that
won more of the comparable criteria.

| criterion (E16) | blind evidence for one plan | restates |
|---|---|---|
| Negotiation Rationality | among the items settled by debate, the share whose final value is the Phase-1 value of a member whose Phase-1 words stated the highest stake on the item (items where no one stated a stake are left out; none left: not comparable) | Table 1's DHR, with stated stake for the hidden w |
| Preference Alignment | member-items whose Phase-1 value is the final value, weighted by the stake the Phase-1 words stated (1 when none; no stake stated at all: not comparable) | Table 1's F / S_total, with stated stake for the hidden w |
| Reason-Value Validity | share of votes and proposer turns that quote the value they act on and whose reason is consistent with the conversation (table below) | - |
| Opinion Change Justification | as in the v1 judge (below), with the blind reason test | - |
| Fluency & Naturalness | MATTR of the messages: with the mock this measures the variety of the templates a variant is worded with, not anything a policy decides | - |

A blind reason test (``stake(x)``: the level x's latest words on the item state -- for
the speaker, the message being judged -- falling back to its Phase-1 line, None when
none states one; "the others": the proposer for a voter, this round's dissenters
for a proposer; ``initial``: the speaker's Phase-1 value):

| reason | consistent when |
|---|---|
| preference | the value is the speaker's Phase-1 value |
| defend | the value is the speaker's Phase-1 value and its stake is not stated below 7 |
| urgency | one of the others stated a higher stake than the speaker did |
| signal | one of the others stated a stake of 7 or more |
| majority | a proposer, and more than half of the voters dissented |
| balance | as in the v1 judge (positions in play, read from the conversation) |
| indifferent | the speaker's stake is not stated above 3 |
| compromise | an AGREE to a proposal that is not the speaker's Phase-1 value |
| support | a proposer keeping a proposal more voters agreed to than backed any one other value |
| none | never |

Equal evidence is settled by a coin that picks a *plan*, not a position: the coin says
whether the plan with the smaller digest of its conversation wins, so swapping A and B
swaps every verdict exactly; two identical conversations get a positional coin.

The paper asks an LLM judge to compare Plan A and Plan B on five criteria (Table E16)
and to "decide who wins (A or B)" on each, then the overall winner.  simcore scores each
criterion from evidence that can go either way, gives the criterion to the higher
score, and -- since E16 asks for A or B, never a draw -- settles equal scores with a
fair coin from the generator passed in; each verdict records which criteria the coin
decided.  The overall winner is the side that wins more of the five criteria (never
a draw); it "depends on the coin" when neither side won three criteria outright.

The judge knows what E16 needs it to know: the conversation, the final constraints and
each member's value and alpha (criteria 1-2 ask whether "high-alpha agents' opinions"
were reflected); it never sees a policy's private strategy labels or a variant's name.

| criterion (E16) | evidence counted for one transcript |
|---|---|
| Negotiation Rationality | among the items settled by debate (not by the fallback, which picks the highest-w value by construction), the share whose final value is held by a highest-w member; 0 when no item was settled by debate |
| Preference Alignment | S_total of the group: sum_i sum_c w_ic 1(v_ic = V_c) |
| Reason-Value Validity | share of Phase-2/3 messages (votes, proposer updates) that quote the value they act on and whose stated reason is true of the speaker and the move (table below) |
| Opinion Change Justification | share of moves (proposer Phase-3 turns; voter turns from round 2 on) whose reason is of the kind the move needs and is true: giving ground (a proposer changing its proposal; a voter agreeing to a value that is neither its own nor its last offer) needs a reason about the others or indifference (urgency, majority, signal, balance, indifferent), holding one about its own stake (defend, preference, balance); no move at all scores 1 |
| Fluency & Naturalness | variety of wording: the moving-average type-token ratio (MATTR) of the group's messages over windows of 50 words |

When a stated reason is true (``w`` the speaker's alpha on the item; "the others" are
the proposer for a voter, the last round's dissenters for a proposer):

| reason (words read back) | true when | source |
|---|---|---|
| preference ("suits how I travel") | the value is the speaker's own | E16 3 "does the stated reason actually justify the proposed value" |
| defend ("too important to drop") | the value is its own and w >= 7 | B5 bands: 7-8 "Strong preference", 9-10 "Deal-breaker" |
| urgency ("matters more to you") | one of the others has a higher w | B7 yield "opponent's urgency ... higher than yours" |
| signal ("the group sounds firm") | one of the others has w >= 7 and above the speaker's | B9 "dissenters use Strict/Firm language"; B5 bands |
| majority ("most of the group disagreed") | a proposer, and more than half of the voters dissented | B9 "majority disagreement (>50%)"; a voter has seen no count of this round's votes |
| balance ("a middle ground") | the value lies between the positions in play (ordinal scale, inclusive) and differs from the proposal it answers; nominal: it is one of those positions | B8/B9 "middle ground"; D13 calls the voters' own adjacent value "a fair compromise" |
| indifferent ("matters little to me") | w <= 3 | B5 "1-3: Neutral (Indifferent ...)" |
| none | never | E16 3 asks for a reason |
"""

from __future__ import annotations

import hashlib
from typing import Mapping, Sequence

import numpy as np

from mockllm.travel import read, read as read_text
from scenarios.travel import ITEMS, ITEMS as CATALOGUE
from simcore.errors import ParseError
from simcore.transcript import Event

CRITERIA = ("rationality", "alignment", "reason_validity", "change_justification", "fluency")
#: what each criterion's evidence is, for the tables (restatements of Table 1 said so)
CRITERION_NOTES = {
    "rationality": "restates DHR (stated stake for w)",
    "alignment": "restates F / S_total (stated stake for w)",
    "reason_validity": "",
    "change_justification": "",
    "fluency": "the mock's template variety",
}
CHANGE_REASONS = ("urgency", "majority", "signal", "balance", "indifferent", "compromise")
HOLD_REASONS = ("defend", "preference", "balance", "support")
JUDGES = ("blind", "v1", "v2")
#: a criterion on which a plan has nothing checkable in a group: neither plan wins it (E16's A or B
#: is asked only of what both plans give the judge something to check); counted apart in the tables
NOT_COMPARABLE = "not comparable"
#: which criteria decide the overall winner (E16: "For each of the 5 criteria, decide who wins (A or B),
#: then give the final overall winner" -- how the five add up is the judge's own)
OVERALL = {"all": CRITERIA, "no-fluency": CRITERIA[:4], "outcome": ("rationality", "alignment"),
           "process": ("reason_validity", "change_justification", "fluency")}
MATTR_WINDOW = 50


def _between(item_key: str, value: str, answered: str, positions: Sequence[str]) -> bool:
    """``value`` is a middle ground answering ``answered`` among ``positions``."""
    if value == answered:
        return False
    item = ITEMS.get(item_key)
    pool = [answered, *positions]
    if item is not None and item.ordinal and value in item.scale and all(p in item.scale for p in pool):
        idx = [item.scale.index(p) for p in pool]
        return min(idx) <= item.scale.index(value) <= max(idx)
    return value in positions


def reason_true(reason: str, *, w: int, own: str, value: str, answered: str, positions: Sequence[str],
                others_w: Sequence[int], proposer: bool, dissent: int, voters: int, item: str,
                agree: bool = False, top_revised: int = 0, judge: str = "v1") -> bool:
    """Whether a stated reason is true of the speaker and its move (table in the module doc);
    ``judge="v2"`` also knows the reasons B3-B4 give Base (compromise, support)."""
    if judge == "v2" and reason == "compromise":
        return agree and not proposer and value == answered and value != own
    if judge == "v2" and reason == "support":
        return proposer and value == answered and voters - dissent > top_revised
    if reason == "preference":
        return value == own
    if reason == "defend":
        return value == own and w >= 7
    if reason == "urgency":
        return any(o > w for o in others_w)
    if reason == "signal":
        return any(o >= 7 and o > w for o in others_w)
    if reason == "majority":
        return proposer and 2 * dissent > voters
    if reason == "balance":
        return _between(item, value, answered, positions)
    if reason == "indifferent":
        return w <= 3
    return False


def _said(text: str) -> tuple[str | None, str]:
    try:
        u = read(text)
    except ParseError:
        return None, "none"
    return u.value, u.reason


def judged_turns(events: Sequence[Event], judge: str = "v1") -> list[dict]:
    """Every vote and proposer update with what the judge decides about it: ``valid``
    (quotes its value, reason true) and, for moves, ``move`` ('change'/'hold') and
    ``fits`` (reason of the kind the move needs, and true)."""
    members: list[str] = []
    own: dict[tuple[str, str], str] = {}
    alpha: dict[tuple[str, str], int] = {}
    current: dict[str, str] = {}
    proposer_of: dict[str, str] = {}
    last_offer: dict[tuple[str, str], str | None] = {}
    votes: dict[tuple[str, int], list[tuple[str, str, str | None]]] = {}
    out = []
    for e in events:
        if e.phase == "1-propose":
            members.append(e.speaker)
        elif e.phase == "1-pick":
            current[e.item] = e.intent["proposal"]
            proposer_of[e.item] = e.intent["proposer"]
            for m, v, w in zip(members, e.hidden.get("values", ()), e.hidden.get("w", ())):
                own[(m, e.item)], alpha[(m, e.item)] = v, w
        elif e.phase in ("2-vote", "3-update"):
            key = (e.speaker, e.item)
            w, mine, answered = alpha.get(key, 0), own.get(key), current[e.item]
            voters = [m for m in members if m != proposer_of[e.item]]
            agree = False
            if e.phase == "2-vote":
                agree = e.intent["vote"] == "AGREE"
                value = answered if agree else e.intent["revised_value"]
                others = [alpha.get((proposer_of[e.item], e.item), 0)]
                ctx = dict(positions=[mine], others_w=others, proposer=False, dissent=0, voters=len(voters),
                           top_revised=0)
                move = None
                if e.round > 1:
                    gives = agree and answered not in (mine, last_offer.get(key))
                    move = "change" if gives else "hold"
                last_offer[key] = e.intent.get("revised_value")
                votes.setdefault((e.item, e.round), []).append((e.speaker, e.intent["vote"],
                                                                e.intent.get("revised_value")))
            else:
                value = e.intent["value"]
                dissenters = [(s, rv) for s, v, rv in votes.get((e.item, e.round), []) if v == "DISAGREE"]
                revised = [rv for _, rv in dissenters]
                ctx = dict(positions=revised, others_w=[alpha.get((s, e.item), 0) for s, _ in dissenters],
                           proposer=True, dissent=len(dissenters), voters=len(voters),
                           top_revised=max((revised.count(v) for v in revised), default=0))
                move = "change" if value != answered else "hold"
                current[e.item] = value
            said_value, reason = _said(e.text or "")
            true = reason_true(reason, w=w, own=mine, value=value, answered=answered, item=e.item, agree=agree,
                               judge=judge, **ctx)
            valid = said_value == value and true
            fits = None if move is None else (reason in (CHANGE_REASONS if move == "change" else HOLD_REASONS)
                                             and valid)
            out.append({"speaker": e.speaker, "item": e.item, "round": e.round, "phase": e.phase,
                        "reason": reason, "valid": valid, "move": move, "fits": fits})
    return out


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


def evidence(items: Sequence[Mapping], events: Sequence[Event], judge: str = "v1") -> dict:
    """The five criteria of one plan for the informed judge (``judge``: "v1" or "v2", module doc)."""
    debated = [it for it in items if it["consensus"]]
    top_hits = sum(any(v == it["final"] and w == max(it["ws"]) for v, w in zip(it["values"], it["ws"]))
                   for it in debated)
    s_total = sum(w * (v == it["final"]) for it in items for v, w in zip(it["values"], it["ws"]))
    texts = [e.text for e in events if e.text]
    turns = judged_turns(events, judge)
    moves = [t for t in turns if t["move"] is not None]
    return {
        "rationality": top_hits / len(debated) if debated else 0.0,
        "alignment": float(s_total),
        "reason_validity": sum(t["valid"] for t in turns) / len(turns) if turns else 0.0,
        "change_justification": sum(t["fits"] for t in moves) / len(moves) if moves else 1.0,
        "fluency": mattr(texts),
    }


def _coin(rng: np.random.Generator, key_a: str, key_b: str) -> str:
    """'A' or 'B' for a tie: a fair draw of which *plan* wins (the one with the smaller key,
    or the other), so that swapping the plans swaps the letter; equal keys: by position."""
    heads = rng.random() < 0.5
    if key_a == key_b:
        return "A" if heads else "B"
    return ("A" if key_a < key_b else "B") if heads else ("B" if key_a < key_b else "A")


def compare(a: Mapping[str, float], b: Mapping[str, float], rng: np.random.Generator,
            key_a: str = "", key_b: str = "", overall: str = "all") -> dict:
    """Per criterion 'A' or 'B' (equal scores: a fair coin, :func:`_coin`), the overall
    winner, the criteria the coin decided (``tie_break``), whether the overall winner
    depends on the coin (``overall_tie_break``: neither side won three criteria outright),
    and the overall winner of the four criteria without fluency (``overall_no_fluency``;
    a 2-2 split by the coin).  ``key_a``/``key_b`` name the plans for the coin (digests of
    their conversations); without them the coin picks a position.  ``overall`` (a key of
    :data:`OVERALL`) names the criteria whose majority is the overall winner (an even
    split by the coin)."""
    return settle(letters(a, b), rng, key_a, key_b, overall)


def letters(a: Mapping[str, float | None], b: Mapping[str, float | None]) -> dict:
    """Per criterion the plan with the higher evidence, ``'A'`` or ``'B'``; None when equal;
    :data:`NOT_COMPARABLE` when either plan's evidence is None (nothing checkable)."""
    out: dict = {}
    for c in CRITERIA:
        if a[c] is None or b[c] is None:
            out[c] = NOT_COMPARABLE
        else:
            out[c] = None if a[c] == b[c] else ("A" if a[c] > b[c] else "B")
    return out


def settle(verdict: Mapping[str, str | None], rng: np.random.Generator, key_a: str = "", key_b: str = "",
           overall: str = "all", stated_overall: str | None = None) -> dict:
    """A verdict whose criteria may be equal (None) made into E16's A-or-B verdict
    (:func:`compare`'s fields): each equal criterion by the fair coin, in :data:`CRITERIA`
    order; a :data:`NOT_COMPARABLE` criterion stays so (no winner, no coin; listed in
    ``not_comparable``).  The overall winner is ``stated_overall`` when a judge named one
    ('A'/'B': the model in the ``mind.judge`` role, E16 "then give the final overall winner"),
    else the side that won more of the comparable :data:`OVERALL` criteria (an even split,
    none comparable included, by the coin).  The coin's draws are :func:`compare`'s, in the
    same order, so the stand-in's evidence and the same verdict given as letters are settled alike."""
    out: dict = {}
    coin: list[str] = []
    apart: list[str] = []
    for c in CRITERIA:
        if verdict[c] == NOT_COMPARABLE:
            out[c] = NOT_COMPARABLE
            apart.append(c)
        elif verdict[c] is not None:
            out[c] = verdict[c]
        else:
            out[c] = _coin(rng, key_a, key_b)
            coin.append(c)

    def majority(deciding) -> str:
        a_wins = sum(out[c] == "A" for c in deciding)
        b_wins = sum(out[c] == "B" for c in deciding)
        return ("A" if a_wins > b_wins else "B") if a_wins != b_wins else _coin(rng, key_a, key_b)

    deciding = OVERALL[overall]
    out["overall"] = stated_overall if stated_overall is not None else majority(deciding)
    out["tie_break"] = coin
    out["not_comparable"] = apart
    counted = [c for c in deciding if c not in apart]
    strict_a = sum(out[c] == "A" and c not in coin for c in counted)
    strict_b = sum(out[c] == "B" and c not in coin for c in counted)
    out["overall_tie_break"] = stated_overall is None and max(strict_a, strict_b) * 2 <= len(counted)
    out["overall_no_fluency"] = majority([c for c in CRITERIA if c != "fluency"])
    return out


def conversation_key(events: Sequence[Event]) -> str:
    """A digest of a plan's conversation (its messages), naming the plan for the coin."""

    return hashlib.sha256("\n".join(e.text for e in events if e.text).encode("utf-8")).hexdigest()


def win_rates(verdicts: Sequence[Mapping]) -> dict:
    """Shares of A wins and B wins per criterion (A = the first plan), the share of verdicts
    the coin decided and the share where the criterion was not comparable (counted apart:
    win + loss + not_comparable = 1)."""
    out: dict = {}
    n = len(verdicts)
    for c in CRITERIA + ("overall", "overall_no_fluency"):
        if n == 0:
            out[c] = {"win": None, "loss": None, "tie_break": None, "not_comparable": None}
            continue
        have = [v for v in verdicts if c in v]
        if not have:
            out[c] = {"win": None, "loss": None, "tie_break": None, "not_comparable": None}
            continue
        coin = [v.get("overall_tie_break", False) if c == "overall" else
                (None if c == "overall_no_fluency" else c in v.get("tie_break", ())) for v in have]
        out[c] = {"win": sum(v[c] == "A" for v in have) / len(have),
                  "loss": sum(v[c] == "B" for v in have) / len(have),
                  "tie_break": None if c == "overall_no_fluency" else sum(coin) / len(have),
                  "not_comparable": sum(v[c] == NOT_COMPARABLE for v in have) / len(have)}
    out["n"] = n
    return out


# ------------------------------------------------------------------ the blind judge
def _read_whole(text: str):
    try:
        return read(text)
    except ParseError:
        return None


def _read_line(text: str, label: str):

    try:
        return read_text(text, item=label)
    except ParseError:
        return None


def blind_reason_true(reason: str, *, value: str, answered: str, initial: str | None, stake: int | None,
                      others: Sequence[int | None], positions: Sequence[str], proposer: bool, agree: bool,
                      dissent: int, voters: int, top_revised: int, item: str) -> bool:
    """Whether a stated reason is consistent with the conversation (module doc's blind table)."""
    if reason == "preference":
        return value == initial
    if reason == "defend":
        return value == initial and (stake is None or stake >= 7)
    if reason == "urgency":
        return stake is not None and any(o is not None and o > stake for o in others)
    if reason == "signal":
        return any(o is not None and o >= 7 for o in others)
    if reason == "majority":
        return proposer and 2 * dissent > voters
    if reason == "balance":
        return _between(item, value, answered, positions)
    if reason == "indifferent":
        return stake is None or stake <= 3
    if reason == "compromise":
        return agree and not proposer and value == answered and value != initial
    if reason == "support":
        return proposer and value == answered and voters - dissent > top_revised
    return False


def blind_reason_checkable(reason: str, *, initial: str | None, stake: int | None,
                           others: Sequence[int | None]) -> bool:
    """Whether the conversation gives the blind reason test something to check: a reason about
    a stake (defend, urgency, signal, indifferent) needs the stakes it compares stated, one about
    the speaker's Phase-1 value (preference, defend, compromise) needs that value read."""
    if reason in ("preference", "compromise") and initial is None:
        return False
    if reason == "defend":
        return initial is not None and stake is not None
    if reason == "urgency":
        return stake is not None and any(o is not None for o in others)
    if reason == "signal":
        return any(o is not None for o in others)
    if reason == "indifferent":
        return stake is not None
    return True


def blind_turns(events: Sequence[Event]) -> tuple[list[dict], dict]:
    """Every vote and proposer turn judged from the conversation alone; returns the turns
    and, per item, the members' Phase-1 values and stated stakes, the final value and
    whether debate settled it."""

    members: list[str] = []
    openings: dict[str, str] = {}
    initial: dict[tuple[str, str], str | None] = {}
    stake: dict[tuple[str, str], int | None] = {}
    latest: dict[tuple[str, str], int | None] = {}  # the level of x's latest words on the item
    current: dict[str, str] = {}
    proposer_of: dict[str, str] = {}
    last_offer: dict[tuple[str, str], str | None] = {}
    votes: dict[tuple[str, int], list[tuple[str, str, str | None]]] = {}
    items: dict[str, dict] = {}
    out = []
    for e in events:
        if e.phase == "1-propose":
            members.append(e.speaker)
            openings[e.speaker] = e.text or ""
        elif e.phase == "1-pick":
            current[e.item] = e.intent["proposal"]
            proposer_of[e.item] = e.intent["proposer"]
            label = CATALOGUE[e.item].label if e.item in CATALOGUE else e.item
            for m in members:
                u = _read_line(openings.get(m, ""), label)
                initial[(m, e.item)] = None if u is None else u.value
                stake[(m, e.item)] = latest[(m, e.item)] = None if u is None else u.willingness
            items[e.item] = {"initial": [initial[(m, e.item)] for m in members],
                             "stake": [stake[(m, e.item)] for m in members], "final": None, "debated": False}
        elif e.phase in ("result", "fallback"):
            items[e.item]["final"] = e.intent["value"]
            items[e.item]["debated"] = e.phase == "result"
        elif e.phase in ("2-vote", "3-update"):
            key = (e.speaker, e.item)
            answered = current[e.item]
            said = _read_whole(e.text or "")
            said_value, reason = (None, "none") if said is None else (said.value, said.reason)
            if said is not None and said.willingness is not None:
                latest[key] = said.willingness
            voters = [m for m in members if m != proposer_of[e.item]]
            agree = False
            if e.phase == "2-vote":
                agree = e.intent["vote"] == "AGREE"
                value = answered if agree else e.intent["revised_value"]
                ctx = dict(positions=[initial.get(key)], others=[latest.get((proposer_of[e.item], e.item))],
                           proposer=False, dissent=0, voters=len(voters), top_revised=0)
                move = None
                if e.round > 1:
                    gives = agree and answered not in (initial.get(key), last_offer.get(key))
                    move = "change" if gives else "hold"
                last_offer[key] = e.intent.get("revised_value")
                votes.setdefault((e.item, e.round), []).append((e.speaker, e.intent["vote"],
                                                                e.intent.get("revised_value")))
            else:
                value = e.intent["value"]
                dissenters = [(sp, rv) for sp, v, rv in votes.get((e.item, e.round), []) if v == "DISAGREE"]
                revised = [rv for _, rv in dissenters]
                top = max((revised.count(v) for v in revised), default=0)
                ctx = dict(positions=revised, others=[latest.get((sp, e.item)) for sp, _ in dissenters],
                           proposer=True, dissent=len(dissenters), voters=len(voters), top_revised=top)
                move = "change" if value != answered else "hold"
                current[e.item] = value
            true = blind_reason_true(reason, value=value, answered=answered, initial=initial.get(key),
                                     stake=latest.get(key), agree=agree, item=e.item, **ctx)
            valid = said_value == value and true
            # a misquoted value is checkable whatever the reason; else the reason must have something to check
            checkable = said_value != value or blind_reason_checkable(
                reason, initial=initial.get(key), stake=latest.get(key), others=ctx["others"])
            fits = None if move is None else (reason in (CHANGE_REASONS if move == "change" else HOLD_REASONS)
                                             and valid)
            out.append({"speaker": e.speaker, "item": e.item, "round": e.round, "phase": e.phase,
                        "reason": reason, "valid": valid, "move": move, "fits": fits, "checkable": checkable})
    return out, items


def blind_evidence(events: Sequence[Event]) -> dict:
    """The five criteria of one plan from its conversation alone (module doc); a criterion on
    which the plan has nothing checkable is None (the judge calls it :data:`NOT_COMPARABLE`):
    rationality when no item settled by debate has a stated stake, alignment when no member-item
    has one, reason validity when no turn's reason can be checked, change justification when
    no move's can, fluency when there are no words."""
    turns, items = blind_turns(events)
    debated = [it for it in items.values() if it["debated"] and any(s is not None for s in it["stake"])]
    hits = 0
    for it in debated:
        top = max(s for s in it["stake"] if s is not None)
        hits += any(v == it["final"] and s == top for v, s in zip(it["initial"], it["stake"]))
    num = den = 0.0
    for it in items.values():
        for v, s in zip(it["initial"], it["stake"]):
            weight = 1.0 if s is None else float(s)
            den += weight
            num += weight * (v == it["final"])
    stated = any(s is not None for it in items.values() for s in it["stake"])
    checked = [t for t in turns if t["checkable"]]
    moves = [t for t in checked if t["move"] is not None]
    texts = [e.text for e in events if e.text]
    return {
        "rationality": hits / len(debated) if debated else None,
        "alignment": num / den if stated and den else None,
        "reason_validity": sum(t["valid"] for t in checked) / len(checked) if checked else None,
        "change_justification": sum(t["fits"] for t in moves) / len(moves) if moves else None,
        "fluency": mattr(texts) if texts else None,
    }
