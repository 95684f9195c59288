"""Text from a transcript or a model, made safe to print or put in a page.

Model answers and transcript files are not trusted: an answer ending in
``"\\x1b[2J\\x1b]0;pwned\\x07"`` would clear the terminal and retitle its window if it
were printed as it is.  :func:`visible` writes every control character as the
visible text of its Python escape (``\\x1b``, ``\\x07``, ``\\x9b``), so an escape
sequence shows as harmless characters and the rest of the text is unchanged:

* C0 controls (U+0000-U+001F) except the line feed and the tab, which keep their
  meaning (``oneline=True`` escapes them too, for text that must stay on one line);
* DEL (U+007F) and the C1 controls (U+0080-U+009F, among them the one-character CSI
  U+009B);
* a surrogate (U+D800-U+DFFF, written ``\\ud800``): no encoder writes one, so it would
  end the output with a ``UnicodeEncodeError``.

Text from a model is made *well-formed* where it enters (:func:`well_formed`: a lone
surrogate becomes U+FFFD; :func:`well_formed_data` for the strings of a model's own JSON,
which may write one as an escape), so no output simcore writes holds a surrogate; a file
that does was not written by simcore, and its readers refuse it (:func:`lone_surrogate`).

Used at the output boundary of ``simcore show``, of every error line the CLI prints
and of the report's HTML (:func:`simcore.report.page.esc`).
"""

from __future__ import annotations

import re
from typing import Any

_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0))
_TABLE = {**{c: f"\\x{c:02x}" for c in _CONTROLS}, **{c: f"\\u{c:04x}" for c in range(0xD800, 0xE000)}}
_TABLE_ONELINE = {**_TABLE, 0x09: "\\t", 0x0A: "\\n"}
_ANY = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_ANY_ONELINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: how a surrogate is written in JSON text (``\\ud800``, any case): a line without one
#: cannot decode to a string holding a surrogate
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def visible(text: str, *, oneline: bool = False) -> str:
    """``text`` with every control character written as its escape (``\\x1b``); line
    feeds and tabs are kept unless ``oneline``."""
    if oneline:
        return text.translate(_TABLE_ONELINE) if _ANY_ONELINE.search(text) else text
    return text.translate(_TABLE) if _ANY.search(text) else text


def has_controls(text: str) -> bool:
    """True when :func:`visible` would change ``text``."""
    return _ANY.search(text) is not None


def well_formed(text: str) -> str:
    """``text`` as Unicode that every encoder writes: a high surrogate followed by a low
    one joined into the character the pair encodes (text from a UTF-16 source, such as
    JSON's ``\\ud83d\\ude00`` split over two pieces), every other surrogate -- a lone one,
    half of a character a server cut in two -- replaced by U+FFFD, the replacement
    character a UTF-8 decoder puts where bytes cannot be read.  Text without a
    surrogate (the usual case: one search) is returned as it is."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def well_formed_data(line: str, data: Any) -> Any:
    """``data`` (JSON data decoded from the text ``line``) with every string in it -- keys
    too -- made :func:`well_formed`: a model's JSON may write a lone surrogate as the
    escape ``\\ud800`` inside its own text.  ``data`` itself when ``line`` holds no
    surrogate's escape (the usual case: one search of the line)."""
    if "\\u" not in line or _SURROGATE_ESCAPE.search(line) is None:
        return data
    return _mended(data)


def _mended(item: Any) -> Any:
    if isinstance(item, str):
        return well_formed(item)
    if isinstance(item, dict):
        return {_mended(k): _mended(v) for k, v in item.items()}
    if isinstance(item, list):
        return [_mended(v) for v in item]
    return item


def lone_surrogate(line: str, data: Any) -> str | None:
    """The first surrogate in the strings of ``data`` (JSON data decoded from the text
    ``line``), escaped as JSON writes it (``\\ud800``), or None.  A line that holds no
    surrogate's escape is not looked into (the usual case: one search of the line)."""
    if "\\u" not in line or _SURROGATE_ESCAPE.search(line) is None:
        return None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            hit = _SURROGATE.search(item)
            if hit is not None:
                return f"\\u{ord(hit.group()):04x}"
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
