"""A tiny study following the Study protocol, for the sweep tests.

Importable as ``toy_study`` (pytest puts ``tests/`` on ``sys.path``; subprocesses get
it through PYTHONPATH).  ``register_cli()`` adds it to ``simcore run`` as ``toy``.
"""

from __future__ import annotations

import os
import time
from typing import Literal

import attrs
import click

from mockllm.tasks import Task
from simcore.cli_options import common_options
from simcore.errors import InputError, ParseError
from simcore.launch import launch
from simcore.seeding import generator
from simcore.study import Job, JobOutput, Summary
from simcore.tables import Table
from simcore.transcript import Event

STUDY_PATH = "toy_study:STUDY"


def _parse_pair(text: str) -> tuple[int, int]:
    a, _, b = text.partition(":")
    return int(a), int(b)


@attrs.frozen
class ToyConfig:
    seed: int = 0
    jobs: int = attrs.field(default=4, validator=attrs.validators.in_(range(1, 1000)))
    alpha: float = attrs.field(default=1.0, validator=attrs.validators.ge(0.0))
    mode: Literal["plain", "shifted"] = attrs.field(
        default="plain", validator=attrs.validators.in_(("plain", "shifted")))
    flag: bool = False
    tags: tuple[str, ...] = ("a",)
    fail_alpha: float | None = None  # a job raises when alpha == fail_alpha
    fail_summary: bool = False
    delay: float = 0.0  # seconds slept per job (for the kill tests; never in results)
    window: tuple[int, int] = attrs.field(default=(0, 1), metadata={"parse": _parse_pair})
    opaque: object = None  # no parser: rejected as a grid key
    backend_url: str | None = None  # ask an OpenAI-compatible server one question per job
    fallback: bool = True  # ... with a rule-based fallback (else a backend failure fails the run)


class WordTask(Task):
    """A one-word question, for tests that talk to a chat backend."""

    id = "word"
    instructions = "Answer with one lowercase word."
    fields = ("topic",)

    def parse(self, text):
        word = text.strip()
        if not word.isalpha() or not word.islower():
            raise ParseError(self.id, "expected one lowercase word", text)
        return word


API_KEY_ENV = "SIMCORE_TEST_API_KEY"


def ask_backend(config: "ToyConfig", rng, job: Job) -> tuple[str, int]:
    from mockllm.client import ModelClient
    from mockllm.openai_compat import OpenAICompatBackend

    backend = OpenAICompatBackend(config.backend_url, "toy-model", api_key_env=API_KEY_ENV, timeout=0.5,
                                  max_retries=1, backoff=0.01)
    client = ModelClient(backend)
    word = client.ask(WordTask(), rng, fallback=(lambda: "fallback") if config.fallback else None,
                      topic=f"job {job.index}")
    return word, client.stats.fallbacks


class ToyStudy:
    name = "toy"

    def jobs(self, config: ToyConfig):
        return [Job(index=i, key=(i,), params={}) for i in range(config.jobs)]

    def run_job(self, config: ToyConfig, job: Job) -> JobOutput:
        if config.fail_alpha is not None and config.alpha == config.fail_alpha:
            raise RuntimeError(f"toy failure at alpha={config.alpha}")
        # Test hooks outside the config (so a resumed sweep has the same config):
        # TOY_FAIL_ALPHA makes runs at that alpha raise (a "transient" failure),
        # TOY_INPUT_ERROR_ALPHA makes them raise the library's InputError,
        # TOY_EXIT_ALPHA kills the worker process, TOY_SLEEP slows every job down.
        if os.environ.get("TOY_FAIL_ALPHA") and float(os.environ["TOY_FAIL_ALPHA"]) == config.alpha:
            raise RuntimeError(f"transient toy failure at alpha={config.alpha}")
        if os.environ.get("TOY_INPUT_ERROR_ALPHA") and float(os.environ["TOY_INPUT_ERROR_ALPHA"]) == config.alpha:
            raise InputError("toy.json", "alpha", f"toy input error at alpha={config.alpha}")
        if os.environ.get("TOY_EXIT_ALPHA") and float(os.environ["TOY_EXIT_ALPHA"]) == config.alpha:
            os._exit(3)  # a worker process dies (as if killed for lack of memory)
        delay = config.delay or float(os.environ.get("TOY_SLEEP", "0") or 0)
        if delay:
            time.sleep(delay)
        rng = generator(config.seed, "toy", *job.key)
        value = float(config.alpha * rng.normal() + (1.0 if config.mode == "shifted" else 0.0))
        deal = bool(value > 0)
        text, fallbacks = f"value {value:.6f}", int(rng.integers(0, 2))
        if config.backend_url:
            text, fallbacks = ask_backend(config, rng, job)
        ev = Event(run=f"toy/s{config.seed}/j{job.index}", seq=0, speaker="a", phase="say",
                   text=text, intent={"value": value}, hidden={"tags": list(config.tags)})
        return JobOutput(key=job.key, record={"value": value, "deal": deal}, events=(ev,),
                         fallbacks=fallbacks)

    def summarize(self, config: ToyConfig, outputs) -> Summary:
        if config.fail_summary:
            raise ValueError("toy summary failure")
        values = [o.record["value"] for o in outputs]
        mean = sum(values) / len(values)
        deals = sum(o.record["deal"] for o in outputs) / len(outputs)
        metrics = {"seed": config.seed, "alpha": config.alpha,  # config echoed, as studies do
                   "mean_value": mean, "deal_rate": deals, "all_deals": deals == 1.0,
                   "detail": {"max": max(values), "label": "ignored text"},
                   "values": values}
        table = Table("toy", "Toy values", ["job", "value", "deal"],
                      [(i, o.record["value"], o.record["deal"]) for i, o in enumerate(outputs)])
        return Summary(system="toy", metrics=metrics, tables=(table,))


STUDY = ToyStudy()


@click.command("toy")
@common_options("toy")
@click.option("--jobs", type=click.IntRange(1, 999), default=4)
@click.option("--alpha", type=float, default=1.0)
@click.option("--fail-alpha", type=float, default=None)
@click.option("--delay", type=float, default=0.0)
def command(seed, workers, out, progress, jobs, alpha, fail_alpha, delay):
    """The toy study (written like a system's command: it knows nothing of sweeps)."""
    config = ToyConfig(seed=seed, jobs=jobs, alpha=alpha, fail_alpha=fail_alpha, delay=delay)
    launch(STUDY_PATH, config, workers=workers, out=out, progress=progress)


def render_run(events) -> str:
    return "\n".join(ev.text for ev in events)


def register_cli() -> None:
    """Make ``simcore run toy`` available in this process."""
    from simcore.catalog import STUDIES

    STUDIES.setdefault("toy", "toy_study")


if __name__ == "__main__":  # python tests/toy_study.py ARGS == simcore run toy ARGS
    import sys

    register_cli()
    from simcore.cli import main

    main(["run", "toy", *sys.argv[1:]])
