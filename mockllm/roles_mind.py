"""MIND's roles played by a model: the Base (MAD) agents' decisions (``mind.base``).

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
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from policies.travel_common import Update, Vote, plurality
from simcore.errors import ParseError

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


__all__ = ["BASE", "BaseTask", "BaseRole", "TEMPERATURE"]
