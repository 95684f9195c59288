"""``simcore run dominance``: the command and the default study."""

from __future__ import annotations

import click

from policies.dominance_state import RELATIONS
from simcore.cli_options import (CommaChoice, FloatRange, backend_options, backend_settings, common_options,
                                 seat_option)
from simcore.launch import launch
from simcore.systems.dominance.match import LANGUAGES
from simcore.systems.dominance.registry import SYSTEM, VERSIONS
from simcore.systems.dominance.study import OPENERS, DominanceConfig, domain_of

#: where ``launch`` and the sweep log find the study
STUDY_PATH = f"simcore.systems.{SYSTEM}:STUDY"


@click.command(name=SYSTEM)
@common_options(SYSTEM)
@click.option("--domain", default="restaurants-small-v1", show_default=True,
              help="A shipped domain id (restaurants-small-v1, restaurants-420-v1) or a JSON file path.")
@click.option("--agent", "agent", type=CommaChoice(RELATIONS), default=",".join(RELATIONS), show_default=True,
              help="Agent relation(s), comma-separated.")
@click.option("--user", "user", type=CommaChoice(RELATIONS), default=",".join(RELATIONS), show_default=True,
              help="Simulated user relation(s), comma-separated.")
@click.option("--dialogues", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="Dialogues per relation pair (one preference profile each).")
@click.option("--max-turns", type=click.IntRange(2, 1000), default=40, show_default=True,
              help="Turn limit (utterances); reaching it is a failure.")
@click.option("--opener", type=click.Choice(OPENERS), default="alternate", show_default=True,
              help="Who speaks first (alternate: the agent in even-numbered dialogues).")
@click.option("--dominant-factor", type=FloatRange(0.0, 1.0, min_open=True), default=0.7,
              show_default=True, help="Fig. 2: dominant accepts score > factor x bestScore.")
@click.option("--garble", type=FloatRange(0.0, 1.0), default=0.0, show_default=True,
              help="Mock noise: probability a spoken answer lacks its SAY: label (counted fallback).")
@click.option("--language", type=click.Choice(LANGUAGES), default="backend", show_default=True,
              help="backend: speak/read through the mock ChatBackend; direct: the same templates in-process.")
@click.option("--transcripts/--no-transcripts", default=True, show_default=True,
              help="Build transcript events (transcripts.jsonl).")
@click.option("--policy-version", "version", type=click.Choice(VERSIONS), default="v3", show_default=True,
              help="dominance-<relation>-v1 (exit: no open option, Reject alone refuses), -v2 (also "
                   "counter-proposals refuse; a repeated exchange with no progress ends the dialogue, counted as a "
                   "dead end) or -v3 (the same, the repeat ending counted as 'stalled').")
@click.option("--exit-counter-refusal/--no-exit-counter-refusal", default=None,
              help="Override: a counter-proposal counts as a refusal for the exit (v2, v3: on).")
@click.option("--exit-on-repeat/--no-exit-on-repeat", default=None,
              help="Override: quit on a repeated exchange with no progress (v2, v3: on).")
@click.option("--exit-criterion/--no-exit-criterion", default=None,
              help="Override: quit when the discussed criterion has no acceptable value left unrefused (off).")
@backend_options
@seat_option(SYSTEM, {"agent": None, "user": None},
             "A side played by another agent in every dialogue: agent=POLICY or user=POLICY, a relation, a "
             "registered id or package.module:Class (your own agent, docs/users/api.md); over --agent / --user.",
             names=RELATIONS)
def command(seed, workers, out, progress, domain, agent, user, dialogues, max_turns, opener,
            dominant_factor, garble, language, transcripts, version, exit_counter_refusal, exit_on_repeat,
            exit_criterion, backend, backend_args, record, replay, seats):
    """The dominance dialogue agent: every agent relation against every user relation."""
    config = DominanceConfig(seed=seed, domain=domain, agent=agent, user=user, dialogues=dialogues,
                             max_turns=max_turns, opener=opener, dominant_factor=dominant_factor, garble=garble,
                             language=language, transcripts=transcripts, version=version,
                             exit_counter_refusal=exit_counter_refusal, exit_on_repeat=exit_on_repeat,
                             exit_criterion=exit_criterion, seats=seats,
                             **backend_settings(backend, backend_args, record, replay, workers))
    domain_of(config)  # a bad --domain is one line before --out is touched, also for a sweep
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)


#: ``simcore run --first-look``: every table of the default study at a size that runs in seconds
FIRST_LOOK = {"dialogues": 20}


def run_default(seed: int = 0, workers: int = 1, out: str | None = f"runs/{SYSTEM}", progress=None,
                first_look: bool = False):
    """3 x 3 relation pairs x 100 dialogues on the small restaurant domain (``first_look``: at
    :data:`FIRST_LOOK`'s size)."""
    config = DominanceConfig(seed=seed, **(FIRST_LOOK if first_look else {}))
    return launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)
