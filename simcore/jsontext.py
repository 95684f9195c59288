"""The JSON text of prompts and mock answers, written and read with less per-call overhead.

Every mock call writes JSON twice (the prompt's context, the answer) and reads it twice
(the mock reads the context back, the parser reads the answer).  The standard library
builds a new C encoder on every ``JSONEncoder.encode`` call and wraps every
``json.loads`` in Python-level whitespace handling; for small texts those wrappers cost
about as much as the encoding itself.  These helpers skip them and give exactly the
same results:

* :func:`dumps_compact` is ``json.JSONEncoder(ensure_ascii=False,
  separators=(",", ":")).encode``.  Its C encoder is built once and, holding no
  circular-reference markers, has no state, so it may be shared between threads; a
  call that fails (a circular reference, an object JSON cannot represent) is repeated
  by the standard encoder, which raises its usual error.
* :func:`dumps_spaced` is ``json.dumps(value, ensure_ascii=False)`` (the default
  separators ``", "`` and ``": "``), the same way.
* :func:`loads` is ``json.loads`` for a str: a text that is one JSON value from its
  first to its last character is scanned directly; any other text (surrounding
  whitespace, a byte-order mark, extra data, invalid JSON) goes to ``json.loads``.
"""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring
from typing import Any

_REFERENCE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_C_ENCODE = (c_make_encoder(None, _REFERENCE.default, encode_basestring, None, ":", ",", False, False, True)
             if c_make_encoder is not None else None)
_SPACED = json.JSONEncoder(ensure_ascii=False)  # what json.dumps(value, ensure_ascii=False) uses
_C_SPACED = (c_make_encoder(None, _SPACED.default, encode_basestring, None, ": ", ", ", False, False, True)
             if c_make_encoder is not None else None)
_SCAN = json.JSONDecoder().scan_once  # what json.loads scans with (default decoder options)


def _encode(c_encoder, reference: json.JSONEncoder, value: Any) -> str:
    """``reference.encode(value)``, through the prebuilt C encoder when there is one."""
    if c_encoder is None or type(value) is str:
        return reference.encode(value)
    try:
        return "".join(c_encoder(value, 0))
    except Exception:  # the standard encoder gives the standard error (or the same text)
        return reference.encode(value)


def dumps_compact(value: Any) -> str:
    """``json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode(value)``."""
    # (_encode written out: one call less for every transcript event and prompt)
    if _C_ENCODE is not None and type(value) is not str:
        try:
            return "".join(_C_ENCODE(value, 0))
        except Exception:  # the standard encoder gives the standard error (or the same text)
            pass
    return _REFERENCE.encode(value)


def dumps_spaced(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)``."""
    return _encode(_C_SPACED, _SPACED, value)


def loads(text: str) -> Any:
    """``json.loads(text)``."""
    if type(text) is str:
        try:
            value, end = _SCAN(text, 0)
        except Exception:  # not a value at 0 (whitespace, BOM, invalid): json.loads decides
            return json.loads(text)
        if end == len(text):
            return value
    return json.loads(text)
