"""Hypothesis strategies for simcore's value objects, for property tests of your own logic.

``pip install 'simcore[test]'`` (hypothesis) first; importing this module without hypothesis
raises one clear ImportError.  One section per system, plus generic ones:

* :func:`seeds` -- root seeds; :func:`travel_groups` -- MIND persona groups;
* :func:`scorable_games` -- valid scorable games (3-5 parties, 2-4 issues, veto holders);
* :func:`bilateral_offers` / :func:`alternating_observations` -- ASTRA offers and the
  observations a seat sees on its turn;
* the rest (utterances, signals, deals, statements, model answers) are what simcore's own
  tests use.

docs/users/api.md ("Property tests of your own logic") shows a property test a user would write.
"""
import json

import numpy as np

from mockllm.travel import ACTS, REASONS, TravelUtterance
from policies.bayes import Signal
from scenarios.bilateral import Valuation
from scenarios.scorable import from_dict
from scenarios.travel import CATALOGUE, generate_group
from simcore.protocols.alternating import Observation, Turn
from simcore.protocols.dialogue import Accept, AskPreference, Booking, Proposal, Propose, Quit, Reject, StatePreference

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("simcore.strategies needs hypothesis: pip install 'simcore[test]' (or hypothesis)") from exc


# --- generic -----------------------------------------------------------------
def seeds():
    """Root seeds: non-negative ints below 2**32."""
    return st.integers(min_value=0, max_value=2**32 - 1)


# --- mind: persona groups ----------------------------------------------------------
def travel_groups(sizes=(2, 3, 4)):
    """MIND persona groups (scenarios.travel.generate_group), one per drawn size and seed."""
    def build(args):


        size, seed = args
        return generate_group(f"h{seed}", size, np.random.default_rng(seed))

    return st.tuples(st.sampled_from(tuple(sizes)), seeds()).map(build)


# --- scorable: games ---------------------------------------------------------------
@st.composite
def scorable_games(draw, max_parties=5, max_issues=4, max_options=4):
    """Valid scorable games (the loader's own checks pass): 3..max_parties parties, the first two
    veto holders (p1, p2), 2..max_issues issues of 2..max_options options, score tables whose best
    options sum to at most 100, thresholds 0-100."""

    n_issues = draw(st.integers(2, max_issues))
    sizes = [draw(st.integers(2, max_options)) for _ in range(n_issues)]
    names = [chr(ord("A") + m) for m in range(n_issues)]
    issues = [{"name": n, "options": [f"{n} option {k + 1}" for k in range(s)]} for n, s in zip(names, sizes)]
    n_parties = draw(st.integers(3, max_parties))
    parties = []
    for i in range(n_parties):
        budget = 100 // n_issues
        scores = {n: draw(st.lists(st.integers(0, budget), min_size=s, max_size=s)) for n, s in zip(names, sizes)}
        role = "p1" if i == 0 else ("p2" if i == 1 else "other")
        parties.append({"name": f"Party {i + 1}", "short": f"P{i + 1}", "role": role, "veto": i < 2,
                        "threshold": draw(st.integers(0, 100)), "scores": scores})
    initial = [f"{n}1" for n in names]
    return from_dict({"format": "simcore-scorable-game/1", "id": "hypothesis", "issues": issues,
                      "parties": parties, "initial_deal": initial}, "<hypothesis>")


# --- astra: offers and observations ---------------------------------------------------
def bilateral_offers(domain):
    """Outcomes of a bilateral domain (scenarios.bilateral.Domain), as the protocol's offers."""
    return st.sampled_from(tuple(domain.outcomes))


@st.composite
def alternating_observations(draw, domain, role="agent", round_limit=15, max_offers=8):
    """What a seat of the alternating-offers protocol sees on its turn: a history of offers
    made alternately (the other side's last), the round, the limit and the deadline flag."""

    n = draw(st.integers(0, max_offers))
    other = "partner" if role == "agent" else "agent"
    speakers = [other if (n - k) % 2 == 1 else role for k in range(n)]
    history = tuple(Turn(s, "offer", "Here is my proposal.", draw(bilateral_offers(domain)), "", 1 + k // 2)
                    for k, s in enumerate(speakers))
    rnd = min(round_limit, 1 + n // 2)
    return Observation(role, rnd, round_limit, history, rnd >= round_limit - 1)



# --- dominance ---------------------------------------------------------------
def dominance_statements(values, max_size=8):
    """Lists of preference statements (less, more) over ``values``; one side may be None."""
    side = st.one_of(st.none(), st.sampled_from(tuple(values)))

    def ok(pair):
        less, more = pair
        return less != more

    return st.lists(st.tuples(side, side).filter(ok), max_size=max_size)


def dominance_utterances(domain):
    """Every kind of dominance utterance over ``domain``'s vocabulary and options."""

    def crit_pair(c, allow_empty):
        side = st.one_of(st.none(), st.sampled_from(c.values))
        return st.tuples(side, side).filter(lambda p: p[0] != p[1] and (allow_empty or p != (None, None)))

    crit = st.sampled_from(domain.criteria)
    state = crit.flatmap(lambda c: crit_pair(c, False).map(lambda p: StatePreference(c.name, *p)))
    ask = crit.flatmap(lambda c: crit_pair(c, True).map(lambda p: AskPreference(c.name, *p)))
    value = crit.flatmap(lambda c: st.sampled_from(c.values).map(lambda v: Proposal(c.name, v)))
    option = st.sampled_from(domain.options).map(lambda o: Proposal(domain.topic, o.name))
    prop = st.one_of(value, option)
    return st.one_of(state, ask, prop.map(Propose), prop.map(Accept), prop.map(Reject),
                     st.sampled_from(domain.options).map(lambda o: Booking(o.name)), st.just(Quit()))


# --- astra -------------------------------------------------------------------
def astra_casino_valuations():
    """CaSiNo-like valuations: integer points per package for food, water, firewood."""

    return st.tuples(*[st.integers(min_value=0, max_value=8) for _ in range(3)]).map(
        lambda ws: Valuation(tuple(float(w) for w in ws), ((), (), ())))


# --- mind (travel) ------------------------------------------------------------
def travel_utterances():
    """Every act / item value / willingness (or none) / reason of a travel message."""

    value = st.sampled_from(CATALOGUE).flatmap(lambda it: st.tuples(st.just(it.label), st.sampled_from(it.options)))
    return st.builds(lambda act, lv, w, reason: (lv[0], TravelUtterance(act, lv[1], w, reason)),
                     st.sampled_from(ACTS), value, st.one_of(st.none(), st.integers(1, 10)),
                     st.sampled_from(REASONS))


def travel_items():

    return st.sampled_from(CATALOGUE)


def willingness():
    return st.integers(1, 10)


# --- scorable ------------------------------------------------------------------
def scorable_signals(option_counts):
    """Resolved preference signals (policies.bayes.Signal) of every kind for a game shape."""

    m_count = len(option_counts)
    stance = st.sampled_from(("prefer", "oppose"))
    issue = st.integers(0, m_count - 1)
    option = issue.flatmap(lambda m: st.integers(0, option_counts[m] - 1).map(lambda o: (m, o)))
    pair_issues = st.tuples(issue, issue).filter(lambda p: p[0] != p[1])
    pair_options = st.tuples(option, option).filter(lambda p: p[0] != p[1])
    return st.one_of(
        st.builds(lambda m, s: Signal("issue", "point", ((m, -1),), s), issue, stance),
        st.builds(lambda p, s: Signal("issue", "comparison", ((p[0], -1), (p[1], -1)), s), pair_issues, stance),
        st.builds(lambda o, s: Signal("option", "point", (o,), s), option, stance),
        st.builds(lambda p, s: Signal("option", "comparison", p, s), pair_options, stance),
    )


def scorable_deals(option_counts):
    """Deals (one option index per issue) of a game shape."""
    return st.tuples(*[st.integers(0, k - 1) for k in option_counts])


# --- sweeps --------------------------------------------------------------------
def sweep_float_axes():
    """Distinct finite floats for one grid axis (alpha >= 0 in the toy study)."""
    return st.lists(st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False),
                    min_size=1, max_size=5, unique_by=lambda x: x + 0.0)


def sweep_tag_tuples():
    """Distinct tuples of simple words, for a tuple[str, ...] grid axis."""
    word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-", min_size=1, max_size=6)
    return st.lists(st.lists(word, max_size=3).map(tuple), min_size=1, max_size=4, unique=True)


# --- model answers (model output never crashes a run) ---------------------------
def json_values(words=(), max_leaves=12):
    """Arbitrary JSON data; strings partly drawn from ``words`` (names the scenario uses),
    numbers including ones no float holds."""
    word = st.sampled_from(tuple(words)) if words else st.text(max_size=12)
    leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-10, 10),
                     st.just(10 ** 400), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=20), word, word)
    return st.recursive(leaf, lambda children: st.lists(children, max_size=4)
                        | st.dictionaries(st.one_of(word, st.text(max_size=10)), children, max_size=4),
                        max_leaves=max_leaves)


def words_of(value, out=None) -> list:
    """Every string in a JSON value (keys too), in order, without repeats."""
    out = [] if out is None else out
    if isinstance(value, str):
        if value not in out:
            out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            words_of(k, out)
            words_of(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            words_of(v, out)
    return out


def _replace_somewhere(value, new, path):
    """``value`` with the part at ``path`` (a list of draws) replaced by ``new``."""
    if not path or not isinstance(value, (dict, list)) or not value:
        return new
    if isinstance(value, dict):
        keys = list(value)
        k = keys[path[0] % len(keys)]
        if path[0] % 5 == 4:  # sometimes drop the key instead
            return {kk: vv for kk, vv in value.items() if kk != k}
        return {**value, k: _replace_somewhere(value[k], new, path[1:])}
    i = path[0] % len(value)
    return value[:i] + [_replace_somewhere(value[i], new, path[1:])] + value[i + 1:]


@st.composite
def model_answers(draw, answer: str, context):
    """A text a model might send instead of ``answer`` (the mock's) for a prompt with
    ``context``: the answer itself, arbitrary text, arbitrary JSON, the answer's JSON
    with one part replaced by a name of the scenario or any JSON, the answer cut or
    garbled, deeply nested JSON, an overlong number."""

    words = words_of(context)
    try:
        parsed = json.loads(answer)
    except ValueError:
        parsed = None
    if parsed is not None:
        words = words_of(parsed, words)
    kind = draw(st.sampled_from(("same", "text", "json", "edit", "edit", "edit", "cut", "deep", "long")))
    if kind == "same":
        return answer
    if kind == "text":
        return draw(st.text(max_size=200))
    if kind == "json":
        return json.dumps(draw(json_values(words)))
    if kind == "edit" and parsed is not None:
        path = draw(st.lists(st.integers(0, 9), max_size=4))
        return json.dumps(_replace_somewhere(parsed, draw(json_values(words, max_leaves=3)), path))
    if kind == "deep":
        return '{"a": ' + "[" * 50_000 + "]" * 50_000 + "}"
    if kind == "long":
        return '{"a": 1' + "0" * 5000 + "}"
    cut = draw(st.integers(0, len(answer)))
    return draw(st.sampled_from((answer[:cut], answer[cut:], answer.upper(), answer[::-1],
                                 answer.replace('"', "'"), answer[:cut] + draw(st.text(max_size=8)) + answer[cut:])))
