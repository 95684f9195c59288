"""ASTRA's modules: the inferred partner preferences, the consistency checker,
stage 1 (fairness, stance, the tit-for-tat lambda table) and stage 3 (the nine
tactics of Table 5, PAP from a deterministic virtual partner, the final score).

"choice" = the paper leaves it open (mostly to an LLM judgement); the parameter that holds it
is named (``AgentParams`` / ``TacticParams`` field, all in the registry entry), or the row says
why it is fixed.

| rule | source | here |
|---|---|---|
| Preference updater: stated highest/lowest items fix the ends of the inferred order; the rest follows the opposite of the agent's own order | 2.1; 2.2 "it assumes preferences opposite to its own" | :meth:`Preferences.update` |
| Consistency checker: inconsistent when the partner's own offer at t scores lower for it (IPP) than the agent's offer at t-1, or a stated item contradicts the IPP | A.1 cases 1) and 2) | :func:`check_consistency` |
| Re-inference: among the orders that agree with everything stated, the fewest case-1 inconsistencies; ties by the partner's score of its latest offer, then closeness to the current IPP, then to the opposite-of-own order | A.1 "recalculates the IPP using updated information from the partner's utterances and offers"; the tie order: choice, fixed (a deterministic tie-break, no reading of the text) | :meth:`Preferences.reinfer` |
| Fairness eq. 1: Fair if abs(S_a^P - S_p^P) <= theta_f or S_p^P <= PMS/2 | 2.3 eq. 1, A.2 (theta_f = 4); PMS = the agent's maximum: choice, fixed (A.2 "35% of the total score" of CaSiNo's 36) | :func:`fairness` |
| Stance eq. 2 from the partner's score change over its last two offers; no offer: unknown; one offer: ``first_offer_stance`` ("neutral") | 2.3 eq. 2; Table 7 ("Unk." before the partner's first offer, "Neu." after it); "unknown" = astra-agent-v1 | :func:`stance` |
| lambda from a table over stance x fairness: the stance's value whatever the fairness | 4.2 / Figure 3: "greedy ... around 0.9", "generous ... around 0.3", "neutral ... around 0.5"; Table 7 prints lambda=0.3 for "unfair, generous"; the unknown row (before any partner offer, 0.7): choice; ``lambda_table`` (astra-agent-v1: :data:`LAMBDA_ROWS_V1`, +0.1 when unfair, a split without passage) | :data:`LAMBDA_TABLE` |
| Tactics (astra-agent-v3): the tactics whose Table 5 "When" holds (:func:`applicable`); the best fit among them (:func:`best_fit`, ``selection="tft"``): the first -- tactics answering the partner's latest move (CSC, RC, MGF, REO, NCR, RNC) before those set by the phase (LIC, AEO), each in Table 5's own listing order -- of the strategy that answers the partner's stance in kind (:func:`tft_strategy`: collaborative for a generous partner, and for a neutral one whose offer is fair after it had conceded before; competitive otherwise), and LGR ("Anytime") when none of that strategy applies | 2.3 "The agent selects the best-fit tactic" (an LLM's judgement; no rule given); sec. 2 "grounded in ... TFT"; 4.3 "competitive strategies were predominantly chosen for greedy or neutral partners, while collaborative strategies were more common for generous partners" and "when the partner maintained a fair but firm stance without further concessions, the agent occasionally adopted a collaborative strategy"; Table 7 (RC chosen where MGF also holds) and Table 8 (RC where LIC also holds) for the latest-move-first order; Table 5's listing as the last tie-break: choice (``selection``; the astra.tactic role's family) | :func:`select_tactic` |
| Tactics (astra-agent-v1/v2, ``selection="precedence"``): the first of ``order`` whose Table 5 "When" holds; with ``stance_first`` a generous partner gets no competitive tactic | Table 5 "When"; 4.3 (the order: stance tactics RNC, CSC, NCR, RC before the offer-level ones REO, MGF; AEO first as in Table 7); ``order``, ``stance_first`` | :func:`select_tactic` |
| REO "When": the partner's offer leaves the agent <= ``extreme_share`` (0.25) of its maximum, on any offer (``reo_scope="any"``) | Table 5 "The partner makes an extremely selfish offer"; 25%: choice from A.2 ("unfairness ... when an individual's share falls below 20-30%"); the public code: "initial" offer, < 14 points (options) | :func:`_when` |
| NCR "When": neutral stance, with (``hold_against_fair`` True) or without a fair offer | Table 5 "The partner remains firm, making no concessions in their last two offers" (no fairness condition); False = 4.3 "when the partner maintained a fair but firm stance ... the agent occasionally adopted a collaborative strategy" | :func:`_when` |
| Thresholds: AEO fewer than ``early_offers`` (3) offers exchanged; LIC fewer than ``lic_offers`` (6) and not yet conceded; RC a partner concession >= ``significant`` (1; Table 7); CSC own last concession >= ``large`` (3); LIC with no fairness condition (``lic_needs_fair`` False; True = astra-agent-v1, no passage) | Table 5 "before many offers are exchanged", "Early ... no initial concessions", "significant concession", "after a large concession"; the numbers: choice (the text gives none; the public code's prompt says "e.g. by 3 points or more" for RC) | :class:`TacticParams` |
| "How": AEO/REO highest S_a; NCR/RNC S_a closest to the previous own offer; LIC highest S_p; CSC (``csc_how="concede"``, v3) a concession smaller than the last one, then any concession, holding last, each closest to half the last concession (v1/v2 "distance": only the distance, so holding could win); RC a concession before none (``concession_how="strict"``), then the concession closest to theta_f (``rc_target="theta-f"``, v3; v1/v2 "partner": closest to the partner's concession); LGR highest joint; MGF smallest abs(S_a - S_p) | Table 5 "How" (RC "Respond with a concession"; Table 7's RC ranking gives the non-conceding candidate SA 0.0; "distance" = astra-agent-v1); the scoring functions: choice, fixed (each is the plainest ranking of its "How" sentence) | :func:`rank_by_tactic` |
| SA = (max - r) / (max - min) of the rank | 2.3 "min-max Normalized Ranking Score"; Table 7's SA values 0, 0.25, ... 1 | :func:`sa_scores` |
| PAP = w*TS + (1-w)*SI, w = 0.75; TS = S_p / max S_p (IPP); SI = 1 - dist((S_a, S_p), ideal) / diag toward the partner's ideal outcome (``si_target="partner"``) | 2.3 "Virtual Partner Agent ... Total Score (TS) and ... Strategic Intermediary (SI) toward the ideal outcome", A.4 (w); Table 7 (SI rises as the agent concedes); the linear TS and distance SI: choice, fixed (deterministic stand-ins for the VPA's 0-10 judgements); ``"agent"`` = astra-agent-v1 | :func:`pap`, :func:`partner_ideal` |
| Final = alpha*PAP + beta*SA, alpha = 0.35, beta = 0.65; ties: the earlier candidate | eq. 4, Table 4; the tie: choice, fixed | :func:`final_scores` |
"""

from __future__ import annotations

import itertools
import math
from typing import Optional, Sequence

import attrs

from simcore.ruletable import Rule

# stance -> fairness -> lambda.  Section 4.2 / Figure 3 give lambda by the partner's stance:
# greedy "around 0.9", neutral "around 0.5", generous "around 0.3"; Table 7 prints lambda=0.3
# for "Fairness=unfair, Stance=generous", so fairness does not shift it.  Before the partner's
# first offer the stance is unknown (Table 7 "Unk.") and the agent anchors at 0.7 (a choice:
# the paper gives no value; the row's fair/unfair columns are simcore's and only reachable with
# ``first_offer_stance="unknown"``).
LAMBDA_ROWS = (  # (stance, fair, unfair, unknown fairness) -- the ``lambda_table`` parameter
    ("greedy", 0.9, 0.9, 0.9),
    ("neutral", 0.5, 0.5, 0.5),
    ("generous", 0.3, 0.3, 0.3),
    ("unknown", 0.6, 0.7, 0.7),
)
# astra-agent-v1's table: an unfair offer added 0.1 and
# a fair offer from a greedy partner took 0.1 off -- a split the paper does not have.
LAMBDA_ROWS_V1 = (
    ("greedy", 0.8, 0.9, 0.9),
    ("neutral", 0.5, 0.6, 0.5),
    ("generous", 0.3, 0.4, 0.3),
    ("unknown", 0.6, 0.7, 0.7),
)


def lambda_table(rows=LAMBDA_ROWS) -> dict:
    return {r[0]: {"fair": r[1], "unfair": r[2], "unknown": r[3]} for r in rows}


LAMBDA_TABLE = lambda_table()

TACTICS = ("REO", "AEO", "RNC", "CSC", "NCR", "RC", "LIC", "MGF", "LGR")
COMPETITIVE = ("AEO", "REO", "NCR", "RNC")
#: Table 5's own listing: the collaborative tactics, then the competitive ones
TABLE5_ORDER = ("LIC", "CSC", "RC", "LGR", "MGF", "AEO", "REO", "NCR", "RNC")
#: tactics whose "When" reads the partner's latest move (its concession, its offer's scores), as
#: against the phase of the negotiation (LIC, AEO: early; LGR: anytime)
REACTIVE = ("CSC", "RC", "MGF", "REO", "NCR", "RNC")
#: Table 5 as data: each tactic's "When" as simcore reads it (``_when``), its "How" (how stage 3
#: ranks the LP candidates under it), the passage, the parameter holding its choice.  The docs'
#: Table 5 (docs/systems/astra.md), ``--list-params`` and the report's step-through read it.
RULES = (
    Rule("astra-tactics", "LIC", "fewer than `lic_offers` (6) offers exchanged, the agent has offered and not conceded",
         "Initial Concession: the candidate with the highest S_p", 'Table 5 LIC "Early in the negotiation; no '
         'initial concessions"; 6: choice', "lic_offers", keys=[("tactic", "LIC")], label="Initial Concession"),
    Rule("astra-tactics", "CSC", "the agent's last concession >= `large` (3), the partner's < `significant` (1), "
         "stance neutral or generous", "Continued-Smaller Concessions: a concession, closest to half the last one",
         'Table 5 CSC "after a large concession, if the partner responds with a small or no concession"',
         "large", keys=[("tactic", "CSC")], label="Continued-Smaller Concessions"),
    Rule("astra-tactics", "RC", "stance generous, the partner conceded >= `significant` (1)",
         "Reciprocal Concessions: a conceding candidate first, then the concession nearest the target",
         'Table 5 RC "significant concession"; 1: Table 7 answers a 1-point concession with RC', "significant",
         keys=[("tactic", "RC")], label="Reciprocal Concessions"),
    Rule("astra-tactics", "LGR", "always", "Logrolling: the highest joint score", 'Table 5 LGR "Anytime"',
         keys=[("tactic", "LGR")], label="Logrolling"),
    Rule("astra-tactics", "MGF", "the partner's offer gives it more than the agent",
         "Mutual Gain Focus: the smallest abs(S_a - S_p), then the highest joint",
         'Table 5 MGF "gives them a higher score than yours"', keys=[("tactic", "MGF")], label="Mutual Gain Focus"),
    Rule("astra-tactics", "AEO", "fewer than `early_offers` (3) valid offers exchanged",
         "Aggressive Early Offers: the highest S_a", 'Table 5 AEO "before many offers are exchanged"; 3: choice',
         "early_offers", keys=[("tactic", "AEO")], label="Aggressive Early Offers"),
    Rule("astra-tactics", "REO", "the partner's offer leaves the agent <= `extreme_share` (0.25) of its maximum",
         "Response to Extreme Offer: the highest S_a", 'Table 5 REO "extremely selfish offer"; 25%: A.2 '
         '"20-30% of the total"', "extreme_share", keys=[("tactic", "REO")], label="Response to Extreme Offer"),
    Rule("astra-tactics", "NCR", "stance neutral (no concession in the partner's last two offers)",
         "No Concession Response: S_a closest to the previous own offer",
         'Table 5 NCR "remains firm, making no concessions in their last two offers"', "hold_against_fair",
         keys=[("tactic", "NCR")], label="No Concession Response"),
    Rule("astra-tactics", "RNC", "stance greedy (the partner's last two offers raised its own score)",
         "Reject Negative Concession: S_a closest to the previous own offer",
         'Table 5 RNC "negative concession"', keys=[("tactic", "RNC")], label="Reject Negative Concession"),
)

#: how the best-fit tactic is picked among the applicable ones (``TacticParams.selection``)
SELECTIONS = ("tft", "precedence", "listing", "collaborative-first", "competitive-first")


# ---------------------------------------------------------------- preferences
@attrs.define
class Preferences:
    """The inferred partner preferences (IPP) and what the partner has stated."""

    domain: object
    own_order: tuple
    own_values: object = None  # the agent's own valuation (default: the domain's agent)
    order: Optional[tuple] = None
    option_orders: dict = attrs.field(factory=dict)
    stated_highest: Optional[str] = None
    stated_lowest: Optional[str] = None
    reinferences: int = 0
    _val_key: object = None
    _val: object = None

    @property
    def opposite(self) -> tuple:
        return tuple(reversed(self.own_order))

    def default_option_orders(self) -> dict:
        """With no answer, assume the opposite of the agent's own option orders."""
        own = self.domain.option_orders_of(self.own_values if self.own_values is not None else self.domain.agent)
        return {k: tuple(reversed(v)) for k, v in own.items()}

    def assume_opposite(self) -> None:
        self.order = self.fill(self.opposite)
        if not self.option_orders:
            self.option_orders = self.default_option_orders()

    def fill(self, base: Sequence[str]) -> tuple:
        """``base`` with the stated highest first and the stated lowest last."""
        rest = [i for i in base if i not in (self.stated_highest, self.stated_lowest)]
        head = [self.stated_highest] if self.stated_highest else []
        tail = [self.stated_lowest] if self.stated_lowest and self.stated_lowest != self.stated_highest else []
        return tuple(head + rest + tail)

    def update(self, cues: dict) -> bool:
        """Merge read cues; return True when something was stated."""
        stated = False
        if cues.get("highest"):
            self.stated_highest = cues["highest"]
            if self.stated_lowest == self.stated_highest:
                self.stated_lowest = None
            stated = True
        if cues.get("lowest"):
            self.stated_lowest = cues["lowest"]
            if self.stated_highest == self.stated_lowest:
                self.stated_highest = None
            stated = True
        return stated

    def note_partner_option(self, outcome) -> None:
        """The option the partner proposes on a categorical issue is taken as its favourite."""
        if not self.option_orders:
            self.option_orders = self.default_option_orders()
        for issue, x in zip(self.domain.issues, outcome):
            if issue.kind == "categorical":
                fav = issue.options[x]
                cur = self.option_orders.get(issue.name, issue.options)
                self.option_orders[issue.name] = (fav,) + tuple(o for o in cur if o != fav)

    def valuation(self):
        if self.order is None:
            self.assume_opposite()
        key = (self.order, tuple(sorted(self.option_orders.items())))
        if self._val_key != key:
            self._val_key, self._val = key, self.domain.valuation_from_order(self.order, self.option_orders)
        return self._val

    def agrees_with_statements(self, order) -> bool:
        return ((self.stated_highest is None or order[0] == self.stated_highest)
                and (self.stated_lowest is None or order[-1] == self.stated_lowest))

    def reinfer(self, pairs) -> tuple:
        """Re-infer the order; ``pairs`` are (agent offer at t-1, partner offer at t)."""
        d = self.domain
        names = [i.name for i in d.issues]
        best, best_key = None, None
        current = self.order or self.opposite
        for perm in itertools.permutations(names):
            if not self.agrees_with_statements(perm):
                continue
            val = d.valuation_from_order(perm, self.option_orders)
            bad = sum(1 for a_off, p_off in pairs
                      if d.score(val, p_off, "partner") < d.score(val, a_off, "partner") - 1e-9)
            latest = d.score(val, pairs[-1][1], "partner") if pairs else 0.0
            key = (bad, -latest, _kendall(perm, current), _kendall(perm, self.opposite), perm)
            if best_key is None or key < best_key:
                best, best_key = perm, key
        self.order = tuple(best)
        self.reinferences += 1
        return self.order


def _kendall(a, b) -> int:
    pos = {x: i for i, x in enumerate(b)}
    return sum(1 for i in range(len(a)) for j in range(i + 1, len(a)) if pos[a[i]] > pos[a[j]])


def check_consistency(prefs: Preferences, agent_prev, partner_now) -> Optional[str]:
    """Appendix A.1; returns the reason for an inconsistency or None."""
    if prefs.order is None:
        return None
    if prefs.stated_highest and prefs.order[0] != prefs.stated_highest:
        return f"stated highest {prefs.stated_highest} is not the inferred highest {prefs.order[0]}"
    if prefs.stated_lowest and prefs.order[-1] != prefs.stated_lowest:
        return f"stated lowest {prefs.stated_lowest} is not the inferred lowest {prefs.order[-1]}"
    if agent_prev is not None and partner_now is not None:
        val = prefs.valuation()
        d = prefs.domain
        sp_p, sp_a = d.score(val, partner_now, "partner"), d.score(val, agent_prev, "partner")
        if sp_p < sp_a - 1e-9:
            return f"partner score in partner offer ({sp_p:g}) < partner score in agent offer ({sp_a:g})"
    return None


# ---------------------------------------------------------------- stage 1
def fairness(s_a: Optional[float], s_p: Optional[float], theta_f: float, pms: float) -> str:
    """Eq. 1 on the partner's latest offer (S_a exact, S_p under the IPP)."""
    if s_a is None or s_p is None:
        return "unknown"
    return "fair" if abs(s_a - s_p) <= theta_f + 1e-9 or s_p <= pms / 2 + 1e-9 else "unfair"


def stance(partner_scores: Sequence[float], first: str = "neutral") -> tuple[str, float]:
    """Eq. 2 on the partner's own (inferred) score in its last two offers.  No partner offer:
    unknown (Table 7 "Unk."); exactly one: ``first`` -- "neutral" as Table 7 labels the
    partner's first offer ("Neu."; eq. 2 needs two offers), "unknown" in astra-agent-v1."""
    if not partner_scores:
        return "unknown", 0.0
    if len(partner_scores) < 2:
        return first, 0.0
    delta = round(partner_scores[-1] - partner_scores[-2], 9)
    return ("generous" if delta < 0 else "neutral" if delta == 0 else "greedy"), delta


def choose_lambda(st: str, fair: str, table=None) -> float:
    return (table or LAMBDA_TABLE)[st][fair]


# ---------------------------------------------------------------- stage 3
@attrs.frozen
class TacticContext:
    """What the tactics' "When" conditions look at (all derived from the history)."""

    offers_exchanged: int
    agent_offers: int
    partner_offer_sa: Optional[float]  # agent's score in the partner's latest offer (exact)
    partner_offer_sp: Optional[float]  # partner's score in it (IPP)
    stance: str
    stance_delta: float
    fairness: str
    agent_conceded: bool  # has the agent ever lowered its own offer score
    last_own_concession: float  # agent score drop between its last two offers (0 if none)
    agent_max: float
    prev_own: float  # agent score of its previous offer (agent_max before the first)
    partner_offers: int = 0  # valid offers the partner has made so far
    theta_f: float = 4.0  # the fairness threshold (A.2), the size of a fair difference in points
    partner_conceded_before: bool = False  # the partner lowered its own (IPP) score between earlier offers


# Precedence of the tactics' "When" conditions (LGR, "anytime", is always the fallback).
# Section 4.3: "the agent prioritized the partner's *stance* over *fairness* when selecting
# tactics" -- so the stance tactics (RNC greedy, CSC / NCR neutral-firm, RC generous) come before
# the tactics that read the level of the offer (REO "extremely selfish offer", MGF "gives them a
# higher score than yours").  AEO ("at the start ... before many offers") comes first: Table 7's
# agent answers the partner's first offer with AEO.
ORDER_PAPER = ("AEO", "RNC", "CSC", "NCR", "RC", "REO", "LIC", "MGF", "LGR")
# astra-agent-v1: REO first, whatever the partner's stance.
ORDER_V1 = ("REO", "AEO", "RNC", "CSC", "NCR", "RC", "LIC", "MGF", "LGR")


def _order(value) -> tuple:
    value = tuple(value)
    if sorted(value) != sorted(TACTICS) or value[-1] != "LGR":
        raise ValueError(f"order must list the nine tactics once each with LGR last, got {value}")
    return value


@attrs.frozen
class TacticParams:
    """The "When" thresholds Table 5 leaves to the LLM (all choices; see docs/systems/astra.md)."""

    extreme_share: float = attrs.field(default=0.25, metadata={"source": "choice: Table 5 REO 'The partner makes an extremely selfish offer' gives no number; 25% of the agent's maximum from A.2 ('unfairness ... when an individual's share falls below 20-30%'); the public code: < 14 points (0.3889), initial offer only"})  # REO: partner offer leaves the agent <= 25% of its max (A.2: 20-30%)
    early_offers: int = attrs.field(default=3, metadata={"source": "choice: Table 5 AEO 'before many offers are exchanged' gives no number; fewer than 3 valid offers (Table 7's agent answers the partner's first offer with AEO)"})  # AEO: fewer than this many valid offers exchanged
    lic_offers: int = attrs.field(default=6, metadata={"source": "choice: Table 5 LIC 'Early in the negotiation; no initial concessions have been made' gives no number; fewer than 6 offers exchanged"})  # LIC: "early" = fewer than this many offers exchanged
    # RC: a partner concession of at least this many points is "significant" (Table 5 gives no
    # number).  1 (default): Table 7's worked example, where the agent answers the partner's
    # 1-point concession (20 -> 21 points for the agent) with RC; the public code's prompt says
    # "e.g. by 3 points or more" (option 3); astra-agent-v1 used 2, a value neither source gives.
    significant: float = attrs.field(default=1.0, metadata={"source": "Table 7: the agent answers the partner's 1-point concession with RC (Table 5 'significant concession' gives no number); the public code's 'e.g. by 3 points or more' = option 3; astra-agent-v1's 2 has no source"})
    large: float = attrs.field(default=3.0, metadata={"source": "choice: Table 5 CSC 'after a large concession' gives no number; 3 points, above RC's 'significant'"})  # CSC: the agent's last concession was at least this large
    # NCR against a partner whose firm offer is *fair*.  Table 5's "When" ("remains firm, making
    # no concessions in their last two offers") has no fairness condition: True (default).  False
    # = section 4.3's observation that against a fair but firm partner the agent "occasionally
    # adopted a collaborative strategy".
    hold_against_fair: bool = attrs.field(default=True, metadata={"source": "Table 5 NCR 'The partner remains firm, making no concessions in their last two offers' (no fairness condition): True; False = 4.3 'the agent occasionally adopted a collaborative strategy' against a fair but firm partner (astra-agent-v1)"})
    order: tuple = attrs.field(default=ORDER_PAPER, converter=_order, metadata={"source": "Table 5 'When' with 4.3 'the agent prioritized the partner's stance over fairness': the stance tactics (RNC, CSC, NCR, RC) before the offer-level ones (REO, MGF), AEO first as in Table 7; the exact order among them: choice; REO first = astra-agent-v1"})
    # REO on any partner offer ("any", Table 5 "The partner makes an extremely selfish offer") or
    # only on its first offer ("initial", the public code's "extremely selfish initial offer").
    reo_scope: str = attrs.field(default="any", validator=attrs.validators.in_(("any", "initial")), metadata={"source": "Table 5 REO 'The partner makes an extremely selfish offer' (any offer); initial = the public code's 'extremely selfish initial offer' (option)"})
    # Section 4.3: "prioritized the partner's stance over fairness ... collaborative strategies
    # were more common for generous partners": after a generous move no competitive tactic is
    # chosen (True); False = astra-agent-v1 (an extreme offer gets REO whatever the stance).
    stance_first: bool = attrs.field(default=True, metadata={"source": "4.3 'prioritized the partner's stance over fairness ... collaborative strategies were more common for generous partners': no competitive tactic after a generous move; False = astra-agent-v1"})
    # LIC's "When" is Table 5's "Early in the negotiation; no initial concessions have been made",
    # with no fairness condition (False, default); True = astra-agent-v1's extra condition that
    # the partner's latest offer be fair (no passage).
    lic_needs_fair: bool = attrs.field(default=False, metadata={"source": "Table 5 LIC 'Early in the negotiation; no initial concessions have been made' (no fairness condition): False; True = astra-agent-v1's extra condition, no passage"})
    # RC "Respond with a concession": a candidate that concedes nothing (S_a >= the previous own
    # offer) ranks after every candidate that concedes ("strict", default; Table 7's RC ranking
    # gives the non-conceding 30-point candidate SA 0.0); "distance" = astra-agent-v1 (only the
    # distance to the partner's concession counts, so holding the position could rank first).
    # (CSC's "Make a smaller concession" needs no such tier: with its target at half the last
    # concession, every smaller concession is already closer than conceding nothing.)
    concession_how: str = attrs.field(default="strict", validator=attrs.validators.in_(("strict", "distance")), metadata={"source": "Table 5 RC 'Respond with a concession'; Table 7's RC ranking gives the non-conceding candidate SA 0.0 (strict: conceding candidates first); distance = astra-agent-v1"})
    # how the best-fit tactic is chosen among those whose "When" holds (section 2.3 "The agent
    # selects the best-fit tactic"; an LLM judgement the paper gives no rule for)
    selection: str = attrs.field(default="tft", validator=attrs.validators.in_(SELECTIONS), metadata={"source": "2.3 'The agent selects the best-fit tactic' (an LLM's judgement, majority of five samples): 'tft' (astra-agent-v3) takes, among the tactics whose Table 5 'When' holds, one of the strategy that answers the partner's stance in kind (sec. 2 'grounded in TFT'; 4.3: competitive for greedy or neutral partners, collaborative for generous ones and for a fair but firm one), the first in Table 5's listing, LGR ('Anytime') when none; 'precedence' = the fixed order of astra-agent-v1/v2 ('order'); 'listing', 'collaborative-first', 'competitive-first': the other members of the astra.tactic family"})
    # RC "How": which concession ranks first
    rc_target: str = attrs.field(default="theta-f", validator=attrs.validators.in_(("theta-f", "partner")), metadata={"source": "Table 5 RC 'Respond with a concession' / 'promotes fair exchanges' with A.2's fair difference theta_f (4 points): the concession closest to theta_f ranks first ('theta-f', astra-agent-v3; Table 7's worked ranking 26 > 27 > 23 > 22 > 30 after a 30-point offer); 'partner' (v1/v2): closest to the partner's concession"})
    # CSC "How": "Make a smaller concession" -- a concession, smaller than the last one
    # NCR "When" "The partner remains firm, making no concessions in their last two offers": two
    # partner offers needed (True, v3); v1/v2 read the stance alone, which a first offer already has
    ncr_needs_two: bool = attrs.field(default=True, metadata={"source": "Table 5 NCR 'making no concessions in their last two offers': two partner offers (True, astra-agent-v3); False (v1/v2): the neutral stance alone, which the partner's first offer already gets (first_offer_stance)"})
    # RC "How": a counter-offer that gives the agent no more than the partner's standing offer
    # ranks after every one that stays above it ("partner-offer", astra-agent-v4); "none" (v1-v3):
    # no such tier.  Table 7's second RC (23 after the partner's 22/18) needs it.
    rc_floor: str = attrs.field(default="partner-offer", validator=attrs.validators.in_(("none", "partner-offer")), metadata={"source": "Table 5 RC 'Respond with a concession' read with 2.2 'The agent accepts an offer if its score meets or exceeds its most recent offer': a counter-offer worth no more to the agent than the partner's offer on the table is that offer (or less) restated, not a counter; 'partner-offer' (astra-agent-v4) ranks such candidates after those above it, which gives Table 7's 23 (3, 2, 0) after the partner's 22/18 where 'none' (v1-v3) gives 22; fitted to Table 7"})
    csc_how: str = attrs.field(default="concede", validator=attrs.validators.in_(("concede", "distance")), metadata={"source": "Table 5 CSC 'Make a smaller concession' (the public code: 'must reduce your score by at least 1 point'): 'concede' (astra-agent-v3) ranks conceding candidates smaller than the last concession first, then other concessions, holding last; 'distance' (v1/v2): closest to half the last concession, where holding could tie and win"})


#: astra-agent-v2's stage 3: the fixed precedence, RC toward the partner's
#: concession, CSC by distance, NCR from the stance alone
V2_TACTICS = dict(selection="precedence", rc_target="partner", csc_how="distance", ncr_needs_two=False,
                  rc_floor="none")
#: stage 3 as astra-agent-v3 has it: RC's ranking without the partner's standing offer as a floor
V3_TACTICS = dict(rc_floor="none")


def _when(t: str, c: TacticContext, p: TacticParams) -> bool:
    has = c.partner_offer_sa is not None
    concession = -c.stance_delta
    if t == "REO":
        return (has and c.partner_offer_sa <= p.extreme_share * c.agent_max + 1e-9
                and (p.reo_scope == "any" or c.partner_offers == 1))
    if t == "AEO":
        return c.offers_exchanged < p.early_offers
    if t == "RNC":
        return c.stance == "greedy"
    if t == "CSC":
        return (c.last_own_concession >= p.large and c.stance in ("neutral", "generous")
                and concession < p.significant)
    if t == "NCR":
        return (c.stance == "neutral" and (p.hold_against_fair or c.fairness != "fair")
                and (not p.ncr_needs_two or c.partner_offers >= 2))
    if t == "RC":
        return c.stance == "generous" and concession >= p.significant
    if t == "LIC":
        return (c.offers_exchanged < p.lic_offers and c.agent_offers >= 1 and not c.agent_conceded
                and (not p.lic_needs_fair or c.fairness == "fair"))
    if t == "MGF":
        return has and c.partner_offer_sp is not None and c.partner_offer_sp > c.partner_offer_sa
    return True  # LGR: "anytime"


def applicable(c: TacticContext, p: TacticParams = TacticParams()) -> tuple[str, ...]:
    """Every tactic whose Table 5 "When" holds in this state, in Table 5's listing order
    (LGR, "Anytime in the negotiation", always)."""
    return tuple(t for t in TABLE5_ORDER if _when(t, c, p))


def tft_strategy(c: TacticContext) -> str:
    """The strategy that answers the partner in kind (sec. 2: ASTRA is "grounded in TFT ...
    reciprocity"; 4.3: "competitive strategies were predominantly chosen for greedy or neutral
    partners, while collaborative strategies were more common for generous partners"):
    collaborative for a generous partner; competitive for a greedy or neutral one, or before
    its first offer -- except 4.3's "when the partner maintained a fair but firm stance without
    further concessions, the agent occasionally adopted a collaborative strategy": a neutral
    partner whose offer is fair and who has conceded before (it *maintained* its stance
    *without further* concessions) gets the collaborative answer.  (Table 7's partner repeats
    a first offer, fair by eq. 1, without having conceded before: NCR, as the paper's agent.)"""
    if c.stance == "generous":
        return "collaborative"
    if c.stance == "neutral" and c.fairness == "fair" and c.partner_conceded_before:
        return "collaborative"
    return "competitive"


def best_fit(options: Sequence[str], c: TacticContext, selection: str = "tft") -> str:
    """The best-fit tactic among ``options`` (tactics whose "When" holds).  Within a strategy
    the tactics that answer the partner's latest move (:data:`REACTIVE`) come before those set
    by the phase of the negotiation (LIC, AEO), each group in Table 5's listing order (Table
    7's agent answers a 1-point concession with RC though MGF also holds; Table 8's with RC
    though LIC also holds).  "tft": the first of the strategy :func:`tft_strategy` names, LGR
    ("Anytime") when none of it applies; "listing": the first of all; "collaborative-first" /
    "competitive-first": that strategy's first, else the other's."""
    ranked = [t for t in TABLE5_ORDER if t in REACTIVE] + [t for t in TABLE5_ORDER if t not in REACTIVE]
    opts = [t for t in ranked if t in options and t != "LGR"]
    coll = [t for t in opts if t not in COMPETITIVE]
    comp = [t for t in opts if t in COMPETITIVE]
    if selection == "tft":
        pool = coll if tft_strategy(c) == "collaborative" else comp
    elif selection == "listing":
        pool = opts
    elif selection == "collaborative-first":
        pool = coll or comp
    elif selection == "competitive-first":
        pool = comp or coll
    else:
        raise ValueError(f"best_fit: no rule {selection!r} (precedence is select_tactic's)")
    return pool[0] if pool else "LGR"


def select_tactic(c: TacticContext, p: TacticParams = TacticParams()) -> str:
    """The tactic of this turn: :func:`best_fit` among :func:`applicable` tactics, or with
    ``p.selection == "precedence"`` (astra-agent-v1/v2) the first tactic in ``p.order`` whose
    Table 5 "When" holds (LGR: "anytime").

    Default order (section 4.3, stance before fairness): AEO, RNC, CSC, NCR, RC, REO, LIC, MGF,
    LGR, and with ``stance_first`` a generous partner gets no competitive tactic; astra-agent-v1
    puts REO first and has no stance filter.  NCR needs the partner's firm offer to be unfair
    unless ``hold_against_fair``."""
    if p.selection != "precedence":
        return best_fit(applicable(c, p), c, p.selection)
    skip = COMPETITIVE if p.stance_first and c.stance == "generous" else ()
    for t in p.order:
        if t not in skip and _when(t, c, p):
            return t
    return "LGR"


def rank_by_tactic(tactic: str, cands, c: TacticContext, p: TacticParams = TacticParams()) -> list[int]:
    """Candidate positions ordered best first by the tactic's "How"; ties keep list order.
    With ``p.concession_how == "strict"`` RC ranks a candidate that concedes nothing after
    every candidate that concedes."""
    prev = c.prev_own
    strict = p.concession_how == "strict"

    def key(k):
        s = cands[k]
        if tactic in ("AEO", "REO"):  # highly self-favourable
            return (-s.s_a, -s.s_p)
        if tactic in ("NCR", "RNC"):  # hold position
            return (abs(s.s_a - prev), -s.s_a)
        if tactic == "LIC":  # significant concession: what the partner values most
            return (-s.s_p, -s.s_a)
        conc = prev - s.s_a
        if tactic == "CSC":  # a smaller concession than the last one
            target = max(1.0, c.last_own_concession / 2)
            if p.csc_how == "concede":  # conceding and smaller first, then other concessions, holding last
                return (conc <= 1e-9, conc >= c.last_own_concession - 1e-9, abs(conc - target), -s.s_a)
            return (abs(conc - target), -s.s_a)
        if tactic == "RC":  # concede: about theta_f (a fair exchange), or as much as the partner did
            target = c.theta_f if p.rc_target == "theta-f" else max(1.0, -c.stance_delta)
            below = (p.rc_floor == "partner-offer" and c.partner_offer_sa is not None
                     and s.s_a <= c.partner_offer_sa + 1e-9)
            return (strict and conc <= 1e-9, below, abs(conc - target), -s.s_a)
        if tactic == "MGF":  # mutual benefit, emphasising fairness
            return (abs(s.s_a - s.s_p), -(s.s_a + s.s_p))
        return (-(s.s_a + s.s_p), -s.s_a)  # LGR: trade for joint gain

    return sorted(range(len(cands)), key=lambda k: (key(k), k))


def sa_scores(order: list[int]) -> list[float]:
    """Min-max normalized rank score (max - r) / (max - min); a lone candidate scores 1."""
    n = len(order)
    out = [0.0] * n
    for r, k in enumerate(order):
        out[k] = 1.0 if n == 1 else (n - 1 - r) / (n - 1)
    return out


def ideal_reachable(space, partner_floor: float, min_own: float):
    """The agent's ideal reachable outcome: the highest agent score among outcomes
    that give the partner (IPP) at least ``partner_floor`` (its score in its own latest
    offer -- what it has shown it would take)."""
    key = ("ideal", partner_floor, min_own)
    got = space._order_cache.get(key)
    if got is None:
        got = space._order_cache[key] = _ideal(space, partner_floor, min_own)
    return got


def _ideal(space, partner_floor, min_own):
    best = None
    for i in range(len(space.s_a)):
        if space.s_p[i] >= partner_floor - 1e-9 and space.s_a[i] >= min_own - 1e-9:
            k = (space.s_a[i], space.s_p[i], -i)
            if best is None or k > best[0]:
                best = (k, i)
    if best is None:  # nothing reachable: the partner's best outcome
        i = max(range(len(space.s_p)), key=lambda j: (space.s_p[j], space.s_a[j], -j))
        return space.s_a[i], space.s_p[i]
    return space.s_a[best[1]], space.s_p[best[1]]


def partner_ideal(space):
    """The virtual partner's ideal outcome: the highest partner (IPP) score; ties: the highest
    agent score, then enumeration order.  Section 2.3: the Virtual Partner Agent scores each
    offer "as a Strategic Intermediary (SI) toward the ideal outcome"; it speaks for the partner
    (the public code's VPA prompt: "your ideal offer based on your priorities"), and in Table 7
    SI rises as the agent concedes (0.5 at 30 points ... 0.74 at 23)."""
    got = space._order_cache.get("partner_ideal")
    if got is None:
        i = max(range(len(space.s_p)), key=lambda j: (space.s_p[j], space.s_a[j], -j))
        got = space._order_cache["partner_ideal"] = (space.s_a[i], space.s_p[i])
    return got


def pap(cands, space, ideal, w: float) -> list[tuple[float, float, float]]:
    """(PAP, TS, SI) per candidate from the virtual partner.

    TS = S_p / max S_p (IPP); SI = 1 - dist((S_a, S_p), ideal) / diag with diag the
    diagonal of the score box (max S_a, max S_p); ``ideal`` is :func:`partner_ideal`
    (default) or, in astra-agent-v1, :func:`ideal_reachable` (the agent's own ideal)."""
    max_a, max_p = max(space.s_a), max(space.s_p)
    diag = math.hypot(max_a, max_p) or 1.0
    out = []
    for s in cands:
        ts = s.s_p / max_p if max_p > 0 else 0.0
        si = 1.0 - math.hypot(s.s_a - ideal[0], s.s_p - ideal[1]) / diag
        out.append((w * ts + (1 - w) * si, ts, si))
    return out


def final_scores(paps, sas, alpha: float, beta: float) -> list[float]:
    return [alpha * p[0] + beta * s for p, s in zip(paps, sas)]
