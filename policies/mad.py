"""Base: the paper's multi-agent-debate voting baseline (MIND appendix B.1).

Agents know their own value and importance but speak without tone and do not infer
anyone's willingness.  Rules (deterministic stand-ins for Tables B1-B4):

| # | role     | condition (first that holds)                 | decision                  | paper passage |
|---|----------|----------------------------------------------|---------------------------|---------------|
| 1 | voter    | proposal == own value, or == the value it offered last round | AGREE     | B3 "agree if ... reasonable" |
| 2 | voter    | w <= agree_max_w                             | AGREE                     | B3 "you may agree if the proposal is a reasonable compromise" |
| 3 | voter    | otherwise                                    | DISAGREE, own value       | B2/B3 "keep the value as close as possible to your private value" |
| 4 | proposer | more voters AGREE than back any one revised value | KEEP | B4 "if ... still the best for a majority, you may KEEP it" |
| 5 | proposer | otherwise                                    | UPDATE to the most voiced revised value (ties: first voiced) | B4 "select ONE value that balances the group's needs" |

``agree_max_w = 5``: an importance in the lower half of the 1-10 scale is one a debater
would trade for agreement.  Row 4 counts voters only, as the consensus rule does (the
proposer's own support cannot pass a proposal; counting it would make every 1-1 split
of a three-member group a certain deadlock).  Consensus, round limit and fallback are
the protocol's.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from policies.travel_common import Dissent, Me, Update, Vote, plurality


@attrs.frozen
class MadPolicy:
    name: str = "base"
    tone: bool = False
    appraisal: bool = False
    agree_max_w: int = 5

    def vote(self, me: Me, proposal: str, guessed_w: int | None, last_offer: str | None = None) -> Vote:
        if proposal == me.value or proposal == last_offer:
            return Vote("AGREE", "accept", None, "preference")
        if me.w <= self.agree_max_w:
            return Vote("AGREE", "yield", None, "indifferent")
        return Vote("DISAGREE", "push", me.value, "preference")

    def update(self, me: Me, proposal: str, dissents: Sequence[Dissent], n_voters: int) -> Update:
        if not dissents:
            return Update("KEEP", proposal, "preference")
        value, count = plurality([d.revised_value for d in dissents])
        if n_voters - len(dissents) > count:
            return Update("KEEP", proposal, "preference")
        return Update("UPDATE", value, "majority")
