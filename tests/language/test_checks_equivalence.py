"""The cheaper checks decide as the plain definitions do: ``mentions`` is
"flattened name in flattened text", and ``reject_echo``'s prefilters refuse exactly what
its ordered checks refuse, with the same problem (a copy of the example: its words in a
row among the answer's words)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mockllm import checks
from mockllm.tasks import PROMPT_MARKERS, ParseError
from mockllm.travel import PROPOSE, SPEAK


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


_pieces = st.sampled_from(["a", "A", "b", " ", "  ", "\n", "\t", "ß", "SS", "ss", "é", "Σ", "σ", "ς", "x y", "İ"])
_text = st.lists(_pieces, max_size=12).map("".join)


@settings(max_examples=500, deadline=None)
@given(_text, _text)
def test_mentions_is_the_flattened_containment(text, name):
    assert checks.mentions(text, name) == (_flat(name) in _flat(text))


def _reference(task, said: str) -> str | None:
    """reject_echo's problem by its plain definition (None: accepted before the leak check)."""
    for marker in PROMPT_MARKERS:
        if marker in said:
            return f"the answer repeats the prompt ({marker!r})"
    import re

    keys = re.compile(r'"(' + "|".join(re.escape(f) for f in task.fields + task.optional_fields) + r')"\s*:')
    hit = keys.search(said)
    if hit is not None:
        return f"the answer repeats the prompt's context (the key {hit.group(1)!r})"
    from mockllm.tasks import _example_phrases

    # a copy of the example: its words, in a row, among the answer's words (punctuation,
    # quotes and case aside): the plain definition, word list in word list
    words = checks.WORD.findall(said.casefold())
    for phrase in _example_phrases(task.example):
        want = checks.WORD.findall(phrase)
        if any(words[i:i + len(want)] == want for i in range(len(words) - len(want) + 1)):
            return "the answer copies the prompt's example answer"
    return None


_said = st.lists(st.sampled_from([
    "For the", "beach day,", "BEACH  DAY,", "I'd really like", "I'D\nREALLY like", '"Sunrise swim",',
    '"Sunrise   swim",', "since it suits how I travel.", "SINCE it suits\thow I travel.", "TASK:", "### QUESTION",
    '"willingness": 3', '"item" :', "hello", " ", "Example answer:", "Hi all, here is my plan:",
    "- For the boat tour, I'd love \"Sunset cruise\".", "I am asking for this since it suits how I travel.",
    "for the beach day I'd", "really like Sunrise swim", "since it suits how I travel", "travel !", "'Sunrise swim'",
    "beach-day", "I'd\u2019", "!",
]), max_size=8).map(" ".join)


@settings(max_examples=500, deadline=None)
@given(_said)
@example('For the BEACH  DAY, I\'D\nREALLY like "Sunrise   swim", SINCE it suits\thow I travel.')
@example("Hi all, here is my plan:\n- For the boat tour, I'd love \"Sunset cruise\".\n"
         "I am asking for this since it suits how I travel.")
@example('say "item" : x')
@example("for the beach day I'd really like Sunrise swim since it suits how I travel !")
@example("'For the beach day,' I'd REALLY like 'Sunrise swim' -- since it suits how I travel")
def test_reject_echo_refuses_as_its_plain_definition(said):
    for task, context in ((SPEAK, {"willingness": None, "value": "v", "item": "i"}),
                          (PROPOSE, {"items": [], "reason": "none"})):
        want = _reference(task, said)
        try:
            task.reject_echo(said, context, said)
            got = None
        except ParseError as exc:
            got = exc.problem
        if want is None:
            assert got is None or any(w in got for w in ("leaks", "placeholder", "not a message"))
        else:
            assert got == want


def _runaway_reference(text: str, max_chars: int = 2000) -> str | None:
    """checks.runaway as first written: the word-by-word scan."""
    if len(text) > max_chars:
        return f"it runs on for {len(text)} characters"
    words = checks.WORD.findall(text.casefold())
    n = len(words)
    for size in range(1, 7):
        run = 0
        for j in range(n - size):
            if words[j] == words[j + size]:
                run += 1
                if run >= 2 * size:
                    start = j - run + 1
                    return f"it repeats {' '.join(words[start:start + size])!r} three times in a row"
            else:
                run = 0
    return None


_words = st.lists(st.sampled_from(["a", "b", "c", "A", "to", "them", "x'y", "_", "1", "é", "..", " "]), max_size=40)


@settings(max_examples=1000, deadline=None)
@given(_words, st.sampled_from([" ", ", ", "  ", "\n"]))
@example(["to", "make", "a", "request", "to", "them"] * 3, " ")
@example(["A1", "B1", "C4", "D1", "E5", "Z", "Z", "Z", "Z"], " ")
@example(["a", "b", "a", "b", "c", "a", "b", "a", "b", "a", "b"], " ")
def test_runaway_is_the_word_by_word_scan(words, sep):
    text = sep.join(words)
    assert checks.runaway(text) == _runaway_reference(text)
    assert checks.runaway(text, 10) == _runaway_reference(text, 10)


_ascii_words = st.lists(st.sampled_from(["a", "B", "it's", "x'y", "x'y'z", "'", "''", "'q", "q'", "_", "a_b",
                                         "1", "..", "-", ",", "I'd", "I", "TO", "to", "\t", "\n", "é", "'é"]),
                        max_size=40)


@settings(max_examples=1000, deadline=None)
@given(_ascii_words, st.sampled_from(["", " ", ", ", "'", "_", "\n"]))
@example(["I", "see", "it", "I", "said", "I", "do"], " ")
@example(["don't", "don't", "don't"], " ")
@example(["'don't'", "'don't'", "'don't'"], " ")
def test_runaway_words_are_the_regex_words(words, sep):
    """The ASCII words (one translate and a split) are the regex's words, and runaway's
    answer the word-by-word scan's, apostrophes anywhere."""
    text = sep.join(words)
    want = checks.WORD.findall(text.casefold())
    got = checks._words(text)
    assert [w.decode("ascii") if type(w) is bytes else w for w in got] == want
    assert checks.runaway(text) == _runaway_reference(text)


def _leak_reference(said: str, levels, names) -> str | None:
    """travel._willingness_leak without the prefilter on the levels' text."""
    import re

    if "willingness" in said.casefold():
        return "it names the willingness"
    rest = said
    for name in sorted((n for n in names if isinstance(n, str) and n), key=len, reverse=True):
        rest = rest.replace(name, " ")
    for w in sorted({w for w in levels if isinstance(w, int) and not isinstance(w, bool)}):
        if re.search(rf"(?<![\w.]){w}(?![\w]|\.\d)", rest):
            return f"it writes the willingness {w}"
    return None


_leak_text = st.lists(st.sampled_from(["1", "0", "10", "3", "3.5", "9", " ", ".", "x", "Morning (06-12)", "06-1",
                                       "2", "WillingNess", "٣", "a1b", "-"]), max_size=10).map("".join)
_levels = st.lists(st.one_of(st.integers(0, 12), st.none(), st.booleans()), max_size=4)
_names = st.lists(st.one_of(st.sampled_from(["Morning (06-12)", "1", "0", "3.5", "x", "", "06-1"]), st.none()),
                  max_size=3)


@settings(max_examples=1000, deadline=None)
@given(_leak_text, _levels, _names)
@example("say 1 0 now", [10], ["1", "0"])
@example("Morning (06-12)", [6, 1, 2], ["Morning (06-12)"])
def test_willingness_leak_is_its_plain_definition(said, levels, names):
    from mockllm.travel import _willingness_leak

    assert _willingness_leak(said, levels, names) == _leak_reference(said, levels, names)


def _fitting_reference(words: list, sizes: range) -> range:
    """checks._fitting_sizes by its definition: the longest run of words each said three
    times or more (counted with a Counter, walked word by word) bounds the phrase size."""
    from collections import Counter

    counts = Counter(words)
    longest = run = 0
    for w in words:
        run = run + 1 if counts[w] >= 3 else 0
        longest = max(longest, run)
    if longest == 0:
        return range(0)
    return range(sizes.start, min(sizes.stop, longest // 3 + 1))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d", "to", "them"]), min_size=1, max_size=60), st.integers(1, 7),
       st.booleans())
@example(["a", "b", "a", "c", "a", "b", "b", "d", "d"], 7, False)
def test_fitting_sizes_is_the_counted_run(words, stop, as_bytes):
    """The phrase sizes kept are those of the counted, word-by-word definition, for str
    words and for the ASCII path's bytes (runaway asks only about words it has)."""
    if as_bytes:
        words = [w.encode("ascii") for w in words]
    assert checks._fitting_sizes(words, range(1, stop)) == _fitting_reference(words, range(1, stop))
