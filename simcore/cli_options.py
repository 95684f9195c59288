"""Option types and decorators shared by the study commands."""

from __future__ import annotations

import math
import re
from typing import Callable, Sequence

import click
from click.core import ParameterSource

from mockllm.cassette import ReplayBackend
from simcore.argcheck import seat_ref
from simcore.backends import build_backend, check_append, check_backend_files, http_settings, parse_backend_args
from simcore.errors import InputError
from simcore.executors import EXECUTORS
from simcore.registry import describe_params
from simcore.role_backends import complete_roles, parse_roles
from simcore.rules import describe
from simcore.runopts import BACKEND_META, DEFAULT_MAX_FALLBACK_SHARE, DEFAULT_MIN_READING_ACCURACY, SWEEP_META


class CommaChoice(click.ParamType):
    """A comma-separated list of names, each from ``choices``; order kept, duplicates removed."""

    name = "list"

    def __init__(self, choices: Sequence[str], registry_prefix: str | None = None):
        self.choices = tuple(choices)
        #: ``scorable-`` accepts a name's registry id too (``scorable-base-om-p1-v1`` for ``base-om-p1``)
        self.registry_prefix = registry_prefix

    def _canonical(self, v: str) -> str:

        if self.registry_prefix and v.startswith(self.registry_prefix):
            bare = re.sub(r"-v\d+$", "", v[len(self.registry_prefix):])
            if bare in self.choices:
                return bare
        return v

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        items = [self._canonical(v.strip()) for v in str(value).split(",") if v.strip()]
        if not items:
            self.fail(f"empty list; valid: {', '.join(self.choices)}", param, ctx)
        bad = [v for v in items if v not in self.choices]
        if bad:
            self.fail(f"unknown value(s) {', '.join(map(repr, bad))}; valid: {', '.join(self.choices)}",
                      param, ctx)
        return tuple(dict.fromkeys(items))


class SeatChoice(CommaChoice):
    """A comma-separated list of seats: the study's names, registered policy ids of ``system``
    (of ``role``), or ``package.module:Class`` references to a user's policy."""

    def __init__(self, choices: Sequence[str], system: str, role: str | None = None):
        super().__init__(choices)
        self.system, self.role = system, role

    def convert(self, value, param, ctx):

        if isinstance(value, tuple):
            return value
        items = [v.strip() for v in str(value).split(",") if v.strip()]
        if not items:
            self.fail(f"empty list; valid: {', '.join(self.choices)}", param, ctx)
        for v in items:
            why = seat_ref(v, self.system, self.role, self.choices)
            if why:
                self.fail(why, param, ctx)
        return tuple(dict.fromkeys(items))


class SeatAssignment(click.ParamType):
    """``SEAT=POLICY``: who takes a seat in every negotiation of a study -- a registered policy id
    of ``system`` or ``package.module:Class`` (your own agent).  ``seats`` maps each seat the
    option accepts to the registry role its policy must have (None: any), or is None when the
    seats are known only later (the study checks the name then)."""

    name = "seat=policy"

    def __init__(self, system: str, seats: dict | None, names: Sequence[str] = ()):
        self.system, self.seats, self.names = system, seats, tuple(names)

    def convert(self, value, param, ctx):

        if isinstance(value, tuple):
            return value
        seat, eq, policy = str(value).partition("=")
        seat, policy = seat.strip(), policy.strip()
        if not eq or not seat or not policy:
            self.fail(f"{value!r}: expected SEAT=POLICY", param, ctx)
        if self.seats is not None and seat not in self.seats:
            self.fail(f"{value!r}: {self.system} has no seat {seat!r}; seats: {', '.join(self.seats)}", param, ctx)
        why = seat_ref(policy, self.system, (self.seats or {}).get(seat), self.names)
        if why:
            self.fail(f"{value!r}: {why}", param, ctx)
        return seat, policy


def seat_option(system: str, seats: dict | None, help_text: str, names: Sequence[str] = ()) -> Callable:
    """``--seat SEAT=POLICY`` (repeatable), the same option in every system's command: the value
    is a tuple of ``(seat, policy)`` pairs, the last one given for a seat winning; ``names``: the
    study's own names a seat also takes (MIND's variants)."""
    def callback(_ctx, _param, values) -> tuple:
        return tuple(dict(values).items())

    return click.option("--seat", "seats", type=SeatAssignment(system, seats, names), multiple=True,
                        callback=callback,
                        metavar="SEAT=POLICY", help=help_text)


class CommaInts(click.ParamType):
    """A comma-separated list of integers within [lo, hi]."""

    name = "ints"

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        out = []
        for part in str(value).split(","):
            part = part.strip()
            try:
                n = int(part)
            except ValueError:
                self.fail(f"{part!r} is not an integer", param, ctx)
            if not self.lo <= n <= self.hi:
                self.fail(f"{n} is out of range; valid: {self.lo}..{self.hi}", param, ctx)
            out.append(n)
        return tuple(dict.fromkeys(out))


class FloatRange(click.FloatRange):
    """``click.FloatRange`` that also refuses NaN and infinities (NaN passes every
    comparison, so a plain range check lets it through)."""

    def convert(self, value, param, ctx):

        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)




def _store_sweep_option(ctx: click.Context, param: click.Parameter, value):
    """Keep a sweep option in ``ctx.meta`` (read by :func:`simcore.launch.launch`), so
    study commands need not take these arguments themselves."""
    ctx.meta.setdefault(SWEEP_META, {})[param.name] = value
    return value


def sweep_options(fn: Callable) -> Callable:
    """--grid, --replicates, --resume, --executor, --scheduler, --overwrite (values go to ``ctx.meta``)."""

    opts = [
        click.option("--grid", "grid", multiple=True, metavar="KEY=V1,V2", expose_value=False,
                     callback=_store_sweep_option,
                     help="Sweep: run the study for each value of a config field (repeat for a grid; "
                          "tuple values as [a,b]). Writes sweep.jsonl and sweep tables to --out."),
        click.option("--replicates", type=click.IntRange(1, 100000), default=None, expose_value=False,
                     callback=_store_sweep_option,
                     help="Sweep: seeds per grid point, each derived from --seed and the point "
                          "[default: 5 with --grid]."),
        click.option("--resume", is_flag=True, default=False, expose_value=False,
                     callback=_store_sweep_option,
                     help="Sweep: continue OUT/sweep.jsonl, skipping runs already recorded."),
        click.option("--overwrite", is_flag=True, default=False, expose_value=False,
                     callback=_store_sweep_option,
                     help="Replace the results already in --out (refused otherwise)."),
        click.option("--robustness", "robustness", is_flag=False, flag_value="all", default=None,
                     metavar="[ROLE,...]", expose_value=False, callback=_store_sweep_option,
                     help="Run the headline comparison once per stand-in of each LLM role's family "
                          "(or of the named roles; `simcore roles` lists them) and write a table of "
                          "each claim under each stand-in: robustness.json and robustness-*.csv."),
        click.option("--metrics", "metrics", metavar="PATTERN,...", default=None, expose_value=False,
                     callback=_store_sweep_option,
                     help="Sweep: the metrics shown on the terminal, as fnmatch patterns "
                          "(results.*.DHR); 'all' for every one [default: the study's headline]. "
                          "sweep_summary.csv always has them all."),
        click.option("--json", "json", is_flag=True, default=False, expose_value=False,
                     callback=_store_sweep_option,
                     help="Plain run: print the tables, the model-answer and reading totals as one JSON object "
                          "on stdout (numbers as numbers, intervals beside them) instead of text."),
        click.option("--executor", type=click.Choice(EXECUTORS), default=None, expose_value=False,
                     callback=_store_sweep_option,
                     help="Where jobs run: auto (inline for 1 worker, else process pool), inline, process, "
                          "or dask (needs simcore[dask]). Results are identical for all."),
        click.option("--scheduler", metavar="ADDRESS", default=None, expose_value=False,
                     callback=_store_sweep_option,
                     help="Dask scheduler address (implies --executor dask); without it dask starts a "
                          "local cluster on 127.0.0.1."),
    ]
    for opt in reversed(opts):
        fn = opt(fn)
    return fn


def common_options(system: str) -> Callable:
    """--seed, --workers, --out, --progress/--no-progress, and the sweep options.

    The sweep options (--grid, --replicates, --resume, --executor, --scheduler) and
    --overwrite are not passed to the command function: :func:`simcore.launch.launch` reads them from
    the click context, so a command written as ``launch(path, config, workers=...,
    out=..., progress=...)`` gets sweeps without any change.
    """

    def deco(fn):
        fn = sweep_options(fn)
        fn = list_params_option(system)(fn)
        fn = click.option("--progress/--no-progress", default=None,
                          help="Show a progress bar (default: when stderr is a terminal).")(fn)
        fn = click.option("--out", "out", type=click.Path(file_okay=False), default=f"runs/{system}",
                          show_default=True, help="Directory for metrics.json, CSV tables, transcripts.")(fn)
        fn = click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
                          help="Worker processes; results are identical for any count.")(fn)
        fn = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                          help="Root seed; every generator is derived from it.")(fn)
        return fn

    return deco


def list_params_option(system: str) -> Callable:
    """--list-params: print every registered policy and protocol of ``system`` with each
    parameter, its default and its source note (read from the registry), then the system's
    rule tables (simcore.rules), then exit."""

    def show(ctx: click.Context, _param: click.Parameter, value):
        if not value or ctx.resilient_parsing:
            return

        click.echo(describe_params(system))
        rules = describe(system)
        if rules:
            click.echo("\n" + rules, nl=False)
        ctx.exit(0)

    return click.option("--list-params", is_flag=True, expose_value=False, is_eager=True, callback=show,
                        help="List every registered policy / protocol of this system with its parameters, "
                             "defaults and sources (passage, or choice and reason), then exit.")




def _store_backend_option(ctx: click.Context, param: click.Parameter, value):
    """Keep a backend option in ``ctx.meta`` (read by :func:`backend_settings` and
    :func:`simcore.launch.launch`), so study commands need not take it as an argument."""
    ctx.meta.setdefault(BACKEND_META, {})[param.name] = value
    return value


def _share(ctx: click.Context, param: click.Parameter, value):
    if value is not None and not (0.0 <= value <= 1.0):  # also refuses nan
        raise click.BadParameter(f"{value!r} is not a share in [0, 1]", ctx, param)
    return _store_backend_option(ctx, param, value)


def backend_options(fn: Callable) -> Callable:
    """--backend, --backend-arg, --model, --base-url, --record, --append, --replay,
    --replay-misses, --concurrency, --log-calls, --max-fallback-share, --min-reading-accuracy,
    --role, --role-arg (see
    :mod:`simcore.backends`).  All but --backend, --backend-arg, --record and --replay go
    to ``ctx.meta`` and are read by :func:`backend_settings` and :func:`simcore.launch.launch`."""

    fn = click.option("--role-arg", "role_arg", multiple=True, expose_value=False, callback=_store_backend_option,
                      metavar="ROLE:KEY=VALUE",
                      help="Constructor argument of a role's own backend (repeatable), e.g. mind.base:model=NAME, "
                           "mind.base:schema=json_object; the run's backend takes --backend-arg.")(fn)
    fn = click.option("--role", "role", multiple=True, expose_value=False, callback=_store_backend_option,
                      metavar="ROLE=BACKEND",
                      help="Put one role's decisions on a backend (repeatable): 'model' (the run's backend, which "
                           "speaks the words too), a backend id, or a server's URL (openai-compat-v1 there; the "
                           "words stay on the run's backend); the stand-in is the counted fallback. `simcore "
                           "roles` lists the roles (those 'played by a model'); docs/users/real-models.md, 'A model in "
                           "a role'.")(fn)
    fn = click.option("--min-reading-accuracy", type=float, default=None, expose_value=False, callback=_share,
                      metavar="SHARE",
                      help="Exit with status 3 (outputs still written) when the readings the checks accepted were "
                           "what the speaker meant less often than this share, beyond chance (its 95% upper "
                           f"bound below it) [default: {DEFAULT_MIN_READING_ACCURACY:g}; 0: no check].")(fn)
    fn = click.option("--max-fallback-share", type=float, default=None, expose_value=False, callback=_share,
                      metavar="SHARE",
                      help="Exit with status 3 (outputs still written) when more than this share of the model's "
                           f"answers fell back to the rule [default: {DEFAULT_MAX_FALLBACK_SHARE:g}].")(fn)
    fn = click.option("--log-calls", type=click.Path(dir_okay=False), default=None, expose_value=False,
                      callback=_store_backend_option, metavar="FILE",
                      help="Write one JSON line per model call (task, attempt, latency, parse result, sizes) "
                           "to FILE (a new file in an existing directory; an existing one only with "
                           "--overwrite, never a cassette); wall-clock data, never in metrics.json.")(fn)
    fn = click.option("--concurrency", type=click.IntRange(1, 64), default=1, show_default=True,
                      expose_value=False, callback=_store_backend_option, metavar="N",
                      help="Run up to N jobs at once in threads (for a backend that waits on a server); "
                           "outputs and cassettes are identical to a sequential run's.")(fn)
    fn = click.option("--replay-misses", type=click.Choice(("error", "fallback")), default="error",
                      show_default=True, expose_value=False, callback=_store_backend_option,
                      help="A request the --replay cassette lacks: stop with an error naming it, or count "
                           "it as a backend error answered by the fallback.")(fn)
    fn = click.option("--replay", type=click.Path(exists=True, dir_okay=False), default=None,
                      help="Answer from this cassette instead of a backend (offline, byte-identical).")(fn)
    fn = click.option("--append", is_flag=True, default=False, expose_value=False, callback=_store_backend_option,
                      help="With --record: add to an existing cassette instead of refusing it.")(fn)
    fn = click.option("--record", type=click.Path(dir_okay=False), default=None,
                      help="Record every prompt/answer to this new cassette (written in job order: identical for "
                           "any --workers / --concurrency).")(fn)
    fn = click.option("--backend-arg", "backend_args", multiple=True, metavar="KEY=VALUE",
                      help="Constructor argument of the backend, e.g. base_url=http://127.0.0.1:8000/v1; "
                           "for openai-compat-v1 also model, timeout (default 120), max_retries, backoff, "
                           "max_failures, max_tokens, tries (requests per answer, repairs included; default 2), "
                           "temperature, stream. Values take the argument's type.")(fn)
    fn = click.option("--base-url", "base_url", default=None, metavar="URL", expose_value=False,
                      callback=_store_backend_option,
                      help="The OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 (--backend-arg base_url=URL; "
                           "implies --backend openai-compat-v1) [default: $OPENAI_BASE_URL].")(fn)
    fn = click.option("--model", "model", default=None, metavar="NAME", expose_value=False,
                      callback=_store_backend_option,
                      help="The model to ask (--backend-arg model=NAME; implies --backend openai-compat-v1) "
                           "[default: the only model the server's /models lists].")(fn)
    fn = click.option("--backend", default="mock-v1", show_default=True,
                      help="Registered chat backend id (mock-v1, mock-exact-v1, openai-compat-v1).")(fn)
    return fn


def backend_settings(backend: str, backend_args, record, replay, workers: int) -> dict:
    """Validated config fields for the backend options (raises InputError), checked before
    any work: the options' combinations, the --record / --log-calls paths
    (:func:`simcore.backends.check_backend_files`), the backend and its arguments -- for
    the HTTP backend completed by --model / --base-url and the environment
    (:func:`simcore.backends.http_settings`) -- or the --replay cassette (header and entries).

    ``--append``, ``--replay-misses``, ``--log-calls``, ``--model``, ``--base-url`` (and
    ``--overwrite``) are read from the click context (see :func:`backend_options`)."""

    ctx = click.get_current_context(silent=True)
    meta = ctx.meta.get(BACKEND_META, {}) if ctx is not None else {}
    append, misses = bool(meta.get("append")), meta.get("replay_misses") or "error"
    if record and replay:
        raise InputError("--record", record, "cannot be combined with --replay (a replay asks no backend; "
                                             "copy the cassette instead)")
    if append and not record:
        raise InputError("--append", "", "only applies with --record")
    if misses != "error" and not replay:
        raise InputError("--replay-misses", misses, "only applies with --replay")
    sweep = ctx.meta.get(SWEEP_META, {}) if ctx is not None else {}
    if record and workers > 1 and (sweep.get("grid") or sweep.get("replicates") is not None):
        raise InputError("--record", record, "a sweep records with --workers 1 only (its runs append to the "
                                             "cassette as they finish); a plain run records with any --workers")
    check_backend_files(record=record, append=append, log_calls=meta.get("log_calls"), replay=replay,
                        overwrite=bool(sweep.get("overwrite")),
                        out=ctx.params.get("out") if ctx is not None else None)
    args = parse_backend_args(backend_args)
    if not replay:
        given = ctx is None or _given(ctx, "backend")
        backend, args = http_settings(backend, args, model=meta.get("model"), base_url=meta.get("base_url"),
                                      backend_given=given, echo=lambda line: click.echo(line, err=True))
        build_backend(backend, args)  # reject a bad id or argument before running
        if record and append:
            check_append(record, backend, args)
    else:  # the run reports the backend the cassette was recorded with (metrics.json as recorded)

        header = ReplayBackend(replay, misses=misses).meta  # every line checked before any work
        if isinstance(header.get("backend"), str):
            backend = header["backend"]
            args = tuple((k, v) for k, v in header.get("backend_args") or ())
    out = {"backend": backend, "backend_args": args, "record": record, "replay": replay,
           "replay_misses": misses}
    if meta.get("role") or meta.get("role_arg"):  # (only then: a study without playable roles has no such field)

        roles = parse_roles(meta.get("role") or (), ctx.command.name, meta.get("role_arg") or ())
        out["roles"] = complete_roles(roles, record=record, replay=replay,
                                      echo=lambda line: click.echo(line, err=True))
    return out


def _given(ctx: click.Context, name: str) -> bool:
    """Whether option ``name`` was given (on the command line or from the environment)."""

    source = ctx.get_parameter_source(name)
    return source is not None and source not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)
