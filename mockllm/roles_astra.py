"""ASTRA's roles played by a model: the stage-3 tactic choice (``astra.tactic``).

Section 2.3 gives the best-fit tactic to an LLM with no rule behind it: "The agent
selects the best-fit tactic, ranks offers, and repeats this process five times for
robustness. The majority tactic is chosen".  simcore's stand-in is
:func:`policies.astra_modules.select_tactic`.  With ``--role astra.tactic=BACKEND`` the
choice is asked of a backend through this task, while everything around it (stance,
fairness, which tactics' Table 5 "When" holds, the LP offers, the ranking of the
chosen tactic) stays the algorithm's:

* the legal answers are the tactics whose "When" holds in the real state
  (:func:`policies.astra_modules.applicable`); the answer's schema is an enum of them and
  :meth:`TacticTask.check` refuses any other;
* :class:`TacticRole` asks :data:`SAMPLES` samples, each seeded from the role's own
  generator, at :data:`TEMPERATURE`, and takes the majority (:func:`majority`); a
  sample that stays unreadable after the client's repairs is a counted fallback and
  does not vote; no vote at all: the stand-in's tactic; a tie: the stand-in's own tactic
  when it is among the tied, else the first of them in the stand-in's ranking
  (:func:`ranking`);
* the mock answers with the stand-in's choice (astra-agent-v3's ``tft`` best fit) from
  the prompt's context alone, so a run with the mock in the role is the stand-in's run.

The prompt is simcore's paraphrase of section 2.3 (stage 3: strategy assessment),
section 2's tit-for-tat grounding and Table 5 (each tactic's "When" and "How").
"""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace
from typing import Any, Callable, Mapping, Sequence

import attrs

from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from policies import astra_modules as M
from simcore.errors import ParseError

#: 2.3 "repeats this process five times for robustness. The majority tactic is chosen"
SAMPLES = 5
#: Appendix B.1 "All models were run with temperature = 1.0"
TEMPERATURE = 1.0

#: Table 5, paraphrased: code -> (strategy, when it applies, what it does)
TACTIC_TEXT = {
    "LIC": ("collaborative", "early on, before either side has conceded anything",
            "give up a good share of something the partner cares about a lot"),
    "CSC": ("collaborative", "you conceded a lot last time and the partner answered with little or nothing",
            "concede again, by less than before"),
    "RC": ("collaborative", "the partner has just conceded a significant amount",
           "answer with a concession of your own"),
    "LGR": ("collaborative", "at any point",
            "trade: let the partner have items that matter less to you for items that matter more to you"),
    "MGF": ("collaborative", "the partner's latest offer scores more for them than for you",
            "reshape the offer so both sides gain, stressing fairness"),
    "AEO": ("competitive", "the opening of the negotiation, while few offers have been made",
            "ask for a split that strongly favours you"),
    "REO": ("competitive", "the partner's offer is extremely selfish",
            "counter with an offer that strongly favours you, as they did"),
    "NCR": ("competitive", "the partner made no concession in its last two offers",
            "stop conceding and keep your position"),
    "RNC": ("competitive", "the partner's last two offers raised its own score",
            "hold your position and concede nothing more"),
}


def tactic_context(c: M.TacticContext, options: Sequence[str]) -> dict:
    """The prompt's context for a turn: the partner's behaviour as stage 1 measured it,
    the offer on the table, and the legal tactics (those whose Table 5 "When" holds)."""
    return dict(
        partner_stance=c.stance,
        partner_offer_fairness=c.fairness,
        your_points_in_partner_offer=c.partner_offer_sa,
        partner_points_in_partner_offer=c.partner_offer_sp,
        partner_conceded_before=bool(c.partner_conceded_before),
        offers_exchanged=c.offers_exchanged,
        tactics=[{"code": t, "strategy": TACTIC_TEXT[t][0], "when": TACTIC_TEXT[t][1], "how": TACTIC_TEXT[t][2]}
                 for t in options])


def _codes(context: Mapping[str, Any]) -> list:
    return [t.get("code") if isinstance(t, Mapping) else t for t in context.get("tactics") or ()]


class TacticTask(Task):
    # prompt: ASTRA 2.3 (stage 3, "The agent selects the best-fit tactic"), sec. 2 (TFT
    # reciprocity), 4.3 (stance before fairness), Table 5 (When / How of each tactic)
    id = "astra.tactic"
    instructions = (
        "You decide the tactic of a negotiation agent's next offer in a bargaining game over items. "
        "The agent reciprocates: it meets a cooperative partner with cooperation and a tough one with "
        "firmness, and it weighs the partner's stance (whether the partner's own score rose, stayed or fell "
        "over its last two offers) above the fairness of the partner's latest offer. 'tactics' lists the "
        "tactics whose conditions hold right now, each with its strategy (competitive: protects your own "
        "gain; collaborative: builds mutual benefit), when it applies and what it does. Pick the one that "
        "fits this turn best.")
    question = "Which one of the listed tactics fits this turn best?"
    answer_format = 'one JSON object and nothing else: {"tactic": "<code of one listed tactic>"}'
    example = '{"tactic": "XYZ"}'
    fields = ("partner_stance", "partner_offer_fairness", "your_points_in_partner_offer",
              "partner_points_in_partner_offer", "partner_conceded_before", "offers_exchanged", "tactics")

    def answer_schema(self, context) -> dict:
        return schema.obj({"tactic": schema.enum(_codes(context))}, title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        """The stand-in's choice (astra-agent-v3: ``best_fit`` with ``selection="tft"``),
        read from the context alone."""
        state = SimpleNamespace(stance=context["partner_stance"], fairness=context["partner_offer_fairness"],
                                partner_conceded_before=bool(context["partner_conceded_before"]))
        return json.dumps({"tactic": M.best_fit(_codes(context), state, "tft")})

    def parse(self, text: str) -> str:
        data = self.load_json(text)
        if not isinstance(data, dict):
            raise ParseError(self.id, "the answer must be a JSON object", text)
        value = data.get("tactic")
        if not isinstance(value, str):
            raise ParseError(self.id, "'tactic' must be the code of one listed tactic", text)
        return value.strip().upper()

    def check(self, tactic: str, context, text: str) -> str:
        """Legal: one of the tactics whose Table 5 "When" holds in this state."""
        return checks.one_of(self.id, "tactic", tactic, tuple(_codes(context)), text)

    def examples(self, rng):
        def ctx(**kw):
            base = dict(offers_exchanged=3, agent_offers=1, partner_offer_sa=14.0, partner_offer_sp=20.0,
                        stance="neutral", stance_delta=0.0, fairness="unfair", agent_conceded=False,
                        last_own_concession=0.0, agent_max=36.0, prev_own=30.0, partner_offers=2)
            c = M.TacticContext(**{**base, **kw})
            return tactic_context(c, M.applicable(c))
        return [ctx(), ctx(stance="generous", stance_delta=-2.0), ctx(stance="greedy", stance_delta=2.0),
                ctx(partner_offers=1, offers_exchanged=1, stance="unknown")]

    def expected(self, context):
        return json.loads(self.mock_answer(context, None, {}))["tactic"]


TACTIC = register_task(TacticTask())


def ranking(params: M.TacticParams) -> tuple:
    """The stand-in's order of preference over the tactics, for ties: ``order`` for the
    precedence rule, else best_fit's (tactics answering the partner's latest move first,
    each group in Table 5's listing)."""
    if params.selection == "precedence":
        return tuple(params.order)
    return (tuple(t for t in M.TABLE5_ORDER if t in M.REACTIVE)
            + tuple(t for t in M.TABLE5_ORDER if t not in M.REACTIVE))


def majority(votes: Sequence[Any], tie_break: Callable[[list], Any]) -> Any:
    """The most frequent of ``votes`` (None: an abstention); None when nobody voted;
    several equally frequent: ``tie_break(tied)`` with the tied in first-vote order."""
    counts = Counter(v for v in votes if v is not None)
    if not counts:
        return None
    top = max(counts.values())
    tied = [v for v in dict.fromkeys(v for v in votes if v is not None) if counts[v] == top]
    return tied[0] if len(tied) == 1 else tie_break(tied)


@attrs.define
class TacticRole:
    """The astra.tactic role on a backend: ``client`` (a :class:`mockllm.client.ModelClient`
    whose task counts are the role's), ``rng`` the role's own generator (only seeds its
    calls, so the rest of the run draws exactly what the stand-in's run draws)."""

    client: Any
    rng: Any
    samples: int = SAMPLES

    def choose(self, c: M.TacticContext, params: M.TacticParams, stand_in: str) -> str:
        options = M.applicable(c, params)
        if len(options) == 1:  # (LGR alone: nothing to decide, nothing asked)
            return options[0]
        context = tactic_context(c, options)
        votes = [self.client.ask(TACTIC, self.rng, fallback=lambda: None, **context) for _ in range(self.samples)]
        order = ranking(params)

        def tie_break(tied: list) -> str:
            return stand_in if stand_in in tied else min(tied, key=order.index)

        got = majority(votes, tie_break)
        return stand_in if got is None else got


__all__ = ["TACTIC", "TacticTask", "TacticRole", "majority", "ranking", "tactic_context", "SAMPLES",
           "TEMPERATURE"]
