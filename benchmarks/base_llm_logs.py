"""What the Base-LLM role does in the public benchmark's own logs (evidence for its stand-in).

    python benchmarks/base_llm_logs.py PATH/TO/LLM-Deliberation [--logs logs/all_coop_temp1_base_gpt4]

The scorable seed's Base-LLM is "the original implementation where agents negotiate based
on prompts" (sec. 4.1): the agents of Abdelnabi et al. 2024, whose repository
(github.com/S-Abdelnabi/LLM-Deliberation) holds GPT-4 sessions of this very game
(Harbour Sport Park, all parties cooperative, temperature 1) with the score tables and
the benchmark's thresholds.  This script reads every session and prints:

* FAR / PAR / LAR under the benchmark's thresholds (the seed's own thresholds differ);
* the share ``(own - tau) / (best - tau)`` each proposal kept above its proposer's
  threshold, by sixth of the session, its linear fit over the session (the
  ``aspiration_start`` / ``aspiration_end`` of the ``logs`` stand-in), the first
  proposals' and the final proposals' shares;
* how many issues a proposal changes in the deal on the table (the ``amend_max_issues``
  of the ``logs`` stand-in: the median).

Nothing of the repository is copied into simcore; this script only reads a checkout.
Recorded output: benchmarks/results-base-llm-logs.md.
"""

from __future__ import annotations

import argparse
import collections
import glob
import itertools
import json
import os
import re
import statistics

import numpy as np

#: the benchmark's party names -> their score files (the config.txt of the log folder says so)
FILES = {"Mayor": "mayor", "Other cities": "other_cities", "Local Labour Union": "union", "SportCo": "SportCo",
         "Department of Tourism": "DoT", "Environmental League": "enviroment"}
VETO = {"SportCo", "Department of Tourism"}
_DEAL = re.compile(r"<DEAL>(.*?)</DEAL>", re.S)


def load_tables(folder: str):
    tables, thresholds = {}, {}
    for party, stem in FILES.items():
        with open(os.path.join(folder, "scores_files", f"{stem}.txt"), encoding="utf-8") as fh:
            rows = [line for line in fh.read().split("\n") if line.strip()]
        tables[party] = [[int(x) for x in row.split(",")] for row in rows[:5]]
        thresholds[party] = int(rows[5])
    return tables, thresholds


def parse_deal(text: str | None, sizes) -> tuple[int, ...] | None:
    found = _DEAL.findall(text or "")
    if not found:
        return None
    picks = dict((letter, int(k) - 1) for letter, k in re.findall(r"([A-E])\s*(\d)", found[-1]))
    if sorted(picks) != list("ABCDE"):
        return None
    deal = tuple(picks[c] for c in "ABCDE")
    return deal if all(0 <= o < n for o, n in zip(deal, sizes)) else None


def open_logs(description: str | None = None):
    """The command line shared by the scripts that read the logs (the checkout, ``--logs``):
    ``(folder, tables, thresholds, option counts per issue, score(party, deal))``."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("repo", help="a checkout of github.com/S-Abdelnabi/LLM-Deliberation")
    ap.add_argument("--logs", default="logs/all_coop_temp1_base_gpt4")
    args = ap.parse_args()
    folder = os.path.join(args.repo, args.logs)
    tables, tau = load_tables(folder)
    sizes = [len(r) for r in tables["SportCo"]]

    def score(party, deal):
        return sum(tables[party][m][o] for m, o in enumerate(deal))

    return folder, tables, tau, sizes, score


def main() -> None:
    folder, tables, tau, sizes, score = open_logs()

    best = {p: max(score(p, d) for d in itertools.product(*map(range, sizes))) for p in tables}

    def passes(deal):
        ok = {p for p in tables if score(p, deal) >= tau[p]}
        return len(ok) >= len(tables) - 1 and VETO <= ok, len(ok) == len(tables)

    shares, firsts, finals, changed = [], [], [], collections.Counter()
    others_ok = []  # (frac, share of the other parties accepting the proposal, passes?)
    accepted_by = collections.defaultdict(list)  # party -> 1/0 for every proposal by another party
    outcome = collections.Counter()
    sessions = sorted(glob.glob(os.path.join(folder, "history*.json")))
    for path in sessions:
        with open(path, encoding="utf-8") as fh:
            rounds = json.load(fh)["rounds"]
        deals, seen, table = [], set(), None
        for t, r in enumerate(rounds):
            deal = parse_deal(r.get("public_answer") or r.get("full_answer"), sizes)
            if deal is None:
                outcome["unparsed"] += 1
                continue
            party = r["agent"]
            x = (score(party, deal) - tau[party]) / (best[party] - tau[party])
            frac = t / (len(rounds) - 1)
            if t > 0:
                shares.append((frac, x))
                ok = [score(p, deal) >= tau[p] for p in tables if p != party]
                others_ok.append((frac, sum(ok) / len(ok), passes(deal)[0]))
                for p in tables:
                    if p != party:
                        accepted_by[p].append(score(p, deal) >= tau[p])
                if party not in seen:
                    seen.add(party)
                    firsts.append(x)
            if table is not None:
                changed[sum(a != b for a, b in zip(deal, table))] += 1
            table = deal
            deals.append(deal)
        if deals:
            finals.append((score(rounds[-1]["agent"], deals[-1]) - tau[rounds[-1]["agent"]])
                          / (best[rounds[-1]["agent"]] - tau[rounds[-1]["agent"]]))
            par, full = passes(deals[-1])
            outcome["FAR"] += full
            outcome["PAR"] += par
            outcome["LAR"] += any(passes(d)[0] for d in deals)
    n = len(sessions)
    print(f"{folder}: {n} sessions, {len(shares) + n} proposals parsed, {outcome['unparsed']} unparsed")
    print(f"FAR {outcome['FAR'] / n:.3f}  PAR {outcome['PAR'] / n:.3f}  LAR {outcome['LAR'] / n:.3f} "
          f"(the benchmark's thresholds {tau})")
    by_sixth = collections.defaultdict(list)
    for frac, x in shares:
        by_sixth[min(int(frac * 6), 5)].append(x)
    print("share kept above the threshold, by sixth of the session (mean):",
          ", ".join(f"{statistics.mean(by_sixth[k]):.3f}" for k in sorted(by_sixth)))
    t = np.array([f for f, _ in shares])
    x = np.array([v for _, v in shares])
    a, b = np.linalg.lstsq(np.vstack([np.ones_like(t), t]).T, x, rcond=None)[0]
    print(f"linear fit over the session (opening proposal excluded): start {a:.3f}, end {a + b:.3f}")
    print(f"first proposal of each party: mean {statistics.mean(firsts):.3f}; final proposals: mean "
          f"{statistics.mean(finals):.3f}, median {statistics.median(finals):.3f}")
    o_by = collections.defaultdict(list)
    p_by = collections.defaultdict(list)
    for frac, share, ok in others_ok:
        o_by[min(int(frac * 6), 5)].append(share)
        p_by[min(int(frac * 6), 5)].append(ok)
    print("share of the other parties accepting a proposal, by sixth of the session (mean):",
          ", ".join(f"{statistics.mean(o_by[k]):.3f}" for k in sorted(o_by)),
          f"; all turns {statistics.mean(s for _, s, _ in others_ok):.3f}")
    print("share of proposals that pass, by sixth:", ", ".join(f"{statistics.mean(p_by[k]):.3f}" for k in sorted(p_by)),
          f"; all turns {statistics.mean(float(ok) for _, _, ok in others_ok):.3f}")
    print("share of the others' proposals each party accepts:",
          ", ".join(f"{p} {statistics.mean(v):.3f}" for p, v in accepted_by.items()))
    total = sum(changed.values())
    cum, median = 0, None
    for k in sorted(changed):
        cum += changed[k]
        if median is None and cum * 2 >= total:
            median = k
    print("issues changed in the deal on the table:", dict(sorted(changed.items())), f"median {median}")


if __name__ == "__main__":
    main()
