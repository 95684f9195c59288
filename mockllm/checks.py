"""Checks of a parsed model answer against the scenario named in its prompt.

Model output is never trusted (DESIGN "Errors"): a task's ``parse`` reads the answer's
form, and its ``check`` (see :meth:`mockllm.tasks.Task.interpret`) verifies that every
name in it -- criterion, value, option, issue code, item, act -- is one the prompt's
context actually offers, and every number is whole / finite / in range where the task
says so.  Each helper raises :class:`~simcore.errors.ParseError` naming what is wrong,
which the client retries and then answers with the caller's counted fallback.
"""

from __future__ import annotations

import functools
import math
import operator
import re
from typing import Any, Collection, Mapping

from simcore.errors import ParseError


def fail(task_id: str, problem: str, text: str) -> ParseError:
    return ParseError(task_id, problem, text)


def one_of(task_id: str, what: str, value: Any, valid: Collection, text: str) -> Any:
    """``value`` if it is one of ``valid`` (compared as JSON data: a str is never a list)."""
    if not isinstance(value, (str, int, float, bool, type(None))) or value not in valid:
        shown = ", ".join(map(str, list(valid)[:12])) + (", ..." if len(valid) > 12 else "")
        raise fail(task_id, f"{what} {_short(value)} is not one of the scenario's ({shown})", text)
    return value


def mapping(task_id: str, what: str, value: Any, text: str, *, optional: bool = False) -> Mapping:
    if value is None and optional:
        return {}
    if not isinstance(value, Mapping):
        raise fail(task_id, f"{what} must be an object", text)
    return value


def whole(task_id: str, what: str, value: Any, text: str, lo: int | None = 0, hi: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool) within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(task_id, f"{what} {_short(value)} is not a whole number", text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise fail(task_id, f"{what} {_short(value)} is outside {lo}..{'' if hi is None else hi}", text)
    return value


def finite(task_id: str, what: str, value: Any, text: str) -> float:
    """``value`` as a float if it is a finite JSON number (an int too large for a float is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(task_id, f"{what} {_short(value)} is not a number", text)
    try:
        out = float(value)
    except OverflowError:
        raise fail(task_id, f"{what} {_short(value)} is not a number a float can hold", text) from None
    if not math.isfinite(out):
        raise fail(task_id, f"{what} {_short(value)} is not a finite number", text)
    return out


@functools.lru_cache(maxsize=1024)
def _flat_cached(text: str) -> str:
    return " ".join(text.split()).casefold()


def _flat(text: str) -> str:
    if len(text) > 4096:  # a long (model) answer is not kept in the cache
        return " ".join(text.split()).casefold()
    return _flat_cached(text)


def mentions(text: str, name: str) -> bool:
    """``name`` occurs in ``text`` as written, up to case and runs of whitespace (the
    flattened text is cached: one answer is checked against every name in turn).  A name
    found as it is needs no flattening: casefolding maps each character on its own and
    whitespace runs inside the name are whole runs of the text, so it is found then too."""
    text, name = str(text), str(name)
    return name in text or _flat(name) in _flat(text)


def mentions_code(text: str, code: str) -> bool:
    """``code`` (an issue or option code such as ``A`` or ``B2``) occurs as a whole word."""
    return re.search(rf"(?<!\w){re.escape(code)}(?!\w)", str(text)) is not None


def _short(value: Any) -> str:
    try:
        s = repr(value)
    except ValueError:  # an int longer than Python prints (sys.get_int_max_str_digits)
        return "<a number of more digits than Python prints>"
    return s if len(s) <= 40 else s[:37] + "..."


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.U)


def runaway(text: str, max_chars: int = 2000) -> str | None:
    """Why a free-text answer looks like a model that ran on, or None: longer than
    ``max_chars``, or one word or a phrase of up to six words said three times in a row
    ("A1 B1 C4 D1 E5 Z Z Z Z"; "to make a request to them to make a request to them ...")."""
    if len(text) > max_chars:
        return f"it runs on for {len(text)} characters"
    words = _WORD.findall(text.casefold())
    if len(words) - len(set(words)) < 2:  # no word said three times: nothing is (the usual answer)
        return None
    for size in range(1, 7):  # words[j] == words[j + size] for 2 * size positions in a row: 3 repeats
        # one byte per position j (1: words[j] == words[j + size]), made and searched in C;
        # the first run of 2 * size ones starts where the word-by-word scan's run would
        start = bytes(map(operator.eq, words, words[size:])).find(_ONES[size])
        if start >= 0:
            return f"it repeats {' '.join(words[start:start + size])!r} three times in a row"
    return None


_ONES = {size: b"\x01" * (2 * size) for size in range(1, 7)}
