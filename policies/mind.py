"""MIND (Do, Yoon & Jung): strategic appraisal + tone, and its two ablations.

One class, :class:`MindPolicy`, with two switches: ``tone`` (speak with words graded
by one's willingness band) and ``appraisal`` (infer the other side's willingness from
its words).  MIND = tone + appraisal; Tone-only = tone without appraisal;
Appraisal-only = appraisal without tone (paper section 4.3).  The decision rules
below are deterministic stand-ins for the paper's prompts; numbers the paper leaves
open are constructor parameters.

Voter, Phase 2a/2b (paper Alg. 1 lines 6-10, Tables B5, B7, B8).  ``w`` own
willingness, ``g`` the proposer's willingness guessed from its words (``no_cue_guess``
when the words carry no intensity marker):

| # | condition (first that holds)                      | strategy   | vote / revised value       | paper passage |
|---|---------------------------------------------------|------------|----------------------------|---------------|
| 1 | proposal == own value, or == the value this voter offered last round | accept | AGREE   | B7 "accept: rationality check" |
| 2 | w <= 3 (Neutral band)                             | yield      | AGREE                      | B5 band 1-3 "follow the majority" |
| 3 | g > w                                             | yield      | AGREE                      | B7 "yield: efficiency"; B5 "detect urgency" |
| 4 | w - g >= push_margin and w >= block_min_w         | push       | DISAGREE, own value        | B7 "push: significantly higher"; B5 "only block if 9-10" |
| 5 | otherwise (similar, or higher but w < block_min_w) | compromise | DISAGREE, middle ground    | B7 "compromise: similar priority" |

Notes on the rows, where the paper's prompts pull in different directions:

* Row 2 reads B5's "follow the majority" as agreeing with the proposal: voters vote at
  the same time and never see each other's votes, so the proposal is the only majority
  in sight.
* Row 3 follows B7's yield rule literally.  The paper's own traces D13 and D15 show
  voters (w 4 and 5) who guess 7 and still compromise; simcore does not copy that.
* Row 5 follows B8's action mapping (compromise -> DISAGREE with a middle ground), so a
  Warm or Firm voter can block consensus with a counter-offer, although B5's "defend
  essentials" reserves *blocking* for alpha 9-10; simcore reads "block" as insisting on
  one's own value (row 4).

Without appraisal (Tone-only) rows 3-5 become the band stance of Table B5 with the
same blocking threshold: w >= ``block_min_w`` (Strict) -> push; Warm and Firm ->
compromise (Firm: "compromise only if necessary", and necessity cannot be read);
Neutral -> yield (row 2).  So Tone-only differs from MIND only in reading nothing.

Proposer, Phase 3 (Alg. 1 line 13, Table B9).  ``dissent`` = share of voters voting
DISAGREE; ``w_p`` the proposer's willingness:

| # | condition (first that holds)                                     | action     | new value | paper passage |
|---|------------------------------------------------------------------|------------|-----------|---------------|
| 1 | appraisal on, w_p <= 6 and some dissenter's words read >= 7 (no marker: ``no_cue_guess``) | UPDATE | that dissenter's revised value (highest reading; ties: most voiced, then first) | B9 "signal reading" |
| 2 | must change, and a revised value is voiced by >= 2 dissenters    | UPDATE     | the most voiced revised value | B9 "majority pressure", "UPDATE" |
| 3 | must change                                                      | COMPROMISE | middle ground of proposal and revised values (``group_middle``) | B9 "COMPROMISE" |
| 4 | otherwise                                                        | KEEP       | unchanged | B9 "KEEP only if alpha 9-10 or dissent low" |

"Must change": dissent > 1/2 and w_p < 10 (B9 rule 1, "unless your alpha is strictly
10"), or w_p < 9 at any dissent that blocked consensus (B9 "KEEP only if alpha is 9-10
or dissent is low": a dissent that blocks consensus is at least half the voters, which
is not low).  So a Strict proposer (9) keeps against an even split, and only a 10
keeps against a majority.

"Middle ground" for a voter (``middle_ground``): halfway along an ordinal scale,
rounded towards the voter's own value; for a nominal item the "no preference" option,
else the voter's own value.  Consensus (> half the voters AGREE), the three-round
limit and the fallback live in :mod:`simcore.protocols.travel_vote`.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from policies.travel_common import Dissent, Me, Update, Vote, group_middle, middle_ground, plurality


@attrs.frozen
class MindPolicy:
    name: str = "mind"
    tone: bool = True
    appraisal: bool = True
    push_margin: int = 2        # "significantly higher": own w at least this much above the guess
    block_min_w: int = 9        # only Strict agents insist on their own value (B5 "defend essentials")
    signal_min_w: int = 7       # a dissenter "sounds Strict/Firm" when its words read >= this
    no_cue_guess: int = 5       # the guess when words carry no intensity marker (mid-scale)

    def guess(self, guessed_w: int | None) -> int:
        """The willingness a reading stands for (``no_cue_guess`` when the words had no marker)."""
        return self.no_cue_guess if guessed_w is None else guessed_w

    # -- voter ---------------------------------------------------------------------
    def vote(self, me: Me, proposal: str, guessed_w: int | None, last_offer: str | None = None) -> Vote:
        if not self.appraisal:
            guessed_w = None  # without appraisal nothing is read
        if proposal == me.value or proposal == last_offer:
            return Vote("AGREE", "accept", None, "preference", guessed_w)
        if me.w <= 3:
            return Vote("AGREE", "yield", None, "indifferent", guessed_w)
        if not self.appraisal:
            if me.w >= self.block_min_w:
                return Vote("DISAGREE", "push", me.value, "defend")
            return Vote("DISAGREE", "compromise", middle_ground(me.item, proposal, me.value), "balance")
        g = self.guess(guessed_w)
        if g > me.w:
            return Vote("AGREE", "yield", None, "urgency", guessed_w, g)
        if me.w - g >= self.push_margin and me.w >= self.block_min_w:
            return Vote("DISAGREE", "push", me.value, "defend", guessed_w, g)
        return Vote("DISAGREE", "compromise", middle_ground(me.item, proposal, me.value), "balance", guessed_w, g)

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
            if count >= 2:
                return Update("UPDATE", value, "majority")
            return Update("COMPROMISE", group_middle(me.item, proposal, [d.revised_value for d in dissents]),
                          "balance")
        return Update("KEEP", proposal, "defend" if me.w >= 7 else "preference")
