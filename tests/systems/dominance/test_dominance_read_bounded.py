"""The dominance reader's cost is bounded: a pattern that opens with a phrase group is
searched from clause starts only (the same readings, linear time), a text longer than
``MAX_READ_CHARS`` is unreadable, and ``simcore chat dominance`` refuses a line longer
than ``MAX_LINE`` with one line.  Time is never asserted: a catastrophic input is run
under a ``signal.alarm`` guard far above what the linear reader needs (milliseconds)
and far below what a quadratic one needs (many minutes).  Timings are in
benchmarks/results-dominance-read.md."""

import re
import signal

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mockllm.dominance import (AT_CLAUSE, EXAMPLE_UTTERANCES, FREE_TEXT_EXAMPLES, MAX_READ_CHARS, PATTERNS, SMALL_VOCAB,
                               T, X, _strip_fillers, read_text, render)
from simcore.chat_dominance import MAX_LINE
from simcore.cli import cli

GUARD_S = 60


class _TooSlow(Exception):
    pass


def _guarded(fn, *args):
    """``fn(*args)``, failing the test (not hanging it) after GUARD_S seconds."""
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM")

    def alarm(signum, frame):
        raise _TooSlow

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(GUARD_S)
    try:
        return fn(*args)
    except _TooSlow:
        pytest.fail(f"{fn.__name__} did not finish within {GUARD_S} s: reading is not linear")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_a_pattern_opening_with_a_phrase_is_anchored_at_a_clause_start():
    """Without the anchor, search tries X from every position of a clause."""
    for form, rx, _ in PATTERNS:
        opening = rx.pattern.split(X, 1)[0]
        assert opening, f"{form}: {rx.pattern} opens with X unanchored"


def test_every_pattern_reads_a_long_clause_in_linear_time():
    """A 200 KB clause ("I want very very ... Italian", the outside tester's input at 40
    times the size): a quadratic pattern takes many minutes (the unanchored patterns take
    3.9 s at 10 KB), a linear one milliseconds."""
    text = "I want " + "very " * 40_000 + "Italian"

    def search_all():
        return [rx.search(text) is not None for _, rx, _ in PATTERNS]

    assert any(_guarded(search_all))


def _unanchored(rx):
    return re.compile(rx.pattern[len(AT_CLAUSE):], rx.flags) if rx.pattern.startswith(AT_CLAUSE) else rx


def _same_reading(sentence: str) -> None:
    s = _strip_fillers(sentence)
    for form, rx, _ in PATTERNS:
        a, b = rx.search(s), _unanchored(rx).search(s)
        assert (a and a.groups()) == (b and b.groups()), (form, s)


def _mock_sentences():
    from scenarios.restaurants import load_domain

    for domain in ("restaurants-small-v1", "restaurants-420-v1"):
        vocab = load_domain(domain).vocabulary()
        values = [v for vals in vocab["criteria"].values() for v in vals]
        for u in EXAMPLE_UTTERANCES:
            for relation in T:
                for i in range(3):
                    yield render(relation, u, vocab["topic"], ["Italian", "cheap"] if i == 1 else None, i)
        for c, vals in vocab["criteria"].items():
            for a, b in zip(vals, vals[1:]):
                for relation in T:
                    for i in range(3):
                        yield render(relation, {"kind": "state", "criterion": c, "less": a, "more": b}, "", None, i)
                        yield render(relation, {"kind": "ask", "criterion": c, "less": a, "more": b}, "", None, i)
        yield from values[:5]


def test_the_anchor_keeps_every_reading_of_the_mocks_texts():
    for sentence in _mock_sentences():
        _same_reading(sentence)
    for text, _ in FREE_TEXT_EXAMPLES:
        _same_reading(text)


WORDS = ["I", "i", "is", "it", "my", "the", "a", "or", "not", "than", "to", "more", "better", "rather", "like", "prefer",
         "want", "favourite", "least", "worst", "Italian", "Chinese", "cheap", "calm", "Chez Luigi", "do you", "what",
         "about", "perfect", "for me", "suit me", "doesn't", "would", "be", "ok", "most", "love", "works", "sounds"]
MARKS = [" ", " ", " ", " ", ", ", ". ", "? ", "! ", " (", ": ", "; ", "  "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(MARKS)), min_size=1, max_size=14))
def test_the_anchor_keeps_every_reading_of_free_text(parts):
    _same_reading("".join(w + m for w, m in parts).strip())


def test_a_text_longer_than_the_cap_is_unreadable():
    long = "I want " + "very " * (MAX_READ_CHARS // 5) + "Italian"
    out = read_text(long, SMALL_VOCAB)
    assert out["kind"] == "unreadable" and f"at most {MAX_READ_CHARS}" in out["why"]
    fits = "I want " + "very " * ((MAX_READ_CHARS - 30) // 5) + "Italian, not Chinese"
    assert len(fits) <= MAX_READ_CHARS
    assert "too long" not in read_text(fits, SMALL_VOCAB).get("why", "")  # read (as a restaurant's name)
    assert read_text("I want Italian, not Chinese", SMALL_VOCAB)["kind"] == "state"


@pytest.mark.parametrize("size", [MAX_LINE + 1, 25_000])
def test_chat_refuses_a_long_line_in_one_line(size):
    line = ("I want " + "very " * size)[:size - len("Italian")] + "Italian"
    r = CliRunner().invoke(cli, ["chat", "dominance"], input=f"{line}\nI'd rather have Italian than Chinese\nbye\n")
    assert r.exit_code == 0, r.output
    refusals = [ln for ln in r.output.splitlines() if "too long" in ln]
    assert refusals == [f"  (a line of {size} characters is too long: I read lines of at most {MAX_LINE})"]
    assert "you: I'd rather have Italian than Chinese" in r.output and "agent:" in r.output


def test_chat_reads_a_line_at_the_cap():
    line = "I'd rather have Italian than Chinese" + " " * (MAX_LINE - 36)
    assert len(line) == MAX_LINE
    r = CliRunner().invoke(cli, ["chat", "dominance"], input=f"{line}\nbye\n")
    assert "too long" not in r.output and "agent:" in r.output
