"""The bilateral domain format: shipped files, offers as stated, and clear errors."""

import json
import random
import struct

import attrs
import numpy as np
import pytest

from policies.lp import Space
from scenarios.bilateral import IllegalOffer, Valuation, load_domain, parse_domain
from simcore.errors import InputError

DOMAINS = ("casino-v1", "research-allocation-v1")

CASINO = load_domain("casino-v1")


def _raw():
    with open(CASINO.source, encoding="utf-8") as fh:
        return json.load(fh)


def test_shipped_domains_load_and_describe():
    r = load_domain("research-allocation")
    assert [i.kind for i in r.issues] == ["integer", "integer", "categorical", "binary"]
    assert len(r.outcomes) == 6 * 6 * 3 * 2
    assert CASINO.setup_names == ("integrative", "distributive", "mixed")
    assert len(CASINO.setup("mixed").partners) == 4


@pytest.mark.parametrize("mutate,field", [
    (lambda d: d.pop("issues"), "issues"),
    (lambda d: d["issues"][0].update(type="money"), "issues[0].type"),
    (lambda d: d["issues"][1].update(count=0), "issues[1].count"),
    (lambda d: d["agent"].pop("water"), "agent.water"),
    (lambda d: d["agent"].update(fuel=2), "agent.fuel"),
    (lambda d: d["agent"].update(food="high"), "agent.food"),
    (lambda d: d.update(levels=[3, 4, 5]), "levels"),
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d["setups"]["mixed"].update(partners=[]), "setups.mixed.partners"),
    (lambda d: d.pop("batna"), "batna"),
])
def test_bad_files_name_the_field(mutate, field):
    data = _raw()
    mutate(data)
    with pytest.raises(InputError) as err:
        parse_domain(data, "bad.json")
    assert err.value.source == "bad.json" and err.value.field == field


def test_unreadable_files(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(InputError, match="not valid JSON"):
        load_domain(str(p))
    with pytest.raises(InputError, match="no such domain file"):
        load_domain(str(tmp_path / "missing.json"))


def test_offers_as_stated_and_their_errors():
    stated = CASINO.state_offer((3, 2, 0), "agent")
    assert stated["self"] == {"food": 3, "water": 2, "firewood": 0}
    assert CASINO.check_offer(stated, "agent") == (3, 2, 0)
    assert CASINO.check_offer(CASINO.state_offer((3, 2, 0), "partner"), "partner") == (3, 2, 0)
    over = {"self": {"food": 1, "water": 1, "firewood": 3}, "other": {"food": 3, "water": 2, "firewood": 0}}
    with pytest.raises(IllegalOffer, match="only 3 exist"):
        CASINO.check_offer(over, "partner")
    r = load_domain("research-allocation-v1")
    bad = r.state_offer((1, 4, 2, 1), "agent")
    bad["shared"]["lab"] = "physics"
    with pytest.raises(IllegalOffer, match="not one of computer, chemistry, biology"):
        r.check_offer(bad, "agent")


# --- lookup tables behind the per-turn path (they must equal the direct computation) ---
def _domains():
    return [CASINO, load_domain("research-allocation-v1")]


@pytest.mark.parametrize("d", _domains(), ids=lambda d: d.id)
def test_score_tables_equal_the_direct_scores(d):
    valuations = [d.agent] + [p for s in d.setups for p in s.partners]
    for val in valuations:
        for side in ("agent", "partner"):
            table = d.score_table(val, side)
            assert list(table) == list(d.outcomes)
            assert all(table[o] == d.score(val, o, side) for o in d.outcomes)
            assert d.score_table(val, side) is table  # built once
    with pytest.raises(TypeError):
        d.score_table(d.agent, "agent")[d.outcomes[0]] = 0.0  # read-only


@pytest.mark.parametrize("d", _domains(), ids=lambda d: d.id)
def test_prepared_statements_equal_the_direct_ones_and_are_fresh(d):
    for speaker in ("agent", "partner"):
        for o in d.outcomes:
            stated = d.state_offer(o, speaker)
            assert stated == d._state(o, speaker)
            assert d.check_offer(stated, speaker) == o
            stated["self"].clear()  # the caller's copy: the next statement is whole again
            stated["shared"]["x"] = 1
            assert d.state_offer(o, speaker) == d._state(o, speaker)


def test_outcomes_of_other_types_are_stated_directly():
    import numpy as np

    o = (np.int64(3), np.int64(2), np.int64(0))
    stated = CASINO.state_offer(o, "agent")
    assert type(stated["self"]["food"]) is np.int64  # numpy ints kept: not the prepared plain ints
    assert CASINO.state_offer([3, 2, 0], "partner") == CASINO.state_offer((3, 2, 0), "partner")
    assert CASINO.state_offer(tuple([3, 2, 0]), "agent") == {"self": {"food": 3, "water": 2, "firewood": 0},
                                                             "other": {"food": 0, "water": 1, "firewood": 3},
                                                             "shared": {}}


@pytest.mark.parametrize("value", [True, 1.0, "1", None])
def test_offer_shares_must_be_plain_whole_numbers(value):
    stated = CASINO.state_offer((1, 2, 0), "agent")
    stated["self"]["food"] = value
    stated["other"]["food"] = 2
    with pytest.raises(IllegalOffer, match="food: both shares must be whole numbers"):
        CASINO.check_offer(stated, "agent")


def test_offers_of_int_subclasses_and_other_mappings_are_still_checked():
    import enum
    from types import MappingProxyType

    class Units(enum.IntEnum):
        ONE = 1
        TWO = 2

    stated = CASINO.state_offer((1, 2, 0), "agent")
    stated["self"]["food"], stated["other"]["food"] = Units.ONE, Units.TWO
    assert CASINO.check_offer(MappingProxyType(stated), "agent") == (1, 2, 0)
    with pytest.raises(IllegalOffer, match="not a mapping"):
        CASINO.check_offer([("self", {})], "agent")


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
                if min_partner < 0:  # (refused before the floors are looked at)
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
