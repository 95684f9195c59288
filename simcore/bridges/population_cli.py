"""``simcore run astra-population``: the command of :mod:`simcore.bridges.negmas.population_study`.

The study needs the NegMAS extra; this module does not import it, so that ``simcore run --help``
lists the command without it, and the command says in one line what to install."""

from __future__ import annotations

import importlib
import importlib.util

import click

from simcore.cli_options import CommaChoice, common_options
from simcore.errors import InputError
from simcore.launch import launch
from simcore.systems.astra.registry import PARTNERS, SETUPS

NAME = "astra-population"
#: where ``launch`` and the sweep log find the study
STUDY_PATH = "simcore.bridges.negmas.population_study:STUDY"
PACKAGES = ("negmas_genius_agents", "negmas_negolog")


@click.command(name=NAME)
@common_options(NAME)
@click.option("--domain", default="casino-v1", show_default=True,
              help="Shipped domain id or a domain JSON file (its setups are the priority pairings).")
@click.option("--setups", default=",".join(SETUPS), show_default=True, help="Comma-separated setups of the domain.")
@click.option("--episodes", type=click.IntRange(1, 100_000), default=3, show_default=True,
              help="Seeds per agent x opponent x setup.")
@click.option("--agents", type=CommaChoice(("astra", "no-astra")), default="astra,no-astra", show_default=True)
@click.option("--references", default=",".join(PARTNERS), show_default=True,
              help="simcore's partners played as the reference (comma-separated study names; empty: none).")
@click.option("--packages", default=",".join(PACKAGES), show_default=True,
              help="The NegMAS agent packages whose every agent is an opponent (comma-separated).")
@click.option("--opponent", "extra", multiple=True, metavar="package.module:Class",
              help="A further NegMAS negotiator as an opponent (repeatable).")
@click.option("--exclude", multiple=True, metavar="package:Class", help="Leave this agent out (repeatable).")
@click.option("--answers", type=click.Choice(["truthful", "none"]), default="truthful", show_default=True,
              help="What a NegMAS agent answers to a priority question: truthfully, from its own valuation, "
                   "or nothing.")
@click.option("--rounds", "round_limit", type=click.IntRange(2, 10_000), default=15, show_default=True)
@click.option("--notice-rounds", type=click.IntRange(0, 10_000), default=2, show_default=True)
@click.option("--no-deal-payoff", type=click.Choice(["zero", "batna"]), default="zero", show_default=True)
def command(seed, workers, out, progress, domain, setups, episodes, agents, references, packages, extra, exclude,
            answers, round_limit, notice_rounds, no_deal_payoff):
    """ASTRA and the agent without ASTRA against every agent of the NegMAS agent packages (with
    simcore's partners as the reference); needs the negmas extra."""
    if importlib.util.find_spec("negmas") is None:
        raise InputError(NAME, "", "needs NegMAS and its agents: pip install 'simcore[negmas]' "
                                   "negmas-genius-agents negmas-negolog")
    # (the NegMAS extra is optional: the study module imports it, so it is imported here, when run)
    population = importlib.import_module("simcore.bridges.negmas.population_study")
    from_list = lambda text: tuple(x.strip() for x in text.split(",") if x.strip())  # noqa: E731
    bad = [p for p in from_list(packages) if importlib.util.find_spec(p) is None]
    if bad:
        raise InputError("--packages", ",".join(bad), "not installed (pip install "
                         + " ".join(p.replace("_", "-") for p in bad) + ")")
    try:
        config = population.PopulationConfig(
            seed=seed, domain=domain, setups=from_list(setups), episodes=episodes, agents=agents,
            references=from_list(references), packages=from_list(packages), extra=extra, exclude=exclude,
            answers=answers, round_limit=round_limit, notice_rounds=notice_rounds, no_deal_payoff=no_deal_payoff)
    except ValueError as exc:
        raise InputError(NAME, "", str(exc)) from None
    domain_obj = population.load_domain(domain)
    unknown = [s for s in config.setups if s not in domain_obj.setup_names]
    if unknown or not config.setups:
        raise InputError("--setups", ",".join(unknown) or "(empty)", f"valid: {', '.join(domain_obj.setup_names)}")
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)
