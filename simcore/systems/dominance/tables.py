"""The dominance study's tables (``simcore run dominance`` prints and writes them)."""

from __future__ import annotations

from simcore.metrics.dominance import SIDES
from simcore.readings import accuracy_cell
from simcore.tables import Table


def tables(config, results, behaviour, h4=None) -> list[Table]:
    """The study's tables: the success matrix, the outcomes per pair, the utterance counts per
    side and the behaviours by relation."""
    dom = config.domain
    grid = Table(
        "dominance_matrix",
        f"Success rate / mean turns, agent relation (rows) x user relation (columns); "
        f"{config.dialogues} dialogues per cell, {dom}, {config.max_turns}-turn limit",
        ("agent \\ user",) + tuple(config.users),
        [(a,) + tuple(f"{results[f'{a}__{u}']['success_rate']:.2f} / {results[f'{a}__{u}']['mean_turns']:.1f}"
                      for u in config.users) for a in config.agents])
    rows = []
    for a in config.agents:
        for u in config.users:
            r = results[f"{a}__{u}"]
            ex = r["exits"]
            rows.append((f"{a}__{u}", r["success_rate"], r["mean_turns"], r["agent_satisfaction"],
                         r["user_satisfaction"], ex.get("exit.dead-end", 0.0), ex.get("exit.criterion", 0.0),
                         ex.get("exit.repeat", 0.0), r["outcomes"]["turn-limit"], r["fallbacks"],
                         accuracy_cell(r.get("reading_accuracy")), r.get("readings")))
    pairs = Table("dominance_results", "Outcomes per relation pair (satisfaction over booked dialogues); how each "
                  "dialogue ended: booked (success), the seed's exit (dead end: no open option; criterion: the "
                  "option, off by default), stalled (simcore's repeat backstop: the same exchange again with no "
                  "progress, options may remain), or the turn limit",
                  ("pair", "success", "turns", "agent_sat", "user_sat", "dead_end", "dead_end_criterion",
                   "stalled_repeat", "turn_limit", "fallbacks", "readings_right", "readings"), rows,
                  note="readings_right: of the listeners' readings that the checks accepted, the share that were "
                       "what the speaker said (1 with the exact mock; a parsed reading is not always a right one); "
                       "readings: how many were accepted (refused ones are counted fallbacks)")
    crows = []
    for a in config.agents:
        for u in config.users:
            r = results[f"{a}__{u}"]
            for side in SIDES:
                c = r[side]
                crows.append((f"{a}__{u}", side, c["proposals"], c["asks"], c["states"], c["accepts"],
                              c["rejects"], c["concessions"], c["leads"], c["subject_changes"]))
    counts = Table("dominance_counts", "Utterances per dialogue, by side (leads: proposing what one put forward "
                   "first, or opening a subject by stating a preference; subject_changes: the pre-issue-10 count)",
                   ("pair", "side", "proposals", "asks", "states", "accepts", "rejects", "concessions", "leads",
                    "subject_changes"), crows)
    brows = [(rel, b.get("self_centred"), b.get("proposal_share"), b.get("concessions_per_dialogue"),
              b.get("demanding"), b.get("lead_share"), b.get("subject_change_share"), b.get("forwarded_share"),
              b.get("booked_proposer_share")) for rel, b in behaviour.items()]
    beh = Table("dominance_behaviours",
                "The four observed behaviours, counted, by the speaker's relation (all pairs, both roles); whose "
                "preferences steer the booked option",
                ("relation", "H1_self_centred", "H1_proposal_share", "H2_concessions", "H3_demanding",
                 "H4_leads_own_values", "H4_opens_subjects", "forwarded_share", "booked_proposer_share"), brows,
                note="expected (original study): dominant > submissive on H1, H3, H4; dominant < submissive on H2. "
                     "H1_proposal_share: proposals / (proposals + questions), the notes' counterpart of H1; "
                     "H4 has two counts, neither the paper's: H4_leads_own_values (simcore's measure, Fig. 6 / "
                     "sec. 5.1: proposing a value one put forward first) and H4_opens_subjects (the reference "
                     "notes' counterpart, 'who opens sub-negotiations': the share of subject changes); "
                     "forwarded_share: of the booked options' values, the share this side put forward first; "
                     "booked_proposer_share: booked dialogues where this side first proposed the booked option")
    out = [grid, pairs, counts, beh]
    if h4:
        hrows = [(rel, partner, _share(v["leads_own_values"]), _share(v["opens_subjects"]))
                 for rel, by in h4.items() for partner, v in by.items()]
        out.append(Table("dominance_h4_by_partner",
                         "H4 of the speaker's relation against each partner relation (both roles), both counts "
                         "as measured",
                         ("relation", "partner", "H4_leads_own_values", "H4_opens_subjects"), hrows,
                         note="each cell: this side's share of the leads (or subject openings) of both sides; "
                              "undefined: neither side ever led (or opened a subject) in these dialogues"))
    return out


def _share(v):
    """A share, or the word ``undefined`` where its denominator is 0 (never shown as 0)."""
    return UNDEFINED if v is None else v


UNDEFINED = "undefined"
