"""The scorable game's negotiator played by a model (``scorable.negotiator``).

The seed's Base-LLM is "the original implementation where agents negotiate based on prompts
without explicit preference estimation" (sec. 4.1): the agents of Abdelnabi et al. 2024, whose
every proposal an LLM writes with no rule behind it.  simcore's stand-in is the negotiator of
:mod:`policies.scorable`.  With ``--role scorable.negotiator=BACKEND`` every proposal of a
party *that does not estimate* (every party of Base-LLM; every party but p1 in the "p1"
configurations) is asked through :data:`NEGOTIATOR`, while the protocol (turn order, p1's
opening and final proposal, the pass rule), the words and the estimators stay as they are:

* the answer is a deal: one option id per issue, each among that issue's options (the schema's
  enums), so every readable answer is a legal deal -- no list of 720 deals is needed;
* an answer still unreadable after the client's repairs is a counted fallback to the stand-in's
  proposal; the mock answers with the default stand-in's proposal (``scorable-v1``'s settings:
  aspiration from the best own score down to the threshold, any deal, the echo of each party's
  deals, the ``share`` rule at 0.5), recomputed from the prompt's context alone.

Prompt: the benchmark's round prompt for a cooperative party (Abdelnabi et al. 2024, the
public code's rounds.py: think about what the others may prefer, then propose one deal that
balances your score against accommodating the others and is likely to reach agreement; an
agreement matters as long as your minimum score is met; the veto holders' approval is
crucial) with the party's own scores and minimum (its confidential information there), the
parties and veto holders, the deals proposed so far by whom, and -- for p1's last turn -- that
this proposal decides the session (the seed's sec. 2 "determined by the deal d_t in the final
round").  The benchmark's scratchpad and the words are not asked: the words stay the
``scorable-speak`` task's.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import numpy as np

from mockllm import checks, exchanges, schema
from mockllm.tasks import Task, register_task
from policies.scorable import aspiration, choose_deal, echo_estimate
from scenarios.scorable import deal_cells
from simcore.errors import ParseError
from simcore.transcript import MODEL_DECISIONS

#: the stand-in the mock plays: scorable-v1's settings (policies.scorable; simcore.protocols.scorable.Settings)
MOCK_SHARE = 0.5


class NegotiatorTask(Task):
    # prompt: the benchmark's cooperative round prompt (Abdelnabi et al. 2024, rounds.py), the seed's
    # sec. 2 (p1's final deal decides the session; at least N-1 parties including every veto holder)
    id = "scorable.negotiator"
    instructions = (
        "You are one party in a multi-party negotiation over several issues; a deal picks one option of "
        "every issue. 'your_scores' gives your private score for each option (a deal's score to you is the "
        "sum over its options); you cannot accept a deal scoring below 'your_minimum', and any deal at or "
        "above it is better for you than no deal. A deal passes when at least all parties but one accept "
        "it, the 'veto_holders' among them, and the other parties have private scores of their own. "
        "'proposals' are the deals proposed so far, in order, with who proposed each; 'deal_on_table' is "
        "the latest. Think about what the others may prefer from what they proposed, then propose one deal "
        "that balances your own score against accommodating the others and is likely to reach agreement. "
        "When 'final' is true, yours is the last proposal: the negotiation succeeds only if it passes.")
    question = "Which deal do you propose?"
    answer_format = 'one JSON object and nothing else, mapping every issue to one of its option ids'
    fields = ("you", "parties", "veto_holders", "your_scores", "your_minimum", "turn", "last_turn", "final",
              "deal_on_table", "proposals")

    example = '{"A": "A2", "B": "B1", "C": "C3", "D": "D2", "E": "E4"}'

    def answer_schema(self, context) -> dict:
        return schema.obj({issue: schema.enum(list(scores)) for issue, scores in context["your_scores"].items()},
                          title=self.id)

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if isinstance(data, dict) and isinstance(data.get("deal"), dict):  # a wrapped deal is read too
            data = data["deal"]
        if not isinstance(data, dict):
            raise ParseError(self.id, "the answer must be a JSON object mapping every issue to an option id", text)
        if not all(isinstance(v, str) for v in data.values()):
            raise ParseError(self.id, "every option must be an option id such as \"A2\"", text)
        return {str(k).strip(): v.strip() for k, v in data.items()}

    def check(self, answer: dict, context, text: str) -> dict:
        """Legal: exactly the context's issues, each with one of its own options."""
        issues = tuple(context["your_scores"])
        extra = sorted(set(answer) - set(issues))
        if extra:
            raise ParseError(self.id, f"unknown issue(s) {', '.join(extra)}; the issues are {', '.join(issues)}",
                             text)
        for issue in issues:
            if issue not in answer:
                raise ParseError(self.id, f"issue {issue} has no option; every issue needs one", text)
            checks.one_of(self.id, issue, answer[issue], tuple(context["your_scores"][issue]), text)
        return {issue: answer[issue] for issue in issues}

    def mock_answer(self, context, rng, options) -> str:
        """The default stand-in's proposal, from the context alone (see the module docstring)."""
        return json.dumps(stand_in_proposal(context))

    def examples(self, rng):
        scores = {"A": {"A1": 14, "A2": 8, "A3": 0}, "B": {"B1": 11, "B2": 7, "B3": 0},
                  "C": {"C1": 0, "C2": 5, "C3": 10, "C4": 17}, "D": {"D1": 35, "D2": 29, "D3": 20, "D4": 0},
                  "E": {"E1": 0, "E2": 5, "E3": 10, "E4": 15, "E5": 23}}
        base = dict(you="SportCo", parties=["SportCo", "DoT", "Env", "Uni", "Cit", "May"],
                    veto_holders=["SportCo", "DoT"], your_scores=scores, your_minimum=53, last_turn=25)
        opening = {"by": "SportCo", "deal": ["A1", "B1", "C4", "D1", "E5"]}
        return [dict(base, turn=2, final=False, deal_on_table=opening["deal"],
                     proposals=[opening, {"by": "Cit", "deal": ["A3", "B1", "C1", "D4", "E1"]}]),
                dict(base, turn=25, final=True, deal_on_table=["A3", "B3", "C1", "D1", "E3"],
                     proposals=[opening, {"by": "Env", "deal": ["A3", "B3", "C1", "D1", "E3"]},
                                {"by": "DoT", "deal": ["A3", "B3", "C4", "D3", "E3"]}])]

    def expected(self, context):
        return stand_in_proposal(context)


NEGOTIATOR = register_task(NegotiatorTask())


@attrs.frozen
class _Shape:
    """What :func:`policies.scorable.choose_deal` reads of a game, built from a prompt's context:
    the deal space, the speaker's own scores and minimum, who holds a veto (the other parties'
    tables are not in the context and are not read)."""

    option_counts: tuple
    deals: np.ndarray
    deal_scores: dict
    parties: tuple
    deal_cells: np.ndarray

    @property
    def n_issues(self) -> int:
        return len(self.option_counts)

    @property
    def n_deals(self) -> int:
        return len(self.deals)

    @property
    def n_parties(self) -> int:
        return len(self.parties)


@attrs.frozen
class _Party:
    threshold: float
    veto: bool
    best: float = 0.0


def stand_in_proposal(context) -> dict:
    """scorable-v1's proposal for the context's speaker (policies.scorable: aspiration from the
    best own score at turn 0 to the minimum at the last turn, any deal, the echo of each other
    party's deals, each predicted to accept the best half of the deals by it)."""

    issues = list(context["your_scores"])
    ids = [list(context["your_scores"][i]) for i in issues]
    own = [np.asarray([float(context["your_scores"][i][o]) for o in ids[m]]) for m, i in enumerate(issues)]
    counts = tuple(len(x) for x in ids)
    grid = np.array(np.meshgrid(*[np.arange(k) for k in counts], indexing="ij")).reshape(len(counts), -1).T
    names = list(context["parties"])
    me = names.index(context["you"])
    scores = sum(own[m][grid[:, m]] for m in range(len(counts)))
    best = float(sum(row.max() for row in own))
    parties = tuple(_Party(float(context["your_minimum"]) if j == me else 0.0, name in context["veto_holders"],
                           best if j == me else 0.0) for j, name in enumerate(names))
    shape = _Shape(counts, grid, {me: scores}, parties, deal_cells(counts))
    level = aspiration(shape, me, int(context["turn"]), int(context["last_turn"]))
    by = {j: [tuple(ids[m].index(code) for m, code in enumerate(p["deal"])) for p in context["proposals"]
              if p["by"] == name] for j, name in enumerate(names)}
    estimates = {j: echo_estimate(shape, by[j]) for j in range(len(names)) if j != me}
    deal, _info = choose_deal(shape, me, level, estimates, rule="share", assumed_share=MOCK_SHARE)
    return {issue: ids[m][o] for m, (issue, o) in enumerate(zip(issues, deal))}


def negotiator_context(game, party: int, turn: int, last_turn: int, history, speakers) -> dict:
    """The prompt's context for ``party``'s proposal at ``turn`` (``history``: the deals so far,
    ``speakers``: who proposed each)."""
    shorts = [p.short for p in game.parties]
    scores = {iss.name: {iss.option_id(o): _number(s) for o, s in enumerate(row)}
              for iss, row in zip(game.issues, game.parties[party].scores)}
    proposals = [{"by": shorts[s], "deal": list(game.deal_ids(d))} for s, d in zip(speakers, history)]
    return dict(you=shorts[party], parties=shorts, veto_holders=[shorts[j] for j, p in enumerate(game.parties) if p.veto],
                your_scores=scores, your_minimum=_number(game.parties[party].threshold), turn=turn,
                last_turn=last_turn, final=turn == last_turn, deal_on_table=proposals[-1]["deal"],
                proposals=proposals)


def _number(x: float):
    x = float(x)
    return int(x) if x.is_integer() else x


@attrs.define
class NegotiatorRole:
    """The negotiator of the parties that do not estimate, asked of a backend (``client``,
    ``rng`` the role's own generator); the stand-in's proposal is the fallback."""

    client: Any
    rng: Any
    game: Any

    def propose(self, party: int, turn: int, rule: tuple, info: dict, history) -> tuple[tuple, dict]:
        """``party``'s proposal at ``turn`` and its notes: the model's answer, or the stand-in's
        proposal ``rule`` (with its notes ``info``) when the answer falls back or is the same
        deal.  ``history``: the public turns so far (each with ``party`` and ``deal``)."""
        context = negotiator_context(self.game, party, turn, self.game.turns + 1, [h.deal for h in history],
                                     [h.party for h in history])
        got = self.client.ask(NEGOTIATOR, self.rng, fallback=lambda: None, **context)
        rule_ids = list(self.game.deal_ids(rule))
        if got is None:  # (a counted fallback: the stand-in's proposal)
            return rule, self._noted(info, rule_ids, rule_ids, True)
        deal = tuple(int(got[iss.name][len(iss.name):]) - 1 for iss in self.game.issues)
        if deal == tuple(rule):  # (the stand-in's own move: its record unchanged)
            return rule, self._noted(info, rule_ids, rule_ids, False)
        made = {"aspiration": info["aspiration"], "own_score": float(self.game.score(party, deal)),
                "played_by": "model", "stand_in_deal": rule_ids}
        return deal, self._noted(made, list(self.game.deal_ids(deal)), rule_ids, False)

    def _noted(self, info: dict, decision: list, stand_in: list, fell: bool) -> dict:
        """``info`` with the decision's exchange (:mod:`mockllm.exchanges`) when the client
        keeps a record of its asks (the report's step-through shows it)."""
        if not exchanges.recording(self.client):
            return info
        made = exchanges.note(exchanges.take(self.client), decision=decision, stand_in=stand_in, fallback=fell)
        return dict(info, **{MODEL_DECISIONS: [made]}) if made else info


__all__ = ["NEGOTIATOR", "NegotiatorTask", "NegotiatorRole", "negotiator_context", "stand_in_proposal"]
