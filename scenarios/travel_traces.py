"""The five negotiation traces of MIND's appendix D as constructed groups.

Each trace is one item negotiated by three agents (one proposer, two voters) whose
values and willingness follow the paper's table; where the paper's table leaves a
value out, the choice is noted.  :func:`play` negotiates a trace with a registered
policy and returns the item outcome and the events; the golden playthrough files
and ``tests/test_mind_traces.py`` use them.
"""

from __future__ import annotations

import attrs

from scenarios.travel import CATALOGUE, Group, Persona, Preference, Traits, Trip

_TRAITS = Traits(age="25-34", budget_tier="Comfort", activity="medium", safety="medium",
                 popularity="a mix", experiences=("culture",), scenery="city")
_TRIP = Trip("Seattle", "Denver", 3, "2022-03-14", 1800)


@attrs.frozen
class Trace:
    name: str
    title: str
    item: str
    members: tuple[tuple[str, int], ...]  # (value, w); member 0 is the proposer
    expect_consensus: bool
    expect_final: str
    expect_rounds: int
    tone_noise: float = 0.0
    seed: int = 0
    note: str = ""


TRACES = (
    Trace("immediate-consensus", "Scenario 1 (Table D11): immediate consensus", "acc_house_rules",
          (("Must be Non-smoking", 10), ("Must be Non-smoking", 10), ("No specific requirements", 2)),
          True, "Must be Non-smoking", 1,
          note="voter B's own value is not given in the paper; 'No specific requirements' is assumed"),
    Trace("strategic-update", "Scenario 2 (Table D12): strategic update", "rest_atmosphere",
          (("No preference", 2), ("Casual/Street Food", 6), ("Casual/Street Food", 6)),
          True, "Casual/Street Food", 2),
    Trace("strategic-compromise", "Scenario 3 (Table D13): strategic compromise", "rest_rating",
          (("4.0+ (Reliable)", 5), ("Any rating", 6), ("Any rating", 6)),
          True, "3.5+ (Decent)", 2,
          note="the paper's voters have w=4 and guess 7 yet compromise; under simcore's rules a guess above "
               "one's own w yields, so the voters here have w=6 (similar to the proposer's 5) and hold "
               "'Any rating', which makes '3.5+' the middle ground they offer"),
    Trace("rational-deadlock", "Scenario 4 (Table D14): rational deadlock", "rest_budget",
          (("Moderate", 7), ("Budget", 8), ("Moderate", 7)),
          False, "Budget", 3),
    Trace("dynamic-adaptation", "Scenario 5 (Table D15): dynamic adaptation", "acc_review",
          (("4.0+", 9), ("Any score", 2), ("3.5+", 8)),
          True, "4.0+", 2, tone_noise=0.3, seed=4,
          note="the shift needs the proposer's first words to read lower than its later ones: tone_noise 0.3 "
               "with the seed stored here makes its Phase-1 line slip to the Firm band; the paper's w=6/5 pair "
               "is replaced by 9/8 so that the proposer may KEEP against an even split"),
)


def group_for(trace: Trace) -> Group:
    members = []
    for k, (value, w) in enumerate(trace.members):
        prefs = tuple(Preference(it.key, value if it.key == trace.item else (it.flexible or it.options[-1]),
                                 w if it.key == trace.item else 0) for it in CATALOGUE)
        members.append(Persona("Proposer" if k == 0 else f"Voter{chr(64 + k)}", _TRAITS, prefs))
    return Group(trace.name, _TRIP, tuple(members), (trace.item,))


def play(trace: Trace, policy_id: str = "mind-v1"):
    """Negotiate ``trace`` (proposer = member 0); returns (ItemOutcome, events)."""
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    from simcore.protocols.travel_vote import negotiate_group
    from simcore.registry import make
    from simcore.seeding import generator

    group = group_for(trace)
    out = negotiate_group(group, make("policy", policy_id), [0], ModelClient(MockBackend(tone_noise=trace.tone_noise)),
                          generator(trace.seed, "mind-trace", trace.name), f"mind/trace/{trace.name}/{policy_id}")
    return out.items[0], out.events
