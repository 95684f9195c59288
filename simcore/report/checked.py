"""A JSON document that remembers which of its fields were read, to name a bad one.

``metrics.json`` (and ``sweep.json``) are read by a dozen figure functions, each
taking the fields it draws.  A hand-edited or truncated-and-repaired file can hold a
string where a number belongs, a list where an object belongs, or lack a key; the
figure code then fails deep inside (``TypeError`` in the SVG writer).  Rather than a
schema repeating what every figure reads, the report reads the document through
:func:`wrap`: objects and lists stay ``dict``/``list`` (``isinstance`` checks and
iteration work as before) but log each field read, and :func:`blame` turns the
exception into one :class:`InputError` naming the file and the dotted field: the
missing key of a ``KeyError``, else the most recent field read whose type the
exception's message names (``'str'``, ``'list'``, ``NoneType``) or whose string value
it quotes.  An exception no field fits is blamed on the files read together.
"""

from __future__ import annotations

import collections
import json
import re
from typing import Any

from simcore.errors import InputError, SimcoreError

#: the exceptions a figure raises on a field of the wrong type or shape
ERRORS = (TypeError, ValueError, AttributeError, IndexError, KeyError, ZeroDivisionError, OverflowError)
_KEEP = 256


class _Log:
    def __init__(self) -> None:
        self.reads: collections.deque = collections.deque(maxlen=_KEEP)  # (path, value, present)
        self.missing: tuple | None = None

    def read(self, path: tuple, value: Any, present: bool = True) -> None:
        self.reads.append((path, value, present))


def _wrap(value: Any, path: tuple, log: _Log) -> Any:
    if isinstance(value, dict):
        return _Dict(value, path, log)
    if isinstance(value, list):
        return _List(value, path, log)
    return value


class _Dict(dict):
    def __init__(self, raw: dict, path: tuple, log: _Log):
        super().__init__(raw)
        self._path, self._log, self._kids = path, log, {}

    def _kid(self, key, value):
        kid = self._kids.get(key)
        if kid is None:
            kid = self._kids[key] = _wrap(value, self._path + (key,), self._log)
        self._log.read(self._path + (key,), value)
        return kid

    def __getitem__(self, key):
        try:
            value = dict.__getitem__(self, key)
        except KeyError:
            self._log.missing = self._path + (key,)
            raise
        return self._kid(key, value)

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return self._kid(key, dict.__getitem__(self, key))
        self._log.read(self._path + (key,), default, False)
        return default

    def items(self):
        return [(k, self._kid(k, v)) for k, v in dict.items(self)]

    def values(self):
        return [self._kid(k, v) for k, v in dict.items(self)]


class _List(list):
    def __init__(self, raw: list, path: tuple, log: _Log):
        super().__init__(raw)
        self._path, self._log = path, log

    def __getitem__(self, index):
        value = list.__getitem__(self, index)
        if isinstance(index, slice):
            return value
        return self._item(index if index >= 0 else len(self) + index, value)

    def _item(self, i: int, value):
        self._log.read(self._path + (i,), value)
        return _wrap(value, self._path + (i,), self._log)

    def __iter__(self):
        for i, value in enumerate(list.__iter__(self)):
            yield self._item(i, value)


# named as what they stand for, so that an exception's message reads 'dict' and 'list'
_Dict.__name__ = _Dict.__qualname__ = "dict"
_List.__name__ = _List.__qualname__ = "list"


def wrap(document: Any) -> Any:
    """``document`` (parsed JSON) read through a log of the fields read."""
    return _wrap(document, (), _Log())


def _dotted(path: tuple) -> str:
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in path).replace(".[", "[") or "(top level)"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def blame(document: Any, exc: BaseException, source: str) -> InputError | None:
    """The :class:`InputError` naming the field of ``document`` (from :func:`wrap`) whose
    value raised ``exc`` while the report read it; None when no field read fits ``exc``
    (the value that failed came from elsewhere, such as the transcript)."""
    log = getattr(document, "_log", None)
    if log is None:
        return None
    what = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, KeyError):
        if log.missing is not None and exc.args and exc.args[0] == log.missing[-1]:
            return InputError(source, _dotted(log.missing), "missing: edited by hand or written by another "
                                                            "simcore version?")
        return None
    message = str(exc)
    if "values to unpack" in message or "math domain error" in message:  # a list of the wrong length,
        message += " 'list'" if "unpack" in message else " 'float' 'int'"  # a number out of range
    subject = _subject(message)
    for numbers in (False, True):  # a number is what most fields hold: suspect the others first
        for path, value, present in reversed(log.reads):
            name = "NoneType" if value is None else type(value).__name__
            if subject is not None:
                if name != subject:
                    continue
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and not numbers:
                continue
            if subject is not None or re.search(rf"\b{name}\b", message) \
                    or (isinstance(value, str) and value and repr(value) in message):
                got = f"{_kind(value)} ({_short(value)})" if present else "missing"
                return InputError(source, _dotted(path), f"{got}, not what the report can read there "
                                                         f"({what}): edited by hand or written by another "
                                                         "simcore version?")
    return None


def _subject(message: str) -> str | None:
    """The type an exception's message says was used wrongly: ``'list' object has no
    attribute 'get'``, ``list indices must be integers``, ``must be real number, not str``."""
    m = re.match(r"'?(\w+)'? (?:object|indices)\b", message) or re.search(r"\bnot '?(\w+)'?$", message)
    return m.group(1) if m else None


def reading(document: Any, source: str, other: str):
    """A context manager: an exception of :data:`ERRORS` inside is one
    :class:`InputError` naming ``source`` and the field (:func:`blame`), or, when no field
    of the document fits, naming ``other`` (the files the failing code read)."""
    return _Reading(document, source, other)


class _Reading:
    def __init__(self, document: Any, source: str, other: str):
        self.document, self.source, self.other = document, source, other

    def __enter__(self):
        return self.document

    def __exit__(self, exc_type, exc, tb) -> bool:

        if exc is None or isinstance(exc, SimcoreError) or not isinstance(exc, ERRORS):
            return False
        err = blame(self.document, exc, self.source)
        if err is None:
            err = InputError(self.other, "", f"the report cannot read it ({type(exc).__name__}: {exc}): "
                                             "edited by hand or written by another simcore version?")
        raise err from None
