"""Negotiate turn by turn against the paper agents, in the manner of PettingZoo's AEC API.

``simcore.make_env(system, external=..., seed=...)`` gives a :class:`NegotiationEnv` over one
negotiation of a system: ``reset(seed)``, ``agent_selection`` (the seat whose decision is due),
``observe(seat)``, ``legal_actions(seat)``, ``step(action)``, ``last()``, and at the end
``rewards``, ``terminations``, ``truncations`` and ``infos``; ``agent_iter()`` yields the seats
in turn.  The seats named in ``external`` are played by the caller (an RL loop, an LLM agent,
a test); every other seat by the paper's agent, as ``simcore run`` plays it.

**One engine.**  The env runs the system's own protocol function -- the code ``simcore run``
runs -- and puts a proxy in each external seat that hands the decision to the caller.  The
protocol runs in a worker thread that waits while the caller decides (strict hand-off: only
one side runs at a time, so results are deterministic).  Driving the env with the actions the
paper agent would take (:meth:`NegotiationEnv.builtin_action`) gives ``simcore run``'s
transcript byte for byte (tests/test_env.py).

Decisions per system (the observation, what ``step`` takes, the rewards at the end):

| system | seats | observation | action | reward |
|---|---|---|---|---|
| astra | ``agent``, ``partner`` | the :class:`~simcore.protocols.alternating.Observation` | an :class:`~simcore.protocols.alternating.Action` | the seat's score (0 without a deal) |
| mind | member ids (``m0``, ``m1``, ...) | ``{"decision": "vote"/"update", "me", "proposal", ...}`` | a ``policies.travel_common.Vote`` / ``Update`` | the member's satisfaction sum_c w 1(v = V) |
| scorable | party short names | ``{"turn", "aspiration", "history"}`` | a deal: option indices, one per issue | U_n(final) if it passes, else tau_n |
| dominance | ``agent``, ``user`` | the utterance heard (None to open) | a ``Decision`` or an utterance | the seat's satisfaction with the booking (0 without) |

An action that is not legal in the state is a :class:`~simcore.errors.InputError` naming the
action and the rule (the negotiation ends there, ``terminations`` set); observations hold only
what that seat may know (the design rule: no channel from another agent's hidden state but the
words and public offers).
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable, Iterator, Sequence

from simcore.errors import IllegalMove, InputError

SYSTEMS = ("astra", "mind", "scorable", "dominance")


class _Abort(BaseException):
    """Sent to a waiting proxy to end the worker thread (close() or a new reset())."""


class _Handoff:
    """Strict alternation between the protocol's worker thread and the caller."""

    def __init__(self):
        self.to_caller: queue.Queue = queue.Queue()
        self.to_worker: queue.Queue = queue.Queue()

    def ask(self, seat: str, observation: Any, legal: Callable[[Any], str], builtin: Callable[[], Any]):
        """Called in the worker: hand the decision to the caller, wait for the action."""
        self.to_caller.put(("decide", seat, observation, legal, builtin))
        action = self.to_worker.get()
        if isinstance(action, _Abort):
            raise action
        return action


class NegotiationEnv:
    """One negotiation of ``system`` with the ``external`` seats played by the caller."""

    def __init__(self, system: str, runner: Callable, seats: Sequence[str], external: Sequence[str], seed: Any):
        self.system, self._runner, self.possible_agents = system, runner, list(seats)
        bad = [s for s in external if s not in seats]
        if bad:
            raise InputError("external", ", ".join(bad), f"no such seat; valid: {', '.join(seats)}")
        self.external = tuple(external)
        self._seed = seed
        self._thread: threading.Thread | None = None
        self._pending = None
        self.result: Any = None
        self.rewards: dict = {}
        self.terminations: dict = {}
        self.truncations: dict = {}
        self.infos: dict = {}

    # -- lifecycle ---------------------------------------------------------------
    def reset(self, seed: Any = None) -> None:
        """Start the negotiation (again) with ``seed`` (default: the env's)."""
        self.close()
        if seed is not None:
            self._seed = seed
        self._handoff = _Handoff()
        self.result, self._pending = None, None
        self.rewards = {s: 0.0 for s in self.possible_agents}
        self.terminations = {s: False for s in self.possible_agents}
        self.truncations = {s: False for s in self.possible_agents}
        self.infos = {s: {} for s in self.possible_agents}
        handoff, runner, seed_ = self._handoff, self._runner, self._seed

        def work():
            try:
                handoff.to_caller.put(("done", runner(handoff, seed_)))
            except _Abort:
                pass
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                handoff.to_caller.put(("error", exc))

        self._thread = threading.Thread(target=work, daemon=True, name=f"simcore-env-{self.system}")
        self._thread.start()
        self._wait()

    def close(self) -> None:
        if self._thread is not None and self._thread.is_alive() and self._pending is not None:
            self._handoff.to_worker.put(_Abort())
            self._thread.join()
        self._thread, self._pending = None, None

    def _wait(self) -> None:
        kind, *rest = self._handoff.to_caller.get()
        if kind == "decide":
            self._pending = tuple(rest)
            return
        self._pending = None
        if kind == "error":
            exc = rest[0]
            self.terminations = {s: True for s in self.possible_agents}
            if isinstance(exc, IllegalMove):
                raise InputError("action", str(getattr(exc, "move", "")), str(exc)) from None
            raise exc
        self.result = rest[0]["result"]
        self.rewards = dict(rest[0]["rewards"])
        self.terminations = {s: True for s in self.possible_agents}
        self.truncations = {s: bool(rest[0].get("truncated")) for s in self.possible_agents}
        for s in self.possible_agents:
            self.infos[s] = {"outcome": rest[0].get("outcome")}

    # -- the AEC surface -----------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._pending is None

    @property
    def agent_selection(self) -> str | None:
        """The external seat whose decision is due (None when the negotiation is over)."""
        return None if self._pending is None else self._pending[0]

    def agent_iter(self, max_iter: int = 10**6) -> Iterator[str]:
        for _ in range(max_iter):
            if self._pending is None:
                return
            yield self._pending[0]

    def observe(self, seat: str) -> Any:
        """What ``seat`` sees now: its observation when its decision is due, else None."""
        if self._pending is None or self._pending[0] != seat:
            return None
        return self._pending[1]

    def last(self):
        """(observation, reward, termination, truncation, info) of the seat whose turn it is."""
        seat = self.agent_selection
        if seat is None:
            return None, 0.0, True, any(self.truncations.values()), {}
        return self._pending[1], self.rewards.get(seat, 0.0), False, False, self.infos.get(seat, {})

    def legal_actions(self, seat: str | None = None) -> Any:
        """A description of what ``seat`` may do now (system-specific; see the module doc)."""
        if self._pending is None or (seat is not None and seat != self._pending[0]):
            return None
        return getattr(self._pending[2], "describe", lambda: None)()

    def builtin_action(self) -> Any:
        """The action the paper's agent in this seat would take now (computed on demand)."""
        if self._pending is None:
            raise InputError("builtin_action", "", "the negotiation is over")
        return self._pending[3]()

    def step(self, action: Any) -> None:
        """Play ``action`` for the seat whose decision is due."""
        if self._pending is None:
            raise InputError("step", "", "the negotiation is over: call reset()")
        why = self._pending[2](action)
        if why:
            raise InputError("action", repr(action)[:120], why)
        self._handoff.to_worker.put(action)
        self._wait()

    def __del__(self):  # pragma: no cover - garbage collection
        try:
            self.close()
        except Exception:
            pass


class _Legal:
    """A legality check with a description of the legal actions."""

    def __init__(self, check: Callable[[Any], str], describe: Callable[[], Any]):
        self.check, self.describe = check, describe

    def __call__(self, action: Any) -> str:
        return self.check(action)


# ------------------------------------------------------------------ ASTRA
def _astra(external, seed, **options):
    """Runs :func:`simcore.api.astra_episode` (the same code, seeds and run id) with proxies."""
    from simcore.api import astra_episode

    def run(handoff, seed_):
        wrap = lambda seat, built: _AstraProxy(seat, built, handoff) if seat in external else None  # noqa: E731
        ep = astra_episode(seed=seed_, _seats=wrap, **options)
        return {"result": ep, "rewards": {"agent": ep.agent_score, "partner": ep.partner_score},
                "outcome": ep.status, "truncated": ep.status == "no_agreement"}

    _check_options(options, ("agent", "partner", "domain", "setup", "rounds", "backend"))
    return run, ("agent", "partner")


def _check_options(options, valid) -> None:
    bad = sorted(set(options) - set(valid))
    if bad:
        raise InputError("options", ", ".join(bad), f"valid: {', '.join(valid)}")


class _AstraProxy:
    def __init__(self, seat, builtin, handoff):
        self.seat, self.builtin, self.handoff = seat, builtin, handoff

    def act(self, obs):
        from simcore.protocols.alternating import Action

        table = obs.table
        can_accept = table is not None and table.speaker != self.seat
        kinds = ("offer", "talk", "walk_away") + (("accept",) if can_accept else ())

        def check(action):
            if not isinstance(action, Action):
                return f"expected simcore.protocols.alternating.Action, got {type(action).__name__}"
            if action.kind not in kinds:
                return f"{action.kind!r} is not legal now; legal: {', '.join(kinds)}"
            return ""

        return self.handoff.ask(self.seat, obs, _Legal(check, lambda: kinds), lambda: self.builtin.act(obs))


# ------------------------------------------------------------------ MIND
def _mind(external, seed, **options):
    """Runs :func:`simcore.api.mind_group` with proxies in the external members' seats."""
    from simcore.api import mind_group

    _check_options(options, ("policy", "size", "backend", "max_rounds"))
    size = options.get("size", 3)
    if not isinstance(size, int) or not 2 <= size <= 8:
        raise InputError("size", repr(size), "a group has 2 to 8 members")
    seats = tuple(f"m{i}" for i in range(size))

    def run(handoff, seed_):
        wrap = lambda seat, built: _MindProxy(seat, built, handoff) if seat in external else None  # noqa: E731
        out = mind_group(seed=seed_, _seats=wrap, **options)
        rewards = {f"m{i}": float(sum(it.ws[i] * (it.values[i] == it.final) for it in out.items))
                   for i in range(size)}
        return {"result": out, "rewards": rewards, "outcome": "done"}

    return run, seats


class _MindProxy:
    """A member whose votes and updates the caller decides; it speaks and reads as the variant it
    stands in for (its tone and appraisal flags)."""

    def __init__(self, seat, builtin, handoff):
        self.seat, self.builtin, self.handoff = seat, builtin, handoff
        self.name, self.tone, self.appraisal = builtin.name, builtin.tone, builtin.appraisal
        self.plain_wording = getattr(builtin, "plain_wording", "fixed")

    def guess(self, guessed_w):
        return self.builtin.guess(guessed_w)

    def vote(self, me, proposal, guessed_w, last_offer=None):
        from policies.travel_common import Vote

        obs = {"decision": "vote", "item": me.item.key, "me": me, "proposal": proposal,
               "guessed_w": guessed_w, "last_offer": last_offer, "options": me.item.options}

        def check(v):
            if not isinstance(v, Vote):
                return f"expected policies.travel_common.Vote, got {type(v).__name__}"
            if v.vote == "DISAGREE" and v.revised_value not in me.item.options:
                return f"the revised value must be an option of {me.item.key}: {', '.join(me.item.options)}"
            return ""

        return self.handoff.ask(self.seat, obs, _Legal(check, lambda: ("AGREE", "DISAGREE + an option")),
                                lambda: self.builtin.vote(me, proposal, guessed_w, last_offer))

    def update(self, me, proposal, dissents, n_voters):
        from policies.travel_common import Update

        obs = {"decision": "update", "item": me.item.key, "me": me, "proposal": proposal,
               "dissents": tuple(dissents), "n_voters": n_voters, "options": me.item.options}

        def check(u):
            if not isinstance(u, Update):
                return f"expected policies.travel_common.Update, got {type(u).__name__}"
            if u.value not in me.item.options:
                return f"the value must be an option of {me.item.key}: {', '.join(me.item.options)}"
            return ""

        return self.handoff.ask(self.seat, obs, _Legal(check, lambda: ("KEEP", "UPDATE", "COMPROMISE")),
                                lambda: self.builtin.update(me, proposal, dissents, n_voters))


# ------------------------------------------------------------------ scorable
def _scorable(external, seed, **options):
    """Runs :func:`simcore.api.scorable_session` with the external parties' deals chosen by the caller."""
    from scenarios.scorable import load_game
    from simcore.api import scorable_session

    _check_options(options, ("method", "game", "backend", "settings"))
    g = load_game(options.get("game", "harbour-sport-park-v1"))
    shorts = tuple(p.short for p in g.parties)

    def run(handoff, seed_):
        def chooser(short):
            n = shorts.index(short)

            def choose(turn, level, builtin, history):
                obs = {"turn": turn, "party": short, "aspiration": level, "history": history}

                def check(deal):
                    try:
                        ok = len(deal) == g.n_issues and all(0 <= int(x) < k for x, k in zip(deal, g.option_counts))
                    except TypeError:
                        ok = False
                    return "" if ok else f"a deal is one option index per issue, within {list(g.option_counts)}"

                computed: list = []

                def suggest():
                    computed[:] = [builtin()]
                    return computed[0][0]

                deal = handoff.ask(short, obs, _Legal(check, lambda: tuple(g.option_counts)), suggest)
                deal = tuple(int(x) for x in deal)
                if computed and computed[0][0] == deal:  # the negotiator's own move: its reasoning recorded
                    return computed[0]
                return deal, {"aspiration": round(float(level), 3), "own_score": float(g.score(n, deal))}

            return choose

        res = scorable_session(seed=seed_, _choose={shorts.index(s): chooser(s) for s in external}, **options)
        final = g.parse_deal(res.events[-1].intent["deal"])
        passes = res.record["PAR"]
        # seed sec. 2: an agreement gives each party U_n(d); otherwise its BATNA, the threshold tau_n
        rewards = {p.short: float(g.score(n, final)) if passes else float(p.threshold)
                   for n, p in enumerate(g.parties)}
        return {"result": res, "rewards": rewards, "outcome": "passes" if passes else "fails"}

    return run, shorts


# ------------------------------------------------------------------ dominance
def _dominance(external, seed, **options):
    """Runs :func:`simcore.api.dominance_dialogue` with proxies in the external sides' seats."""
    from simcore.api import dominance_dialogue

    _check_options(options, ("agent", "user", "domain", "max_turns", "agent_opens"))

    def run(handoff, seed_):
        sides = {}

        def wrap(seat, built):
            sides[seat] = built
            return _DominanceProxy(seat, built, handoff) if seat in external else None

        result = dominance_dialogue(seed=seed_, _seats=wrap, **options)
        rewards = {side: float(a.judge.normalised(result.booked)) if result.booked else 0.0
                   for side, a in sides.items()}
        return {"result": result, "rewards": rewards, "outcome": result.outcome,
                "truncated": result.outcome == "turn-limit"}

    return run, ("agent", "user")


class _DominanceProxy:
    """A side whose decisions the caller makes; it speaks, reads and remembers as its agent."""

    def __init__(self, seat, inner, handoff):
        self.seat, self.inner, self.handoff = seat, inner, handoff

    def __getattr__(self, name):  # name, relation, judge, speak, hear, commit ... of the agent
        return getattr(self.inner, name)

    def decide(self, heard):
        from simcore.protocols.dialogue import Decision

        def check(action):
            return "" if isinstance(action, Decision) or hasattr(action, "kind") else \
                f"expected a Decision or an utterance, got {type(action).__name__}"

        action = self.handoff.ask(self.seat, heard, _Legal(check, lambda: None), lambda: self.inner.decide(heard))
        return action if isinstance(action, Decision) else Decision(action, "external", "external", "")


_BUILDERS = {"astra": _astra, "mind": _mind, "scorable": _scorable, "dominance": _dominance}


def make_env(system: str, *, external: Sequence[str] | str = (), seed: Any = 0, **options: Any) -> NegotiationEnv:
    """A :class:`NegotiationEnv` over one negotiation of ``system`` (see the module doc); the
    ``options`` are :func:`simcore.api`'s for that system (agent/partner ids, policy, game ...).
    Call ``reset()`` to start it."""
    from simcore.argcheck import seed_sequence

    if system not in _BUILDERS:
        raise InputError("system", repr(system), f"valid: {', '.join(SYSTEMS)}")
    seed_sequence(seed)
    external = (external,) if isinstance(external, str) else tuple(external)
    runner, seats = _BUILDERS[system](external, seed, **options)
    return NegotiationEnv(system, runner, seats, external, seed)
