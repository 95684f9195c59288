"""The buy-sell study: every seller stand-in against every buyer stand-in, as the paper's section one
plays every ordered pair of models (cost 40, willingness 60, 10 turns).

One job per (seller, buyer) pair; each episode draws the seller's cost and the buyer's willingness
uniformly from ``cost`` and ``value`` (inclusive ranges; the defaults are section one's fixed 40 and
60, and ``--cost 20-40 --value 60-80`` the draws of the paper's ``split_the_difference.py:26-27``)
from ``derive(seed, "buysell", seller, buyer, episode)``, so results do not depend on the worker
count.  ``metrics.json`` holds ``{"system": "buysell", "seed": S, "results": {"<seller>__<buyer>":
{...}}, ...}``.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from mockllm.client import CallStats
from simcore.argcheck import seat_ref
from simcore.backends import build_backend
from simcore.metrics.proportions import wilson95
from simcore.protocols.buysell import Scenario
from simcore.seeding import child, derive
from simcore.study import Job, JobOutput, Summary, config_block, with_model_calls
from simcore.sweep import mean_ci
from simcore.systems.buysell.match import start
from simcore.systems.buysell.registry import NAMES, SYSTEM
from simcore.systems.buysell.tables import pairs_table


def _seats(seat: str):
    def check(_inst, _attr, value) -> None:
        for v in value or ("",):
            why = seat_ref(v, SYSTEM, seat, tuple(NAMES[seat])) if v else "none given"
            if why:
                raise ValueError(f"{seat}s: {why}")
    return check


def _range(_inst, attr, value) -> None:
    if len(value) != 2 or not all(type(v) is int for v in value) or not 0 <= value[0] <= value[1]:
        raise ValueError(f"{attr.name}: expected whole numbers LO <= HI, got {value!r}")


@attrs.frozen
class BuySellConfig:
    seed: int = 0
    episodes: int = attrs.field(default=50, validator=attrs.validators.ge(1))
    sellers: tuple = attrs.field(default=tuple(NAMES["seller"]), converter=tuple, validator=_seats("seller"))
    buyers: tuple = attrs.field(default=tuple(NAMES["buyer"]), converter=tuple, validator=_seats("buyer"))
    cost: tuple = attrs.field(default=(40, 40), converter=tuple, validator=_range)
    value: tuple = attrs.field(default=(60, 60), converter=tuple, validator=_range)
    budget: int = attrs.field(default=100, validator=attrs.validators.ge(1))
    turns: int = attrs.field(default=10, validator=attrs.validators.ge(2))
    enforce_limit: bool = True
    backend: str = "mock-v1"
    backend_args: tuple = attrs.field(default=(), converter=tuple)
    record: str | None = None
    replay: str | None = None
    replay_misses: str = attrs.field(default="error", validator=attrs.validators.in_(("error", "fallback")))
    keep_transcripts: bool = True
    #: who takes a seat in every episode (--seat SEAT=POLICY), over --sellers / --buyers
    seats: tuple = attrs.field(default=(), converter=lambda v: tuple((str(a), str(b)) for a, b in v))

    def seat_list(self, seat: str) -> tuple:
        return (dict(self.seats)[seat],) if seat in dict(self.seats) else getattr(self, f"{seat}s")


def aggregate(records: Sequence[dict]) -> dict:
    """A pair's episodes: deal share (Wilson interval), the mean price of the deals and each seat's
    mean payoff over all episodes (Student t intervals), mean turns, invalid moves."""
    deals = [r for r in records if r["status"] == "deal"]
    out = {"episodes": len(records), "deals": len(deals), "deal_rate": len(deals) / len(records),
           "deal_rate_ci95": wilson95(len(deals), len(records)),
           "invalid_moves": sum(r["invalid_moves"] for r in records)}
    for name, values in (("price", [r["price"] for r in deals]),
                         *((k, [r[k] for r in records]) for k in ("seller_payoff", "buyer_payoff", "turns"))):
        _n, mean, _sd, lo, hi = mean_ci([float(v) for v in values])
        out[f"{name}_mean"], out[f"{name}_mean_ci95"] = mean, None if lo is None else [lo, hi]
    return out


class BuySellStudy:
    sweep_headline = ("results.*.deal_rate", "results.*.price_mean", "results.*.seller_payoff_mean")
    sweep_shares = {"results.*.deal_rate": "episodes"}
    name, config = SYSTEM, BuySellConfig

    def jobs(self, config: BuySellConfig) -> list[Job]:
        pairs = [(s, b) for s in config.seat_list("seller") for b in config.seat_list("buyer")]
        return [Job(index=i, key=k, params={}) for i, k in enumerate(pairs)]

    def run_job(self, config: BuySellConfig, job: Job) -> JobOutput:
        seller, buyer = job.key
        backend = build_backend(config.backend, config.backend_args, record=config.record, replay=config.replay,
                                replay_misses=config.replay_misses)
        records, events, stats = [], [], CallStats()
        for ep_i in range(config.episodes):
            seq = derive(config.seed, SYSTEM, seller, buyer, ep_i)
            draw = child(seq, "scenario")
            scenario = Scenario(int(draw.integers(config.cost[0], config.cost[1] + 1)),
                                int(draw.integers(config.value[0], config.value[1] + 1)), config.budget)
            ep, rec = start(scenario, seq, seller=seller, buyer=buyer, backend=backend, turns=config.turns,
                            run_id=f"{SYSTEM}/s{config.seed}/{seller}/{buyer}/e{ep_i}",
                            enforce_limit=config.enforce_limit, stats=stats).run()
            records.append(rec)
            if config.keep_transcripts:
                events.extend(ep.events)
        return JobOutput(key=job.key, record={"episodes": records}, events=tuple(events),
                         fallbacks=sum(r["fallbacks"] for r in records), calls=stats.task_counts())

    def summarize(self, config: BuySellConfig, outputs: Sequence[JobOutput]) -> Summary:
        results = {f"{o.key[0]}__{o.key[1]}": aggregate(o.record["episodes"]) for o in outputs}
        metrics = {"system": SYSTEM, "seed": config.seed, "results": results, "config": config_block(config),
                   "fallbacks": int(sum(o.fallbacks for o in outputs))}
        return with_model_calls(Summary(SYSTEM, metrics, [pairs_table(config, results)]), outputs)


STUDY = BuySellStudy()
