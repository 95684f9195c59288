"""The travel tasks' caches give what the uncached code gives: the read mock's
answer by (message, item), the read parser's utterance by text, the speak task's accepted
answer by (text, value, item, willingness); a refused answer is refused again, with the
same problem; each cache is bounded (two generations, tested small)."""

from __future__ import annotations

import numpy as np
import pytest

from mockllm import travel
from mockllm.callrng import CallRng
from mockllm.tasks import Task
from mockllm.travel import READ, SPEAK, TravelUtterance, render
from simcore.errors import ParseError


def _messages(n: int = 300) -> list[tuple[str, str | None]]:
    rng = np.random.default_rng(7)
    out = []
    for i in range(n):
        act = travel.ACTS[i % len(travel.ACTS)]
        w = None if i % 4 == 0 else int(rng.integers(1, 11))
        u = TravelUtterance(act, ["3.5+", "Romantic", "No preference", "2 meals/day"][i % 4], w,
                            travel.REASONS[i % len(travel.REASONS)])
        out.append((render(u, "dining atmosphere", rng, 0.3), None))
    out.append((travel.render_all([("dining budget tier", "Moderate", 8), ("room type", "Private room", 3)],
                                  rng, 0.0), "room type"))
    out += [("no opener here", None), ('For the x, "unclosed', None), ("", None)]
    return out


def test_read_mock_and_parser_caches_give_the_uncached_results():
    travel._ANSWERS.clear()
    travel._PARSED.clear()
    for _ in range(2):  # the second pass is answered from the caches
        for message, item in _messages():
            context = {"message": message, "item": item}
            answer = READ.mock_answer(context, CallRng(1), {})
            assert answer == READ._mock_answer(context)
            try:
                want = READ._parse(answer)
            except ParseError as exc:
                with pytest.raises(ParseError) as got:
                    READ.parse(answer)
                assert got.value.problem == exc.problem
                continue
            assert READ.parse(answer) == want


def _speak_cases():
    said = [m for m, _ in _messages()]
    said += ["I rate it 7 out of 10", "my willingness is high", 'TASK: "3.5+"', 'ok ok ok "3.5+"', "  ", '{"message": 3}']
    for text in said:
        for value in ("3.5+", "Romantic"):
            for w in (None, 7, 10):
                yield text, {"act": "agree", "item": "dining atmosphere", "value": value, "willingness": w,
                             "reason": "none"}


def test_speak_interpret_cache_gives_task_interpret():
    travel._ACCEPTED.clear()
    for _ in range(2):
        for text, context in _speak_cases():
            try:
                want = Task.interpret(SPEAK, text, context)
            except ParseError as exc:
                with pytest.raises(ParseError) as got:
                    SPEAK.interpret(text, context)
                assert got.value.problem == exc.problem
                assert (text, context["value"], context["item"], context["willingness"]) not in travel._ACCEPTED
                continue
            assert SPEAK.interpret(text, context) == want


def test_speak_cache_is_not_used_with_other_checks(monkeypatch):
    text = 'Agreed on the dining atmosphere: we go with "Romantic".'
    context = {"act": "agree", "item": "dining atmosphere", "value": "Romantic", "willingness": None, "reason": "none"}
    assert SPEAK.interpret(text, context) == text  # now remembered

    def refuse(self, msg, ctx, raw):
        raise ParseError(self.id, "refused", raw)

    monkeypatch.setattr(type(SPEAK), "check", refuse)
    with pytest.raises(ParseError, match="refused"):
        SPEAK.interpret(text, context)
    # a bool willingness is not the int 1 (the leak check tells them apart): never the same key
    monkeypatch.undo()
    assert SPEAK.interpret("I say 1 for \"Romantic\"", {**context, "willingness": True}) == "I say 1 for \"Romantic\""
    with pytest.raises(ParseError, match="willingness 1"):
        SPEAK.interpret("I say 1 for \"Romantic\"", {**context, "willingness": 1})


def test_caches_are_bounded(monkeypatch):
    monkeypatch.setattr(travel, "_CACHE_SIZE", 5)
    for cache in (travel._ANSWERS, travel._PARSED, travel._ACCEPTED):
        cache.clear()
    for message, item in _messages(40):
        answer = READ.mock_answer({"message": message, "item": item}, CallRng(1), {})
        try:
            READ.parse(answer)
        except ParseError:
            pass
        try:
            SPEAK.interpret(message, {"item": "dining atmosphere", "value": "3.5+", "willingness": None})
        except ParseError:
            pass
    assert all(len(c) <= 5 and len(c.old) <= 5 for c in (travel._ANSWERS, travel._PARSED, travel._ACCEPTED))


def test_small_two_generation_caches_give_the_uncached_results(monkeypatch):
    """With room for 3 keys per generation every key moves between the generations, is
    dropped and comes back: every answer is still the uncached one, twice over."""
    monkeypatch.setattr(travel, "_CACHE_SIZE", 3)
    test_read_mock_and_parser_caches_give_the_uncached_results()
    test_speak_interpret_cache_gives_task_interpret()
    assert all(len(c) <= 3 and len(c.old) <= 3 for c in (travel._ANSWERS, travel._PARSED, travel._ACCEPTED))


def test_a_key_of_the_old_generation_is_found_and_moved_back(monkeypatch):
    monkeypatch.setattr(travel, "_CACHE_SIZE", 2)
    cache, computed = travel._Cache(), []

    def compute(k):
        computed.append(k)
        return f"v{k}"

    for k in (1, 2, 3):  # 3 fills the cache: {1, 2} become the old generation
        assert travel._memo(cache, k, compute, k) == f"v{k}"
    assert dict(cache) == {3: "v3"} and cache.old == {1: "v1", 2: "v2"}
    assert travel._memo(cache, 1, compute, 1) == "v1" and computed == [1, 2, 3]  # from the old one
    assert dict(cache) == {3: "v3", 1: "v1"}
    assert travel._memo(cache, 4, compute, 4) == "v4"  # full again: {3, 1} old, 2 dropped
    assert cache.old == {3: "v3", 1: "v1"} and dict(cache) == {4: "v4"}
    assert travel._memo(cache, 2, compute, 2) == "v2" and computed == [1, 2, 3, 4, 2]
    cache.clear()
    assert not cache and not cache.old


def test_callrng_integers_is_splitmix_scaled():
    """CallRng.integers(n)'s own short path draws what the general formula draws."""
    mask = (1 << 64) - 1

    def reference(seed: int, spans: list[int]) -> list[int]:
        state, out = seed & mask, []
        for span in spans:
            state = z = (state + 0x9E3779B97F4A7C15) & mask
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            out.append(0 + int(((z ^ (z >> 31)) >> 11) * (1.0 / (1 << 53)) * span))
        return out

    spans = [1, 2, 3, 6, 10, 1000, 2**31, 2**53 + 1, 7]
    for seed in (0, 1, 12345, 2**31 - 1, 2**64 + 5):
        rng = CallRng(seed)
        assert [rng.integers(n) for n in spans] == reference(seed, spans)
        rng = CallRng(seed)
        assert [rng.integers(0, n) for n in spans] == reference(seed, spans)
