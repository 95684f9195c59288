"""``astra.speak``'s check of a stated offer (an item whose name is one of the
move's and whose units are a whole number >= 0 passes without the two checks' calls, and
the move's items are read once per check) refuses what the check as first written
refuses, with the same problem, and accepts the same answers."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mockllm import astra, checks
from simcore.errors import ParseError


def _reference(task, said, context, text):
    """``astra.SpeakTask.check`` without the shortcut: both checks always called."""
    utt, offer = said
    task.reject_echo(utt, context, text)
    meant = context.get("offer")
    if meant is None:
        if offer is not None:
            raise ParseError(task.id, f"an offer where the move ({context.get('mode')!r}) has none", text)
        return said
    if offer is None:
        raise ParseError(task.id, "an offer move must state its offer", text)
    for key in offer:
        checks.one_of(task.id, "offer part", key, ("self", "other", "shared"), text)
    for side in ("self", "other"):
        units = checks.mapping(task.id, f"'offer.{side}'", offer.get(side), text, optional=True)
        known = tuple(meant.get("self", {})) + tuple(n for n in meant.get("other", {}) if n not in meant.get("self", {}))
        for name, n in units.items():
            checks.one_of(task.id, "item", name, known, text)
            checks.whole(task.id, f"units of {name}", n, text, lo=0)
    shared = checks.mapping(task.id, "'offer.shared'", offer.get("shared"), text, optional=True)
    for name, v in shared.items():
        checks.one_of(task.id, "shared issue", name, tuple(meant.get("shared") or {}), text)
        if not isinstance(v, (str, bool)):
            raise ParseError(task.id, f"shared issue {name!r} must be a name or yes/no", text)
    return said


def _outcome(check, said, context):
    try:
        return ("ok", check(astra.SPEAK, said, context, "text"))
    except ParseError as exc:
        return ("refused", exc.problem)
    except Exception as exc:  # noqa: BLE001 - whatever the first version raised, the new one must too
        return (type(exc).__name__, str(exc))


_names = st.sampled_from(["food", "water", "firewood", "rope", "", "Food", 1, None, True])
_units = st.one_of(st.integers(-3, 5), st.booleans(), st.floats(-1, 4, allow_nan=False), st.none(),
                   st.sampled_from(["2", [1], {"a": 1}]))
_side = st.one_of(st.dictionaries(_names, _units, max_size=4), st.none(), st.sampled_from([[], 3, "food"]))
_shared = st.one_of(st.dictionaries(st.sampled_from(["lab", "weekend", "food"]),
                                    st.one_of(st.text(max_size=3), st.booleans(), st.integers(0, 2), st.none()),
                                    max_size=2), st.none())
_offer = st.one_of(st.none(), st.fixed_dictionaries({}, optional={
    "self": _side, "other": _side, "shared": _shared,
    "extra": st.just({})}))
_meant = st.one_of(st.none(), st.fixed_dictionaries({}, optional={
    "self": st.dictionaries(st.sampled_from(["food", "water", "firewood"]), st.integers(0, 3), max_size=3),
    "other": st.dictionaries(st.sampled_from(["food", "water", "rope"]), st.integers(0, 3), max_size=3),
    "shared": st.one_of(st.none(), st.dictionaries(st.sampled_from(["lab", "weekend"]), st.booleans(), max_size=2))}))


@settings(max_examples=1500, deadline=None)
@given(_offer, _meant, st.sampled_from(["offer", "greet", "accept"]))
@example({"self": {"food": 3, "water": 2}, "other": {"food": 0, "water": 1}, "shared": {}},
         {"self": {"food": 3, "water": 2}, "other": {"food": 0, "water": 1}, "shared": {}}, "offer")
@example({"self": {"food": True}}, {"self": {"food": 1}}, "offer")
@example({"self": {"food": -1}}, {"self": {"food": 1}}, "offer")
@example({"other": {"rope": 1}}, {"self": {"food": 1}, "other": {"rope": 0}}, "offer")
@example({"self": {"food": 1}, "other": 5}, {"self": {"food": 1}}, "offer")
def test_the_offer_check_is_the_check_as_first_written(offer, meant, mode):
    said = ("I take 1 food.", offer)
    context = {"role": "agent", "mode": mode, "offer": meant, "tactic": None, "mention": None, "warning": False}
    assert _outcome(type(astra.SPEAK).check, said, context) == _outcome(_reference, said, context)


def test_meant_read_where_it_was_read_first():
    """A move's offer that cannot be read (no ``get``) fails where the first version failed:
    after the stated side's map was checked, so a stated side that is no map is the problem."""
    said = ("I take 1 food.", {"self": 3})
    context = {"role": "agent", "mode": "offer", "offer": ["food"], "tactic": None, "mention": None,
               "warning": False}
    assert _outcome(type(astra.SPEAK).check, said, context) == _outcome(_reference, said, context)
    assert _outcome(_reference, said, context)[0] == "refused"
