"""A PettingZoo AEC environment over any system's game: ``simcore.make_env(system, ...)``.

The environment is a thin driver over the system's game (:mod:`simcore.contract`): ``reset``
sets one negotiation up through the system's own set-up (the one ``simcore run`` and the
Python API use) and lets the built-in agents play until a seat the caller plays (``external``;
by default every seat) is to act; ``step(action)`` plays that seat's action and again lets the
built-in agents play, through the same driver (:func:`simcore.driver.play`).  There is no
thread and no loop of its own, so stepping the env with the paper agents' own actions
(:meth:`NegotiationEnv.builtin_action`) gives ``simcore run``'s transcript byte for byte.

Spaces, per seat (each system's page in docs/users/env.md lists its layout):

* ``action_space(seat)``: ``Discrete(n)`` over the seat's finite decisions (ASTRA: an offer of
  each outcome, accept, walk away, talk; MIND: the opening, a vote or an update and its value;
  scorable: each deal; dominance: each utterance of the domain, and each reading);
* ``observation_space(seat)``: ``Dict(observation=Box(features), action_mask=Box(0, 1))``, the
  game's fixed-size numeric view of what the seat may know and the mask of its legal
  decisions now (all zeros when it is not the seat's turn);
* ``infos[seat]``: for the seat to act, ``observation`` (the game's own observation object),
  ``step`` (the decision asked) and ``legal`` (a :class:`~simcore.contract.Legal`).

``step`` takes a decision's index, or the system's own action object (words and all).  A
decision given without words is said by the seat's default voice (its own language client).
An action that is not legal is an :class:`~simcore.errors.InputError` naming it and the rule;
the state is unchanged.  Rewards are 0 until the end, then each seat's payoff (ASTRA: its
score; MIND: its satisfaction, the sum of its willingness over the items settled on its own
value; scorable: its score of the final deal if it passes, else its threshold; dominance:
its satisfaction with the booking, 0 without one).

PettingZoo is an optional extra (``pip install 'simcore[pettingzoo]'``).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from simcore.argcheck import seed_sequence
from simcore.catalog import STUDIES, part
from simcore.driver import play
from simcore.errors import AgentError, InputError

try:  # an optional extra
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - exercised where the extra is absent
    AECEnv, spaces = object, None

SYSTEMS = tuple(STUDIES)


class _Caller:
    """The agent in an external seat: it plays the action the caller gave ``step`` (already
    said by the seat's voice)."""

    label = "the caller"

    def __init__(self, env: "NegotiationEnv"):
        self.env = env

    def act(self, observation) -> Any:
        action, self.env._pending = self.env._pending, None
        return action


class _Given:
    """What the seat's voice wraps in ``step``: the caller's decision, as an agent's answer."""

    def __init__(self):
        self.action = None

    def act(self, observation) -> Any:
        return self.action


class NegotiationEnv(AECEnv):
    """One negotiation of ``system`` as a PettingZoo AEC environment (the module docstring)."""

    def __init__(self, spec, external: Sequence[str], seed: Any, options: dict, render_mode: Optional[str] = None):
        super().__init__()
        self.spec, self._options, self._seed = spec, dict(options), seed
        probe = spec.probe(self._options)  # the game's shape, read off one negotiation set up
        self.possible_agents = list(spec.seats(probe))
        bad = [s for s in external or () if s not in self.possible_agents]
        if bad:
            raise InputError("external", ", ".join(map(str, bad)),
                             f"no such seat; valid: {', '.join(self.possible_agents)}")
        self.external = tuple(self.possible_agents) if external is None else tuple(external)
        self.metadata = {"name": f"simcore_{spec.system}_v1", "render_modes": ["ansi"], "is_parallelizable": False}
        self.render_mode = render_mode
        n_feat = spec.feature_count(probe)
        self._action_spaces = {s: spaces.Discrete(spec.action_count(probe, s)) for s in self.possible_agents}
        self._observation_spaces = {
            s: spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (n_feat,), np.float32),
                            "action_mask": spaces.Box(0, 1, (self._action_spaces[s].n,), np.int8)})
            for s in self.possible_agents}
        self.match = None
        self._pending: Any = None

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        return self._action_spaces[agent]

    # -- the AEC surface -------------------------------------------------------------------
    def reset(self, seed: Any = None, options: Optional[dict] = None) -> None:
        """Set a negotiation up (again) from ``seed`` (default: the env's) and play the built-in
        seats until an external seat is to act."""
        if seed is not None:
            self._seed = seed
        self.match = self.spec.match(seed_sequence(self._seed), self._options)
        self._builtin = dict(self.match.agents)  # the paper's agents, also of the external seats
        self._drivers = dict(self.match.agents)
        self._given = _Given()
        self._voices = {s: self.spec.voice(self.match, s, self._given) for s in self.external}
        for s in self.external:
            self._drivers[s] = _Caller(self)
        self._users = frozenset(self.match.users) | frozenset(self.external)
        self.agents = list(self.possible_agents)
        self.rewards = {s: 0.0 for s in self.agents}
        self._cumulative_rewards = {s: 0.0 for s in self.agents}
        self.terminations = {s: False for s in self.agents}
        self.truncations = {s: False for s in self.agents}
        self.infos = {s: {} for s in self.agents}
        self.result = None
        self._pending = None
        self._advance()

    def _advance(self) -> None:
        state = self.match.state
        external = self.external
        play(state, self._drivers, until=lambda s: s in external and self._pending is None, users=self._users)
        for s in self.agents:
            self.infos[s] = {}
        if state.to_act is None:
            self.result = self.match.finish(state)
            payoff = self.spec.rewards(self.match, self.result)
            truncated = bool(self.spec.truncated(self.result))
            for s in self.agents:
                self.rewards[s] = float(payoff.get(s, 0.0))
                self.terminations[s] = True
                self.truncations[s] = truncated
            self.agent_selection = self.agents[0]
        else:
            seat = state.to_act
            self.agent_selection = seat
            observation = state.observe(seat)
            self.infos[seat] = {"observation": observation, "step": getattr(observation, "step", None),
                                "legal": state.legal(seat)}

    def observe(self, agent: str) -> dict:
        state = self.match.state
        mask = np.zeros(self._action_spaces[agent].n, dtype=np.int8)
        if state.to_act == agent:
            mask[:] = np.asarray(self.spec.mask(state, agent), dtype=np.int8)
        return {"observation": np.asarray(self.spec.features(state, agent), dtype=np.float32), "action_mask": mask}

    def step(self, action: Any) -> None:
        seat = self.agent_selection
        if self.terminations[seat] or self.truncations[seat]:
            self._was_dead_step(action)
            return
        state = self.match.state
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            index = int(action)
            n = self._action_spaces[seat].n
            if not 0 <= index < n:
                raise InputError("action", str(index), f"{seat}'s action space is Discrete({n})")
            if not self.spec.mask(state, seat)[index]:
                raise InputError("action", str(index), f"not legal for {seat} now ({state.legal(seat).describe})")
            action = self.spec.decision(state, seat, index)
        self._given.action = action  # a decision without words is said by the seat's voice
        action = self._voices[seat].act(state.observe(seat))
        why = state.legal(seat).why_not(action)
        if why:
            raise InputError("action", repr(action)[:120], why)
        self._cumulative_rewards[seat] = 0.0
        for s in self.rewards:
            self.rewards[s] = 0.0
        self._pending = action
        try:
            self._advance()
        except AgentError as exc:  # the caller's action broke a rule only apply() knows: the state is unchanged
            if exc.seat != seat:
                raise
            self._pending = None
            raise InputError("action", repr(action)[:120], exc.problem) from None
        self._accumulate_rewards()

    def builtin_action(self) -> Any:
        """The action the paper's agent in the seat to act would take now (it acts: its own
        state and generator move on, as when it plays)."""
        state = self.match.state
        if state.to_act is None:
            raise InputError("builtin_action", "", "the negotiation is over: call reset()")
        seat = state.to_act
        return self._builtin[seat].act(state.observe(seat))

    def render(self) -> Optional[str]:
        """The negotiation so far, step by step (the system's ``simcore show`` rendering)."""
        if self.match is None:
            return None
        text = self.spec.render(list(self.match.state.transcript))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.match = None


def make_env(system: str, *, external: Optional[Sequence[str] | str] = None, seed: Any = 0,
             render_mode: Optional[str] = None, **options: Any) -> NegotiationEnv:
    """A :class:`NegotiationEnv` over one negotiation of ``system``; ``external`` the seats the
    caller plays (default: every seat), ``options`` the system's set-up options (docs/users/env.md).
    Call ``reset()`` to start it."""
    if spaces is None:
        raise InputError("make_env", system, "needs PettingZoo: pip install 'simcore[pettingzoo]'")
    if system not in STUDIES:
        raise InputError("system", repr(system), f"valid: {', '.join(SYSTEMS)}")
    seed_sequence(seed)
    if render_mode not in (None, "ansi"):
        raise InputError("render_mode", repr(render_mode), "valid: None, 'ansi'")
    spec = part(system, "ENV")
    spec.check(options)
    external = (external,) if isinstance(external, str) else None if external is None else tuple(external)
    return NegotiationEnv(spec, external, seed, options, render_mode)
