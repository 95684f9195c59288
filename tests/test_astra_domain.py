"""The bilateral domain format: shipped files, offers as stated, and clear errors."""

import json

import pytest

from scenarios.bilateral import IllegalOffer, load_domain, parse_domain
from simcore.errors import InputError

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
    assert type(stated["self"]["food"]) is np.int64  # as before: not the prepared plain ints
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
