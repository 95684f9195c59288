"""CPU time of the dominance reader on long texts: its patterns as they are (a pattern that
opens with a phrase group anchored at clause starts) against the same patterns unanchored.

Two inputs per size: the long clause an outside tester typed into ``simcore chat
dominance`` ("I want very very ... Italian") and the worst clause found for the
patterns as they are (a pattern's opening words repeated: "I i like i like ...").  Each
time is the CPU time of the reader's pattern searches over the text (every pattern, as
``_read_text`` runs them on a text none of them reads), best of 3.  The unanchored
patterns are skipped above 10 KB, the worst clause above 25 KB (minutes).  Results: results-dominance-read.md.

    python benchmarks/bench_dominance_read.py
"""

from __future__ import annotations

import re
import time

from mockllm.dominance import AT_CLAUSE, MAX_READ_CHARS, PATTERNS

UNANCHORED = [re.compile(rx.pattern[len(AT_CLAUSE):], rx.flags) if rx.pattern.startswith(AT_CLAUSE) else rx
              for _, rx, _ in PATTERNS]
ANCHORED = [rx for _, rx, _ in PATTERNS]


def _cpu(patterns, text: str) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for rx in patterns:
            rx.search(text)
        best = min(best, time.process_time() - t0)
    return best


def _reference() -> float:
    t0 = time.process_time()
    x = 0
    for i in range(10**7):
        x += i
    return time.process_time() - t0


def main() -> None:
    print(f"reference loop (10^7 additions): {_reference():.2f} s CPU")
    print(f"reader cap MAX_READ_CHARS = {MAX_READ_CHARS}")
    print("| input | chars | anchored (s) | unanchored (s) |")
    print("|---|---|---|---|")
    for size in (1_000, 5_000, 10_000, 25_000, 200_000):
        tester = "I want " + "very " * ((size - 14) // 5) + "Italian"
        worst = ("I " + "i like " * (size // 7 + 1))[:size]
        for name, text in (("I want very ... Italian", tester), ("I i like i like ...", worst)):
            if name.startswith("I i") and size > 25_000:
                continue  # (quadratic: minutes; the reader refuses it above MAX_READ_CHARS anyway)
            before = f"{_cpu(UNANCHORED, text):.4f}" if size <= 10_000 else "(minutes; skipped)"
            print(f"| {name} | {len(text)} | {_cpu(ANCHORED, text):.4f} | {before} |")


if __name__ == "__main__":
    main()
