"""Scorable games as data: the seed's deal counts, the loader's errors, custom games."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from scenarios.scorable import SHIPPED, from_dict, load_file, load_game, load_shipped
from simcore.errors import InputError
from simcore.protocols.scorable import speaking_order
from simcore.seeding import derive, generator
from simcore.systems.scorable.match import start
from simcore.systems.scorable.methods import METHODS


def test_seed_game_counts_match_the_paper():
    # Seed section 4.1: 720 deals, 21 (2.9%) pass, 3 (0.4%) unanimous.
    assert load_shipped("harbour-sport-park").counts() == {"deals": 720, "passing": 21, "unanimous": 3}


def test_original_thresholds_counts():
    assert load_shipped("harbour-sport-park-original").counts() == {"deals": 720, "passing": 55, "unanimous": 12}


def test_unanimous_deals_are_the_documented_three():
    g = load_shipped("harbour-sport-park")
    found = sorted(g.deal_str(d) for d in g.deals if g.unanimous(d))
    assert found == ["A2B2C1D2E3", "A2B2C2D2E3", "A2B2C3D3E3"]


def _raw():
    with open(load_shipped("harbour-sport-park").source, encoding="utf-8") as fh:
        return json.load(fh)


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: d["parties"][2]["scores"].__setitem__("A", [0, 22]), "party Environmental League.scores.A",
     "differs from the option count 3"),
    (lambda d: d["parties"][1].__setitem__("threshold", 120), "party Department of Tourism.threshold", "0..100"),
    (lambda d: [p.__setitem__("veto", False) for p in d["parties"]], "parties", "no veto holder"),
    (lambda d: d.__setitem__("initial_deal", ["A1", "B1", "C9", "D1", "E5"]), "initial_deal.C", "unknown option 'C9'"),
    (lambda d: d["parties"][3].__setitem__("name", "Mayor"), "party Mayor", "duplicate party name"),
    (lambda d: d["issues"][1].__setitem__("name", "A"), "issue A", "duplicate issue name"),
    (lambda d: d["parties"][0].__setitem__("role", "other"), "parties", "exactly one party must have role 'p1'"),
    (lambda d: d.pop("issues"), "issues", "missing"),
])
def test_loader_rejects_bad_games_naming_the_spot(mutate, field, words):
    data = _raw()
    mutate(data)
    with pytest.raises(InputError) as info:
        from_dict(data, "bad.json")
    msg = str(info.value)
    assert msg.startswith("bad.json: ") and field in msg and words in msg


def test_bad_files_give_input_errors(tmp_path):
    bad = tmp_path / "g.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="g.json: line 1: not valid JSON"):
        load_file(str(bad))
    with pytest.raises(InputError, match="No such file"):
        load_file(str(tmp_path / "missing.json"))


TOY_TOML = """
id = "toy"
initial_deal = ["X1", "Y2"]
[[issues]]
name = "X"
options = ["low", "mid", "high"]
[[issues]]
name = "Y"
options = ["no", "yes"]
[[parties]]
name = "Alpha"
role = "p1"
veto = true
threshold = 40
scores = {X = [0, 20, 50], Y = [50, 0]}
[[parties]]
name = "Beta"
threshold = 40
scores = {X = [60, 30, 0], Y = [0, 40]}
[[parties]]
name = "Gamma"
threshold = 30
scores = {X = [10, 40, 20], Y = [20, 60]}
"""


def test_toml_game_runs_with_every_method(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    game = load_file(str(path))
    assert (game.n_parties, game.n_issues, game.turns, game.n_deals) == (3, 2, 12, 6)
    for method in METHODS:
        res = start(game, method, derive(3, "toy", method)).run()
        assert len(res.events) == game.turns + 3  # opening + turns + final + result
        assert res.events[-1].phase == "result"


def test_other_party_and_option_counts_run():
    data = _raw()
    data["parties"] = data["parties"][:4] + [copy.deepcopy(data["parties"][4]) for _ in range(4)]
    for k, p in enumerate(data["parties"][4:]):
        p["name"], p["short"] = f"City{k}", f"C{k}"
    game = from_dict(data, "eight.json")
    assert game.n_parties == 8 and game.turns == 32
    res = start(game, "proposed-all", derive(0, "eight")).run()
    assert res.events[-1].hidden["game"] == "harbour-sport-park"


@pytest.mark.parametrize("n", [3, 4, 6, 8])
def test_speaking_order_redraw_rule(n):
    order = speaking_order(n, 4 * n, 0, generator(5, "order", n))
    assert len(order) == 4 * n
    prev_last = 0
    for b in range(4):
        block = order[b * n:(b + 1) * n]
        assert sorted(block) == list(range(n))
        assert block[0] != prev_last and block[-1] != 0
        prev_last = block[-1]


@pytest.mark.parametrize("n, turns", [(3, 7), (4, 5), (6, 25), (6, 1)])
def test_speaking_order_cut_short_never_ends_with_p1(n, turns):
    for seed in range(30):
        order = speaking_order(n, turns, 0, generator(seed, "order-cut", n, turns))
        assert len(order) == turns and order[-1] != 0  # p1 then makes the final proposal
        assert all(a != b for a, b in zip(order, order[1:]))
        assert order[0] != 0


def test_scenarios_cli_lists_and_shows_counts():
    from simcore.cli import cli

    runner = CliRunner()
    out = runner.invoke(cli, ["scenarios", "list"]).output
    for gid in SHIPPED:
        assert f"{gid}-v1" in out
    shown = runner.invoke(cli, ["scenarios", "show", "harbour-sport-park-v1"]).output
    assert "deals: 720" in shown and "passing" in shown and ": 21 " in shown and "unanimous: 3 " in shown
    shown = runner.invoke(cli, ["scenarios", "show", "harbour-sport-park-original"]).output
    assert ": 55 " in shown and "unanimous: 12 " in shown


def test_load_game_by_id_or_path():
    g = load_game("harbour-sport-park-v1")
    assert load_game(g.source).counts() == g.counts()
    with pytest.raises(InputError, match="neither a shipped game"):
        load_game("no-such-game")


def _reference_choice(game, party, level, ests, rule, share, threshold):
    """The documented proposal key, computed deal by deal with plain Python."""
    import itertools
    import math

    deals = list(itertools.product(*[range(k) for k in game.option_counts]))
    est = {j: [sum(float(e[m][o]) for m, o in enumerate(d)) for d in deals] for j, e in ests.items()}
    best_key, best = None, None
    for i, d in enumerate(deals):
        own = game.score(party, d)
        if own < level - 1e-9:
            continue
        n_acc, veto_ok, worst, total = 1, True, 1.0, 0.0
        for j in range(game.n_parties):
            if j == party:
                continue
            col = est[j]
            if rule == "threshold":
                acc = col[i] >= threshold - 1e-9
            else:
                k = max(1, math.ceil(share * len(col)))
                acc = col[i] >= sorted(col)[len(col) - k] - 1e-9
            pct = sum(x <= col[i] + 1e-9 for x in col) / len(col)
            n_acc += acc
            worst, total = min(worst, pct), total + pct
            veto_ok &= acc or not game.parties[j].veto
        key = (veto_ok, n_acc, worst, total, own, -i)
        if best_key is None or key > best_key:
            best_key, best = key, d
    return best


def test_choose_deal_follows_the_documented_key():
    import numpy as np

    from policies.scorable import choose_deal, deal_view, echo_estimate

    game = load_shipped("harbour-sport-park")
    rng = np.random.default_rng(5)
    for rule in ("share", "threshold"):
        ests = {j: tuple(rng.integers(0, 30, k).astype(float) for k in game.option_counts)
                for j in range(game.n_parties)}
        ests[2] = echo_estimate(game, [(0, 1, 2, 3, 4), (1, 1, 0, 0, 2)])
        for party in (0, 3):
            for level in (50.0, 80.0):
                want = _reference_choice(game, party, level, ests, rule, 0.5, 50.0)
                assert choose_deal(game, party, level, ests, 50.0, rule, 0.5)[0] == want
                views = {j: deal_view(game, e, rule, 0.5, 50.0) for j, e in ests.items()}
                assert choose_deal(game, party, level, views, 50.0, rule, 0.5)[0] == want
