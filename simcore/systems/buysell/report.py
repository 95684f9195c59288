"""The buy-sell game in ``simcore report``: one row per (seller, buyer) pair and the step-through
(each turn's words with the action and price the game recorded)."""

from __future__ import annotations

from simcore.report.page import esc, note, table
from simcore.report.steps import Step

SYSTEM = "buysell"
KIND = "the seller__buyer pair"
#: ``simcore report`` on a sweep: the metrics drawn, each capturing (series, metric); the shares
SWEEP_HEADLINE = (r"results\.([^.]+)\.(deal_rate|price_mean|seller_payoff_mean|buyer_payoff_mean)$",)
SWEEP_PERCENT = {"deal_rate"}
_COLUMNS = ("deal_rate", "price_mean", "seller_payoff_mean", "buyer_payoff_mean", "turns_mean", "invalid_moves")


def kind(run_id: str) -> str:
    """seller__buyer pair of a run id ``buysell/s<seed>/<seller>/<buyer>/e<i>``"""
    parts = run_id.split("/")
    return "__".join(parts[2:4]) if len(parts) >= 5 else run_id


def _cell(x, pct: bool) -> str:
    return "-" if x is None else (f"{100 * x:.1f}%" if pct else f"{x:.2f}" if isinstance(x, float) else str(x))


def sections(run, sample=None) -> list[tuple[str, str, str]]:
    m = run.metrics
    rows = [(pair.replace("__", " vs "), r.get("episodes"), *(_cell(r.get(c), c == "deal_rate") for c in _COLUMNS))
            for pair, r in sorted(m.get("results", {}).items())]
    head = note(f"root seed {m.get('seed', '?')}; deals: share of episodes; price: mean over deals; payoffs: mean "
                "over all episodes (0 without a trade).")
    return [("Outcome per seller and buyer", "buysell-pairs",
             head + table(("seller vs buyer", "episodes", "deals", "price", "seller payoff", "buyer payoff",
                           "turns", "invalid"), rows))]


def step_rows(events) -> list[Step]:
    return [Step(f"t{e.round}", e.speaker, e.text or esc(str(e.intent)), e.phase, "", system=e.speaker == "system")
            for e in events]


def outcome(events) -> str:
    end = next((e for e in reversed(events) if e.phase == "end"), None)
    if end is None:
        return f"{len(events)} events"
    return f"{end.intent.get('status')}" + (f" at {end.intent['price']}" if end.intent.get("price") is not None else "")
