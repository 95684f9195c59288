"""Transcript events and their JSON Lines form.

One :class:`Event` per turn of dialogue.  The public part (speaker, text, offers)
is what other agents saw; ``hidden`` holds the speaker's private reasoning (for
``simcore show`` and the metrics, never for other agents); ``cues`` holds what each
listener read from the words.  Payloads are JSON-compatible dicts so a transcript
round-trips through ``to_json``/``from_json`` exactly.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, Iterable, Iterator, Sequence, TextIO

import attrs

from simcore.errors import InputError
from simcore.jsonread import parse
from simcore.jsontext import dumps_compact
from simcore.textsafe import visible

#: the key of an event's hidden notes that holds the model's decisions in a role (what a model
#: playing a role was asked and answered: mockllm.exchanges)
MODEL_DECISIONS = "model_decisions"

_SCALARS = frozenset((str, int, float, bool, type(None)))
#: json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode, its C encoder built once
_ENCODE = dumps_compact


def _plain(value: Any) -> bool:
    """True when ``value`` is already made of JSON types only (dict/list/str/number/None)."""
    t = type(value)
    if t in _SCALARS:
        return True
    if t is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in _SCALARS and not _plain(v)):
                return False
        return True
    if t is list:
        for v in value:
            if type(v) not in _SCALARS and not _plain(v):
                return False
        return True
    return False


def _plain_items(value: dict) -> bool:
    """``_plain(value)`` for a dict, with lists of scalars checked in place: the usual
    payload (scalars and short lists such as an offer) then needs no further call."""
    for k, v in value.items():
        if type(k) is not str:
            return False
        t = type(v)
        if t in _SCALARS:
            continue
        if t is list:
            for x in v:
                if type(x) not in _SCALARS and not _plain(x):
                    return False
        elif not _plain(v):
            return False
    return True


def _jsonable(value: Any) -> Any:
    """Normalise a payload to plain JSON types (tuples -> lists, attrs -> dicts); a
    payload that is already plain is kept as it is."""
    if type(value) is dict:
        if not value or _plain_items(value):
            return value
    elif _plain(value):
        return value
    t = type(value)
    if t is dict:
        return {k if type(k) is str else str(k): _jsonable(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [_jsonable(v) for v in value]
    if attrs.has(t):
        return _jsonable(attrs.asdict(value, recurse=False))
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    return value


#: the JSON types of an event's fields (checked when a transcript is read)
_FIELD_TYPES = {"run": (str,), "seq": (int,), "speaker": (str,), "phase": (str,), "round": (int,),
                "item": (str, type(None)), "intent": (dict,), "text": (str,), "cues": (dict,),
                "hidden": (dict,)}
_KIND_NAMES = {str: "a string", int: "an integer", dict: "a JSON object", type(None): "null"}


@attrs.frozen
class Event:
    """One transcript line."""

    run: str
    seq: int
    speaker: str
    phase: str
    round: int = 0
    item: str | None = None
    intent: Mapping[str, Any] = attrs.field(factory=dict, converter=_jsonable)
    text: str = ""
    cues: Mapping[str, Any] = attrs.field(factory=dict, converter=_jsonable)
    hidden: Mapping[str, Any] = attrs.field(factory=dict, converter=_jsonable)

    def to_json(self) -> str:
        return _ENCODE({"run": self.run, "seq": self.seq, "speaker": self.speaker, "phase": self.phase,
                        "round": self.round, "item": self.item, "intent": self.intent, "text": self.text,
                        "cues": self.cues, "hidden": self.hidden})

    @classmethod
    def from_json(cls, line: str, source: str = "<transcript>", lineno: int = 0) -> "Event":
        data = parse(line, source, f"line {lineno}")
        if not isinstance(data, dict):
            raise InputError(source, f"line {lineno}", "expected a JSON object")
        names = {a.name for a in attrs.fields(cls)}
        missing = {"run", "seq", "speaker", "phase"} - set(data)
        if missing:
            raise InputError(source, f"line {lineno}", f"missing field(s) {sorted(missing)}")
        unknown = set(data) - names
        if unknown:
            raise InputError(source, f"line {lineno}", f"unknown field(s) {sorted(unknown)}")
        for name, kinds in _FIELD_TYPES.items():
            if name in data and (not isinstance(data[name], kinds)
                                 or (isinstance(data[name], bool) and bool not in kinds)):
                raise InputError(source, f"line {lineno}: {name}",
                                 f"expected {' or '.join(_KIND_NAMES[k] for k in kinds)}, "
                                 f"got {type(data[name]).__name__}")
        return cls(**data)


class Transcript:
    """A negotiation's events, in order, as a game records them.

    A game adds each event as its fields (:meth:`add`), or as a function and the values it
    makes the fields from (:meth:`add_made`: work a run that never reads its transcript need
    not do); the :class:`Event` objects are made when the transcript is first read
    (iteration, indexing, :meth:`events`) and kept.  What a game adds belongs to the
    transcript from then on: neither the game nor an agent changes it afterwards.  A
    transcript pickles as its events."""

    __slots__ = ("run", "_makes", "_rows", "_built")

    def __init__(self, run: str):
        self.run = run
        #: per event, the function that makes its fields from its row (None: the row is its fields)
        #: and the row (two lists: no pair per event for the garbage collector to walk)
        self._makes: list = []
        self._rows: list[tuple] = []
        self._built: list[Event] = []

    def add(self, speaker: str, phase: str, round: int = 0, item: str | None = None, intent: Any = None,
            text: str = "", cues: Any = None, hidden: Any = None) -> None:
        """Record the next event (``None`` payloads are empty dicts)."""
        self._makes.append(None)
        self._rows.append((speaker, phase, round, item, intent, text, cues, hidden))

    def add_made(self, make, *values: Any) -> None:
        """Record the next event as ``make(*values)``, which returns its fields as :meth:`add`
        takes them (speaker, phase, round, item, intent, text, cues, hidden), called when the
        transcript is first read.  ``make`` and ``values`` are kept until then: they should
        not refer to the game's state (a state's bound method would keep the state alive as
        long as its transcript, and make a reference cycle of the two that only the garbage
        collector frees)."""
        self._makes.append(make)
        self._rows.append(values)

    def events(self) -> tuple[Event, ...]:
        """Every event so far."""
        built, makes, rows = self._built, self._makes, self._rows
        if len(built) < len(rows):
            run = self.run
            for seq in range(len(built), len(rows)):
                make = makes[seq]
                fields = rows[seq] if make is None else make(*rows[seq])
                speaker, phase, round_, item, intent, text, cues, hidden = fields
                built.append(Event(run, seq, speaker, phase, round_, item, {} if intent is None else intent, text,
                                   {} if cues is None else cues, {} if hidden is None else hidden))
        return tuple(built)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events())

    def __getitem__(self, index):
        return self.events()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Transcript):
            return self.events() == other.events()
        if isinstance(other, tuple):
            return self.events() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Transcript({self.run!r}, {len(self._rows)} events)"

    def __reduce__(self):
        return tuple, (self.events(),)


def write_jsonl(events: Iterable[Event], stream: TextIO) -> int:
    """Write ``events`` as JSON Lines; the number written.  Lines are written in batches of
    up to :data:`_BATCH` (one write call each: far fewer calls, bounded memory)."""
    n = 0
    batch: list[str] = []
    for ev in events:
        batch.append(ev.to_json())
        if len(batch) >= _BATCH:
            n += write_lines(batch, stream)
            batch = []
    return n + (write_lines(batch, stream) if batch else 0)


_BATCH = 512


def write_lines(lines: Sequence[str], stream: TextIO) -> int:
    """Write transcript lines (each an :meth:`Event.to_json`) as :func:`write_jsonl` writes
    their events, in one call; the number written."""
    if not lines:
        return 0
    stream.write("\n".join(lines))
    stream.write("\n")
    return len(lines)


def read_jsonl(path: str) -> Iterator[Event]:
    for lineno, line in jsonl_lines(path):
        yield Event.from_json(line, path, lineno)


#: the longest line a transcript may hold, in bytes: a longer one (or a file that never
#: ends a line, such as /dev/zero) is refused instead of being held in memory
MAX_LINE = 64 * 1024 * 1024


def jsonl_lines(path: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of each non-blank line of the text file ``path``, read one
    line at a time.  A file that cannot be opened or read, a line that is not UTF-8 and a
    line longer than :data:`MAX_LINE` are each an :class:`InputError` naming the file.

    A *torn* last line -- no newline at its end and not complete JSON, what a writer
    stopped in the middle of a line leaves -- is skipped with one warning line on
    standard error, as ``--resume`` drops the torn tail of a sweep log; every reader of
    transcripts (``simcore show``, ``simcore report``) goes through here, so they agree."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise InputError(path, "", exc.strerror or str(exc)) from None
    with handle:
        lineno = 0
        while True:
            cap = MAX_LINE
            try:
                raw = handle.readline(cap + 1)
            except OSError as exc:  # /proc/self/mem, an I/O error
                raise InputError(path, f"line {lineno + 1}", f"cannot read ({exc.strerror or exc})") from None
            if not raw:
                return
            lineno += 1
            last = not raw.endswith(b"\n")
            if last and len(raw) > cap:
                raise InputError(path, f"line {lineno}", f"longer than {_size(cap)} without a line break: "
                                 "not a transcript")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                if last:
                    _torn(path, lineno)
                    return
                raise InputError(path, f"line {lineno}", "not UTF-8 text") from None
            if not line.strip():
                continue
            if last and _incomplete(line):
                _torn(path, lineno)
                return
            yield lineno, line


def _size(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 and n % 2**20 == 0 else f"{n} bytes"


def _incomplete(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return True
    except (RecursionError, ValueError):
        return False  # complete but bad: Event.from_json says what is wrong
    return False


def _torn(path: str, lineno: int) -> None:

    print(visible(f"simcore: warning: {path}: line {lineno}: cut off (no newline at the end, not complete "
                  "JSON), as a write stopped mid-line leaves it; skipped", oneline=True), file=sys.stderr)


_RUN_PREFIX = '{"run":"'


def run_of_line(line: str) -> str | None:
    """The run id at the front of a line as :meth:`Event.to_json` writes it, or None
    (then the line must be parsed to know its run)."""
    if not line.startswith(_RUN_PREFIX):
        return None
    end = line.find('"', len(_RUN_PREFIX))
    if end < 0 or "\\" in line[len(_RUN_PREFIX):end]:
        return None
    return line[len(_RUN_PREFIX):end]


def runs(events: Iterable[Event]) -> dict[str, list[Event]]:
    """Group events by run id, keeping first-seen order."""
    out: dict[str, list[Event]] = {}
    for ev in events:
        out.setdefault(ev.run, []).append(ev)
    return out
