"""The partners ASTRA was tested against, and the agent without ASTRA.

Every partner scores outcomes with its own values only (it does not model the
agent), greets on its first turn, answers a preference question truthfully through
the ``astra.answer`` task (the mock may answer unclearly), and otherwise accepts or
counter-offers.  Offers are chosen from the domain's outcome space by a target
("aspiration") level on the partner's own score:

    offer = the outcome with the lowest own score >= target; ties: the one giving
            the other side the most integer units, then enumeration order

| partner | opening target | concession | accepts an agent offer when own score >= | source |
|---|---|---|---|---|
| ``base`` (``base-partner-v1``) | ``open_share`` (0.85) x max | ``step`` (1 point) every ``concede_every`` (2) own offers, down to ``floor_share`` (0.5) x max; never states the same one-sided offer (own score >= ``one_sided_share`` 0.75 x max) more than ``repeat_limit`` (2) times in a row -- the third time its target drops below that offer | its current target; after the deadline notice, its floor (0.5 x max) | choice: simcore's first stand-in for the paper's GPT-4o "Partner-Base" (Table 1), set before the paper's transcripts were read (opens high, concedes slowly, settles at half its maximum near the deadline); against itself it reaches no deal on CaSiNo, where humans reach one in 97.6% of dialogues. Kept as the tough member of the partner family |
| ``base-transcripts`` (``base-partner-v2``, the default) | ``open_share`` 20/36 of max | 1 point after every own offer, down to 15/36 of max | its current target; after the deadline notice, its floor | built from the GPT-4o partner's own turns in the paper's transcripts (Table 7, Figures 10-11, Table 9; docs/systems/astra.md "The partner stand-in"): openings 21, 19, 19, 26 (median 20 of 36); 9 points conceded over 8 further offers (about 1 per offer); lowest offers 18, 17, 15 (floor 15); Table 7's acceptance of 19 after its own 18 |
| ``base-firm`` (``base-partner-firm-v1``) | 26/36 | 1 point every 2 own offers, down to 18/36 | as base | the same transcripts read toward toughness: Table 9's opening 26, Table 7's holding its offer between concessions, its lowest offer 18 |
| ``base-human`` (``base-partner-human-v1``) | 23/36 | 1 point after every own offer, down to 16/36 | as base | CaSiNo's human negotiators (Chawla et al. 2021, 1,005 agreed dialogues): the 90th and 10th percentiles of the points a participant took in a deal |
| ``base-soft`` (``base-partner-soft-v1``) | 18/36 (the even split) | 1 point after every own offer, down to 14/36 | as base | the soft end of the range: opens at the even split; floor at CaSiNo's 5th percentile of deal points |
| ``greedy`` | max | 1 point every 3 offers, floor 0.75 x max | its target; after the deadline notice 0.6 x max | choice: stand-in for Table 1 "Partner-Greedy" (a personality prompt) |
| ``fair`` | 0.5 x max (its perceived fair split), never moves | none | 0.5 x max - 1 | choice: stand-in for Table 1 "Partner-Fair"; 4.1 "even fair-oriented agents strictly adhering to their perceived fair deal" |
| ``boulware`` | max | time-based aspiration ``u(t) = u_max - (u_max - u_res) * t**e``, ``t = (round-1)/(round_limit-1)``, ``e = 4`` (NegMAS "boulware"; Faratin's beta = 1/e) | ``u(t)`` | not in the paper: a classic time-dependent tactic (Faratin et al. 1998) added for comparison |
| ``conceder`` | max | the same with ``e = 0.25`` | ``u(t)`` | idem |

Every value in this table is a ``PartnerParams`` field and is listed with its default in the
partner's registry entry (``base-partner-v1`` ...).
``u_res`` is the domain's BATNA.  The partners with personality (base, greedy, fair)
say which item matters most to them with their first offer; the time-based ones do
not talk about preferences.  None of them walks away.

The agent without ASTRA (:class:`NoAstraAgent`) keeps every module of the ASTRA
agent (asking, preference updater, consistency checker, accept and walk-away rules)
and replaces stages 1-3 by a fixed heuristic: its first offer is the best outcome for
itself that leaves the partner (IPP) at least the LP floor; each later offer targets
``step`` (2) points less for itself, down to ``floor_share`` (0.5) of its maximum, and
among outcomes at or below the target takes the one with the highest agent score,
then the highest partner score under the IPP.
"""

from __future__ import annotations

import functools
import statistics
from bisect import bisect_left
from collections.abc import Mapping
from typing import Optional

import attrs

from mockllm import astra as lang
from policies.astra import AgentParams, AstraAgent, speak
from simcore import caches
from simcore.protocols.alternating import _NOTHING, Action, Observation
from simcore.transcript import MODEL_DECISIONS


@attrs.frozen
class PartnerParams:
    kind: str = attrs.field(default="base", metadata={"source": "Table 1's partners base, greedy, fair (GPT-4o with a personality prompt; simcore's rule-based stand-ins); boulware, conceder: not in the paper, Faratin et al. 1998 time-dependent tactics added for comparison"})
    open_share: float = attrs.field(default=0.85, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): opening target as a share of its maximum (base 0.85, greedy 1.0; fair 0.5 = its perceived fair split, 4.1)"})
    step: float = attrs.field(default=1.0, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): points its target drops per concession"})
    concede_every: int = attrs.field(default=2, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): own offers per concession (base 2, greedy 3)"})
    floor_share: float = attrs.field(default=0.5, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): lowest target as a share of its maximum (base settles at half; greedy 0.75)"})
    # acceptance level after the deadline notice (None: floor)
    deadline_share: Optional[float] = attrs.field(default=None, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): accept level after the deadline notice as a share of its maximum (None: its floor)"})
    # one-sided offers repeated at most this many times
    repeat_limit: Optional[int] = attrs.field(default=2, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): the same one-sided offer is stated at most this many times in a row (None: no limit)"})
    one_sided_share: float = attrs.field(default=0.75, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): an offer worth >= this share of its maximum to itself is one-sided (for repeat_limit)"})
    fixed: bool = attrs.field(default=False, metadata={"source": "4.1 'even fair-oriented agents strictly adhering to their perceived fair deal': the fair partner never moves (True)"})
    accept_slack: float = attrs.field(default=0.0, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): accepts this many points below its target (fair: 1)"})
    # time-based partners
    exponent: Optional[float] = attrs.field(default=None, metadata={"source": "choice, not in the paper: time-based aspiration u(t) = u_max - (u_max - u_res) t**e (Faratin et al. 1998; NegMAS boulware 4, conceder 0.25); None for Table 1's partners"})
    mention: bool = attrs.field(default=True, metadata={"source": "choice (stand-in for Table 1's GPT-4o partner; the paper gives no numbers): names its top item with its first offer (base, greedy, fair); the time-based partners do not talk about preferences"})


#: the GPT-4o partner's own behaviour in the paper's transcripts (points of 36, CaSiNo): openings
#: (Table 7, Fig. 10, Fig. 11, Table 9), lowest offers, and points conceded / further offers made
#: Table 7: 21, 21, 20, 18 (then accepts 19); Fig. 10: 19, 17; Fig. 11: 19, 19, 19, 15, 15; Table 9: opens
#: 26, then offers itself 17 -- that drop is the "preference inconsistency" Table 9 lists as an error,
#: so Table 9 gives an opening only
TRANSCRIPT_OPENINGS = (21, 19, 19, 26)
TRANSCRIPT_LOWEST = (18, 17, 15)
TRANSCRIPT_CONCESSIONS = (3, 2, 4)
TRANSCRIPT_FURTHER_OFFERS = (3, 1, 4)
#: CaSiNo (Chawla et al. 2021): 1,005 of 1,030 dialogues end in a deal; points a participant took in a
#: deal: 5th, 10th, 50th, 90th percentiles and mean
CASINO_DEAL_RATE = 1005 / 1030
CASINO_DEAL_POINTS = {"p5": 14.0, "p10": 16.0, "p50": 19.0, "p90": 23.0, "mean": 18.98}
_CASINO_MAX = 36.0

PARTNER_PARAMS = {
    "base": PartnerParams("base"),
    "base-transcripts": PartnerParams(
        "base-transcripts", open_share=statistics.median(TRANSCRIPT_OPENINGS) / _CASINO_MAX,
        step=float(round(sum(TRANSCRIPT_CONCESSIONS) / sum(TRANSCRIPT_FURTHER_OFFERS))), concede_every=1,
        floor_share=min(TRANSCRIPT_LOWEST) / _CASINO_MAX, repeat_limit=None),
    "base-firm": PartnerParams("base-firm", open_share=26 / _CASINO_MAX, step=1.0, concede_every=2,
                               floor_share=18 / _CASINO_MAX, repeat_limit=None),
    "base-human": PartnerParams("base-human", open_share=CASINO_DEAL_POINTS["p90"] / _CASINO_MAX, step=1.0,
                                concede_every=1, floor_share=CASINO_DEAL_POINTS["p10"] / _CASINO_MAX,
                                repeat_limit=None),
    "base-soft": PartnerParams("base-soft", open_share=0.5, step=1.0, concede_every=1,
                               floor_share=CASINO_DEAL_POINTS["p5"] / _CASINO_MAX, repeat_limit=None),
    "greedy": PartnerParams("greedy", open_share=1.0, step=1.0, concede_every=3, floor_share=0.75,
                            deadline_share=0.6, repeat_limit=None),
    "fair": PartnerParams("fair", open_share=0.5, step=0.0, floor_share=0.5, repeat_limit=None, fixed=True,
                          accept_slack=1.0),
    "boulware": PartnerParams("boulware", open_share=1.0, exponent=4.0, repeat_limit=None, mention=False),
    "conceder": PartnerParams("conceder", open_share=1.0, exponent=0.25, repeat_limit=None, mention=False),
}


_RANKED: dict = caches.memo("policies.partners: each side's ranking of a domain's outcomes")  # pure data

_OFFER_KEYS = ("mode", "target")
#: an Action from its fields in order (the named tuple's ``_make``: one tuple in, no argument parsing)
_action = Action._make


class OfferIntent(Mapping):
    """The intent of an offer move: ``{"mode": "offer", "target": the target it offered at,
    rounded to 4 places}``, read from the target when it is read (the transcript reads it
    when its events are made; a negotiation nobody reads never rounds its targets)."""

    __slots__ = ("target",)

    def __init__(self, target: float):
        self.target = target

    def __getitem__(self, key: str):
        if key == "mode":
            return "offer"
        if key == "target":
            return round(self.target, 4)
        raise KeyError(key)

    def __iter__(self):
        return iter(_OFFER_KEYS)

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return repr(dict(self))


class Partner:
    """A rule-based partner (see the module docstring for the rules)."""

    def __init__(self, domain, values, client, rng, params: PartnerParams = PartnerParams(), side: str = "partner"):
        if side not in ("agent", "partner"):
            raise ValueError(f"side must be 'agent' or 'partner', got {side!r}")
        self.domain, self.values, self.client, self.rng, self.p = domain, values, client, rng, params
        self.role, self.other = side, ("partner" if side == "agent" else "agent")
        self.order = domain.order_of(values)
        self.scores = domain.scores(values, side)  # own score of every outcome, in domain.outcomes order
        self._own = domain.score_table(values, side)  # {outcome: own score}, shared per domain
        self.max = max(self.scores)
        self.min_res = float(domain.batna)
        self.target = params.open_share * self.max
        self.my_offers: list[tuple] = []
        self.greeted = False
        self._ranked = None
        self._concedes = not params.fixed and params.exponent is None  # (the time-based and the fixed never do)
        #: the astra.partner role on a backend (a :class:`simcore.systems.astra.model_roles.PartnerRole`, set by the
        #: study for ``--role astra.partner=...``); None: the rule decides every move
        self.move_role = None

    # --- targets -----------------------------------------------------------
    def aspiration(self, obs: Observation) -> float:
        return self._aspiration(obs.round, obs.round_limit)

    def _aspiration(self, rnd: int, round_limit: int) -> float:
        p = self.p
        if p.exponent is not None:
            t = 0.0 if round_limit <= 1 else (rnd - 1) / (round_limit - 1)
            if not 0.0 <= t <= 1.0:  # (within the negotiation's rounds t is already in [0, 1])
                t = min(1.0, max(0.0, t))
            return self.max - (self.max - self.min_res) * (t ** p.exponent)
        return self.target

    def accept_level(self, obs: Observation, aspiration: Optional[float] = None) -> float:
        """The own score an offer must reach to be accepted (``aspiration``: this turn's
        :meth:`aspiration`, when already computed)."""
        if aspiration is None and self.p.exponent is not None:
            aspiration = self.aspiration(obs)
        return self._accept_level(obs.deadline_warned, aspiration)

    def _accept_level(self, deadline_warned: bool, aspiration: Optional[float]) -> float:
        p = self.p
        if p.exponent is not None:
            return aspiration
        if p.fixed:
            return p.open_share * self.max - p.accept_slack
        if deadline_warned:
            return (p.deadline_share if p.deadline_share is not None else p.floor_share) * self.max
        return self.target - p.accept_slack

    def pick(self, target: float) -> tuple:
        """Lowest own score >= target; ties: most units to the agent, then enumeration order."""
        ranked = self._ranked
        if ranked is None:
            ranked = self._ranking()
        scores, outs = ranked
        k = bisect_left(scores, target - 1e-9)
        if k >= len(outs):  # target above everything: the own best outcome
            return self.domain.outcomes[max(range(len(self.scores)), key=lambda i: (self.scores[i], -i))]
        return outs[k]

    def _ranking(self) -> tuple:
        """:meth:`pick`'s order of the outcomes, ``([own score], [outcome])``: own score
        ascending, ties by most units to the other side, then enumeration order (kept per
        domain, values and seat)."""
        d = self.domain
        key = (d.id, d.source, self.values, self.role)
        ranked = _RANKED.get(key)
        if ranked is None:
            # the key (own score, most units to the other side first, index), sorted stably by one part
            # at a time, the last part first; each unit of an integer issue goes to one side or the
            # other, so "most units to the other side first" is the agent's units descending from the
            # partner's seat and ascending from the agent's
            units = d.agent_units  # units of the integer issues to the agent, per outcome
            second = [-g for g in units] if self.role == "partner" else units
            order = sorted(range(len(d.outcomes)), key=second.__getitem__)
            order.sort(key=self.scores.__getitem__)
            ranked = _RANKED[key] = ([self.scores[i] for i in order], [d.outcomes[i] for i in order])
        self._ranked = ranked
        return ranked

    def own_score(self, outcome) -> float:
        """``domain.score(values, outcome, role)``, looked up in the domain's score table."""
        try:
            return self._own[outcome]
        except (KeyError, TypeError):  # not an outcome tuple of this domain: compute it
            return self.domain.score(self.values, outcome, self.role)

    def _concede(self) -> None:
        p = self.p
        if not self._concedes:
            return
        n = len(self.my_offers)
        if n and n % p.concede_every == 0:
            self.target = max(p.floor_share * self.max, self.target - p.step)

    # --- the turn ------------------------------------------------------------
    def act(self, obs: Observation) -> Action:
        """The turn: :meth:`decide` the move by the rules, then :meth:`say` it."""
        other, history = self.other, obs.history
        last = history[-1] if history else None
        if last is not None and last.speaker == other:  # (turns alternate: the latest is the other side's)
            on_table = last.offer  # (an offer it made is the one on the table)
            if on_table is None:
                table = obs.table
                on_table = table.offer if table is not None and table.speaker == other else None
        else:
            table, last = obs.table, obs.last(other)
            on_table = table.offer if table is not None and table.speaker == other else None
        question = self.question_in(last.text) if last is not None and last.kind == "talk" else None
        role = self.move_role  # the astra.partner role on a backend, the rule's move as its fallback (or None)
        if role is None:
            kind, offer, note = self.decide(obs.round, obs.round_limit, obs.deadline_warned, on_table, question)
            taken = None
        else:
            kind, offer, note = self.decide(obs.round, obs.round_limit, obs.deadline_warned, on_table, question,
                                            functools.partial(role.choose, self, obs))
            notes = getattr(role, "notes", None) if kind != "talk" else None  # (asked: decide consulted the role)
            taken = list(notes) if notes else None  # the model's exchange, for the step-through (mockllm.exchanges)
            if notes:
                notes.clear()
        text, stated = ("", None) if self.client is None else self.say(kind, offer, note)
        intent, hidden = (OfferIntent(note), _NOTHING) if kind == "offer" else self.move_notes(kind, note)
        if taken:
            hidden = {**hidden, MODEL_DECISIONS: taken}
        return _action((kind, text, stated, intent, hidden, offer))

    @staticmethod
    def question_in(text: str) -> Optional[str]:
        """The preference question the other side's talk turn ``text`` asks ("highest" or
        "lowest"), or None: the partner answers a turn that asks about a "priority?"."""
        if "priority?" in text:
            return "lowest" if "lowest" in text else "highest"
        return None

    def decide(self, rnd: int, round_limit: int, deadline_warned: bool, on_table: Optional[tuple],
               question: Optional[str] = None, choose=None) -> tuple:
        """The partner's rules (the module docstring's table): its move in round ``rnd``
        as ``(kind, outcome or None, note)`` -- ``("talk", None, None)`` the greeting,
        ``("talk", None, question)`` the answer to the other side's preference question,
        ``("accept", None, (own score, level))``, ``("offer", outcome, target)``.
        ``on_table``: the other side's offer on the table, if any; ``choose``: the
        astra.partner role's ``(on_table, the rule's offer or None) -> offer or None``
        (None: accept).  :meth:`act` then says the move (:meth:`say`)."""
        if not self.greeted:
            self.greeted = True
            return "talk", None, None
        if question is not None:
            return "talk", None, question
        target = self._aspiration(rnd, round_limit)
        p = self.p
        own = level = None
        accept = False
        if on_table is not None:
            try:
                own = self._own[on_table]
            except (KeyError, TypeError):  # (not an outcome tuple of this domain)
                own = self.own_score(on_table)
            level = target if p.exponent is not None else self._accept_level(deadline_warned, target)
            accept = own >= level - 1e-9
        if accept:
            offer = None
        else:
            offer = self.pick(target) if p.repeat_limit is None else self._counter(target)
        if choose is not None:
            offer = choose(on_table, offer)
            accept = offer is None
        if accept:
            return "accept", None, (own, level)
        self.my_offers.append(offer)
        if self._concedes:
            self._concede()
        return "offer", offer, target

    def say(self, kind: str, offer: Optional[tuple], note) -> tuple:
        """The words of a move :meth:`decide` made, through the language layer: ``(text,
        the offer as stated or None)``; without a language client no words (``("", None)``:
        the move is its decision alone, as in classic automated negotiation)."""
        if self.client is None:
            return "", None
        if kind == "talk":
            if note is None:
                return speak(self.client, self.rng, self.role, "greet")[0], None
            order = self.order
            text = self.client.ask(lang.ANSWER, self.rng,
                                   fallback=lambda: lang.ANSWER.render(note, list(order)),
                                   question=note, order=list(order))
            return text, None
        if kind == "accept":
            return speak(self.client, self.rng, self.role, "accept")[0], None
        mention = self.order[0] if self.p.mention and len(self.my_offers) == 1 else None
        return speak(self.client, self.rng, self.role, "offer", self.domain.state_offer(offer, self.role),
                     None, mention)

    def move_notes(self, kind: str, note) -> tuple[Mapping, Mapping]:
        """The intent and the hidden part of the move :meth:`decide` noted, as :meth:`act`
        gives them (an offer's intent: :class:`OfferIntent`; an answer's hidden part: the
        order it answered from, the transcript's record of what the answer meant;
        simcore.noise marks an unclear or misread answer by it)."""
        if kind == "offer":
            return OfferIntent(note), _NOTHING
        if kind == "accept":
            return {"mode": "accept", "own_score": note[0], "level": note[1]}, _NOTHING
        if note is None:
            return {"mode": "greet"}, _NOTHING
        return {"mode": "answer", "question": note}, {"order": list(self.order)}

    def _counter(self, target: float) -> tuple:
        """The rule's counter-offer at ``target`` with the one-sided repeat limit (without a
        limit: :meth:`pick`)."""
        offer = self.pick(target)
        if self.p.repeat_limit is not None and len(self.my_offers) >= self.p.repeat_limit:
            recent = self.my_offers[-self.p.repeat_limit:]
            own = self.own_score(offer)
            if all(o == offer for o in recent) and own >= self.p.one_sided_share * self.max - 1e-9:
                self.target = max(self.p.floor_share * self.max, own - self.p.step)
                if self.target < own - 1e-9:
                    offer = self.pick_below(own)
        return offer

    def ranked_outcomes(self) -> tuple:
        """Every outcome in :meth:`pick`'s order (own score ascending; ties: most units to
        the other side, then enumeration order) with its own score."""
        self.pick(self.target)  # (builds the ranking once)
        scores, outs = self._ranked
        return tuple(zip(outs, scores))

    def pick_below(self, own: float) -> tuple:
        """The best outcome for itself strictly below ``own`` (not below its floor)."""
        d = self.domain
        floor = self.p.floor_share * self.max
        best, best_key = None, None
        for i, o in enumerate(d.outcomes):
            s = self.scores[i]
            if s >= own - 1e-9 or s < floor - 1e-9:
                continue
            key = (-s, i)
            if best_key is None or key < best_key:
                best, best_key = o, key
        return best if best is not None else self.pick(self.target)


class NoAstraAgent(AstraAgent):
    """The agent without ASTRA: same modules, fixed-heuristic offers (module docstring)."""

    uses_astra = False
    #: the fixed heuristic's two choices, as ``--list-params`` shows them
    SOURCES = {
        "step": "choice: the paper's 'Ours wo/ ASTRA' (Table 1) takes its offers from the LLM alone and gives no "
                "rule; simcore's fixed heuristic lowers its target 2 points per offer",
        "floor_share": "choice (no rule in the paper for 'Ours wo/ ASTRA'): the fixed heuristic's target stops at "
                       "half its maximum",
    }

    def __init__(self, domain, client, rng, params: Optional[AgentParams] = None, values=None, step: float = 2.0,
                 floor_share: float = 0.5, **choices):
        super().__init__(domain, client, rng, params, values, **choices)
        self.step, self.floor_share = step, floor_share

    def _stage(self, obs: Observation, notes: dict) -> dict:
        d = self.domain
        space = self.space()
        feas = [i for i in range(len(space.s_a)) if space.s_p[i] >= d.min_partner - 1e-9
                and space.s_a[i] >= d.min_own - 1e-9]
        if self.my_offers:
            target = max(self.floor_share * self.max_own, self.sa(self.my_offers[-1]) - self.step)
        else:
            target = self.max_own
        if not feas:  # the floors leave nothing under the values this agent inferred: no floors
            feas = list(range(len(space.s_a)))
        pool = [i for i in feas if space.s_a[i] <= target + 1e-9] or feas
        i = max(pool, key=lambda k: (space.s_a[k], space.s_p[k], -k))
        trace = {"heuristic": "fixed concession", "target": target, "chosen": list(space.outcomes[i])}
        return {"chosen": space.outcomes[i], "chosen_sa": space.s_a[i], "tactic": None, "trace": trace,
                "trace_line": f"[no ASTRA] target {target:g} -> ({space.s_a[i]:g}: "
                              f"{d.describe_outcome(space.outcomes[i])})"}


def make_partner(kind: str, domain, values, client, rng, side: str = "partner", **overrides) -> Partner:
    """A partner of ``kind`` (base, greedy, fair, boulware, conceder) with ``PartnerParams``
    overrides.  ``side="agent"`` seats it in the agent's chair, so two partners can
    negotiate with each other (e.g. two Boulware agents on CaSiNo for 100 rounds:
    ``simcore.driver.play(AlternatingGame(round_limit=100).start(domain, values_a, values_b, run_id),
    {"agent": a, "partner": b})``)."""
    params = attrs.evolve(PARTNER_PARAMS[kind], **overrides) if overrides else PARTNER_PARAMS[kind]  # (frozen)
    return Partner(domain, values, client, rng, params, side)


make_partner.PARAMS = PartnerParams  # its keyword choices, as ``--list-params`` reads them

