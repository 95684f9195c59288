"""Grid parsing, the run plan, seeds and the confidence interval of simcore.sweep."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simcore.errors import InputError
from simcore.sweep import mean_ci, parse_grid, plan, point_key, run_seed, split_values
from toy_study import ToyConfig


def values(config, *specs):
    return {a.key: a.values for a in parse_grid(config, list(specs))}


def test_values_are_read_by_field_type():
    cfg = ToyConfig()
    got = values(cfg, "jobs=1,3", "alpha=0.5,2", "mode=plain,shifted", "flag=true,no",
                 "tags=[a,b],c,[]", "fail_alpha=none,1.5", "window=1:2,3:4")
    assert got == {"jobs": (1, 3), "alpha": (0.5, 2.0), "mode": ("plain", "shifted"),
                   "flag": (True, False), "tags": (("a", "b"), ("c",), ()),
                   "fail_alpha": (None, 1.5), "window": ((1, 2), (3, 4))}
    assert isinstance(got["alpha"][1], float)


def test_dashes_name_the_same_field_and_mapping_form_works():
    cfg = ToyConfig()
    assert values(cfg, "fail-alpha=2") == {"fail_alpha": (2.0,)}
    axes = parse_grid(cfg, {"alpha": "1,2", "jobs": [2, 3]})
    assert [(a.key, a.values) for a in axes] == [("alpha", (1.0, 2.0)), ("jobs", (2, 3))]


def test_split_values_keeps_bracketed_commas():
    assert split_values("[a,b],c, [d , e]") == ["[a,b]", "c", "[d , e]"]


@pytest.mark.parametrize("spec, field, words", [
    ("bogus=1", "bogus", ["unknown option", "valid:", "alpha", "jobs", "mode"]),
    ("alpha=x", "alpha", ["cannot read 'x'", "float"]),
    ("jobs=1.5", "jobs", ["cannot read '1.5'", "int"]),
    ("mode=weird", "mode", ["plain, shifted"]),
    ("flag=maybe", "flag", ["true/false"]),
    ("seed=1,2", "seed", ["--replicates"]),
    ("alpha=1,1.0", "alpha", ["twice"]),
    ("alpha=1,", "alpha", ["empty value"]),
    ("alpha", "alpha", ["KEY=V1,V2", "valid keys"]),
    ("opaque=1", "opaque", ["no text parser", "metadata"]),
    ("window=1", "window", ["cannot read '1'"]),
])
def test_bad_grid_options_are_input_errors_naming_the_key(spec, field, words):
    with pytest.raises(InputError) as info:
        parse_grid(ToyConfig(), [spec])
    assert info.value.source == "--grid"
    assert field in info.value.field
    for word in words:
        assert word in str(info.value)


def test_same_key_twice_is_refused():
    with pytest.raises(InputError, match="given twice"):
        parse_grid(ToyConfig(), ["alpha=1", "alpha=2"])


def test_values_the_config_validators_reject_stop_the_plan():
    axes = parse_grid(ToyConfig(), ["alpha=1,-1"])
    with pytest.raises(InputError) as info:
        plan(ToyConfig(), axes, 2)
    assert "alpha=-1" in info.value.field and "must be >= 0" in str(info.value)
    with pytest.raises(InputError, match="in range"):
        plan(ToyConfig(), parse_grid(ToyConfig(), ["jobs=0"]), 1)


def test_plan_order_configs_and_seeds():
    base = ToyConfig(seed=7, jobs=2)
    runs = plan(base, parse_grid(base, ["alpha=1,2", "mode=plain,shifted"]), 3)
    assert len(runs) == 12
    assert [(dict(r.point)["alpha"], dict(r.point)["mode"], r.replicate) for r in runs[:4]] == [
        (1.0, "plain", 0), (1.0, "plain", 1), (1.0, "plain", 2), (1.0, "shifted", 0)]
    for r in runs:
        assert r.config.alpha == dict(r.point)["alpha"] and r.config.jobs == 2
        assert r.config.seed == r.seed == run_seed(7, dict(r.point), r.replicate)
        assert 0 <= r.seed < 2**63
    assert len({r.seed for r in runs}) == 12
    assert len({r.id for r in runs}) == 12


def test_run_seed_depends_only_on_root_point_and_replicate():
    a = run_seed(3, {"alpha": 1.0, "mode": "plain"}, 2)
    assert a == run_seed(3, {"mode": "plain", "alpha": 1.0}, 2)  # key order is irrelevant
    assert a != run_seed(4, {"alpha": 1.0, "mode": "plain"}, 2)
    assert a != run_seed(3, {"alpha": 1.0, "mode": "plain"}, 1)
    assert a != run_seed(3, {"alpha": 2.0, "mode": "plain"}, 2)
    # the same point gets the same seeds whatever else is in the grid
    small = plan(ToyConfig(seed=3), parse_grid(ToyConfig(), ["alpha=1"]), 2)
    big = plan(ToyConfig(seed=3), parse_grid(ToyConfig(), ["alpha=3,1,2"]), 2)
    assert [r.seed for r in small] == [r.seed for r in big if r.config.alpha == 1.0]
    assert point_key({"b": (1, 2), "a": "x"}) == '{"a":"x","b":[1,2]}'


def test_replicates_without_grid_plan_one_point():
    runs = plan(ToyConfig(seed=1), [], 4)
    assert [r.replicate for r in runs] == [0, 1, 2, 3]
    assert all(r.point == () for r in runs)
    with pytest.raises(InputError):
        plan(ToyConfig(), [], 0)


def test_mean_ci_is_the_student_t_interval():
    xs = [0.2, 0.5, 0.9, 0.4, 0.1]
    n, mean, sd, lo, hi = mean_ci(xs)
    want_lo, want_hi = stats.t.interval(0.95, len(xs) - 1, loc=np.mean(xs), scale=stats.sem(xs))
    assert n == 5 and math.isclose(mean, np.mean(xs)) and math.isclose(sd, np.std(xs, ddof=1))
    assert math.isclose(lo, want_lo) and math.isclose(hi, want_hi)
    assert mean_ci([3.0]) == (1, 3.0, None, None, None)
    assert mean_ci([]) == (0, None, None, None, None)
    assert mean_ci([2.0, 2.0, 2.0])[3:] == (2.0, 2.0)


# ---------------------------------------------------------------- properties

from hypothesis import given, settings  # noqa: E402

from strategies import sweep_float_axes, sweep_tag_tuples  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(sweep_float_axes())
def test_float_values_round_trip_through_their_text(xs):
    text = ",".join(repr(x) for x in xs)
    (axis,) = parse_grid(ToyConfig(), [f"alpha={text}"])
    assert axis.values == tuple(xs)


@settings(max_examples=60, deadline=None)
@given(sweep_tag_tuples())
def test_tuple_values_round_trip_through_brackets(tuples):
    text = ",".join("[" + ",".join(t) + "]" for t in tuples)
    (axis,) = parse_grid(ToyConfig(), [f"tags={text}"])
    assert axis.values == tuple(tuples)


@settings(max_examples=40, deadline=None)
@given(sweep_float_axes(), sweep_float_axes())
def test_a_point_has_the_same_seeds_in_any_grid(xs, ys):
    base = ToyConfig(seed=9)
    alone = plan(base, parse_grid(base, {"alpha": xs[:1]}), 2)
    others = [y for y in ys if y != xs[0]]
    among = plan(base, parse_grid(base, {"alpha": others + xs[:1]}), 2)
    assert [r.seed for r in alone] == [r.seed for r in among if r.config.alpha == xs[0]]
