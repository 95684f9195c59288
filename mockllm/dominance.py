"""Language tasks of the dominance agent: say an utterance in the speaker's relation style,
and read text (an agent's or a person's) back into an utterance.

``dominance-say``   context: relation, topic, utterance (dict), details (option values or
                    null).  Answer: ``SAY: <text>``.  The mock picks one of several
                    phrasings per relation: a dominant speaker asserts ("Let's have X."),
                    a peer suggests ("How about X?"), a submissive one hedges and asks
                    ("Maybe we could have X?").  Mock option ``dominance_garble``
                    (probability) drops the ``SAY:`` label, which the parser refuses --
                    a counted fallback in the client.
``dominance-read``  context: text, vocabulary ({topic, criteria: {name: [values]}}),
                    last_proposal (the reader's own last proposal or null, for a bare
                    "yes"/"no").  Answer: one JSON object, an utterance dict, or
                    ``{"kind": "unreadable", "why": ...}`` when the text is none of the
                    supported forms -- the reader says so instead of guessing.

The grammar below reads every phrasing the say task writes (``read(say(u)) == u``) and
a person's free text in the supported forms: "I'd rather have Italian than Chinese",
"Italian is my favourite", "I don't like Turkish", "what cuisine do you like?", "do you
prefer X or Y?", "how about X?", "let's go to <restaurant>", "X it is", "ok"/"no"
(about the last proposal), "book a table at <restaurant>", "bye".  A restaurant name is
returned as written; the listener matches it against its domain.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from simcore import caches
from simcore.errors import InputError, ParseError
from simcore.protocols.dialogue import STALLED  # a Quit's reason (the repeat backstop's), said and read as its own
from simcore.protocols.dialogue import utterance_from_dict

# --- phrasings ---------------------------------------------------------------
T = {
    "dominant": {
        "pair": ["I prefer {more} to {less}.", "Clearly, {more} is better than {less}.",
                 "I want {more}, not {less}."],
        "fav": ["My favourite {c} is {more}.", "Nothing beats {more} for {c}."],
        "least": ["The worst {c} is {less}.", "I can't stand {less}; it is my least favourite {c}."],
        "ask": ["Tell me which {c} you want.", "Which {c} do you want?"],
        "ask_pair": ["Tell me: {more} or {less}?", "Do you prefer {more} or {less}?"],
        "ask_more": ["Do you like {more}?", "Tell me if you like {more}."],
        "ask_less": ["Do you dislike {less}?", "Tell me if you dislike {less}."],
        "propose": ["Let's have {v}.", "We'll go for {v}."],
        "propose_opt": ["Let's go to {v}{d}.", "We're going to {v}{d}."],
        "accept": ["Fine, {v} it is.", "OK, I accept {v}."],
        "reject": ["No, I don't want {v}.", "No way, not {v}."],
        "booking": ["Settled: I'm booking a table at {v}.", "Good. I'll book a table at {v}."],
        "quit": ["We won't agree on anything. Goodbye.", "There is nothing left to discuss. Goodbye."],
        "quit_stall": ["We keep repeating ourselves. Goodbye.", "We are going round in circles. Goodbye."],
    },
    "peer": {
        "pair": ["I'd rather have {more} than {less}.", "I like {more} more than {less}.",
                 "I think {more} is better than {less}."],
        "fav": ["Honestly, {more} is my favourite {c}.", "I love {more} the most."],
        "least": ["I like {less} the least.", "I don't like {less}."],
        "ask": ["What {c} do you like?", "What do you think about the {c}?"],
        "ask_pair": ["Do you prefer {more} or {less}?", "Would you rather have {more} or {less}?"],
        "ask_more": ["Do you like {more}?", "What do you think of {more}?"],
        "ask_less": ["Do you dislike {less}?", "Is {less} something you dislike?"],
        "propose": ["How about {v}?", "What about {v}?", "Shall we go for {v}?"],
        "propose_opt": ["How about going to {v}{d}?", "What about {v}{d}?"],
        "accept": ["Sounds good, {v} it is.", "I agree on {v}."],
        "reject": ["I'd rather not have {v}.", "Sorry, {v} doesn't suit me."],
        "booking": ["Great, let's book a table at {v}.", "Perfect, I'll book a table at {v}."],
        "quit": ["I don't think we'll find a place we both like. Let's stop here.",
                 "We won't agree, I'm afraid. Goodbye."],
        "quit_stall": ["We seem to be going round in circles. Let's stop here.",
                       "We keep repeating ourselves, so let's stop here."],
    },
    "submissive": {
        "pair": ["I think I might prefer {more} to {less}, if that's alright with you.",
                 "Maybe {more} rather than {less}? If you don't mind.",
                 "Perhaps I'd like {more} a little more than {less}."],
        "fav": ["I think {more} might be my favourite {c}.", "If I may say so, {more} is my favourite {c}."],
        "least": ["I think {less} is my least favourite {c}.", "I'm not very fond of {less}, I'm afraid."],
        "ask": ["What {c} would you like?", "Do you have a preference on the {c}?",
                "Which {c} would you prefer?"],
        "ask_pair": ["Would you prefer {more} or {less}?", "Do you like {more} or {less} better?"],
        "ask_more": ["Would you like {more}?", "Do you like {more}, maybe?"],
        "ask_less": ["Do you dislike {less}, perhaps?", "Is {less} something you dislike, perhaps?"],
        "propose": ["Maybe we could have {v}?", "Would {v} be okay for you?", "Perhaps we could try {v}?"],
        "propose_opt": ["Maybe we could go to {v}{d}?", "Would you like to go to {v}{d}?"],
        "accept": ["Yes, {v} is perfect for me.", "Of course, {v} is fine with me."],
        "reject": ["I'm sorry, I'd rather not have {v}.", "I'm afraid {v} doesn't really suit me."],
        # a booking ends the dialogue, so it is said as done, never asked (a "shall I
        # book ...?" would invite a "no" that nobody reads)
        "booking": ["Wonderful, I'll book a table for us at {v}, then.", "Lovely; I'm booking a table at {v}."],
        "quit": ["I'm sorry, I can't see anything that would suit us both.",
                 "I'm sorry, I give up; nothing seems to suit us both."],
        "quit_stall": ["I'm sorry, I think we are going round in circles. Let's stop here.",
                       "Sorry, we keep repeating ourselves; let's stop here."],
    },
}


def _slot(u: Mapping[str, Any], topic: str) -> str:
    kind = u["kind"]
    if kind == "state":
        return "pair" if u.get("less") and u.get("more") else ("fav" if u.get("more") else "least")
    if kind == "ask":
        if u.get("less") and u.get("more"):
            return "ask_pair"
        return "ask_more" if u.get("more") else ("ask_less" if u.get("less") else "ask")
    if kind == "propose":
        return "propose_opt" if u["type"] == topic else "propose"
    if kind == "quit" and u.get("reason") == STALLED:
        return "quit_stall"
    return kind


def phrasings(relation: str, u: Mapping[str, Any], topic: str) -> list[str]:
    return T[relation][_slot(u, topic)]


def render(relation: str, u: Mapping[str, Any], topic: str, details=None, index: int = 0) -> str:
    """The ``index``-th phrasing of utterance dict ``u`` for a speaker of ``relation``."""
    options = phrasings(relation, u, topic)
    tpl = options[index % len(options)]
    v = u.get("value") or u.get("option") or ""
    d = f" ({', '.join(details)})" if details else ""
    return tpl.format(more=u.get("more") or "", less=u.get("less") or "", c=u.get("criterion") or "",
                      v=v, d=d)


# --- reading -----------------------------------------------------------------
SYNONYMS = {"food": ("cuisine",), "kitchen": ("cuisine",), "price": ("cost",), "prices": ("cost",),
            "budget": ("cost",), "ambience": ("ambiance", "atmosphere"), "ambiance": ("atmosphere",),
            "atmosphere": ("ambiance",), "mood": ("ambiance", "atmosphere"), "area": ("location",),
            "place": ("location",), "neighbourhood": ("location",), "neighborhood": ("location",)}
FILLERS = ("i think ", "well, ", "well ", "honestly, ", "clearly, ", "so, ", "hmm, ", "i'm afraid ",
           "i am afraid ", "i'm sorry, ", "sorry, ", "if i may say so, ", "to be honest, ", "oh, ")
ARTICLES = ("the ", "a ", "an ", "some ")
NOUNS = (" food", " cuisine", " restaurant", " place", " one", " please")
X = r"([^\s,.!?(][^,.!?(]*?)"
END = r"\s*(?=[,.!?(;:]|$)"
#: the start of a clause: the start of the sentence, or just after a mark X cannot cross
#: (``,.!?(``), with the spaces there.  A pattern that opens with X begins with it.  The
#: reading is the same: X never crosses such a mark, so when X and the rest match from a
#: later start in a clause they match from the clause's first word too, and search takes
#: the leftmost start.  Without the anchor, search would try every position of a clause, each
#: running X to the clause's end -- time growing with the square of a long clause.
AT_CLAUSE = r"(?:^|(?<=[,.!?(]))\s*"


def _p(*parts: str) -> re.Pattern:
    return re.compile("".join(parts), re.I)


PATTERNS = [  # (form, regex, names of groups in order)
    ("quit_stall", _p(r"(?:round in circles|repeating ourselves)"), ()),
    ("booking", _p(r"book(?:ing)? (?:us )?a table (?:at|for us at) ", X, END), ("v",)),
    ("booking", _p(r"^(?:let'?s |please )?book ", X, END), ("v",)),
    ("quit", _p(r"(?:good ?bye|^bye\b|give up|let'?s stop|won'?t agree|can'?t see anything|stop here)"), ()),
    ("ask_pair", _p(r"(?:do|would) you (?:prefer|like|rather have) ", X, r" or ", X, r"(?: better)?", END),
     ("more", "less")),
    ("ask_pair", _p(r"tell me:? ", X, r" or ", X, END), ("more", "less")),
    ("ask_less", _p(r"do you dislike ", X, r"(?:, perhaps)?", END), ("less",)),
    ("ask_less", _p(r"tell me if you dislike ", X, END), ("less",)),
    ("ask_less", _p(r"is ", X, r" something you dislike"), ("less",)),
    ("ask_more", _p(r"tell me if you like ", X, END), ("more",)),
    ("ask_c", _p(r"(?:what|which) ", X, r" (?:do|would) you (?:like|want|prefer)"), ("c",)),
    ("ask_c", _p(r"tell me (?:which|what) ", X, r" you (?:want|like|prefer)"), ("c",)),
    ("ask_cv", _p(r"what do you think (?:about|of) (?:the )?", X, END), ("c",)),
    ("ask_c", _p(r"(?:have )?a preference (?:on|for|about) (?:the )?", X, END), ("c",)),
    ("ask_c", _p(r"(?:what|how) about (?:the )?", X, r"\s*\?"), ("c",)),
    ("ask_more", _p(r"(?:do|would) you like ", X, r"(?:, maybe)?\s*\?"), ("more",)),
    ("least", _p(AT_CLAUSE, X, r" is (?:my|the) (?:least favou?rite|worst)"), ("less",)),
    ("least", _p(r"the worst (?:\w+ )?is ", X, END), ("less",)),
    ("least", _p(r"i (?:can'?t stand|hate|dislike|don'?t like|do not like) ", X, END), ("less",)),
    ("least", _p(r"i like ", X, r" the least"), ("less",)),
    ("least", _p(r"i'?m not (?:very )?fond of ", X, END), ("less",)),
    ("pair", _p(r"prefer ", X, r" (?:to|over|rather than) ", X, END), ("more", "less")),
    ("pair", _p(AT_CLAUSE, X, r" is better than ", X, END), ("more", "less")),
    ("pair", _p(r"i want ", X, r",? (?:and )?not ", X, END), ("more", "less")),
    ("pair", _p(r"rather (?:have |eat |go for )?", X, r" than ", X, END), ("more", "less")),
    ("pair", _p(r"like ", X, r" (?:a little |a bit |much |a lot )?(?:more|better) than ", X, END),
     ("more", "less")),
    ("pair", _p(r"(?:maybe|perhaps) ", X, r" rather than ", X, END), ("more", "less")),
    ("fav", _p(r"my favou?rite (?:\w+ )?is ", X, END), ("more",)),
    ("fav", _p(AT_CLAUSE, X, r" (?:is|might be|would be) my (?:favou?rite|preferred)"), ("more",)),
    ("fav", _p(r"nothing beats ", X, r"(?: for \w+)?", END), ("more",)),
    ("fav", _p(r"i (?:really )?(?:love|like) ", X, r" (?:the )?most"), ("more",)),
    ("fav", _p(r"i love ", X, END), ("more",)),
    ("reject", _p(r"i (?:don'?t|do not) want ", X, END), ("v",)),
    ("reject", _p(r"no way,? not ", X, END), ("v",)),
    ("reject", _p(r"rather not (?:have |go to |eat )?", X, END), ("v",)),
    ("reject", _p(AT_CLAUSE, X, r" (?:doesn'?t|does not) (?:really )?suit me"), ("v",)),
    ("reject", _p(r"i reject ", X, END), ("v",)),
    ("accept", _p(AT_CLAUSE, X, r" it is\b"), ("v",)),
    ("accept", _p(r"i (?:accept|agree (?:on|with|to)) ", X, END), ("v",)),
    ("accept", _p(AT_CLAUSE, X, r" (?:is|sounds|would be) (?:perfect|fine|good|great|ok|okay) (?:for|with|to) me"),
     ("v",)),
    ("accept", _p(AT_CLAUSE, X, r" works for me"), ("v",)),
    ("propose", _p(r"let'?s (?:go to|try|have|go for|take|choose|pick|eat) ", X, END), ("v",)),
    ("propose", _p(r"we(?:'re| are) going to ", X, END), ("v",)),
    ("propose", _p(r"we(?:'ll| will)? (?:go for|take|have) ", X, END), ("v",)),
    ("propose", _p(r"(?:how|what) about (?:going to |trying )?", X, END), ("v",)),
    ("propose", _p(r"shall we (?:go for|go to|have|take|try) ", X, END), ("v",)),
    ("propose", _p(r"we could (?:have|go for|try|go to) ", X, END), ("v",)),
    ("propose", _p(r"would you like to go to ", X, END), ("v",)),
    ("propose", _p(r"would ", X, r" be (?:ok|okay|fine|alright|all right)"), ("v",)),
    ("propose", _p(r"^i (?:want|propose|suggest) ", X, END), ("v",)),
    # forms people type; none of them is a phrasing the say task writes
    ("ask_c", _p(r"(?:what|which) (?:kind|type|sort) of ", X, r" (?:do|would) you (?:like|want|prefer)"), ("c",)),
    ("ask_pair", _p(r"^", X, r" or ", X, r"\s*\?"), ("more", "less")),
    ("fav", _p(r"^i (?:prefer|would prefer|'d prefer|like) ", X, END), ("more",)),
]
YES = re.compile(r"^(?:ok|okay|yes|yeah|yep|sure|fine|agreed|deal|sounds good|great|perfect|"
                 r"let'?s do (?:that|it)|i agree|alright|all right)\W*$", re.I)
NO = re.compile(r"^(?:no|nope|no thanks|no thank you|not really|i don'?t think so|i disagree)\W*$", re.I)
#: the longest text the reader reads (characters); a longer one is unreadable.  Reading
#: takes time linear in the length of a text that does not repeat a pattern's opening
#: words; a clause repeating them many times ("I like like like ...") takes time growing
#: with the square of its length, which this bounds (about half a second at the cap;
#: benchmarks/results-dominance-read.md)
MAX_READ_CHARS = 10_000
HELP = ("try: \"I'd rather have X than Y\", \"X is my favourite\", \"what cuisine do you like?\", "
        "\"how about X?\", \"let's go to <restaurant>\", \"ok\" / \"no\"")


class Vocab:
    def __init__(self, vocabulary: Mapping[str, Any]):
        self.topic = str(vocabulary.get("topic", "restaurant"))
        crits = vocabulary.get("criteria", {})
        self.value_crit = {}
        self.canon = {}
        for c, vals in crits.items():
            for v in vals:
                self.value_crit[v] = c
                self.canon[v.lower()] = v
        self.criteria = {c.lower(): c for c in crits}
        for word, targets in SYNONYMS.items():
            if word not in self.criteria:
                for t in targets:
                    if t in crits:
                        self.criteria[word] = t
                        break

    def clean(self, phrase: str) -> str:
        p = " ".join(phrase.strip().split())
        low = p.lower()
        for a in ARTICLES:
            if low.startswith(a) and low[len(a):] and self.canon.get(low) is None:
                p, low = p[len(a):], low[len(a):]
                break
        for n in NOUNS:
            if low.endswith(n) and self.canon.get(low) is None and self.canon.get(low[:-len(n)]):
                p, low = p[:-len(n)], low[:-len(n)]
        return p

    def value(self, phrase: str):
        return self.canon.get(self.clean(phrase).lower())

    def criterion(self, phrase: str):
        p = self.clean(phrase).lower()
        return self.criteria.get(p) or self.criteria.get(p.rstrip("s"))


def _strip_fillers(s: str) -> str:
    changed = True
    while changed:
        changed = False
        low = s.lower()
        for f in FILLERS:
            if low.startswith(f):
                s = s[len(f):].lstrip()
                changed = True
                break
    return s


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    return [p for p in parts if p]


_VOCABS: dict = caches.memo("mockllm.dominance: a domain's reading vocabulary")
_READS: dict = caches.memo("mockllm.dominance: the mock reader's readings by text")
_CACHE_MAX = 200_000


def _vocab_for(vocabulary: Mapping[str, Any]) -> "Vocab":
    for known, voc in _VOCABS.values():
        if known == vocabulary:
            return voc
    voc = Vocab(vocabulary)
    if len(_VOCABS) > 64:
        _VOCABS.clear()
    _VOCABS[len(_VOCABS)] = (json.loads(json.dumps(vocabulary)), voc)
    return voc


def read_text(text: str, vocabulary: Mapping[str, Any], last_proposal: Mapping[str, Any] | None = None) -> dict:
    """The utterance dict a text expresses, or ``{"kind": "unreadable", "why": ...}``."""
    return json.loads(read_text_json(text, vocabulary, last_proposal))


def read_text_json(text: str, vocabulary: Mapping[str, Any], last_proposal: Mapping[str, Any] | None = None) -> str:
    """:func:`read_text` as the JSON answer; a pure function, memoised (texts repeat a lot).

    Only a bare yes / no depends on ``last_proposal``; those answers are not memoised."""
    for known, answer in _READS.get(text, ()):
        if known == vocabulary:
            return answer
    out = _read_text(text, _vocab_for(vocabulary), last_proposal)
    uses_last = out.pop("_uses_last", False)
    answer = json.dumps(out, ensure_ascii=False)
    if not uses_last:
        if len(_READS) > _CACHE_MAX:
            _READS.clear()
        _READS.setdefault(text, []).append((json.loads(json.dumps(vocabulary)), answer))
    return answer


def _read_text(text: str, voc: "Vocab", last_proposal: Mapping[str, Any] | None) -> dict:
    if not text or not text.strip():
        return {"kind": "unreadable", "why": "empty text; " + HELP}
    if len(text) > MAX_READ_CHARS:
        return {"kind": "unreadable", "why": f"a text of {len(text)} characters is too long to read "
                                            f"(at most {MAX_READ_CHARS})"}
    problems = []
    uses_last = False
    for sentence in _sentences(text):
        s = _strip_fillers(sentence)
        if YES.match(s) or NO.match(s):
            uses_last = True
            if not last_proposal:
                problems.append(f"{s!r} answers no proposal (the other side has proposed nothing to say yes or no to)")
                continue
            return {"kind": "accept" if YES.match(s) else "reject", "type": last_proposal["type"],
                    "value": last_proposal["value"], "_uses_last": True}
        for form, rx, groups in PATTERNS:
            m = rx.search(s)
            if m is None:
                continue
            got = dict(zip(groups, m.groups()))
            out = _build(form, got, voc)
            if isinstance(out, str):
                problems.append(out)
                continue
            return out
    why = problems[0] + "; " + HELP if problems else f"not one of the supported forms; {HELP}"
    out = {"kind": "unreadable", "why": why}
    if uses_last:
        out["_uses_last"] = True
    return out


def _build(form: str, got: Mapping[str, str], voc: Vocab):
    """An utterance dict from matched phrases, or a string saying what is wrong."""
    if form == "quit":
        return {"kind": "quit", "reason": "no compromise left"}
    if form == "quit_stall":
        return {"kind": "quit", "reason": STALLED}
    if form == "booking":
        name = voc.clean(got["v"])
        if voc.value(name) or voc.criterion(name):
            return f"{name!r} is not a {voc.topic}"
        return {"kind": "booking", "option": name}
    if form == "ask_cv":  # "what do you think of <criterion | value>?"
        v = voc.value(got["c"])
        if v is not None:
            return {"kind": "ask", "criterion": voc.value_crit[v], "less": None, "more": v}
        form = "ask_c"
    if form == "ask_c":
        c = voc.criterion(got["c"])
        return {"kind": "ask", "criterion": c, "less": None, "more": None} if c else \
            f"{got['c']!r} is not a criterion ({', '.join(sorted(set(voc.criteria.values())))})"
    if form in ("pair", "ask_pair", "fav", "least", "ask_more", "ask_less"):
        vals = {}
        for g in ("more", "less"):
            if g in got:
                v = voc.value(got[g])
                if v is None:
                    return f"{voc.clean(got[g])!r} is not a known value"
                vals[g] = v
        crits = {voc.value_crit[v] for v in vals.values()}
        if len(crits) != 1:
            return f"{' and '.join(vals.values())} belong to different criteria"
        if vals.get("more") is not None and vals.get("more") == vals.get("less"):
            return f"compares {vals['more']} with itself"
        kind = "ask" if form.startswith("ask") else "state"
        return {"kind": kind, "criterion": crits.pop(), "less": vals.get("less"), "more": vals.get("more")}
    # propose / accept / reject: a value, else a restaurant name
    phrase = voc.clean(got["v"])
    v = voc.value(phrase)
    if v is not None:
        return {"kind": form, "type": voc.value_crit[v], "value": v}
    if voc.criterion(phrase):
        return f"{phrase!r} is a criterion, not a value or a {voc.topic}"
    if not re.match(r"^[^\W_](?:[^\W_]|[ '&-])*$", phrase):  # scenarios.restaurants._NAME_OK
        return f"{phrase!r} is not a value or a {voc.topic} name"
    return {"kind": form, "type": voc.topic, "value": phrase}


# --- tasks -------------------------------------------------------------------
EXAMPLE_UTTERANCES = [
    {"kind": "state", "criterion": "cuisine", "less": "Chinese", "more": "Italian"},
    {"kind": "state", "criterion": "cuisine", "less": None, "more": "French"},
    {"kind": "state", "criterion": "cost", "less": "expensive", "more": None},
    {"kind": "ask", "criterion": "ambiance", "less": None, "more": None},
    {"kind": "ask", "criterion": "cuisine", "less": "Turkish", "more": "Japanese"},
    {"kind": "propose", "type": "cuisine", "value": "Italian"},
    {"kind": "propose", "type": "restaurant", "value": "Chez Luigi"},
    {"kind": "accept", "type": "cost", "value": "cheap"},
    {"kind": "reject", "type": "restaurant", "value": "Golden Dragon"},
    {"kind": "booking", "option": "Sakura"},
    {"kind": "quit", "reason": "no compromise left"},
]
SMALL_VOCAB = {"topic": "restaurant", "criteria": {
    "cuisine": ["French", "Chinese", "Italian", "Turkish", "Japanese"],
    "cost": ["expensive", "cheap"], "ambiance": ["noisy", "calm"]}}


_SAY_LINE = re.compile(r"^[ \t>*_-]*\**[ \t]*SAY[ \t]*\**[ \t]*:[ \t]*\**(.*)$", re.I | re.M)


class SayTask(Task):
    id = "dominance-say"
    fields = ("relation", "topic", "utterance", "details")
    mock_options = {"dominance_garble": 0.0}
    instructions = (
        "You voice one move of a cooperative negotiation about where to eat.  Your relation to\n"
        "the other person is given as 'relation': dominant (speak firmly, assert, decide),\n"
        "peer (speak as an equal, suggest), or submissive (speak tentatively, hedge, defer).\n"
        "'utterance' is the move as JSON: kind state (you prefer 'more' over 'less'; a null side\n"
        "means favourite / least favourite), ask (ask about a criterion or values), propose,\n"
        "accept, reject (a criterion value or a whole option named by 'type' and 'value'),\n"
        "booking (book a table at 'option') or quit (no compromise is left).  'details' lists\n"
        "the values of a proposed option, if any.  Name every value and option exactly as\n"
        "given.  Your relation is private: show it only in how you speak, never name it.")
    question = "Starting your line with SAY:, what do you say to the other person to make the move in 'utterance'?"
    answer_format = "one line: SAY: <your sentence>"
    example = "SAY: How about somewhere with live jazz?"

    def parse(self, text: str) -> str:
        """The sentence after ``SAY:``: at the start, or on the first line that begins with it
        after a model's preamble ("Sure! Here is my line:"), markdown emphasis around the
        label tolerated (``**SAY:**``)."""
        t = text.strip()
        if t.upper().startswith("SAY:"):
            said = t[4:].strip()
        else:
            hit = _SAY_LINE.search(t)
            if hit is None:
                raise ParseError(self.id, "answer must start with 'SAY:'", text)
            said = hit.group(1).strip().strip("*_").strip()
        if not said:
            raise ParseError(self.id, "empty sentence", text)
        return said

    def check(self, said: str, context, text: str) -> str:
        """The sentence names every value / option of the move (the prompt: "Name every
        value and option exactly as given"; a criterion may be named in other words)."""
        u = context["utterance"]
        if not isinstance(u, Mapping):
            return said
        names = [u.get(k) for k in ("more", "less", "value", "option") if isinstance(u.get(k), str)]
        for name in names:
            if not checks.mentions(said, name):
                raise ParseError(self.id, f"the sentence does not name {name!r}", text)
        return self.reject_echo(said, context, text)

    def leaks(self, said: str, context) -> str | None:
        """The speaker's relation label (shown in the style, never said), or the move's
        JSON keys (an echo of the context's utterance)."""
        relation = context.get("relation")
        for word in ("relation",) + ((relation,) if isinstance(relation, str) and relation else ()):
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", said, re.I):
                return f"it names the relation ({word!r})"
        if re.search(r'"(kind|criterion|less|more|type|value|option)"\s*:', said):
            return "it repeats the move's JSON"
        return None

    def mock_answer(self, context, rng, options) -> str:
        u = context["utterance"]
        rel = context["relation"]
        if rel not in T or not isinstance(u, dict) or "kind" not in u:
            return "I cannot voice that."
        n = len(phrasings(rel, u, context["topic"]))
        idx = int(rng.integers(n)) if n > 1 else 0
        if options.get("dominance_garble", 0.0) and rng.random() < options["dominance_garble"]:
            return "Hmm, let me think about that."
        return "SAY: " + render(rel, u, context["topic"], context.get("details"), idx)

    def examples(self, rng) -> list[dict]:
        out = []
        for i, u in enumerate(EXAMPLE_UTTERANCES):
            rel = ("dominant", "peer", "submissive")[i % 3]
            det = ["Italian", "cheap", "calm"] if u.get("value") == "Chez Luigi" and u["kind"] == "propose" else None
            out.append({"relation": rel, "topic": "restaurant", "utterance": u, "details": det})
        return out


class ReadTask(Task):
    id = "dominance-read"
    fields = ("text", "vocabulary", "last_proposal")
    instructions = (
        "Read one sentence said in a negotiation about where to eat and write the move it makes\n"
        "as one JSON object.  'vocabulary' gives the topic (the name for a whole option) and the\n"
        "criteria with their values.  Kinds: {\"kind\": \"state\", \"criterion\", \"less\", \"more\"}\n"
        "(a preference; null for an open side: favourite / least favourite), {\"kind\": \"ask\",\n"
        "\"criterion\", \"less\", \"more\"}, {\"kind\": \"propose\"|\"accept\"|\"reject\", \"type\": a\n"
        "criterion or the topic, \"value\": a value or an option name}, {\"kind\": \"booking\",\n"
        "\"option\"}, {\"kind\": \"quit\", \"reason\"}.  A bare yes / no answers 'last_proposal'.\n"
        "If the sentence is none of these, answer {\"kind\": \"unreadable\", \"why\": <reason>}.")
    question = "Which move does the sentence in 'text' make?"
    answer_format = ('one JSON object and nothing else, of one of the kinds above, naming criteria and values '
                     "exactly as the vocabulary writes them.")
    example = '{"kind": "state", "criterion": "music", "less": "jazz", "more": "rock"}'

    _PARSED: dict = {}

    def answer_schema(self, context) -> dict:
        """One of the move kinds; a criterion's values only with that criterion; a whole
        option named by the topic (its name is free text, matched by the listener)."""
        vocab = context["vocabulary"] if isinstance(context.get("vocabulary"), Mapping) else {}
        criteria = {str(c): [str(v) for v in vals] for c, vals in dict(vocab.get("criteria") or {}).items()}
        topic = str(vocab.get("topic", "restaurant"))
        variants = []
        for c, vals in criteria.items():
            variants.append(schema.obj({"kind": schema.enum(("state", "ask")), "criterion": {"const": c},
                                        "less": schema.enum(vals, nullable=True),
                                        "more": schema.enum(vals, nullable=True)}))
        for c, vals in criteria.items():
            variants.append(schema.obj({"kind": schema.enum(("propose", "accept", "reject")), "type": {"const": c},
                                        "value": schema.enum(vals)}))
        variants += [schema.obj({"kind": schema.enum(("propose", "accept", "reject")), "type": {"const": topic},
                                 "value": schema.STRING}),
                     schema.obj({"kind": {"const": "booking"}, "option": schema.STRING}),
                     schema.obj({"kind": {"const": "quit"}, "reason": schema.STRING}),
                     schema.obj({"kind": {"const": "unreadable"}, "why": schema.STRING})]
        return {"title": self.id, "anyOf": variants}

    def parse(self, text: str):

        hit = self._PARSED.get(text)  # utterances are immutable: a parsed text can be shared
        if hit is not None:
            return hit
        data = self.load_json(text)
        try:
            out = utterance_from_dict(data, self.id)
        except InputError as exc:
            raise ParseError(self.id, str(exc), text) from None
        if len(self._PARSED) > _CACHE_MAX:
            self._PARSED.clear()
        self._PARSED[text] = out
        return out

    def check(self, utt, context, text: str):
        """Every criterion and value of the reading is one of the vocabulary's, and each
        value belongs to its criterion; a proposal's type is a criterion or the topic (a
        whole option's name is matched against the domain by the listener, which says
        it knows no such option).  Whether the move is legal now is the protocol's check
        (:func:`simcore.protocols.dialogue.reading_fault`)."""
        vocab = context["vocabulary"]
        criteria = vocab.get("criteria", {}) if isinstance(vocab, Mapping) else {}
        topic = vocab.get("topic") if isinstance(vocab, Mapping) else None
        kind = getattr(utt, "kind", "")
        if kind in ("state", "ask"):
            checks.one_of(self.id, "criterion", utt.criterion, tuple(criteria), text)
            for v in (utt.less, utt.more):
                if v is not None:
                    checks.one_of(self.id, f"value of {utt.criterion}", v, tuple(criteria[utt.criterion]), text)
        elif kind in ("propose", "accept", "reject"):
            p = utt.proposal
            if p.type != topic:
                checks.one_of(self.id, "proposal type", p.type, tuple(criteria) + (topic,), text)
                checks.one_of(self.id, f"value of {p.type}", p.value, tuple(criteria[p.type]), text)
        self._check_against_sentence(utt, context, text)
        return utt

    def _check_against_sentence(self, utt, context, text: str) -> None:
        """A reading may only name what the sentence names: each value or option of the
        move must be written in the sentence (case aside), except an accept or reject of
        the reader's own last proposal (a bare "yes" / "no" names nothing).  An answer that
        fits the schema but not the sentence ("propose Chinese" for a sentence
        naming Italian) is refused here, retried, then a counted fallback."""
        sentence = str(context.get("text", "")).casefold()
        kind = getattr(utt, "kind", "")
        if kind in ("accept", "reject"):
            lp = context.get("last_proposal")
            if isinstance(lp, Mapping) and (lp.get("type"), lp.get("value")) == (utt.proposal.type, utt.proposal.value):
                return
        for what, value in _named(utt):
            if str(value).casefold() not in sentence:
                raise checks.fail(self.id, f"the reading names {what} {value!r}, which the sentence does not", text)

    def mock_answer(self, context, rng, options) -> str:
        lp = context.get("last_proposal")
        vocab = context["vocabulary"]
        if not isinstance(vocab, dict):
            return json.dumps({"kind": "unreadable", "why": "no vocabulary given"})
        return read_text_json(str(context["text"]), vocab, lp if isinstance(lp, dict) else None)

    _EXPECTED: dict = {}

    def examples(self, rng) -> list[dict]:
        out = []
        for i, u in enumerate(EXAMPLE_UTTERANCES):
            rel = ("dominant", "peer", "submissive")[i % 3]
            text = render(rel, u, "restaurant", None, int(rng.integers(3)))
            out.append({"text": text, "vocabulary": SMALL_VOCAB, "last_proposal": None})
            self._EXPECTED[text] = u
        for text, u in FREE_TEXT_EXAMPLES:
            out.append({"text": text, "vocabulary": SMALL_VOCAB, "last_proposal": None})
            if u is not None:
                self._EXPECTED[text] = u
        return out

    def expected(self, context):

        u = self._EXPECTED.get(context["text"])
        return None if u is None else utterance_from_dict(u)


def _named(utt) -> list[tuple[str, str]]:
    """The values and options a reading names (what must be in its sentence)."""
    kind = getattr(utt, "kind", "")
    if kind in ("state", "ask"):
        return [("the value", v) for v in (utt.less, utt.more) if v is not None]
    if kind in ("propose", "accept", "reject"):
        return [("the value", utt.proposal.value)]
    if kind == "booking":
        return [("the option", utt.option)]
    return []


FREE_TEXT_EXAMPLES = [
    ("I'd rather have Italian than Chinese", {"kind": "state", "criterion": "cuisine", "less": "Chinese",
                                              "more": "Italian"}),
    ("let's go to Chez Luigi", {"kind": "propose", "type": "restaurant", "value": "Chez Luigi"}),
    ("what cuisine do you like?", {"kind": "ask", "criterion": "cuisine", "less": None, "more": None}),
    ("what is the weather like", None),
]

SAY = register_task(SayTask())
READ = register_task(ReadTask())
