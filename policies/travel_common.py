"""Helpers shared by the travel-voting policies (MIND and Base): the middle ground between two
values, the group's middle and the plurality of voiced values.  The moves these policies decide
(votes, updates) are the protocol's: :mod:`simcore.protocols.travel_moves`.
"""

from __future__ import annotations

import math
from typing import Sequence

from scenarios.travel import Item


def middle_ground(item: Item, proposal: str, own: str, *, flexible_middle: bool = False,
                  towards_own: bool = True) -> str:
    """A value between ``proposal`` and ``own`` (a voter's compromise, Table B8 "pick
    middle ground" from the allowed values).

    Ordinal item, both values on its scale: the option halfway between them, rounded
    towards ``own`` (so adjacent options give ``own``, as in Table D13, where the voters'
    compromise is their own "3.5").  Otherwise no option lies between the two, and the
    middle ground is ``own`` (Table D13's worked compromise).  ``flexible_middle`` (the
    ``mind-v1`` reading, not in the paper) instead offers the item's "no preference"
    option when it has one and neither value is it.  ``towards_own=False`` rounds an odd
    gap towards the proposal instead, never onto the proposal itself (the rounding is a
    choice: B8 says only "pick middle ground").
    """
    if item.ordinal and proposal in item.scale and own in item.scale:
        i, j = item.scale.index(proposal), item.scale.index(own)
        if abs(i - j) <= 1:
            return own  # no option lies between
        if not towards_own:  # the choice's alternative: an odd gap rounds towards the proposal
            i, j = j, i
        k = (i + j) // 2 if j < i else -((-(i + j)) // 2)  # halfway, rounded towards own
        return item.scale[k]
    if flexible_middle and item.flexible is not None and item.flexible not in (proposal, own):
        return item.flexible
    return own


def group_middle(item: Item, current: str, values: Sequence[str], *, flexible_middle: bool = False,
                 towards_dissent: bool = True) -> str:
    """A middle ground between the current proposal and the dissenters' values (Table B9
    "COMPROMISE: pick a middle-ground value from {allowed_values}").

    Ordinal item with every value on its scale: the median position of the current
    proposal and the dissenters' values; when the count is even, the midpoint of the two
    middle positions, rounded towards the dissenters' mean position (so with one
    dissenter it is :func:`middle_ground` of the two, seen from the dissenter);
    ``towards_dissent=False`` rounds away from it, towards the current proposal, but
    never onto the proposal itself (a choice: B9 says only "pick a middle-ground value").
    Otherwise nothing lies between, and the proposer moves to the dissent: the most
    frequent dissenting value (ties: first voiced).  That is a choice, not a passage: B9
    rule 1 makes the proposer change and no option lies between, so it takes a
    dissenter's value, which is what B9's UPDATE does (D13's proposer, who "updates to
    3.5", is an UPDATE to a value both dissenters voiced: row 2 of the proposer table).
    ``flexible_middle`` (``mind-v1``) instead offers the "no preference" option when the
    item has one and it is not the current proposal.
    """
    pool = [current, *values]
    if item.ordinal and all(v in item.scale for v in pool):
        idx = sorted(item.scale.index(v) for v in pool)
        m = len(idx) // 2
        if len(idx) % 2:
            return item.scale[idx[m]]
        lo, hi = idx[m - 1], idx[m]
        mean = sum(item.scale.index(v) for v in values) / len(values)
        mid = (lo + hi) / 2
        up = mean >= mid if towards_dissent else mean < mid
        k = math.ceil(mid) if up else math.floor(mid)
        if not towards_dissent and item.scale[k] == current:  # rounding away never lands on the proposal
            k = math.floor(mid) if up else math.ceil(mid)
        return item.scale[k]
    if flexible_middle and item.flexible is not None and item.flexible != current:
        return item.flexible
    return plurality(values)[0]


def plurality(values: Sequence[str]) -> tuple[str, int]:
    """Most frequent value and its count; ties go to the value voiced first."""
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts.values())
    for v in values:
        if counts[v] == best:
            return v, best
    raise ValueError("plurality of no values")
