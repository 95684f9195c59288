"""The scorable multi-party protocol (Abdelnabi et al. 2024, as the seed uses it).

* p1 opens (turn 0) with the game's fixed initial deal.
* Then ``game.turns`` turns (default 4N): ceil(turns/N) random orderings of all N parties
  joined end to end (truncated to ``turns``); an ordering is redrawn while its first
  speaker is the previous block's last speaker (initially p1) or its last speaker is p1.
* p1 makes the final proposal (turn T = turns + 1).  History: T + 1 entries.
* Each turn is a public deal plus an utterance.  Acceptance is score >= threshold; a deal
  passes with at least N-1 acceptances including every veto holder.

Information flow: a speaker's deal comes from its own table and its estimates; its
words come from the ``scorable-speak`` task given its own truthful cues.  Listeners get
the deal and the words; the signals are read from the words by one ``scorable-extract``
call per utterance (a public reading, shared by all listeners).  Estimates of party j
(Bayes posterior, LLM-PE table) depend only on that public record, so they are computed
once per party per turn and shared among the observers that use the same model.  The
protocol holds no RNG of its own: every generator is a child of the session's
SeedSequence, keyed by purpose and turn, so the orderings and the words' noise are the
same across methods for the same trial (common random numbers).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import attrs
import numpy as np

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from mockllm.scorable import EXTRACT, SPEAK
from policies import bayes
from policies.llm_pe import issues_context, pe_estimate, prior_mean_table
from policies.scorable import (aspiration, blend_with_truth, choose_cues, choose_deal, deal_index, deal_view,
                               echo_estimate, echo_with_words)
from scenarios.scorable import Game, load_game
from simcore.errors import IllegalMove
from simcore.seeding import child, derive
from simcore.transcript import Event

# method id -> (display name, estimator, who estimates)
METHODS: dict[str, tuple[str, str, str]] = {
    "base-llm": ("Base-LLM", "none", "none"),
    "base-om-p1": ("Base-OM (p1)", "om", "p1"),
    "base-om-all": ("Base-OM (all)", "om", "all"),
    "llm-pe-p1": ("LLM-PE (p1)", "pe", "p1"),
    "llm-pe-all": ("LLM-PE (all)", "pe", "all"),
    "proposed-p1": ("Proposed (p1)", "proposed", "p1"),
    "proposed-all": ("Proposed (all)", "proposed", "all"),
}


def _note(source: str) -> dict:
    return {"source": source}


ECHO_HISTORY = ("all", "last")
ACCEPTANCE_RULES = ("share", "threshold", "learnt")
THRESHOLD_TESTS = ("at-least", "above")


#: the Base-LLM role's aspiration (share of the range between threshold and best own score) at the
#: opening and at the final turn, fitted to the public benchmark's GPT-4 logs of this game
#: (benchmarks/base_llm_logs.py prints the fit; docs/scorable.md "The negotiator")
ASPIRATION_FROM_LOGS = (0.594, 0.374)
#: the median number of issues a Base-LLM proposal changes in the deal on the table, in the same logs
AMEND_FROM_LOGS = 2
#: the median share of the range kept above the threshold by the final proposals of the same logs
FINAL_FROM_LOGS = 0.2
#: the two numbers the logs do not show, fitted to their per-proposal statistics on the logs' own game
#: (benchmarks/fit_base_llm_knowledge.py, seed 7, 100 sessions per grid point; results-base-llm-logs.md)
FIT_KNOWLEDGE, FIT_THRESHOLD = 1.0, 62.5


@attrs.frozen
class Settings:
    """Numbers the seed leaves open (see ``docs/scorable.md``); each field's ``source`` note
    is printed by ``simcore run scorable --list-params``."""

    sigma: float = attrs.field(default=1.0, validator=attrs.validators.gt(0), metadata=_note(
        "seed App. B.2: sigma = 1.0 (eq. 3); read on the [0, 1] utility scale of eq. 2 (choice of scale)"))
    floor: float = attrs.field(default=0.05, validator=[attrs.validators.ge(0), attrs.validators.lt(1)],
                               metadata=_note("choice: uniform floor mixed into each Luce likelihood (eq. 4) so no "
                                              "hypothesis reaches probability zero; the seed gives none"))
    assumed_reservation: float = attrs.field(
        default=0.5, validator=[attrs.validators.ge(0), attrs.validators.le(1)], metadata=_note(
            "choice: r in the assumed target u'(t) = 1 - (1 - r) t/T; seed sec. 3.1 says only that the opponent "
            "'gradually lowers its aspiration level'"))
    assumed_threshold: float = attrs.field(
        default=50.0, validator=[attrs.validators.ge(0), attrs.validators.le(100)], metadata=_note(
            "choice (threshold rule): estimated score at which a party is predicted to accept; thresholds are "
            "private and not estimated (seed, Limitations)"))
    acceptance_rule: str = attrs.field(
        default="share", validator=attrs.validators.in_(ACCEPTANCE_RULES), metadata=_note(
            "choice: how a party predicts another's acceptance from its estimated table (the seed's parties are "
            "GPT-4.1 agents, sec. 4.1); share is scale-free.  learnt: j accepts what its estimate values at least as "
            "much as the least valued deal j has itself put on the table (the benchmark's GPT-4 logs: every deal a "
            "party proposes is one it accepts, 684 of 685 counters; benchmarks/base_llm_responses.py), the share rule "
            "before j has proposed"))
    assumed_share: float = attrs.field(
        default=0.5, validator=[attrs.validators.gt(0), attrs.validators.le(1)], metadata=_note(
            "choice (share rule): a party is predicted to accept this best share of all deals by its estimate "
            "(the true shares in the seed's game are 0.20-0.67, mean 0.52)"))
    concession_exponent: float = attrs.field(default=1.0, validator=attrs.validators.gt(0), metadata=_note(
        "choice: the rule-based parties stand in for GPT-4.1 agents (sec. 4.1); 1 = a linear time-dependent "
        "conceder, the behaviour the observers' model assumes (sec. 3.1)"))
    aspiration_start: float = attrs.field(default=1.0, validator=[attrs.validators.ge(0), attrs.validators.le(1)],
                                          metadata=_note(
        "choice: the parties' aspiration at the opening as a share of the range from threshold to best own score; "
        "1.0 (the best own score).  The Base-LLM role's own proposals in the public benchmark's GPT-4 logs of this "
        "game (Abdelnabi et al. 2024, logs/all_coop_temp1_base_gpt4: 33 sessions) fit 0.594 -> 0.374 (the "
        "'logs' member of the scorable.negotiator family; docs/scorable.md)"))
    aspiration_end: float = attrs.field(default=0.0, validator=[attrs.validators.ge(0), attrs.validators.le(1)],
                                        metadata=_note(
        "choice: the same at the final turn; 0.0 (the threshold); the logs fit 0.374"))
    final_aspiration: float | None = attrs.field(
        default=None, validator=attrs.validators.optional([attrs.validators.ge(0), attrs.validators.le(1)]),
        metadata=_note(
            "choice: p1's aspiration for the final proposal, as a share of the range from threshold to best own "
            "score; None follows the aspiration schedule to its end.  The benchmark's GPT-4 logs: the final "
            "proposals keep a median 0.200 of that range (mean 0.176; benchmarks/results-base-llm-logs.md)"))
    echo_words: bool = attrs.field(default=False, metadata=_note(
        "seed sec. 2 'parties infer others' preferences from the history of d_t and u_t': False, a party without "
        "an estimator reads j's deals only; True also uses what j's words said about single options (the "
        "benchmark's prompt 'think about what others may prefer')"))
    amend_max_issues: int | None = attrs.field(default=None, metadata=_note(
        "choice: None, a party may propose any deal; the Base-LLM role's own proposals in the benchmark's GPT-4 logs "
        "change a median of 2 issues of the deal on the table (794 proposals: 0 issues 109, 1: 215, 2: 257, 3: "
        "135, 4: 57, 5: 21): 2 proposes among deals within that many changes of it"))
    implicit_knowledge: float = attrs.field(
        default=0.0, validator=[attrs.validators.ge(0), attrs.validators.le(1)], metadata=_note(
            "choice, fitted to the Base-LLM role's own logs: the share of each other party's true table that a "
            "party's negotiator knows without any estimator (what a GPT-4.1 agent makes of the prompts and the "
            "dialogue, sec. 4.1 'negotiate based on prompts'); its view of j is k * truth + (1 - k) * (its "
            "method's estimate, or the echo).  The same k in every method (every party is the same LLM).  0: "
            "scorable-v1; fitted so that the others accept the stand-in's proposals as often as they accept GPT-4's "
            "in the benchmark's logs (benchmarks/fit_base_llm_knowledge.py)"))
    cues_per_turn: int = attrs.field(default=3, validator=attrs.validators.ge(0), metadata=_note(
        "choice: preference cues a party means to give per utterance (a short message with a few reasons)"))
    top_k: int = attrs.field(default=3, metadata=_note("display only: hypotheses shown per party in transcripts"))
    echo_history: str = attrs.field(default="all", validator=attrs.validators.in_(ECHO_HISTORY), metadata=_note(
        "seed sec. 4.1 'Base-LLM: ... without explicit preference estimation' and sec. 2 'parties infer "
        "others' preferences from the history of d_t and u_t': a party without an estimator reads j's whole "
        "deal history (all); 'last' reads only j's latest deal"))
    threshold_test: str = attrs.field(default="at-least", validator=attrs.validators.in_(THRESHOLD_TESTS),
                                      metadata=_note(
        "two passages pull apart: sec. 2 'satisfy U_n(d_t) > tau' (above) vs the same seed's counts, 21 passing "
        "and 3 unanimous deals (sec. 4.1), which hold only with score >= tau, as the benchmark's prompt says "
        "(at-least, the reading that keeps the text consistent; above gives 18 and 1)"))

    @property
    def strict(self) -> bool:
        """True when a party accepts only a score strictly above its threshold."""
        return self.threshold_test == "above"


def speaking_order(n: int, turns: int, p1: int, rng: np.random.Generator) -> list[int]:
    """Random orderings of all N parties joined end to end, cut to ``turns``.  An
    ordering is redrawn if its first speaker is the previous block's last (initially
    p1) or if its last speaker is p1 -- where the last block is cut short, "last" means
    the last speaker that is kept, so p1 never speaks twice in a row before its final
    proposal."""
    blocks = math.ceil(turns / n)
    order: list[int] = []
    prev_last = p1
    for b in range(blocks):
        keep = min(n, turns - b * n)
        while True:
            perm = [int(x) for x in rng.permutation(n)]
            if perm[0] != prev_last and perm[keep - 1] != p1:
                break
        order += perm[:keep]
        prev_last = perm[keep - 1]
    return order


class TurnDraws:
    """The draws of each turn that every method of one trial shares: the turn's generator
    ``child(seq, "turn", t)`` and the speaker's cues, which are drawn from it first.

    The speaking order and the speaker at turn t are the same for every method (common
    random numbers), so the cues are too; a trial played with several methods computes
    them once and hands each method a fresh generator positioned just after the cues --
    exactly what drawing them again would give.
    """

    def __init__(self, game: Game, seq: np.random.SeedSequence, cues_per_turn: int):
        self.game, self.seq, self.cues_per_turn = game, seq, cues_per_turn
        self._cache: dict[tuple[int, int], tuple[list[dict], dict]] = {}

    def get(self, t: int, speaker: int) -> tuple[list[dict], np.random.Generator]:
        hit = self._cache.get((t, speaker))
        if hit is None:
            rng = child(self.seq, "turn", t)
            cues = choose_cues(self.game, speaker, rng, self.cues_per_turn)
            self._cache[(t, speaker)] = (cues, rng.bit_generator.state)
            return cues, rng
        cues, state = hit
        bits = np.random.PCG64(0)
        bits.state = state
        return cues, np.random.Generator(bits)


def _legal(game: Game, deal, policy: str) -> tuple[int, ...]:
    deal = tuple(int(x) for x in deal)
    if len(deal) != game.n_issues or any(not 0 <= o < k for o, k in zip(deal, game.option_counts)):
        raise IllegalMove(f"a deal is one option per issue of game {game.id} {tuple(game.option_counts)}",
                          policy=policy, move=deal)
    return deal


@attrs.frozen
class SessionResult:
    events: tuple[Event, ...] = attrs.field(converter=tuple)
    record: dict = attrs.field(factory=dict)
    fallbacks: int = 0
    calls: dict = attrs.field(factory=dict)  # model-call counts per task (CallStats.task_counts)


def _canonical(sig) -> tuple:
    """A signal as what it says: a comparison that opposes the first item is the one that
    prefers the second ("oppose B, A" says what "prefer A, B" says)."""
    if sig.signal_type == "comparison" and sig.stance == "oppose":
        return (sig.entity, sig.signal_type, (sig.items[1], sig.items[0]), "prefer")
    return (sig.entity, sig.signal_type, tuple(sig.items), sig.stance)


def readings_right(names, option_counts, meant, read) -> int:
    """How many of the signals ``read`` from an utterance are among the cues the speaker was
    asked to give (``meant``, the speak task's context), each cue matched at most once: the
    intended content is known, so a parsed reading is scored against it (issue 20 item 6)."""
    want = []
    for cue in meant:
        sig = bayes.resolve_signal(names, option_counts, cue)
        if sig is not None:
            want.append(_canonical(sig))
    right = 0
    for sig in read:
        key = _canonical(sig)
        if key in want:
            want.remove(key)
            right += 1
    return right


def session_order(game: Game, seq: np.random.SeedSequence) -> list[int]:
    """Who proposes at each entry of a session played from ``seq``: p1's opening, the 4N
    turns, p1's final proposal."""
    return [game.p1] + speaking_order(game.n_parties, game.turns, game.p1, child(seq, "order")) + [game.p1]


def play_session(game: Game, method: str, seq: np.random.SeedSequence, *, settings: Settings = Settings(),
                 backend: Any = None, run_id: str = "scorable/session", detail: bool = True,
                 draws: TurnDraws | None = None, choose: Mapping[int, Any] | None = None) -> SessionResult:
    """Play one negotiation with ``method``; ``detail`` records every turn (else only the result).

    ``draws`` shares the per-turn cues among several methods of the same trial (``seq``
    and ``settings.cues_per_turn`` must be the ones it was made with).  ``choose`` gives some
    parties (by index) a deal chooser of their own, called as ``choose[n](turn, level, builtin,
    history)`` with ``builtin()`` the negotiator's (deal, info) and ``history`` the deals
    proposed so far (simcore.env's seats)."""
    from simcore.errors import InputError

    if method not in METHODS:
        raise InputError("method", repr(method), f"valid: {', '.join(METHODS)}")
    if not isinstance(seq, np.random.SeedSequence):
        from simcore.argcheck import seed_sequence

        seq = seed_sequence(seq, "seq")
    if draws is None:
        draws = TurnDraws(game, seq, settings.cues_per_turn)
    elif draws.seq is not seq or draws.game is not game or draws.cues_per_turn != settings.cues_per_turn:
        raise ValueError("play_session: draws were made for another trial, game or cues_per_turn")
    _name, estimator, who = METHODS[method]
    client = ModelClient(backend if backend is not None else MockBackend())
    N, T = game.n_parties, game.turns + 1
    p1 = game.p1
    names = [i.name for i in game.issues]
    shorts = [p.short for p in game.parties]
    truth = [np.concatenate([np.asarray(r, dtype=float) for r in p.scores]) for p in game.parties]  # flat tables
    issues_ctx = issues_context(game)

    def estimating(n: int) -> bool:
        return who == "all" or (who == "p1" and n == p1)

    # parties whose estimate some observer needs
    observed = [j for j in range(N) if any(estimating(i) and i != j for i in range(N))]
    space = bayes.hypothesis_space(game.option_counts) if estimator in ("om", "proposed") else None
    posts = {j: bayes.Posterior(space) for j in observed} if space is not None else {}
    prior = prior_mean_table(game)
    shared = {j: prior for j in observed}  # the shared estimate of party j
    heard: dict[int, list[dict]] = {j: [] for j in range(N)}
    said: dict[int, list] = {j: [] for j in range(N)}  # the signals read from j's words, as Signal objects
    proposed: dict[int, list[tuple[int, ...]]] = {j: [] for j in range(N)}
    shown: dict[int, list[int]] = {j: [] for j in range(N)}  # indices of the deals j chose to put on the table
    learnt = settings.acceptance_rule == "learnt"
    mse_trace: list[float | None] = []
    mse_cur = {j: round(bayes.table_mse(prior, truth[j]), 2) for j in observed}
    events: list[Event] = []
    order = session_order(game, seq)
    history: list[tuple[int, ...]] = []
    reading = [0, 0, 0]  # signals read, of them what the speaker meant, cues meant (issue 20 item 6)
    views: dict[tuple[bool, int], tuple[Any, Any]] = {}  # (shared?, j) -> (source, DealView)

    def view_of(j: int, use_shared: bool):
        """j's estimate as the proposer uses it (the shared model's, or the echo stand-in),
        rebuilt only when it has changed since the last turn."""
        source = shared[j] if use_shared else (len(proposed[j]), len(said[j])) if settings.echo_history == "all" else (
            proposed[j][-1] if proposed[j] else None, len(said[j]))
        n_shown = len(shown[j]) if learnt else 0
        hit = views.get((use_shared, j))
        if hit is not None and hit[2] == n_shown and (hit[0] is source if use_shared else hit[0] == source):
            return hit[1]
        deals = proposed[j] if settings.echo_history == "all" else proposed[j][-1:]
        est = shared[j] if use_shared else (echo_with_words(game, deals, said[j]) if settings.echo_words
                                            else echo_estimate(game, deals))
        if settings.implicit_knowledge > 0:
            est = blend_with_truth(game, j, est, settings.implicit_knowledge)
        view = deal_view(game, est, settings.acceptance_rule, settings.assumed_share, settings.assumed_threshold,
                         shown[j])
        views[(use_shared, j)] = (source, view, n_shown)
        return view

    for t, n in enumerate(order):
        phase = "open" if t == 0 else ("final" if t == T else "turn")
        if t == 0:
            deal = _legal(game, game.initial_deal, f"{method} (p1's opening: the game's initial deal)")
            info = {"own_score": game.score(p1, game.initial_deal)}
        else:
            level = aspiration(game, n, t, T, settings.concession_exponent, settings.aspiration_start,
                               settings.aspiration_end)
            if t == T and settings.final_aspiration is not None:
                pn = game.parties[n]
                level = pn.threshold + (pn.best - pn.threshold) * settings.final_aspiration

            def builtin(n=n, level=level):
                ests = {j: view_of(j, estimating(n)) for j in range(N) if j != n}
                return choose_deal(game, n, level, ests, settings.assumed_threshold,
                                   settings.acceptance_rule, settings.assumed_share, strict=settings.strict,
                                   anchor=history[-1], max_changes=settings.amend_max_issues)

            if choose is not None and n in choose:
                deal, info = choose[n](t, level, builtin, tuple(history))
            else:
                deal, info = builtin()
            deal = _legal(game, deal, f"{method} ({game.parties[n].name}'s choose_deal)")
        cues, rng = draws.get(t, n)  # cues, then the speak, read and estimate calls, in that order
        deal_ids = list(game.deal_ids(deal))
        text = client.ask(SPEAK, rng, fallback=lambda: "We propose " + ", ".join(deal_ids) + ".",
                          speaker=game.parties[n].name, issues=issues_ctx, deal=deal_ids, cues=cues)
        read = client.ask(EXTRACT, rng, fallback=lambda: {},
                          speaker=game.parties[n].name, issues=issues_ctx, deal=deal_ids, utterance=text)
        raw = read.get(game.parties[n].name, [])
        signals = [s for s in (bayes.resolve_signal(names, game.option_counts, r) for r in raw) if s is not None]
        right = readings_right(names, game.option_counts, cues, signals)
        reading[0] += len(signals)
        reading[1] += right
        reading[2] += len(cues)
        history.append(deal)
        proposed[n].append(deal)
        if learnt and t > 0:  # p1's opening is the game's initial deal, not a deal p1 chose
            shown[n].append(deal_index(game, deal))
        heard[n] += [dict(r, turn=t) for r in raw]
        said[n] += signals
        est_note: dict[str, Any] = {}
        if n in shared:
            if space is not None:
                post = posts[n]
                post.update(deal, bayes.conceder_target(t, T, settings.assumed_reservation), settings.sigma,
                            signals if estimator == "proposed" else (), settings.floor)
                shared[n] = post.estimate()
                if detail:
                    est_note["top"] = [[space.describe(r, s, names), float(f"{p:.3g}")] for r, s, p in post.top(settings.top_k)]
            else:
                table, _ok = pe_estimate(client, game, n, proposed[n], heard[n], rng)
                shared[n] = table
                if detail:
                    est_note["table"] = {nm: [round(float(x), 1) for x in row] for nm, row in zip(names, shared[n])}
        if n in mse_cur:
            mse_cur[n] = round(bayes.table_mse(shared[n], truth[n]), 2)
        mse_now = {shorts[j]: mse_cur[j] for j in observed}
        p1_view = [mse_cur[j] for j in observed if j != p1] if estimating(p1) else []
        mse_trace.append(sum(p1_view) / len(p1_view) if p1_view else None)
        if detail:
            hidden = {"cues_meant": cues, **info}
            if est_note:
                hidden["estimate_of_speaker"] = est_note
            if mse_now:
                hidden["mse"] = mse_now
            events.append(Event(run=run_id, seq=t, speaker=shorts[n], phase=phase, round=t,
                                intent={"deal": deal_ids}, text=text, cues={"signals": raw}, hidden=hidden))

    final = history[-1]
    acc = game.accepts(final, settings.strict)
    far = all(acc)
    par = game.passes(final, settings.strict)
    lar = any(game.passes(d, settings.strict) for d in history)
    mse_p1 = {shorts[j]: bayes.table_mse(shared[j], truth[j]) for j in range(N) if j != p1 and j in shared
              and estimating(p1)}
    record = {"method": method, "final": game.deal_str(final), "accepted_by": [shorts[j] for j in range(N) if acc[j]],
              "FAR": far, "PAR": par, "LAR": lar, "mse": mse_p1, "readings": reading,
              "fallbacks": client.stats.fallbacks,
              "calls": client.stats.calls}
    result_event = Event(run=run_id, seq=len(history), speaker="protocol", phase="result", round=T,
                         intent={"deal": list(game.deal_ids(final))},
                         text=f"final deal {game.deal_str(final)}: accepted by {len(record['accepted_by'])}/{N}; "
                              f"{'passes' if par else 'fails'}",
                         hidden={**{k: v for k, v in record.items() if k != "mse"},
                                 "mse": {k: round(v, 2) for k, v in mse_p1.items()},
                                 "game": game.id, "parties": shorts})
    events.append(result_event)
    record["mse_trace"] = mse_trace if mse_p1 else []  # p1's average MSE after each turn
    return SessionResult(events=events, record=record, fallbacks=client.stats.fallbacks,
                         calls=client.stats.task_counts())


class ScorableProtocol:
    """Registered protocol object (``scorable-v1``); takes every :class:`Settings` field as a
    keyword (``PARAMS``, read by ``--list-params``)."""

    PARAMS = Settings

    def __init__(self, game: str = "harbour-sport-park", **settings: Any):
        self.game = load_game(game)
        self.settings = Settings(**settings)

    def conformance_run(self, policy_id: str, seed: int) -> list[Event]:
        from simcore.registry import resolve

        method = resolve("policy", policy_id).meta["method"]
        res = play_session(self.game, method, derive(seed, "scorable", "conformance", method),
                           settings=self.settings, run_id=f"scorable/conformance/{method}/s{seed}")
        return list(res.events)


@attrs.frozen
class Method:
    """A registered policy: one of the seven method configurations of the seed."""

    method: str = attrs.field(validator=attrs.validators.in_(tuple(METHODS)), metadata=_note(
        "seed sec. 4.1 and Table 1: the seven method configurations (estimator x who estimates: p1 / all)"))

    @property
    def name(self) -> str:
        return METHODS[self.method][0]

    @property
    def estimator(self) -> str:
        return METHODS[self.method][1]

    @property
    def who(self) -> str:
        return METHODS[self.method][2]

    def play(self, game: Game, seq: np.random.SeedSequence, **kw: Any) -> SessionResult:
        return play_session(game, self.method, seq, **kw)
