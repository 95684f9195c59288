"""ASTRA's roles played by a model: the stage-3 tactic choice (``astra.tactic``) and
the GPT-4o Partner-Base's moves (``astra.partner``, :class:`PartnerTask` below).

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
* the mock answers with the stand-in's choice (the ``tft`` best fit of astra-agent-v4, and v3) from
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

from mockllm import checks, exchanges, schema
from mockllm.tasks import Task, register_task
from policies import astra_modules as M
from policies.partners import PARTNER_PARAMS, make_partner
from scenarios.bilateral import load_domain
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
        """The stand-in's choice (astra-agent-v4 and v3: ``best_fit`` with ``selection="tft"``),
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
    #: the decision notes (:mod:`mockllm.exchanges`) not yet taken, when the client keeps a record
    notes: list = attrs.field(factory=list)

    def choose(self, c: M.TacticContext, params: M.TacticParams, stand_in: str) -> str:
        options = M.applicable(c, params)
        if len(options) == 1:  # (LGR alone: nothing to decide, nothing asked)
            return options[0]
        context = tactic_context(c, options)
        votes = [self.client.ask(TACTIC, self.rng, fallback=lambda: None, **context) for _ in range(self.samples)]
        order = ranking(params)
        tie = []

        def tie_break(tied: list) -> str:
            tie.extend(tied)
            return stand_in if stand_in in tied else min(tied, key=order.index)

        got = majority(votes, tie_break)
        decision = stand_in if got is None else got
        if exchanges.recording(self.client):
            rule = ("no sample was readable: the stand-in's tactic" if got is None else
                    f"a tie between {', '.join(tie)}: " + ("the stand-in's own tactic" if stand_in in tie
                                                           else "the first in the stand-in's ranking")
                    if tie else "the majority of the samples")
            made = exchanges.note(exchanges.take(self.client), votes=votes, rule=rule, decision=decision,
                                  stand_in=stand_in, fallback=got is None)
            if made is not None:
                self.notes.append(made)
        return decision


# ------------------------------------------------------------------ astra.partner
#: the stand-in the mock plays in the astra.partner role: the default Partner-Base
#: (base-partner-v2, read from the paper's transcripts; policies.partners)
MOCK_PARTNER = "base-transcripts"


def option_text(domain, outcome, seat: str) -> tuple[str, str]:
    """(what the ``seat`` side gets, what the other side gets) of ``outcome``, in words;
    a shared issue's value is in both."""
    stated = domain.state_offer(outcome, seat)
    shared = [f"{k} {v}" for k, v in stated["shared"].items()]
    mine = [f"{n} {k}" for k, n in stated["self"].items()] + shared
    theirs = [f"{n} {k}" for k, n in stated["other"].items()] + shared
    return ", ".join(mine), ", ".join(theirs)


def partner_context(partner, obs, on_table) -> dict:
    """The prompt's context for one move of the partner: its priorities, the offer on the
    table (an option id), what it offered before, the time left, and every outcome as an
    option with its points for it (best first; equal points in the stand-in's own order)."""
    ranked = sorted(partner.ranked_outcomes(), key=lambda pair: -pair[1])  # (stable: ties keep pick's order)
    ids = {o: k for k, (o, _) in enumerate(ranked)}
    options = []
    for k, (o, points) in enumerate(ranked):
        mine, theirs = option_text(partner.domain, o, partner.role)
        options.append({"id": k, "you_get": mine, "they_get": theirs, "your_points": points})
    table = None
    if on_table is not None:
        table = {"option": ids.get(tuple(on_table)), "your_points": partner.own_score(on_table)}
    return dict(your_priorities=list(partner.order), your_best_points=partner.max,
                offer_on_table=table, your_previous_offers=[partner.own_score(o) for o in partner.my_offers],
                rounds_left=obs.rounds_left, deadline_notice=bool(obs.deadline_warned), options=options)


class PartnerTask(Task):
    # prompt: ASTRA 3.2 ("The partner agent is primarily powered by GPT-4o"), sec. 5 ("an LLM-based
    # Partner Agent operating solely on an instructional negotiation prompt"; the paper prints no prompt
    # text), Appendix C (CaSiNo: campsite neighbours split food, water and firewood packages; each
    # item's priority is worth 5/4/3 points; each side maximises its own points), Table 9 (the partner's
    # errors -- quantities beyond what exists, accepting less than its own offers -- which the options
    # list and the check rule out)
    id = "astra.partner"
    instructions = (
        "You are one side of a bargaining dialogue, splitting a set of items with the other side; each "
        "item you get is worth points to you, more for the items you rank higher ('your_priorities', most "
        "important first), and your aim is as many points for yourself as you can get in a deal. "
        "'offer_on_table' is the other side's latest offer (an option id and your points in it; null when "
        "there is none); 'your_previous_offers' are the points your own earlier offers gave you; "
        "'rounds_left' counts the rounds before the negotiation ends without a deal (a deal of zero points "
        "for both); 'options' lists every possible split with what each side gets and your points. Either "
        "accept the offer on the table or make an offer of your own by choosing one option.")
    question = "Do you accept the offer on the table, or which option do you offer?"
    answer_format = ('one JSON object and nothing else: {"move": "accept" or "offer", "option": <id of the option '
                     'you offer> or null when you accept}')
    example = '{"move": "offer", "option": 99}'
    fields = ("your_priorities", "your_best_points", "offer_on_table", "your_previous_offers", "rounds_left",
              "deadline_notice", "options")
    #: the answer names one option of a long list: room for a wordy model's JSON
    max_tokens = 64

    def answer_schema(self, context) -> dict:
        moves = ["accept", "offer"] if context.get("offer_on_table") else ["offer"]
        n = len(context["options"])
        return schema.obj({"move": schema.enum(moves),
                           "option": {"anyOf": [schema.integer(0, max(0, n - 1)), {"type": "null"}]}},
                          title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        """The default Partner-Base stand-in's move (:data:`MOCK_PARTNER`), from the context:
        its target after the offers it made, its accept level, the lowest option at the target."""

        p = PARTNER_PARAMS[MOCK_PARTNER]
        best = context["your_best_points"]
        target = p.open_share * best
        for n in range(1, len(context["your_previous_offers"]) + 1):  # (as Partner._concede, offer by offer)
            if n % p.concede_every == 0:
                target = max(p.floor_share * best, target - p.step)
        table = context.get("offer_on_table")
        if table:
            share = (p.deadline_share if p.deadline_share is not None else p.floor_share)
            level = share * best if context["deadline_notice"] else target - p.accept_slack
            if table["your_points"] >= level - 1e-9:
                return json.dumps({"move": "accept", "option": None})
        reach = [o for o in context["options"] if o["your_points"] >= target - 1e-9]
        low = min((o["your_points"] for o in reach), default=None)
        pick = next((o for o in reach if o["your_points"] == low), context["options"][0])
        return json.dumps({"move": "offer", "option": pick["id"]})

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if not isinstance(data, dict):
            raise ParseError(self.id, "the answer must be a JSON object", text)
        move = data.get("move")
        if move not in ("accept", "offer"):
            raise ParseError(self.id, "'move' must be \"accept\" or \"offer\"", text)
        option = data.get("option")
        if move == "offer" and (isinstance(option, bool) or not isinstance(option, int)):
            raise ParseError(self.id, "an offer needs 'option', the id of one listed option", text)
        return {"move": move, "option": option if move == "offer" else None}

    def check(self, answer: dict, context, text: str) -> dict:
        """Legal: accepting needs an offer on the table; an offer is one of the listed options."""
        if answer["move"] == "accept":
            if not context.get("offer_on_table"):
                raise ParseError(self.id, "there is no offer on the table to accept", text)
            return answer
        checks.whole(self.id, "option", answer["option"], text, 0, len(context["options"]) - 1)
        return answer

    def examples(self, rng):

        d = load_domain("casino-v1")
        pv = d.setup("integrative").partners[0]
        out = []
        for offers, table, warned in (((), None, False), ((d.outcomes[10],), d.outcomes[40], False),
                                      ((d.outcomes[10], d.outcomes[11]), d.outcomes[3], True)):
            partner = make_partner(MOCK_PARTNER, d, pv, None, None)
            partner.my_offers = list(offers)
            obs = SimpleNamespace(rounds_left=5, deadline_warned=warned)
            out.append(partner_context(partner, obs, table))
        return out

    def expected(self, context):
        return json.loads(self.mock_answer(context, None, {}))


PARTNER = register_task(PartnerTask())


@attrs.define
class PartnerRole:
    """The astra.partner role on a backend: one ask per move (the paper's partner answers
    once per turn); an unreadable or illegal answer falls back, counted, to the rule's move."""

    client: Any
    rng: Any
    #: the decision notes (:mod:`mockllm.exchanges`) not yet taken, when the client keeps a record
    notes: list = attrs.field(factory=list)

    def choose(self, partner, obs, on_table, stand_in):
        """The outcome to offer, or None to accept the offer on the table; ``stand_in`` is the
        rule's (None: accept)."""
        context = partner_context(partner, obs, on_table)
        fallback = {"move": "accept", "option": None} if stand_in is None else None
        got = self.client.ask(PARTNER, self.rng, fallback=lambda: fallback, **context)
        ranked = sorted(partner.ranked_outcomes(), key=lambda pair: -pair[1])
        if exchanges.recording(self.client):
            asks = exchanges.take(self.client)
            rule_move = ({"move": "accept", "option": None} if stand_in is None else
                         {"move": "offer", "option": next((k for k, (o, _) in enumerate(ranked) if o == stand_in), None)})
            made = exchanges.note(asks, decision=got if got is not None else rule_move, stand_in=rule_move,
                                  fallback=bool(asks) and asks[-1]["fallback"])
            if made is not None:
                self.notes.append(made)
        if got is None:  # (the rule's offer)
            return stand_in
        if got["move"] == "accept":
            return None
        return ranked[got["option"]][0]


__all__ = ["TACTIC", "TacticTask", "TacticRole", "majority", "ranking", "tactic_context", "SAMPLES",
           "TEMPERATURE", "PARTNER", "PartnerTask", "PartnerRole", "partner_context", "option_text"]
