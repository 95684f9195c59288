"""Reading a data file safely: the one reader behind every scenario loader.

JSON (and TOML for game files) only -- no pickle, no eval, no YAML.  Every problem
becomes an :class:`~simcore.errors.InputError` naming the file and, where there is one,
the field: unreadable or non-UTF-8 files, invalid syntax (with its line), nesting deeper
than :data:`simcore.jsonread.MAX_DEPTH`, an integer of more digits than Python converts, a
key given twice in one JSON object, NaN/Infinity, numbers too large to be meant
(``abs(x) > MAX_ABS``), which would otherwise overflow deep inside a loader, and strings
longer than ``MAX_TEXT`` characters.  JSON is parsed by :func:`simcore.jsonread.loads`,
the path every reader of outside JSON takes.
"""

from __future__ import annotations

import math
from typing import Any

from simcore.errors import InputError
from simcore.files import read_text
from simcore.jsonread import TOO_DEEP, JSONProblem, loads, too_deep_value

MAX_ABS = 10**15
MAX_TEXT = 10_000


class _Constant(Exception):
    """NaN, Infinity or -Infinity in a data file."""


def _reject_constant(name: str):
    raise _Constant(f"{name} is not allowed")


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list) -> dict:
    """``object_pairs_hook`` that refuses an object giving the same key twice (plain
    ``json`` would silently keep the last value)."""
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _path(parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def check_numbers(value: Any, source: str, parts=()) -> None:
    """Raise InputError at the first number outside [-MAX_ABS, MAX_ABS] or not finite,
    or the first string longer than MAX_TEXT."""
    if not _plainly_fine(value):
        _check_numbers(value, source, parts)


def _plainly_fine(value: Any) -> bool:
    """True when ``value`` is made of plain JSON types only (exact types: dict, list, str,
    int, float, bool, None) and holds no number or string :func:`check_numbers` refuses;
    False otherwise (then :func:`_check_numbers` walks it and names the first fault, if
    any).  One pass without building field paths, as every value of a good file is fine."""
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t is dict:
            extend(v.values())
        elif t is list:
            extend(v)
        elif t is str:
            if len(v) > MAX_TEXT:
                return False
        elif t is float or t is int:
            if not -MAX_ABS <= v <= MAX_ABS:  # (NaN and the infinities fail too)
                return False
        elif t is not bool and v is not None:
            return False
    return True


def _check_numbers(value: Any, source: str, parts=()) -> None:
    """:func:`check_numbers` field by field."""
    if isinstance(value, bool):
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise InputError(source, _path(parts) or "value",
                             f"text of {len(value)} characters is too long (at most {MAX_TEXT})")
    elif isinstance(value, (int, float)):
        if abs(value) > MAX_ABS or (isinstance(value, float) and not math.isfinite(value)):
            shown = str(value) if len(str(value)) < 30 else str(value)[:20] + "..."
            raise InputError(source, _path(parts) or "value",
                             f"number {shown} is out of range (at most {MAX_ABS:.0e} in size)")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_numbers(v, source, parts + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_numbers(v, source, parts + (i,))


def read_data(path: str) -> Any:
    """The parsed content of a JSON (or ``.toml``) data file, numbers checked."""
    text = read_text(path)
    try:
        if path.endswith(".toml"):
            try:
                import tomllib
            except ModuleNotFoundError:  # Python 3.10: the same parser from PyPI (setup.cfg)
                import tomli as tomllib

            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise InputError(path, "", f"not valid TOML ({exc})") from None
        else:
            try:
                data = loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
            except JSONProblem as exc:
                raise InputError(path, f"line {exc.lineno}" if exc.lineno else "", exc.problem) from None
            except _DuplicateKey as exc:
                raise InputError(path, str(exc.key), "key given twice in one object") from None
            except _Constant as exc:
                raise InputError(path, "", f"not valid data ({exc})") from None
    except RecursionError:  # TOML nested deeper than its parser goes
        raise InputError(path, "", TOO_DEEP) from None
    except ValueError as exc:  # TOML: an integer with too many digits
        raise InputError(path, "", f"not valid data ({exc})") from None
    if too_deep_value(data):  # (TOML; JSON was checked by loads)
        raise InputError(path, "", TOO_DEEP)
    check_numbers(data, path)
    return data


def scenario_kind(path: str) -> str:
    """Which system's scenario a data file holds, from its keys: a scorable game
    (``parties``), a restaurant domain (``criteria``) or an ASTRA bilateral domain
    (``format: simcore-bilateral-*`` or ``issues`` without ``parties``); one InputError
    otherwise."""

    data = read_data(path)
    if isinstance(data, dict):
        if "parties" in data:
            return "scorable"
        if "criteria" in data:
            return "restaurants"
        if str(data.get("format", "")).startswith("simcore-bilateral") or "issues" in data:
            return "bilateral"
    raise InputError(path, "", "not a scenario file: expected a scorable game (\"parties\"), a restaurant "
                               "domain (\"criteria\") or an ASTRA domain (\"format\": \"simcore-bilateral-1\")")
