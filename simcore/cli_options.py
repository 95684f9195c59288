"""Option types and decorators shared by the study commands."""

from __future__ import annotations

from typing import Callable, Sequence

import click


class CommaChoice(click.ParamType):
    """A comma-separated list of names, each from ``choices``; order kept, duplicates removed."""

    name = "list"

    def __init__(self, choices: Sequence[str]):
        self.choices = tuple(choices)

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        items = [v.strip() for v in str(value).split(",") if v.strip()]
        if not items:
            self.fail(f"empty list; valid: {', '.join(self.choices)}", param, ctx)
        bad = [v for v in items if v not in self.choices]
        if bad:
            self.fail(f"unknown value(s) {', '.join(map(repr, bad))}; valid: {', '.join(self.choices)}",
                      param, ctx)
        return tuple(dict.fromkeys(items))


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


def common_options(system: str) -> Callable:
    """--seed, --seeds, --workers, --out, --progress/--no-progress."""

    def deco(fn):
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
