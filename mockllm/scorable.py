"""Language tasks of the scorable game: speak a deal with preference cues, read the
cues back out of an utterance, and the LLM-PE direct estimate of a score table.

Signals everywhere have the JSON shape of the seed's extraction prompt (Figure 2):
``{"entity": "issue"|"option", "signal_type": "point"|"comparison",
"target": "A" | "A, B" | "A1" | "A1, B2", "stance": "prefer"|"oppose"}``.

Mock noise knobs (``MockBackend`` options; ``exact=True`` zeroes them):

* ``scorable_omit`` (0.2) -- a cue the speaker meant to give is left out.
* ``scorable_vague`` (0.1) -- a cue is said vaguely ("some of this matters a great deal
  to us"), with no target a reader can recover.
* ``scorable_misread`` (0.05) -- the reader drops a signal that the words do carry.
* ``scorable_pe_forget`` (0.3) -- in the LLM-PE estimate, each signal older than the
  party's latest turn is overlooked (the "inferential consistency" problem of long
  contexts the seed mentions).
* ``scorable_pe_jitter`` (0.15) -- each number of the LLM-PE table is off by a random
  amount (normal, sd 10 points, clipped to 0..100).
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping


from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from simcore.errors import ParseError

_CODE = r"\(([^\W\d_]+\d*)\)"
#: what an answer may write as an option code (``B2``, ``X1``): one to three capitals and a number
_CODE_LIKE = re.compile(r"(?<!\w)([A-Z]{1,3}\d{1,3})(?!\w)")  # an option code: the issue's letters (any script), its number

# kind key: (entity, signal_type, stance) -> list of (template, regex)
# Templates use {t1}/{t2} for labels (issue titles or option labels) and {c1}/{c2}
# for codes; every regex captures the codes in order.
TEMPLATES: dict[tuple[str, str, str], list[tuple[str, str]]] = {
    ("issue", "point", "prefer"): [
        ("{t1} ({c1}) matters most to us.", _CODE + r" matters most to us"),
        ("For us the key issue is {t1} ({c1}).", r"the key issue is [^()]*" + _CODE),
    ],
    ("issue", "point", "oppose"): [
        ("{t1} ({c1}) is not a priority for us.", _CODE + r" is not a priority for us"),
        ("We care little about {t1} ({c1}).", r"care little about [^()]*" + _CODE),
    ],
    ("issue", "comparison", "prefer"): [
        ("{t1} ({c1}) matters more to us than {t2} ({c2}).", _CODE + r" matters more to us than [^()]*" + _CODE),
        ("We put {t1} ({c1}) ahead of {t2} ({c2}).", r"We put [^()]*" + _CODE + r" ahead of [^()]*" + _CODE),
    ],
    ("issue", "comparison", "oppose"): [
        ("{t1} ({c1}) matters less to us than {t2} ({c2}).", _CODE + r" matters less to us than [^()]*" + _CODE),
    ],
    ("option", "point", "prefer"): [
        ("We favour {t1} ({c1}).", r"We favour [^()]*" + _CODE),
        ("{t1} ({c1}) is what we want.", _CODE + r" is what we want"),
    ],
    ("option", "point", "oppose"): [
        ("We cannot support {t1} ({c1}).", r"cannot support [^()]*" + _CODE),
        ("{t1} ({c1}) would be unacceptable to us.", _CODE + r" would be unacceptable to us"),
    ],
    ("option", "comparison", "prefer"): [
        ("We would rather have {t1} ({c1}) than {t2} ({c2}).", r"rather have [^()]*" + _CODE + r" than [^()]*" + _CODE),
    ],
    ("option", "comparison", "oppose"): [
        ("{t1} ({c1}) is worse for us than {t2} ({c2}).", _CODE + r" is worse for us than [^()]*" + _CODE),
    ],
}
VAGUE = ("Some of these points matter a great deal to us.", "We have strong views on parts of this.",
         "There is room to move, but not everywhere.")
OPENERS = ("We propose {deal}.", "Our proposal: {deal}.", "We put forward {deal}.")
_COMPILED = [(key, re.compile(rx)) for key, variants in TEMPLATES.items() for _t, rx in variants]


def _labels(issues) -> dict[str, str]:
    """Code -> label for every issue (its title) and option (its label)."""
    out = {}
    for iss in issues:
        out[iss["name"]] = iss.get("title", iss["name"])
        for k, opt in enumerate(iss["options"]):
            out[f"{iss['name']}{k + 1}"] = opt
    return out


def _codes(target: str) -> list[str]:
    return [p.strip() for p in str(target).split(",") if p.strip()]


def _option_counts(issues) -> dict[str, int]:
    """Issue code -> number of options, from a prompt's ``issues`` context."""
    return {iss["name"]: len(iss["options"]) for iss in issues}


def _is_code(code: str, entity: str, counts: Mapping[str, int]) -> bool:
    """``code`` names an issue (``A``) or an option (``A2``: issue A, option 2) of the game."""
    if entity == "issue":
        return code in counts
    head = code.rstrip("0123456789")
    tail = code[len(head):]
    return head in counts and tail.isdigit() and len(tail) <= 6 and 1 <= int(tail) <= counts[head]


def render_cue(cue: Mapping[str, Any], labels: Mapping[str, str], variant: int = 0) -> str:
    key = (cue["entity"], cue["signal_type"], cue["stance"])
    variants = TEMPLATES[key]
    tmpl = variants[variant % len(variants)][0]
    codes = _codes(cue["target"]) + [""]
    return tmpl.format(t1=labels.get(codes[0], codes[0]), c1=codes[0],
                       t2=labels.get(codes[1], codes[1]), c2=codes[1])


def read_signals(text: str) -> list[dict]:
    """Every signal the templates' phrasing carries, in the order it appears."""
    found = []
    for (entity, stype, stance), rx in _COMPILED:
        for m in rx.finditer(text):
            found.append((m.start(), {"entity": entity, "signal_type": stype,
                                      "target": ", ".join(m.groups()), "stance": stance}))
    found.sort(key=lambda x: x[0])
    return [sig for _pos, sig in found]


def _check_signal(task_id: str, sig: Any, text: str) -> dict:
    if not isinstance(sig, Mapping):
        raise ParseError(task_id, "a signal is not an object", text)
    for key, valid in (("entity", ("issue", "option")), ("signal_type", ("point", "comparison")),
                       ("stance", ("prefer", "oppose"))):
        if sig.get(key) not in valid:
            raise ParseError(task_id, f"signal field {key!r} must be one of {valid}", text)
    if not isinstance(sig.get("target"), str) or not sig["target"].strip():
        raise ParseError(task_id, "signal field 'target' must be a non-empty string", text)
    return {"entity": sig["entity"], "signal_type": sig["signal_type"],
            "target": ", ".join(_codes(sig["target"])), "stance": sig["stance"]}


def _example_issues():
    return [{"name": "A", "title": "Infrastructure", "options": ["Water-based", "Amphibious", "Land-based"]},
            {"name": "B", "title": "Ecology", "options": ["Accept damage", "Balanced", "Max effort"]},
            {"name": "C", "title": "Employment", "options": ["Union priority", "2:1 ratio", "No priority"]}]


def _example_cues(rng) -> list[dict]:
    pool = [{"entity": "issue", "signal_type": "point", "target": "A", "stance": "prefer"},
            {"entity": "issue", "signal_type": "point", "target": "C", "stance": "oppose"},
            {"entity": "issue", "signal_type": "comparison", "target": "B, C", "stance": "prefer"},
            {"entity": "issue", "signal_type": "comparison", "target": "C, A", "stance": "oppose"},
            {"entity": "option", "signal_type": "point", "target": "A2", "stance": "prefer"},
            {"entity": "option", "signal_type": "point", "target": "B1", "stance": "oppose"},
            {"entity": "option", "signal_type": "comparison", "target": "C1, C3", "stance": "prefer"},
            {"entity": "option", "signal_type": "comparison", "target": "A1, A2", "stance": "oppose"}]
    k = int(rng.integers(1, 4))
    return [pool[i] for i in sorted(rng.choice(len(pool), size=k, replace=False))]


class SpeakTask(Task):
    """Turn a deal and the speaker's chosen preference cues into an utterance."""

    id = "scorable-speak"
    #: the mock reads its context and changes none of it
    mock_reads_fields = True
    instructions = (
        "You are one party ('speaker') in a multi-party negotiation over several issues ('issues': each "
        "with a code, a title and its options; option k of issue A has the code Ak). Write a short message "
        "(two to five sentences) that puts forward the deal in 'deal' and conveys each preference cue in "
        "'cues', truthfully, in plain words: entity 'issue' or 'option', signal_type 'point' (one target) "
        "or 'comparison' (the first target against the second), stance 'prefer' or 'oppose'. Name every "
        "issue or option you mention by its label followed by its code in parentheses, e.g. 'Ecology (B)' "
        "or 'Balanced (B2)'. Do not reveal numeric scores or your threshold.")
    question = ("Write your message to the other parties now: put forward the options in 'deal' (each with "
                "its code in parentheses) and convey the 'cues'. What do you say?")
    answer_format = "the message text only, two to five sentences (no labels, no JSON)."
    example = "We propose Harbour (X1), Solar (Y2). Solar (Y2) is what we want."
    fields = ("speaker", "issues", "deal", "cues")
    mock_options = {"scorable_omit": 0.2, "scorable_vague": 0.1}

    def parse(self, text: str) -> str:
        msg = " ".join(str(text).split())
        if not msg:
            raise ParseError(self.id, "empty message", text)
        return msg

    def check(self, msg: str, context, text: str) -> str:
        """The message puts the deal forward: it names every option code of the deal."""
        for code in context["deal"]:
            if not checks.mentions_code(msg, code):
                raise ParseError(self.id, f"the message does not name {code!r} of the deal", text)
        said = self.reject_echo(msg, context, text)
        # an option code the game lacks (a real model copies the example's "Harbour (X1)")
        known = {f"{issue['name']}{k}" for issue in context["issues"] for k in range(1, len(issue["options"]) + 1)}
        for hit in _CODE_LIKE.finditer(msg):
            if hit.group(1) not in known:
                raise ParseError(self.id, f"the message names {hit.group(1)!r}, which is no option of the game", text)
        return said

    def leaks(self, said: str, context) -> str | None:
        """The speaker's scores and threshold are not in this prompt, so nothing private
        can be copied from it; the cues' JSON field names are what an echo would show."""
        for key in ("signal_type", "entity", "stance"):
            if key in said:
                return f"it repeats the cues' field {key!r}"
        return None

    def mock_answer(self, context, rng, options) -> str:
        labels = _labels(context["issues"])
        deal = ", ".join(f"{c} {labels.get(c, c)}" for c in context["deal"])
        parts = [OPENERS[int(rng.integers(len(OPENERS)))].format(deal=deal)]
        for cue in context["cues"]:
            u = (rng.random(), rng.random(), rng.random())
            if u[0] < options.get("scorable_omit", 0.0):
                continue
            if u[1] < options.get("scorable_vague", 0.0):
                parts.append(VAGUE[int(u[2] * len(VAGUE))])
                continue
            parts.append(render_cue(cue, labels, variant=int(u[2] * 8)))
        return " ".join(parts)

    def examples(self, rng):
        return [{"speaker": "SportCo", "issues": _example_issues(), "deal": ["A1", "B2", "C3"],
                 "cues": _example_cues(rng)} for _ in range(4)]


class ExtractTask(Task):
    """Read the preference signals an utterance carries (the seed's Figure 2 shape)."""

    id = "scorable-extract"
    #: the mock reads its context and changes none of it
    mock_reads_fields = True
    instructions = (
        "You analyse a negotiation. Read the speaker's latest message (the context's 'utterance') and list "
        "the preference signals it expresses about the speaker's own preferences. Classify each signal by entity "
        "('issue' for an issue code such as A, 'option' for an option code such as A1), signal_type "
        "('point' for one target, 'comparison' for two targets written 'X, Y' with the favoured or "
        "disfavoured one first) and stance ('prefer' when the speaker values the first target, "
        "'oppose' when the speaker devalues or rejects it). Keep the order in which the signals "
        "appear. Use an empty list when the message states no preference.")
    question = "Which preference signals does the speaker's latest message ('utterance') express?"
    answer_format = ('one JSON object and nothing else, whose only key is the speaker\'s name and whose value '
                     'is the list of signals: {"<speaker>": [{"entity": "issue"|"option", "signal_type": '
                     '"point"|"comparison", "target": "<code>" or "<code>, <code>", "stance": "prefer"|"oppose"}]}')
    example = ('{"Lighthouse Trust": [{"entity": "option", "signal_type": "point", "target": "X2", '
               '"stance": "prefer"}]}')
    fields = ("speaker", "issues", "deal", "utterance")
    mock_options = {"scorable_misread": 0.05}

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if not isinstance(data, dict) or not data:
            raise ParseError(self.id, "expected an object keyed by agent name", text)
        out = {}
        for agent, sigs in data.items():
            if not isinstance(sigs, list):
                raise ParseError(self.id, f"signals of {agent!r} are not a list", text)
            out[str(agent)] = [_check_signal(self.id, s, text) for s in sigs]
        return out

    def check(self, read: dict, context, text: str) -> dict:
        """Keyed by the speaker only; every target a code of the game's issues / options,
        one for a point, two different ones for a comparison."""
        if set(read) != {context["speaker"]}:
            raise ParseError(self.id, f"the object must have the one key {context['speaker']!r}", text)
        counts = _option_counts(context["issues"])
        for sig in read[context["speaker"]]:
            codes = _codes(sig["target"])
            if len(codes) != (1 if sig["signal_type"] == "point" else 2) or len(set(codes)) != len(codes):
                raise ParseError(self.id, f"target {sig['target']!r} does not fit a {sig['signal_type']} signal", text)
            for code in codes:
                if not _is_code(code, sig["entity"], counts):
                    raise ParseError(self.id, f"{code!r} is not the code of an {sig['entity']} of this game "
                                     f"(issues {', '.join(counts)})", text)
        return read

    def answer_schema(self, context) -> dict:
        """The speaker's name as the one key; each signal's target one of the game's issue
        codes (point) or ordered pairs of different ones (comparison), likewise for options."""
        counts = _option_counts(context["issues"])
        issues = list(counts)
        options = [f"{name}{k}" for name, n in counts.items() for k in range(1, n + 1)]
        variants = []
        for entity, codes in (("issue", issues), ("option", options)):
            pairs = [f"{a}, {b}" for a in codes for b in codes if a != b]
            for stype, targets in (("point", codes), ("comparison", pairs)):
                if targets:
                    variants.append(schema.obj({"entity": {"const": entity}, "signal_type": {"const": stype},
                                                "target": schema.enum(targets),
                                                "stance": schema.enum(("prefer", "oppose"))}))
        return schema.obj({str(context["speaker"]): {"type": "array", "items": {"anyOf": variants}}},
                          title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        sigs = read_signals(context["utterance"])
        p = options.get("scorable_misread", 0.0)
        kept = [s for s in sigs if rng.random() >= p]
        return json.dumps({context["speaker"]: kept}, ensure_ascii=False)

    def examples(self, rng):
        out = []
        for _ in range(4):
            cues = _example_cues(rng)
            labels = _labels(_example_issues())
            text = "We propose A1 Water-based. " + " ".join(render_cue(c, labels, int(rng.integers(3))) for c in cues)
            out.append({"speaker": "Mayor", "issues": _example_issues(), "deal": ["A1", "B2", "C3"],
                        "utterance": text})
        return out

    def expected(self, context):
        return {context["speaker"]: read_signals(context["utterance"])}


def direct_estimate(issues, deals, signals, keep=None) -> dict[str, list[int]]:
    """The mock LLM-PE reading: a score table (0-100 scale) from signals and deals.

    Issue importance I_m = 1 + 2 (prefer point) - 1 (oppose point) + 1 / -1 for winning /
    losing a comparison, floored at 0.25; weights w = I / sum I.  Option appeal a(o) =
    (times proposed) + 2 (prefer) - 2 (oppose) +/- 1 (comparisons); value v = (a - min a) /
    (max a - min a) averaged with the ordinal closeness to the favourite option f (the
    most appealing one; options are read as ordered, as in the seed's shapes):
    v = (a - min a) / (2 (max a - min a)) + (1 - |o - f| / max(f, K-1-f)) / 2, or 0.5
    where every option ties.  Score = round(100 w_m v_m(o)).
    ``keep`` (a list of booleans) selects which signals are used.
    """
    names = [i["name"] for i in issues]
    counts = {i["name"]: len(i["options"]) for i in issues}
    imp = {n: 1.0 for n in names}
    app = {n: [0.0] * counts[n] for n in names}
    for deal in deals:
        for code in deal:
            head = code.rstrip("0123456789")
            if head in app and code[len(head):].isdigit() and 1 <= int(code[len(head):]) <= counts[head]:
                app[head][int(code[len(head):]) - 1] += 1.0
    for k, sig in enumerate(signals):
        if keep is not None and not keep[k]:
            continue
        codes = _codes(sig.get("target", ""))
        good = sign = 1.0 if sig.get("stance") == "prefer" else -1.0
        refs = []
        for c in codes:
            head = c.rstrip("0123456789")
            tail = c[len(head):]
            if head not in imp:
                refs = []
                break
            opt = int(tail) - 1 if tail.isdigit() and 1 <= int(tail) <= counts[head] else None
            refs.append((head, opt))
        if not refs:
            continue
        if sig.get("entity") == "issue":
            if len(refs) == 1:
                imp[refs[0][0]] += 2.0 if good > 0 else -1.0
            elif len(refs) == 2:
                imp[refs[0][0]] += sign
                imp[refs[1][0]] -= sign
        else:
            if any(o is None for _h, o in refs):
                continue
            if len(refs) == 1:
                app[refs[0][0]][refs[0][1]] += 2.0 * sign
            elif len(refs) == 2:
                app[refs[0][0]][refs[0][1]] += sign
                app[refs[1][0]][refs[1][1]] -= sign
    w = {n: max(imp[n], 0.25) for n in names}
    tot = sum(w.values())
    table = {}
    for n in names:
        a = app[n]
        k = len(a)
        lo, hi = min(a), max(a)
        if hi == lo:
            vals = [0.5] * k
        else:
            fav = [i for i in range(k) if a[i] == hi]
            f = sum(fav) / len(fav)
            span = max(f, k - 1 - f) or 1.0
            vals = [0.5 * (x - lo) / (hi - lo) + 0.5 * (1.0 - abs(i - f) / span) for i, x in enumerate(a)]
        table[n] = [int(round(100.0 * w[n] / tot * v)) for v in vals]
    return table


class EstimateTask(Task):
    """LLM-PE: estimate a party's whole score table directly from what it said and proposed."""

    id = "scorable-estimate"
    #: the mock reads its context and changes none of it
    mock_reads_fields = True
    instructions = (
        "You observe a multi-party negotiation. From the deals the named party has proposed and the "
        "preference signals read from its messages (in order), estimate that party's private score "
        "table: for every issue, one score per option, on a 0-100 scale where the party's best "
        "option on every issue together sum to about 100 and more important issues get larger "
        "scores.")
    question = "What is your estimate of the party's score table?"
    answer_format = ("one JSON object and nothing else, mapping each issue code to the list of its option "
                     "scores (whole numbers 0-100) in option order.")
    example = '{"X": [10, 5, 0], "Y": [0, 20, 30]}'
    fields = ("party", "issues", "deals", "signals")
    mock_options = {"scorable_pe_forget": 0.3, "scorable_pe_jitter": 0.15}

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if not isinstance(data, dict) or not data:
            raise ParseError(self.id, "expected an object mapping issue codes to score lists", text)
        out = {}
        for name, row in data.items():
            if not isinstance(row, list) or not row:
                raise ParseError(self.id, f"scores of issue {name!r} are not a non-empty list", text)
            out[str(name)] = [checks.finite(self.id, f"score of issue {name!r}", x, text) for x in row]
        return out

    def check(self, table: dict, context, text: str) -> dict:
        """One row per issue of the game, one score per option (the policy clips the
        scores to the 0-100 scale, :func:`policies.llm_pe.pe_estimate`)."""
        counts = _option_counts(context["issues"])
        if set(table) != set(counts):
            raise ParseError(self.id, f"the table must have exactly the issues {', '.join(counts)}", text)
        for name, row in table.items():
            if len(row) != counts[name]:
                raise ParseError(self.id, f"issue {name!r} has {counts[name]} options, not {len(row)} scores", text)
        return table

    def answer_schema(self, context) -> dict:
        """Every issue code of the game, each with one whole score 0-100 per option."""
        rows = {name: {"type": "array", "items": schema.integer(0, 100), "minItems": n, "maxItems": n}
                for name, n in _option_counts(context["issues"]).items()}
        return schema.obj(rows, title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        sigs = context["signals"]
        latest = [s.get("turn") for s in sigs]
        last = max((t for t in latest if isinstance(t, int)), default=None)
        p_forget = options.get("scorable_pe_forget", 0.0)
        u = [rng.random() for _ in sigs]
        keep = [(latest[k] == last) or u[k] >= p_forget for k in range(len(sigs))]
        table = direct_estimate(context["issues"], context["deals"], sigs, keep)
        p_jit = options.get("scorable_pe_jitter", 0.0)
        for name in table:
            row = table[name]
            for k in range(len(row)):
                a, b = rng.random(), rng.normal(0.0, 10.0)
                if a < p_jit:
                    row[k] = int(min(100, max(0, round(row[k] + b))))
        return json.dumps(table)

    def examples(self, rng):
        out = []
        for _ in range(4):
            sigs = [dict(s, turn=int(rng.integers(0, 5))) for s in _example_cues(rng)]
            out.append({"party": "Mayor", "issues": _example_issues(), "deals": [["A1", "B2", "C3"], ["A2", "B2", "C1"]],
                        "signals": sigs})
        return out

    def expected(self, context):
        table = direct_estimate(context["issues"], context["deals"], context["signals"])
        return {k: [float(x) for x in v] for k, v in table.items()}


SPEAK = register_task(SpeakTask())
EXTRACT = register_task(ExtractTask())
ESTIMATE = register_task(EstimateTask())
