"""MIND (Do, Yoon & Jung): strategic appraisal + tone, and its two ablations.

One class, :class:`MindPolicy`, with two switches: ``tone`` (speak with words graded
by one's willingness band) and ``appraisal`` (infer the other side's willingness from
its words).  MIND = tone + appraisal; Tone-only = tone without appraisal;
Appraisal-only = appraisal without tone (paper section 4.3).  The decision rules
below are deterministic stand-ins for the paper's prompts; every number or reading the
paper leaves open is a constructor parameter, registered with its value in the
registry entries (``mind-v2`` and its ablations: the paper's reading; ``mind-v1``: the
earlier reading, kept reachable).

Voter, Phase 2a/2b (Alg. 1 lines 6-10, Tables B5, B7, B8).  ``w`` own willingness,
``g`` the proposer's willingness guessed from its words (``no_cue_guess`` when the
words carry no intensity marker).  Rows in order, the first that holds decides:

| # | condition | strategy | vote / revised value | source |
|---|---|---|---|---|
| 1 | proposal == own value | accept | AGREE | B7 accept: "Verify if {current_value} is semantically equivalent to {current_private_value}" |
| 1' | ``accept_own_offer``: proposal == the value this voter offered last round | accept | AGREE | choice (v1 only, default off): not in B7; a voter would otherwise refuse the compromise it offered itself |
| 2 | w <= 3 (Neutral band) | yield | AGREE | B5 "1-3: Neutral (Indifferent. Passive tone. Follow the majority.)" |
| 3 | g > w (``yield_rule`` "urgency"; "strict-signal": also g >= ``block_min_w``) | yield | AGREE | B7 yield: "If you perceive the opponent's urgency ('Guessed Alpha') is higher than yours, yielding is the optimal move"; B5 "Detect Urgency: If others sound 'Strict' or 'Firm' while you are 'Warm' or 'Neutral', you MUST yield"; B8 Logical Guard: "It is a failure of logic to analyze the opponent as higher priority and then vote DISAGREE with your own value" |
| 4 | w - g >= ``push_margin`` | push | DISAGREE, own value | B7 push: "Only aggressive persistence is justified when your priority is significantly higher"; B8 push -> {current_private_value}; D12 "both Voters (w = 6) push for 'Casual'" against a w = 2 proposer.  ``push_margin`` = 2 is a choice: "significantly" is not a number in the paper; one level is inside a band and inside the reader's usual error |
| 5 | otherwise | compromise | DISAGREE, middle ground | B7 compromise: "If both parties show similar priority levels, search for a middle ground"; B8 compromise -> DISAGREE, "(pick middle ground)" |

Row 4 and B5's "Defend Essentials: Only block consensus if your Alpha is 9-10" read
together (``push_rule``):

* ``"margin"`` (default, ``mind-v2``): push whenever the priority is significantly
  higher, whatever the band.  B5's rule 2 stands next to rule 1 ("If others sound
  Strict or Firm while you are Warm or Neutral, you MUST yield"), and is read as its
  counterpart: only a Strict voter may stand against a proposer who sounds more
  urgent -- which row 3 already settles.  This is the reading under which the whole
  text agrees: B8 maps compromise to a DISAGREE vote for every band, and the paper's
  traces show voters below 9 voting DISAGREE (D12 w 6 "push", D13 w 4, D14 w 8
  "insists", D15 w 5), so "block" cannot mean any DISAGREE.
* ``"margin-strict"`` (``mind-v1``): push needs also w >= ``block_min_w`` (9); a Firm or
  Warm voter significantly above the guess compromises instead (still DISAGREE).
* ``"strict-only-blocks"`` (B5 rule 2 read literally): as ``"margin-strict"``, and a
  voter below ``block_min_w`` never votes DISAGREE: where rows 4-5 would, it yields.

Row 3 and the traces (``yield_rule``).  The text is one-sided: B7, B5 rule 1 and B8's
Logical Guard all say a voter who reads the proposer as more urgent yields.  Two traces
do otherwise: D13's voters (w 4) guess 7 and "choose Compromise over Yield" (voting
DISAGREE with their own "3.5", what the Logical Guard calls a failure of logic), and
D15's voter (w 5) guesses 7 and states "Compromise (My w = 5 < Opponent w' = 7)"; D11's
voter B (w 2) yields to a guessed 9.  ``"urgency"`` (default) follows the text.
``"strict-signal"`` is the reading the three traces share: yield only to a proposer who
sounds Strict (g >= ``block_min_w``); below that, a voter the proposer outranks
compromises (rows 4-5).  Neither reading gives D15's AGREE: a compromise votes
DISAGREE (B8), and D13's voters, with the same adjacent options, compromise on their
own value.

Middle ground (``middle_ground``, B8 "pick middle ground" from the allowed values): on
an ordinal scale the option halfway between proposal and own value, rounded towards
one's own (choice, ``middle_towards_own``: B8 gives no rounding; rounding towards one's
own value is what makes D13's adjacent-option compromise one's own value); where no option lies between (nominal items, adjacent options) one's own
value, as in D13, whose voters' compromise is their own "3.5".  ``flexible_middle``
(``mind-v1``; choice, not in the paper) offers a nominal item's "no preference" option
instead.

Without appraisal (Tone-only) rows 3-5 become the band stance of Table B5: w >=
``block_min_w`` (Strict, "No compromise") -> push; Firm -> compromise (B5 "Compromise
only if necessary", and necessity cannot be read; under ``"strict-only-blocks"`` it
yields); Warm -> ``warm_stance``: "accommodate" (``tone-only-v3``; B5 4-6 "Flexible
preference. Polite tone. Ready to accommodate.": AGREE to the proposal) or "compromise"
(``tone-only-v2``: DISAGREE with the middle ground, as Firm); Neutral -> yield (row 2).
Section 4.3 expects Tone-only to end in "Stubborn Deadlocks"; that is the outcome the
paper reports, not a rule, and it is measured, not built in.

Proposer, Phase 3 (Alg. 1 line 13, Table B9).  ``dissent`` = share of voters voting
DISAGREE; ``w_p`` the proposer's willingness:

| # | condition (first that holds) | action | new value | source |
|---|---|---|---|---|
| 1 | appraisal on, w_p <= 6 and some dissenter's words read >= ``signal_min_w`` (no marker: ``no_cue_guess``) | UPDATE | that dissenter's revised value (highest reading; ties: most voiced, then first) | B9 "SIGNAL READING: If dissenters use 'Strict/Firm' language and you are only 'Warm/Neutral', you MUST adopt their value (UPDATE)"; ``signal_min_w`` = 7 is the Firm band's floor (B5) |
| 2 | must change, and a revised value is voiced by >= ``update_min_voiced`` (2) dissenters | UPDATE | the most voiced revised value | B9 "UPDATE: Adopt a dissenter's value (Best for increasing agreement quickly)"; the 2 is a choice: a value one dissenter voices is no better for agreement than the middle ground |
| 3 | must change | COMPROMISE | ``group_middle`` of proposal and revised values | B9 "COMPROMISE: Pick a middle-ground value from {allowed_values}"; rounding an even split towards the dissent is a choice (``middle_towards_dissent``): the proposer is the one asked to move |
| 4 | otherwise | KEEP | unchanged | B9 "KEEP: Only if Alpha is 9-10 OR Dissent Rate is low" |

"Must change": dissent > 1/2 and w_p < 10 (B9 rule 1, "you MUST change your proposal
... unless your Alpha is strictly 10"), or w_p < 9 at any dissent that blocked
consensus (B9 "KEEP: Only if Alpha is 9-10 OR Dissent Rate is low": a dissent that
blocks consensus is at least half the voters, which is not low).  So a Strict
proposer (9) keeps against an even split, and only a 10 keeps against a majority.
``group_middle`` for a nominal item is the most voiced dissenting value (nothing lies
between); ``flexible_middle`` (v1) gives the "no preference" option instead.

``no_cue_guess`` = 5 is a choice: the mid-scale guess when words carry no marker (B7
names markers only for 9-10 and 1-4).  Consensus (> half the voters AGREE), the
three-round limit and the fallback live in :mod:`simcore.protocols.travel_vote`.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from policies.travel_common import group_middle, middle_ground, plurality

from simcore.protocols.travel_moves import Dissent, Me, Update, Vote

from simcore.ruletable import Rule

PUSH_RULES = ("margin", "margin-strict", "strict-only-blocks")

#: the voter's and the proposer's rule tables as data (README, --list-params and the report read them)
RULES = (
    Rule("mind-voter", "1", "proposal == own value (`accept_own_offer`, v1: also its own last offer)", "accept: AGREE",
         'B7 accept: "semantically equivalent to {current_private_value}"', keys=[("accept", "*")]),
    Rule("mind-voter", "2", "w <= 3 (Neutral band)", "yield: AGREE", 'B5 band 1-3: "Follow the majority"',
         keys=[("yield", "indifferent")]),
    Rule("mind-voter", "3", "g > w", "yield: AGREE",
         'B7 yield: "opponent\'s urgency ... higher than yours"; B5 "Detect Urgency"; B8 Logical Guard. Traces D13 '
         'and D15 compromise instead: `yield_rule="strict-signal"` (yield only when g >= 9) is that reading, an option',
         "yield_rule", keys=[("yield", "urgency")]),
    Rule("mind-voter", "4", "w - g >= 2", "push: DISAGREE, own value",
         'B7 push: "when your priority is significantly higher"; D12 (w 6 voters "push"); the margin 2 is a choice; '
         'v1 (`push_rule="margin-strict"`) also needs w >= 9 (B5 "only block if 9-10")', "push_margin",
         keys=[("push", "*")]),
    Rule("mind-voter", "5", "otherwise", "compromise: DISAGREE, middle ground (one's own value where no option lies "
         "between)", 'B7 compromise: "similar priority levels"; B8 "(pick middle ground)"; D13',
         keys=[("compromise", "*")]),
    Rule("mind-voter-no-appraisal", "4", "no appraisal (Tone-only), w >= 9 (Strict band)", "push: DISAGREE, own value",
         'B5 band stance: "Strict (Deal-breaker ... No compromise.)"', "block_min_w", keys=[("push", "*")]),
    Rule("mind-voter-no-appraisal", "5", "no appraisal, Firm band (and Warm with `warm_stance=\"compromise\"`, "
         "v1/v2)", "compromise: DISAGREE, middle ground", 'B5 Firm: "Compromise only if necessary" (necessity cannot '
         'be read); B8', "warm_stance", keys=[("compromise", "*")]),
    Rule("mind-voter-no-appraisal", "5'", "no appraisal, Warm band (`warm_stance=\"accommodate\"`, tone-only-v3)",
         "yield: AGREE", 'B5 Warm: "Flexible preference. Polite tone. Ready to accommodate."', "warm_stance",
         keys=[("yield", "compromise")]),
    Rule("mind-proposer", "1", "w_p <= 6 and a dissenter's words read >= 7 (no marker reads as 5)",
         "UPDATE: that dissenter's revised value (the loudest; ties: most voiced, then first)",
         'B9 "SIGNAL READING"', "signal_min_w", keys=[("UPDATE", "signal")]),
    Rule("mind-proposer", "2", "must change, and a revised value is voiced by >= 2 dissenters",
         "UPDATE: the most voiced revised value", 'B9 "UPDATE: Adopt a dissenter\'s value"; >= 2 is a choice',
         "update_min_voiced", keys=[("UPDATE", "majority")]),
    Rule("mind-proposer", "3", "must change", "COMPROMISE: the group middle (the median position of the proposal and "
         "the revised values, an even count rounded towards the dissent; nominal: the most voiced revised value)",
         'B9 "COMPROMISE: Pick a middle-ground value from {allowed_values}"; the rounding and the nominal case are '
         "choices", "middle_towards_dissent", keys=[("COMPROMISE", "*")]),
    Rule("mind-proposer", "4", "otherwise", "KEEP", 'B9 "KEEP: Only if Alpha is 9-10 OR Dissent Rate is low"',
         keys=[("KEEP", "*")]),
)
YIELD_RULES = ("urgency", "strict-signal")


@attrs.frozen
class MindPolicy:
    name: str = attrs.field(default="mind", metadata={"source": "variant name in tables and transcripts"})
    tone: bool = attrs.field(default=True, metadata={
        "source": "section 4.3: speak with words graded by one's alpha band (B5, B6)"})
    appraisal: bool = attrs.field(default=True, metadata={
        "source": "section 4.3: infer the other side's alpha from its words (B7 Phase 2a, B9 signal reading)"})
    push_margin: int = attrs.field(default=2, metadata={
        "source": "choice: B7 push 'when your priority is significantly higher' gives no number; one level is "
                  "inside a band and inside the reader's usual error"})
    yield_rule: str = attrs.field(default="urgency", validator=attrs.validators.in_(YIELD_RULES), metadata={
        "source": "B7 yield 'If you perceive the opponent's urgency ... is higher than yours, yielding is the "
                  "optimal move' (+ B5 rule 1, B8 Logical Guard): 'urgency' yields whenever g > w; "
                  "'strict-signal' (traces D11, D13, D15): only when g >= block_min_w, else compromise"})
    push_rule: str = attrs.field(default="margin", validator=attrs.validators.in_(PUSH_RULES), metadata={
        "source": "B7 push with B5 'Only block consensus if your Alpha is 9-10': 'margin' (push when "
                  "significantly higher, any band; D12), 'margin-strict' (v1: also w >= block_min_w), "
                  "'strict-only-blocks' (B5 literal: below block_min_w never DISAGREE)"})
    block_min_w: int = attrs.field(default=9, metadata={
        "source": "B5 band 9-10 'Strict (Deal-breaker ... No compromise.)'; Tone-only's band stance"})
    signal_min_w: int = attrs.field(default=7, metadata={
        "source": "B9 'dissenters use Strict/Firm language': the Firm band's floor (B5 7-8)"})
    no_cue_guess: int = attrs.field(default=5, metadata={
        "source": "choice: B7 names markers for 9-10 and 1-4 only; mid-scale when the words carry none"})
    accept_own_offer: bool = attrs.field(default=False, metadata={
        "source": "choice (v1 True): B7 accepts only a proposal 'semantically equivalent to "
                  "{current_private_value}'; True also accepts one's own last offer"})
    flexible_middle: bool = attrs.field(default=False, metadata={
        "source": "choice (v1 True, not in the paper): a nominal item's middle ground is its 'no preference' "
                  "option; False: one's own value (D13)"})
    update_min_voiced: int = attrs.field(default=2, metadata={
        "source": "choice: B9 UPDATE 'Adopt a dissenter's value'; only a value voiced this often beats the "
                  "middle ground"})
    middle_towards_own: bool = attrs.field(default=True, metadata={
        "source": "choice: B8 'pick middle ground' gives no rounding; towards one's own value (D13's "
                  "adjacent compromise is the voters' own)"})
    plain_wording: str = attrs.field(default="varied", validator=attrs.validators.in_(("fixed", "varied")), metadata={
        "source": "choice (speaking without tone only: Appraisal-only): 'varied' (v2) several plain "
                  "phrasings per act, as a model writes; 'fixed' (v1) one phrase per act"})
    warm_stance: str = attrs.field(default="accommodate", validator=attrs.validators.in_(("accommodate", "compromise")),
                                   metadata={
        "source": "B5 4-6 'Warm (Flexible preference. Polite tone. Ready to accommodate.)', the band stance a "
                  "voter without appraisal follows: 'accommodate' (tone-only-v3) AGREEs; 'compromise' "
                  "(tone-only-v2) votes DISAGREE with the middle ground like a Firm voter"})
    middle_towards_dissent: bool = attrs.field(default=True, metadata={
        "source": "choice: B9 'COMPROMISE: Pick a middle-ground value'; an even split rounds towards the "
                  "dissent (the proposer is asked to move)"})

    def guess(self, guessed_w: int | None) -> int:
        """The willingness a reading stands for (``no_cue_guess`` when the words had no marker)."""
        return self.no_cue_guess if guessed_w is None else guessed_w

    def _middle(self, me: Me, proposal: str) -> str:
        return middle_ground(me.item, proposal, me.value, flexible_middle=self.flexible_middle,
                             towards_own=self.middle_towards_own)

    # -- voter ---------------------------------------------------------------------
    def vote(self, me: Me, proposal: str, guessed_w: int | None, last_offer: str | None = None) -> Vote:
        if not self.appraisal:
            guessed_w = None  # without appraisal nothing is read
        if proposal == me.value or (self.accept_own_offer and proposal == last_offer):
            return Vote("AGREE", "accept", None, "preference", guessed_w)
        if me.w <= 3:
            return Vote("AGREE", "yield", None, "indifferent", guessed_w)
        strict = me.w >= self.block_min_w
        if not self.appraisal:
            if strict:
                return Vote("DISAGREE", "push", me.value, "defend")
            if self.push_rule == "strict-only-blocks":
                return Vote("AGREE", "yield", None, "indifferent")
            if me.w <= 6 and self.warm_stance == "accommodate":  # B5 Warm: "Ready to accommodate"
                return Vote("AGREE", "yield", None, "compromise")
            return Vote("DISAGREE", "compromise", self._middle(me, proposal), "balance")
        g = self.guess(guessed_w)
        if g > me.w and (self.yield_rule == "urgency" or g >= self.block_min_w):
            return Vote("AGREE", "yield", None, "urgency", guessed_w, g)
        if self.push_rule == "strict-only-blocks" and not strict:
            return Vote("AGREE", "yield", None, "indifferent", guessed_w, g)
        if me.w - g >= self.push_margin and (self.push_rule == "margin" or strict):
            # the words: "too important to drop" only from a Firm/Strict voter (B5 7-8 "Strong
            # preference", 9-10 "Deal-breaker"); a Warm one states its preference (B5 4-6)
            return Vote("DISAGREE", "push", me.value, "defend" if me.w >= 7 else "preference", guessed_w, g)
        return Vote("DISAGREE", "compromise", self._middle(me, proposal), "balance", guessed_w, g)

    # -- proposer ------------------------------------------------------------------
    def update(self, me: Me, proposal: str, dissents: Sequence[Dissent], n_voters: int) -> Update:
        if self.appraisal and me.w <= 6:
            heard = [(self.guess(d.guessed_w), d.revised_value) for d in dissents]
            loud = [(g, v) for g, v in heard if g >= self.signal_min_w]
            if loud:
                top = max(g for g, _ in loud)
                value, _ = plurality([v for g, v in loud if g == top])
                return Update("UPDATE", value, "signal")
        majority = len(dissents) * 2 > n_voters
        if (majority and me.w < 10) or me.w < 9:
            value, count = plurality([d.revised_value for d in dissents])
            if count >= self.update_min_voiced:
                return Update("UPDATE", value, "majority")
            return Update("COMPROMISE", group_middle(me.item, proposal, [d.revised_value for d in dissents],
                                                     flexible_middle=self.flexible_middle,
                                                     towards_dissent=self.middle_towards_dissent), "balance")
        return Update("KEEP", proposal, "defend" if me.w >= 7 else "preference")
