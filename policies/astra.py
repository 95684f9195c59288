"""The ASTRA agent: response modes (section 2.2) and the three stages (section 2.3).

Each turn, in this order ("choice": the paper does not say; the parameter, its default and
the reason are given; every parameter is in the registry entry ``astra-agent-v4``):

| step | rule | source |
|---|---|---|
| read | every new partner utterance goes through the ``astra.read`` task; stated highest/lowest items update the preferences; a categorical option the partner proposes is taken as its favourite | 2.1 "Preference Updater: Refines IPP dynamically based on new partner utterances"; the favourite option: choice (Table 8's partner argues for its lab by proposing it) |
| check | once an IPP exists: the consistency checker (A.1); on inconsistency the IPP is re-inferred | A.1 cases 1 and 2 |
| accept | the partner's offer scores >= the agent's most recent offer (``accept_rule="paper"``), or >= the counter-offer it would make now (``"counter"``), minus ``accept_tolerance_step`` (0) x offers rejected so far | 2.2 "accepts an offer if its score meets or exceeds its most recent offer"; ``counter`` and the tolerance: the public code (options) |
| accept at the deadline | in the rounds listed in ``deadline_rounds_left`` ((1,): the agent's turn of the last round), any offer >= BATNA | choice from the public code (the paper has no deadline rule): the code sets its flag at the end of the second-to-last round, so it acts in the last round; (2,) is the reference notes' wording, (1, 2) astra-agent-v1 |
| walk away (a) | the partner made no concession (its own IPP score did not drop) in ``no_concession_turns`` (3) consecutive steps between its offers, i.e. over its last 4 offers; talk-only turns are not counted | 2.2 "makes no concessions for three consecutive turns"; counting offers, not turns: choice (a turn without an offer shows no concession either way) |
| walk away (b) | after the agent's walk-away warning, the partner offered below BATNA ``below_batna_offers`` (2) times; the warning goes with the counter to the first offer below BATNA | 2.2 "twice offers below the agent's BATNA despite a walk-away warning"; when the warning is given: choice (public code: with the counter to an offer below BATNA) |
| invite | with ``first_offer="partner"``, once the questions are done and before any offer, the agent asks the partner to propose first (once) | Figure 10 and Table 9: the partner makes the first offer; ``"agent"`` (v1-v3): Table 7's agent offers first |
| ask | while no IPP exists, ask for the highest, then the lowest priority (``questions`` = 2); then the IPP is the stated ends filled with the opposite of the agent's own order; after a case-1 inconsistency ask once to clarify (``clarify`` = 1) | 2.2 "asks about preferences. If the response is unclear, it assumes preferences opposite to its own"; Table 7 (two questions); Table 9 (the clarifying question); the counts: public code ("only ask 2 times") |
| propose | stage 1 -> stage 2 -> stage 3 | 2.3 |

Stage 1 gives fairness (eq. 1) and stance (eq. 2) of the partner's latest offer(s); lambda
comes from :data:`policies.astra_modules.LAMBDA_TABLE` (Figure 3).  S_max, the second lever
(2.3 "The agent modulates two key parameters: lambda ... and S_max"), starts at the agent's
own latest offer score (its maximum before the first offer; notes: "never exceeds the agent's
own latest offer score"); with ``smax_rule="tft"`` (default) and a generous partner it comes
down by ``floor(smax_share x the partner's concession)`` points (``smax_share`` 0.5: a choice;
the paper gives no formula, and 0.5 agrees with both traces that show S_max after a generous
move -- Table 7 keeps 30 after a 1-point concession, Table 8 goes from 25 to 23 after a
4.4-point one; 1.0 would mirror the concession in full); ``"hold"`` (astra-agent-v1) never
lowers it.  Stage 2 is :func:`policies.lp.sweep`.  Stage 3 ranks the candidates by the tactic
chosen from Table 5 (SA), scores them with the virtual partner (PAP; SI toward the partner's
ideal, ``si_target``) and takes the highest ``alpha * PAP + beta * SA`` (ties: the earlier
candidate, i.e. higher agent score).  Each offer carries a trace (``hidden["trace"]``) like the
paper's Table 7.
"""

from __future__ import annotations

import math
from typing import Optional

import attrs

from mockllm import astra as lang
from policies import astra_modules as M
from policies.lp import Space, make_solver, sweep
from simcore.protocols.alternating import Action, Observation
from simcore.transcript import MODEL_DECISIONS

NO_CUES = {"highest": None, "lowest": None}


def _rounds_left(value) -> tuple:
    value = tuple(sorted({int(v) for v in value}))
    if any(v < 1 for v in value):
        raise ValueError(f"deadline_rounds_left: rounds left count from 1 (the last round), got {value}")
    return value


@attrs.frozen
class AgentParams:
    alpha: float = attrs.field(default=0.35, metadata={"source": "eq. 4 / Table 4: Final = alpha PAP + beta SA, alpha = 0.35 (the pair the paper selects)"})
    beta: float = attrs.field(default=0.65, metadata={"source": "eq. 4 / Table 4: Final = alpha PAP + beta SA, beta = 0.65"})
    w: float = attrs.field(default=0.75, metadata={"source": "2.3 PAP = w TS + (1 - w) SI; A.4 'we selected weights of 0.75 (w) for TS' (the public code: 0.7)"})
    top_n: int = attrs.field(default=5, metadata={"source": "choice: 2.3 'selects the top N offers by score' gives no N; 5 = the public code (Table 7 shows 5 candidates, Table 8 shows 7)"})
    window: float = attrs.field(default=0.3, metadata={"source": "2.3 'lambda is sampled within +-0.3 of the agent-determined value in 0.1 increments'"})
    bound_span: int = attrs.field(default=10, metadata={"source": "2.3 'S_max is explored in 1-point decrements down to 10 points lower' (the public code: 6)"})
    solver: str = attrs.field(default="exact", metadata={"source": "choice, same outcomes: 'exact' enumerates the outcome space, 'pulp' solves Figure 8's program with PuLP through the HiGHS solver (highspy; CBC where PuLP bundles it); both apply one tie-break (policies/lp.py)"})
    questions: int = attrs.field(default=2, metadata={"source": "2.2 'asks about preferences. If the response is unclear, it assumes preferences opposite to its own'; Table 7 (highest, then lowest); the count: the public code ('only ask 2 times')"})
    clarify: int = attrs.field(default=1, metadata={"source": "A.1 / Table 9: the clarifying question after a case-1 inconsistency; asked once: the public code's count"})
    accept_rule: str = attrs.field(default="paper", validator=attrs.validators.in_(("paper", "counter")), metadata={"source": "2.2 'accepts an offer if its score meets or exceeds its most recent offer' (paper); counter (>= the counter-offer it would make now): the public code, option"})
    accept_tolerance_step: float = attrs.field(default=0.0, metadata={"source": "choice, off (0): the paper has no tolerance; the public code lowers the accept level by a step per rejected offer (option)"})
    no_concession_turns: int = attrs.field(default=3, metadata={"source": "2.2 walk away when the partner 'makes no concessions for three consecutive turns'; counted between its offers: choice (a talk-only turn shows no concession either way)"})
    below_batna_offers: int = attrs.field(default=2, metadata={"source": "2.2 walk away when the partner 'twice offers below the agent's BATNA despite a walk-away warning'"})
    # the rounds (counted as rounds left including the current one; 1 = the last round) in which
    # any partner offer >= BATNA is accepted.  Public code: only the agent's turn of the last
    # round (the flag set at the end of the second-to-last round); astra-agent-v1: (1, 2).
    deadline_rounds_left: tuple = attrs.field(default=(1,), converter=_rounds_left, metadata={"source": "choice from the public code (the paper has no deadline rule): its flag is set at the end of the second-to-last round, so any offer >= BATNA is accepted in the last round (1,); (2,) the reference notes' wording; (1, 2) astra-agent-v1"})
    # PAP's SI measured toward the partner's ideal ("partner", section 2.3 / Table 7) or toward
    # the agent's own ideal reachable outcome ("agent", astra-agent-v1).
    si_target: str = attrs.field(default="partner", validator=attrs.validators.in_(("partner", "agent")), metadata={"source": "2.3 the Virtual Partner Agent scores SI 'toward the ideal outcome' (the partner's); Table 7: SI rises as the agent concedes; agent = astra-agent-v1"})
    # the second tit-for-tat lever (section 2.3: the agent "modulates two key parameters: lambda
    # ... and S_max"): "tft" lowers S_max below the agent's latest offer by ``smax_share`` x the
    # partner's concession when its stance is generous; "hold" keeps S_max = the latest offer.
    smax_rule: str = attrs.field(default="tft", validator=attrs.validators.in_(("tft", "hold")), metadata={"source": "2.3 'The agent modulates two key parameters: lambda ... and S_max': tft lowers S_max after a generous move; hold (never lowered) = astra-agent-v1"})
    smax_share: float = attrs.field(default=0.5, validator=attrs.validators.ge(0.0), metadata={"source": "choice: 2.3 gives no formula for lowering S_max; S_max drops by floor(0.5 x the partner's concession), which agrees with Table 7 (30 kept after 1 point) and Table 8 (25 -> 23 after 4.4 points); 1.0 mirrors it in full"})
    # the stance after exactly one partner offer: "neutral" (Table 7 labels the partner's first
    # offer "Neu."; eq. 2 needs two offers) or "unknown" (astra-agent-v1)
    first_offer_stance: str = attrs.field(default="neutral", validator=attrs.validators.in_(("neutral", "unknown")), metadata={"source": "Table 7 labels the stance after the partner's first offer 'Neu.' (eq. 2 needs two offers); unknown = astra-agent-v1"})
    # lambda by stance x fairness: rows (stance, fair, unfair, unknown); Figure 3 / section 4.2
    lambda_table: tuple = attrs.field(default=M.LAMBDA_ROWS, converter=lambda rows: tuple(tuple(r) for r in rows), metadata={"source": "4.2 / Figure 3: lambda greedy 'around 0.9', neutral 'around 0.5', generous 'around 0.3'; Table 7 prints lambda=0.3 for 'unfair, generous' (fairness does not shift it); the unknown-stance row (0.6 / 0.7): choice, the paper gives no value before the partner's first offer; rows (stance, fair, unfair, unknown)"})
    # who makes the first offer: "partner" (astra-agent-v4) -- once its questions are answered the
    # agent invites the partner's offer and proposes only after it (or when the partner, invited,
    # still offers nothing); "agent" (v1-v3): the agent makes the first offer
    first_offer: str = attrs.field(default="partner", validator=attrs.validators.in_(("partner", "agent")), metadata={"source": "Figure 10 (the partner greets, answers both questions and makes the first offer: 'How about our first offer: I take 3 food, 1 water ...') and Table 9 (the partner states 'I'll take 3 firewood, 2 water, and 1 food' before the agent's first offer); the public code: the partner opens; Table 7's agent makes the first offer (agent = astra-agent-v1-v3)"})
    tactics: M.TacticParams = attrs.field(default=M.TacticParams(), metadata={"source": "Table 5 'When' thresholds and tactic order (each field has its own note)"})

    @classmethod
    def build(cls, base: "Optional[AgentParams]" = None, **choices) -> "AgentParams":
        """``base`` (default: the defaults) with flat keyword overrides; the names of
        :class:`policies.astra_modules.TacticParams` fields go to ``tactics``."""
        base = base if base is not None else cls()
        tnames = set(attrs.fields_dict(M.TacticParams))
        mine = set(attrs.fields_dict(cls)) - {"tactics"}
        bad = sorted(k for k in choices if k not in tnames | mine)
        if bad:
            raise TypeError(f"unknown ASTRA agent parameter(s): {', '.join(bad)}")
        t = {k: v for k, v in choices.items() if k in tnames}
        a = {k: v for k, v in choices.items() if k in mine}
        return attrs.evolve(base, tactics=attrs.evolve(base.tactics, **t), **a)

    def flat(self) -> dict:
        """Every parameter as one flat dict (the tactic thresholds inlined)."""
        out = {k: v for k, v in attrs.asdict(self, recurse=False).items() if k != "tactics"}
        out.update(attrs.asdict(self.tactics, recurse=False))
        return out


# astra-agent-v3's readings (the defaults are astra-agent-v4's; the old id keeps these)
V3_CHOICES = dict(M.V3_TACTICS, first_offer="agent")
# astra-agent-v2's readings
V2_CHOICES = dict(M.V2_TACTICS, first_offer="agent")
# astra-agent-v1's readings
V1_CHOICES = dict(**V2_CHOICES,order=M.ORDER_V1, hold_against_fair=False, stance_first=False, si_target="agent",
                  smax_rule="hold", deadline_rounds_left=(1, 2), lambda_table=M.LAMBDA_ROWS_V1,
                  first_offer_stance="unknown", lic_needs_fair=True, concession_how="distance",
                  significant=2.0)


def speak(client, rng, role, mode, stated=None, tactic=None, mention=None, warning=False):
    """Words for a decided move through the language layer (fallback: the template).

    With ``client=None`` the move carries no words ("offers only", as in classic automated
    negotiation); only time-based partners, which never ask or answer questions, run
    that way (benchmarks/bench_negmas.py)."""
    if client is None:
        return "", stated
    warning = bool(warning)

    def template():  # the fallback: the template's words, the offer as decided (its context built only then)
        ctx = dict(role=role, mode=mode, offer=stated, tactic=tactic, mention=mention, warning=warning)
        return lang.SPEAK.render(ctx, stated), stated

    # (the context as keywords: built once, where a dict passed as **ctx would be built twice)
    return client.ask(lang.SPEAK, rng, fallback=template, role=role, mode=mode, offer=stated, tactic=tactic,
                      mention=mention, warning=warning)


class AstraAgent:
    """The negotiation agent with ASTRA.  ``client`` is a :class:`mockllm.ModelClient`,
    ``rng`` its own generator (only used to seed model calls)."""

    role = "agent"
    uses_astra = True
    #: what the runner passes at run time; not choices, so ``--list-params`` leaves them out
    RUNTIME_ARGS = ("domain", "client", "rng", "params", "values")

    def __init__(self, domain, client, rng, params: Optional[AgentParams] = None, values=None, **choices):
        params = AgentParams.build(params, **choices)
        self.domain, self.client, self.rng, self.p = domain, client, rng, params
        self.values = values or domain.agent
        self.issues = [i.name for i in domain.issues]
        self.prefs = M.Preferences(domain, domain.order_of(self.values), self.values)
        self.solver = make_solver(params.solver)
        self._lambdas = M.lambda_table(params.lambda_table)
        self.max_own = max(Space.cached(domain, self.values, self.values).s_a)
        self.my_offers: list[tuple] = []
        self.my_offer_turns: list[int] = []  # history length when each own offer was made
        self.questions_asked = 0
        self.clarify_used = 0
        self.warned_at: Optional[int] = None
        self.rejected = 0
        self.invited = False
        self.read_upto = 0
        #: every reading of a partner utterance, in order ({"highest", "lowest"}: an item or None;
        #: None itself where the answer was refused and the fallback, no cues, stood in), scored
        #: against what the partner meant by the study
        self.readings: list[dict | None] = []
        self.inconsistencies: list[str] = []
        self._spaces: dict = {}
        self._sa: dict = {}
        #: the astra.tactic role on a backend (a :class:`simcore.systems.astra.model_roles.TacticRole`, set by
        #: the study for ``--role astra.tactic=...``); None: the stand-in (select_tactic) decides
        self.tactic_role = None

    # ---------------------------------------------------------------- helpers
    def sa(self, outcome) -> float:
        got = self._sa.get(outcome)
        if got is None:
            got = self._sa[outcome] = self.domain.score(self.values, outcome, "agent")
        return got

    def space(self) -> Space:
        val = self.prefs.valuation()
        key = (val.weights, val.factors)
        sp = self._spaces.get(key)
        if sp is None:
            sp = self._spaces[key] = Space.cached(self.domain, self.values, val)
        return sp

    def sp(self, outcome) -> float:
        space = self.space()
        return space.s_p[space.index_of(tuple(outcome))]

    # ---------------------------------------------------------------- the turn
    def act(self, obs: Observation) -> Action:
        notes = {}
        self._read(obs, notes)
        partner_offers = obs.offers_by("partner")
        table = obs.table
        p_offer = table.offer if table is not None and table.speaker == "partner" else None
        new_offer = p_offer is not None and obs.history[-1].offer is not None and obs.history[-1].speaker == "partner"

        reason = None
        if self.prefs.order is not None and new_offer:
            reason = self._check(obs)
            if reason:
                notes["inconsistency"] = reason
                notes["ipp_reinferred"] = list(self._reinfer(obs))

        if p_offer is not None and new_offer:
            decision = self._decide(obs, p_offer, partner_offers, notes)
            if decision is not None:
                return decision
            self.rejected += 1

        if self.prefs.order is None and self.questions_asked < self.p.questions:
            mode = "ask_highest" if self.questions_asked == 0 else "ask_lowest"
            self.questions_asked += 1
            return self._talk(mode, notes)
        if self.prefs.order is None:
            self.prefs.assume_opposite()
            notes["ipp_assumed"] = list(self.prefs.order)
        if reason and reason.startswith("partner score") and self.clarify_used < self.p.clarify:
            self.clarify_used += 1
            return self._talk("ask_clarify", notes)
        if self.p.first_offer == "partner" and not self.invited and not self.my_offers and not partner_offers:
            self.invited = True
            return self._talk("invite", notes)
        return self.propose(obs, notes)

    def _read(self, obs: Observation, notes: dict) -> None:
        new = obs.history[self.read_upto:]
        self.read_upto = len(obs.history)
        for turn in new:
            if turn.speaker != "partner" or not turn.text:
                continue
            refused: list[bool] = []

            def no_cues() -> dict:
                refused.append(True)
                return dict(NO_CUES)

            cues = self.client.ask(lang.READ, self.rng, fallback=no_cues, utterance=turn.text, issues=self.issues)
            cues = {k: (v if v in self.issues else None) for k, v in cues.items()}
            self.readings.append(None if refused else cues)
            if self.prefs.update(cues):
                notes.setdefault("read", []).append(cues)
            if turn.offer is not None:
                self.prefs.note_partner_option(turn.offer)
        # an IPP exists once the planned questions have been asked and answered
        if self.prefs.order is None and self.questions_asked >= self.p.questions and new:
            self.prefs.order = self.prefs.fill(self.prefs.opposite)
            if not self.prefs.option_orders:
                self.prefs.option_orders = self.prefs.default_option_orders()
            notes["ipp"] = list(self.prefs.order)

    def _pairs(self, obs: Observation) -> list:
        """(the agent's latest offer before it, partner offer) for each partner offer."""
        pairs, last_agent = [], None
        for t in obs.history:
            if t.offer is None:
                continue
            if t.speaker == "agent":
                last_agent = t.offer
            elif last_agent is not None:
                pairs.append((last_agent, t.offer))
        return pairs

    def _check(self, obs: Observation) -> Optional[str]:
        pairs = self._pairs(obs)
        last = obs.history[-1]
        prev = pairs[-1][0] if pairs and pairs[-1][1] == last.offer else None
        reason = M.check_consistency(self.prefs, prev, last.offer)
        if reason:
            self.inconsistencies.append(reason)
        return reason

    def _reinfer(self, obs: Observation):
        return self.prefs.reinfer(self._pairs(obs))

    # ---------------------------------------------------------------- decisions
    def _decide(self, obs: Observation, p_offer, partner_offers, notes) -> Optional[Action]:
        s_a = self.sa(p_offer)
        notes["partner_offer_score"] = s_a
        if obs.rounds_left in self.p.deadline_rounds_left and s_a >= self.domain.batna:
            return self._final("accept", notes, "deadline: offer >= BATNA")
        ref = None
        if self.p.accept_rule == "paper" and self.my_offers:
            ref = self.sa(self.my_offers[-1])
        elif self.p.accept_rule == "counter" and self.prefs.order is not None:
            ref = self._stage(obs, notes).get("chosen_sa")
        if ref is not None and s_a >= ref - self.p.accept_tolerance_step * self.rejected - 1e-9:
            return self._final("accept", notes, f"offer {s_a:g} >= reference {ref:g}")
        if self.prefs.order is not None:
            k = self.p.no_concession_turns
            if len(partner_offers) >= k + 1:
                scores = [self.sp(o) for o in partner_offers[-(k + 1):]]
                if all(scores[i + 1] >= scores[i] - 1e-9 for i in range(k)):
                    return self._final("walk_away", notes, f"no concession in {k} consecutive offers")
        if self.warned_at is not None:
            below = [t for t in obs.history[self.warned_at:]
                     if t.speaker == "partner" and t.offer is not None and self.sa(t.offer) < self.domain.batna]
            if len(below) >= self.p.below_batna_offers:
                return self._final("walk_away", notes, f"{len(below)} offers below BATNA after a warning")
        return None

    def _final(self, kind, notes, why) -> Action:
        text, _ = speak(self.client, self.rng, "agent", kind)
        return Action(kind, text, None, {"mode": kind, "why": why}, {**notes, "why": why, **self._state()})

    def _talk(self, mode, notes) -> Action:
        text, _ = speak(self.client, self.rng, "agent", mode)
        return Action("talk", text, None, {"mode": mode}, {**notes, **self._state()})

    def _state(self) -> dict:
        return {"ipp": list(self.prefs.order) if self.prefs.order else None}

    # ---------------------------------------------------------------- proposing
    def propose(self, obs: Observation, notes: dict) -> Action:
        info = self._stage(obs, notes)
        outcome = info["chosen"]
        warn = False
        p_offer = obs.table.offer if obs.table is not None and obs.table.speaker == "partner" else None
        if self.warned_at is None and p_offer is not None and self.sa(p_offer) < self.domain.batna:
            warn = True
            self.warned_at = len(obs.history)
        self.my_offers.append(outcome)
        stated = self.domain.state_offer(outcome, "agent")
        text, stated_back = speak(self.client, self.rng, "agent", "offer", stated, info.get("tactic"),
                                  None, warn)
        intent = {"mode": "offer", "tactic": info.get("tactic"), "warning": warn}
        hidden = {**notes, **self._state(), "trace": info.get("trace")}
        return Action("offer", text, stated_back, intent, hidden)

    def _stage(self, obs: Observation, notes: dict) -> dict:
        """Stages 1-3; returns the chosen outcome and the trace.  A tactic asked of a model
        leaves its exchange in ``notes`` (``model_decisions``, :mod:`mockllm.exchanges`)."""
        d, p = self.domain, self.p
        space = self.space()
        partner_offers = obs.offers_by("partner")
        p_off = partner_offers[-1] if partner_offers else None
        s_a_p = self.sa(p_off) if p_off is not None else None
        s_p_p = self.sp(p_off) if p_off is not None else None
        fair = M.fairness(s_a_p, s_p_p, d.theta_f, self.max_own)
        st, delta = M.stance([self.sp(o) for o in partner_offers[-2:]], p.first_offer_stance)
        lam = M.choose_lambda(st, fair, self._lambdas)
        last_own = self.my_offers[-1] if self.my_offers else None
        bound = min(self.max_own, self.sa(last_own)) if last_own is not None else self.max_own
        lowered = 0.0
        if p.smax_rule == "tft" and last_own is not None and st == "generous":
            # reciprocity on the second lever: give back a share of the partner's concession
            lowered = math.floor(p.smax_share * -delta + 1e-9)
            bound = max(d.min_own, bound - lowered)
        previous = (self.sa(last_own), self.sp(last_own)) if last_own is not None else None
        res = sweep(self.solver, space, lam, bound, min_own=d.min_own, min_partner=d.min_partner,
                    window=p.window, bound_span=p.bound_span, top_n=p.top_n, previous=previous)
        cands = list(res.candidates)
        if not cands:
            chosen = last_own if last_own is not None else max(
                d.outcomes, key=lambda o: (self.sa(o) if self.sp(o) >= d.min_partner else -1))
            return {"chosen": chosen, "chosen_sa": self.sa(chosen), "tactic": None,
                    "trace": {"fairness": fair, "stance": st, "lambda": lam, "max_bound": bound,
                              "tactic": None, "candidates": [], "chosen": None, "solves": res.solves,
                              "infeasible": res.infeasible}}
        own_scores = [self.sa(o) for o in self.my_offers]
        conceded = any(b < a - 1e-9 for a, b in zip(own_scores, own_scores[1:]))
        last_conc = own_scores[-2] - own_scores[-1] if len(own_scores) >= 2 else 0.0
        p_scores = [self.sp(o) for o in partner_offers]
        conceded_before = any(b < a - 1e-9 for a, b in zip(p_scores[:-2], p_scores[1:-1]))
        ctx = M.TacticContext(
            offers_exchanged=sum(1 for t in obs.history if t.offer is not None),
            agent_offers=len(self.my_offers), partner_offer_sa=s_a_p, partner_offer_sp=s_p_p,
            stance=st, stance_delta=delta, fairness=fair, agent_conceded=conceded,
            last_own_concession=max(0.0, last_conc), agent_max=self.max_own,
            prev_own=own_scores[-1] if own_scores else self.max_own, partner_offers=len(partner_offers),
            theta_f=d.theta_f, partner_conceded_before=conceded_before)
        tactic = M.select_tactic(ctx, p.tactics)
        if self.tactic_role is not None:  # 2.3's best-fit choice asked of a model; the stand-in's as fallback
            tactic = self.tactic_role.choose(ctx, p.tactics, tactic)
            taken = getattr(self.tactic_role, "notes", None)
            if taken:
                notes.setdefault(MODEL_DECISIONS, []).extend(taken)
                taken.clear()
        sas = M.sa_scores(M.rank_by_tactic(tactic, cands, ctx, p.tactics))
        if p.si_target == "partner":
            ideal = M.partner_ideal(space)
        else:
            ideal = M.ideal_reachable(space, s_p_p if s_p_p is not None else d.min_partner, d.min_own)
        paps = M.pap(cands, space, ideal, p.w)
        finals = M.final_scores(paps, sas, p.alpha, p.beta)
        best = max(range(len(cands)), key=lambda k: (round(finals[k], 9), -k))
        rows = [[d.describe_outcome(c.outcome), c.s_a, c.s_p, round(finals[k], 4), round(paps[k][0], 4),
                 round(paps[k][1], 4), round(paps[k][2], 4), round(sas[k], 4)] for k, c in enumerate(cands)]
        trace = {"fairness": fair, "stance": st, "lambda": lam, "max_bound": bound, "tactic": tactic,
                 "candidates": rows, "chosen": best, "solves": res.solves, "infeasible": res.infeasible}
        return {"chosen": cands[best].outcome, "chosen_sa": cands[best].s_a, "tactic": tactic, "trace": trace}


def _fmt_score(x: float) -> str:
    return f"{x:g}"


CANDIDATE_FIELDS = ("text", "s_a", "s_p", "final", "pap", "ts", "si", "sa")


def trace_line(trace: dict) -> str:
    """One line in the manner of the paper's Table 7 (trace candidates are rows of
    :data:`CANDIDATE_FIELDS`; ``chosen`` is the chosen row's position)."""
    parts = [f"[ASTRA: Offer selection] >> Fairness={trace['fairness']}, Stance={trace['stance']} "
             f">> LP parameters: max_bound={_fmt_score(trace['max_bound'])}, lambda={trace['lambda']:.1f} "
             f">> Selected Strategy: {trace.get('tactic')} >> Offer candidates:"]
    for k, (text, s_a, s_p, final, pap, ts, si, sa) in enumerate(trace["candidates"]):
        parts.append(f"Offer ({k}): ({_fmt_score(s_a)}: {text}) Final Score: {final:.2f} "
                     f"PAP: {pap:.2f} (TS: {ts:.2f} SI: {si:.2f}) SA: {sa:.2f}")
    if trace.get("chosen") is not None:
        row = trace["candidates"][trace["chosen"]]
        parts.append(f">> Finally Selected Best Offer: ({_fmt_score(row[1])}: {row[0]})")
    else:
        parts.append(">> no feasible candidate; repeating the previous offer")
    return " ".join(parts)
