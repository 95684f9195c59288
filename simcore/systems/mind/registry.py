"""MIND's names and registry entries: the study's variants, every registered MIND-family
policy (the paper's reading, v2, and the first reading, v1, each with its ablations, and the
Base baseline), the protocol and the scenario."""

from __future__ import annotations

from scenarios.travel import CATALOGUE

SYSTEM = "mind"
PROTOCOL_ID = "travel-vote-v1"
#: the study's variant names and the registry ids they stand for (the current versions)
#: a group's seats: its members by index (groups have 2 to 8 members)
SEAT_NAMES = tuple(f"m{i}" for i in range(8))
VARIANTS = {"base": "base-v3", "mind": "mind-v2", "tone-only": "tone-only-v4",
            "appraisal-only": "appraisal-only-v2"}

#: every choice of MindPolicy with its value in the paper's reading (v2) ...
_MIND_V2 = {"push_margin": 2, "yield_rule": "urgency", "push_rule": "margin", "block_min_w": 9, "signal_min_w": 7, "no_cue_guess": 5,
            "accept_own_offer": False, "flexible_middle": False, "update_min_voiced": 2,
            "middle_towards_own": True, "middle_towards_dissent": True, "plain_wording": "varied",
            "warm_stance": "accommodate"}
#: ... and in the first reading (v1): push only when Strict, accept one's own last offer,
#: "no preference" as a nominal item's middle ground
#: and one fixed plain phrase per act
_MIND_V1 = {**_MIND_V2, "push_rule": "margin-strict", "accept_own_offer": True, "flexible_middle": True,
            "plain_wording": "fixed"}
#: tone-only-v2: a Warm voter without appraisal compromises (DISAGREE) like a Firm one;
#: tone-only-v3 reads B5's Warm "Ready to accommodate" (AGREE).  The switch matters only without appraisal.
#: tone-only-v4 (the study's) reads section 4.3's "Base + Tone Only": Base's decisions with MIND's tone.
_TONE_V2 = {"warm_stance": "compromise"}
#: base-v3's agree_max_w: of 0..7, the value whose Base DR on the default study (201 groups, seed 0) is
#: nearest Base's own Table 1 DR, 82.71% (3: 87.8%; 2: 75.1%); Base's row is the role's own figure, so it
#: may build the stand-in; every MIND-vs-Base comparison is left to test it (docs/systems/mind.md "Roles")
BASE_AGREE_MAX_W = 3
_BASE_V2 = {"name": "base", "agree_max_w": 5, "keep_counts_proposer": False, "dissent_value": "own",
            "plain_wording": "varied", "reasons": "v2", "proposer_keeps_at_w": None}
_META = {"system": SYSTEM, "protocol": PROTOCOL_ID}

REGISTRY = [
    dict(kind="policy", id="mind-v2", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "mind", "tone": True, "appraisal": True, **_MIND_V2},
         description="MIND: tone + strategic appraisal (B7 push rule, D13 middle ground, B7 accept)", meta=_META),
    dict(kind="policy", id="tone-only-v3", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "tone-only", "tone": True, "appraisal": False, **_MIND_V2},
         description="MIND ablation: tone without appraisal; a Warm voter accommodates (B5)", meta=_META),
    dict(kind="policy", id="tone-only-v4", entry_point="policies.mad:MadPolicy",
         kwargs={**_BASE_V2, "reasons": "b3", "agree_max_w": BASE_AGREE_MAX_W, "name": "tone-only", "tone": True},
         description="MIND ablation 'Base + Tone Only' (section 4.3): Base's decisions (B1-B4, as base-v3) "
                     "spoken with MIND's tone (B6 'ALPHA ROLE GUIDELINES (Use for Tone only)'); no appraisal",
         meta=_META),
    dict(kind="policy", id="tone-only-v2", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "tone-only", "tone": True, "appraisal": False, **_MIND_V2, **_TONE_V2},
         description="MIND ablation: tone without appraisal (v2 readings)", meta=_META),
    dict(kind="policy", id="appraisal-only-v2", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "appraisal-only", "tone": False, "appraisal": True, **_MIND_V2},
         description="MIND ablation: appraisal without tone (v2 readings)", meta=_META),
    dict(kind="policy", id="mind-v1", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "mind", "tone": True, "appraisal": True, **_MIND_V1},
         description="MIND, first reading: push only when Strict, accepts own last offer, 'no preference' "
                     "middle ground", meta=_META),
    dict(kind="policy", id="tone-only-v1", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "tone-only", "tone": True, "appraisal": False, **_MIND_V1, **_TONE_V2},
         description="MIND ablation: tone without appraisal (first reading)", meta=_META),
    dict(kind="policy", id="appraisal-only-v1", entry_point="policies.mind:MindPolicy",
         kwargs={"name": "appraisal-only", "tone": False, "appraisal": True, **_MIND_V1},
         description="MIND ablation: appraisal without tone (first reading)", meta=_META),
    dict(kind="policy", id="base-v3", entry_point="policies.mad:MadPolicy",
         kwargs={**_BASE_V2, "reasons": "b3", "agree_max_w": BASE_AGREE_MAX_W},
         description="Base: multi-agent-debate voting; reasons B1 and B3-B4 allow, each true of its move; "
                     "agree_max_w from Base's own Table 1 DR",
         meta=_META),
    dict(kind="policy", id="base-v2", entry_point="policies.mad:MadPolicy",
         kwargs=_BASE_V2,
         description="Base: multi-agent-debate voting (no tone, no appraisal; varied plain wording)", meta=_META),
    dict(kind="policy", id="base-v1", entry_point="policies.mad:MadPolicy",
         kwargs={**_BASE_V2, "plain_wording": "fixed"},
         description="Base, first version: one fixed plain phrase per act", meta=_META),
    dict(kind="protocol", id=PROTOCOL_ID, entry_point="simcore.protocols.travel_vote:TravelVoteGame",
         kwargs={"max_rounds": 3},
         description="MIND item-by-item proposer/voter rounds, majority vote, fallback",
         meta={"system": SYSTEM, "conformance": "simcore.systems.mind.match:MindConformance"}),
    dict(kind="scenario", id="travel-personas-v1", entry_point="scenarios.travel:generate_group",
         description="MIND travel catalogue (20 items) + seeded persona groups of 2-4",
         meta={"system": SYSTEM, "describe": "simcore.systems.mind.registry:describe_scenario"}),
]

#: every registered MIND-family policy id, runnable by id as a variant (``--variants mind-v1,base-v2``)
POLICY_IDS = tuple(e["id"] for e in REGISTRY if e["kind"] == "policy")
JUDGES = ("blind", "v1", "v2")


def describe_scenario(_sid: str) -> str:
    lines = ["travel-personas-v1: MIND's 20 negotiated items (Appendix A); personas are generated per group",
             f"{'item':<24}{'kind':<9}options"]
    for it in CATALOGUE:
        kind = "ordinal" if it.ordinal else "nominal"
        opts = " | ".join(o + (" (no pref.)" if o == it.flexible else "") for o in it.options)
        lines.append(f"{it.key:<24}{kind:<9}{opts}")
    return "\n".join(lines)
