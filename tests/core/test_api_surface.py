"""The public API's argument checks and seats for a user's policy: each bad argument is one
clear simcore error naming it and what is valid; a third-party package's policies, registered through
the `simcore.policies` entry-point group, are played by `simcore run` against ASTRA and MIND."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import simcore
from simcore.errors import InputError
from checkout import CHECKOUT  # noqa: E402


@pytest.mark.parametrize("call, argument, says", [
    (lambda: simcore.astra_episode(seed="x"), "seed", "non-negative int"),
    (lambda: simcore.astra_episode(seed=-1), "seed", "non-negative int"),
    (lambda: simcore.astra_episode("astra"), "agent", "astra-agent-v4"),
    (lambda: simcore.astra_episode(partner="astra-agent-v3"), "partner", "partner seat"),
    (lambda: simcore.astra_episode(setup="mixedd"), "setup", "integrative"),
    (lambda: simcore.mind_group(object()), "policy", "vote()"),
    (lambda: simcore.mind_group("mind-v99"), "policy", "mind-v2"),
    (lambda: simcore.mind_group(size=1), "size", "2 to 8"),
    (lambda: simcore.scorable_session("proposed"), "method", "scorable-proposed-all-v1"),
    (lambda: simcore.dominance_dialogue("dominance-peer-v3", "mind-v2"), "user", "dominance"),
    (lambda: simcore.astra_episode(backend="gpt"), "backend", "mock-v1"),
])
def test_a_bad_argument_is_one_error_naming_it(call, argument, says):
    with pytest.raises(InputError) as info:
        call()
    assert str(info.value).startswith(f"{argument}:") and says in str(info.value)


def test_the_protocol_functions_check_their_arguments_too():
    from scenarios.scorable import load_game
    from simcore.systems.mind.match import play_group
    from simcore.systems.scorable.match import start

    game = load_game("harbour-sport-park-v1")
    with pytest.raises(InputError, match="method: 'proposed'"):  # was a bare KeyError
        start(game, "proposed", np.random.SeedSequence(0)).run()
    assert start(game, "base-om-p1", 5).run().record["method"] == "base-om-p1"  # an int seed is accepted
    out = simcore.mind_group(seed=1)
    group_size = len(out.items[0].values)
    from mockllm import ModelClient

    from scenarios.travel import generate_group

    group = generate_group("g", group_size, np.random.default_rng(1))
    client, rng = ModelClient(simcore.make("backend", "mock-v1")), np.random.default_rng(0)
    for bad in ([7] * len(group.items), [-1] * len(group.items)):  # was an IndexError / silently accepted
        with pytest.raises(InputError, match="proposers"):
            play_group(group, simcore.make("policy", "mind-v2"), bad, client, rng, "mind/t")
    # a registered id where a policy object goes: accepted (was an AttributeError)
    assert play_group(group, "mind-v2", [0] * len(group.items), client, rng, "mind/t").items


def test_the_registry_makes_protocols_and_studies():
    from simcore.protocols.alternating import AlternatingGame

    assert isinstance(simcore.make("protocol", "alternating-offers-v1"), AlternatingGame)
    from simcore.catalog import STUDIES

    assert simcore.registered("study") == sorted(f"{s}-study-v1" for s in STUDIES)
    assert simcore.make("study", "mind-study-v1").name == "mind"


def test_a_backend_takes_plain_dict_messages():
    from mockllm.travel import SPEAK

    backend = simcore.make("backend", "mock-v1")
    msgs = SPEAK.messages(act="agree", item="price", value="Budget", willingness=None, reason="preference")
    assert backend.chat([m.to_dict() for m in msgs], seed=1) == backend.chat(msgs, seed=1)
    with pytest.raises(InputError, match="messages"):
        backend.chat([{"role": "judge", "content": "x"}])


PLUGIN = '''
from simcore.protocols.travel_moves import Update, Vote
from simcore.protocols.alternating import Action


class Greedy:
    """Asks for everything, accepts nothing."""

    def __init__(self, domain, client, rng):
        self.domain = domain

    def act(self, obs):
        d = self.domain
        best = max(d.outcomes, key=lambda o: d.score(d.agent, o, "agent"))
        return Action("offer", "All of it, please.", d.state_offer(best, "agent"), {"mode": "offer"})


from tests.mind_agents import Stubborn  # noqa: E402


REGISTRY = [
    dict(kind="policy", id="plugin-greedy-v1", entry_point="simcore_test_plugin:Greedy",
         meta={"system": "astra", "protocol": "alternating-offers-v1", "role": "agent"}),
    dict(kind="policy", id="plugin-stubborn-v1", entry_point="simcore_test_plugin:Stubborn",
         meta={"system": "mind", "protocol": "travel-vote-v1"}),
]
'''


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory):
    """A package installed beside simcore as pip would leave it: the module and its dist-info,
    whose entry_points.txt names it in the `simcore.policies` group."""
    root = tmp_path_factory.mktemp("site")
    (root / "simcore_test_plugin.py").write_text(textwrap.dedent(PLUGIN))
    info = root / "simcore_test_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: simcore-test-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simcore.policies]\ntest = simcore_test_plugin:REGISTRY\n")
    return root


def _run(plugin_path, tmp_path, *args):
    import os

    root = CHECKOUT
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin_path), root])}
    return subprocess.run([sys.executable, "-m", "simcore", "run", *args, "--no-progress",
                           "--out", str(tmp_path)], capture_output=True, text=True, env=env, cwd=os.path.dirname(tmp_path))


def test_an_installed_package_plays_astra_and_mind_through_simcore_run(plugin_path, tmp_path):
    out = _run(plugin_path, tmp_path / "a", "astra", "--agents", "plugin-greedy-v1,astra", "--partners", "base",
               "--setups", "integrative", "--episodes", "3")
    assert out.returncode == 0, out.stderr
    results = json.loads((tmp_path / "a" / "metrics.json").read_text())["results"]
    assert set(results) == {"plugin-greedy-v1__base", "astra__base"}
    out = _run(plugin_path, tmp_path / "m", "mind", "--variants", "plugin-stubborn-v1,mind", "--groups", "4")
    assert out.returncode == 0, out.stderr
    assert set(json.loads((tmp_path / "m" / "metrics.json").read_text())["results"]) == {"plugin-stubborn-v1",
                                                                                          "mind"}


def test_check_policy_says_what_a_users_policy_broke():
    from simcore.protocols.alternating import Action
    from simcore.testing import ConformanceError, check_policy

    class Talks:
        def __init__(self, domain, client, rng):
            pass

        def act(self, obs):
            return Action("accept", "Yes!")  # accepting with nothing on the table is illegal

    with pytest.raises(ConformanceError, match="ACCEPT is legal only with an offer"):
        check_policy(Talks, system="astra")
