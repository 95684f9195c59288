"""``simcore run astra``: the command and the default study."""

from __future__ import annotations

import os

import click

from scenarios.bilateral import load_domain
from simcore.cli_options import (CommaChoice, FloatRange, SeatChoice, backend_options, backend_settings,
                                 common_options, seat_option)
from simcore.errors import InputError
from simcore.launch import launch
from simcore.systems.astra.params import _parse_agent_params, _parse_partner_params
from simcore.systems.astra.registry import (AGENTS, BASE_PARTNERS, DEFAULT_AGENTS, DEFAULT_BASE_PARTNER, PARTNERS,
                                            SETUPS, SYSTEM)
from simcore.systems.astra.render import plot_offers
from simcore.systems.astra.study import AstraConfig

#: where ``launch`` and the sweep log find the study
STUDY_PATH = f"simcore.systems.{SYSTEM}:STUDY"


def _check_setups(domain_ref: str, setups) -> tuple:
    domain = load_domain(domain_ref)
    valid = domain.setup_names
    if not setups:
        raise click.BadParameter(f"empty list; valid: {', '.join(valid)}", param_hint="--setups")
    bad = [s for s in setups if s not in valid]
    if bad:
        raise click.BadParameter(f"unknown setup(s) {', '.join(map(repr, bad))} for domain {domain.id}; "
                                 f"valid: {', '.join(valid)}", param_hint="--setups")
    return tuple(setups)


@click.command(name=SYSTEM)
@common_options(SYSTEM)
@click.option("--domain", default="casino-v1", show_default=True,
              help="Shipped domain id (casino-v1, research-allocation-v1) or a domain JSON file.")
@click.option("--setups", default=",".join(SETUPS), show_default=True,
              help="Comma-separated setups of the domain (casino: integrative, distributive, mixed).")
@click.option("--partners", type=CommaChoice(tuple(PARTNERS)), default=",".join(PARTNERS), show_default=True)
@click.option("--agents", type=SeatChoice(tuple(AGENTS), SYSTEM, "agent"), default=",".join(DEFAULT_AGENTS),
              show_default=True,
              help="astra: astra-agent-v4; no-astra: no-astra-agent-v2; astra-v3: RC with no floor at the partner's "
                   "standing offer; astra-v2: stage 3 as a fixed "
                   "precedence of tactics; astra-v1 / no-astra-v1: the first readings; "
                   "partner: the --base-partner stand-in in the agent's seat (partner-vs-partner episodes: "
                   "--agents partner --partners base); or your own agent: a registered id or "
                   "package.module:Class, built as Class(domain=, client=, rng=) with act(observation) (docs/users/api.md).")
@click.option("--base-partner", type=click.Choice(tuple(BASE_PARTNERS)), default=DEFAULT_BASE_PARTNER,
              show_default=True,
              help="The stand-in for the paper's GPT-4o Partner-Base (`simcore roles astra` gives each one's "
                   "evidence).")
@click.option("--episodes", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="Episodes per agent x partner x setup.")
@click.option("--alpha", type=FloatRange(0, 1), default=0.35, show_default=True, help="PAP weight (eq. 4).")
@click.option("--beta", type=FloatRange(0, 1), default=0.65, show_default=True, help="SA weight (eq. 4).")
@click.option("--w", "w", type=FloatRange(0, 1), default=0.75, show_default=True, help="TS weight in PAP.")
@click.option("--top-n", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option("--solver", type=click.Choice(["exact", "pulp"]), default="exact", show_default=True)
@click.option("--rounds", "round_limit", type=click.IntRange(2, 10_000), default=15, show_default=True)
@click.option("--no-deal-payoff", type=click.Choice(["zero", "batna"]), default="zero", show_default=True)
@click.option("--accept-rule", type=click.Choice(["paper", "counter"]), default="paper", show_default=True)
@click.option("--agent-param", "agent_params", multiple=True, callback=_parse_agent_params, metavar="NAME=VALUE",
              help="Set any agent parameter over the registry entry (repeatable), e.g. reo_scope=initial, "
                   "hold_against_fair=false, order=REO,AEO,RNC,CSC,NCR,RC,LIC,MGF,LGR, deadline_rounds_left=1,2, "
                   "smax_share=1. Names: policies.astra.AgentParams and TacticParams fields.")
@click.option("--partner-param", "partner_params", multiple=True, callback=_parse_partner_params,
              metavar="NAME=VALUE",
              help="Set a partner parameter for every partner (repeatable), e.g. floor_share=0.4. Names: "
                   "policies.partners.PartnerParams fields (the partners' registry entries list the defaults).")
@click.option("--notice-rounds", type=click.IntRange(0, 10_000), default=2, show_default=True,
              help="The deadline notice is given at the start of the round with this many rounds left "
                   "(counting that round); 0: no notice.")
@click.option("--weights-sweep", is_flag=True, help="Also run the alpha/beta pairs of Table 4.")
@click.option("--sweep-partner", type=click.Choice(tuple(PARTNERS)), default="base", show_default=True)
@seat_option(SYSTEM, {"agent": "agent", "partner": "partner"},
             "Who takes a seat in every episode: agent=POLICY or partner=POLICY, a registered id or "
             "package.module:Class (your own agent, docs/users/api.md); over --agents / --partners.")
@click.option("--plot", is_flag=True,
              help="Also write OUT/astra_offers.png (Figure 7: offers vs the Pareto frontier; needs matplotlib).")
@backend_options
def command(seed, workers, out, progress, domain, setups, partners, agents, base_partner, episodes, alpha, beta, w,
            top_n,
            solver, round_limit, no_deal_payoff, accept_rule, agent_params, partner_params, notice_rounds,
            weights_sweep, sweep_partner, seats, plot, backend, backend_args, record, replay):
    """ASTRA agent vs partner agents (paper Tables 1 and 4)."""
    setups = _check_setups(domain, [s.strip() for s in setups.split(",") if s.strip()])
    config = AstraConfig(seed=seed, domain=domain, setups=setups, partners=partners, agents=agents,
                         episodes=episodes, alpha=alpha, beta=beta, w=w, top_n=top_n, solver=solver,
                         round_limit=round_limit, no_deal_payoff=no_deal_payoff, accept_rule=accept_rule,
                         agent_params=agent_params, partner_params=partner_params, notice_rounds=notice_rounds,
                         weights_sweep=weights_sweep, sweep_partner=sweep_partner, base_partner=base_partner,
                         seats=seats,
                         **backend_settings(backend, backend_args, record, replay, workers))
    if plot:  # fail before the run, not after it
        try:  # (an optional extra)
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError("--plot", "", "needs matplotlib: pip install 'simcore[plot]'") from None
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)
    if plot:
        agent = "astra" if "astra" in agents else agents[0]
        partner = "base" if "base" in partners else partners[0]
        setup = "integrative" if "integrative" in setups else setups[0]
        png = plot_offers(os.path.join(out, "transcripts.jsonl"), domain, os.path.join(out, "astra_offers.png"),
                          agent=agent, partner=partner, setup=setup)
        click.echo(f"wrote {png} ({agent} vs {partner}, {setup})")


#: ``simcore run --first-look``: every table of the default study at a size that runs in seconds
FIRST_LOOK = {"episodes": 4}


def run_default(seed: int = 0, workers: int = 1, out: str | None = None, progress: bool | None = None,
                first_look: bool = False):
    """The paper-scale study: 100 episodes x every partner x three setups, both agents,
    plus the Table 4 weight sweep against the base partner (``first_look``: its tables at
    :data:`FIRST_LOOK`'s size)."""
    config = AstraConfig(seed=seed, weights_sweep=True, **(FIRST_LOOK if first_look else {}))
    return launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)
