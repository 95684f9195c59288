"""The session model: what the built-in parties of one session share.

All of it is public information or per-method machinery, never a channel from one party's
hidden state to another's (but for ``implicit_knowledge``, the stand-in setting whose meaning is
that a negotiator knows that share of the others' true tables, 0 by default):

* the turn draws (:class:`TurnDraws`): each turn's speaker cues and generator, shared by the
  methods of one trial (common random numbers);
* the reading: one ``scorable-extract`` call per utterance, a public reading every listener
  shares (seed Figure 2, narrowed to the latest utterance);
* the estimates: the estimate of party j (Bayes posterior for Base-OM and Proposed, the
  ``scorable-estimate`` table for LLM-PE) depends only on j's public deals and the signals
  read from j's words, so it is computed once per party per turn and shared among the
  observers that use the same model (:mod:`policies.bayes`, :mod:`policies.llm_pe`); the
  echo stand-in of a party without an estimator (:func:`policies.scorable.echo_estimate`) is
  likewise a function of the public record;
* the measurements: p1's estimation error after each turn (the MSE trace), and how many of
  the signals read were among the cues the speaker meant (built-in speakers only: a user's
  agent tells no one what it meant).

A built-in party reads (:meth:`SessionModel.read`) right after it speaks; the turns of a
user's agent are read (:meth:`SessionModel.catch_up`) when a built-in party next acts, or
at the finish, in turn order, each with its own generator ``child(seq, "read", t)``.

The notes a turn's event carries about the estimate of its speaker (the posterior's most
probable hypotheses, LLM-PE's table) are made when the transcript is read (:class:`Replay`),
so a session whose turn events nobody reads computes none of them.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from mockllm.client import ModelClient
from mockllm.scorable import EXTRACT
from policies import bayes
from policies.llm_pe import issues_context, pe_estimate, prior_mean_table
from policies.scorable import (blend_with_truth, choose_cues, deal_index, deal_view, echo_estimate,
                               echo_with_words)
from scenarios.scorable import Game
from simcore.protocols.scorable import Settings
from simcore.seeding import child
from simcore.systems.scorable.methods import METHODS, estimates

# Seeds the bit generator a stored turn state is loaded into (its own state is overwritten
# at once); a SeedSequence made once spares hashing a seed for every turn read again.
_PLACEHOLDER_SEED = np.random.SeedSequence(0)


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
        bits = np.random.PCG64(_PLACEHOLDER_SEED)
        bits.state = state
        return cues, np.random.Generator(bits)


def _canonical(sig) -> tuple:
    """A signal as what it says: a comparison that opposes the first item is the one that
    prefers the second ("oppose B, A" says what "prefer A, B" says)."""
    if sig.signal_type == "comparison" and sig.stance == "oppose":
        return (sig.entity, sig.signal_type, (sig.items[1], sig.items[0]), "prefer")
    return (sig.entity, sig.signal_type, tuple(sig.items), sig.stance)


def readings_right(names, option_counts, meant, read) -> int:
    """How many of the signals ``read`` from an utterance are among the cues the speaker was
    asked to give (``meant``, the speak task's context), each cue matched at most once: the
    intended content is known, so a parsed reading is scored against it."""
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


class SessionModel:
    """The shared machinery of one session's built-in parties under ``method`` (the module
    docstring): ``client`` asks the reading and LLM-PE's estimates, ``draws`` gives each
    turn's cues and generator."""

    def __init__(self, game: Game, method: str, settings: Settings, client: ModelClient, draws: TurnDraws,
                 seq: np.random.SeedSequence):
        self.game, self.method, self.settings = game, method, settings
        self.client, self.draws, self.seq = client, draws, seq
        self.estimator = METHODS[method][1]
        N, p1 = game.n_parties, game.p1
        self.names = [i.name for i in game.issues]
        self.shorts = [p.short for p in game.parties]
        self.issues_ctx = issues_context(game)
        self.estimating = [estimates(method, n, p1) for n in range(N)]
        self.truth = [np.concatenate([np.asarray(r, dtype=float) for r in p.scores]) for p in game.parties]
        #: the parties whose estimate some observer needs
        self.observed = [j for j in range(N) if any(self.estimating[i] and i != j for i in range(N))]
        self.space = bayes.hypothesis_space(game.option_counts) if self.estimator in ("om", "proposed") else None
        self.posts = {j: bayes.Posterior(self.space) for j in self.observed} if self.space is not None else {}
        self.replays = {j: Replay(self.space, settings.sigma, settings.floor) for j in self.posts}
        prior = prior_mean_table(game)
        self.shared = {j: prior for j in self.observed}  # the shared estimate of party j
        self.heard: list[list[dict]] = [[] for _ in range(N)]
        self.said: list[list] = [[] for _ in range(N)]  # the signals read from j's words, as Signal objects
        self.proposed: list[list[tuple[int, ...]]] = [[] for _ in range(N)]
        self.shown: list[list[int]] = [[] for _ in range(N)]  # indices of the deals j chose to put on the table
        self.learnt = settings.acceptance_rule == "learnt"
        self.mse_cur = {j: round(bayes.table_mse(prior, self.truth[j]), 2) for j in self.observed}
        self.mse_trace: list[Optional[float]] = []  # p1's average MSE after each turn
        self.reading = [0, 0, 0]  # signals read, of them what the speaker meant, cues meant
        self.done = 0  # public turns read so far
        self._views: dict[tuple[bool, int], tuple[Any, Any, int]] = {}

    def view_of(self, j: int, use_shared: bool):
        """j's estimate as a proposer uses it (the shared model's, or the echo stand-in), as a
        :class:`policies.scorable.DealView`, rebuilt only when it has changed since it was
        last built."""
        s = self.settings
        proposed, said = self.proposed[j], self.said[j]
        if use_shared:
            source = self.shared[j]
        elif s.echo_history == "all":
            source = (len(proposed), len(said))
        else:
            source = (proposed[-1] if proposed else None, len(said))
        n_shown = len(self.shown[j]) if self.learnt else 0
        hit = self._views.get((use_shared, j))
        if hit is not None and hit[2] == n_shown and (hit[0] is source if use_shared else hit[0] == source):
            return hit[1]
        deals = proposed if s.echo_history == "all" else proposed[-1:]
        est = self.shared[j] if use_shared else (echo_with_words(self.game, deals, said) if s.echo_words
                                                 else echo_estimate(self.game, deals))
        if s.implicit_knowledge > 0:
            est = blend_with_truth(self.game, j, est, s.implicit_knowledge)
        view = deal_view(self.game, est, s.acceptance_rule, s.assumed_share, s.assumed_threshold, self.shown[j])
        self._views[(use_shared, j)] = (source, view, n_shown)
        return view

    def read(self, t: int, n: int, deal: tuple, text: str, meant: Optional[Sequence[dict]],
             rng: np.random.Generator) -> tuple[list, Optional[Callable[[], dict]], dict]:
        """Read party ``n``'s turn ``t`` (one ``scorable-extract`` call), update the
        estimates of ``n`` and p1's error trace; ``meant``: the cues the speaker was asked to
        give (None when unknown: a user's turn).  Returns the signals read (as the task gave
        them), a function making the estimate's note (None when nobody estimates ``n``) and
        the observers' current errors by party."""
        game, s = self.game, self.settings
        name = game.parties[n].name
        deal_ids = list(game.deal_ids(deal))
        read = self.client.ask(EXTRACT, rng, fallback=lambda: {}, speaker=name, issues=self.issues_ctx,
                               deal=deal_ids, utterance=text)
        raw = read.get(name, [])
        signals = [sig for sig in (bayes.resolve_signal(self.names, game.option_counts, r) for r in raw)
                   if sig is not None]
        if meant is not None:
            self.reading[0] += len(signals)
            self.reading[1] += readings_right(self.names, game.option_counts, meant, signals)
            self.reading[2] += len(meant)
        self.proposed[n].append(deal)
        if self.learnt and t > 0:  # p1's opening is the game's initial deal, not a deal p1 chose
            self.shown[n].append(deal_index(game, deal))
        self.heard[n] += [dict(r, turn=t) for r in raw]
        self.said[n] += signals
        note = None
        if n in self.shared:
            if self.space is not None:
                target = bayes.conceder_target(t, game.turns + 1, s.assumed_reservation)
                used = signals if self.estimator == "proposed" else ()
                self.posts[n].update(deal, target, s.sigma, used, s.floor)
                self.shared[n] = self.posts[n].estimate()
                note = self.replays[n].note(deal, target, used, s.top_k, self.names)
            else:
                table, _ok = pe_estimate(self.client, game, n, self.proposed[n], self.heard[n], rng)
                self.shared[n] = table
                note = _table_note(table, self.names)
        if n in self.mse_cur:
            self.mse_cur[n] = round(bayes.table_mse(self.shared[n], self.truth[n]), 2)
        mse_now = {self.shorts[j]: self.mse_cur[j] for j in self.observed}
        p1 = game.p1
        p1_view = [self.mse_cur[j] for j in self.observed if j != p1] if self.estimating[p1] else []
        self.mse_trace.append(sum(p1_view) / len(p1_view) if p1_view else None)
        self.done = t + 1
        return raw, note, mse_now

    def catch_up(self, history) -> None:
        """Read the public turns not read yet (a user's agent's, whose words no built-in
        party has read), in order, each with ``child(seq, "read", t)``."""
        for t in range(self.done, len(history)):
            turn = history[t]
            self.read(t, turn.party, turn.deal, turn.text, None, child(self.seq, "read", t))

    def p1_errors(self) -> dict:
        """p1's final estimation error per other party (MSE per table entry), when p1 estimates."""
        p1 = self.game.p1
        if not self.estimating[p1]:
            return {}
        return {self.shorts[j]: bayes.table_mse(self.shared[j], self.truth[j])
                for j in range(self.game.n_parties) if j != p1 and j in self.shared}


class Replay:
    """The updates of one party's posterior, recorded as they are made, for the notes of the
    transcript (the most probable hypotheses after each turn): a note is made when the
    transcript is first read -- for the sessions whose transcripts are kept -- by replaying
    the recorded updates on a replica (the same code on the same inputs in the same order,
    each followed by :meth:`~policies.bayes.Posterior.estimate` as in the session, so the same
    numbers); a session whose turn events nobody reads pays nothing for them.  The
    transcript makes its events in order, so the replica only moves forward."""

    def __init__(self, space: "bayes.HypothesisSpace", sigma: float, floor: float):
        self.space, self.sigma, self.floor = space, sigma, floor
        self.updates: list[tuple] = []
        self.replica: Optional[bayes.Posterior] = None
        self.applied = 0

    def note(self, deal: tuple, target: float, signals: Sequence, k: int, names: list) -> Callable[[], dict]:
        """Record one update; the function making the note of the posterior just after it."""
        self.updates.append((deal, target, signals))
        upto = len(self.updates)
        return lambda: {"top": [[self.space.describe(r, s, names), float(f"{p:.3g}")]
                                for r, s, p in self.top(upto, k)]}

    def top(self, upto: int, k: int) -> list:
        """:meth:`~policies.bayes.Posterior.top` of the posterior after the first ``upto`` updates."""
        if self.replica is None or self.applied > upto:
            self.replica, self.applied = bayes.Posterior(self.space), 0
        while self.applied < upto:
            deal, target, signals = self.updates[self.applied]
            self.replica.update(deal, target, self.sigma, signals, self.floor)
            self.replica.estimate()
            self.applied += 1
        return self.replica.top(k)


def _table_note(table, names: list) -> Callable[[], dict]:
    """The note of an LLM-PE estimate: its table rounded to 0.1, made when read."""
    return lambda: {"table": {nm: [round(float(x), 1) for x in row] for nm, row in zip(names, table)}}


def turn_notes(cues: list, info: dict, estimate: Optional[Callable[[], dict]], mse: dict) -> dict:
    """A built-in turn's private notes: the cues meant, the proposal's reasons, the estimate
    of the speaker after its turn, every observed party's error then."""
    hidden = {"cues_meant": cues, **info}
    if estimate is not None:
        hidden["estimate_of_speaker"] = estimate()
    if mse:
        hidden["mse"] = mse
    return hidden
