"""simcore.bridges.negmas (the optional NegMAS extra): the export agrees with simcore's scores, NegMAS
negotiators take ASTRA's seats (Python API, env, command line), simcore's agents negotiate inside
NegMAS's mechanisms, and the foreign agents' randomness follows simcore's seed.  Skipped without
the extra."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

negmas = pytest.importorskip("negmas")

from negmas import AspirationNegotiator, SAOMechanism  # noqa: E402
from negmas.sao import SAONegotiator  # noqa: E402

import simcore  # noqa: E402
from scenarios.bilateral import SHIPPED, Valuation, load_domain  # noqa: E402
from simcore.bridges.negmas import (AstraNegotiator, NegotiatorSeat, PartnerNegotiator, from_negmas,  # noqa: E402
                                    outcome_space, owner_of, scenario, to_negmas, utility_function)
from simcore.bridges.negmas.randomness import Streams, call_seed  # noqa: E402
from simcore.bridges.negmas.seat import seated  # noqa: E402
from simcore.errors import InputError  # noqa: E402
from tests.clirun import simcore as run_cli  # noqa: E402


def valuations(d):
    """Every valuation a shipped domain names, with the side it is for."""
    yield d.agent, "agent"
    for s in d.setups:
        for p in s.partners:
            yield p, "partner"


def events_json(ep) -> list:
    return [e.to_json() for e in ep.events]


# ------------------------------------------------------------------ the export
@pytest.mark.parametrize("domain_id", sorted(SHIPPED))
def test_the_export_equals_domain_score_on_every_outcome_both_sides(domain_id):
    d = load_domain(domain_id)
    space = outcome_space(d)
    assert space.cardinality == len(d.outcomes)
    for values, _ in valuations(d):
        for side in ("agent", "partner"):
            u = utility_function(d, values, side, space=space)
            m = max(d.scores(values, side))
            got = [float(u(to_negmas(d, o))) for o in d.outcomes]
            assert all(0.0 <= x <= 1.0 + 1e-12 for x in got)
            assert max(got) == pytest.approx(1.0)
            for o, x in zip(d.outcomes, got):
                assert x * m == pytest.approx(d.score(values, o, side), abs=1e-9), (o, side)
    for o in d.outcomes:
        assert from_negmas(d, to_negmas(d, o)) == o
        assert space.is_valid(to_negmas(d, o))


def test_the_reserved_value_is_the_no_deal_payoff_scaled():
    d = load_domain("casino-v1")
    assert utility_function(d, d.agent, "agent").reserved_value == 0.0
    assert utility_function(d, d.agent, "agent", no_deal_payoff="batna").reserved_value == pytest.approx(5 / 36)
    sc = scenario("casino-v1", setup="distributive", no_deal_payoff="batna")
    assert [u.reserved_value for u in sc.ufuns] == [pytest.approx(5 / 36)] * 2
    assert sc.info["simcore"]["scales"] == [36.0, 36.0]


def test_categorical_options_go_by_name_and_foreign_values_are_refused():
    d = load_domain("research-allocation-v1")
    o = d.outcomes[7]
    n = to_negmas(d, o)
    assert n[2] in d.issues[2].options
    assert from_negmas(d, n) == o
    assert from_negmas(d, (0, 0, "nowhere", 0)) is None
    assert from_negmas(d, (9, 0, "computer", 0)) is None
    assert from_negmas(d, None) is None


def test_owner_of_finds_the_valuation_and_the_side_and_refuses_others():
    d = load_domain("casino-v1")
    sc = scenario(d, setup="integrative")
    a, p = owner_of(d, sc.ufuns[0]), owner_of(d, sc.ufuns[1])
    assert (a.values, a.side, p.side) == (d.agent, "agent", "partner")
    assert p.values == d.setup("integrative").partners[0]
    odd = utility_function(d, Valuation((1.0, 7.0, 2.0), ((), (), ())), "agent")
    with pytest.raises(InputError, match="ufun"):
        owner_of(d, odd)
    assert owner_of(d, odd, Valuation((1.0, 7.0, 2.0), ((), (), ()))).scale == 30.0


def test_bad_export_arguments_are_one_input_error():
    with pytest.raises(InputError, match="side"):
        utility_function("casino-v1", None, "middle")
    with pytest.raises(InputError, match="no_deal_payoff"):
        utility_function("casino-v1", None, "agent", no_deal_payoff="half")
    with pytest.raises(InputError, match="values"):
        utility_function("casino-v1", Valuation((1.0,), ((),)), "agent")


# ------------------------------------------------------------------ NegMAS agents in simcore's seats
@pytest.mark.parametrize("partner", [AspirationNegotiator, "negmas.sao:AspirationNegotiator",
                                     "negmas_genius_agents:HardHeaded", "negmas_negolog:ConcederAgent"],
                         ids=["class", "path", "genius", "negolog"])
def test_a_negmas_negotiator_takes_the_partner_seat_and_repeats_byte_identically(partner):
    if isinstance(partner, str):
        pytest.importorskip(partner.split(":")[0].split(".")[0])
    eps = [simcore.astra_episode("astra-agent-v3", partner, seed=s, setup="distributive") for s in (3, 3)]
    assert eps[0].status in ("agreement", "walk_away", "no_agreement")
    assert events_json(eps[0]) == events_json(eps[1])
    partner_turns = [e for e in eps[0].events if e.speaker == "partner"]
    assert partner_turns and all(e.text for e in partner_turns)  # (its moves are said by the seat's voice)


def test_an_instance_and_the_agent_seat_work_too():
    ep = simcore.astra_episode(AspirationNegotiator(name="mine"), "base-partner-v2", seed=2)
    assert ep.status in ("agreement", "walk_away", "no_agreement")
    assert any(e.speaker == "agent" and e.intent.get("offer") for e in ep.events)


def test_priority_questions_are_answered_truthfully_or_not_at_all():
    d = load_domain("casino-v1")
    pv = d.setup("integrative").partners[0]
    ep = simcore.astra_episode("astra-agent-v3", AspirationNegotiator, seed=1, backend="mock-exact-v1")
    answers = [e for e in ep.events if e.speaker == "partner" and e.intent.get("mode") == "answer"]
    assert [e.intent["question"] for e in answers] == ["highest", "lowest"]
    order = d.order_of(pv)
    assert f"highest priority is {order[0]}" in answers[0].text and f"lowest priority is {order[-1]}" in answers[1].text
    assert answers[0].intent.get("offer")  # (its own move still made in the same turn)
    quiet = simcore.astra_episode("astra-agent-v3", seated(AspirationNegotiator, answers="none"), seed=1,
                                  backend="mock-exact-v1")
    assert not any(e.intent.get("mode") == "answer" for e in quiet.events)
    assert not any("priority is" in e.text for e in quiet.events if e.speaker == "partner")


def test_the_negotiator_is_given_the_scaled_valuation_and_the_no_deal_payoff():
    seen = {}

    class Spy(AspirationNegotiator):
        def propose(self, state, dest=None):
            seen["reserved"], seen["n_steps"] = self.ufun.reserved_value, self.nmi.n_steps
            seen["best"] = max(float(self.ufun(o)) for o in self.nmi.outcome_space.enumerate())
            return super().propose(state, dest)

    simcore.astra_episode("astra-agent-v3", Spy, seed=0, no_deal_payoff="batna", rounds=9)
    assert seen["reserved"] == pytest.approx(5 / 36) and seen["best"] == pytest.approx(1.0) and seen["n_steps"] == 9


def test_the_foreign_randomness_follows_simcores_seed_and_not_the_process():
    class Dice(SAONegotiator):
        """Offers random outcomes (the global generators, as NegMAS agents draw) and never accepts."""

        def propose(self, state, dest=None):
            outcomes = list(self.nmi.outcome_space.enumerate())
            return outcomes[(random.randrange(len(outcomes)) + int(np.random.randint(len(outcomes)))) % len(outcomes)]

        def respond(self, state, source=None):
            return negmas.ResponseType.REJECT_OFFER

    def offers(seed):
        ep = simcore.astra_episode("no-astra-agent-v2", Dice, seed=seed, rounds=6)
        return [tuple(e.intent["offer"]) for e in ep.events if e.speaker == "partner" and e.intent.get("offer")]

    first = offers(5)
    random.seed(999)
    np.random.seed(999)  # the process's own state does not reach the negotiation
    assert offers(5) == first
    assert offers(6) != first
    assert len(set(first)) > 1


def test_streams_apply_distinct_seeds_per_call():
    s = Streams(42)
    draws = []
    for _ in range(3):
        with s:
            draws.append(random.random())
    assert len(set(draws)) == 3 and s.calls == 3
    with Streams(42):
        assert random.random() == draws[0]
    assert len({call_seed(1, k) % 2 ** 32 for k in range(1000)}) == 1000


def test_env_and_command_line_take_a_negmas_partner(tmp_path, capsys):
    pytest.importorskip("pettingzoo")
    env = simcore.make_env("astra", partner="negmas.sao:AspirationNegotiator", external=["agent"], seed=4)
    env.reset(seed=4)
    assert env.agent_selection == "agent"
    rc, out, err = run_cli(capsys, *["run", "astra", "--seat", "partner=negmas.sao:AspirationNegotiator", "--agents", "astra",
                            "--setups", "integrative", "--episodes", "2", "--no-progress", "--out",
                            str(tmp_path / "run")])
    assert rc == 0, err
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert list(metrics["results"]) == ["astra__negmas.sao:AspirationNegotiator"]


def test_a_negmas_negotiator_in_another_systems_seat_is_one_input_error():
    from simcore.contract import SeatSetup
    from simcore.seats import seat

    setup = SeatSetup("mind", "m0", None, None, np.random.default_rng(0))
    with pytest.raises(InputError, match="alternating-offers"):
        seat(AspirationNegotiator, setup, name="m0", builtin=lambda spec: None)


def test_a_negotiator_that_raises_ends_the_negotiation_by_exception():
    class Broken(SAONegotiator):
        def propose(self, state, dest=None):
            raise ValueError("no idea")

    seats = {}

    def factory(setup, no_deal_payoff="zero"):
        seats["it"] = NegotiatorSeat(Broken, setup, no_deal_payoff=no_deal_payoff)
        return seats["it"]

    ep = simcore.astra_episode("astra-agent-v3", factory, seed=0)
    assert (ep.status, ep.walked_by, seats["it"].ended_by) == ("walk_away", "partner", "exception")
    assert "no idea" in seats["it"].error


# ------------------------------------------------------------------ simcore's agents inside NegMAS
def _mechanism(first, second, sc, n_steps=15, swap=False):
    m = SAOMechanism(outcome_space=sc.outcome_space, n_steps=n_steps)
    ufuns = sc.ufuns[::-1] if swap else sc.ufuns
    m.add(first, preferences=ufuns[1])
    m.add(second, preferences=ufuns[0])
    return m


@pytest.mark.parametrize("partner", ["boulware", "base", "greedy"])
def test_astra_in_a_negmas_mechanism_plays_simcores_own_negotiation(partner):
    """ASTRA and a simcore partner inside an SAOMechanism make the moves, and say the words, of the
    same negotiation in simcore (the noise-free mock: words depend on nothing drawn)."""
    d = load_domain("casino-v1")
    pv = d.setup("integrative").partners[0]
    sc = scenario(d, pv)
    astra = AstraNegotiator(name="astra", backend="mock-exact-v1", partner_values=pv)
    m = _mechanism(PartnerNegotiator(partner, name="partner", backend="mock-exact-v1"), astra, sc)
    m.run()
    ep = simcore.astra_episode("astra-agent-v4", simcore.api.astra_match.__globals__["PARTNERS"][partner]
                               if partner != "base" else "base-partner-v2", partner_values=pv,
                               backend="mock-exact-v1", seed=0)
    # (the partner's phases are its own intent, which the other negotiator does not see, and NegMAS's
    # mechanism keeps no words of an acceptance or an end: words and offers, and who ended it how)
    def seen(e):
        ends = e.speaker == "partner" and e.phase in ("accept", "walk_away")
        return (e.speaker, e.phase if e.speaker != "partner" or ends else "", "" if ends else e.text,
                e.intent.get("offer"))

    assert [seen(e) for e in astra.episode.events] == [seen(e) for e in ep.events]
    assert (astra.episode.agent_score, astra.episode.partner_score) == (ep.agent_score, ep.partner_score)
    if ep.status == "agreement":
        assert m.agreement == to_negmas(d, ep.outcome)
    else:
        assert m.agreement is None


def test_astra_on_the_partners_side_plays_the_mirror_image():
    """Given the partner's utility function (a tournament rotates them), ASTRA plays the partner's
    side in its own units: on the distributive setup (both sides value alike) its offers are the
    mirror image of its offers on the agent's side."""
    d = load_domain("casino-v1")
    sc = scenario(d, setup="distributive")
    flip = lambda o: tuple(3 - x for x in o)  # noqa: E731

    def astra_offers(swap):
        astra = AstraNegotiator(name="astra", backend="mock-exact-v1")
        m = _mechanism(AspirationNegotiator(name="asp"), astra, sc, swap=swap)
        m.run()
        own = [from_negmas(d, o) for o in m.negotiator_offers(astra.id) if o is not None]
        return astra.side, (own if not swap else [flip(o) for o in own])

    side_a, a = astra_offers(False)
    side_p, p = astra_offers(True)
    assert (side_a, side_p) == ("agent", "partner")
    assert a and a == p


def test_negotiators_accept_keywords_and_refuse_a_non_partner():
    with pytest.raises(InputError, match="partner"):
        PartnerNegotiator("astra-agent-v3")
    n = AstraNegotiator(name="x", seed=3, choices={"alpha": 0.5})
    assert n.name == "x" and n.seed == 3


def test_simcores_agents_play_a_negmas_tournament_without_errors(tmp_path):
    from negmas.tournaments.neg.simple.cartesian import cartesian_tournament

    from simcore.bridges.negmas import NoAstraNegotiator

    res = cartesian_tournament(competitors=[AstraNegotiator, NoAstraNegotiator, AspirationNegotiator],
                               scenarios=[scenario("casino-v1")], n_steps=15, n_repetitions=1, njobs=-1, verbosity=0,
                               save_stats=False, save_scenario_figs=False, plot_fraction=0, path=tmp_path / "t")
    scores = res.scores
    assert len(scores) > 0 and not scores["has_error"].any()
    assert set(scores["strategy"]) >= {"AstraNegotiator", "NoAstraNegotiator"}
