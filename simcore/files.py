"""Reading user files with clear errors: the one place that turns an unreadable or
non-UTF-8 file into an :class:`~simcore.errors.InputError` naming it."""

from __future__ import annotations

from simcore.errors import InputError


def read_text(path: str) -> str:
    """The file's text; InputError if it cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise InputError(path, "", exc.strerror or str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(path, "", "not UTF-8 text") from None
