"""Model output never crashes a run: the crashes found by fuzzing, one test each.

Each test replaces some of the mock's answers by the answer that crashed a run (or a
parser) and checks that the run completes with the bad answer refused and counted:
retried, then the caller's rule-based fallback.
"""

from __future__ import annotations

import collections
import json

import numpy as np
import pytest

from mockllm.callrng import CallRng
from mockllm.mock import MockBackend
from mockllm.tasks import all_tasks, read_prompt
from simcore.errors import BackendError, ParseError

TASKS = all_tasks()


class Tamper:
    """A backend that answers like ``inner`` except where ``replace(task_id, k, context)``
    (k: the how-many-th request of that task) returns a text."""

    def __init__(self, inner, replace):
        self.inner, self.replace = inner, replace
        self.count: collections.Counter = collections.Counter()
        self.replaced = 0

    def chat(self, messages, *, temperature=0.0, seed=None):
        task, context = read_prompt(messages)
        k = self.count[task.id]
        self.count[task.id] += 1
        new = self.replace(task.id, k, context)
        if new is not None:
            self.replaced += 1
            return new
        return self.inner.chat(messages, temperature=temperature, seed=seed)


def only(task_id, answer, calls=None):
    """replace(): ``answer`` for the requests of ``task_id`` numbered in ``calls`` (all if None)."""
    return lambda tid, k, ctx: answer if tid == task_id and (calls is None or k in calls) else None


# --- dominance --------------------------------------------------------------------
def _dialogue(backend, agent="peer", user="peer", agent_opens=True):
    from policies.dominance_state import random_preferences
    from scenarios.restaurants import load_domain
    from simcore.systems.dominance import play_dialogue

    dom = load_domain("restaurants-small-v1")
    pa = random_preferences(dom, np.random.default_rng(1))
    pu = random_preferences(dom, np.random.default_rng(2))
    return play_dialogue(dom, agent, user, pa, pu, rng_agent=CallRng(3), rng_user=CallRng(4), agent_opens=agent_opens,
                         run_id="t", backend=backend)


READ = "dominance-read"
NOT_OF_ITS_CRITERION = [
    '{"kind":"propose","type":"cuisine","value":"propose"}',        # KeyError in policies/dominance.py
    '{"kind":"state","criterion":"cuisine","less":"cheap","more":null}',  # ValueError in dominance_state
    '{"kind":"ask","criterion":"cost","less":"Italian","more":null}',    # KeyError
    '{"kind":"propose","type":"price","value":"cheap"}',             # a criterion that does not exist
]


@pytest.mark.parametrize("answer", NOT_OF_ITS_CRITERION)
def test_dominance_reading_with_values_not_of_the_scenario_is_retried(answer):
    backend = Tamper(MockBackend(exact=True), only(READ, answer, calls={0}))
    result, _agents, stats = _dialogue(backend)
    assert backend.replaced == 1
    assert stats.retries == 1 and stats.fallbacks == 0  # the retry read the text
    assert result.turns > 1


@pytest.mark.parametrize("answer", NOT_OF_ITS_CRITERION)
def test_dominance_reading_with_values_not_of_the_scenario_twice_is_a_counted_fallback(answer):
    backend = Tamper(MockBackend(exact=True), only(READ, answer))
    result, _agents, stats = _dialogue(backend)
    assert result.outcome == "unreadable" and result.turns == 1
    assert stats.fallbacks == 1 and stats.by_task[READ]["fallbacks"] == 1


class Tries(Tamper):
    """:class:`Tamper` with the number of requests per ask the client reads (``answer_tries``),
    and, with ``fail``, a backend error instead of each replaced answer."""

    def __init__(self, inner, replace, tries, fail=False):
        super().__init__(inner, replace)
        self.answer_tries, self.fail = tries, fail

    def chat(self, messages, *, temperature=0.0, seed=None):
        answer = super().chat(messages, temperature=temperature, seed=seed)
        if self.fail and self.replaced:
            raise BackendError("the server is away")
        return answer


@pytest.mark.parametrize("tries,why", [(1, "no answer was readable in 1 try"), (2, "no answer was readable in 2 tries"),
                                       (3, "no answer was readable in 3 tries")])
def test_the_readers_fallback_states_the_real_number_of_tries(tries, why):
    backend = Tries(MockBackend(exact=True), only(READ, NOT_OF_ITS_CRITERION[0]), tries)
    result, _agents, stats = _dialogue(backend)
    assert result.outcome == "unreadable" and stats.by_task[READ]["calls"] == tries and stats.fallbacks == 1
    (reading,) = result.events[0].cues.values()
    assert reading == {"kind": "unreadable", "why": f"the reader fell back: {why}"}


def test_the_readers_fallback_after_a_backend_failure_says_so():
    backend = Tries(MockBackend(exact=True), only(READ, NOT_OF_ITS_CRITERION[0]), 1, fail=True)
    result, _agents, stats = _dialogue(backend)
    assert stats.backend_errors == 1 and stats.fallbacks == 1
    (reading,) = result.events[0].cues.values()
    assert reading["why"] == "the reader fell back: the backend failed (try 1 of 1)"


# the first sentence is "I love Japanese the most.": each reading below names only what the
# sentence names (so the read task's sentence check passes it) and is no legal move of its speaker
ILLEGAL_FOR_THE_SPEAKER = [
    '{"kind":"accept","type":"cuisine","value":"Japanese"}',  # nothing was proposed to accept
    '{"kind":"reject","type":"cuisine","value":"Japanese"}',
    '{"kind":"quit","reason":"bye"}',                         # "cannot reply to Quit"
]

# schema-valid readings naming what the sentence does not ("propose Chinese"
# for a sentence naming Italian must not reach the listener, whose reply would be illegal: exit 1)
NOT_IN_THE_SENTENCE = [
    '{"kind":"accept","type":"restaurant","value":"Le Petit Zinc"}',
    '{"kind":"propose","type":"cuisine","value":"Chinese"}',
    '{"kind":"state","criterion":"cuisine","less":"Italian","more":"Chinese"}',
    '{"kind":"booking","option":"Le Petit Zinc"}',
]


@pytest.mark.parametrize("answer", NOT_IN_THE_SENTENCE)
def test_dominance_reading_naming_what_the_sentence_does_not_is_retried_then_a_fallback(answer):
    once = Tamper(MockBackend(exact=True), only(READ, answer, calls={0}))
    result, _agents, stats = _dialogue(once)
    assert stats.retries == 1 and stats.fallbacks == 0 and result.turns > 1  # the retry read the sentence
    always = Tamper(MockBackend(exact=True), only(READ, answer))
    result, _agents, stats = _dialogue(always)
    assert result.outcome == "unreadable" and result.turns == 1
    assert stats.fallbacks == 1 and stats.by_task[READ]["fallbacks"] == 1


@pytest.mark.parametrize("answer", ILLEGAL_FOR_THE_SPEAKER)
def test_dominance_reading_that_is_no_legal_move_of_the_speaker_is_a_counted_model_error(answer):
    """The first utterance of a dialogue accepts, rejects or books nothing: a reading that
    says it did is the reader's error, not the user's bad input (no exit 2)."""
    backend = Tamper(MockBackend(exact=True), only(READ, answer, calls={0}))
    result, _agents, stats = _dialogue(backend)
    assert result.outcome == "unreadable" and result.turns == 1
    assert stats.fallbacks == 1 and stats.by_task[READ]["fallbacks"] == 1
    cue = result.events[0].cues
    (reading,) = cue.values()
    assert reading["kind"] == "unreadable" and "not a legal move" in reading["why"]


# --- ASTRA --------------------------------------------------------------------------
def _episode(backend, agent="astra", partner="base"):
    from scenarios.bilateral import load_domain
    from simcore.seeding import derive
    from simcore.systems.astra.match import play_episode

    dom = load_domain("casino-v1")
    return play_episode(dom, agent, partner, "integrative", derive(5, "t"), run_id="t", backend=backend)


def test_astra_offer_answer_without_an_offer_is_a_counted_fallback():
    """Was: exit 2, ``partner: an offer action must state an offer``."""
    offers = []

    def replace(tid, k, ctx):
        if tid == "astra.speak" and ctx["mode"] == "offer":
            offers.append(k)
            return json.dumps({"utterance": "Here is my offer.", "offer": None})
        return None

    ep, rec = _episode(Tamper(MockBackend(), replace))
    assert offers and rec["fallbacks"] == len(offers) // 2  # every offer asked twice, then the rule's
    assert ep.events[-1].phase == "end"
    assert any("offer" in e.intent for e in ep.events if e.speaker in ("agent", "partner"))


@pytest.mark.parametrize("answer", [
    '{"utterance": "Deal.", "offer": {"self": {"food": 3}, "other": {"boats": 1}, "shared": {}}}',
    '{"utterance": "Deal.", "offer": {"self": {"food": "3"}, "other": {}, "shared": {}}}',
    '{"utterance": "Deal.", "offer": {"self": {"food": -1}, "other": {}, "shared": {}}}',
    '{"utterance": "Deal.", "offer": {"self": {}, "other": {}, "shared": [1]}}',
])
def test_astra_offer_naming_what_the_scenario_lacks_is_refused(answer):
    task = TASKS["astra.speak"]
    ctx = task.examples(np.random.default_rng(0))[0]
    with pytest.raises(ParseError):
        task.interpret(answer, ctx)


def test_astra_protocol_counts_an_offer_action_without_an_offer_as_an_invalid_move():
    """The protocol boundary: a stated offer comes from the model, so a missing one is an
    invalid move (Table 9's treatment), never an exit 2."""
    from scenarios.bilateral import load_domain
    from simcore.driver import play
    from simcore.protocols.alternating import Action, AlternatingGame

    dom = load_domain("casino-v1")
    pv = dom.setup("integrative").partners[0]

    class Scripted:
        def __init__(self, actions):
            self.actions = list(actions)

        def act(self, obs):
            return self.actions.pop(0)

    ep = play(AlternatingGame(round_limit=2).start(dom, dom.agent, pv, "t"),
              {"agent": Scripted([Action("talk", "hm"), Action("talk", "hm")]),
               "partner": Scripted([Action("offer", "my offer", None), Action("walk_away", "bye")])})
    assert ep.invalid_moves == 1 and ep.status == "walk_away"


# --- parsers: deep nesting, huge numbers -------------------------------------------
DEEP = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
LONG_INT = '{"a": 1' + "0" * 5000 + "}"


@pytest.mark.parametrize("task_id", sorted(TASKS))
@pytest.mark.parametrize("text", [DEEP, LONG_INT], ids=["deep", "long-int"])
def test_parsers_refuse_deep_nesting_and_overlong_numbers(task_id, text):
    """Was: RecursionError / ValueError out of the JSON reader (only JSONDecodeError was caught)."""
    try:
        TASKS[task_id].parse(text)
    except ParseError:
        pass


def test_scorable_estimate_refuses_a_huge_integer():
    """Was: OverflowError in mockllm/scorable.py (math.isfinite of a 401-digit int)."""
    with pytest.raises(ParseError, match="not a number"):
        TASKS["scorable-estimate"].parse('{"A": [1' + "0" * 400 + ', 2, 3]}')


def test_any_parser_exception_becomes_a_parse_error():
    """One place (Task.interpret) turns whatever a parser raises into a ParseError."""
    from mockllm.tasks import Task

    class Broken(Task):
        id = "broken"

        def parse(self, text):
            return {}["x"]

    with pytest.raises(ParseError, match="KeyError"):
        Broken().interpret("anything", {})


# --- end to end: mutated cassettes, every system ----------------------------------
CRASHERS = {  # answers found by fuzzing that could abort a run, put where they fit
    "dominance-read": ['{"kind":"propose","type":"cuisine","value":"propose"}',
                       '{"kind":"state","criterion":"cuisine","less":"cheap","more":null}',
                       '{"kind":"reject","type":"restaurant","value":"Sakura"}',
                       '{"kind":"accept","type":"restaurant","value":"Sakura"}'],
    "astra.speak": ['{"utterance": "Here is my offer.", "offer": null}'],
    "scorable-estimate": ['{"A": [1' + "0" * 400 + ', 2, 3]}'],
}
GENERIC = ['{"a": ' + "[" * 50_000 + "]" * 50_000 + "}", '{"a": 1' + "0" * 5000 + "}", "", "{", "null",
           '{"kind": "propose"}', '{"utterance": 3, "offer": [1]}', '{"Mayor": [{"entity": "issue"}]}']
E2E = {  # small runs of each system's study
    "mind": ("simcore.systems.mind", "MindConfig", dict(groups=2, sizes=(3,))),
    "scorable": ("simcore.systems.scorable", "ScorableConfig", dict(trials=1, methods=("llm-pe-all", "proposed-p1"))),
    "astra": ("simcore.systems.astra", "AstraConfig", dict(episodes=1, partners=("base", "fair"))),
    "dominance": ("simcore.systems.dominance", "DominanceConfig", dict(dialogues=2)),
}


class CassetteThenMock:
    """Answers from a (mutated) cassette; a request it does not hold -- the run took
    another course after a mutated answer -- is answered by the mock.  Every exchange
    is logged (class level: the study builds its own instance)."""

    log: list = []

    def __init__(self, cassette: str = "", exact: bool = False):
        from mockllm.cassette import request_key

        self.key = request_key
        self.mock = MockBackend(exact=exact)
        self.answers: dict = {}
        self.stubborn: dict = {}  # a mutated answer is given again to the retry (same prompt, new seed)
        with open(cassette, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                if "cassette" in row:  # the header
                    continue
                self.answers.setdefault(row["key"], row["response"])
                if row.get("mutated"):
                    self.stubborn.setdefault(self.key(_messages(row["messages"]), 0.0, None), row["response"])

    def chat(self, messages, *, temperature=0.0, seed=None):
        answer = self.answers.get(self.key(messages, temperature, seed))
        if answer is None:
            # a retry is the repair conversation of the same prompt (its first two messages)
            answer = self.stubborn.get(self.key(tuple(messages)[:2], 0.0, None))
        if answer is None:
            answer = self.mock.chat(messages, temperature=temperature, seed=seed)
        CassetteThenMock.log.append((tuple(messages), answer))
        return answer


def _messages(dicts):
    from mockllm.backend import Message

    return tuple(Message(d["role"], d["content"]) for d in dicts)


def _mutate(rows, rnd):
    out = []
    for row in rows:
        row = dict(row)
        if rnd.random() < 0.08:
            task = row["messages"][0]["content"][len("TASK: "):].split("\n", 1)[0]
            text = row["response"]
            choices = CRASHERS.get(task, []) * 3 + GENERIC + [text[: len(text) // 2], text.upper(), text[::-1]]
            row["response"] = rnd.choice(choices)
            row["mutated"] = rnd.random() < 0.5  # half of them: the model answers the retry as badly
        out.append(row)
    return out


def _reported_fallbacks(system, metrics) -> int:
    if system == "scorable":
        return sum(r["fallbacks"] for r in metrics["results"].values())
    return metrics["fallbacks"]


@pytest.mark.parametrize("system", sorted(E2E))
def test_replaying_mutated_cassettes_every_run_completes_with_its_fallbacks_counted(system, tmp_path):
    import importlib
    import random

    from simcore.registry import register, unregister
    from simcore.study import run_study
    from tests.core.test_fuzz_runs import expected_fallbacks

    module, config_name, kw = E2E[system]
    config_cls = getattr(importlib.import_module(module), config_name)
    study = f"{module}:STUDY"
    cassette = tmp_path / "mock.jsonl"
    run_study(study, config_cls(seed=4, record=str(cassette), **kw), out_dir=str(tmp_path / "recorded"))
    rows = [json.loads(line) for line in cassette.read_text().splitlines()][1:]  # less the header
    assert len(rows) > 50
    register("backend", "cassette-then-mock-test-v1", CassetteThenMock, replace=True)
    total = 0
    try:
        for k in range(3):
            mutated = tmp_path / f"mutated{k}.jsonl"
            mutated.write_text("".join(json.dumps(r) + "\n" for r in _mutate(rows, random.Random(k))))
            CassetteThenMock.log = []
            out = tmp_path / f"replay{k}"
            run_study(study, config_cls(seed=4, backend="cassette-then-mock-test-v1",
                                        backend_args=(("cassette", str(mutated)), ("exact", str(system == "dominance"))),
                                        **kw), out_dir=str(out))
            metrics = json.loads((out / "metrics.json").read_text())
            log = []
            for messages, answer in CassetteThenMock.log:
                task, ctx = read_prompt(messages)
                log.append((messages, task, ctx, answer))
            refused = 0
            if system == "dominance":  # readings the protocol refused: counted as the reader's fallbacks
                text = (out / "transcripts.jsonl").read_text()
                refused = text.count("is not a legal move of the speaker")
            assert _reported_fallbacks(system, metrics) == expected_fallbacks(log) + refused
            total += expected_fallbacks(log) + refused
    finally:
        unregister("backend", "cassette-then-mock-test-v1")
    assert total > 0  # the mutations do reach the fallbacks


# --- the scenario checks, task by task ---------------------------------------------
def _sig(target, entity="option", stype="point"):
    return {"entity": entity, "signal_type": stype, "target": target, "stance": "prefer"}


REFUSED = [  # (task, an answer naming what the example's scenario lacks, or of the wrong shape)
    ("astra.read", '{"highest": "boats", "lowest": null}'),
    ("scorable-extract", json.dumps({"Mayor": [_sig("Z1")]})),
    ("scorable-extract", json.dumps({"Mayor": [_sig("A9")]})),
    ("scorable-extract", json.dumps({"Mayor": [_sig("A1" + "1" * 5000)]})),  # int() of it: ValueError in bayes
    ("scorable-extract", json.dumps({"Mayor": [_sig("A", entity="option")]})),
    ("scorable-extract", json.dumps({"Mayor": [_sig("A1, B1", stype="point")]})),
    ("scorable-extract", json.dumps({"Mayor": [_sig("A, A", entity="issue", stype="comparison")]})),
    ("scorable-extract", json.dumps({"SportCo": []})),
    ("scorable-estimate", '{"A": [1, 2, 3], "B": [1, 2, 3]}'),
    ("scorable-estimate", '{"A": [1, 2], "B": [1, 2, 3], "C": [1, 2, 3]}'),
    ("scorable-estimate", '{"A": [1, 2, 3], "B": [1, 2, 3], "C": [1, 2, 3], "Q": [1]}'),
    ("scorable-speak", "We propose a deal that suits everyone."),
    # every code of the example game, and the prompt example's invented option (a real model's answer)
    ("scorable-speak", "A1, A2, A3, B1, B2, B3, C1, C2, C3: We propose Harbour (X1), Solar (Y2)."),
    ("travel.read-v1", '{"act": "propose", "value": "5 Stars", "willingness": 9, "reason": "preference"}'),
    ("travel.read-v1", '{"act": "propose", "value": ["4.0+ (Reliable)"], "willingness": 9, "reason": "none"}'),
    ("travel.read-v1", '{"act": "shout", "value": "4.0+ (Reliable)", "willingness": 9, "reason": "none"}'),
    ("travel.speak-v1", "For the dining atmosphere, I propose something nice."),
    ("travel.propose-v1", 'Hi!\n- For the dining budget tier, I propose "Moderate".'),
    ("dominance-say", "SAY: I want pizza."),
    ("dominance-read", '{"kind": "state", "criterion": "mood", "less": null, "more": "calm"}'),
    ("dominance-read", '{"kind": "propose", "type": "cost", "value": "calm"}'),
]


@pytest.mark.parametrize("task_id,answer", REFUSED)
def test_answers_naming_what_the_scenario_lacks_are_refused(task_id, answer):
    task = TASKS[task_id]
    ctx = task.examples(np.random.default_rng(0))[0]
    task.interpret(MockBackend(exact=True).chat(task.messages(**ctx), seed=1), ctx)  # the mock's passes
    with pytest.raises(ParseError):
        task.interpret(answer, ctx)
