"""The readings of the dominance rules in docs/systems/dominance.md: each test fails under the
rejected reading of its passage (the v1 policies), or pins a reading the paper confirms."""

from policies.dominance import DominanceAgent
from policies.dominance_state import total_order
from scenarios.restaurants import load_domain
from simcore.metrics.dominance import behaviours, count_dialogue
from simcore.protocols.dialogue import Accept, AskPreference, Booking, Propose, Proposal, StatePreference

DOM = load_domain("restaurants-small-v1")
A = {"cuisine": ["Italian", "French", "Japanese", "Chinese", "Turkish"], "cost": ["cheap", "expensive"],
     "ambiance": ["calm", "noisy"]}
B = {"cuisine": ["Turkish", "Chinese", "Japanese", "French", "Italian"], "cost": ["expensive", "cheap"],
     "ambiance": ["noisy", "calm"]}


def prefs(orders):
    return {c.name: total_order(c.name, orders[c.name], c.values) for c in DOM.criteria}


def _count(turns):
    a = DominanceAgent("agent", "submissive", DOM, prefs(A))
    u = DominanceAgent("user", "dominant", DOM, prefs(B))
    return count_dialogue([(s, utt, None) for s, utt in turns], {"agent": a, "user": u}, DOM.topic)


def test_fig6_the_submissives_option_of_the_others_values_is_not_a_lead():
    """Fig. 6: "a submissive agent will only propose an option, if the user accepts a value
    for each criterion ... The proposed option is defined with all the accepted values".  When
    every one of those values was put forward first by the dominant, the option adopts the
    dominant's preferences (as Fig. 1's Propose(C, More) adopts the user's value): no lead.
    Counting the first proposal of any option as a lead would count one here."""
    opt = next(o for o in DOM.options if o.values == ("Turkish", "expensive", "noisy"))
    c = _count([("user", Propose(Proposal("cuisine", "Turkish"))),
                ("agent", Accept(Proposal("cuisine", "Turkish"))),
                ("agent", AskPreference("cost")),
                ("user", Propose(Proposal("cost", "expensive"))),
                ("agent", Accept(Proposal("cost", "expensive"))),
                ("agent", AskPreference("ambiance")),
                ("user", Propose(Proposal("ambiance", "noisy"))),
                ("agent", Accept(Proposal("ambiance", "noisy"))),
                ("agent", Propose(Proposal("restaurant", opt.name))),   # F6.submissive-propose-option
                ("user", Booking(opt.name))])
    assert c["agent"]["leads"] == 0          # old reading: 1
    assert c["user"]["leads"] == 3
    assert c["agent"]["proposed_booked"] == 1 and c["user"]["forwarded"] == 3


def test_an_option_holding_a_value_of_ones_own_still_leads():
    opt = next(o for o in DOM.options if o.values == ("Turkish", "expensive", "calm"))
    c = _count([("user", Propose(Proposal("cuisine", "Turkish"))),
                ("agent", Accept(Proposal("cuisine", "Turkish"))),
                ("agent", Propose(Proposal("restaurant", opt.name)))])   # expensive, calm: new here
    assert c["agent"]["leads"] == 1


def test_h1_reports_the_notes_proposals_vs_questions_beside_simcores_count():
    """Notes: H1's countable counterpart is the "share of proposals vs questions";
    simcore's H1 also counts stated preferences with the proposals (a choice)."""
    c = _count([("agent", AskPreference("cuisine")),
                ("user", StatePreference("cuisine", None, "Turkish")),
                ("agent", Propose(Proposal("cuisine", "Turkish"))),
                ("agent", StatePreference("cost", "expensive", "cheap"))])
    b = behaviours([c["agent"]], [c["user"]])
    assert b["self_centred"] == 2 / 3
    assert b["proposal_share"] == 1 / 2


def test_exit_repeat_never_ends_a_dialogue_that_would_book_even_with_a_long_limit():
    """Seed exit note: "checks if the negotiation is at an dead end and there is no possible
    remaining compromise to find".  ``exit.repeat`` reads a repeated exchange with no
    progress as such a dead end; with the turn limit raised to 200, v1 (no such exit) books
    exactly the dialogues, and the restaurants, that v2 books, on both domains."""
    from simcore.systems.dominance import STUDY, DominanceConfig
    from simcore.study import Job

    for domain, n in (("restaurants-small-v1", 12), ("restaurants-420-v1", 4)):
        out = {}
        for version in ("v1", "v2"):
            cfg = DominanceConfig(dialogues=n, language="direct", transcripts=False, version=version,
                                  max_turns=200, domain=domain)
            out[version] = [STUDY.run_job(cfg, Job(i, (i,))).record["records"] for i in range(n)]
        looped = 0
        for r1, r2 in zip(out["v1"], out["v2"]):
            for pair, rec in r1.items():
                assert (rec["outcome"] == "booked", rec["booked"]) == \
                       (r2[pair]["outcome"] == "booked", r2[pair]["booked"])
                looped += rec["outcome"] == "turn-limit"
        assert looped > 0   # v1 does loop on these dialogues, so the comparison is not empty
