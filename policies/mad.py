"""Base: the paper's multi-agent-debate voting baseline (MIND appendix B.1).

Agents know their own value and importance but speak without tone and do not infer
anyone's willingness.  Rules (deterministic stand-ins for Tables B1-B4), first that
holds decides:

| # | role | condition | decision | source |
|---|---|---|---|---|
| 1 | voter | proposal == own value, or == the value it offered last round | AGREE | B3 "You may agree if the proposal is a reasonable compromise"; one's own value is the most reasonable, and so is the compromise one offered oneself.  The last-offer clause decides only under ``dissent_value="middle"``: otherwise a Base voter's offer is always its own value (row 3) |
| 2 | voter | w <= ``agree_max_w`` (3; 5 in base-v1/v2) | AGREE | B3 "You may agree if the proposal is a reasonable compromise".  B3 gives no threshold.  ``base-v3`` takes it from the Base role's own figure: of 0..7, 3 gives the Base DR nearest Table 1's 82.71% (87.8%; 2 gives 75.1%).  ``base-v1``/``base-v2`` used 5 (the lower half of the 1-10 scale, a choice).  It sets Base's DR (see the sweep in docs/systems/mind.md) |
| 3 | voter | otherwise | DISAGREE, own value (``dissent_value`` "own"; "middle": the middle ground of :func:`~policies.travel_common.middle_ground`) | B3 "Act as a representative of your private preferences, basing all reasoning strictly on the alignment with your private data".  A choice: B3's revised_value is only "a specific alternative value", and B2's "Keep the proposed value as close as possible to your private_value" is a Phase-1 rule (B2 adds "Any adjustment is allowed ONLY from Phase 2 onward"); "middle" is the other reading |
| 3' | proposer | ``proposer_keeps_at_w`` is set and own w >= it | KEEP | choice, off by default: B4's context gives the proposer its private value but no importance ("Your Private Preference: {current_private_value}"), so by default the proposer's own w plays no part; the option is the reading in which B2's "Preference Data" (which carries the importance) stays in view in Phase 3 |
| 4 | proposer | more voters AGREE than back any one revised value | KEEP | B4 "If you believe your current proposal is still the best for a majority, you may KEEP it"; counting voters only is a choice (``keep_counts_proposer`` = False): the consensus rule counts voters, and counting the proposer's own support would make every 1-1 split of a three-member group a certain deadlock |
| 5 | proposer | otherwise | UPDATE to the most voiced revised value (ties: first voiced) | B4 "select ONE value from ALLOWED VALUES that balances the group's needs"; taking the most voiced dissent is a choice (the value that most increases agreement, B4 "aiming for 75%+ agreement") |

Consensus, round limit and fallback are the protocol's.

The reasons Base gives (``reasons`` "b3", ``base-v3``) are ones B1 and B3-B4 allow, chosen
so that each is true of the move it comes with:

| move | reason (words) | source |
|---|---|---|
| AGREE with one's own value | preference ("suits how I travel") | B3 "basing all reasoning strictly on the alignment with your private data" |
| AGREE at w <= ``agree_max_w`` | compromise ("a reasonable compromise for the group") | B3 "You may agree if the proposal is a reasonable compromise that respects the group's budget" |
| DISAGREE | preference (own value) / balance (a middle ground) | B3, as above |
| KEEP | preference when the proposal is one's own value, else support ("most of the group is with it") | B4 "If you believe your current proposal is still the best for a majority, you may KEEP it" |
| UPDATE | majority ("most of the group disagreed") when more than half the voters dissented, else balance | B4 "select ONE value ... that balances the group's needs" |

``reasons`` "v2" (``base-v1``/``base-v2``) keeps the first wording: "since this matters
little to me" at w <= 5, which mentions preference strength (B1: "Do NOT mention any
preference strength"), and "most of the group disagreed" on every UPDATE, also after a
1-of-2 dissent.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from policies.travel_common import middle_ground, plurality

from simcore.protocols.travel_moves import Dissent, Me, Update, Vote
from simcore.ruletable import Rule

#: Base's rule table as data (README, --list-params and the report read it)
RULES = (
    Rule("base", "1", "voter: proposal == own value or its last offer (always its own value)", "AGREE",
         'B3 "You may agree if the proposal is a reasonable compromise"', keys=[("accept", "*")]),
    Rule("base", "2", "voter: w <= 3 (base-v3; 5 in v1/v2)", "AGREE",
         "B3, same line; the threshold: base-v3 takes the value whose Base DR is nearest Base's own Table 1 DR "
         "(82.71%), v1/v2 chose 5 (docs/systems/mind.md)", "agree_max_w", keys=[("yield", "*")]),
    Rule("base", "3", "voter: otherwise", "DISAGREE, own value",
         'B3 "Act as a representative of your private preferences"; a choice: B2\'s "as close as possible to your '
         'private_value" is a Phase-1 rule, and `dissent_value="middle"` is the other reading', "dissent_value",
         keys=[("push", "*"), ("compromise", "*")]),
    Rule("base", "4", "proposer: more voters AGREE than back any one revised value (voters only)", "KEEP",
         'B4 "If you believe your current proposal is still the best for a majority, you may KEEP it"',
         "keep_counts_proposer", keys=[("KEEP", "*")]),
    Rule("base", "5", "proposer: otherwise", "UPDATE to the most voiced revised value",
         'B4 "select ONE value ... that balances the group\'s needs"; most voiced is a choice; the proposer\'s own w '
         "plays no part (`proposer_keeps_at_w`)", keys=[("UPDATE", "*")]),
)


@attrs.frozen
class MadPolicy:
    name: str = attrs.field(default="base", metadata={"source": "variant name in tables and transcripts"})
    tone: bool = attrs.field(default=False, metadata={"source": "B1 'Do NOT mention any preference strength'"})
    appraisal: bool = attrs.field(default=False, metadata={"source": "B1-B4 have no appraisal step"})
    agree_max_w: int = attrs.field(default=3, metadata={
        "source": "B3 'You may agree if the proposal is a reasonable compromise' gives no threshold. base-v3: 3, "
                  "the value whose Base DR is nearest Base's own Table 1 DR (82.71%; the role's own figure, "
                  "docs/systems/mind.md 'Roles'); base-v1/v2: 5, a choice (the lower half of the scale)"})
    dissent_value: str = attrs.field(default="own", validator=attrs.validators.in_(("own", "middle")), metadata={
        "source": "choice: B3 'Act as a representative of your private preferences' (own value); B3's "
                  "revised_value is 'a specific alternative value' and B2 allows adjustment from Phase 2 on "
                  "('middle': the middle ground towards one's own value)"})
    plain_wording: str = attrs.field(default="varied", validator=attrs.validators.in_(("fixed", "varied")), metadata={
        "source": "choice: B1 'Do NOT mention any preference strength' fixes the tone, not the phrasing; "
                  "'varied' (base-v2): several plain phrasings per act, as a model writes; 'fixed' (base-v1): "
                  "one phrase per act"})
    keep_counts_proposer: bool = attrs.field(default=False, metadata={
        "source": "choice: B4 KEEP 'if ... still the best for a majority'; False counts voters only, as the "
                  "consensus rule does"})
    reasons: str = attrs.field(default="b3", validator=attrs.validators.in_(("v2", "b3")), metadata={
        "source": "B1 'Do NOT mention any preference strength', B3 'reasonable compromise', B4 'best for a "
                  "majority' / 'balances the group's needs': 'b3' (base-v3) gives only reasons these allow and "
                  "that are true of the move; 'v2' (base-v1/v2) says 'matters little to me' at low w and "
                  "'most of the group disagreed' on every update"})
    proposer_keeps_at_w: int | None = attrs.field(default=None, metadata={
        "source": "choice: B4's context gives the proposer its private value, not its importance, so by "
                  "default (None) the proposer's own w plays no part; an integer k: KEEP when one's own w >= k "
                  "(B2's Preference Data still in view)"})

    def vote(self, me: Me, proposal: str, guessed_w: int | None, last_offer: str | None = None) -> Vote:
        if proposal == me.value or proposal == last_offer:
            return Vote("AGREE", "accept", None, "preference" if proposal == me.value or self.reasons == "v2"
                        else "balance")
        if me.w <= self.agree_max_w:
            return Vote("AGREE", "yield", None, "indifferent" if self.reasons == "v2" else "compromise")
        if self.dissent_value == "middle":
            middle = middle_ground(me.item, proposal, me.value)
            return Vote("DISAGREE", "compromise", middle, "balance" if middle != me.value else "preference")
        return Vote("DISAGREE", "push", me.value, "preference")

    def _keep(self, me: Me, proposal: str) -> Update:
        if self.reasons == "v2" or proposal == me.value:
            return Update("KEEP", proposal, "preference")
        return Update("KEEP", proposal, "support")

    def update(self, me: Me, proposal: str, dissents: Sequence[Dissent], n_voters: int) -> Update:
        if not dissents:
            return self._keep(me, proposal)
        if self.proposer_keeps_at_w is not None and me.w >= self.proposer_keeps_at_w:
            return Update("KEEP", proposal, "preference" if proposal == me.value else "support")
        value, count = plurality([d.revised_value for d in dissents])
        if n_voters - len(dissents) + self.keep_counts_proposer > count:
            return self._keep(me, proposal)
        if self.reasons == "v2" or 2 * len(dissents) > n_voters:
            return Update("UPDATE", value, "majority")
        return Update("UPDATE", value, "balance")
