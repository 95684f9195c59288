"""Why the `responsive` scorable negotiator reaches no deal: p1's final turn, inspected.

    python benchmarks/responsive_final_turn.py [GAME] [--sessions 100]

A diagnostic, not a fit (nothing here sets a parameter): the `responsive` member's sessions
(the logs' aspiration 0.594 -> 0.374, amends within 2 issues, words, final aspiration 0.2, the
learnt acceptance line) of the Base-LLM method, and at p1's final proposal: is a passing deal
among p1's candidates (at its final aspiration, within two changes of the table; or anywhere at
that aspiration), does p1 predict the veto holders / every party accepting the deal it picks,
and does that deal pass.  Recorded in benchmarks/results-base-llm-logs.md.
"""

from __future__ import annotations

import argparse

import numpy as np

from policies.scorable import aspiration
from scenarios.scorable import load_game
from simcore.protocols.scorable import Settings
from simcore.seeding import derive
from simcore.systems.scorable import ROLES
from simcore.systems.scorable.match import start


def responsive() -> Settings:
    """The settings of the scorable.negotiator family's `responsive` member, as registered."""
    (member,) = [m for r in ROLES if r.id == "scorable.negotiator" for m in r.family if m.name == "responsive"]
    return Settings(**dict(member.overrides))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="harbour-sport-park")
    ap.add_argument("--sessions", type=int, default=100)
    args = ap.parse_args()
    g = load_game(args.game)
    S = g.deal_scores
    passing = g.passing()
    settings = responsive()
    last = g.turns + 1
    c = dict(sessions=0, passing_near=0, passing_at_level=0, veto_predicted=0, all_predicted=0, passes=0)

    p1 = g.parties[g.p1]
    if settings.final_aspiration is None:
        level = aspiration(g, g.p1, last, last, settings.concession_exponent, settings.aspiration_start,
                           settings.aspiration_end)
    else:
        level = p1.threshold + (p1.best - p1.threshold) * settings.final_aspiration

    def inspected(propose):
        """p1's built-in proposal rule, its final proposal counted."""
        def final_turn(observation):
            deal, info = propose(observation)
            if observation.final:
                ok = S[g.p1] >= level - 1e-9
                near = ok & ((g.deals != np.asarray(observation.table)).sum(1) <= 2)
                c["sessions"] += 1
                c["passing_near"] += bool((near & passing).any())
                c["passing_at_level"] += bool((ok & passing).any())
                c["veto_predicted"] += bool(info["predicted_veto_ok"])
                c["all_predicted"] += info["predicted_accept"] == g.n_parties
                c["passes"] += g.passes(deal)
            return deal, info
        return final_turn

    for t in range(args.sessions):
        match = start(g, "base-llm", derive(0, "responsive-final-turn", t), settings=settings)
        negotiator = match.agents[p1.short]  # the built-in negotiator in p1's seat
        negotiator.propose = inspected(negotiator.propose)
        match.run()
    print(args.game, c)


if __name__ == "__main__":
    main()
