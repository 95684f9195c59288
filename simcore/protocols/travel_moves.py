"""The moves of MIND's travel vote (section 3.2, Algorithm 1), as the protocol takes them: a
member's private view of the item under negotiation (:class:`Me`), a Phase-2 :class:`Vote`, a
DISAGREE as the proposer sees it (:class:`Dissent`), a Phase-3 :class:`Update`, and the fallback
value when no consensus is reached (:func:`fallback_value`, Algorithm 1 line 16).

The policies decide these moves (:mod:`policies.mind`, :mod:`policies.mad`); the protocol
(:mod:`simcore.protocols.travel_vote`) checks and applies them; the language layer words them.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from scenarios.travel import Item

STRATEGIES = ("accept", "yield", "compromise", "push")
ACTIONS = ("KEEP", "UPDATE", "COMPROMISE")


@attrs.frozen
class Me:
    """What an agent knows privately about the item under negotiation."""

    item: Item
    value: str
    w: int = attrs.field(validator=[attrs.validators.ge(1), attrs.validators.le(10)])


@attrs.frozen
class Vote:
    vote: str = attrs.field(validator=attrs.validators.in_(("AGREE", "DISAGREE")))
    strategy: str = attrs.field(validator=attrs.validators.in_(STRATEGIES))
    revised_value: str | None = None
    reason: str = "none"
    guessed_w: int | None = None  # what the words read as (None: not read, or no marker)
    used_w: int | None = None     # the guess the decision used (None: no appraisal made)

    def __attrs_post_init__(self):
        if (self.vote == "DISAGREE") != (self.revised_value is not None):
            raise ValueError("a DISAGREE vote carries a revised value and an AGREE vote none")


@attrs.frozen
class Dissent:
    """One DISAGREE as the proposer sees it: the public revised value and the
    willingness read from the dissenter's words (None if not read / no cue)."""

    voter: int
    revised_value: str
    guessed_w: int | None = None


@attrs.frozen
class Update:
    action: str = attrs.field(validator=attrs.validators.in_(ACTIONS))
    value: str
    reason: str = "none"


def fallback_value(values: Sequence[str], ws: Sequence[int]) -> tuple[str, int]:
    """MIND's fallback: the value of the agent with the highest w.

    Tie-break among agents sharing the highest w: the value most of them hold; then the
    value most agents of the whole group hold; then the lowest agent index.  Returns
    (value, index of the agent whose value it is).
    """
    top = max(ws)
    tied = [i for i, w in enumerate(ws) if w == top]
    if len({values[i] for i in tied}) == 1:
        return values[tied[0]], tied[0]

    def key(i):
        return (-sum(values[j] == values[i] for j in tied), -sum(v == values[i] for v in values), i)

    best = min(tied, key=key)
    return values[best], best
