"""The buy-sell study's table: one row per (seller, buyer) pair, beside the paper's logs' figures for
the same pair of models where the logs have it."""

from __future__ import annotations

from simcore.systems.buysell.evidence import LOG_PAIRS
from simcore.tables import Num, Table


def _num(m: dict, name: str, pct: bool = False) -> Num:
    x, ci = m[name], m.get(f"{name}_ci95")
    lo, hi = ci if ci else (None, None)
    text = "-" if x is None else (f"{100 * x:.1f}%" if pct else f"{x:.2f}")
    if ci and x is not None:
        text += f" [{100 * lo:.0f}, {100 * hi:.0f}]" if pct else f" [{lo:.2f}, {hi:.2f}]"
    return Num(x, text, lo, hi)


def pairs_table(config, results) -> Table:
    rows, logged = [], config.cost == (40, 40) and config.value == (60, 60)  # the logs' scenario
    for key, m in results.items():
        seller, buyer = key.split("__")
        logs = LOG_PAIRS.get((seller, buyer)) if logged else None
        rows.append((seller, buyer, m["episodes"], _num(m, "deal_rate", True),
                     *(_num(m, f"{k}_mean") for k in ("price", "seller_payoff", "buyer_payoff", "turns")),
                     m["invalid_moves"], f"{logs[1]}/{logs[0]}" if logs else None, logs[2] if logs else None))
    cost, value = (f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in (config.cost, config.value))
    return Table("buysell_pairs", f"NegotiationArena buy-sell: seller stand-in x buyer stand-in, cost {cost}, "
                 f"willingness {value}, {config.turns} turns, {config.episodes} episodes each",
                 ("seller", "buyer", "episodes", "deals", "price", "seller payoff", "buyer payoff", "turns",
                  "invalid", "logs deals", "logs price"), rows,
                 note="deals: share with its 95% Wilson interval; price: mean over deals, payoffs: mean over all "
                      "episodes (0 without a trade), each with its 95% t interval; logs (cost 40 / willingness 60 "
                      "only): the paper's logs for the same pair of models (deals of games, median price), figures "
                      "the stand-ins were not built from")
