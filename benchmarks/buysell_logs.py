"""What the LLM players do in NegotiationArena's own buy-sell logs (evidence for the buysell stand-ins).

    python benchmarks/buysell_logs.py PATH/TO/NegotiationArena-paper_experiment_code

Reads every buy-sell game of the paper's logs with the seller's cost 40, the buyer's
willingness 60 and no social behaviour -- section one's
(``experiments/section_one/.logs/buysell_section_one``: each ordered pair of GPT-4, GPT-3.5,
Claude-2 and Claude-2.1) and section two's GPT-4 pairs without a behaviour
(``experiments/section_two/.logs/social_behaviors_buy_sell``) -- and prints, per model and seat:

* the opening price (median and quartiles of the seat's first proposal);
* the concession per own proposal, as the share of the gap between the seat's previous
  proposal and its reservation value (cost or willingness) it gives up (median, quartiles);
* how far the offer the seat accepted was from its own last proposal (median);

and, per ordered pair (seller model, buyer model), the games, the deals and the median price
(figures left to test the stand-ins, never used to set them).  An answer counts as a proposal
when it states a trade (the logs hold "PROPOSAL" and Claude's "PROPOSE").

Nothing of the repository is copied into simcore; this script only reads a checkout.
Recorded output: benchmarks/results-buysell-logs.md.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import statistics

LOGS = ("experiments/section_one/.logs/buysell_section_one", "experiments/section_two/.logs/social_behaviors_buy_sell")
SHORT = {"gpt-4-1106-preview": "gpt-4", "gpt-3.5-turbo-1106": "gpt-3.5", "claude-2": "claude-2",
         "claude-2.1": "claude-2.1"}


def _price(trade):
    if isinstance(trade, dict) and trade.get("_type") == "trade":
        return trade["_value"]["BLUE"]["_value"].get("ZUP")
    return None


def games(root: str):
    """``(seller model, buyer model, [(seat, answer, price)], final answer, price)`` of each 40/60 game."""
    for path in sorted(p for logs in LOGS for p in glob.glob(os.path.join(root, logs, "*", "game_state.json"))):
        with open(path, encoding="utf-8") as fh:
            state = json.load(fh)["game_state"]
        settings = state[0]["settings"]
        values = [v["_value"]["X"] for v in settings["player_valuation"]]
        turns = [s for s in state[1:] if s.get("current_iteration") != "END"]
        if values != [40, 60] or any(settings["player_social_behaviour"]) or not turns:
            continue
        models = [SHORT.get(p.get("model"), p.get("model")) for p in turns[0]["player_state"]]
        moves = [(t["turn"], t["player_public_info_dict"].get("player answer"),
                  _price(t["player_public_info_dict"].get("newly proposed trade"))) for t in turns]
        summary = state[-1].get("summary") or {}
        yield models[0], models[1], moves, summary.get("final_response"), _price(summary.get("proposed_trade"))


def _q(xs):
    return (statistics.median(xs), statistics.quantiles(xs, n=4)) if len(xs) > 1 else (None, None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", help="a checkout of github.com/vinid/NegotiationArena, branch paper_experiment_code")
    root = ap.parse_args().checkout
    seats = collections.defaultdict(lambda: {"open": [], "step": [], "gap": []})
    pairs = collections.defaultdict(lambda: [0, []])
    for seller, buyer, moves, final, price in games(root):
        pairs[(seller, buyer)][0] += 1
        if final == "ACCEPT" and price is not None:
            pairs[(seller, buyer)][1].append(price)
        for seat, model, reserve in ((0, seller, 40), (1, buyer, 60)):
            row = seats[(model, ("seller", "buyer")[seat])]
            own = [p for s, a, p in moves if s == seat and p is not None]
            row["open"] += own[:1]
            row["step"] += [(a - b) / (a - reserve) for a, b in zip(own, own[1:]) if a != reserve]
            for i, (s, a, _p) in enumerate(moves):
                mine = [p for s2, _a, p in moves[:i] if s2 == seat and p is not None]
                if s == seat and a == "ACCEPT" and i and mine and moves[i - 1][2] is not None:
                    row["gap"].append(abs(moves[i - 1][2] - mine[-1]))
    print("model       seat    opens  open median [quartiles]    steps  concession median [quartiles]    "
          "accept gap")
    for (model, seat), row in sorted(seats.items()):
        (om, oq), (sm, sq) = _q(row["open"]), _q(row["step"])
        gap = statistics.median(row["gap"]) if row["gap"] else None
        print(f"{model:<11} {seat:<6} {len(row['open']):>6}  {om} {oq}  {len(row['step']):>6}  "
              f"{None if sm is None else round(sm, 4)} {None if sq is None else [round(x, 4) for x in sq]}  {gap}")
    print("\nseller model  buyer model  games  deals  median price")
    for (seller, buyer), (n, prices) in sorted(pairs.items()):
        print(f"{seller:<13} {buyer:<12} {n:>5}  {len(prices):>5}  "
              f"{statistics.median(prices) if prices else None}")


if __name__ == "__main__":
    main()
