"""MIND's roles played by a model: the Base (MAD) agents' decisions (``mind.base``) and
the Table 4 judge (``mind.judge``, :data:`JUDGE`; see "The judge" below).

MIND appendix B.1 gives the baseline's votes and proposer updates to an LLM prompted
with Tables B1-B4 and no rule behind them; simcore's stand-in is
:class:`policies.mad.MadPolicy`.  With ``--role mind.base=BACKEND`` each Phase-2 vote and
Phase-3 update of a Base agent is asked through :data:`BASE` while the protocol (rounds,
consensus, the round limit and its fallback), the words and the judge stay as they are:

* a vote: AGREE, or DISAGREE with a revised value, which must be one of the item's
  allowed values and differ from the proposal (B3 "propose a specific alternative
  value"); an update: KEEP the proposal, or UPDATE to one of the allowed values other
  than it (B4 "select ONE value from ALLOWED VALUES");
* the reason the words give is the stand-in's reason table for the move decided (the
  ``b3`` rows of :mod:`policies.mad`: each reason true of its move), so the model decides
  the move and the words stay Base's;
* an answer still unreadable or illegal after the client's repairs is a counted fallback
  to the stand-in's decision; the mock answers with the default stand-in's decision
  (``base-v3``) from the prompt's context alone.

The prompt paraphrases Table B3 (Phase 2: act for your private preferences; you may
agree to a reasonable compromise; JSON with vote and revised_value) and Table B4 (Phase
3: the proposal was not accepted; keep it if still best for a majority, else pick one
allowed value that balances the group's needs), with B2's preference data (the private
value and its importance, 1-10) in view for a voter, and only the private value for the
proposer (B4's context gives no importance).

The judge
---------
With ``--role mind.judge=BACKEND`` the Table 4 verdict on each group is asked through
:data:`JUDGE`.  The prompt paraphrases Table E16 (two negotiations, Plan A and Plan B,
judged on the quality of the process: five criteria, a winner for each, then the
overall winner) and gives exactly Table E17's slots -- ``version_a``,
``constraints_a``, ``conversation_a`` and the same for Plan B -- which are what the
default blind stand-in (:func:`simcore.metrics.mind_judge.blind_evidence`) reads: the
version label (a choice to send it: E17 does; the stand-in ignores it), the final value
of each item, and the conversation (each member's opening, each proposal, vote and
update with the public move and its words, and how each item ended; never an alpha or
a policy's private label).

The answer names, for each criterion and overall, ``"A"`` or ``"B"`` -- E16's options ("decide
who wins (A or B)"); nothing else is legal.  The model's letters are the verdict, its overall
winner the overall (E16 "then give the final overall winner").  The mock answers with the
blind stand-in's verdict computed from the prompt's two conversations; where the stand-in's
evidence is equal (which the study settles with its fair coin, a draw the prompt cannot show)
the mock flips a coin of its own, keyed by the two conversations and the criterion so that
swapping the plans swaps the letter, and its overall is the majority of its five letters.  So
a run with the mock in the role has the stand-in run's verdict on every criterion the
evidence decides, and may differ on the ties (tests/systems/mind/test_role_mind_judge.py).  An answer
still unreadable after the client's repairs is a counted fallback to the stand-in's verdict.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from policies.travel_common import plurality
from scenarios.travel import ITEMS
from simcore.errors import ParseError
from simcore.metrics.mind_judge import CRITERIA, NOT_COMPARABLE, blind_evidence, letters, settle
from simcore.protocols.travel_moves import Update, Vote
from simcore.transcript import Event

#: the stand-in the mock plays: base-v3's agree threshold (policies.mad.MadPolicy.agree_max_w)
MOCK_AGREE_MAX_W = 3
#: F.1: every MIND and baseline agent ran gpt-4.1-mini at "Temperature: 0.4"
TEMPERATURE = 0.4


class BaseTask(Task):
    # prompt: MIND Table B3 (Phase 2 vote) and Table B4 (Phase 3 proposer update), with Table B2's
    # preference data for a voter; B1's "Do NOT mention any preference strength" is the words' rule
    id = "mind.base"
    instructions = (
        "You are one member of a group planning a trip together, deciding one item at a time. You speak "
        "for your own private preference ('your_private_value'). In the 'vote' phase another member's "
        "proposal is on the table: AGREE if it is a reasonable compromise for the group, or DISAGREE and "
        "name the value you want instead (one of 'allowed_values', not the proposal itself); "
        "'your_importance' (1-10) is how much the item matters to you. In the 'update' phase you made the "
        "proposal and the group did not accept it ('dissents' are the values the others asked for, of "
        "'voters' voters): KEEP it if you believe it is still best for a majority, or UPDATE it to one "
        "allowed value that balances what the group needs.")
    question = "What is your decision?"
    answer_format = ('one JSON object and nothing else: in the vote phase {"decision": "AGREE" or "DISAGREE", '
                     '"value": <the value you want> or null when you agree}; in the update phase '
                     '{"decision": "KEEP" or "UPDATE", "value": <the new proposal> or null when you keep}')
    example = '{"decision": "DISAGREE", "value": "Some other value"}'
    fields = ("phase", "item", "allowed_values", "current_proposal", "your_private_value")
    optional_fields = ("your_importance", "your_last_offer", "dissents", "voters")

    def answer_schema(self, context) -> dict:
        decisions = ["AGREE", "DISAGREE"] if context["phase"] == "vote" else ["KEEP", "UPDATE"]
        others = [v for v in context["allowed_values"] if v != context["current_proposal"]]
        return schema.obj({"decision": schema.enum(decisions), "value": schema.enum(others, nullable=True)},
                          title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        """The default stand-in's decision (base-v3, :class:`policies.mad.MadPolicy`)."""
        proposal, own = context["current_proposal"], context["your_private_value"]
        if context["phase"] == "vote":
            if proposal in (own, context.get("your_last_offer")) or context["your_importance"] <= MOCK_AGREE_MAX_W:
                return json.dumps({"decision": "AGREE", "value": None})
            return json.dumps({"decision": "DISAGREE", "value": own})
        dissents = list(context.get("dissents") or ())
        if not dissents:
            return json.dumps({"decision": "KEEP", "value": None})
        value, count = plurality(dissents)
        if context["voters"] - len(dissents) > count:
            return json.dumps({"decision": "KEEP", "value": None})
        return json.dumps({"decision": "UPDATE", "value": value})

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if not isinstance(data, dict):
            raise ParseError(self.id, "the answer must be a JSON object", text)
        decision = data.get("decision")
        if not isinstance(decision, str):
            raise ParseError(self.id, "'decision' must be AGREE, DISAGREE, KEEP or UPDATE", text)
        value = data.get("value")
        if value is not None and not isinstance(value, str):
            raise ParseError(self.id, "'value' must be one of the allowed values or null", text)
        return {"decision": decision.strip().upper(), "value": value}

    def check(self, answer: dict, context, text: str) -> dict:
        """Legal: the phase's decisions; a DISAGREE / UPDATE names an allowed value other than
        the proposal; an AGREE / KEEP names none (or the proposal)."""
        moves = ("AGREE", "DISAGREE") if context["phase"] == "vote" else ("KEEP", "UPDATE")
        checks.one_of(self.id, "decision", answer["decision"], moves, text)
        if answer["decision"] in ("DISAGREE", "UPDATE"):
            checks.one_of(self.id, "value", answer["value"], tuple(context["allowed_values"]), text)
            if answer["value"] == context["current_proposal"]:
                raise ParseError(self.id, f"{answer['decision']} must name a value other than the proposal", text)
        elif answer["value"] not in (None, context["current_proposal"]):
            raise ParseError(self.id, f"{answer['decision']} takes no other value (value must be null)", text)
        return answer

    def examples(self, rng):
        vals = ["Budget", "Mid-range", "Luxury"]
        base = dict(item="Accommodation", allowed_values=vals)
        return [dict(base, phase="vote", current_proposal="Luxury", your_private_value="Budget", your_importance=8),
                dict(base, phase="vote", current_proposal="Luxury", your_private_value="Budget", your_importance=2),
                dict(base, phase="update", current_proposal="Luxury", your_private_value="Luxury",
                     dissents=["Budget", "Budget"], voters=3),
                dict(base, phase="update", current_proposal="Luxury", your_private_value="Luxury",
                     dissents=["Budget"], voters=3)]

    def expected(self, context):
        return json.loads(self.mock_answer(context, None, {}))


BASE = register_task(BaseTask())


@attrs.define
class BaseRole:
    """A Base policy whose votes and updates are asked of a backend (``client``, ``rng``
    the role's own generator); everything else is the wrapped stand-in's (``inner``)."""

    inner: Any
    client: Any
    rng: Any

    def __getattr__(self, name):  # tone, appraisal, wording ... are the stand-in's
        if name in ("inner", "client", "rng"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def vote(self, me, proposal: str, guessed_w, last_offer: str | None = None) -> Vote:
        rule = self.inner.vote(me, proposal, guessed_w, last_offer)
        got = self.client.ask(BASE, self.rng, fallback=lambda: None, phase="vote", item=me.item.label,
                              allowed_values=list(me.item.options), current_proposal=proposal,
                              your_private_value=me.value, your_importance=me.w, your_last_offer=last_offer)
        if got is None or (got["decision"] == rule.vote and (rule.vote == "AGREE"
                                                            or got["value"] == rule.revised_value)):
            return rule
        if got["decision"] == "AGREE":  # (b3 reasons: each true of its move)
            own = proposal == me.value
            return Vote("AGREE", "accept" if own or proposal == last_offer else "yield", None,
                        "preference" if own else "balance" if proposal == last_offer else "compromise")
        value = got["value"]
        return Vote("DISAGREE", "push" if value == me.value else "compromise", value,
                    "preference" if value == me.value else "balance")

    def update(self, me, proposal: str, dissents, n_voters: int) -> Update:
        rule = self.inner.update(me, proposal, dissents, n_voters)
        got = self.client.ask(BASE, self.rng, fallback=lambda: None, phase="update", item=me.item.label,
                              allowed_values=list(me.item.options), current_proposal=proposal,
                              your_private_value=me.value, dissents=[d.revised_value for d in dissents],
                              voters=n_voters)
        if got is None:
            return rule
        if got["decision"] == "KEEP":
            return rule if rule.action == "KEEP" else Update(
                "KEEP", proposal, "preference" if proposal == me.value else "support")
        if rule.action == "UPDATE" and rule.value == got["value"]:
            return rule
        return Update("UPDATE", got["value"], "majority" if 2 * len(dissents) > n_voters else "balance")


# ------------------------------------------------------------------ the judge (Table 4)
#: the answer's key for each criterion (E16's five names) and the overall winner
JUDGE_KEYS = {"rationality": "negotiation_rationality", "alignment": "preference_alignment",
              "reason_validity": "reason_value_validity", "change_justification": "opinion_change_justification",
              "fluency": "fluency_naturalness"}
#: a judge's answer for one criterion and overall: a plan (E16 "decide who wins (A or B)")
VERDICTS = ("A", "B")
#: F.1 gives the agents' temperature (0.4); no passage gives the judge's, so the backend's own is used
JUDGE_TEMPERATURE = None


def conversation(events) -> list:
    """E17's "Conversation Samples" of one plan: every public line of its negotiation, in
    order -- each member's opening (Phase 1), each item's proposal (the proposer and
    value), each vote and proposer update with its move, value and words, and how the
    item ended (consensus, or no consensus and the value the protocol's fallback set).
    Nothing hidden: no alpha, no strategy, not whom the fallback followed."""

    out = []
    for e in events:
        label = ITEMS[e.item].label if e.item in ITEMS else e.item
        if e.phase == "1-propose":
            out.append({"speaker": e.speaker, "phase": "opening", "text": e.text})
        elif e.phase == "1-pick":
            out.append({"speaker": e.intent["proposer"], "phase": "proposal", "item": label,
                        "value": e.intent["proposal"]})
        elif e.phase == "2-vote":
            out.append({"speaker": e.speaker, "phase": "vote", "round": e.round, "item": label,
                        "vote": e.intent["vote"], "value": e.intent.get("revised_value"), "text": e.text})
        elif e.phase == "3-update":
            out.append({"speaker": e.speaker, "phase": "update", "round": e.round, "item": label,
                        "action": e.intent["action"], "value": e.intent["value"], "text": e.text})
        elif e.phase in ("result", "fallback"):
            out.append({"phase": "consensus" if e.phase == "result" else "no consensus (fallback)",
                        "round": e.round, "item": label, "value": e.intent["value"]})
    return out


def final_constraints(events) -> dict:
    """E17's "Final Constraints" of one plan: ``{item: final value}`` in negotiation order."""

    return {(ITEMS[e.item].label if e.item in ITEMS else e.item): e.intent["value"]
            for e in events if e.phase in ("result", "fallback")}


def events_of(lines) -> list:
    """The transcript events a plan's :func:`conversation` was made from, as far as the
    blind judge reads them (phase, speaker, round, item, public move, words): what the mock
    judges, so that its verdict is the stand-in's."""

    key_of = {it.label: key for key, it in ITEMS.items()}
    out = []
    for n, d in enumerate(lines):
        phase, item = d["phase"], key_of.get(d.get("item"), d.get("item"))
        common = dict(run="judge", seq=n, round=int(d.get("round", 0)), item=item)
        if phase == "opening":
            out.append(Event(speaker=d["speaker"], phase="1-propose", text=d["text"], **{**common, "item": None}))
        elif phase == "proposal":
            out.append(Event(speaker="protocol", phase="1-pick",
                             intent={"proposer": d["speaker"], "proposal": d["value"]}, **common))
        elif phase == "vote":
            out.append(Event(speaker=d["speaker"], phase="2-vote", text=d["text"],
                             intent={"vote": d["vote"], "revised_value": d["value"]}, **common))
        elif phase == "update":
            out.append(Event(speaker=d["speaker"], phase="3-update", text=d["text"],
                             intent={"action": d["action"], "value": d["value"]}, **common))
        else:
            out.append(Event(speaker="protocol", phase="result" if phase == "consensus" else "fallback",
                             intent={"value": d["value"]}, **common))
    return out


def judge_context(events_a, events_b, version_a: str, version_b: str) -> dict:
    """The judge's prompt context: E17's six slots for Plan A and Plan B."""
    return {"version_a": version_a, "constraints_a": final_constraints(events_a),
            "conversation_a": conversation(events_a),
            "version_b": version_b, "constraints_b": final_constraints(events_b),
            "conversation_b": conversation(events_b)}


def tie_letter(context, criterion: str) -> str:
    """The mock's own fair coin for a criterion where the blind evidence is equal: a bit of a
    digest of the criterion and the two conversations, naming the plan with the smaller
    digest or the other (so swapping the plans swaps the letter; identical plans: by
    position)."""

    def key(conv) -> str:
        return hashlib.sha256(json.dumps(conv, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()

    ka, kb = key(context["conversation_a"]), key(context["conversation_b"])
    heads = hashlib.sha256(f"{criterion}\n{min(ka, kb)}\n{max(ka, kb)}".encode("utf-8")).digest()[0] & 1
    if ka == kb:
        return "A" if heads else "B"
    smaller = "A" if ka < kb else "B"
    return smaller if heads else ("B" if smaller == "A" else "A")


def stand_in_letters(context) -> dict:
    """The blind stand-in's verdict on the two plans of ``context``: per criterion the plan
    with the higher evidence or None (equal), from the conversations alone."""

    return letters(blind_evidence(events_of(context["conversation_a"])),
                   blind_evidence(events_of(context["conversation_b"])))


class JudgeTask(Task):
    # prompt: MIND Table E16 (the judge's system prompt: Plan A vs Plan B, the QUALITY of the
    # process, five criteria, a winner for each and then the overall winner, no reasoning) and
    # Table E17 (the user template's slots: version, final constraints, conversation samples)
    id = "mind.judge"
    instructions = (
        "You judge two negotiations of the same travel group, Plan A and Plan B. Each gives its version, the "
        "final value of every item ('constraints_a' / 'constraints_b') and the conversation ('conversation_a' "
        "/ 'conversation_b': each member's opening, the proposal on each item, the votes and the proposer's "
        "updates with their words, and how each item ended). Judge how good the negotiation was as a "
        "process, not only where it ended, on five criteria: negotiation_rationality (the way to the result "
        "is logical, and members who said an item matters a lot to them were listened to); "
        "preference_alignment (the final values keep what each member asked for at the start, above all what "
        "they said mattered most); reason_value_validity (each stated reason really supports the value it is "
        "given for); opinion_change_justification (when someone changes position, or holds it, the reason is "
        "clear and convincing); fluency_naturalness (it reads like real people planning a trip, not a "
        "machine). For each criterion name the better plan, then the overall winner. Give no reasoning.")
    question = "Which plan wins each criterion, and which wins overall?"
    answer_format = ('one JSON object and nothing else: {"negotiation_rationality": "A" or "B", '
                     '"preference_alignment": "A" or "B", "reason_value_validity": "A" or "B", '
                     '"opinion_change_justification": "A" or "B", "fluency_naturalness": "A" or "B", '
                     '"overall": "A" or "B"}')
    example = ('{"negotiation_rationality": "B", "preference_alignment": "A", "reason_value_validity": "B", '
               '"opinion_change_justification": "B", "fluency_naturalness": "A", "overall": "B"}')
    fields = ("version_a", "constraints_a", "conversation_a", "version_b", "constraints_b", "conversation_b")
    #: a choice: six one-letter verdicts are about 60 tokens of JSON; twice that leaves room for a wordy model
    max_tokens = 128

    def answer_schema(self, context) -> dict:
        return schema.obj({k: schema.enum(VERDICTS) for k in (*JUDGE_KEYS.values(), "overall")}, title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        """The default blind stand-in's verdict, from the two conversations of the prompt; a
        criterion with equal evidence, or not comparable (E16 asks for A or B), by
        :func:`tie_letter`; the overall the majority of the comparable criteria (an even split by
        :func:`tie_letter`)."""

        got = stand_in_letters(context)
        out = {c: tie_letter(context, c) if got[c] in (None, NOT_COMPARABLE) else got[c] for c in CRITERIA}
        compared = [c for c in CRITERIA if got[c] != NOT_COMPARABLE]
        a_wins = sum(out[c] == "A" for c in compared)
        b_wins = len(compared) - a_wins
        overall = ("A" if a_wins > b_wins else "B") if a_wins != b_wins else tie_letter(context, "overall")
        return json.dumps({**{JUDGE_KEYS[c]: out[c] for c in CRITERIA}, "overall": overall})

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if not isinstance(data, dict):
            raise ParseError(self.id, "the answer must be a JSON object", text)
        out = {}
        for key in (*JUDGE_KEYS.values(), "overall"):
            if key not in data:
                raise ParseError(self.id, f"{key!r} is missing (each criterion and 'overall' need \"A\" or \"B\")",
                                 text)
            value = data[key]
            if not isinstance(value, str):
                raise ParseError(self.id, f"{key!r} must be \"A\" or \"B\"", text)
            word = " ".join(value.split()).casefold()
            out[key] = {"a": "A", "plan a": "A", "b": "B", "plan b": "B"}.get(word, word)
        return out

    def check(self, answer: dict, context, text: str) -> dict:
        """Each verdict is A or B (:data:`VERDICTS`); returns ``{criterion: 'A'/'B'}`` and
        ``overall``."""

        for key, value in answer.items():
            checks.one_of(self.id, key, value, VERDICTS, text)
        out = {c: answer[JUDGE_KEYS[c]] for c in CRITERIA}
        out["overall"] = answer["overall"]
        return out

    def examples(self, rng):
        def plan(vote, value, words):
            return [{"speaker": "m1", "phase": "opening",
                     "text": "Here is what I'd like for the trip:\n- For the minimum review score, I would really "
                             "like \"3.5+\".\nI am asking for these since it suits how I travel."},
                    {"speaker": "m2", "phase": "opening",
                     "text": "Here is what I'd like for the trip:\n- For the minimum review score, perhaps "
                             "\"Any score\".\nI am asking for these as it fits what I need on this trip."},
                    {"speaker": "m2", "phase": "proposal", "item": "minimum review score", "value": "Any score"},
                    {"speaker": "m1", "phase": "vote", "round": 1, "item": "minimum review score", "vote": vote,
                     "value": value, "text": words},
                    {"phase": "consensus" if vote == "AGREE" else "no consensus (fallback)", "round": 1,
                     "item": "minimum review score", "value": "Any score"}]
        a = plan("DISAGREE", "3.5+", "I see it differently: \"3.5+\", because this is too important to drop.")
        b = plan("AGREE", None, "That works for me: \"Any score\".")
        return [{"version_a": "mind", "constraints_a": {"minimum review score": "Any score"}, "conversation_a": a,
                 "version_b": "base", "constraints_b": {"minimum review score": "Any score"}, "conversation_b": b},
                {"version_a": "base", "constraints_a": {"minimum review score": "Any score"}, "conversation_a": b,
                 "version_b": "mind", "constraints_b": {"minimum review score": "Any score"}, "conversation_b": a},
                {"version_a": "mind", "constraints_a": {"minimum review score": "Any score"}, "conversation_a": a,
                 "version_b": "mind", "constraints_b": {"minimum review score": "Any score"}, "conversation_b": a}]

    def expected(self, context):
        return self.interpret(self.mock_answer(context, None, {}), context)


JUDGE = register_task(JudgeTask())


def judge_verdict(client, rng, coin, context: dict, key_a: str, key_b: str, stand_in) -> dict:
    """The Table 4 verdict with the judge on a backend: the model's letters and overall winner
    (``client``, call seeds from ``rng``, the role's own generator), in :func:`compare`'s fields
    (``coin``, the generator the stand-in's verdict draws from, settles only the derived
    four-criterion winner on a 2-2 split; ``key_a``/``key_b`` name the plans for it);
    ``stand_in()`` -- the stand-in's verdict with that coin -- is the counted fallback.
    Exactly one of the two draws from ``coin``."""

    got = client.ask(JUDGE, rng, fallback=lambda: None, **context)
    if got is None:
        return stand_in()
    # a criterion the conversations give nothing to check is not comparable whoever judges:
    # the model's letter on it is counted apart, as the stand-in's is
    apart = stand_in_letters(context)
    return settle({c: NOT_COMPARABLE if apart[c] == NOT_COMPARABLE else got[c] for c in CRITERIA}, coin, key_a,
                  key_b, stated_overall=got["overall"])


__all__ = ["BASE", "BaseTask", "BaseRole", "TEMPERATURE", "JUDGE", "JudgeTask", "JUDGE_KEYS", "VERDICTS", "tie_letter",
           "conversation", "final_constraints", "events_of", "judge_context", "judge_verdict"]
