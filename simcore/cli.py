"""The ``simcore`` command.

Subcommands import their system's modules only when they run, so ``simcore --help``
stays fast.  Any :class:`~simcore.errors.SimcoreError` (bad file, bad option, unknown
id) is printed as one line on standard error with exit status 2; no traceback.  A
backend failure that stops a run (:class:`~simcore.errors.BackendFatal`) and a run
whose model answers mostly fell back (:class:`~simcore.errors.FallbackShareExceeded`)
are one line too, with exit status 3.  A policy's illegal move
(:class:`~simcore.errors.IllegalMove`) is a bug in simcore: one line asking for a
report, exit status 1, and the traceback when the environment variable
``SIMCORE_DEBUG`` is set (to anything but empty or 0).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import time
import traceback

import click

from simcore.catalog import STUDIES, available, part, studied
from simcore.errors import IllegalMove, SimcoreError
from simcore.progress import AFTER
from simcore.textsafe import visible


#: studies that are not a system's own (not in the default study): name -> the module of their command
EXTRA_STUDIES = {"astra-population": "simcore.bridges.population_cli"}


class LazyRunGroup(click.Group):
    """``simcore run SYSTEM``: each system's command lives in its study module."""

    def list_commands(self, ctx):
        return studied() + list(EXTRA_STUDIES)

    def get_command(self, ctx, name):
        if name in EXTRA_STUDIES:
            return importlib.import_module(EXTRA_STUDIES[name]).command
        if name not in STUDIES or name not in available():
            return None
        return part(name, "command")

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name is not None and not name.startswith("-") and self.get_command(ctx, name) is None:
            if name in available():
                ctx.fail(f"system {name!r} has no study to run (simcore.negotiate, simcore.make_env and "
                         f"check_policy play it); studies: {', '.join(studied() + list(EXTRA_STUDIES))}")
            ctx.fail(f"unknown system {name!r}; valid: {', '.join(studied() + list(EXTRA_STUDIES))}")
        return super().resolve_command(ctx, args)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simcore")
def cli():
    """Deterministic offline simulator of published LLM negotiation systems."""


@cli.group(cls=LazyRunGroup, invoke_without_command=True)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Root seed.")
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default="runs", show_default=True,
              help="Parent directory; each system writes to OUT/SYSTEM.")
@click.option("--progress/--no-progress", default=None)
@click.option("--overwrite", is_flag=True, default=False,
              help="Replace results already in OUT/SYSTEM (refused otherwise).")
@click.option("--resume", is_flag=True, default=False,
              help="Default study: continue an interrupted one, skipping the systems it finished "
                   "(with the same --seed) and running the rest again.")
@click.option("--first-look", is_flag=True, default=False,
              help="Every system's default study at a small size: the same tables and intervals in seconds, "
                   "written to OUT/first-look/SYSTEM (the full study takes minutes: the scorable study's "
                   "3,500 negotiations of 26 turns each are most of it).")
@click.pass_context
def run(ctx, seed, workers, out, progress, overwrite, resume, first_look):
    """Run a study. With no SYSTEM, run the default study of every system.

    Options given before SYSTEM apply to it as if given after it (``--out`` keeps its
    meaning here: the parent directory, so ``simcore run --out X mind`` writes to
    X/mind); an option given on both sides takes its value from after SYSTEM."""

    if ctx.invoked_subcommand is not None:
        if first_look:
            raise click.UsageError("--first-look is the default study's (simcore run --first-look); a system's own "
                                   "command takes its size options (--groups, --trials, --episodes, --dialogues)")
        given = {name: value for name, value in
                 (("seed", seed), ("workers", workers), ("progress", progress), ("overwrite", overwrite))
                 if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}
        if ctx.get_parameter_source("out") is not click.core.ParameterSource.DEFAULT:
            given["out"] = os.path.join(out, ctx.invoked_subcommand)
        if resume:
            given["resume"] = True
        ctx.default_map = {ctx.invoked_subcommand: given}
        return
    from simcore import default_study


    names = studied()
    if first_look:
        out = os.path.join(out, "first-look")
    todo = default_study.plan(out, names, seed=seed, overwrite=overwrite, resume=resume)  # checks before any work
    start, ran = time.monotonic(), []
    for i, name in enumerate(names, 1):
        if name not in todo:
            click.echo(f"== {name} ({i} of {len(names)}): done earlier with seed {seed}, kept ==")
            continue
        click.echo(f"== {name} ({i} of {len(names)}) ==")
        following = AFTER.set(default_study.after_note(todo, name))  # its progress line names what follows
        try:
            default_study.run(name, seed=seed, workers=workers, out=os.path.join(out, name), progress=progress,
                              first_look=first_look)
        finally:
            AFTER.reset(following)
        default_study.mark_done(os.path.join(out, name), seed)
        ran.append(name)
        if progress is not False:  # the overall line, on stderr (wall clock: display only)
            click.echo(default_study.overall_line([n for n in names if n in todo], ran, time.monotonic() - start),
                       err=True)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--group", "run_id", default=None,
              help="Show one negotiation: this run id, or the first run whose id ends with it "
                   "(g7/mind: seed 0's; the other matches are named).")
@click.option("--limit", type=click.IntRange(1), default=3, show_default=True,
              help="How many negotiations to show when --group is not given.")
def show(file, run_id, limit):
    """Print negotiations of a transcripts.jsonl as a readable dialogue."""
    from simcore.show import show_file

    click.echo(show_file(file, run_id=run_id, limit=limit))


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--out", default=None, type=click.Path(dir_okay=False),
              help="The HTML file to write [default: RUN_DIR/report.html, or RUN_DIR/negotiation-ID.html].")
@click.option("--negotiation", default=None, metavar="ID",
              help="Step through this one negotiation (its run id, or a trailing part such as g3/mind).")
@click.option("--sample", type=click.IntRange(1, 100), default=8, show_default=True,
              help="Negotiations per system shown step by step in the full report.")
def report(run_dir, out, negotiation, sample):
    """Write a self-contained HTML report (figures, tables, step-throughs) of a run or sweep."""
    from simcore.report import build

    click.echo(f"wrote {build(run_dir, out, negotiation=negotiation, sample=sample)}")


@cli.group()
def scenarios():
    """List and inspect the shipped scenarios."""


@scenarios.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON array of {id, system, description}.")
def scenarios_list(as_json):
    """Every registered scenario id with a one-line description."""
    from simcore.registry import specs

    rows = [(s.id, s.meta.get("system", ""), s.description) for s in specs("scenario")]
    if as_json:

        click.echo(json.dumps([{"id": i, "system": sy, "description": d} for i, sy, d in rows], indent=1))
        return
    width = max((len(r[0]) for r in rows), default=0)
    for sid, system, desc in rows:
        click.echo(f"{sid.ljust(width)}  [{system}] {desc}")


@scenarios.command("show")
@click.argument("scenario_id")
def scenarios_show(scenario_id):
    """Describe one scenario (its items, parties, facts): a registered id, or a scenario file
    (a scorable game, an ASTRA domain or a restaurant domain, as `simcore run` takes it)."""

    from simcore.registry import resolve
    from scenarios.datafile import scenario_kind

    if os.path.exists(scenario_id) and not os.path.isdir(scenario_id):
        module = {"scorable": "scenarios.scorable", "bilateral": "scenarios.bilateral",
                  "restaurants": "scenarios.restaurants"}[scenario_kind(scenario_id)]
        click.echo(importlib.import_module(module).describe(scenario_id))
        return
    spec = resolve("scenario", scenario_id)
    describe = spec.meta.get("describe")
    if describe is None:
        click.echo(f"{spec.id}: {spec.description}")
        return
    module, _, attr = describe.partition(":")
    click.echo(getattr(importlib.import_module(module), attr)(spec.id))


@cli.command()
@click.argument("system", required=False)
def roles(system):
    """The roles each paper gives to an LLM: passage, stand-in, evidence and family."""
    from simcore.roles import describe_roles

    click.echo(describe_roles(system), nl=False)


@cli.command()
@click.option("--check", is_flag=True, help="Only compare with the stored files; exit 1 on a difference.")
def playthroughs(check):
    """Regenerate the golden playthrough files under tests/playthroughs/ (in a checkout)."""
    from simcore.playthroughs import check_checkout, regenerate

    check_checkout()
    changed = regenerate(check=check)
    for path in changed:
        click.echo(("differs: " if check else "wrote: ") + path)
    if check and changed:
        sys.exit(1)


CHAT_SYSTEMS = {"dominance": "simcore.chat_dominance:command"}


class LazyChatGroup(click.Group):
    def list_commands(self, ctx):
        return [n for n, ep in CHAT_SYSTEMS.items()
                if importlib.util.find_spec(ep.split(":")[0]) is not None]

    def get_command(self, ctx, name):
        if name not in self.list_commands(ctx):
            return None
        module, _, attr = CHAT_SYSTEMS[name].partition(":")
        return getattr(importlib.import_module(module), attr)



@cli.group(cls=LazyChatGroup)
def chat():
    """Negotiate with an agent in the terminal."""


DEBUG_ENV = "SIMCORE_DEBUG"


def main(argv=None) -> None:


    try:
        cli.main(args=argv, prog_name="simcore", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.UsageError as exc:  # a bad option or argument: one line, like SimcoreError
        where = exc.ctx.command_path if exc.ctx is not None else "simcore"
        click.echo(f"simcore: error: {exc.format_message()} (see '{where} --help')", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except IllegalMove as exc:  # a bug of ours, not the user's input
        if os.environ.get(DEBUG_ENV, "") not in ("", "0"):

            traceback.print_exc()

        click.echo(visible(f"simcore: internal error: {exc}. This is a bug in simcore, not in your input: please "
                           f"report it with the command you ran ({DEBUG_ENV}=1 shows the traceback)", oneline=True),
                   err=True)
        sys.exit(exc.exit_code)
    except SimcoreError as exc:
        # bad input: 2; a backend that stopped the run or answers that mostly fell back: 3

        click.echo(visible(f"simcore: error: {exc}", oneline=True), err=True)
        sys.exit(getattr(exc, "exit_code", 2))
    except BrokenPipeError:
        sys.exit(0)


if __name__ == "__main__":
    main()
