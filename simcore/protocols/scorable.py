"""The scorable multi-party game (Abdelnabi et al. 2024, as the seed uses it), as a game.

| rule | source |
|---|---|
| p1 opens (turn 0) with the game's fixed initial deal: the one legal decision of turn 0. | reference notes ("p1 opens (round 0) with a fixed initial deal") |
| Then ``game.turns`` turns (default 4N): ceil(turns/N) random orderings of all N parties joined end to end (truncated to ``turns``); an ordering is redrawn while its first speaker is the previous block's last speaker (initially p1) or its last speaker is p1. | reference notes |
| p1 makes the final proposal (turn T = turns + 1); the history has T + 1 entries. | reference notes; seed sec. 2 "determined by the deal d_t in the final round" |
| Each turn is a public deal (one option of every issue) and an utterance; score tables are never revealed. | seed sec. 2 |
| A party accepts a deal scoring at least its threshold (``threshold_test`` "at-least"; "above": more than it); a deal passes with at least N-1 acceptances including every veto holder. | seed sec. 2, 4.2; reference notes |

The game (:class:`ScorableGame`, registered as protocol ``scorable-v1``) starts a
:class:`ScorableState` from a scenario (:class:`scenarios.scorable.Game`) and a speaking
order (:func:`session_order`: the set-up draws it from the session's SeedSequence; the game
holds no generator).  Seats are the parties' short names.  Every decision is a *propose*
step: the driver (:mod:`simcore.driver`) gives the party to act its :class:`Observation` --
the public record (every turn's proposer, deal and words), the game's public facts
(:class:`PublicGame`: issues, parties, veto holders) and the party's own score table and
threshold -- and applies the :class:`Proposal` its agent returns.

A proposal carries the deal, the words, and the notes the speaker's side makes of its turn
(``reading``: what the listeners read from the words; ``hidden``: private notes), which the
turn's transcript event records as given.  The game checks the deal (one option index per
issue; the initial deal at turn 0) and refuses anything else with an
:class:`~simcore.errors.IllegalMove`; it never calls an agent or a language client.  Once p1's
final proposal is played the :attr:`ScorableState.outcome` holds the final deal, who accepts
it, FAR, PAR and LAR.  The session's result event (with the estimates' errors and the model
calls, facts of the parties' side) is the set-up's (:mod:`simcore.systems.scorable.match`).

:class:`Settings` holds every number the seed leaves open; most are the built-in parties'
(:mod:`policies.scorable`, :mod:`policies.bayes`), ``threshold_test`` is the game's.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple, Optional, Sequence

import attrs
import numpy as np

from scenarios.scorable import Game, Issue
from simcore import caches
from simcore.contract import Legal, illegal
from simcore.seeding import child
from simcore.transcript import Transcript

def _note(source: str) -> dict:
    return {"source": source}


ECHO_HISTORY = ("all", "last")
ACCEPTANCE_RULES = ("share", "threshold", "learnt")
THRESHOLD_TESTS = ("at-least", "above")


#: the Base-LLM role's aspiration (share of the range between threshold and best own score) at the
#: opening and at the final turn, fitted to the public benchmark's GPT-4 logs of this game
#: (benchmarks/base_llm_logs.py prints the fit; docs/systems/scorable.md "The negotiator")
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
    """Numbers the seed leaves open (see ``docs/systems/scorable.md``); each field's ``source`` note
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
        "'logs' member of the scorable.negotiator family; docs/systems/scorable.md)"))
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
        "change a median of 2 issues of the deal on the table (794 proposals: 0: 109, 1: 215, 2: 257, 3: "
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


def session_order(game: Game, seq: np.random.SeedSequence) -> list[int]:
    """Who proposes at each entry of a session played from ``seq``: p1's opening, the 4N
    turns (drawn from ``child(seq, "order")``), p1's final proposal."""
    return [game.p1] + speaking_order(game.n_parties, game.turns, game.p1, child(seq, "order")) + [game.p1]


@attrs.frozen
class PartyInfo:
    """What every party knows of a party: its name, short name and whether it holds a veto."""

    name: str
    short: str
    veto: bool


@attrs.frozen(eq=False)
class PublicGame:
    """The public facts of a scorable game: its issues, the parties (without their score
    tables and thresholds, which are each party's own), p1, the initial deal and the number
    of turns.  Deals are tuples of option indices, one per issue."""

    id: str
    issues: tuple[Issue, ...]
    parties: tuple[PartyInfo, ...]
    p1: int
    initial_deal: tuple[int, ...]
    turns: int

    @property
    def option_counts(self) -> tuple[int, ...]:
        return tuple(len(i.options) for i in self.issues)

    @property
    def n_deals(self) -> int:
        return int(math.prod(self.option_counts))

    def deal_ids(self, deal) -> tuple[str, ...]:
        """The option ids of ``deal`` (``("A1", "B2", ...)``)."""
        return tuple(iss.option_id(int(k)) for iss, k in zip(self.issues, deal))


@caches.lru("simcore.protocols.scorable: public games", maxsize=16)
def public_game(game: Game) -> PublicGame:
    """``game``'s :class:`PublicGame` (one per game)."""
    return PublicGame(game.id, game.issues, tuple(PartyInfo(p.name, p.short, p.veto) for p in game.parties),
                      game.p1, tuple(game.initial_deal), game.turns)


class Proposal(NamedTuple):
    """A party's turn: the deal (one option index per issue), the words, and the notes its
    side makes of the turn, recorded in the turn's event as given: ``reading`` (the event's
    ``cues``: what the listeners read from the words) and ``hidden`` (private notes: a
    mapping, or a function of no arguments returning one, called when the transcript is
    first read -- notes costly to make are then made only for a transcript someone reads).
    A proposal without words is a *structured* decision: a seat's voice puts it into words
    (:class:`simcore.systems.scorable.agents.VoicedSeat`)."""

    deal: Any
    text: str = ""
    reading: Optional[Mapping[str, Any]] = None
    hidden: Any = None


class Turn(NamedTuple):
    """One public turn: the proposer (its index among the game's parties), the deal, the words."""

    party: int
    deal: tuple
    text: str


class Observation(NamedTuple):
    """What the party to act knows: its seat and index, the turn (0 .. ``last_turn``), the
    public record, the game's public facts, and its own party (its score table and
    threshold: :class:`scenarios.scorable.Party`).  Never another party's table."""

    seat: str
    party: int
    turn: int
    last_turn: int
    history: tuple[Turn, ...]
    game: PublicGame
    own: Any
    #: the one decision of this game: a proposal
    step = "propose"

    @property
    def final(self) -> bool:
        """True at p1's final proposal (the deal that decides the session)."""
        return self.turn == self.last_turn

    @property
    def table(self) -> Optional[tuple]:
        """The deal on the table (the latest proposal), None before the opening."""
        return self.history[-1].deal if self.history else None


@attrs.frozen
class Outcome:
    """A finished session: the final deal, each party's acceptance of it, FAR (all accept),
    PAR (it passes), LAR (some deal of the session passes) and every proposed deal in order."""

    final: tuple
    accepted: tuple
    far: bool
    par: bool
    lar: bool
    deals: tuple


def as_deal(game: Any, deal: Any) -> Optional[tuple]:
    """``deal`` as a deal of ``game`` (a :class:`Game` or :class:`PublicGame`): a tuple of one
    integer option index per issue, each within its issue's options; None when it is not one."""
    counts = game.option_counts
    if type(deal) is tuple and len(deal) == len(counts):
        for o, k in zip(deal, counts):
            if type(o) is not int or not 0 <= o < k:
                break
        else:
            return deal  # (the usual case: a tuple of ints, checked in one pass)
    try:
        items = tuple(deal)
    except TypeError:
        return None
    if len(items) != len(counts) or not all(
            isinstance(o, (int, np.integer)) and not isinstance(o, (bool, np.bool_)) and 0 <= o < k
            for o, k in zip(items, counts)):
        return None
    return tuple(int(o) for o in items)


def deal_fault(game: Any, deal: Any) -> str:
    """``""`` when ``deal`` is a deal of ``game`` (:func:`as_deal`), else why not."""
    if as_deal(game, deal) is None:
        return f"a deal is one option per issue of game {game.id} {tuple(game.option_counts)}"
    return ""


class ScorableGame:
    """The scorable multi-party protocol (registered as ``scorable-v1``): ``ScorableGame(settings)``
    or ``ScorableGame(**fields)`` (every :class:`Settings` field a keyword, ``PARAMS``, read by
    ``--list-params``).  Of the settings the game reads ``threshold_test``; the others are the
    built-in parties' (their set-up reads them from here)."""

    PARAMS = Settings
    system = "scorable"

    def __init__(self, settings: Optional[Settings] = None, **fields: Any):
        base = Settings() if settings is None else settings
        self.settings = attrs.evolve(base, **fields) if fields else base

    def start(self, game: Game, order: Sequence[int], run_id: str) -> "ScorableState":
        """A session of ``game`` with the speaking ``order`` (:func:`session_order`: p1, the
        ``game.turns`` turns, p1), its transcript under ``run_id``."""
        order = tuple(int(n) for n in order)
        if len(order) != game.turns + 2 or order[0] != game.p1 or order[-1] != game.p1 or not all(
                0 <= n < game.n_parties for n in order):
            raise ValueError(f"a speaking order of {game.id} is p1, {game.turns} turns of its {game.n_parties} "
                             f"parties, p1; got {order!r}")
        return ScorableState(self, game, order, run_id)

    def seats(self, state: "ScorableState") -> tuple[str, ...]:
        return state.seats

    # -- the finite view (simcore.env): deal i of the game's deals, in lexicographic order --
    def action_count(self, state: "ScorableState", seat: str) -> int:
        return state.scenario.n_deals

    def decision(self, state: "ScorableState", seat: str, index: int) -> Proposal:
        """Deal ``index`` of :attr:`scenarios.scorable.Game.deals` (lexicographic order), without words."""
        return Proposal(tuple(int(x) for x in state.scenario.deals[index]))

    def mask(self, state: "ScorableState", seat: str) -> list[bool]:
        n = state.scenario.n_deals
        if state.to_act != seat:
            return [False] * n
        if state.turn == 0:
            out = [False] * n
            out[int(np.ravel_multi_index(state.opening, state.scenario.option_counts))] = True
            return out
        return [True] * n

    def feature_count(self, game: Game) -> int:
        return 5 + (game.n_parties + 2) * sum(game.option_counts)

    def features(self, state: "ScorableState", seat: str) -> np.ndarray:
        """The seat's observation as numbers (:meth:`feature_count` of them), K being the
        number of options of all issues: the share of the session played (turn / T); 1 at
        the seat's own final proposal; 1 when it is the seat's turn; its threshold and its
        score of the deal on the table, each divided by its best score; then per option
        (issue by issue) its own score of the option divided by its best score (K); a 1
        where the deal on the table holds the option (K); and for each party in the game's
        order, the share of that party's proposals so far holding each option (K each:
        the public record)."""
        g = state.scenario
        counts = g.option_counts
        K = sum(counts)
        starts = np.cumsum((0,) + counts[:-1])
        n = state.seats.index(seat)
        me = g.parties[n]
        best = me.best or 1.0
        out = np.zeros(5 + (g.n_parties + 2) * K, dtype=np.float32)
        mine = state.to_act == seat
        out[0] = state.turn / state.last_turn
        out[1] = float(mine and state.turn == state.last_turn)
        out[2] = float(mine)
        out[3] = me.threshold / best
        out[5:5 + K] = [x / best for row in me.scores for x in row]
        if state.history:
            table = state.history[-1].deal
            out[4] = g.score(n, table) / best
            out[5 + K + starts + np.asarray(table)] = 1.0
        by = np.zeros((g.n_parties, K))
        made = np.zeros(g.n_parties)
        for turn in state.history:
            by[turn.party, starts + np.asarray(turn.deal)] += 1.0
            made[turn.party] += 1.0
        out[5 + 2 * K:] = (by / np.maximum(made, 1.0)[:, None]).ravel()
        return out


class ScorableState:
    """One scorable session in progress (the contract's ``State``).  ``turn`` is the entry
    to play next (0 .. ``last_turn``); ``history`` the public turns so far."""

    def __init__(self, game: ScorableGame, scenario: Game, order: tuple[int, ...], run_id: str):
        self.game, self.scenario, self.order = game, scenario, order
        self.seats: tuple[str, ...] = tuple(p.short for p in scenario.parties)
        self.public = public_game(scenario)
        self.opening: tuple[int, ...] = tuple(int(x) for x in scenario.initial_deal)
        self.strict = game.settings.strict
        self.transcript = Transcript(run_id)
        self.turn = 0
        self.last_turn = scenario.turns + 1
        self.history: tuple[Turn, ...] = ()
        #: the seat to act (p1 opens), None once over
        self.to_act: Optional[str] = self.seats[order[0]]
        self.outcome: Optional[Outcome] = None
        self._deals: Optional[tuple] = None

    # -- the contract ------------------------------------------------------------------
    def observe(self, seat: str) -> Observation:
        n = self.seats.index(seat)
        return Observation(seat, n, self.turn, self.last_turn, self.history, self.public, self.scenario.parties[n])

    def legal(self, seat: str) -> Legal:
        if seat != self.to_act:
            why = "the negotiation is over" if self.to_act is None else f"it is not {seat}'s turn"
            return Legal("propose", f"nothing ({why})", lambda action: why, ())
        if self.turn == 0:
            decisions = (self.opening,)
            describe = f"a Proposal of the game's initial deal {' '.join(self.scenario.deal_ids(self.opening))}"
        else:
            if self._deals is None:
                self._deals = tuple(tuple(int(x) for x in d) for d in self.scenario.deals)
            decisions = self._deals
            describe = f"a Proposal of any deal of {self.scenario.id}: one option per issue"
        return Legal("propose", describe, self._fault, decisions)

    def _fault(self, action: Any) -> str:
        """Why ``action`` is not legal now, or ``""``."""
        return self._check(action)[0]

    def _check(self, action: Any) -> tuple[str, Any]:
        """``(why action is not legal now, or "";  the deal it plays, as a tuple of ints)``."""
        if type(action) is not Proposal and not isinstance(action, Proposal):
            return f"act() must return a simcore.protocols.scorable.Proposal, not {type(action).__name__}", None
        deal = as_deal(self.scenario, action.deal)
        if deal is None:
            return deal_fault(self.scenario, action.deal), None
        if self.turn == 0 and deal != self.opening:
            return (f"p1's opening is the game's initial deal {' '.join(self.scenario.deal_ids(self.opening))}",
                    None)
        if type(action.text) is not str:
            return f"the words must be a string, not {type(action.text).__name__}", None
        return "", deal

    def apply(self, action: Any) -> None:
        if self.to_act is None:
            raise illegal("the negotiation is over", action)
        why, deal = self._check(action)
        if why:
            raise illegal(why, action)
        t = self.turn
        n = self.order[t]
        self.history += (Turn(n, deal, action.text),)
        self.transcript.add_made(self._turn_event, t, n, deal, action)
        t += 1
        self.turn = t
        if t > self.last_turn:
            self._end()
        else:
            self.to_act = self.seats[self.order[t]]

    def _turn_event(self, t: int, n: int, deal: tuple, action: Proposal) -> tuple:
        """A turn's event: the deal's option ids, the words, the proposal's reading and notes."""
        phase = "open" if t == 0 else ("final" if t == self.last_turn else "turn")
        hidden = action.hidden
        if callable(hidden):
            hidden = hidden()
        return (self.seats[n], phase, t, None, {"deal": list(self.scenario.deal_ids(deal))}, action.text,
                action.reading, hidden)

    def _end(self) -> None:
        g, strict = self.scenario, self.strict
        deals = tuple(turn.deal for turn in self.history)
        final = deals[-1]
        acc = g.accepts(final, strict)
        par = g.passes(final, strict)
        lar = bool(g.passing(strict)[np.ravel_multi_index(np.array(deals).T, g.option_counts)].any())
        self.to_act = None
        self.outcome = Outcome(final, acc, all(acc), par, lar, deals)
