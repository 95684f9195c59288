"""The offers-only path of the alternating-offers protocol (issue 21) gives what the full
path gives: the same episodes, transcripts byte for byte, and the same partners' state
after the run, over seeds, partner kinds in both seats, both shipped domains, round
limits, deadline notices and no-deal payoffs; and it is taken only where nothing else
(words, a model in a role, a subclass's rules, a seat mix-up) needs the full path.
Also: the domain's score tables built all at once equal ``Domain.score`` bit for bit."""

from __future__ import annotations

import itertools
import pickle
import random
import struct

import attrs
import numpy as np
import pytest

from policies.lp import Space
from policies.partners import PARTNER_PARAMS, Partner, make_partner
from scenarios.bilateral import Domain, Issue, Valuation, load_domain
from simcore.protocols.alternating import Action, AlternatingProtocol, _MovesLog
from tests.protocolpaths import DOMAINS, KINDS, FullPath, path_taken, same_episode

def _pair(domain, kind_a, kind_b, pv, seed):
    a = make_partner(kind_a, domain, domain.agent, None, np.random.default_rng([seed, 1]), side="agent")
    b = make_partner(kind_b, domain, pv, None, np.random.default_rng([seed, 2]))
    return a, b


def _state(p: Partner):
    return (p.greeted, list(p.my_offers), p.target, p._ranked)


def _both(domain, proto, kind_a, kind_b, pv, seed):
    a, b = _pair(domain, kind_a, kind_b, pv, seed)
    fast = proto.run(domain, a, b, domain.agent, pv, f"t/{seed}")
    assert type(fast._events) is _MovesLog and fast._events.path == "offers only"  # (the offers-only path)
    a2, b2 = _pair(domain, kind_a, kind_b, pv, seed)
    full = proto.run(domain, FullPath(a2), FullPath(b2), domain.agent, pv, f"t/{seed}")
    assert type(full._events) is tuple
    return fast, full, (a, b), (a2, b2)


CASES = [(did, ka, kb, limit, warn, payoff)
         for did in DOMAINS for ka, kb in itertools.product(KINDS, KINDS)
         for limit, warn, payoff in ((15, 2, "zero"), (100, 3, "batna"))]


@pytest.mark.parametrize("did,kind_a,kind_b,limit,warn,payoff", CASES)
def test_offers_only_path_is_the_full_path(did, kind_a, kind_b, limit, warn, payoff):
    domain = load_domain(did)
    proto = AlternatingProtocol(round_limit=limit, warn_rounds=warn, no_deal_payoff=payoff)
    partners = [p for s in domain.setups for p in s.partners]
    for seed in range(2):
        pv = partners[seed % len(partners)]
        fast, full, (a, b), (a2, b2) = _both(domain, proto, kind_a, kind_b, pv, seed)
        same_episode(fast, full)
        assert _state(a) == _state(a2) and _state(b) == _state(b2)


@pytest.mark.parametrize("limit,warn", [(1, 0), (1, 1), (2, 2), (3, 2), (5, 0), (7, 9)])
def test_short_and_odd_deadlines(limit, warn):
    rnd = random.Random(limit * 10 + warn)
    for k in range(6):
        domain = load_domain(rnd.choice(DOMAINS))
        pv = rnd.choice([p for s in domain.setups for p in s.partners])
        proto = AlternatingProtocol(round_limit=limit, warn_rounds=warn,
                                    no_deal_payoff=rnd.choice(("zero", "batna")))
        fast, full, _, _ = _both(domain, proto, rnd.choice(KINDS), rnd.choice(KINDS), pv, k)
        same_episode(fast, full)


def test_overridden_parameters_and_the_benchmark_negotiation():
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    proto = AlternatingProtocol(round_limit=100)
    fast, full, _, _ = _both(casino, proto, "boulware", "boulware", pv, 0)
    same_episode(fast, full)
    assert (fast.status, fast.rounds) == ("agreement", 87)
    for overrides in ({"exponent": 2.0}, {"open_share": 0.7, "step": 2.0}, {"repeat_limit": 1},
                      {"deadline_share": 0.3, "accept_slack": 2.0}):
        a = make_partner("base", casino, casino.agent, None, np.random.default_rng(0), side="agent", **overrides)
        b = make_partner("greedy", casino, pv, None, np.random.default_rng(1), **overrides)
        a2 = make_partner("base", casino, casino.agent, None, np.random.default_rng(0), side="agent", **overrides)
        b2 = make_partner("greedy", casino, pv, None, np.random.default_rng(1), **overrides)
        same_episode(proto.run(casino, a, b, casino.agent, pv, "o"),
              proto.run(casino, FullPath(a2), FullPath(b2), casino.agent, pv, "o"))


def test_the_log_pickles_as_its_events():
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    fast, full, _, _ = _both(casino, AlternatingProtocol(round_limit=20), "base", "fair", pv, 3)
    back = pickle.loads(pickle.dumps(fast))
    assert type(back._events) is tuple and back == full
    assert fast.events is fast.events  # built once


def test_the_full_path_where_it_is_needed():
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    proto = AlternatingProtocol(round_limit=10)

    def path(a, b, domain=casino):
        return path_taken(proto, domain, a, b, pv)

    a, b = _pair(casino, "boulware", "boulware", pv, 0)
    assert path(a, b) == "offers only"
    # words: a language client (the words path, tests/test_words_path.py)
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    client = ModelClient(MockBackend())
    a = make_partner("boulware", casino, casino.agent, client, np.random.default_rng(0), side="agent")
    b = make_partner("boulware", casino, pv, None, np.random.default_rng(1))
    assert path(a, b) == "words"
    # a model in the astra.partner role
    a, b = _pair(casino, "boulware", "boulware", pv, 0)
    b.move_role = object()
    assert not b.offers_only and not b.rule_moves
    # a subclass (its rules may differ)

    class Sub(Partner):
        pass

    a, b = _pair(casino, "boulware", "boulware", pv, 0)
    sub = Sub(casino, pv, None, np.random.default_rng(1), PARTNER_PARAMS["boulware"])
    assert path(a, sub) == "tuple"
    # seats swapped: each states offers from its own seat, so the full path's check decides
    a, b = _pair(casino, "base", "base", pv, 0)
    a2, b2 = _pair(casino, "base", "base", pv, 0)
    swapped = proto.run(casino, b, a, casino.agent, pv, "s")
    assert type(swapped._events) is tuple
    same_episode(swapped, proto.run(casino, FullPath(b2), FullPath(a2), casino.agent, pv, "s"))
    # another domain object than the partners'
    other = load_domain.__wrapped__("casino-v1")
    a, b = _pair(casino, "boulware", "boulware", pv, 0)
    assert path(a, b, other) == "tuple"
    # a domain whose statements would not read back (two options of one name)
    dup = Domain("dup", "", "", (Issue("x", "integer", 2), Issue("c", "categorical", options=("a", "a"))),
                 (2.0, 1.0), (1.0,), 0.0, 4.0, 0.0, 0.0, Valuation((1.0, 1.0), ((), (1.0, 0.5))), ())
    assert not dup.offers_read_back and casino.offers_read_back


@pytest.mark.parametrize("did", DOMAINS)
def test_statements_read_back(did):
    """What ``offers_read_back`` promises, checked outcome by outcome."""
    d = load_domain(did)
    assert d.offers_read_back
    for o in d.outcomes:
        for seat in ("agent", "partner"):
            assert d.check_offer(d.state_offer(o, seat), seat) == o


def _bits(xs):
    return [struct.pack("<d", float(x)) + type(x).__name__.encode() for x in xs]


@pytest.mark.parametrize("did", DOMAINS)
def test_score_tables_are_score_bit_for_bit(did):
    d = load_domain.__wrapped__(did)
    rnd = random.Random(did)
    vals = [d.agent] + [p for s in d.setups for p in s.partners]
    for _ in range(150):
        pick = lambda: rnd.choice([rnd.uniform(-50, 50), float(rnd.randint(-9, 9)), 0.1, 1 / 3, -0.0, 1e-12])  # noqa: E731
        vals.append(Valuation(tuple(pick() for _ in d.issues),
                              tuple(tuple(pick() for _ in i.options) if i.kind == "categorical" else ()
                                    for i in d.issues)))
    for v in vals:
        for side in ("agent", "partner"):
            slow = [d.score(v, o, side) for o in d.outcomes]
            assert _bits(d.scores(v, side)) == _bits(slow)
            assert _bits(d.score_table(v, side)[o] for o in d.outcomes) == _bits(slow)
    space = Space.build(d, d.agent, vals[1])
    assert _bits(space.s_a) == _bits(d.score(d.agent, o, "agent") for o in d.outcomes)
    assert _bits(space.s_p) == _bits(d.score(vals[1], o, "partner") for o in d.outcomes)


def test_action_is_unchanged_for_policies():
    """(The offers-only path is internal: a policy's Action is what it always was.)"""
    assert [f.name for f in Action.__attrs_attrs__] == ["kind", "text", "stated", "intent", "hidden"]


@pytest.mark.parametrize("did", DOMAINS)
def test_agent_units(did):
    d = load_domain(did)
    assert d.agent_units == tuple(sum(x for i, x in zip(d.issues, o) if i.kind == "integer") for o in d.outcomes)


def test_check_numbers_one_pass_agrees_with_the_walk():
    """The data files' number check: its one-pass test passes exactly what the
    field-by-field walk passes, and every refusal comes from the walk (naming the field)."""
    from collections import OrderedDict

    from scenarios.datafile import MAX_ABS, MAX_TEXT, _check_numbers, _plainly_fine, check_numbers
    from simcore.errors import InputError

    values = [None, True, 0, -MAX_ABS, MAX_ABS, MAX_ABS + 1, -MAX_ABS - 1, 1e15, 1.0000001e15, float("nan"),
              float("inf"), -float("inf"), "x" * MAX_TEXT, "x" * (MAX_TEXT + 1), 2 ** 80, np.float64(1e16),
              np.int64(3), OrderedDict(a=1e16), OrderedDict(a=1), (1e16,), object()]
    rnd = random.Random(7)
    docs = list(values)
    for _ in range(300):
        v = rnd.choice(values)
        docs.append({"a": [1, {"b": v}], "c": rnd.choice(values)} if rnd.random() < 0.5 else [[v], "ok", {"d": 2}])

    def verdict(check, doc):
        try:
            check(doc, "f")
        except InputError as exc:
            return str(exc)
        return None

    for doc in docs:
        assert verdict(check_numbers, doc) == verdict(_check_numbers, doc)
        if _plainly_fine(doc):
            assert verdict(_check_numbers, doc) is None


@pytest.mark.parametrize("did", DOMAINS)
def test_floor_check_without_tables_refuses_what_the_tables_refuse(did):
    """The loader's LP-floor check finds one outcome that leaves each partner its floor
    instead of building every partner's table: the same files pass, the same fail, with
    the same message (floors at, just around and beyond each partner's best)."""
    import json
    import os

    from scenarios.bilateral import DATA_DIR, SHIPPED, parse_domain
    from simcore.errors import InputError

    data = json.loads(open(os.path.join(DATA_DIR, SHIPPED[did])).read())
    d = load_domain.__wrapped__(did)

    def table_verdict(dom):  # the check as it was: every partner's table, then its best
        own = [dom.score(dom.agent, o, "agent") for o in dom.outcomes]
        for setup in dom.setups:
            for k, partner in enumerate(setup.partners):
                theirs = {o: dom.score(partner, o, "partner") for o in dom.outcomes}
                best = max((theirs[o] for o, sa in zip(dom.outcomes, own) if sa >= dom.min_own - 1e-9), default=None)
                if best is None or dom.min_partner > best + 1e-9:
                    return (f"{dom.min_partner:g} leaves no outcome for setups.{setup.name}.partners[{k}] "
                            f"(with lp.min_own {dom.min_own:g} the partner scores at most {best:g})")
        return None

    own_max = max(d.score(d.agent, o, "agent") for o in d.outcomes)
    bests = sorted({max(d.score(p, o, "partner") for o in d.outcomes) for s in d.setups for p in s.partners})
    for min_own in (0, own_max / 2, own_max - 1, own_max):
        for b in [0.0] + bests:
            for min_partner in (b - 1e-9, b, b + 5e-10, b + 1e-9, b + 2e-9, b + 0.5, b + 3):
                if min_partner < 0:  # (refused before the floors are looked at, as before)
                    continue
                data["lp"] = {"min_own": min_own, "min_partner": min_partner}
                try:
                    parse_domain(data, "f.json")
                    got = None
                except InputError as exc:
                    got = str(exc)
                want = table_verdict(attrs.evolve(d, min_own=float(min_own), min_partner=float(min_partner)))
                if want is None:
                    assert got is None, (min_own, min_partner, got)
                else:
                    assert got is not None and want in got, (min_own, min_partner, got, want)


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@st.composite
def _params(draw):
    """Overrides of a partner's PartnerParams, anywhere in their ranges."""
    out = {}
    if draw(st.booleans()):
        out["open_share"] = draw(st.floats(0.2, 1.2))
    if draw(st.booleans()):
        out["step"] = draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.7]))
    if draw(st.booleans()):
        out["concede_every"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        out["floor_share"] = draw(st.floats(0.0, 0.9))
    if draw(st.booleans()):
        out["deadline_share"] = draw(st.one_of(st.none(), st.floats(0.0, 1.0)))
    if draw(st.booleans()):
        out["repeat_limit"] = draw(st.one_of(st.none(), st.integers(1, 3)))
    if draw(st.booleans()):
        out["one_sided_share"] = draw(st.floats(0.3, 1.0))
    if draw(st.booleans()):
        out["fixed"] = draw(st.booleans())
    if draw(st.booleans()):
        out["accept_slack"] = draw(st.sampled_from([0.0, 1.0, 2.5]))
    if draw(st.booleans()):
        out["exponent"] = draw(st.one_of(st.none(), st.sampled_from([0.25, 1.0, 2.0, 4.0, 7.5])))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(did=st.sampled_from(DOMAINS), kind_a=st.sampled_from(KINDS), kind_b=st.sampled_from(KINDS),
       over_a=_params(), over_b=_params(), pick=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       limit=st.integers(1, 40), warn=st.integers(0, 5), payoff=st.sampled_from(("zero", "batna")))
def test_offers_only_path_is_the_full_path_property(did, kind_a, kind_b, over_a, over_b, pick, seed, limit, warn,
                                                    payoff):
    domain = load_domain(did)
    partners = [p for s in domain.setups for p in s.partners]
    pv = partners[pick % len(partners)]
    proto = AlternatingProtocol(round_limit=limit, warn_rounds=warn, no_deal_payoff=payoff)

    def pair():
        return (make_partner(kind_a, domain, domain.agent, None, np.random.default_rng([seed, 1]), side="agent",
                             **over_a),
                make_partner(kind_b, domain, pv, None, np.random.default_rng([seed, 2]), **over_b))

    a, b = pair()
    fast = proto.run(domain, a, b, domain.agent, pv, f"h/{seed}")
    assert type(fast._events) is _MovesLog and fast._events.path == "offers only"
    a2, b2 = pair()
    full = proto.run(domain, FullPath(a2), FullPath(b2), domain.agent, pv, f"h/{seed}")
    same_episode(fast, full)
    assert _state(a) == _state(a2) and _state(b) == _state(b2)
