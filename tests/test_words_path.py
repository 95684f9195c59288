"""The words path of the alternating-offers protocol (issue 21) gives what the full path
gives, for two rule-based partners with a language client: the same episodes, the same
transcripts byte for byte, the same partners' state afterwards, the same generators'
state, and the same :class:`~mockllm.client.ModelClient` counts, exchange records and
backend calls -- over every pair of partner kinds (each kind in both seats), both shipped
domains, round limits, deadline notices, no-deal payoffs, the mock's noise (up to an
over-specification noise that makes invalid moves common), a client keeping exchange
records, a backend that answers through the prompt text, and clients that say odd
things (a preference question in a greeting, stated offers of the wrong shape or none,
another valid offer than the one decided, unreadable answers).

The full path is taken by putting the same partners behind a wrapper that only has
``act``; the words path restates the full path's turn rules, and this comparison is
what keeps the two equal (simcore.protocols.alternating, ``_run_moves``)."""

from __future__ import annotations

import itertools
import json
import pickle

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from policies.partners import PARTNER_PARAMS, Partner, make_partner
from scenarios.bilateral import load_domain
from simcore.errors import BackendError
from simcore.protocols.alternating import AlternatingProtocol, _MovesLog
from tests.protocolpaths import DOMAINS, KINDS, FullPath, path_taken, same_episode

class ThroughText(MockBackend):
    """The mock, answering from the prompt text (a subclass is never answered in process)."""


class Odd:
    """A backend that says odd things in ``astra.speak`` answers, chosen by the call's seed:
    a greeting that asks a preference question (the other partner answers it through
    ``astra.answer``), an offer stated for another valid outcome, over-specified, without
    a part, with a bool for units, not as an object, none at all, an unreadable answer (a
    repair, then possibly the fallback), a backend error; the mock for everything else."""

    def __init__(self, **options):
        self.mock = MockBackend(**options)
        self.calls = 0

    def chat(self, messages, *, temperature=0.0, seed=None, schema=None):
        self.calls += 1
        if not messages[0].content.startswith("TASK: astra.speak\n"):
            return self.mock.chat(messages, temperature=temperature, seed=seed)
        ctx = json.loads(messages[1].content.split("\n")[1])
        r = (seed or 0) % 11
        offer = ctx["offer"]
        if r == 0:
            raise BackendError("odd: no answer")
        if r == 1:
            return "not JSON at all"
        if offer is None:
            text = ("Hi! Which item is your lowest priority?" if r % 2 else "Hello. What is your top priority?")
            return json.dumps({"utterance": text, "offer": None})
        if r == 2 and offer.get("self"):  # another split: all units to the other side (valid)
            units = {n: offer["self"][n] + offer["other"].get(n, 0) for n in offer["self"]}
            offer = {"self": {n: 0 for n in units}, "other": units, "shared": offer.get("shared", {})}
        elif r == 3 and offer.get("other"):  # over-specified
            name = next(iter(offer["other"]))
            offer = {**offer, "other": {**offer["other"], name: offer["other"][name] + 2}}
        elif r == 4:
            offer = {"self": offer.get("self", {}), "shared": offer.get("shared", {})}
        elif r == 5 and offer.get("self"):
            name = next(iter(offer["self"]))
            offer = {**offer, "self": {**offer["self"], name: True}}
        elif r == 6:
            offer = {k: v for k, v in offer.items() if k != "shared"}
        return json.dumps({"utterance": "Here is what I can do.", "offer": offer})


class OddClient:
    """Not a ModelClient: a client whose ``astra.speak`` answers are odd in the protocol's
    terms -- a stated offer that is a list, whose part is not an object, or None for an
    offer move; a greeting with a question -- drawn from the caller's generator."""

    def __init__(self):
        self.asked = []

    def ask(self, task, rng, *, fallback=None, **context):
        self.asked.append((task.id, json.dumps(context, sort_keys=True, default=str)))
        r = int(rng.integers(0, 8))
        if task.id != "astra.speak":
            return f"answer {r}"
        offer = context["offer"]
        if offer is None:
            return ("Which item is your highest priority?" if r < 3 else f"Hello {r}"), None
        stated = [offer, ["self"], {"self": "all of it", "other": {}}, None, {**offer, "self": 3}][r % 5] \
            if r < 5 else offer
        return f"words {r}", stated


class RuleRole:
    """An astra.partner role that takes the rule's move."""

    def choose(self, partner, obs, on_table, stand_in):
        return stand_in


def _client(how, seed):
    if how == "none":
        return None
    if how == "odd-client":
        return OddClient()
    if how == "odd":
        return ModelClient(Odd(astra_overspecify=0.3))
    backend = {"exact": lambda: MockBackend(exact=True), "default": MockBackend,
               "noisy": lambda: MockBackend(astra_overspecify=0.6),
               "text": lambda: ThroughText(astra_overspecify=0.3)}[how.replace("+rec", "")]()
    return ModelClient(backend, exchanges=[] if how.endswith("+rec") else None)


def _pair(domain, kind_a, kind_b, pv, seed, how_a, how_b, shared, over_a=None, over_b=None):
    ca = _client(how_a, seed)
    cb = ca if shared else _client(how_b, seed)
    a = make_partner(kind_a, domain, domain.agent, ca, np.random.default_rng([seed, 1]), side="agent",
                     **(over_a or {}))
    b = make_partner(kind_b, domain, pv, cb, np.random.default_rng([seed, 2]), **(over_b or {}))
    return a, b


def _client_state(client):
    if client is None:
        return None
    if isinstance(client, OddClient):
        return client.asked
    backend = client.backend
    calls = backend.calls if not isinstance(backend, Odd) else (backend.calls, backend.mock.calls)
    return attrs.asdict(client.stats), client.exchanges, calls


def _state(p: Partner):
    return (p.greeted, list(p.my_offers), p.target, p._ranked, p.rng.bit_generator.state, _client_state(p.client))


def _compare(domain, proto, kind_a, kind_b, pv, seed, how_a, how_b="", shared=True, over_a=None, over_b=None):
    """Runs the negotiation on both paths; returns the words path's episode (None when both
    raised the same error: a partner without a client asked a question has no words for it)."""
    a, b = _pair(domain, kind_a, kind_b, pv, seed, how_a, how_b, shared, over_a, over_b)
    a2, b2 = _pair(domain, kind_a, kind_b, pv, seed, how_a, how_b, shared, over_a, over_b)
    try:
        fast = proto.run(domain, a, b, domain.agent, pv, f"w/{seed}")
    except Exception as exc:
        with pytest.raises(type(exc)) as info:
            proto.run(domain, FullPath(a2), FullPath(b2), domain.agent, pv, f"w/{seed}")
        assert str(info.value) == str(exc)
        assert _state(a) == _state(a2) and _state(b) == _state(b2)
        return None
    assert type(fast._events) is _MovesLog and fast._events.path == "words"
    full = proto.run(domain, FullPath(a2), FullPath(b2), domain.agent, pv, f"w/{seed}")
    assert type(full._events) is tuple
    same_episode(fast, full)
    assert _state(a) == _state(a2) and _state(b) == _state(b2)
    return fast


CASES = [(did, ka, kb, limit, warn, payoff, how)
         for did in DOMAINS for ka, kb in itertools.product(KINDS, KINDS)
         for (limit, warn, payoff), how in (((15, 2, "zero"), "default"), ((40, 3, "batna"), "noisy+rec"))]


@pytest.mark.parametrize("did,kind_a,kind_b,limit,warn,payoff,how", CASES)
def test_words_path_is_the_full_path(did, kind_a, kind_b, limit, warn, payoff, how):
    domain = load_domain(did)
    proto = AlternatingProtocol(round_limit=limit, warn_rounds=warn, no_deal_payoff=payoff)
    partners = [p for s in domain.setups for p in s.partners]
    for seed in range(2):
        _compare(domain, proto, kind_a, kind_b, partners[seed % len(partners)], seed, how)


@pytest.mark.parametrize("how", ["exact", "default", "noisy", "noisy+rec", "text", "text+rec", "odd", "odd-client"])
@pytest.mark.parametrize("did", DOMAINS)
def test_clients_and_noise(did, how):
    domain = load_domain(did)
    partners = [p for s in domain.setups for p in s.partners]
    rnd = np.random.default_rng(len(how))
    for k in range(12):
        proto = AlternatingProtocol(round_limit=int(rnd.integers(1, 30)), warn_rounds=int(rnd.integers(0, 4)),
                                    no_deal_payoff=("zero", "batna")[k % 2])
        ka, kb = KINDS[int(rnd.integers(0, len(KINDS)))], KINDS[int(rnd.integers(0, len(KINDS)))]
        _compare(domain, proto, ka, kb, partners[k % len(partners)], k, how, how, shared=k % 3 != 0)


def test_invalid_moves_and_questions_happen():
    """(The comparisons above meet what they are meant to: invalid moves of each kind, and
    preference questions answered.)"""
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    proto = AlternatingProtocol(round_limit=30)
    noisy = _compare(casino, proto, "boulware", "boulware", pv, 0, "noisy")
    assert noisy.invalid_moves > 5
    reasons, modes = set(), set()
    for seed in range(6):
        for how in ("odd", "odd-client"):
            ep = _compare(casino, proto, "base", "boulware", pv, seed, how)
            reasons |= {e.intent["reason"].split(":")[0] for e in ep.events if e.phase == "invalid"}
            modes |= {e.phase for e in ep.events}
    assert "answer" in modes
    assert {"the stated offer is not an object", "the stated offer's 'self' is not an object",
            "the offer move states no offer", "food"} <= reasons, reasons


def test_one_side_silent_and_separate_clients():
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    proto = AlternatingProtocol(round_limit=25, warn_rounds=3)
    for how_a, how_b in (("none", "default"), ("noisy+rec", "none"), ("default", "text+rec"), ("odd", "noisy")):
        for ka, kb in (("boulware", "conceder"), ("base", "greedy"), ("fair", "base-soft")):
            _compare(casino, proto, ka, kb, pv, 3, how_a, how_b, shared=False)


def test_the_benchmark_negotiation():
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    ep = _compare(casino, AlternatingProtocol(round_limit=100), "boulware", "boulware", pv, 0, "default")
    assert ep.status == "agreement"
    back = pickle.loads(pickle.dumps(ep))  # (the log pickles as its events)
    assert type(back._events) is tuple and back == ep


def test_where_the_words_path_is_taken():
    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    proto = AlternatingProtocol(round_limit=10)

    def path(a, b, domain=casino):
        return path_taken(proto, domain, a, b, pv)

    assert path(*_pair(casino, "base", "fair", pv, 0, "default", "", True)) == "words"
    assert path(*_pair(casino, "base", "fair", pv, 0, "none", "", True)) == "offers only"
    assert path(*_pair(casino, "base", "fair", pv, 0, "none", "default", False)) == "words"
    a, b = _pair(casino, "base", "fair", pv, 0, "default", "", True)
    b.move_role = RuleRole()  # a model in the astra.partner role
    assert path(a, b) == "tuple"

    class Sub(Partner):
        pass

    a, _ = _pair(casino, "base", "fair", pv, 0, "default", "", True)
    sub = Sub(casino, pv, a.client, np.random.default_rng(1), PARTNER_PARAMS["fair"])
    assert path(a, sub) == "tuple"
    a, b = _pair(casino, "base", "fair", pv, 0, "default", "", True)
    assert path(b, a) == "tuple"  # seats swapped
    a, b = _pair(casino, "base", "fair", pv, 0, "default", "", True)
    assert path(a, b, load_domain.__wrapped__("casino-v1")) == "tuple"  # another domain object


@st.composite
def _params(draw):
    """Overrides of a partner's PartnerParams, anywhere in their ranges."""
    out = {}
    if draw(st.booleans()):
        out["open_share"] = draw(st.floats(0.2, 1.2))
    if draw(st.booleans()):
        out["step"] = draw(st.sampled_from([0.0, 1.0, 3.7]))
    if draw(st.booleans()):
        out["floor_share"] = draw(st.floats(0.0, 0.9))
    if draw(st.booleans()):
        out["repeat_limit"] = draw(st.one_of(st.none(), st.integers(1, 3)))
    if draw(st.booleans()):
        out["fixed"] = draw(st.booleans())
    if draw(st.booleans()):
        out["mention"] = draw(st.booleans())
    if draw(st.booleans()):
        out["exponent"] = draw(st.one_of(st.none(), st.sampled_from([0.25, 1.0, 4.0])))
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(did=st.sampled_from(DOMAINS), kind_a=st.sampled_from(KINDS), kind_b=st.sampled_from(KINDS),
       over_a=_params(), over_b=_params(), pick=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       limit=st.integers(1, 40), warn=st.integers(0, 5), payoff=st.sampled_from(("zero", "batna")),
       how_a=st.sampled_from(("none", "exact", "default", "noisy", "noisy+rec", "text", "odd", "odd-client")),
       how_b=st.sampled_from(("none", "default", "noisy+rec", "odd")), shared=st.booleans())
def test_words_path_is_the_full_path_property(did, kind_a, kind_b, over_a, over_b, pick, seed, limit, warn, payoff,
                                              how_a, how_b, shared):
    domain = load_domain(did)
    partners = [p for s in domain.setups for p in s.partners]
    if how_a == "none" and (shared or how_b == "none"):
        how_b = "default"  # (both silent: the offers-only path, tests/test_offers_only.py)
        shared = False
    proto = AlternatingProtocol(round_limit=limit, warn_rounds=warn, no_deal_payoff=payoff)
    _compare(domain, proto, kind_a, kind_b, partners[pick % len(partners)], seed, how_a, how_b, shared,
             over_a, over_b)


def test_a_role_that_accepts_with_nothing_on_the_table_is_an_illegal_move():
    """A model in the astra.partner role may answer "accept" when the agent has put
    nothing on the table: the protocol refuses it as an illegal move (it crashed with an
    UnboundLocalError in ``Partner.act`` before the rules moved into ``decide``)."""
    from simcore.errors import IllegalMove

    class AcceptAlways:
        def choose(self, partner, obs, on_table, offer):
            return None  # accept

    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    a, b = _pair(casino, "base", "base", pv, 0, "default", "", True)
    b.move_role = AcceptAlways()  # the partner's second turn: the agent has only greeted
    with pytest.raises(IllegalMove, match="ACCEPT is legal only"):
        AlternatingProtocol(round_limit=5).run(casino, a, b, casino.agent, pv, "p")


@pytest.mark.parametrize("move", [("offer", None, 10.0), ("talk", (0, 0, 0), None), ("walk_away", None, None)])
@pytest.mark.parametrize("how", ["default", "none"])
def test_a_move_outside_decides_kinds_is_an_illegal_move(move, how):
    """``decide`` gives talk, accept, or an offer naming an outcome; anything else (here a
    rule changed on the instance) stops both shortcuts with an IllegalMove instead of
    logging a move the transcript cannot state."""
    from simcore.errors import IllegalMove

    casino = load_domain("casino-v1")
    pv = casino.setup("integrative").partners[0]
    a, b = _pair(casino, "boulware", "boulware", pv, 0, how, "", True)
    b.decide = lambda *args: move
    with pytest.raises(IllegalMove, match="a rule-based move is"):
        AlternatingProtocol(round_limit=5).run(casino, a, b, casino.agent, pv, "p")
