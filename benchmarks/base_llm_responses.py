"""How the Base-LLM role answers the deal on the table in the public benchmark's logs.

    python benchmarks/base_llm_responses.py PATH/TO/LLM-Deliberation [--logs logs/all_coop_temp1_base_gpt4]

Evidence for a negotiator that learns what each other party needs from its answers
(``acceptance_rule="learnt"``).  In the benchmark (and in the seed's sec. 2: "in each round t, a designated party
proposes a deal d_t and a natural language utterance u_t") a party's answer to the deal on
the table is its own turn: a public text with a deal in it.  This script reads each answer
against the deal on the table (the last parsed deal before it) and counts, with **stated
keyword and structure rules -- not a classifier, and not checked by hand answer by answer**:

structure (exact, from the parsed deals)
  * ``same``: the answer re-proposes the deal on the table unchanged; ``changed k``: it
    changes k issues of it (a counter).
  * with the benchmark's own score tables and thresholds (the log folder's scores_files):
    whether the table deal met the answering party's threshold, crossed with the answer's
    class; for each changed issue, whether the new option scores higher, equal or lower for
    the answering party; whether its counter meets its own threshold.
  * how the next proposer (another party) treats an answer that changed issues: of the
    options the answer changed to, the share the next deal keeps, against the share of
    the answer's unchanged options it keeps; and whether the next deal meets the
    answering party's threshold, split by whether the table deal had met it.
  * whether an option an answer changed to is in the session's final deal, against the
    options of the same answer that were already on the table.

words (regular expressions on the answer's text outside the <DEAL> tag, case-insensitive)
  * accept: ``accept|agree|support|endorse`` followed by ``the|this|that|these|a|our|
    your|with|to|on`` within two words -- a proposal- or deal-directed assent phrase;
  * reject: ``reject|cannot accept|can't accept|unacceptable|not acceptable|cannot
    support|can't support|cannot agree|can't agree|oppose|disagree``;
  * need: ``need|needs|require|requires|required|must|essential|crucial|insist|
    non-negotiable|vital|necessity`` in the same sentence as an option id (``A1``..``E5``,
    the benchmark's option labels) -- an answer naming an option it says it needs;
  * option named: an option id anywhere in the text outside the tag.
  Sentences are split at ``.``, ``!``, ``?`` and ``;``.  These are crude on purpose: the
  counts are an upper bound for accept (``support`` also fires on "supports job
  creation" only when followed by one of the listed words) and say nothing of tone.

Nothing of the repository is copied into simcore; this script only reads a checkout.
Recorded output: benchmarks/results-base-llm-logs.md ("How the others answer the deal on
the table").
"""

from __future__ import annotations

import collections
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from base_llm_logs import open_logs, parse_deal  # noqa: E402

ACCEPT = re.compile(r"\b(accept|agree|support|endorse)\w*\s+(\w+\s+)?(the|this|that|these|a|our|your|with|to|on)\b",
                    re.I)
REJECT = re.compile(r"\b(reject\w*|cannot accept|can't accept|unacceptable|not acceptable|cannot support|"
                    r"can't support|cannot agree|can't agree|oppose\w*|disagree\w*)\b", re.I)
NEED = re.compile(r"\b(need|needs|require|requires|required|must|essential|crucial|insist\w*|non-negotiable|vital|"
                  r"necessity)\b", re.I)
OPTION = re.compile(r"\b([A-E])\s?([1-5])\b")
_TAG = re.compile(r"<DEAL>.*?</DEAL>", re.S)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"[.!?;]", text) if s.strip()]


def main() -> None:
    folder, tables, tau, sizes, score = open_logs()

    c = collections.Counter()
    by_meets = collections.defaultdict(collections.Counter)  # table met the answerer's threshold? -> class
    gain = collections.Counter()  # per changed issue: the new option higher / equal / lower for the answerer
    next_keep = collections.Counter()  # changed-to options kept by the next deal, unchanged options kept
    next_meets = collections.defaultdict(collections.Counter)
    final_has = collections.Counter()
    words_by_class = collections.defaultdict(collections.Counter)
    need_named = collections.Counter()
    sessions = sorted(glob.glob(os.path.join(folder, "history*.json")))
    for path in sessions:
        with open(path, encoding="utf-8") as fh:
            rounds = json.load(fh)["rounds"]
        parsed = []  # (turn, party, deal, text)
        for t, r in enumerate(rounds):
            text = r.get("public_answer") or ""
            deal = parse_deal(text or r.get("full_answer"), sizes)
            if deal is not None:
                parsed.append((t, r["agent"], deal, text))
        final = parsed[-1][2] if parsed else None
        for i in range(1, len(parsed)):
            _t, party, deal, text = parsed[i]
            table = parsed[i - 1][2]
            c["answers"] += 1
            k = sum(a != b for a, b in zip(deal, table))
            cls = "same" if k == 0 else "changed"
            c[f"changed {k}"] += 1
            meets = score(party, table) >= tau[party]
            by_meets["table meets own threshold" if meets else "table below own threshold"][cls] += 1
            if k:
                c["counter meets own threshold"] += score(party, deal) >= tau[party]
                for m, (a, b) in enumerate(zip(table, deal)):
                    if a != b:
                        d = tables[party][m][b] - tables[party][m][a]
                        gain["higher" if d > 0 else "equal" if d == 0 else "lower"] += 1
            rest = _TAG.sub(" ", text)
            flags = {"accept": bool(ACCEPT.search(rest)), "reject": bool(REJECT.search(rest)),
                     "option named": bool(OPTION.search(rest))}
            need_opts = set()
            for s in _sentences(rest):
                if NEED.search(s):
                    need_opts |= {(ord(a) - 65, int(b) - 1) for a, b in OPTION.findall(s)}
            flags["need + option"] = bool(need_opts)
            for f, v in flags.items():
                c[f] += v
                words_by_class[cls][f] += v
            words_by_class[cls]["n"] += 1
            for m, o in need_opts:
                if m < len(deal):
                    need_named["in its own deal" if deal[m] == o else "not in its own deal"] += 1
                    need_named["on the table before" if table[m] == o else "not on the table before"] += 1
                    row = tables[party][m]
                    need_named["its best option of the issue" if row[o] == max(row) else "not its best option"] += 1
            if k and i + 1 < len(parsed) and parsed[i + 1][1] != party:
                nxt = parsed[i + 1][2]
                who = "refuser" if not meets else "satisfied"
                for m, (a, b) in enumerate(zip(table, deal)):
                    key = "changed-to" if a != b else "unchanged"
                    for kk in (key, f"{key} ({who})"):
                        next_keep[f"{kk} n"] += 1
                        next_keep[f"{kk} kept"] += nxt[m] == b
                nm = score(party, nxt) >= tau[party]
                next_meets["after a counter, table had met" if meets else "after a counter, table below"][nm] += 1
                for x in tables:  # the silent parties the answer's deal satisfies, as a baseline
                    if x not in (party, parsed[i + 1][1]) and score(x, deal) >= tau[x]:
                        was = score(x, table) >= tau[x]
                        next_meets["silent party the counter satisfies, table had met" if was else
                                   "silent party the counter satisfies, table below"][score(x, nxt) >= tau[x]] += 1
            if k and final is not None and i < len(parsed) - 1:
                for m, (a, b) in enumerate(zip(table, deal)):
                    key = "changed-to" if a != b else "unchanged"
                    final_has[f"{key} n"] += 1
                    final_has[f"{key} in final"] += final[m] == b
    n = c["answers"]
    pred = _predictions(folder, tables, tau, sizes, score)
    print(f"{folder}: {len(sessions)} sessions, {n} answers with a parsed deal and a parsed deal on the table")
    print("rules: keyword and structure rules (see the docstring), not a classifier")
    print("answers by issues changed in the deal on the table:",
          ", ".join(f"{k} {c[f'changed {k}']} ({c[f'changed {k}'] / n:.3f})" for k in range(6)))
    for key in sorted(by_meets):
        v = by_meets[key]
        tot = sum(v.values())
        print(f"  {key}: {tot} answers, same {v['same']} ({v['same'] / tot:.3f}), changed {v['changed']}")
    cc = n - c["changed 0"]
    print(f"counters meeting the answerer's own threshold: {c['counter meets own threshold']} of {cc} "
          f"({c['counter meets own threshold'] / cc:.3f})")
    g = sum(gain.values())
    print("each changed issue, the new option for the answerer: " +
          ", ".join(f"{k} {gain[k]} ({gain[k] / g:.3f})" for k in ("higher", "equal", "lower")))
    print("words (outside the deal tag), all answers: " +
          ", ".join(f"{f} {c[f]} ({c[f] / n:.3f})" for f in ("accept", "reject", "need + option", "option named")))
    for cls in ("same", "changed"):
        w = words_by_class[cls]
        print(f"  answers '{cls}' ({w['n']}): " + ", ".join(f"{f} {w[f]}" for f in
                                                              ("accept", "reject", "need + option", "option named")))
    print("options named in a need sentence:", dict(need_named))
    for key in ("changed-to", "unchanged", "changed-to (refuser)", "unchanged (refuser)", "changed-to (satisfied)",
                "unchanged (satisfied)"):
        print(f"next proposer (another party) keeps the answer's {key} options: {next_keep[f'{key} kept']} of "
              f"{next_keep[f'{key} n']} ({next_keep[f'{key} kept'] / next_keep[f'{key} n']:.3f})")
    for key in sorted(next_meets):
        v = next_meets[key]
        print(f"  {key}: the next deal meets that party's threshold {v[True]} of {v[True] + v[False]} "
              f"({v[True] / (v[True] + v[False]):.3f})")
    for key in ("changed-to", "unchanged"):
        print(f"the answer's {key} options in the session's final deal: {final_has[f'{key} in final']} of "
              f"{final_has[f'{key} n']} ({final_has[f'{key} in final'] / final_has[f'{key} n']:.3f})")
    print("predicting whether party j accepts each later deal (j has proposed before; truth: its score >= its "
          "threshold), over", pred.pop("pairs"), "(deal, party) pairs:")
    for name, v in pred.items():
        tp, fp, fn, tn = v["tp"], v["fp"], v["fn"], v["tn"]
        print(f"  {name}: accuracy {(tp + tn) / (tp + fp + fn + tn):.3f}, predicted accept {(tp + fp)} "
              f"(right {tp / max(tp + fp, 1):.3f}), of the accepted ones found {tp / max(tp + fn, 1):.3f}")


def _predictions(folder, tables, tau, sizes, score):
    """The learnt acceptance line (simcore's ``acceptance_rule`` learnt) as a predictor in the logs,
    against the share rule at 0.5: j's acceptance of each deal put on the table after j's first
    proposal, predicted from j's deals so far -- on the echo of j's deals (100/M per issue times
    the share of j's deals holding the option, as simcore's Base-LLM stand-in reads them) and on
    j's true table (a reader that knows the table but not the threshold)."""
    import itertools

    import numpy as np

    every = np.array(list(itertools.product(*map(range, sizes))))
    M = len(sizes)
    out = {k: collections.Counter() for k in ("echo, learnt line", "echo, share 0.5", "true table, learnt line")}
    pairs = 0
    for path in sorted(glob.glob(os.path.join(folder, "history*.json"))):
        with open(path, encoding="utf-8") as fh:
            rounds = json.load(fh)["rounds"]
        seen = collections.defaultdict(list)
        for t, r in enumerate(rounds):
            deal = parse_deal(r.get("public_answer") or r.get("full_answer"), sizes)
            if deal is None:
                continue
            for j, mine in seen.items():
                if j == r["agent"] or not mine:
                    continue
                arr = np.asarray(mine)
                rows = [np.bincount(arr[:, m], minlength=k) * (100.0 / (M * len(arr))) for m, k in enumerate(sizes)]
                def est(d, rows=rows):
                    return sum(rows[m][o] for m, o in enumerate(d))
                all_est = sum(rows[m][every[:, m]] for m in range(M))
                truth = score(j, deal) >= tau[j]
                guesses = {"echo, learnt line": est(deal) >= min(est(p) for p in mine) - 1e-9,
                           "echo, share 0.5": est(deal) >= np.sort(all_est)[len(all_est) - len(all_est) // 2] - 1e-9,
                           "true table, learnt line": score(j, deal) >= min(score(j, p) for p in mine)}
                pairs += 1
                for k, g in guesses.items():
                    out[k]["tp" if g and truth else "fp" if g else "fn" if truth else "tn"] += 1
            if t > 0:  # the opening is the game's initial deal
                seen[r["agent"]].append(deal)
    out["pairs"] = pairs
    return out


if __name__ == "__main__":
    main()
