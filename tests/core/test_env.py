"""The PettingZoo environment over each system's game: PettingZoo's own ``api_test`` passes with
the defaults (every seat external); driven with the paper agents' own actions it gives the
built-in run's transcript byte for byte, for any choice of external seats (the same set-up and
the same driver); random legal play (sampled from the action masks) reaches the end; an illegal
action is one clear error and leaves the state as it was; observations hold only what the seat
may know."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

import simcore
from simcore.catalog import STUDIES
from simcore.errors import InputError

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

SYSTEMS = [s for s in STUDIES if hasattr(importlib.import_module(STUDIES[s]), "ENV")]
#: each system's API function: the built-in run the env must reproduce (another system's:
#: simcore.negotiate, its set-up from the same options)
BUILTIN = {"astra": lambda seed: simcore.astra_episode(seed=seed), "mind": lambda seed: simcore.mind_group(seed=seed),
           "scorable": lambda seed: simcore.scorable_session(seed=seed),
           "dominance": lambda seed: simcore.dominance_dialogue(seed=seed)}


def _events(result):
    ep = result[0] if isinstance(result, tuple) else result
    return [e.to_json() for e in ep.events]


def drive(env, choose):
    """Play ``env`` to the end, ``choose(env, seat)`` giving each external seat's action."""
    env.reset()
    for seat in env.agent_iter():
        _obs, _rew, term, trunc, _info = env.last()
        env.step(None if term or trunc else choose(env, seat))
    return env


def sample(rng):
    def choose(env, seat):
        mask = env.observe(seat)["action_mask"]
        return int(rng.choice(np.flatnonzero(mask)))
    return choose


@pytest.mark.parametrize("system", SYSTEMS)
def test_pettingzoos_own_api_test_passes(system):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (PettingZoo's advice on names and dict observations)
        api_test(simcore.make_env(system), num_cycles=300)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("which", ["all", "first", "last", "none"])
def test_stepping_with_the_paper_agents_actions_gives_the_built_in_transcript(system, which):
    builtin = BUILTIN.get(system, lambda seed: simcore.negotiate(system, seed=seed))
    for seed in (0, 7):
        env = simcore.make_env(system, seed=seed)
        seats = {"all": None, "first": env.possible_agents[:1], "last": env.possible_agents[-1:], "none": ()}[which]
        env = drive(simcore.make_env(system, external=seats, seed=seed), lambda e, s: e.builtin_action())
        assert _events(env.result) == _events(builtin(seed))


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_legal_play_reaches_the_end(system):
    for seed in range(4):
        env = drive(simcore.make_env(system, seed=seed), sample(np.random.default_rng(seed)))
        assert env.result is not None and not env.agents  # every seat terminated and stepped out


def test_a_decision_without_words_is_said_by_the_seats_voice():
    env = simcore.make_env("astra", seed=3)
    env.reset()
    seat = env.agent_selection
    n = len(env.match.state.domain.outcomes)
    env.step(5)  # an offer of outcome 5, as an index
    turn = env.match.state.history[-1]
    assert turn.speaker == seat and turn.offer == env.match.state.domain.outcomes[5] and turn.text


def test_an_illegal_action_is_one_clear_error_and_changes_nothing():
    from simcore.protocols.alternating import Action

    env = simcore.make_env("astra", seed=0)
    env.reset()
    seat, before = env.agent_selection, len(env.match.state.transcript)
    n = env.action_space(seat).n
    with pytest.raises(InputError, match="not legal"):
        env.step(n - 3)  # accept, with nothing on the table
    with pytest.raises(InputError, match="'accept' is not legal now"):
        env.step(Action("accept", "yes"))
    with pytest.raises(InputError, match="expected simcore.protocols.alternating.Action"):
        env.step("offer")
    with pytest.raises(InputError, match="Discrete"):
        env.step(n + 4)
    assert env.agent_selection == seat and len(env.match.state.transcript) == before
    with pytest.raises(InputError, match="no such seat"):
        simcore.make_env("astra", external="referee")
    with pytest.raises(InputError, match="options"):
        simcore.make_env("astra", agents="astra-agent-v3")


def test_the_astra_observation_holds_the_seats_own_values_and_the_public_record():
    from simcore.protocols.alternating import Observation

    env = simcore.make_env("astra", seed=3)
    env.reset()
    env.step(env.builtin_action())  # the partner greets
    seat = env.agent_selection
    obs = env.infos[seat]["observation"]
    assert isinstance(obs, Observation) and obs.role == seat == "agent"
    assert list(Observation._fields) == ["role", "round", "round_limit", "history", "deadline_warned", "values"]
    assert obs.values == env.match.state.domain.agent  # its own values, never the partner's
    assert env.infos["partner"] == {}  # not its turn: nothing to decide


def test_reset_starts_the_same_negotiation_again():
    env = simcore.make_env("astra", seed=11)
    first = _events(drive(env, lambda e, s: e.builtin_action()).result)
    again = _events(drive(env, lambda e, s: e.builtin_action()).result)
    assert first == again
    env.reset(seed=12)
    assert env.match is not None


def test_the_partners_valuation_no_deal_payoff_and_notice_are_options():
    from scenarios.bilateral import load_domain

    d = load_domain("casino-v1")
    pv = d.setup("distributive").partners[0]
    env = simcore.make_env("astra", seed=1, partner_values=pv, no_deal_payoff="batna", notice_rounds=0)
    env.reset()
    assert env.match.state.values["partner"] == pv
    drive(env, lambda e, s: e.builtin_action())
    ep = env.result[0]
    assert not any(e.phase == "deadline" for e in ep.events)
    with pytest.raises(InputError, match="partner_values"):
        simcore.make_env("astra", partner_values=(1, 2)).reset()
