"""Reading JSON that comes from outside: the one path every such reader takes.

Result files (``metrics.json``, ``sweep.json``, ``robustness.json``), logs
(``sweep.jsonl``, transcripts), cassettes, scenario data files and an HTTP server's
responses are parsed by :func:`loads`.  The standard parser meets bad text with
exceptions of several kinds -- ``JSONDecodeError``, a ``RecursionError`` for deep
nesting, a ``ValueError`` for an integer of more digits than Python converts -- and
a value nested a few hundred levels deep parses but breaks a later recursive walk.
:func:`loads` turns each of them into one :class:`JSONProblem` whose ``problem`` is a
short phrase: ``not valid JSON (<what>)`` with its ``lineno``, ``nested too deeply
(more than 100 levels)`` or ``a number has too many digits``.  The depth limit,
:data:`MAX_DEPTH`, is far beyond anything simcore writes (a few levels) and far below
Python's recursion limit, so every check, figure and re-encoding that walks the value
afterwards is safe.

:func:`parse` raises the problem as one :class:`~simcore.errors.InputError` naming the
source (and the line) -- and refuses a lone surrogate in a string, which no file simcore
writes holds -- and :func:`read_json` reads a file first
(:func:`simcore.files.read_text`).  A backend turns :class:`JSONProblem` into its own
error.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from simcore.errors import InputError
from simcore.files import read_text
from simcore.textsafe import lone_surrogate

#: the most levels of nested arrays and objects a value read from outside may have
MAX_DEPTH = 100
TOO_DEEP = f"nested too deeply (more than {MAX_DEPTH} levels)"
TOO_MANY_DIGITS = "a number has too many digits"

# a JSON string (on valid JSON text; linear: the alternatives cannot overlap)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class JSONProblem(ValueError):
    """Text that is not one JSON value simcore reads: ``problem`` says why, ``lineno``
    where (0: the text as a whole)."""

    def __init__(self, problem: str, lineno: int = 0):
        super().__init__(problem)
        self.problem = problem
        self.lineno = lineno


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the valid JSON ``text`` nests arrays and objects more than ``limit`` levels."""
    if text.count("[") + text.count("{") <= limit:
        return False
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):  # each pass removes the innermost level
        shorter = skeleton.replace("[]", "").replace("{}", "")
        if not shorter or shorter == skeleton:
            return False
        skeleton = shorter
    return True


def too_deep_value(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` (made of dicts and lists) nests more than ``limit`` levels: for
    values parsed by another reader (TOML)."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (dict, list)):
            if depth >= limit:
                return True
            stack.extend((kid, depth + 1) for kid in (v.values() if isinstance(v, dict) else v))
    return False


def loads(text: str, *, object_pairs_hook: Callable | None = None,
          parse_constant: Callable | None = None) -> Any:
    """``json.loads(text)`` (with the given hooks), every problem a :class:`JSONProblem`.

    An exception a hook raises that is not a ``ValueError`` passes through unchanged."""
    try:
        value = json.loads(text, object_pairs_hook=object_pairs_hook, parse_constant=parse_constant)
    except json.JSONDecodeError as exc:
        raise JSONProblem(f"not valid JSON ({exc.msg})", exc.lineno) from None
    except RecursionError:
        raise JSONProblem(TOO_DEEP) from None
    except ValueError as exc:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise JSONProblem(TOO_MANY_DIGITS if "digits" in str(exc) else f"not valid JSON ({exc})") from None
    if too_deep(text):
        raise JSONProblem(TOO_DEEP)
    return value


def parse(text: str, source: str, field: str = "") -> Any:
    """The JSON value of ``text``; one :class:`InputError` naming ``source`` and ``field``
    (default: the line of the problem, if it has one) otherwise.  A string holding a lone
    surrogate (JSON's ``"\\ud800"``) is refused too: simcore writes none, so such a file was
    not written by simcore, and the text could not be written out again."""
    try:
        data = loads(text)
    except JSONProblem as exc:
        raise InputError(source, field or (f"line {exc.lineno}" if exc.lineno else ""), exc.problem) from None
    lone = lone_surrogate(text, data)
    if lone is not None:
        raise InputError(source, field, f"holds a lone surrogate ({lone}): not Unicode text")
    return data


def read_json(path: str) -> Any:
    """The JSON value in the file at ``path``; one :class:`InputError` naming it otherwise."""
    return parse(read_text(path), path)
