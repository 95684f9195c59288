"""Does the v2 exit (``exit.repeat``) ever end a dialogue that would have booked?

Plays the same dialogues (seed 0, every relation pair) with the v1 policies (no such exit)
and the v2 policies under one long turn limit, and counts the dialogues v1 books that v2
does not, or books elsewhere.  Used for docs/systems/dominance.md's exit rules::

    python benchmarks/dominance_exit_check.py restaurants-small-v1 300 200
    python benchmarks/dominance_exit_check.py restaurants-420-v1 100 200
"""

from __future__ import annotations

import sys

from simcore.systems.dominance import STUDY, DominanceConfig
from simcore.study import Job


def main(domain: str = "restaurants-small-v1", n: int = 300, max_turns: int = 200) -> dict:
    res = {}
    for version in ("v1", "v2"):
        cfg = DominanceConfig(dialogues=n, language="direct", transcripts=False, version=version,
                              max_turns=max_turns, domain=domain)
        res[version] = [STUDY.run_job(cfg, Job(i, (i,))).record["records"] for i in range(n)]
    out = {"dialogues": 0, "v1_booked": 0, "v2_booked": 0, "lost_or_moved": 0, "v1_turn_limit": 0}
    for r1, r2 in zip(res["v1"], res["v2"]):
        for pair, a in r1.items():
            b = r2[pair]
            out["dialogues"] += 1
            out["v1_booked"] += a["outcome"] == "booked"
            out["v2_booked"] += b["outcome"] == "booked"
            out["v1_turn_limit"] += a["outcome"] == "turn-limit"
            out["lost_or_moved"] += a["outcome"] == "booked" and (b["outcome"] != "booked" or a["booked"] != b["booked"])
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    print(main(args[0] if args else "restaurants-small-v1", int(args[1]) if len(args) > 1 else 300,
               int(args[2]) if len(args) > 2 else 200))
