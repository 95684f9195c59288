"""ASTRA's tactics, concessions and walk-aways in play, per partner setting.

Plays ``--seeds`` episodes (seeds 0..N-1) of each agent against each of the nine partner
settings (the five stand-ins for the paper's GPT-4o Partner-Base and the greedy, fair, boulware
and conceder partners) in each CaSiNo setup, through ``simcore.astra_episode`` (the mock
language layer with its injected noise), and prints, as markdown tables:

* the tactic chosen for each agent offer, counted per partner setting;
* the mean concession per tactic: the drop in the agent's own score from its previous offer
  (Section 4.5: "The Logrolling (LGR) tactic produced the largest concessions");
* walk-aways by cause: the agent's walk-away after injected noise in the episode (a misread
  stated priority, else an unclear answer; simcore.noise) or by a rule on true readings.

    python benchmarks/astra_tactics.py                      # astra-agent-v4, 20 seeds (540 episodes)
    python benchmarks/astra_tactics.py --agent astra-agent-v3 --seeds 20
    python benchmarks/astra_tactics.py --domain research-allocation-v1
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict

import simcore
from policies.astra_modules import TACTICS
from simcore.metrics.astra import walk_away_cause
from simcore.noise import astra_notes

PARTNERS = ("base-partner-v2", "base-partner-v1", "base-partner-firm-v1", "base-partner-human-v1",
            "base-partner-soft-v1", "greedy-partner-v1", "fair-partner-v1", "boulware-partner-v1",
            "conceder-partner-v1")
SETUPS = ("integrative", "distributive", "mixed")
CAUSES = ("rule", "misread", "unclear")


def offers(ep):
    """(tactic, concession) of each agent offer as the agent decided it (its stage-3 trace, whether
    or not its words then stated a valid offer); concession: the drop in the agent's own score
    from its previous offer, None for the first."""
    out, prev = [], None
    for e in ep.events:
        trace = e.hidden.get("trace") if e.speaker == "agent" and e.phase == "offer" else None
        if not trace or trace.get("chosen") is None:
            continue
        s_a = trace["candidates"][trace["chosen"]][1]
        out.append((trace.get("tactic"), None if prev is None else prev - s_a))
        prev = s_a
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="astra-agent-v4")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--domain", default="casino-v1", help="casino-v1 or research-allocation-v1 (Table 8)")
    args = ap.parse_args(argv)
    if args.seeds < 1:
        print("--seeds: at least 1", file=sys.stderr)
        return 2
    counts: dict = defaultdict(Counter)
    conc: dict = defaultdict(list)
    walks: dict = defaultdict(Counter)
    episodes = Counter()
    for partner in PARTNERS:
        for setup in SETUPS:
            for seed in range(args.seeds):
                ep = simcore.astra_episode(args.agent, partner, domain=args.domain, setup=setup, seed=seed)
                episodes[partner] += 1
                for tactic, c in offers(ep):
                    counts[partner][tactic] += 1
                    if c is not None:
                        conc[tactic].append(c)
                if ep.status == "walk_away" and ep.walked_by == "agent":
                    walks[partner][walk_away_cause(astra_notes(ep.events).values())] += 1
    total = Counter()
    for c in counts.values():
        total.update(c)
    print(f"Tactics chosen in play: {args.agent}, {args.domain}, {args.seeds} seeds x {len(SETUPS)} setups per partner "
          f"({sum(episodes.values())} episodes, {sum(total.values())} offers)\n")
    print("| partner | episodes | offers | " + " | ".join(TACTICS) + " |")
    print("|---|" + "---:|" * (2 + len(TACTICS)))
    for partner in PARTNERS + ("all",):
        c = total if partner == "all" else counts[partner]
        n = sum(episodes.values()) if partner == "all" else episodes[partner]
        print(f"| {partner} | {n} | {sum(c.values())} | " + " | ".join(str(c.get(t, 0)) for t in TACTICS) + " |")
    print("\nMean concession per tactic (the agent's own score drop from its previous offer, points)\n")
    print("| tactic | offers after the first | mean concession | largest |")
    print("|---|---:|---:|---:|")
    for t in sorted(conc, key=lambda t: -sum(conc[t]) / len(conc[t])):
        xs = conc[t]
        print(f"| {t} | {len(xs)} | {sum(xs) / len(xs):.2f} | {max(xs):g} |")
    print("\nThe agent's walk-aways by cause\n")
    print("| partner | episodes | walk-aways | rule on true readings | misread | unclear answer |")
    print("|---|---:|---:|---:|---:|---:|")
    for partner in PARTNERS + ("all",):
        w = sum(walks.values(), Counter()) if partner == "all" else walks[partner]
        n = sum(episodes.values()) if partner == "all" else episodes[partner]
        print(f"| {partner} | {n} | {sum(w.values())} | " + " | ".join(str(w.get(k, 0)) for k in CAUSES) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
