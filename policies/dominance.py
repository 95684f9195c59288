"""The dominance dialogue agent: one response tree per utterance type, per relation.

Every reply is a :class:`~simcore.protocols.dialogue.Decision` naming the figure and
branch of the seed that chose it.  The branches (``rule`` ids) are:

==============================  =============================================================
rule                            source (a passage of the seed, or "choice" and why)
==============================  =============================================================
open.dominant / .peer /         choice: the seed has no opening move; the Fig. 6 "open a
.submissive                     negotiation on a criterion" branch of the speaker's relation
                                is the seed's own way to start a criterion (no alternative in
                                the text, so no parameter; who opens is ``--opener``)
F1.propose-more                 Fig. 1 "Propose(C,More): proposes the preferred value ... only
                                if the value is acceptable for the agent"
F1.react                        Fig. 1 "StatePreference(less',more'): reacts to the stated
                                preference" via reactToUser (Fig. 3); ``why`` names the line
(F1 submissive AskPreference)   "when considering the structure of the tree, this branch is
                                never executed" -- not implemented (see docs)
F2.react                        sec. 2 "the agent calls the function reactToUser"
F4.accept                       Fig. 4 "Accept(Proposal): a value ... acceptable for the agent"
F4.dominant-counter-propose     Fig. 4 "counter propose with another value that better suits"
F4.dominant-reject              choice: Fig. 4 gives the dominant only a counter-proposal;
                                with no better value left the tree's other non-submissive
                                branch, "Reject(Proposal) ... not submissive", applies
F4.submissive-state             Fig. 4 "Instead of expressing a reject ... a statement"
F4.peer-reject                  Fig. 4 "Reject(Proposal) ... the agent is not submissive"
F5.booking                      Fig. 5 "Booking: a user proposes an option that is acceptable"
F5.dominant-counter-propose     Fig. 5 as Fig. 4, with options
(F5.dominant-reject)            choice, as F4.dominant-reject; only reachable in a dead end, where
                                the exit condition answers instead (see docs)
F5.submissive-state             Fig. 5 "computes the least scored value of this option"
F5.peer-reject                  Fig. 5 Reject
F6.booking                      Fig. 6 "Booking: When the user accepts an option proposal"
F6.propose-option               Fig. 6 "a non-submissive agent ... proposes an option that is
                                defined with the accepted value" (when one is acceptable)
F6.submissive-propose-option    Fig. 6 "a submissive agent will only propose an option, if the
                                user accepts a value for each criterion"
F6.dominant-open-propose        Fig. 6 "a dominant agent ... proposing his most preferred value
                                on the new criterion"
F6.peer-open-state              Fig. 6 "A peer agent opens a new subtopic ... expressing his
                                preferences"
F6.submissive-open-ask          Fig. 6 "A submissive agent ... asks the user about his
                                preferences on this criterion"
F6.propose-best-option          choice: every criterion agreed but no acceptable option holds
                                them, and Fig. 6 has no branch left; Fig. 8 "proposing other
                                proposals" is the nearest: propose my best remaining option
F7.dominant-repropose           Fig. 7 "The rejected proposal value is the agent most preferred
                                value ... he will keep proposing the proposal"
F7.submissive-ask               Fig. 7 "he asks the user about his preferences on the current
                                discussed negotiation"
F7.peer-state                   Fig. 7 "A peer agent ... expressing his preferences on the
                                current discussed criterion"
F7.dominant-propose-other       Fig. 7 "A dominant agent ... keeps on proposing values"
F8.dominant-repropose           Fig. 8 (sec. 5.2) first bullet, for options
F8.submissive-ask               Fig. 8 "The submissive agent ... will try to gather more
                                knowledge on the user preferences"
F8.peer-state                   Fig. 8 "the peer agent ... stating his preferences on the new
                                discussed criterion" (while a criterion is not agreed)
F8.propose-other                Fig. 8 "a non submissive agent ... proposing other proposals"
exit.dead-end                   exit note "checks if the negotiation is at an dead end and
                                there is no possible remaining compromise": no option left
                                that I accept and the other has not refused (a Reject; with
                                ``exit_counter_refusal``, v2, also a counter-proposal -- Fig. 4
                                "if a user proposes a value which is not acceptable, the agent
                                will counter propose")
exit.repeat                     choice, simcore's backstop (v2/v3, ``exit_on_repeat``), not the
                                seed's exit: I am about to answer the same utterance with the
                                same reply as before and nothing was learnt, agreed, refused or
                                put on the table since -- the trees are deterministic, so the
                                dialogue would cycle.  Options acceptable to both may remain,
                                so v3 (``stall_outcome``) says so ("going round in circles")
                                and the outcome is ``stalled``; v2 called it a dead end
exit.criterion                  choice, off by default (``exit_criterion``): the criterion
                                under discussion has no value acceptable to me that the other
                                has not refused.  On, it pre-empts Fig. 7 "he will keep
                                proposing the proposal" (at factor 0.7 a dominant accepts only
                                its top value), so the default keeps it off
==============================  =============================================================

Parameters (fields of :class:`AgentParams`, also the registry kwargs of
``dominance-<relation>-vN``; ``simcore run dominance --list-params`` prints them with their
sources): ``dominant_factor`` 0.7 (Fig. 2), ``option_share`` (notes), ``exit_counter_refusal``,
``exit_on_repeat`` (v2 on, v1 off), ``exit_criterion`` (off).  Structural choices with no
alternative reading in the text (reactToCriterion, the next criterion in domain order, the
counter-proposal being my best value better than the proposal and not rejected) are named
in docs/systems/dominance.md section 5 and are not parameters.

isAcceptable (Fig. 2) for a criterion value: dominant ``score > best x 0.7``
(``dominant_factor``), peer ``score > 0``, submissive ``score > 0 or isInOAS(value)``.
The agent reads the other side only through the text (``hear``), speaks only through
the mock/real LLM (``speak``); its hidden state never crosses to the listener.

In the dialogue game (:mod:`simcore.protocols.dialogue`) an agent is asked one decision at a
time (``act(observation)``, :func:`respond`): at ``open`` / ``reply`` it decides (the trees),
says its move and remembers it; at ``read`` it reads the other side's words.
"""

from __future__ import annotations

from typing import Any, Optional

import attrs
import numpy as np

from mockllm.callrng import CallRng
from mockllm.dominance import READ, SAY, phrasings, read_text_json, render
from policies.dominance_state import RELATIONS, OptionJudge, Preferences
from simcore import caches
from simcore.protocols.dialogue import (READ as READ_STEP, Accept, AskPreference, Booking, Decision, Propose,
                                        Proposal, Quit, Reject, Say, StatePreference, STALLED, Unreadable,
                                        why_illegal)

DEFAULT_OPTION_SHARE = {"dominant": 0.25, "peer": 0.5, "submissive": 0.5}

#: every branch of every tree, as named in decision logs (figure -> rule ids)
RULES = {
    "open": ("open.dominant", "open.peer", "open.submissive"),
    "Fig. 1": ("F1.propose-more", "F1.react"),
    "Sec. 2": ("F2.react",),
    "Fig. 4": ("F4.accept", "F4.dominant-counter-propose", "F4.dominant-reject", "F4.submissive-state",
               "F4.peer-reject"),
    "Fig. 5": ("F5.booking", "F5.dominant-counter-propose", "F5.submissive-state", "F5.peer-reject"),
    "Fig. 6": ("F6.booking", "F6.propose-option", "F6.submissive-propose-option", "F6.dominant-open-propose",
               "F6.peer-open-state", "F6.submissive-open-ask", "F6.propose-best-option"),
    "Fig. 7": ("F7.dominant-repropose", "F7.submissive-ask", "F7.peer-state", "F7.dominant-propose-other"),
    "Fig. 8": ("F8.dominant-repropose", "F8.submissive-ask", "F8.peer-state", "F8.propose-other"),
    "exit": ("exit.dead-end", "exit.repeat", "exit.criterion"),
}
#: the Fig. 1 branch the seed says is never executed; not implemented
UNREACHABLE = {
    "F1.submissive-ask": "Fig. 1: \"when considering the structure of the tree, this branch is never executed\"",
    "F5.dominant-reject": "no open option better than the proposed, unacceptable one means no acceptable option "
                          "is open: the exit condition (Quit) answers instead",
}


def _note(source: str, **extra) -> dict:
    """Field metadata: where a parameter's default comes from (a passage, or "choice: why").
    ``simcore run SYSTEM --list-params`` prints it."""
    return {"source": source, **extra}


@attrs.frozen
class AgentParams:
    """Numbers and readings the seed leaves open (see docs/systems/dominance.md, "Parameters").

    The defaults are the ``-v2`` readings; ``dominance-<relation>-v1`` sets the exit
    fields back to their v1 values (see the registry entries)."""

    dominant_factor: float = attrs.field(default=0.7, validator=attrs.validators.gt(0), metadata=_note(
        "seed Fig. 2: dominant accepts score(value) > bestScoreOfPreference x 0.7"))
    option_share: tuple = attrs.field(default=(0.25, 0.5, 0.5), converter=tuple, metadata=_note(
        "choice (the seed has no option rule): notes, original code: dominant top quarter, peer top half, "
        "submissive top half or already on the table"))
    exit_counter_refusal: bool = attrs.field(default=True, metadata=_note(
        "seed Fig. 4: a dominant agent answers a proposal that 'is not acceptable' with a counter-proposal, so "
        "for the exit a counter-proposal refuses what it answers (v1: only Reject refuses)"))
    exit_on_repeat: bool = attrs.field(default=True, metadata=_note(
        "choice, simcore's backstop (v2, v3 on; v1 off): the seed's only exit is 'checks if the negotiation is "
        "at an dead end and there is no possible remaining compromise to find' (exit.dead-end); the trees are "
        "deterministic, so the same exchange again with nothing learnt, agreed, refused or put on the table "
        "since would cycle to the turn limit: the agent quits.  Acceptable options may remain, so it is not "
        "the paper's dead end"))
    stall_outcome: bool = attrs.field(default=True, metadata=_note(
        "the repeat backstop's ending named for what it is (v3): the agent says it is going round in circles "
        "and the dialogue's outcome is 'stalled'; v1/v2 (False) said no place suits both and counted it as a "
        "dead end, the seed's exit"))
    exit_criterion: bool = attrs.field(default=False, metadata=_note(
        "choice, off: also quit when the criterion under discussion has no value acceptable to me that the "
        "other has not refused; on, it pre-empts Fig. 7 'he will keep proposing the proposal'"))

    @option_share.validator
    def _share(self, _a, v):
        if len(v) != 3 or not all(0 < x <= 1 for x in v):
            raise ValueError("option_share needs three shares in (0, 1] (dominant, peer, submissive)")

    def shares(self) -> dict:
        return dict(zip(RELATIONS, self.option_share))


#: the exit readings of dominance-<relation>-v2 (no stalled outcome) and -v1 (also none of the later exits)
V2_EXIT = {"stall_outcome": False}
V1_EXIT = {**V2_EXIT, "exit_counter_refusal": False, "exit_on_repeat": False, "exit_criterion": False}


_JUDGES: dict = caches.memo("policies.dominance: option judges by preference profile")


def _judge(domain, prefs, params):
    """(OptionJudge, scores, best scores, rankings, empty models) for one preference profile,
    memoised: the same profiles play every relation pair, and a small domain has few profiles
    (the key is the profile's statements, so a profile drawn again in another job is a hit)."""
    key = (domain.id, id(domain), tuple((c, p.statements) for c, p in sorted(prefs.items())), params.option_share)
    hit = _JUDGES.get(key)
    if hit is None:
        if len(_JUDGES) > 4096:
            _JUDGES.clear()
        scores = {c: p.scores() for c, p in prefs.items()}
        hit = _JUDGES[key] = (OptionJudge.build(domain, prefs, params.shares()), scores,
                              {c: max(s.values()) for c, s in scores.items()},
                              {c: p.ranking() for c, p in prefs.items()},
                              {c.name: Preferences(c.name, c.values) for c in domain.criteria})
    return hit


def respond(participant: Any, observation: Any) -> Any:
    """A participant's action for the decision ``observation`` asks, through its per-step
    methods: at ``read`` its reading of the words (``hear``); at ``open`` / ``reply`` its
    decision on what it heard (``decide``), said (``speak``) and remembered (``commit``) --
    unless the move is not legal now (it can follow a misreading), which it does not say:
    the :class:`~simcore.protocols.dialogue.Say` then has no words and the game refuses it or,
    after a misreading, counts it (no model call is spent on a move that is not made)."""
    if observation.step == READ_STEP:
        return participant.hear(observation.text)
    dec = participant.decide(observation.heard)
    utt = dec.utterance
    if observation.why_not(utt):
        return Say(dec, None)
    text = participant.speak(utt)
    participant.commit(utt)
    return Say(dec, text)


class DominanceAgent:
    """One side of the dialogue (the agent, or the simulated user built from the same trees).

    ``voice`` speaks and reads for it (:class:`Voice`, :class:`DirectVoice`: ``speak(who,
    utterance) -> str``, ``read(who, text) -> reading``); without one it says its move's dict
    and reads nothing."""

    def __init__(self, name: str, relation: str, domain, prefs: dict[str, Preferences], *,
                 params: AgentParams = AgentParams(), voice: Any = None):
        if relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
        self.name, self.relation, self.domain, self.params = name, relation, domain, params
        self.topic = domain.topic
        self._names = domain.criterion_names
        self.self_prefs = dict(prefs)
        self.judge, self._scores, self._best, self._ranking, empty = _judge(domain, self.self_prefs, params)
        self.other = dict(empty)
        self.oas = dict(empty)
        self.agreed: dict[str, str] = {}
        self.rejected_by_other: set = set()
        self.rejected_options: set = set()
        self.rejected_values: dict[str, set] = {c.name: set() for c in domain.criteria}
        self._any_value_rejected = 0
        self._dead_key, self._dead = None, False
        # for the exit only: proposals the other answered with a counter-proposal (Fig. 4)
        self.countered_options: set = set()
        self.countered_values: dict[str, set] = {c.name: set() for c in domain.criteria}
        self._n_countered = 0
        self._last_said = None
        self._exchanges: dict = {}          # (heard, reply) -> progress key when it was said
        self.table: dict[str, int] = {}        # option name -> times proposed (by anyone)
        self.my_last_proposal: Optional[Proposal] = None
        self.current: Optional[str] = None
        self.voice = voice

    def act(self, observation) -> Any:
        """The dialogue game's decisions: :func:`respond`, written out (the one path every
        turn of every dialogue takes)."""
        if observation.step == READ_STEP:
            return self.hear(observation.text)
        dec = self.decide(observation.heard)
        utt = dec.utterance
        if why_illegal(observation.domain, observation.record, observation.seat, utt):
            return Say(dec, None)
        text = self.speak(utt)
        self.commit(utt)
        return Say(dec, text)

    # scores and acceptability -------------------------------------------------
    def score(self, criterion: str, value: str) -> int:
        return self._scores[criterion][value]

    def most_preferred(self, c: str) -> str:
        return self._ranking[c][0]

    def least_preferred(self, c: str) -> str:
        return self._ranking[c][-1]

    def is_in_oas(self, c: str, value: str) -> bool:
        return self.oas[c].mentions(value)

    def is_acceptable(self, c: str, value: str) -> bool:
        """Fig. 2."""
        s = self.score(c, value)
        if self.relation == "dominant":
            return s > self._best[c] * self.params.dominant_factor
        if self.relation == "peer":
            return s > 0
        return s > 0 or self.is_in_oas(c, value)

    def option_acceptable(self, name: str, *, discount_current: bool = False) -> bool:
        """Utility ranking (notes); the submissive also takes an option already on the table."""
        if self.judge.in_top(name, self.relation):
            return True
        if self.relation == "submissive":
            times = self.table.get(name, 0) - (1 if discount_current else 0)
            return times > 0
        return False

    def _option_open(self, name: str) -> bool:
        """Not rejected by the other side, and holding no value it rejected."""
        if name in self.rejected_options:
            return False
        if not self._any_value_rejected:
            return True
        opt = self.domain.option(name)
        return not any(v in self.rejected_values[c] for c, v in zip(self._names, opt.values))

    def _refused(self, c: str, value: str) -> bool:
        """The other refused ``value`` of ``c`` (Reject; with ``exit_counter_refusal``, also a
        counter-proposal)."""
        return value in self.rejected_values[c] or (self.params.exit_counter_refusal
                                                    and value in self.countered_values[c])

    def _option_open_for_exit(self, name: str) -> bool:
        if not self._option_open(name):
            return False
        if not (self.params.exit_counter_refusal and self._n_countered):
            return True
        if name in self.countered_options:
            return False
        opt = self.domain.option(name)
        return not any(v in self.countered_values[c] for c, v in zip(self._names, opt.values))

    def dead_end(self) -> bool:
        """The exit condition: no option left that I accept and the other has not ruled out."""
        key = (len(self.rejected_options), self._any_value_rejected, len(self.table), self._n_countered)
        if self._dead_key != key:
            self._dead_key = key
            self._dead = not any(self.option_acceptable(n) and self._option_open_for_exit(n)
                                 for n in self.judge.order)
        return self._dead

    def criterion_dead(self, c: str) -> bool:
        """No value of ``c`` is acceptable to me and not refused by the other."""
        return not any(self.is_acceptable(c, v) and not self._refused(c, v) for v in self._ranking[c])

    def progress_key(self) -> tuple:
        """Everything my replies depend on that can change during a dialogue.  The statements of
        each model and the options on the table only grow, so their totals stand for them: two
        keys of one dialogue are equal exactly when those are (a count that grew makes the
        total grow)."""
        other, oas, names, agreed = self.other, self.oas, self._names, self.agreed
        return (sum([len(other[c].statements) for c in names]), sum([len(oas[c].statements) for c in names]),
                tuple(sorted(agreed.items())) if agreed else (), len(self.rejected_options), self._any_value_rejected,
                self._n_countered, len(self.table), self.current)

    # the models ---------------------------------------------------------------
    def perceive(self, utt) -> None:
        """Update the other / table models from what was *read* from the other's text."""
        if isinstance(utt, StatePreference):
            self.other[utt.criterion] = self.other[utt.criterion].add(utt.less, utt.more)
            self.current = utt.criterion
        elif isinstance(utt, AskPreference):
            self.current = utt.criterion
        elif isinstance(utt, (Propose, Accept, Reject)):
            p = utt.proposal
            self.current = p.type
            mine = self._last_said
            if (isinstance(utt, Propose) and isinstance(mine, Propose) and mine.proposal.type == p.type
                    and mine.proposal.value != p.value):
                # a counter-proposal: the other did not find my proposal acceptable (Fig. 4 / 5)
                refused = self.countered_options if p.type == self.topic else self.countered_values[p.type]
                if mine.proposal.value not in refused:
                    refused.add(mine.proposal.value)
                    self._n_countered += 1
            if isinstance(utt, Propose) and p.type == self.topic:
                self.table[p.value] = self.table.get(p.value, 0) + 1
            elif isinstance(utt, Accept) and p.type != self.topic:
                self.agreed[p.type] = p.value
            elif isinstance(utt, Reject):
                self.rejected_by_other.add(p)
                if p.type == self.topic:
                    self.rejected_options.add(p.value)
                elif p.value not in self.rejected_values[p.type]:
                    self.rejected_values[p.type].add(p.value)
                    self._any_value_rejected += 1
                    if self.agreed.get(p.type) == p.value:
                        del self.agreed[p.type]

    def commit(self, utt) -> None:
        """Update my own models (OAS, agreements, table) from what I said."""
        self._last_said = utt
        if isinstance(utt, StatePreference):
            self.oas[utt.criterion] = self.oas[utt.criterion].add(utt.less, utt.more)
            self.current = utt.criterion
        elif isinstance(utt, AskPreference):
            self.current = utt.criterion
        elif isinstance(utt, (Propose, Accept, Reject)):
            p = utt.proposal
            self.current = p.type
            if isinstance(utt, Propose):
                self.my_last_proposal = p
                if p.type == self.topic:
                    self.table[p.value] = self.table.get(p.value, 0) + 1
            elif isinstance(utt, Accept) and p.type != self.topic:
                self.agreed[p.type] = p.value

    # language (through the LLM only) ------------------------------------------
    def speak(self, utt) -> str:
        return self.voice.speak(self, utt) if self.voice is not None else repr(utt.to_dict())

    def hear(self, text: str):
        reading = self.voice.read(self, text) if self.voice is not None else Unreadable("no reader", unread=True)
        if not isinstance(reading, Unreadable):
            self.perceive(reading)
        return reading

    # reactToUser (Fig. 3) -----------------------------------------------------
    def _order(self, a: str, b: str) -> tuple[str, str]:
        """computePreference: my own order of two values, as (less, more)."""
        return (a, b) if self.score(self._crit(a), a) < self.score(self._crit(a), b) else (b, a)

    def _crit(self, value: str) -> str:
        return self.domain.criterion_of(value)

    def react_to_criterion(self, c: str, value: Optional[str]):
        """A preference about ``value`` that I have not told yet (None when all are told)."""
        if value is None:
            return None
        for x in self._ranking[c]:
            if x == value:
                continue
            less, more = self._order(value, x)
            if not self.oas[c].implies(less, more):
                return (less, more)
        return None

    def react_to_user(self, c: str, less: Optional[str], more: Optional[str]) -> tuple[tuple, str]:
        """Fig. 3; returns the pair to state and the line that produced it.

        The seed writes "in OAS" on lines 2, 4 and 7.  Lines 2 and 4 ask whether the star
        statement itself ("X is my most / least preferred") was made -- a literal test;
        line 7 asks whether the pair follows from what was told (the transitive closure).
        Reading lines 2 and 4 through the closure too would let a chain of pairwise
        statements stand in for the superlative the line is about; simcore keeps the
        literal reading there."""
        mp, lp = self.most_preferred(c), self.least_preferred(c)
        for v, most_line, least_line in ((more, "lines 2-3", "lines 4-5"), (less, "line 6", "line 6")):
            if v is None:
                continue
            if v == mp and (None, v) not in self.oas[c].statements:
                return (None, v), f"Fig. 3 {most_line}: {v} is my most preferred {c}"
            if v == lp and (v, None) not in self.oas[c].statements:
                return (v, None), f"Fig. 3 {least_line}: {v} is my least preferred {c}"
        if less is not None and more is not None:
            pair = self._order(less, more)
        else:
            v = less if less is not None else more
            partner = mp if v != mp else lp
            pair = self._order(v, partner)
        if self.oas[c].implies(*pair):
            r1 = self.react_to_criterion(c, more)
            if r1 is not None:
                return r1, "Fig. 3 lines 7-9: already told; reactToCriterion(more)"
            r2 = self.react_to_criterion(c, less)
            if r2 is not None:
                return r2, "Fig. 3 lines 11-14: already told; reactToCriterion(less)"
            return pair, "Fig. 3 line 13: nothing new to tell; computePreference again"
        return pair, "Fig. 3 line 15: computePreference(less, more)"

    def state_about(self, c: str) -> StatePreference:
        """Open / continue a criterion by stating a preference I have not told yet."""
        mp, lp = self.most_preferred(c), self.least_preferred(c)
        if (None, mp) not in self.oas[c].statements:
            return StatePreference(c, None, mp)
        if (lp, None) not in self.oas[c].statements:
            return StatePreference(c, lp, None)
        for v in self._ranking[c]:
            pair = self.react_to_criterion(c, v)
            if pair is not None:
                return StatePreference(c, *pair)
        return StatePreference(c, None, mp)

    # helpers for the trees ----------------------------------------------------
    def best_value(self, c: str, *, exclude: Optional[str] = None, better_than: Optional[str] = None):
        """My best value on ``c`` the other has not rejected (optionally > ``better_than``)."""
        floor = self.score(c, better_than) if better_than is not None else None
        for v in self._ranking[c]:
            if v == exclude or v in self.rejected_values[c]:
                continue
            if floor is not None and self.score(c, v) <= floor:
                return None
            return v
        return None

    def best_option(self, *, exclude: Optional[str] = None, acceptable: bool = True,
                    with_agreed: bool = True) -> Optional[str]:
        names = self._names
        for n in self.judge.order:
            if n == exclude or not self._option_open(n):
                continue
            if acceptable and not self.option_acceptable(n):
                continue
            if with_agreed:
                opt = self.domain.option(n)
                if any(self.agreed.get(c, v) != v for c, v in zip(names, opt.values)):
                    continue
            return n
        return None

    def next_criterion(self, after: Optional[str] = None) -> Optional[str]:
        """The next criterion (domain order, after ``after``, wrapping) with no agreed value."""
        names = self._names
        start = names.index(after) + 1 if after in names else 0
        for k in range(len(names)):
            c = names[(start + k) % len(names)]
            if c not in self.agreed:
                return c
        return None

    def _propose_value(self, c: str, v: str) -> Propose:
        return Propose(Proposal(c, v))

    def _propose_option(self, name: str) -> Propose:
        return Propose(Proposal(self.topic, name))

    def _open(self, c: str, fig: str) -> Decision:
        """Open a negotiation on criterion ``c`` in the relation's style (Fig. 6)."""
        if self.relation == "dominant":
            v = self.best_value(c) or self.most_preferred(c)
            return Decision(self._propose_value(c, v), fig, "F6.dominant-open-propose" if fig != "open"
                            else "open.dominant", f"my most preferred {c} not ruled out: {v}")
        if self.relation == "peer":
            return Decision(self.state_about(c), fig, "F6.peer-open-state" if fig != "open" else "open.peer",
                            f"state my preference on {c}")
        return Decision(AskPreference(c), fig, "F6.submissive-open-ask" if fig != "open" else "open.submissive",
                        f"ask the other's preference on {c}")

    # the trees ----------------------------------------------------------------
    def decide(self, heard) -> Decision:
        if heard is None:
            dec = self._open(self.next_criterion() or self._names[0], "open")
        elif isinstance(heard, StatePreference):
            dec = self.on_state(heard)
        elif isinstance(heard, AskPreference):
            dec = self.on_ask(heard)
        elif isinstance(heard, Propose):
            dec = self.on_propose_option(heard) if heard.proposal.type == self.topic else self.on_propose_value(heard)
        elif isinstance(heard, Accept):
            dec = self.on_accept(heard)
        elif isinstance(heard, Reject):
            dec = self.on_reject_option(heard) if heard.proposal.type == self.topic else self.on_reject_value(heard)
        else:
            raise ValueError(f"{self.name}: cannot reply to {heard!r}")
        if isinstance(dec.utterance, (Booking, Accept, Quit)):
            return dec
        if self.dead_end():
            return Decision(Quit(), "exit", "exit.dead-end",
                            "no option left that I accept and the other has not ruled out")
        c = getattr(getattr(heard, "proposal", None), "type", None) or getattr(heard, "criterion", None)
        if self.params.exit_criterion and c is not None and c != self.topic and self.criterion_dead(c):
            return Decision(Quit(), "exit", "exit.criterion",
                            f"no {c} left that I accept and the other has not refused")
        if self.params.exit_on_repeat and heard is not None:
            key, now = (heard, dec.utterance), self.progress_key()
            if self._exchanges.get(key) == now:
                return Decision(Quit(STALLED) if self.params.stall_outcome else Quit(), "exit", "exit.repeat",
                                "the same exchange again, with nothing learnt, agreed or refused since")
            self._exchanges[key] = now
        return dec

    def on_state(self, u: StatePreference) -> Decision:
        """Fig. 1."""
        c = u.criterion
        if u.more is not None and self.is_acceptable(c, u.more):
            return Decision(self._propose_value(c, u.more), "Fig. 1", "F1.propose-more",
                            f"{u.more} is acceptable to a {self.relation} agent")
        pair, why = self.react_to_user(c, u.less, u.more)
        return Decision(StatePreference(c, *pair), "Fig. 1", "F1.react", why)

    def on_ask(self, u: AskPreference) -> Decision:
        """Sec. 2: reactToUser on the asked values (no value: my most preferred)."""
        c = u.criterion
        less, more = u.less, u.more
        if less is None and more is None:
            more = self.most_preferred(c)
        pair, why = self.react_to_user(c, less, more)
        return Decision(StatePreference(c, *pair), "Sec. 2", "F2.react", why)

    def on_propose_value(self, u: Propose) -> Decision:
        """Fig. 4."""
        c, v = u.proposal.type, u.proposal.value
        if self.is_acceptable(c, v):
            return Decision(Accept(u.proposal), "Fig. 4", "F4.accept", f"{v} is acceptable")
        if self.relation == "dominant":
            counter = self.best_value(c, exclude=v, better_than=v)
            if counter is not None:
                return Decision(self._propose_value(c, counter), "Fig. 4", "F4.dominant-counter-propose",
                                f"{counter} suits me better than {v}")
            return Decision(Reject(u.proposal), "Fig. 4", "F4.dominant-reject",
                            f"{v} is not acceptable and no better value is left")
        if self.relation == "submissive":
            better = self.most_preferred(c) if self.most_preferred(c) != v else self._ranking[c][1]
            return Decision(StatePreference(c, v, better), "Fig. 4", "F4.submissive-state",
                            f"{v} does not suit me; say so instead of rejecting")
        return Decision(Reject(u.proposal), "Fig. 4", "F4.peer-reject", f"{v} is not acceptable")

    def on_propose_option(self, u: Propose) -> Decision:
        """Fig. 5."""
        name = u.proposal.value
        if self.option_acceptable(name, discount_current=True):
            return Decision(Booking(name), "Fig. 5", "F5.booking", f"{name} is acceptable: book it")
        if self.relation == "dominant":
            counter = self.best_option(exclude=name, acceptable=False, with_agreed=False)
            if counter is not None and self.judge.utility[counter] > self.judge.utility[name]:
                return Decision(self._propose_option(counter), "Fig. 5", "F5.dominant-counter-propose",
                                f"{counter} suits me better than {name}")
            return Decision(Reject(u.proposal), "Fig. 5", "F5.dominant-reject",
                            f"{name} is not acceptable and no better option is left")
        if self.relation == "submissive":
            opt = self.domain.option(name)
            names = self._names
            worst_c, worst_v = min(zip(names, opt.values),
                                   key=lambda cv: (self.score(*cv) / max(self._best[cv[0]], 1),
                                                   names.index(cv[0])))
            better = self.most_preferred(worst_c) if self.most_preferred(worst_c) != worst_v \
                else self._ranking[worst_c][1]
            return Decision(StatePreference(worst_c, worst_v, better), "Fig. 5", "F5.submissive-state",
                            f"{worst_v} is the least scored value of {name}")
        return Decision(Reject(u.proposal), "Fig. 5", "F5.peer-reject", f"{name} is not acceptable")

    def on_accept(self, u: Accept) -> Decision:
        """Fig. 6."""
        p = u.proposal
        if p.type == self.topic:
            return Decision(Booking(p.value), "Fig. 6", "F6.booking", f"{p.value} accepted: book it")
        names = self._names
        if self.relation != "submissive":
            opt = self.best_option()
            if opt is not None:
                return Decision(self._propose_option(opt), "Fig. 6", "F6.propose-option",
                                f"{opt} holds the accepted value(s) and is acceptable")
        elif all(c in self.agreed for c in names):
            combo = tuple(self.agreed[c] for c in names)
            opt = self.domain._index["by_values"].get(combo)
            if opt is not None and self._option_open(opt.name):
                return Decision(self._propose_option(opt.name), "Fig. 6", "F6.submissive-propose-option",
                                f"every criterion agreed: {opt.name}")
        nc = self.next_criterion(after=p.type)
        if nc is not None:
            return self._open(nc, "Fig. 6")
        best = self.best_option(acceptable=False) or self.best_option(acceptable=False, with_agreed=False)
        if best is not None:
            return Decision(self._propose_option(best), "Fig. 6", "F6.propose-best-option",
                            "every criterion agreed; propose my best remaining option")
        return Decision(Quit(), "exit", "exit.dead-end", "no option left")

    def on_reject_value(self, u: Reject) -> Decision:
        """Fig. 7."""
        c, v = u.proposal.type, u.proposal.value
        if self.relation == "dominant" and v == self.most_preferred(c):
            return Decision(self._propose_value(c, v), "Fig. 7", "F7.dominant-repropose",
                            f"{v} is my most preferred {c}: keep proposing it")
        if self.relation == "submissive":
            return Decision(AskPreference(c), "Fig. 7", "F7.submissive-ask", f"ask the other's preference on {c}")
        if self.relation == "peer":
            return Decision(self.state_about(c), "Fig. 7", "F7.peer-state", f"state my preference on {c}")
        other = self.best_value(c, exclude=v) or self.most_preferred(c)
        return Decision(self._propose_value(c, other), "Fig. 7", "F7.dominant-propose-other",
                        f"propose another {c}: {other}")

    def on_reject_option(self, u: Reject) -> Decision:
        """Fig. 8."""
        name = u.proposal.value
        if self.relation == "dominant" and name == self.judge.order[0]:
            return Decision(self._propose_option(name), "Fig. 8", "F8.dominant-repropose",
                            f"{name} is my best option: keep proposing it")
        nc = self.next_criterion(after=self.current if self.current != self.topic else None)
        if self.relation == "submissive":
            c = nc or self._least_known_criterion()
            return Decision(AskPreference(c), "Fig. 8", "F8.submissive-ask", f"learn the other's preference on {c}")
        if self.relation == "peer" and nc is not None:
            return Decision(self.state_about(nc), "Fig. 8", "F8.peer-state", f"open {nc} by stating my preference")
        other = self.best_option(exclude=name) or self.best_option(exclude=name, with_agreed=False)
        if other is not None:
            return Decision(self._propose_option(other), "Fig. 8", "F8.propose-other",
                            f"propose another option: {other}")
        return Decision(Quit(), "exit", "exit.dead-end", "no acceptable option left to propose")

    def _least_known_criterion(self) -> str:
        names = self._names
        return min(names, key=lambda c: (len(self.other[c].statements), names.index(c)))


class ScriptedUser:
    """A counterpart for tests: says the given utterances in order (each one an
    utterance object, or a text that is read with the same reader as the agent's).
    It decides nothing; when the script runs out it quits.  In a seat it takes the seat's
    name and, unless given one, a :class:`Voice` on the seat's client and generator
    (``reset(setup)``)."""

    relation = "scripted"

    def __init__(self, script, *, name: str = "user", voice: Any = None):
        self.name = name
        self.script = list(script)
        self.voice = voice
        self.my_last_proposal = None
        self.their_last_proposal = None
        self._text = None
        self.heard: list = []
        self.topic = None

    def reset(self, setup) -> None:
        self.name = setup.seat
        if self.voice is None:
            self.voice = Voice(setup.scenario, setup.client, setup.rng)

    def act(self, observation) -> Any:
        return respond(self, observation)

    def decide(self, heard) -> Decision:
        if not self.script:
            return Decision(Quit("script exhausted"), "script", "script.end")
        nxt = self.script.pop(0)
        self._text = None
        if isinstance(nxt, str):
            self._text = nxt
            nxt = self.voice.read(self, nxt, own=True)
            if isinstance(nxt, Unreadable):
                raise ValueError(f"scripted text {self._text!r} is unreadable: {nxt.why}")
        return Decision(nxt, "script", "script")

    def speak(self, utt) -> str:
        if self._text is not None:
            return self._text
        return self.voice.speak(self, utt) if self.voice is not None else repr(utt.to_dict())

    def commit(self, utt) -> None:
        if isinstance(utt, Propose):
            self.my_last_proposal = utt.proposal

    def hear(self, text: str):
        self.heard.append(text)
        if self.voice is None:
            return Unreadable("a scripted user without a reader", unread=True)
        reading = self.voice.read(self, text)
        if isinstance(reading, Propose):
            self.their_last_proposal = reading.proposal
        return reading


@attrs.frozen
class DominancePolicy(AgentParams):
    """Registry object for ``dominance-<relation>-vN``: builds agents of that relation with
    these parameters (every field of :class:`AgentParams`, plus the relation)."""

    relation: str = attrs.field(kw_only=True, validator=attrs.validators.in_(RELATIONS), metadata=_note(
        "seed: the agent's relation of dominance with the user (dominant, peer, submissive)"))

    def params(self) -> AgentParams:
        return AgentParams(**{f.name: getattr(self, f.name) for f in attrs.fields(AgentParams)})

    def build(self, name: str, domain, prefs, *, params: AgentParams | None = None,
              voice: Any = None) -> DominanceAgent:
        return DominanceAgent(name, self.relation, domain, prefs, params=params or self.params(), voice=voice)


class Voice:
    """Speaking and reading through the language layer (mock or real LLM), for one side.

    ``speak`` asks the ``dominance-say`` task; ``read`` asks ``dominance-read`` and then
    matches a restaurant name against the (public) domain.  Both go through
    :class:`mockllm.client.ModelClient` with a counted fallback.
    """

    def __init__(self, domain, client, rng: np.random.Generator):
        self.domain, self.client, self.rng = domain, client, rng
        self._say, self._read_task, self._render = SAY, READ, render
        self.vocabulary = domain.vocabulary()

    def speak(self, who, utt) -> str:
        d = utt.to_dict()
        details = None
        if isinstance(utt, Propose) and utt.proposal.type == self.domain.topic:
            details = list(self.domain.option(utt.proposal.value).values)
        rel = who.relation if who.relation in RELATIONS else "peer"
        return self.client.ask(self._say, self.rng,
                               fallback=lambda: self._render(rel, d, self.domain.topic, details, 0),
                               relation=rel, topic=self.domain.topic, utterance=d, details=details)

    def read(self, who, text: str, own: bool = False):
        last = getattr(who, "their_last_proposal" if own else "my_last_proposal", None)
        reading = self.client.ask(self._read_task, self.rng, fallback=self._unread,
                                  text=text, vocabulary=self.vocabulary,
                                  last_proposal=last.to_dict() if last is not None else None)
        return canonical(self.domain, reading)

    def _unread(self) -> Unreadable:
        """The reading when the reader's answers were refused: why, as the client says it
        (the number of tries it made, or the backend's failure)."""
        why = getattr(self.client, "last_fallback", "") or "no answer was readable"
        return Unreadable(f"the reader fell back: {why}", unread=True)


class DirectReader:
    """The mock's reader called in-process (no model call, no draw): what the words say, as
    the exact mock reads them."""

    def __init__(self, domain):
        self.domain = domain
        self._read_json, self._parse = read_text_json, READ.parse
        self.vocabulary = domain.vocabulary()

    def read(self, who, text: str, own: bool = False):
        last = getattr(who, "their_last_proposal" if own else "my_last_proposal", None)
        answer = self._read_json(text, self.vocabulary, last.to_dict() if last is not None else None)
        return canonical(self.domain, self._parse(answer))


class DirectVoice(DirectReader):
    """The mock's own templates and reader called in-process, without the prompt round trip.

    The same words are said and read as with :class:`Voice` over the exact mock backend
    (the listener still learns only from the text); what is skipped is rendering the
    prompt and parsing it back.  For fast sweeps and the speed benchmark; the phrasing
    choice is drawn from this side's generator, so the words differ from the backend
    path's (which draws a per-call seed first).
    """

    def __init__(self, domain, rng: np.random.Generator):
        super().__init__(domain)
        self.rng = CallRng(int(rng.integers(0, 2**63 - 1)))
        self._phrasings, self._render = phrasings, render

    def speak(self, who, utt) -> str:
        d = utt.to_dict()
        details = None
        if isinstance(utt, Propose) and utt.proposal.type == self.domain.topic:
            details = list(self.domain.option(utt.proposal.value).values)
        rel = who.relation if who.relation in RELATIONS else "peer"
        n = len(self._phrasings(rel, d, self.domain.topic))
        return self._render(rel, d, self.domain.topic, details, int(self.rng.integers(n)) if n > 1 else 0)


def canonical(domain, reading):
    """Match restaurant names in a reading against the domain (case-insensitive)."""
    if isinstance(reading, (Propose, Accept, Reject)) and reading.proposal.type == domain.topic:
        opt = domain.option(reading.proposal.value)
        if opt is None:
            return Unreadable(f"I know no {domain.topic} called {reading.proposal.value!r}")
        return type(reading)(Proposal(domain.topic, opt.name))
    if isinstance(reading, Booking):
        opt = domain.option(reading.option)
        if opt is None:
            return Unreadable(f"I know no {domain.topic} called {reading.option!r}")
        return Booking(opt.name)
    return reading
