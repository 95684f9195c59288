"""The intensity lexicon the mock speaks and reads MIND's willingness with.

The bands (MIND appendix B.2; :data:`scenarios.travel.BANDS`): Strict 9-10, Firm 7-8, Warm 4-6,
Neutral 1-3.  Each
willingness level 1..10 has several phrasings of its own; a phrase names its level
exactly, so at zero noise reading a message recovers the speaker's level.

``tone_noise`` is the probability that a speaker's wording slips to a neighbouring
band: the level used for the words is then drawn uniformly from the band just above
or just below (each with probability 1/2; only the existing one at the ends).  That
makes inference imperfect in the way a real reader is: the words, not the speaker's
hidden willingness, are all a listener has.

Calibration: the default ``TONE_NOISE`` was set once with
``python benchmarks/calibrate_tone.py`` so that ToM Acc(+-2) lands within the
paper's range (80-95%); see docs/systems/mind.md.
"""

from __future__ import annotations

import re

import numpy as np

from scenarios.travel import BAND_ORDER, BANDS, band_of


#: default probability that wording slips to a neighbouring band (calibrated, see module doc)
TONE_NOISE = 0.20

#: level -> phrasings; each phrase occurs in exactly one level and in no other phrase
LEXICON: dict[int, tuple[str, ...]] = {
    10: ("this is non-negotiable for me", "I cannot travel without", "this is a deal-breaker for me, so it has to be"),
    9: ("we must have", "it is essential for me that we take", "I have to insist on"),
    8: ("I strongly prefer", "I feel strongly that we should pick", "it matters a great deal to me to get"),
    7: ("I really want", "I am confident the right call is", "it is important to me that we choose"),
    6: ("I would really like", "I'd be grateful if we went with", "I'd be glad to have"),
    5: ("I would like", "my preference would be", "it would be good to have"),
    4: ("it would be nice to have", "I'd lean towards", "I'd be happy with"),
    3: ("I slightly lean towards", "if it helps, perhaps", "a small preference of mine is"),
    2: ("either way is fine, maybe", "I don't mind much; perhaps", "no strong view, possibly"),
    1: ("I really don't mind; say", "anything works for me, e.g.", "whatever suits everyone, like"),
}

_PHRASE_LEVEL = {phrase: level for level, phrases in LEXICON.items() for phrase in phrases}
# longest first so that no phrase is found inside a longer one
_PHRASES = sorted(_PHRASE_LEVEL, key=len, reverse=True)
_FIND = re.compile("|".join(re.escape(p) for p in _PHRASES))


def _neighbour_bands(w: int) -> tuple[tuple[int, int], ...]:
    k = BAND_ORDER.index(band_of(w))
    return tuple(BANDS[BAND_ORDER[b]] for b in (k - 1, k + 1) if 0 <= b < len(BAND_ORDER))


_NEIGHBOURS = {w: _neighbour_bands(w) for w in range(1, 11)}


def worded_level(w: int, rng: np.random.Generator, tone_noise: float) -> int:
    """The level whose words the speaker uses: ``w`` itself, or with probability
    ``tone_noise`` a level from a neighbouring band (the band first, uniformly among the
    neighbours, then the level, uniformly within it)."""
    if tone_noise <= 0.0 or rng.random() >= tone_noise:
        return w
    neighbours = _NEIGHBOURS[w]
    lo, hi = neighbours[int(rng.integers(len(neighbours)))]
    return int(rng.integers(lo, hi + 1))


def phrase(level: int, rng: np.random.Generator) -> str:
    options = LEXICON[level]
    return options[int(rng.integers(len(options)))]


def read_level(text: str) -> int | None:
    """The willingness level the words express, or None when no intensity marker is present."""
    m = _FIND.search(text)
    return None if m is None else _PHRASE_LEVEL[m.group(0)]
