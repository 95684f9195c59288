"""Language tasks of the travel negotiation (MIND and its baselines).

Three tasks, each with simcore's own prompt:

``travel.propose-v1`` Phase 1: one message per agent proposing its value for every
    negotiated item (MIND's "global" initial proposal), one line per item, each with
    the speaker's willingness for that item in its words.  The answer is the message.
``travel.speak-v1``  intent -> message.  The context carries the act (propose, keep,
    update, compromise, agree, disagree), the item, the value the message advocates,
    the speaker's willingness (or null when the variant speaks without tone) and the
    kind of reason.  The answer is the message text.
``travel.read-v1``   message (+ optional item) -> cues.  The answer is ``{"act",
    "value", "willingness", "reason"}`` read from the words alone (for a multi-item
    message, from the line about the item); ``willingness`` is null when the words
    carry no intensity marker.

Mock templates: an act opener, an intensity phrase from :mod:`mockllm.tone` (or, when
tone is off, a plain phrase: one fixed phrase per act, or -- when the context asks for
``"plain_wording": "varied"`` -- one of several), the value in double quotes, and a
reason clause.  A context without ``plain_wording`` is the first mock's prompt and gets
its fixed phrase, so transcripts made before the varied wording (``base-v1``,
``appraisal-only-v1``) reproduce byte for byte.  At
zero ``tone_noise``, ``read(speak(intent)) == intent`` for every act, value, level and
reason (tests check it).
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

import attrs
import numpy as np

from mockllm import checks, schema, tone
from mockllm.tasks import Task, register_task
from simcore.errors import ParseError
from simcore.jsontext import dumps_spaced
from simcore.textsafe import well_formed_data

ACTS = ("propose", "keep", "update", "compromise", "agree", "disagree")
REASONS = ("preference", "defend", "urgency", "majority", "signal", "balance", "indifferent", "none",
           "compromise", "support")

#: act -> opener templates ({label} is the item); every opener names its act uniquely
OPENERS: dict[str, tuple[str, ...]] = {
    "propose": ("For the {label}, ", "On the {label}: ", "Starting with the {label}, "),
    "keep": ("I'm keeping my proposal for the {label}: ", "I'll stay with my proposal for the {label}: "),
    "update": ("I'm changing my proposal for the {label}: ", "Let me revise the {label}: "),
    "compromise": ("Let me offer a middle ground on the {label}: ", "Here is a compromise on the {label}: "),
    "agree": ("Agreed on the {label}: ", "That works for me on the {label}: "),
    "disagree": ("I can't agree on the {label}. ", "I see the {label} differently. "),
}
#: plain wording used when a variant speaks without tone: several neutral phrasings per
#: act, as a model told to use "plain neutral wording" varies them (none is in the lexicon)
PLAIN: dict[str, tuple[str, ...]] = {
    "propose": ("I propose", "I suggest", "my suggestion is", "how about", "I'd put forward", "let's go with"),
    "keep": ("I propose we keep", "let's stay with", "I still suggest", "the proposal remains"),
    "update": ("I now propose", "let's switch to", "my new suggestion is", "how about instead"),
    "compromise": ("I now propose", "we could settle on", "a fair option would be", "maybe we meet at"),
    "agree": ("we go with", "fine by me:", "I can accept", "I'm okay with"),
    "disagree": ("I suggest", "I'd rather have", "my counter-proposal is", "instead I propose"),
}
#: the first mock's plain wording: one fixed phrase per act (``plain_wording`` "fixed")
PLAIN_FIXED: dict[str, str] = {"propose": "I propose", "keep": "I propose", "update": "I now propose",
                               "compromise": "I now propose", "agree": "we go with", "disagree": "I suggest"}
PLAIN_WORDINGS = ("fixed", "varied")
#: reason kind -> clauses; "none" adds nothing
REASON_TEXT: dict[str, tuple[str, ...]] = {
    "preference": ("since it suits how I travel", "as it fits what I need on this trip"),
    "defend": ("because this is too important for me to drop", "as I cannot give this one up"),
    "urgency": ("since it clearly matters more to you", "because your need sounds stronger than mine"),
    "majority": ("since most of the group disagreed", "to follow where the group is heading"),
    "signal": ("because the group sounds firm about it", "since others clearly care more here"),
    "balance": ("as a middle ground between our positions", "to meet everyone halfway"),
    "indifferent": ("since this matters little to me", "as I can live with either"),
    "none": ("",),
    # Base's reasons (base-v3): B3 "You may agree if the proposal is a reasonable compromise that respects
    # the group's budget"; B4 "If you believe your current proposal is still the best for a majority, you
    # may KEEP it"
    "compromise": ("as a reasonable compromise for the group", "since it is a fair compromise within our budget"),
    "support": ("since it still has the widest support", "as more of us back it than any other option"),
}


@attrs.frozen
class TravelUtterance:
    """What a travel message says: the act, the value, the willingness level its
    words express (None without tone) and the kind of reason given."""

    act: str = attrs.field(validator=attrs.validators.in_(ACTS))
    value: str
    willingness: int | None = attrs.field(default=None)
    reason: str = attrs.field(default="none", validator=attrs.validators.in_(REASONS))

    @willingness.validator
    def _check_w(self, _a, v):
        if v is not None and not (isinstance(v, int) and 1 <= v <= 10):
            raise ValueError(f"willingness must be None or 1..10, got {v!r}")


#: act -> each opener cut at its one ``{label}`` (the only field of the templates)
_OPENER_PARTS = {act: tuple(tuple(o.split("{label}")) for o in os_) for act, os_ in OPENERS.items()}
assert all(len(p) == 2 and "{" not in p[0] + p[1] and "}" not in p[0] + p[1]
           for ps in _OPENER_PARTS.values() for p in ps)
_OPENER_ACT = {o.split("{label}")[0]: act for act, os_ in OPENERS.items() for o in os_}
_OPENER = re.compile("|".join(re.escape(h) for h in sorted(_OPENER_ACT, key=len, reverse=True)))
_QUOTED = re.compile(r'"([^"\n]+)"')
_REASON_KIND = sorted(((c, k) for k, cs in REASON_TEXT.items() for c in cs if c), key=lambda t: -len(t[0]))


def plain_words(act: str, rng: np.random.Generator, plain_wording: str) -> str:
    """The plain phrase of ``act``: fixed (no draw, the first mock's words) or varied."""
    if plain_wording == "varied":
        return PLAIN[act][int(rng.integers(len(PLAIN[act])))]
    return PLAIN_FIXED[act]


def render(u: TravelUtterance, label: str, rng: np.random.Generator, tone_noise: float,
           plain_wording: str = "varied") -> str:
    return _render(u.act, u.value, u.willingness, u.reason, label, rng, tone_noise, plain_wording)


def _render(act: str, value: str, willingness: int | None, reason: str, label: str, rng: np.random.Generator,
            tone_noise: float, plain_wording: str) -> str:
    """:func:`render` of the utterance with these fields (valid ones: see :class:`TravelUtterance`)."""
    openers = _OPENER_PARTS[act]
    head, tail = openers[int(rng.integers(len(openers)))]
    # the template's format(label=label) (which writes a label that is not a str with format())
    opener = head + label + tail if type(label) is str else head + format(label) + tail
    if willingness is None:
        words = plain_words(act, rng, plain_wording)
    else:
        words = tone.phrase(tone.worded_level(willingness, rng, tone_noise), rng)
    clauses = REASON_TEXT[reason]
    clause = clauses[int(rng.integers(len(clauses)))]
    tail = f", {clause}." if clause else "."
    return f'{opener}{words} "{value}"{tail}'


_ACT_SET = frozenset(ACTS)
_REASON_SET = frozenset(REASONS)


def _valid_fields(act: Any, willingness: Any, reason: Any) -> bool:
    """Whether :class:`TravelUtterance` accepts these fields, told without building one
    (the usual case; a False answer is then decided by the class itself)."""
    return (type(act) is str and act in _ACT_SET and type(reason) is str and reason in _REASON_SET
            and (willingness is None or (type(willingness) is int and 1 <= willingness <= 10)))


def render_all(entries, rng: np.random.Generator, tone_noise: float, reason: str = "preference",
               plain_wording: str = "varied") -> str:
    """A Phase-1 message: one proposal line per (label, value, willingness)."""
    lines = ["Here is what I'd like for the trip:"]
    for label, value, w in entries:
        if w is None:
            words = plain_words("propose", rng, plain_wording)
        else:
            words = tone.phrase(tone.worded_level(w, rng, tone_noise), rng)
        lines.append(f'- For the {label}, {words} "{value}".')
    clauses = REASON_TEXT[reason]
    if clauses[0]:
        lines.append(f"I am asking for these {clauses[int(rng.integers(len(clauses)))]}.")
    return "\n".join(lines)


def read(text: str, task_id: str = "travel.read-v1", item: str | None = None) -> TravelUtterance:
    """Read a message back into a :class:`TravelUtterance` (raises ParseError).

    With ``item`` (an item label), read the line of a multi-line message that is
    about that item."""
    return TravelUtterance(*_read_fields(_line_about(text, task_id, item), task_id))


def _line_about(text: str, task_id: str, item: str | None) -> str:
    """The line of a multi-line message about ``item`` (its ``- `` cut), else ``text``."""
    if item is not None and "\n" in text:
        key = f"the {item},"
        for line in text.split("\n"):
            if key in line:
                return line[2:] if line.startswith("- ") else line
        raise ParseError(task_id, f"no line about {item!r}", text)
    return text


def _read_fields(text: str, task_id: str) -> tuple[str, str, int | None, str]:
    """``(act, value, willingness, reason)`` of one message line (valid :class:`TravelUtterance`
    fields), or a ParseError."""
    m = _OPENER.match(text)
    if m is None:
        raise ParseError(task_id, "no recognisable opening", text)
    act = _OPENER_ACT[m.group(0)]
    first, last = text.find('"'), text.rfind('"')
    if first < 0 or last <= first:
        raise ParseError(task_id, "no quoted value", text)
    value = text[first + 1:last]
    level = tone.read_level(text[:first])
    reason = "none"
    after = text[last + 1:]
    for clause, kind in _REASON_KIND:
        if clause in after:
            reason = kind
            break
    return act, value, level, reason


class SpeakTask(Task):
    id = "travel.speak-v1"
    instructions = (
        "You are one traveller in a group planning a trip together; the group settles one item at a time.\n"
        "The context says what your next message must do: 'act' (propose, keep, update, compromise, agree "
        "or disagree), the 'item' it is about, the 'value' it puts forward, how much the item matters to "
        "you ('willingness', 1-10, or null) and the kind of 'reason' to give.\n"
        "- Put the value in double quotes, copied exactly.\n"
        "- If 'willingness' is a number, let your wording show how much this item matters to you: "
        "9-10 uncompromising, 7-8 assertive, 4-6 warm and flexible, 1-3 indifferent. Never write the number: "
        "it is private.\n"
        "- If 'willingness' is null, use plain neutral wording with no intensity words.\n"
        "- Give the kind of reason named in 'reason' in a few words ('none': give no reason).")
    question = ("Write your message to the group now: do the 'act' for the 'value' of the 'item', with the "
                "value in double quotes. What do you say?")
    answer_format = "the message text only, one or two sentences, in your own words (no labels, no JSON)."
    example = 'For the beach day, I\'d really like "Sunrise swim", since it suits how I travel.'
    fields = ("act", "item", "value", "willingness", "reason")
    optional_fields = ("plain_wording",)
    mock_options = {"tone_noise": tone.TONE_NOISE}

    def parse(self, text: str) -> str:
        return _message(self.id, text)

    def check(self, msg: str, context, text: str) -> str:
        """The message names the value it advocates (the prompt: "copied exactly"), and
        neither repeats the prompt nor states the willingness (:meth:`leaks`)."""
        if not checks.mentions(msg, context["value"]):
            raise ParseError(self.id, f"the message does not name the value {context['value']!r}", text)
        return self.reject_echo(msg, context, text)

    def leaks(self, said: str, context) -> str | None:
        return _willingness_leak(said, [context["willingness"]], [context["value"], context["item"]])

    def interpret(self, text: str, context) -> str:
        """:meth:`Task.interpret`; an accepted answer is remembered by what its parse and
        checks read -- the text, the context's value, item and willingness -- so the same
        message for the same context is accepted again without them (a third of
        the messages are said again).  Only with this class's own parse and checks."""
        if (type(self) is not SpeakTask or type(text) is not str
                or (SpeakTask.parse, SpeakTask.check, SpeakTask.leaks, SpeakTask.reject_echo) != _SPEAK_READERS):
            return Task.interpret(self, text, context)
        try:
            value, item, w = context["value"], context["item"], context["willingness"]
        except (KeyError, TypeError):
            return Task.interpret(self, text, context)
        if type(value) is not str or type(item) is not str or (w is not None and type(w) is not int):
            return Task.interpret(self, text, context)
        # (a refused answer raises: not kept)
        return _memo(_ACCEPTED, (text, value, item, w), lambda t: Task.interpret(self, t, context), text)

    def mock_answer(self, context: Mapping[str, Any], rng: np.random.Generator, options) -> str:
        act, value, w, reason = context["act"], context["value"], context["willingness"], context["reason"]
        if not _valid_fields(act, w, reason):  # the class says what is wrong (or accepts it, e.g. True)
            u = TravelUtterance(act, value, w, reason)
            act, value, w, reason = u.act, u.value, u.willingness, u.reason
        return _render(act, value, w, reason, context["item"], rng, float(options["tone_noise"]),
                       _plain_wording(context))

    def examples(self, rng):
        out = []
        for i, act in enumerate(ACTS):
            w = None if i % 3 == 2 else int(rng.integers(1, 11))
            out.append({"act": act, "item": "dining atmosphere", "value": "Romantic", "willingness": w,
                        "reason": REASONS[i % len(REASONS)], "plain_wording": "varied" if i == 5 else None})
        return out


_DIGIT = re.compile(r"\d")
_ASCII_DIGITS = b"0123456789"


def _willingness_leak(said: str, levels, names) -> str | None:
    """The private willingness a message states, if any: the word itself, or one of the
    speaker's levels written as a number anywhere outside the item names and values
    (which may hold digits, e.g. "Morning (06-12)").  The prompt says never to write
    the number; a travel message needs no other numbers from 1 to 10."""
    if "willingness" in said.casefold():
        return "it names the willingness"
    for w in levels:
        # a level the patterns below can find is written in `said` as it is (the names are
        # replaced by spaces, which joins no digits); the usual message writes none
        if isinstance(w, int) and not isinstance(w, bool) and f"{w}" in said:
            break
    else:
        return None
    raw = said.encode("utf-8", "surrogatepass")
    if len(raw.translate(None, _ASCII_DIGITS)) == len(raw):
        return None  # no digit 0-9 at all (the usual message): a level (written 1-10) cannot be there
    rest = said
    for name in sorted((n for n in names if isinstance(n, str) and n), key=len, reverse=True):
        rest = rest.replace(name, " ")
    if _DIGIT.search(rest) is None:  # (a per-character isdigit scan costs 6% of a MIND job)
        return None
    for w in sorted({w for w in levels if isinstance(w, int) and not isinstance(w, bool)}):
        if f"{w}" not in rest:  # (the pattern finds the level's text or nothing)
            continue
        pattern = _LEVEL_WRITTEN.get(w)
        if pattern is None:
            pattern = re.compile(rf"(?<![\w.]){w}(?![\w]|\.\d)")
        if pattern.search(rest):
            return f"it writes the willingness {w}"
    return None


#: the pattern of a level written as a number, compiled once for the levels 1-10
_LEVEL_WRITTEN = {w: re.compile(rf"(?<![\w.]){w}(?![\w]|\.\d)") for w in range(1, 11)}


def _plain_wording(context: Mapping[str, Any]) -> str:
    """The context's optional ``plain_wording`` ("varied"); absent or anything else: "fixed"."""
    return "varied" if context.get("plain_wording") == "varied" else "fixed"


def _message(task_id: str, text: str) -> str:
    """A message answer: the text itself (a JSON {"message": ...} wrapper is unwrapped)."""
    msg = text.strip()
    if msg.startswith("{"):
        try:
            data = well_formed_data(msg, json.loads(msg))  # (a lone surrogate's escape: U+FFFD)
        except (ValueError, RecursionError):  # JSONDecodeError, an overlong number, deep nesting
            raise ParseError(task_id, "looks like JSON but is not valid JSON", text) from None
        msg = data.get("message", "") if isinstance(data, dict) else ""
        if not isinstance(msg, str):
            msg = ""
    if not msg:
        raise ParseError(task_id, "empty message", text)
    return msg


class ProposeTask(Task):
    id = "travel.propose-v1"
    max_tokens = 512  # a choice: one line per item; the mock's longest is about 710 characters
    instructions = (
        "You are one traveller in a group planning a trip together.  Before the group settles the\n"
        "items one by one, you propose your own value for every item listed in the context's 'items'.\n"
        "- Write the first line as a short greeting, then one line per item: "
        "'- For the <item>, <your words> \"<value>\".' with the value copied exactly in double quotes.\n"
        "- Where an item's 'willingness' is a number (1-10), let the words of its line show how much it "
        "matters to you (9-10 uncompromising, 7-8 assertive, 4-6 warm, 1-3 indifferent); never write the "
        "number: it is private.  Where it is null, use plain neutral wording.\n"
        "- End with one line giving the kind of reason named in 'reason'.")
    question = ("Write your opening message to the group now, proposing the 'value' of every entry in "
                "'items'. What do you say?")
    answer_format = ("the message text only: a greeting line, then one line per item "
                     "'- For the <item>, <your words> \"<value>\".', then one line with your reason.")
    example = ('Hi all, here is my plan:\n- For the boat tour, I\'d love "Sunset cruise".\n'
               "I am asking for this since it suits how I travel.")
    fields = ("items", "reason")
    optional_fields = ("plain_wording",)
    mock_options = {"tone_noise": tone.TONE_NOISE}
    #: the mock reads the items and writes a text: plain items go to it as they are
    mock_reads_fields = True

    def parse(self, text: str) -> str:
        return _message(self.id, text)

    def check(self, msg: str, context, text: str) -> str:
        """The message names every item's value (the prompt: "copied exactly"), and
        neither repeats the prompt nor states a willingness (:meth:`leaks`)."""
        for e in context["items"]:
            if not checks.mentions(msg, e["value"]):
                raise ParseError(self.id, f"the message does not name the value {e['value']!r} of the "
                                 f"{e['item']}", text)
        return self.reject_echo(msg, context, text)

    def leaks(self, said: str, context) -> str | None:
        items = context["items"]
        return _willingness_leak(said, [e.get("willingness") for e in items],
                                 [e.get("value") for e in items] + [e.get("item") for e in items])

    def mock_answer(self, context, rng, options) -> str:
        entries = [(e["item"], e["value"], e["willingness"]) for e in context["items"]]
        return render_all(entries, rng, float(options["tone_noise"]), context["reason"], _plain_wording(context))

    def examples(self, rng):
        return [{"items": [{"item": "dining budget tier", "value": "Moderate", "willingness": 8},
                           {"item": "departure window", "value": "Morning (06-12)", "willingness": None}],
                 "reason": "preference"}]


class ReadTask(Task):
    id = "travel.read-v1"
    instructions = (
        "You read one message written by a fellow traveller during group trip planning (the context's\n"
        "'message') and report what it does and how much the writer seems to care, judging ONLY from the words.\n"
        "If 'item' is not null and the message covers several items, report on that item only.\n"
        "- act: one of propose, keep, update, compromise, agree, disagree.\n"
        "- value: the option the message puts forward, copied exactly (usually in double quotes).\n"
        "- willingness: your guess 1-10 of how much the writer cares (9-10 uncompromising, 7-8 assertive, "
        "4-6 warm, 1-3 indifferent), or null if the wording gives no sign.\n"
        "- reason: one of " + ", ".join(REASONS) + ".")
    question = "What does the message do, which value does it put forward, and how much does the writer care?"
    answer_format = ('one JSON object and nothing else: {"act": "<act>", "value": "<value>", '
                     '"willingness": <1-10 or null>, "reason": "<reason>"}')
    example = '{"act": "keep", "value": "Sunset cruise", "willingness": 8, "reason": "defend"}'
    fields = ("message", "item")
    mock_options = {}

    def parse(self, text: str) -> TravelUtterance:
        # the answers repeat (one message is read by every voter; the mock's answer to it is
        # the same text): a text read before gives the same (frozen) utterance
        if type(text) is not str:
            return self._parse(text)
        return _memo(_PARSED, text, self._parse, text)

    def _parse(self, text: str) -> TravelUtterance:
        data = self.load_json(text)
        if not isinstance(data, dict):
            raise ParseError(self.id, "expected a JSON object", text)
        w = data.get("willingness")
        if isinstance(w, float) and w.is_integer():
            w = int(w)
        if not isinstance(data.get("value"), str) or not data["value"].strip():
            raise ParseError(self.id, "'value' must be the option's name", text)
        try:
            return TravelUtterance(data.get("act"), data.get("value"), w, data.get("reason", "none"))
        except (TypeError, ValueError) as exc:
            raise ParseError(self.id, str(exc), text) from None

    def check(self, u: TravelUtterance, context, text: str) -> TravelUtterance:
        """The value is copied from the message read (act, reason and willingness are
        checked by :class:`TravelUtterance` itself)."""
        if not checks.mentions(context["message"], u.value):
            raise ParseError(self.id, f"the value {u.value!r} is not in the message read", text)
        return u

    def answer_schema(self, context) -> dict:
        """Act and reason from their lists, willingness 1-10 or null, and the value one of
        the message's quoted phrases (any text when the message quotes nothing)."""
        quoted = _QUOTED.findall(str(context["message"]))
        return schema.obj({"act": schema.enum(ACTS), "value": schema.enum(quoted) if quoted else schema.STRING,
                           "willingness": schema.enum(range(1, 11), nullable=True),
                           "reason": schema.enum(REASONS)}, title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        # the answer depends on the message and the item only (no draw, no option): one
        # message read by several voters is read once
        message, item = context["message"], context["item"]
        if type(message) is str and (item is None or type(item) is str):
            return _memo(_ANSWERS, (message, item), self._mock_answer, context)
        return self._mock_answer(context)

    def _mock_answer(self, context) -> str:
        try:
            act, value, w, reason = _read_fields(_line_about(context["message"], self.id, context["item"]),
                                                 self.id)
        except ParseError as exc:  # words the templates never write: the mock says it cannot tell
            return json.dumps({"act": None, "value": None, "willingness": None, "reason": "none",
                               "why": exc.problem})
        return dumps_spaced({"act": act, "value": value, "willingness": w, "reason": reason})

    def examples(self, rng):
        out = []
        for i, act in enumerate(ACTS):
            w = None if i % 3 == 2 else int(rng.integers(1, 11))
            u = TravelUtterance(act, "4.0+ (Reliable)", w, REASONS[i % len(REASONS)])
            out.append({"message": render(u, "minimum restaurant rating", rng, 0.0), "item": None})
        out.append({"message": render_all([("dining budget tier", "Moderate", 8), ("room type", "Private room", 3)],
                                          rng, 0.0), "item": "room type"})
        return out

    def expected(self, context):
        return read(context["message"], self.id, context["item"])


class _Cache(dict):
    """A dict of pure results kept for at most :data:`_CACHE_SIZE` keys, and the generation
    before it (``old``, as many again): when the dict is full it becomes ``old`` and starts
    empty, so memory stays flat.  A key found in ``old`` is moved back.  Emptying
    everything at once instead would lose most repeats: in a MIND study a message is
    usually said again about 3,000 messages later, by another group (speak: 1,897 of 4,477
    repeats found per 100 groups with 4,096 keys; 3,691 with two generations of 4,096)."""

    __slots__ = ("old",)

    def __init__(self):
        super().__init__()
        self.old: dict = {}

    def clear(self) -> None:
        """Both generations."""
        super().clear()
        self.old = {}


#: the read task's answers by (message, item) and its parsed answers by text: pure functions
#: of their keys (see _Cache)
_ANSWERS: _Cache = _Cache()
#: the speak task's accepted answers by (text, value, item, willingness)
_ACCEPTED: _Cache = _Cache()
#: the speak task's own parse and checks (its cache is used only while they are the class's)
_SPEAK_READERS = (SpeakTask.parse, SpeakTask.check, SpeakTask.leaks, SpeakTask.reject_echo)
_PARSED: _Cache = _Cache()
_CACHE_SIZE = 4096


def _memo(cache: _Cache, key, compute, arg):
    """``cache[key]``, computed as ``compute(arg)`` the first time (a pure result, never
    None); a key is looked up in the generation before (``cache.old``) too."""
    got = cache.get(key)
    if got is None:
        got = cache.old.get(key)
        if got is None:
            got = compute(arg)  # (a refused answer raises: not kept)
        _keep(cache, key, got)
    return got


def _keep(cache: _Cache, key, value) -> None:
    """``cache[key] = value``; a full cache first becomes the old generation."""
    if len(cache) >= _CACHE_SIZE:
        cache.old = dict(cache)
        dict.clear(cache)
    cache[key] = value


PROPOSE = register_task(ProposeTask())
SPEAK = register_task(SpeakTask())
READ = register_task(ReadTask())
