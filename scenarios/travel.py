"""Travel items and seeded persona groups for the MIND study.

The catalogue is MIND's Appendix A survey: 20 items (8 accommodation, 6 restaurant,
5 flight, 1 inter-city) with their answer options.  ``scale`` lists an item's ordered
options (tiers, ratings, windows) from low to high; it is empty for nominal items.
``flexible`` is the option that means "no preference".

Personas (:func:`generate_group`) stand in for MIND's TravelPlanner + Stravl
augmentation, which is not installable here (``shared/reference/travel-data-notes.md``):

1. A trip (hard constraints shared by the whole group): origin, destination, days
   (3/5/7), start date, budget anchor.
2. A pool of ``pool_size`` candidate personas with Stravl-like latent traits (budget
   tier, activity, safety, popularity, experiences, scenery).  Each item's option is
   the argmax of a trait-driven score plus Gumbel noise (so choices correlate with
   traits), and its importance 0-10 is a trait-driven base plus Gaussian noise;
   choosing the "no preference" option caps importance at 3 (indifferent).
   Willingness ``w = max(1, importance)`` so the MoSCoW bands (9-10 must, 7-8 should,
   4-6 could, 0-3 indifferent) line up with MIND's tone bands.
3. Maximal Marginal Relevance picks ``mmr_k`` diverse personas from the pool:
   ``argmax  lam * rel(p) - (1 - lam) * max_{s in S} sim(p, s)``, relevance = fit of the
   persona's budget tier to the trip's budget, similarity = cosine of the one-hot
   choice vectors.
4. The group is ``size`` members drawn from the MMR set, redrawn until it has at
   least ``min_soft_conflicts`` soft conflicts: items on which members' values differ
   and some member has 6 <= w <= 8 (MIND section 3.1).

Everything draws from the generator passed in; the same generator state gives the
same group.
"""

from __future__ import annotations

from typing import Sequence

import attrs
import numpy as np

from simcore.errors import InputError

#: the willingness bands (MIND appendix B.2): name -> (lowest, highest) w, and their order
BANDS = {"Strict": (9, 10), "Firm": (7, 8), "Warm": (4, 6), "Neutral": (1, 3)}
BAND_ORDER = ("Neutral", "Warm", "Firm", "Strict")


def band_of(w: int) -> str:
    """The band of willingness ``w`` (1..10)."""
    for name, (lo, hi) in BANDS.items():
        if lo <= w <= hi:
            return name
    raise ValueError(f"willingness must be in 1..10, got {w}")


CUISINES = ("Chinese", "American", "Italian", "Mexican", "Indian", "Mediterranean", "French")
CITIES = ("Seattle", "Denver", "Chicago", "Atlanta", "Boston", "Austin", "Phoenix", "Miami",
          "Portland", "Dallas", "Houston", "Las Vegas", "San Diego", "Nashville", "Orlando")
BUDGET_TIERS = ("Frugal", "Comfort", "Luxury")
LEVELS = ("low", "medium", "high")
POPULARITY = ("hidden gems", "a mix", "popular spots")
EXPERIENCES = ("beach", "adventure", "nature", "culture", "nightlife", "history", "shopping", "cuisine")
SCENERY = ("coast", "mountains", "city", "countryside")


@attrs.frozen
class Item:
    key: str
    category: str
    label: str
    options: tuple[str, ...] = attrs.field(converter=tuple)
    scale: tuple[str, ...] = attrs.field(converter=tuple, default=())
    flexible: str | None = None

    def __attrs_post_init__(self):
        if len(set(self.options)) != len(self.options):
            raise ValueError(f"item {self.key}: duplicate options")
        if not set(self.scale) <= set(self.options):
            raise ValueError(f"item {self.key}: scale options not among options")
        if self.flexible is not None and self.flexible not in self.options:
            raise ValueError(f"item {self.key}: flexible option not among options")

    @property
    def ordinal(self) -> bool:
        return bool(self.scale)


def _item(key, category, label, options, scale_n=0, flexible=None, scale=None):
    options = tuple(options)
    if scale is None:
        scale = options[:scale_n]
    return Item(key, category, label, options, tuple(scale), flexible)


CATALOGUE: tuple[Item, ...] = (
    _item("acc_price", "accommodation", "accommodation price tier",
          ("Economy", "Budget", "Moderate", "Upscale", "Luxury", "Flexible"), 5, "Flexible"),
    _item("acc_stars", "accommodation", "minimum hotel star rating",
          ("No minimum", "2 Stars (Basic)", "3 Stars (Comfort)", "4 Stars (Quality)", "5 Stars (Luxury)"), 5,
          "No minimum"),
    _item("acc_room_type", "accommodation", "room type",
          ("Entire home/apt", "Private room", "Shared room", "Any / Flexible"), 0, "Any / Flexible"),
    _item("acc_house_rules", "accommodation", "house rules",
          ("Must be Non-smoking", "Must allow Pets", "Must forbid Pets", "Must allow Parties",
           "No specific requirements"), 0, "No specific requirements"),
    _item("acc_min_nights", "accommodation", "flexibility on minimum nights",
          ("Not flexible (1 max)", "Somewhat flexible (Max 2)", "Very flexible (3+)", "No preference"), 3,
          "No preference"),
    _item("acc_capacity", "accommodation", "minimum room capacity",
          ("Exactly the group size", "Group size plus extra space", "No preference"), 2, "No preference"),
    _item("acc_review", "accommodation", "minimum review score",
          ("Any score", "3.0+", "3.5+", "4.0+", "4.5+ (Excellent)"), 5, "Any score"),
    _item("acc_price_consistency", "accommodation", "nightly price consistency",
          ("Consistent", "Moderate variation", "High variation OK", "No preference"), 3, "No preference"),
    _item("rest_budget", "restaurant", "dining budget tier",
          ("Economy", "Budget", "Moderate", "Upscale", "Luxury", "Flexible"), 5, "Flexible"),
    _item("rest_rating", "restaurant", "minimum restaurant rating",
          ("Any rating", "3.5+ (Decent)", "4.0+ (Reliable)", "4.5+ (Gourmet)"), 4, "Any rating"),
    _item("rest_cuisine", "restaurant", "mandatory or banned cuisine",
          tuple(f"Mandatory: {c}" for c in CUISINES) + tuple(f"Banned: {c}" for c in CUISINES)
          + ("No strict restrictions",), 0, "No strict restrictions"),
    _item("rest_atmosphere", "restaurant", "dining atmosphere",
          ("Casual/Street Food", "Family-friendly", "Lively/Bar-style", "Romantic", "No preference"), 0,
          "No preference"),
    _item("rest_location", "restaurant", "restaurant location convenience",
          ("Walking distance (<10m)", "Short transit (<20m)", "Willing to travel", "No preference"), 3,
          "No preference"),
    _item("rest_meals", "restaurant", "restaurant meals per day",
          ("1 meal/day", "2 meals/day", "3 meals/day", "Flexible"), 3, "Flexible"),
    _item("flight_price", "flight", "flight ticket tier",
          ("Super Saver", "Economy Standard", "Premium Economy", "Business/First", "Flexible"), 4, "Flexible"),
    _item("flight_layovers", "flight", "tolerance for layovers",
          ("Direct ONLY", "Direct preferred, 1 stop ok", "Multiple stops ok", "No preference"), 3, "No preference"),
    _item("flight_departure", "flight", "departure window",
          ("Morning (06-12)", "Afternoon (12-18)", "Evening (18+)", "Flexible"), 3, "Flexible"),
    _item("flight_arrival", "flight", "arrival window",
          ("Morning", "Afternoon", "Evening", "Flexible"), 3, "Flexible"),
    _item("flight_baggage", "flight", "baggage allowance",
          ("Must include checked bag", "Carry-on only fine", "No preference"), 0, "No preference"),
    _item("intercity_duration", "inter-city", "maximum travel time between cities",
          ("Under 2 hours", "2 - 4 hours", "4+ hours is fine", "No preference"), 3, "No preference"),
)
ITEMS = {it.key: it for it in CATALOGUE}
assert len(CATALOGUE) == 20


def item(key: str) -> Item:
    try:
        return ITEMS[key]
    except KeyError:
        raise InputError("travel catalogue", "item", f"unknown item {key!r}; valid: {', '.join(ITEMS)}") from None


def band(w: int) -> str:
    """MIND's tone band of a willingness 1..10 (Strict 9-10, Firm 7-8, Warm 4-6, Neutral 1-3)."""
    if not 1 <= w <= 10:
        raise ValueError(f"willingness must be in 1..10, got {w}")
    return "Strict" if w >= 9 else "Firm" if w >= 7 else "Warm" if w >= 4 else "Neutral"


# ---------------------------------------------------------------------------------
# value objects


@attrs.frozen
class Trip:
    origin: str
    destination: str
    days: int = attrs.field(validator=attrs.validators.in_((3, 5, 7)))
    start: str = ""
    budget: int = 0


@attrs.frozen
class Traits:
    age: str
    budget_tier: str = attrs.field(validator=attrs.validators.in_(BUDGET_TIERS))
    activity: str = attrs.field(validator=attrs.validators.in_(LEVELS))
    safety: str = attrs.field(validator=attrs.validators.in_(LEVELS))
    popularity: str = attrs.field(validator=attrs.validators.in_(POPULARITY))
    experiences: tuple[str, ...] = attrs.field(converter=tuple)
    scenery: str = attrs.field(validator=attrs.validators.in_(SCENERY))


@attrs.frozen
class Preference:
    item: str
    value: str
    importance: int = attrs.field(validator=attrs.validators.and_(attrs.validators.ge(0), attrs.validators.le(10)))

    @property
    def w(self) -> int:
        return max(1, self.importance)

    def __attrs_post_init__(self):
        if self.value not in ITEMS[self.item].options:
            raise ValueError(f"{self.value!r} is not an option of {self.item}")


@attrs.frozen
class Persona:
    id: str
    traits: Traits
    prefs: tuple[Preference, ...] = attrs.field(converter=tuple)

    def pref(self, key: str) -> Preference:
        return self.prefs[_INDEX[key]]


@attrs.frozen
class Group:
    id: str
    trip: Trip
    members: tuple[Persona, ...] = attrs.field(converter=tuple)
    items: tuple[str, ...] = attrs.field(converter=tuple)  # negotiated items, catalogue order

    @property
    def size(self) -> int:
        return len(self.members)


_INDEX = {it.key: i for i, it in enumerate(CATALOGUE)}
_OFFSETS = tuple(int(x) for x in np.cumsum([0] + [len(it.options) for it in CATALOGUE]))
_N_OPTIONS = _OFFSETS[-1]


# ---------------------------------------------------------------------------------
# persona generation

_TIER = {"Frugal": 0.0, "Comfort": 0.5, "Luxury": 1.0}
_LEVEL = {"low": 0.0, "medium": 0.5, "high": 1.0}
_EXP = {e: i for i, e in enumerate(EXPERIENCES)}


@attrs.frozen
class _Pool:
    """Latent traits of ``n`` candidate personas as arrays (generation is vectorised)."""

    age: np.ndarray
    tier: np.ndarray      # index into BUDGET_TIERS
    activity: np.ndarray  # index into LEVELS
    safety: np.ndarray
    popularity: np.ndarray
    exp: np.ndarray       # (n, 8) bool
    scenery: np.ndarray

    @property
    def money(self):
        return self.tier / 2.0

    def traits(self, i: int) -> Traits:
        return Traits(
            age=("18-24", "25-34", "35-44", "45-54", "55+")[int(self.age[i])],
            budget_tier=BUDGET_TIERS[int(self.tier[i])], activity=LEVELS[int(self.activity[i])],
            safety=LEVELS[int(self.safety[i])], popularity=POPULARITY[int(self.popularity[i])],
            experiences=tuple(e for e, on in zip(EXPERIENCES, self.exp[i]) if on),
            scenery=SCENERY[int(self.scenery[i])])


def _draw_pool(n: int, rng: np.random.Generator) -> _Pool:
    exp = np.zeros((n, len(EXPERIENCES)), dtype=bool)
    counts = rng.integers(1, 4, size=n)
    keys = rng.random((n, len(EXPERIENCES)))
    order = np.argsort(keys, axis=1)
    for k in range(3):
        rows = counts > k
        exp[np.nonzero(rows)[0], order[rows, k]] = True
    return _Pool(age=rng.integers(0, 5, size=n), tier=rng.choice(3, size=n, p=(0.35, 0.45, 0.20)),
                 activity=rng.integers(0, 3, size=n), safety=rng.integers(0, 3, size=n),
                 popularity=rng.integers(0, 3, size=n), exp=exp, scenery=rng.integers(0, 4, size=n))


def _trait_tables(money, act, safe, has) -> tuple[dict, dict]:
    """Per-item trait mixes for a pool: ordinal targets (where on the scale, 0..1) and
    nominal option utilities."""
    targets = {
        "acc_price": money, "rest_budget": money, "flight_price": money,
        "acc_stars": 0.3 * money + 0.5 * safe + 0.1, "acc_review": 0.4 * money + 0.5 * safe,
        "rest_rating": 0.4 * money + 0.4 * has["cuisine"] + 0.1,
        "acc_min_nights": 0.3 + 0.5 * act, "acc_capacity": money,
        "acc_price_consistency": 0.8 - 0.6 * money,
        "rest_location": 0.1 + 0.8 * act, "rest_meals": 0.2 + 0.5 * money + 0.3 * has["cuisine"],
        "flight_layovers": 0.9 - 0.8 * money, "flight_departure": 0.2 + 0.4 * has["nightlife"],
        "flight_arrival": 0.3 + 0.4 * act, "intercity_duration": 0.2 + 0.6 * act,
    }
    nominal = {
        "acc_room_type": {"Entire home/apt": 0.2 + 1.2 * money, "Private room": 0.8,
                          "Shared room": 1.0 - 1.2 * money},
        "acc_house_rules": {"Must be Non-smoking": 0.5 + 0.8 * safe, "Must allow Pets": 0.5,
                            "Must forbid Pets": 0.3 + 0.3 * safe, "Must allow Parties": 0.2 + 1.2 * has["nightlife"]},
        "rest_atmosphere": {"Casual/Street Food": 0.9 - 0.6 * money, "Family-friendly": 0.8 - 0.4 * act,
                            "Lively/Bar-style": 0.3 + 1.2 * has["nightlife"], "Romantic": 0.3 + 0.6 * money},
        "flight_baggage": {"Must include checked bag": 0.5 + 0.9 * has["shopping"],
                           "Carry-on only fine": 0.6 + 0.4 * act},
        "rest_cuisine": {opt: (0.2 + 0.9 * has["cuisine"]) if opt.startswith("Mandatory") else 0.3
                         for opt in ITEMS["rest_cuisine"].options if opt != ITEMS["rest_cuisine"].flexible},
    }
    return targets, nominal


def _scores(it: Item, n: int, tables: tuple[dict, dict], money, act, safe, has) -> tuple[np.ndarray, np.ndarray]:
    """Trait-driven utility per (persona, option) and base importance (0-10) per persona."""
    targets, nominal = tables
    s = np.zeros((n, len(it.options)))
    if it.ordinal:
        target = targets[it.key]
        for j, pos in enumerate(np.linspace(0.0, 1.0, len(it.scale))):
            s[:, it.options.index(it.scale[j])] = 1.0 - 6.0 * (pos - target) ** 2
    else:
        for opt, val in nominal[it.key].items():
            s[:, it.options.index(opt)] = val
    if it.flexible is not None:
        s[:, it.options.index(it.flexible)] = 0.55  # "no preference" competes with the trait-driven choices
    base = {"accommodation": 4.5, "restaurant": 4.0, "flight": 4.0, "inter-city": 3.5}[it.category]
    if it.key in ("acc_price", "rest_budget", "flight_price"):
        base = base + 2.5 * (1.0 - money) + 1.0 * money  # price matters most to the frugal and the lavish
    if it.key in ("acc_stars", "acc_review", "acc_house_rules"):
        base = base + 2.0 * safe
    if it.key in ("rest_cuisine", "rest_rating", "rest_meals"):
        base = base + 2.0 * has["cuisine"]
    if it.key in ("rest_location", "intercity_duration", "acc_min_nights"):
        base = base + 1.5 * (1.0 - act)
    return s, base


def _draw_choices(pool: _Pool, rng: np.random.Generator, choice_noise: float,
                  importance_sd: float) -> tuple[np.ndarray, np.ndarray]:
    """(n, 20) option indices and (n, 20) importances 0..10."""
    n = len(pool.tier)
    choice = np.zeros((n, len(CATALOGUE)), dtype=np.int64)
    importance = np.zeros((n, len(CATALOGUE)), dtype=np.int64)
    feats = (pool.money, pool.activity / 2.0, pool.safety / 2.0,
             {e: pool.exp[:, i].astype(float) for e, i in _EXP.items()})
    tables = _trait_tables(*feats)
    gumbel = choice_noise * rng.gumbel(size=(n, _N_OPTIONS))
    noise = importance_sd * rng.normal(size=(n, len(CATALOGUE)))
    for k, it in enumerate(CATALOGUE):
        s, base = _scores(it, n, tables, *feats)
        lo = _OFFSETS[k]
        choice[:, k] = np.argmax(s + gumbel[:, lo:lo + len(it.options)], axis=1)
        imp = base + noise[:, k]
        if it.flexible is not None:
            flex = choice[:, k] == it.options.index(it.flexible)
            imp = np.where(flex, np.minimum(imp * 0.5, 3.0), imp)  # "no preference" is indifferent
        importance[:, k] = np.clip(np.rint(imp), 0, 10)
    return choice, importance


def _persona(pid: str, pool: _Pool, i: int, choice: np.ndarray, importance: np.ndarray) -> Persona:
    prefs = tuple(Preference(it.key, it.options[int(choice[i, k])], int(importance[i, k]))
                  for k, it in enumerate(CATALOGUE))
    return Persona(pid, pool.traits(i), prefs)


def mmr_select(choice: np.ndarray, relevance: np.ndarray, k: int, lam: float = 0.5) -> list[int]:
    """Row indices of ``k`` personas chosen by Maximal Marginal Relevance.

    ``choice`` is the (n, items) matrix of chosen option indices; the similarity of two
    personas is the cosine of their one-hot choice vectors, which is the share of items
    on which they chose the same option.  Deterministic; ties go to the lower index.
    """
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"MMR lambda must be in [0, 1], got {lam}")
    n, m = choice.shape
    chosen: list[int] = []
    penalty = np.zeros(n)
    for _ in range(min(k, n)):
        score = lam * relevance - (1.0 - lam) * penalty
        score[chosen] = -np.inf
        j = int(np.argmax(score))
        chosen.append(j)
        sim = (choice == choice[j]).sum(axis=1) / m
        penalty = sim if len(chosen) == 1 else np.maximum(penalty, sim)
    return chosen


def soft_conflicts(members: Sequence[Persona]) -> list[str]:
    """Items whose values differ across members and where some member has 6 <= w <= 8."""
    out = []
    for it in CATALOGUE:
        prefs = [m.pref(it.key) for m in members]
        if len({p.value for p in prefs}) > 1 and any(6 <= p.w <= 8 for p in prefs):
            out.append(it.key)
    return out


def contested_items(members: Sequence[Persona], min_stake: int = 6) -> list[str]:
    """Items whose values differ and where some member's w >= ``min_stake``."""
    out = []
    for it in CATALOGUE:
        prefs = [m.pref(it.key) for m in members]
        if len({p.value for p in prefs}) > 1 and max(p.w for p in prefs) >= min_stake:
            out.append(it.key)
    return out


def generate_trip(rng: np.random.Generator) -> Trip:
    a, b = rng.choice(len(CITIES), size=2, replace=False)
    days = int((3, 5, 7)[int(rng.integers(3))])
    month, day = int(rng.integers(3, 10)), int(rng.integers(1, 29))
    return Trip(CITIES[int(a)], CITIES[int(b)], days, f"2022-{month:02d}-{day:02d}",
                int(rng.integers(8, 60)) * 100)


def generate_group(gid: str, size: int, rng: np.random.Generator, *, pool_size: int = 200,
                   mmr_k: int = 24, mmr_lambda: float = 0.5, min_soft_conflicts: int = 3,
                   min_stake: int = 6, choice_noise: float = 0.35, importance_sd: float = 2.0,
                   max_tries: int = 200) -> Group:
    """One group of ``size`` personas sharing a trip, with >= ``min_soft_conflicts`` soft conflicts."""
    if size < 2:
        raise InputError("group", "size", f"a group needs at least 2 members, got {size}")
    if mmr_k < size or pool_size < mmr_k:
        raise InputError("group", "mmr_k", f"need size <= mmr_k <= pool_size, got {size}, {mmr_k}, {pool_size}")
    trip = generate_trip(rng)
    pool = _draw_pool(pool_size, rng)
    choice, importance = _draw_choices(pool, rng, choice_noise, importance_sd)
    budget_level = min(1.0, trip.budget / 4000.0)  # the trip's budget anchor on the 0..1 tier scale
    relevance = 1.0 - np.abs(pool.money - budget_level)
    picked = mmr_select(choice, relevance, mmr_k, mmr_lambda)
    w_all = np.maximum(importance, 1)
    for _ in range(max_tries):
        idx = sorted(int(picked[i]) for i in rng.choice(len(picked), size=size, replace=False))
        c, w = choice[idx], w_all[idx]
        differ = (c != c[0]).any(axis=0)
        if int((differ & ((w >= 6) & (w <= 8)).any(axis=0)).sum()) >= min_soft_conflicts:  # = soft_conflicts()
            members = tuple(_persona(f"{gid}-a{k}", pool, i, choice, importance) for k, i in enumerate(idx))
            return Group(gid, trip, members, tuple(contested_items(members, min_stake)))
    raise InputError("group", gid, f"no group of {size} with {min_soft_conflicts} soft conflicts "
                     f"after {max_tries} draws")
