"""Text from a transcript or a model, made safe to print or put in a page.

Model answers and transcript files are not trusted: an answer ending in
``"\\x1b[2J\\x1b]0;pwned\\x07"`` would clear the terminal and retitle its window if it
were printed as it is.  :func:`visible` writes every control character as the
visible text of its Python escape (``\\x1b``, ``\\x07``, ``\\x9b``), so an escape
sequence shows as harmless characters and the rest of the text is unchanged:

* C0 controls (U+0000-U+001F) except the line feed and the tab, which keep their
  meaning (``oneline=True`` escapes them too, for text that must stay on one line);
* DEL (U+007F) and the C1 controls (U+0080-U+009F, among them the one-character CSI
  U+009B).

Used at the output boundary of ``simcore show``, of every error line the CLI prints
and of the report's HTML (:func:`simcore.report.page.esc`).
"""

from __future__ import annotations

import re

_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0))
_TABLE = {c: f"\\x{c:02x}" for c in _CONTROLS}
_TABLE_ONELINE = {**_TABLE, 0x09: "\\t", 0x0A: "\\n"}
_ANY = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ANY_ONELINE = re.compile("[\x00-\x1f\x7f-\x9f]")


def visible(text: str, *, oneline: bool = False) -> str:
    """``text`` with every control character written as its escape (``\\x1b``); line
    feeds and tabs are kept unless ``oneline``."""
    if oneline:
        return text.translate(_TABLE_ONELINE) if _ANY_ONELINE.search(text) else text
    return text.translate(_TABLE) if _ANY.search(text) else text


def has_controls(text: str) -> bool:
    """True when :func:`visible` would change ``text``."""
    return _ANY.search(text) is not None
