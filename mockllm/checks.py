"""Checks of a parsed model answer against the scenario named in its prompt.

Model output is never trusted (DESIGN "Errors"): a task's ``parse`` reads the answer's
form, and its ``check`` (see :meth:`mockllm.tasks.Task.interpret`) verifies that every
name in it -- criterion, value, option, issue code, item, act -- is one the prompt's
context actually offers, and every number is whole / finite / in range where the task
says so.  Each helper raises :class:`~simcore.errors.ParseError` naming what is wrong,
which the client retries and then answers with the caller's counted fallback.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections import Counter, abc
from typing import Any, Collection, Mapping

from simcore import caches
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
    if type(value) is not dict and not isinstance(value, abc.Mapping):  # (a dict skips the ABC check)
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


@caches.lru("mockllm.checks: texts flattened for the echo check", maxsize=1024)
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


#: a word: letters and digits, with one apostrophe inside ("don't"); punctuation, quotes
#: and whitespace are what stands between words
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.U)

# ASCII text: there casefold is lower and [^\W_] is [a-z0-9] once lowered, so the
# words are the runs of [a-z0-9'] -- every other byte made a space by one translate -- split
# at the spaces, as long as each apostrophe sits inside a word (between two of [a-z0-9]) and
# no word holds two (else the regex, on bytes, decides).
_ASCII_SPACES = bytes(b if (48 <= b <= 57 or 97 <= b <= 122 or b == 39) else 32 for b in range(256))
_ASCII_WORD = re.compile(rb"[a-z0-9]+(?:'[a-z0-9]+)?")
_TWO_APOSTROPHES = re.compile(rb"'[a-z0-9]*'")


def _words(text: str) -> list:
    """``WORD.findall(text.casefold())``, as bytes for an ASCII text (the same words, compared
    the same way), else as str."""
    if not text.isascii():
        return WORD.findall(text.casefold())
    raw = text.encode("ascii").lower().translate(_ASCII_SPACES)
    if b"'" in raw and (raw[:1] == b"'" or raw[-1:] == b"'" or b" '" in raw or b"' " in raw
                        or _TWO_APOSTROPHES.search(raw) is not None):
        return _ASCII_WORD.findall(raw)
    return raw.split()


def runaway(text: str, max_chars: int = 2000) -> str | None:
    """Why a free-text answer looks like a model that ran on, or None: longer than
    ``max_chars``, or one word or a phrase of up to six words said three times in a row
    ("A1 B1 C4 D1 E5 Z Z Z Z"; "to make a request to them to make a request to them ...")."""
    if len(text) > max_chars:
        return f"it runs on for {len(text)} characters"
    words = _words(text)
    # a phrase of `size` words said three times makes 2 * size repeats of words already
    # seen: sizes beyond half the repeats cannot be there (the usual answer: none, or size 1)
    repeats = len(words) - len(set(words))
    sizes = range(1, min(6, repeats // 2) + 1)
    if sizes:  # only sizes that fit in a run of words each said three times or more
        sizes = _fitting_sizes(words, sizes)
    if len(sizes) >= 3:  # a long answer: first a cheaper test that can only say "not there"
        sizes = _possible_sizes(words, sizes)
    for size in sizes:
        # words[j] == words[j + size] for 2 * size positions in a row: 3 repeats; one byte per
        # position j (1: equal), made and searched in C; the first run of 2 * size ones
        # starts where the word-by-word scan's run would
        start = bytes(map(operator.eq, words, words[size:])).find(_ONES[size])
        if start >= 0:
            phrase = words[start:start + size]
            if type(phrase[0]) is bytes:
                phrase = [w.decode("ascii") for w in phrase]
            return f"it repeats {' '.join(phrase)!r} three times in a row"
    return None


def _fitting_sizes(words: list, sizes: range) -> range:
    """The sizes of ``sizes`` at which ``words`` may say a phrase three times in a row: a
    phrase said three times puts each of its words into the text three times or more, in a
    run of ``3 * size`` such words; so a size above a third of the longest run of words the
    text holds three times or more cannot be there (the usual sentence: no such run of 3)."""
    counts = Counter(words)
    if max(counts.values()) < 3:
        return range(0)
    frequent = {w for w, n in counts.items() if n >= 3}
    longest = run = 0
    for w in words:
        if w in frequent:
            run += 1
            if run > longest:
                longest = run
        else:
            run = 0
    return range(sizes.start, min(sizes.stop, longest // 3 + 1))


_ONES = {size: b"\x01" * (2 * size) for size in range(1, 7)}
_ZEROS = {size: bytes(2 * size) for size in range(1, 7)}
_LOW_BYTE = itertools.repeat(255)


def _possible_sizes(words: list, sizes: range) -> list[int]:
    """The phrase sizes at which ``words`` may repeat a phrase three times: each word made
    one byte (its hash's low byte: equal words, equal bytes), the bytes ``size`` apart
    compared all at once (XOR of two big integers); where no 2 * size of them in a row are
    equal, the words are not either.  (Unequal words may share a byte: a size kept here is
    still scanned word by word.)"""
    ids = bytes(map(operator.and_, map(hash, words), _LOW_BYTE))
    n, whole = len(ids), int.from_bytes
    out = []
    for size in sizes:
        span = n - size
        if (whole(ids[:span], "big") ^ whole(ids[size:], "big")).to_bytes(span, "big").find(_ZEROS[size]) >= 0:
            out.append(size)
    return out
