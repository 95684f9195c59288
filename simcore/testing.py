"""Conformance checks every registered policy and backend passes, and that you can run on yours.

In the spirit of Gymnasium's ``check_env``, PettingZoo's ``api_test`` and OpenSpiel's
``random_sim_test``:

* :func:`check_backend` -- every task prompt gets a string answer that the task's parser reads;
  the same seed gives the same text; for the mock at zero noise, ``parse(answer) ==
  task.expected(context)`` (render/parse round trip); an unknown prompt is refused with
  :class:`UnrecognisedPrompt`.
* :func:`check_policy` -- plays a policy in its seat of its system against every built-in
  opponent and against random legal play (a seat that picks uniformly among the legal
  decisions, so that negotiations run into late rounds), over many seeds, through the same
  set-up and driver as ``simcore run``.  It checks every action (its type and legality: the
  game's own rules), that the seat's moves are not refused as invalid (an offer the domain
  cannot hold, say), that the same seed gives the same transcript, and that every kind of
  decision the seat can be asked for was asked at least once.  Each finding names the seed,
  the opponent, the turn and what was wrong; any finding raises :class:`ConformanceError`
  listing them all.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Optional

import attrs
import numpy as np

from mockllm.backend import Message
from mockllm.mock import MockBackend
from mockllm.tasks import all_tasks
from simcore.argcheck import load_ref
from simcore.catalog import STUDIES, part
from simcore.driver import play
from simcore.errors import AgentError, IllegalMove, InputError, ParseError, UnrecognisedPrompt
from simcore.registry import resolve
from simcore.seeding import derive
from simcore.transcript import Event


class ConformanceError(AssertionError):
    pass


def _fail(what: str, msg: str):
    raise ConformanceError(f"{what}: {msg}")


def check_backend(backend, *, exact: bool = False, name: str = "backend", examples_per_task: int = 4) -> int:
    """Run the checks on a backend instance; return the number of prompts sent."""
    sent = 0
    for task in all_tasks().values():
        rng = np.random.default_rng(12345)
        for ctx in task.examples(rng)[:examples_per_task]:
            messages = task.messages(**ctx)
            a = backend.chat(messages, temperature=0.0, seed=7)
            b = backend.chat(messages, temperature=0.0, seed=7)
            sent += 2
            if not isinstance(a, str):
                _fail(name, f"task {task.id}: answer is {type(a).__name__}, not str")
            if a != b:
                _fail(name, f"task {task.id}: same seed gave different answers")
            try:
                parsed = task.interpret(a, ctx)  # parsed and checked against the prompt
            except ParseError as exc:
                _fail(name, f"task {task.id}: answer not parseable: {exc}")
            if exact:
                want = task.expected(ctx)
                if want is not None and parsed != want:
                    _fail(name, f"task {task.id}: parse(answer) = {parsed!r}, expected {want!r}")
    if isinstance(backend, MockBackend):  # the mock must refuse what no task produced
        try:
            backend.chat((Message("system", "You are a helpful assistant."), Message("user", "hi")), seed=1)
        except UnrecognisedPrompt:
            pass
        else:
            _fail(name, "accepted a prompt no task produced")
    return sent


def _check_events(what: str, events) -> None:
    if not events:
        _fail(what, "the negotiation produced no events")
    for ev in events:
        if not isinstance(ev, Event):
            _fail(what, f"produced {type(ev).__name__}, not Event")
        try:
            json.loads(ev.to_json())
        except (TypeError, ValueError) as exc:
            _fail(what, f"event payload is not JSON: {exc}")
        try:
            ev.text = ev.text  # type: ignore[misc]
        except attrs.exceptions.FrozenInstanceError:
            pass
        else:
            _fail(what, "Event is not frozen")


@attrs.frozen
class Finding:
    """One thing :func:`check_policy` found wrong: where (seed, opponent, turn) and what."""

    seed: int
    opponent: str
    turn: Any
    what: str

    def __str__(self) -> str:
        return f"seed {self.seed}, against {self.opponent}, turn {self.turn}: {self.what}"


class _Watched:
    """The policy in its seat, with the kinds of decision it was asked for recorded."""

    def __init__(self, agent, asked: set):
        self.agent, self.asked = agent, asked
        self.label = getattr(agent, "label", None) or type(agent).__name__

    def act(self, observation):
        self.asked.add(getattr(observation, "step", "?"))
        return self.agent.act(observation)


class _RandomLegal:
    """Random legal play: a decision drawn uniformly from the seat's legal ones (the game's
    finite view, as PettingZoo's action mask), said by the seat's default voice."""

    label = "random legal play"

    def __init__(self, spec, match, seat: str, rng: np.random.Generator):
        self.spec, self.match, self.seat, self.rng = spec, match, seat, rng

    def act(self, observation):
        state = self.match.state
        legal = np.flatnonzero(np.asarray(self.spec.mask(state, self.seat), dtype=bool))
        return self.spec.decision(state, self.seat, int(self.rng.choice(legal)))


def _policy_system_seat(policy: Any, system: Optional[str], seat: Optional[str]) -> tuple[Any, str, Optional[str]]:
    if isinstance(policy, str) and ":" not in policy:
        spec = resolve("policy", policy)
        system = system or spec.meta.get("system")
        seat = seat or spec.meta.get("role")
    if system not in STUDIES:
        _fail(repr(policy), f"system must be one of {', '.join(STUDIES)} (a policy that is not registered "
                            "names its system)")
    return policy, system, seat


def check_policy(policy: Any, *, system: Optional[str] = None, seat: Optional[str] = None,
                 seeds: Iterable[int] = range(6), rounds: Optional[int] = None) -> int:
    """Check ``policy`` in ``seat`` of ``system``; return the number of negotiations played.

    ``policy`` is a registered id (its system and seat come from the registry), or your agent
    -- a class, a factory, an instance or a ``"package.module:Class"`` path -- with ``system``
    and ``seat`` (default: the system's first seat).  ``rounds`` lengthens the negotiations
    where the system has a round limit (default: the system's check length, longer than its
    study's, so that late rounds are reached).  Raises :class:`ConformanceError` with every
    finding (seed, opponent, turn, what)."""
    policy, system, seat = _policy_system_seat(policy, system, seat)
    spec = part(system, "ENV")
    if isinstance(policy, str) and ":" in policy:
        policy = load_ref(policy, "policy")
    seat = seat or spec.check_seats()[0]
    if seat not in spec.check_seats():
        _fail(repr(policy), f"{system} has no seat {seat!r}; valid: {', '.join(spec.check_seats())}")
    findings: list[Finding] = []
    asked: set = set()
    played = 0
    for opponent in list(spec.opponents(seat, policy)) + [None]:
        name = opponent if opponent is not None else "random legal play"
        for seed in seeds:
            runs = []
            for _ in range(2):  # twice: the same seed must give the same transcript
                transcript, found = _play_once(spec, system, policy, seat, opponent, seed, rounds, asked)
                runs.append(transcript)
                played += 1
                if found:
                    findings.extend(Finding(seed, name, turn, what) for turn, what in found)
                    break
            else:
                if runs[0] != runs[1]:
                    turn = next((i for i, (a, b) in enumerate(zip(runs[0], runs[1])) if a != b),
                                min(len(runs[0]), len(runs[1])))
                    findings.append(Finding(seed, name, turn, "the same seed gave another transcript: "
                                                               "the policy is not deterministic"))
    never = [s for s in spec.steps(seat) if s not in asked]
    if never and not findings:
        findings.append(Finding(-1, "every opponent", "-", f"never asked for: {', '.join(never)} -- the check "
                                                          "could not exercise these decisions of the seat"))
    if findings:
        label = policy if isinstance(policy, str) else getattr(policy, "__name__", type(policy).__name__)
        shown = "\n  ".join(str(f) for f in findings[:20])
        more = f"\n  ... and {len(findings) - 20} more" if len(findings) > 20 else ""
        raise ConformanceError(f"{label} in seat {seat!r} of {system}: {len(findings)} finding(s)\n  {shown}{more}")
    return played


def _play_once(spec, system: str, policy: Any, seat: str, opponent: Optional[str], seed: int,
               rounds: Optional[int], asked: set) -> tuple[list, list]:
    """One negotiation; ``(its transcript as JSON lines, [(turn, what was wrong), ...])``."""
    seq = derive(seed, "check-policy", system, seat, opponent or "random")
    try:
        match = spec.check_match(seq, seat, policy, opponent, rounds)
    except InputError as exc:
        return [], [(0, f"cannot be seated: {exc}")]
    match.agents[seat] = _Watched(match.agents[seat], asked)
    if opponent is None:
        rng = np.random.default_rng(derive(seed, "check-policy", "random-opponent"))
        for other in match.agents:
            if other != seat:
                match.agents[other] = spec.voice(match, other, _RandomLegal(spec, match, other, rng))
    users = frozenset(match.users) | {seat}
    found = []
    try:
        play(match.state, match.agents, users=users)
        result = match.finish(match.state)
    except AgentError as exc:
        return [], [(_turn(match.state), f"{exc.problem} (decision: {exc.step})")]
    except IllegalMove as exc:  # an opponent's move (random legal play is checked by the mask)
        return [], [(_turn(match.state), f"an opponent made an illegal move after this policy's: {exc}")]
    events = list(match.state.transcript)
    try:
        _check_events(f"{system} transcript", events)
    except ConformanceError as exc:
        found.append((_turn(match.state), str(exc)))
    for turn, what in spec.findings(match, result, seat):
        found.append((turn, what))
    return [e.to_json() for e in events], found


def _turn(state) -> Any:
    """Where the negotiation stands, as a finding names it (the round where the game has one)."""
    return getattr(state, "round", None) or len(state.transcript)
