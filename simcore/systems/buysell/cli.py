"""``simcore run buysell``: the command and the default study."""

from __future__ import annotations

import click

from simcore.cli_options import SeatChoice, backend_options, backend_settings, common_options, seat_option
from simcore.launch import launch
from simcore.systems.buysell.registry import NAMES, SYSTEM
from simcore.systems.buysell.study import BuySellConfig

#: where ``launch`` and the sweep log find the study
STUDY_PATH = f"simcore.systems.{SYSTEM}:STUDY"


def _range(_ctx, param, value: str) -> tuple:
    lo, _, hi = value.partition("-")
    try:
        out = (int(lo), int(hi or lo))
    except ValueError:
        raise click.BadParameter(f"{value!r}: expected N or LO-HI, whole numbers", param_hint=f"--{param.name}")
    if not 0 <= out[0] <= out[1]:
        raise click.BadParameter(f"{value!r}: expected 0 <= LO <= HI", param_hint=f"--{param.name}")
    return out


def _seat_help(seat: str) -> str:
    return (f"Comma-separated {seat} stand-ins: {', '.join(NAMES[seat])} (`simcore roles buysell` gives each one's "
            f"evidence), registered ids, or package.module:Class (your own agent, docs/api.md).")


@click.command(name=SYSTEM)
@common_options(SYSTEM)
@click.option("--episodes", type=click.IntRange(1, 1_000_000), default=50, show_default=True,
              help="Games per seller x buyer pair.")
@click.option("--sellers", type=SeatChoice(tuple(NAMES["seller"]), SYSTEM, "seller"),
              default=",".join(NAMES["seller"]), show_default=True, help=_seat_help("seller"))
@click.option("--buyers", type=SeatChoice(tuple(NAMES["buyer"]), SYSTEM, "buyer"),
              default=",".join(NAMES["buyer"]), show_default=True, help=_seat_help("buyer"))
@click.option("--cost", default="40", show_default=True, callback=_range, metavar="N|LO-HI",
              help="The seller's production cost, or the range each game draws it from "
                   "(20-40: split_the_difference).")
@click.option("--value", default="60", show_default=True, callback=_range, metavar="N|LO-HI",
              help="The buyer's willingness to pay, or the range each game draws it from "
                   "(60-80: split_the_difference).")
@click.option("--budget", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="The buyer's money: the highest price a proposal may name.")
@click.option("--turns", type=click.IntRange(2, 10_000), default=10, show_default=True,
              help="Turns before the game ends without a trade; each player may propose turns // 2 - 1 times.")
@click.option("--no-proposal-limit", "no_limit", is_flag=True,
              help="Allow proposals beyond the limit, as the paper's code does (it only tells the model).")
@seat_option(SYSTEM, {"seller": "seller", "buyer": "buyer"},
             "Who takes a seat in every game: seller=POLICY or buyer=POLICY, a registered id or "
             "package.module:Class (your own agent, docs/api.md); over --sellers / --buyers.")
@backend_options
def command(seed, workers, out, progress, episodes, sellers, buyers, cost, value, budget, turns, no_limit, seats,
            backend, backend_args, record, replay):
    """NegotiationArena's buy-sell game: every seller stand-in against every buyer stand-in."""
    config = BuySellConfig(seed=seed, episodes=episodes, sellers=sellers, buyers=buyers, cost=cost, value=value,
                           budget=budget, turns=turns, enforce_limit=not no_limit, seats=seats,
                           **backend_settings(backend, backend_args, record, replay, workers))
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)


#: ``simcore run --first-look``: the default study's table at a size that runs in seconds (the
#: default study: :class:`BuySellConfig`'s defaults, the four seller x the four buyer stand-ins, 50 games each)
FIRST_LOOK = {"episodes": 4}
