"""ASTRA language tasks: speak a move, answer a preference question, read a reply.

The policies decide; these tasks only turn a decided move into words and read
words back into cues.

``astra.speak``   a move (greeting, question, offer, accept, walk-away) -> an
                  utterance plus the offer *as stated* (``self``/``other`` units and
                  the shared values).  The protocol validates the stated offer, so an
                  over-specified statement (ASTRA Table 9) is an invalid move.
``astra.answer``  the partner answers "which item matters most / least to you?"
                  from its own priority order.
``astra.read``    the agent reads an utterance (an answer, or the words around an
                  offer) back into stated priorities ``{"highest", "lowest"}``.

Mock noise (``mock_options``; ``MockBackend(exact=True)`` zeroes them):

* ``astra_overspecify`` (0.02): the speaker states one more unit for the other
  side than exists on one integer issue (Table 9, "Item Mis-Specification").
* ``astra_unclear_answer`` (0.1): the answer dodges the question without naming an
  item (section 2.2: "if the response is unclear, it assumes preferences opposite
  to its own").
* ``astra_misread`` (0.03): the reader reports a wrong item for a stated priority.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping


from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from simcore import caches
from simcore.errors import ParseError
from simcore.jsontext import dumps_compact

MODES = ("greet", "ask_highest", "ask_lowest", "ask_clarify", "invite", "offer", "accept", "walk_away", "talk")

_OPENERS = {
    "AEO": "Let me start with what works best for us.",
    "REO": "That proposal is far too one-sided, so here is mine.",
    "NCR": "I am holding to what I proposed.",
    "RNC": "Since your asks went up, I will not move further.",
    "LIC": "To get us going, I will give you something you care about.",
    "CSC": "I can move a little more.",
    "RC": "Thanks for meeting me partway; I will do the same.",
    "LGR": "Let us trade: each of us keeps what matters most to them.",
    "MGF": "Let us find something that works well for both of us.",
    "": "Here is my proposal.",
}


def _fmt_units(units: Mapping[str, int]) -> str:
    parts = [f"{n} {name}" for name, n in units.items()]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _fmt_shared(shared: Mapping[str, Any]) -> str:
    parts = []
    for name, v in shared.items():
        if isinstance(v, bool):
            parts.append(f"{name} {'yes' if v else 'no'}")
        else:
            parts.append(f"{name} {v}")
    return ", ".join(parts)


def _say(mode, tactic, mention, warning, offer) -> str:
    """The utterance of a move (``astra.speak``'s template)."""
    parts = []
    if mode == "greet":
        parts.append("Hello! Let's start the negotiation.")
    elif mode == "ask_highest":
        parts.append("Before we split things up, which item is your highest priority?")
    elif mode == "ask_lowest":
        parts.append("Thanks. And which item is your lowest priority?")
    elif mode == "ask_clarify":
        parts.append("It seems your priorities differ from what I thought. Could you clarify "
                     "which item is your highest priority?")
    elif mode == "invite":
        parts.append("Thanks, that helps. What split would you propose?")
    elif mode == "accept":
        parts.append("That works for me. I accept your offer.")
    elif mode == "walk_away":
        parts.append("I don't think we can reach a deal that works for me, so I am walking away.")
    elif mode == "offer":
        parts.append(_OPENERS.get(tactic or "", _OPENERS[""]))
        parts.append("I propose: " + offer_sentence(offer))
    else:
        parts.append("Let's keep talking.")
    if mention:
        parts.append(f"For us, {mention} matters most.")
    if warning:
        parts.append("If your offers keep leaving me below my alternative, I will walk away.")
    return " ".join(parts)


_SAID: dict[tuple[str, str], str] = caches.memo("mockllm.astra: the mock's sentences by template and values")
#: ``astra.speak``'s answer texts by the context's key (:func:`mockllm.tasks.known_key`, plain
#: fields), for the contexts answered without noise: the text is a function of the context
_TEXT_CACHE: dict[bytes, str] = caches.memo("mockllm.astra: rendered prompt texts")
_SAID_MAX = 20_000  # (an ASTRA study says about 300 different things)


def _said(move_json: str, offer_json: str, move: tuple, offer) -> str:
    """``_say(*move, offer)``, memoised by the JSON text of its arguments.

    ``_say`` is a pure function of ``move`` (mode, tactic, mention, warning) and the
    offer, and the mock's arguments are JSON data, whose JSON text tells apart every two
    values that could be said differently (``1``/``true``/``1.0``), so equal keys mean
    equal utterances.  Moves repeat a lot (a domain has few outcomes)."""
    key = (move_json, offer_json)
    got = _SAID.get(key)
    if got is None:
        got = _say(*move, offer)
        if len(_SAID) >= _SAID_MAX:
            _SAID.clear()
        _SAID[key] = got
    return got


def _units(n: Any) -> int:
    """Units of a split item in a context offer (0 for anything that is not a whole number)."""
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 0


def offer_sentence(offer: Mapping[str, Any]) -> str:
    text = f"I take {_fmt_units(offer.get('self', {}))}, and you take {_fmt_units(offer.get('other', {}))}"
    if offer.get("shared"):
        text += f"; we agree on {_fmt_shared(offer['shared'])}"
    return text + "."


class SpeakTask(Task):
    id = "astra.speak"
    instructions = (
        "You are one side of a bargaining dialogue over shared supplies. Say the move given in the "
        "context in one or two friendly sentences. Modes: greet, ask_highest / ask_lowest / "
        "ask_clarify (ask which item matters most / least to the other side), invite (ask the other "
        "side to propose a split, stating none yourself), offer (state the split "
        "exactly: how many units of each item you take and the other side takes, and the shared "
        "choices), accept, walk_away, talk. If 'mention' names an item, say that it matters most to "
        "you. If 'warning' is true, warn that you will walk away if offers stay below your "
        "alternative. 'tactic' is your private reason for the move: never name it.")
    question = "What do you say to make the move in 'mode', and what offer (if any) do your words state?"
    answer_format = ('one JSON object and nothing else: {"utterance": "<your words>", "offer": <the offer exactly '
                     'as your words state it, in the same shape as the context\'s offer, or null when the '
                     'move is not an offer>}')
    example = ('{"utterance": "I take 2 rope and you take 1 rope.", '
               '"offer": {"self": {"rope": 2}, "other": {"rope": 1}, "shared": {}}}')
    fields = ("role", "mode", "offer", "tactic", "mention", "warning")
    mock_options = {"astra_overspecify": 0.02}

    def render(self, ctx: Mapping[str, Any], offer) -> str:
        return _say(ctx["mode"], ctx.get("tactic"), ctx.get("mention"), ctx.get("warning"), offer)

    knows_answers = True

    def mock_answer(self, context, rng, options) -> str:
        return self._answer(context, rng, options, None)[0]

    def mock_answer_known(self, context, rng, options, key) -> tuple[str, bool]:
        """The answer, known unless the over-specification noise changed its offer: the
        answer's text and :meth:`check`'s verdict are then functions of the context's fields
        (the offer, the mode, the tactic, the mention, the warning)."""
        return self._answer(context, rng, options, key)

    def _answer(self, context, rng, options, key) -> tuple[str, bool]:
        """The answer to ``context`` and whether it is known (see :meth:`mock_answer_known`);
        ``key``: the context's :func:`~mockllm.tasks.known_key` (plain fields), or None."""
        offer = context.get("offer")
        if offer is not None:
            p = float(options.get("astra_overspecify", 0.0))
            names = [n for n in offer.get("other", {})]
            if p > 0 and names and rng.random() < p:
                name = names[int(rng.integers(0, len(names)))]
                offer = {**offer, "other": {**offer["other"], name: offer["other"][name] + 1}}
                key = None
        if key is not None:
            text = _TEXT_CACHE.get(key)
            if text is not None:
                return text, True
        move = (context["mode"], context.get("tactic"), context.get("mention"), context.get("warning"))
        try:
            offer_json, move_json = dumps_compact(offer), dumps_compact(move)
        except (TypeError, ValueError, RecursionError):  # not JSON data (only outside the backend)
            return dumps_compact({"utterance": _say(*move, offer), "offer": offer}), False
        utterance = _said(move_json, offer_json, move, offer)
        # = dumps_compact({"utterance": utterance, "offer": offer}), the offer's text reused
        text = '{"utterance":' + dumps_compact(utterance) + ',"offer":' + offer_json + "}"
        if key is None:
            return text, False
        if len(_TEXT_CACHE) >= _SAID_MAX:
            _TEXT_CACHE.clear()
        _TEXT_CACHE[key] = text
        return text, True

    def known_copy(self, value):
        """``(utterance, offer)``: an accepted offer is None or holds only None and flat
        maps of numbers, names and yes/no (:meth:`check`), so copying those maps copies it."""
        utt, offer = value
        if offer is None:
            return value
        return utt, {k: (dict(v) if type(v) is dict else v) for k, v in offer.items()}

    def answer_schema(self, context) -> dict:
        """The utterance, and the offer: null for a move that is none; else the move's own
        split items, each a whole number of units from 0 to the units that exist (the
        context's two sides together), and its shared issues, each a name or yes/no as in
        the context.  (The sides may still add up to more than exists: ASTRA Table 9's
        over-specification, which the protocol counts, stays possible.)"""
        meant = context.get("offer")
        if not isinstance(meant, Mapping):
            return schema.obj({"utterance": schema.STRING, "offer": {"type": "null"}}, title=self.id)
        mine, theirs = dict(meant.get("self") or {}), dict(meant.get("other") or {})
        total = {n: _units(mine.get(n)) + _units(theirs.get(n)) for n in list(mine) + list(theirs)}
        parts = {}
        for side, units in (("self", mine), ("other", theirs)):
            if side in meant:
                parts[side] = schema.obj({n: schema.integer(0, total[n]) for n in units})
        if "shared" in meant:
            parts["shared"] = schema.obj({n: {"type": "boolean" if isinstance(v, bool) else "string"}
                                          for n, v in dict(meant.get("shared") or {}).items()})
        return schema.obj({"utterance": schema.STRING, "offer": schema.obj(parts)}, title=self.id)

    def parse(self, text: str):
        data = self.load_json(text)
        utt = data.get("utterance")
        if not isinstance(utt, str) or not utt.strip():
            raise ParseError(self.id, "missing 'utterance' text", text)
        offer = data.get("offer")
        if offer is not None:
            if not isinstance(offer, dict) or not isinstance(offer.get("self", {}), dict) \
                    or not isinstance(offer.get("other", {}), dict):
                raise ParseError(self.id, "'offer' must be an object with 'self' and 'other' maps", text)
        return utt, offer

    def check(self, said, context, text: str):
        """An offer exactly when the move is one, stated over the move's own items.

        The stated offer may name only the items of the offer in the context, with a whole
        number of units >= 0 on each split item and a name or yes/no on each shared one.
        Whether the units add up to what exists, and whether a shared value is one the
        issue has, is the protocol's check (ASTRA Table 9: an over-specified offer is an
        invalid move, recorded and counted, with the words left standing)."""
        utt, offer = said
        self.reject_echo(utt, context, text)
        meant = context.get("offer")
        if meant is None:
            if offer is not None:
                raise ParseError(self.id, f"an offer where the move ({context.get('mode')!r}) has none", text)
            return said
        if offer is None:
            raise ParseError(self.id, "an offer move must state its offer", text)
        for key in offer:
            checks.one_of(self.id, "offer part", key, ("self", "other", "shared"), text)
        known = None
        for side in ("self", "other"):
            units = checks.mapping(self.id, f"'offer.{side}'", offer.get(side), text, optional=True)
            if known is None:  # the move's items (the same for both sides: read once, where it was read first)
                known = tuple(meant.get("self", {})) + tuple(n for n in meant.get("other", {})
                                                             if n not in meant.get("self", {}))
            for name, n in units.items():
                if type(n) is int and n >= 0 and type(name) is str and name in known:
                    continue  # what the two checks below pass, told without their calls
                checks.one_of(self.id, "item", name, known, text)
                checks.whole(self.id, f"units of {name}", n, text, lo=0)
        shared = checks.mapping(self.id, "'offer.shared'", offer.get("shared"), text, optional=True)
        for name, v in shared.items():
            checks.one_of(self.id, "shared issue", name, tuple(meant.get("shared") or {}), text)
            if not isinstance(v, (str, bool)):
                raise ParseError(self.id, f"shared issue {name!r} must be a name or yes/no", text)
        return said

    def leaks(self, said: str, context) -> str | None:
        """The tactic behind the move (a private label such as ``REO``)."""
        tactic = context.get("tactic")
        if isinstance(tactic, str) and tactic and checks.mentions_code(said, tactic):
            return f"it names the tactic {tactic!r}"
        return None

    def examples(self, rng):
        offer = {"self": {"food": 3, "water": 2, "firewood": 0}, "other": {"food": 0, "water": 1, "firewood": 3},
                 "shared": {}}
        shared = {"self": {"equipment": 1, "staff": 4}, "other": {"equipment": 4, "staff": 1},
                  "shared": {"lab": "biology", "weekend": True}}
        return [dict(role="agent", mode="offer", offer=offer, tactic="RC", mention=None, warning=False),
                dict(role="partner", mode="greet", offer=None, tactic=None, mention=None, warning=False),
                dict(role="agent", mode="ask_highest", offer=None, tactic=None, mention=None, warning=False),
                dict(role="partner", mode="offer", offer=shared, tactic=None, mention="equipment", warning=False),
                dict(role="agent", mode="offer", offer=offer, tactic="REO", mention=None, warning=True)]

    def expected(self, context):
        return self.render(context, context.get("offer")), context.get("offer")


class AnswerTask(Task):
    id = "astra.answer"
    instructions = (
        "You are one side of a bargaining dialogue over shared supplies. The other side asked which "
        "item is your highest (or lowest) priority ('question'). 'order' lists your items from most to "
        "least important; it is private: name only the item asked about.")
    question = ("Name the item honestly, in one or two sentences: what do you answer to their question "
                "about your highest or lowest priority ('question')?")
    answer_format = 'one JSON object and nothing else: {"utterance": "<your words>"}'
    example = '{"utterance": "Rope matters most to us; my highest priority is rope."}'
    fields = ("question", "order")
    mock_options = {"astra_unclear_answer": 0.1}

    @staticmethod
    def render(question: str, order) -> str:
        if question == "lowest":
            return f"My lowest priority is {order[-1]}; {order[-1]} matters least to us."
        return f"My highest priority is {order[0]}; {order[0]} matters most to us."

    knows_answers = True

    def mock_answer(self, context, rng, options) -> str:
        return self.mock_answer_known(context, rng, options, None)[0]

    def mock_answer_known(self, context, rng, options, key) -> tuple[str, bool]:
        """The answer, known unless it is the unclear one (noise): the rendered answer and
        :meth:`check`'s verdict are functions of the question and the order."""
        p = float(options.get("astra_unclear_answer", 0.0))
        if p > 0 and rng.random() < p:
            utt = "Hard to say, every item is useful to us on this trip. What do you need?"
            return json.dumps({"utterance": utt}, ensure_ascii=False), False
        utt = self.render(context["question"], context["order"])
        return json.dumps({"utterance": utt}, ensure_ascii=False), True

    def known_copy(self, value: str) -> str:
        return value  # (a str)

    def answer_schema(self, context) -> dict:
        return schema.obj({"utterance": schema.STRING}, title=self.id)

    def parse(self, text: str) -> str:
        data = self.load_json(text)
        utt = data.get("utterance")
        if not isinstance(utt, str) or not utt.strip():
            raise ParseError(self.id, "missing 'utterance' text", text)
        return utt

    def check(self, utt: str, context, text: str) -> str:
        """The words neither repeat the prompt nor give away the private order (:meth:`leaks`)."""
        return self.reject_echo(utt, context, text)

    def leaks(self, said: str, context) -> str | None:
        """The whole private priority order, written as the prompt's list."""
        if re.search(r'\[\s*"', said):
            return "it repeats the private priority list"
        return None

    def examples(self, rng):
        return [dict(question="highest", order=["firewood", "water", "food"]),
                dict(question="lowest", order=["firewood", "water", "food"]),
                dict(question="highest", order=["equipment", "weekend", "staff", "lab"])]

    def expected(self, context):
        return self.render(context["question"], context["order"])


_HIGH = (re.compile(r"highest priority is ([A-Za-z_-]+)"), re.compile(r"([A-Za-z_-]+) matters most"))
_LOW = (re.compile(r"lowest priority is ([A-Za-z_-]+)"), re.compile(r"([A-Za-z_-]+) matters least"))


def _find(patterns, text, issues):
    for pat in patterns:
        for m in pat.finditer(text):
            if m.group(1) in issues:
                return m.group(1)
    return None


class ReadTask(Task):
    id = "astra.read"
    instructions = (
        "Read what the other side of a bargaining dialogue said (the context's 'utterance') and report "
        "which item they stated is most important to them and which least, if they said so. 'issues' "
        "lists the item names.")
    question = "Which item did they say matters most to them, and which least?"
    answer_format = ('one JSON object and nothing else: {"highest": "<item>" or null, "lowest": "<item>" or null} '
                     "(null when they did not say)")
    example = '{"highest": "rope", "lowest": null}'
    fields = ("utterance", "issues")
    mock_options = {"astra_misread": 0.03}

    def answer_schema(self, context) -> dict:
        items = schema.enum(context["issues"], nullable=True)
        return schema.obj({"highest": items, "lowest": items}, title=self.id)

    knows_answers = True

    def mock_answer(self, context, rng, options) -> str:
        return self.mock_answer_known(context, rng, options, None)[0]

    def mock_answer_known(self, context, rng, options, key) -> tuple[str, bool]:
        """The answer, known unless a misreading (noise) changed it: the exact reading and
        :meth:`check`'s verdict are functions of the utterance and the items."""
        issues = list(context["issues"])
        out = {"highest": _find(_HIGH, context["utterance"], issues),
               "lowest": _find(_LOW, context["utterance"], issues)}
        p = float(options.get("astra_misread", 0.0))
        exact = True
        for name in ("highest", "lowest"):
            if out[name] is not None and p > 0 and rng.random() < p:
                others = [i for i in issues if i != out[name]]
                out[name] = others[int(rng.integers(0, len(others)))]
                exact = False
        return json.dumps(out), exact

    def known_copy(self, value: dict) -> dict:
        return dict(value)  # (item names or None)

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        out = {}
        for key in ("highest", "lowest"):
            v = data.get(key)
            if v is not None and not isinstance(v, str):
                raise ParseError(self.id, f"'{key}' must be an item name or null", text)
            out[key] = v
        return out

    def check(self, cues: dict, context, text: str) -> dict:
        """A stated item is one of the items in the context."""
        for key in ("highest", "lowest"):
            if cues[key] is not None:
                checks.one_of(self.id, f"'{key}' item", cues[key], tuple(context["issues"]), text)
        return cues

    def examples(self, rng):
        return [dict(utterance=AnswerTask.render("highest", ["firewood", "water", "food"]),
                     issues=["food", "water", "firewood"]),
                dict(utterance=AnswerTask.render("lowest", ["firewood", "water", "food"]),
                     issues=["food", "water", "firewood"]),
                dict(utterance="Hard to say, every item is useful to us.", issues=["food", "water", "firewood"]),
                dict(utterance="Here is my proposal. I propose: I take 3 firewood. For us, firewood matters most.",
                     issues=["food", "water", "firewood"])]

    def expected(self, context):
        issues = list(context["issues"])
        return {"highest": _find(_HIGH, context["utterance"], issues),
                "lowest": _find(_LOW, context["utterance"], issues)}


SPEAK = register_task(SpeakTask())
ANSWER = register_task(AnswerTask())
READ = register_task(ReadTask())
