"""A real model as MIND's Table 4 judge, replayed: SmolLM2-135M-Instruct's
verdicts on the default study's first three groups of two, the conversations worded by the
mock (tests/cassettes/real/mind-judge-json_object.jsonl, recorded with
benchmarks/record_mind_judge.py; docs/users/real-models.md, "SmolLM2-135M-Instruct in the
mind.judge role").  The parse counts are asserted, and what the model decided beside the
stand-in's verdict on the same conversations."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from mockllm.cassette import ReplayBackend
from checkout import CHECKOUT  # noqa: E402

ROOT = Path(CHECKOUT)
CASSETTE = ROOT / "tests" / "cassettes" / "real" / "mind-judge-json_object.jsonl"
GROUPS = 3
KEYS = ("rationality", "alignment", "reason_validity", "change_justification", "fluency", "overall")


def _script():
    spec = importlib.util.spec_from_file_location("record_mind_judge", ROOT / "benchmarks" / "record_mind_judge.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _replay():
    return _script().judge_run(GROUPS, ReplayBackend(str(CASSETTE)))


def test_the_recording_replays_with_its_parse_counts():
    lines = CASSETTE.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])["cassette"]
    assert header["backend"] == "openai-compat-v1" and header["model"] == "SmolLM2-135M-Instruct.Q4_1"
    assert header["tries"] == 3
    m = _replay()
    row = m["model_calls"]["by_task"]["mind.judge"]
    got = tuple(row[f] for f in ("asks", "calls", "first_try", "repaired", "fallbacks", "backend_errors"))
    assert got == RECORDED
    assert len(lines) - 1 == row["calls"]  # every recorded request asked, none left over
    assert set(m["model_calls"]["by_task"]) == {"mind.judge", "travel.propose-v1", "travel.read-v1",
                                                "travel.speak-v1"}
    # the words were the mock's: nothing but the judge fell back
    assert m["model_calls"]["fallbacks"] == row["fallbacks"]


def test_the_models_verdicts_beside_the_stand_ins():
    model = _replay()["judge"]
    stand_in = _script().judge_run(GROUPS, None)["judge"]
    assert {k: model[k]["win"] for k in KEYS} == MODEL_WINS
    assert {k: stand_in[k]["win"] for k in KEYS} == STAND_IN_WINS


#: asks, calls, first_try, repaired, fallbacks, backend_errors, as recorded
RECORDED = (3, 3, 3, 0, 0, 0)
#: the model's three verdicts are one and the same -- the prompt's example answer, copied
#: (B, A, B, B, A, overall B) -- so MIND (Plan A) wins Fluency only (Base states no stake, so the
#: model's letters on Rationality and Preference Alignment are counted apart, not comparable)
MODEL_WINS = {"rationality": 0.0, "alignment": 0.0, "reason_validity": 0.0, "change_justification": 0.0,
              "fluency": 1.0, "overall": 0.0}
#: the blind stand-in on the same conversations
STAND_IN_WINS = {"rationality": 0.0, "alignment": 0.0, "reason_validity": 0.0, "change_justification": 2 / 3,
                 "fluency": 1.0, "overall": 2 / 3}


def test_every_answer_is_the_prompts_example():
    from simcore.systems.mind.model_roles import JUDGE

    answers = [json.loads(line)["response"] for line in CASSETTE.read_text(encoding="utf-8").splitlines()[1:]]
    assert answers and all(json.loads(a) == json.loads(JUDGE.example) for a in answers)
