"""The fault-injection backend (adversarial-v1): schema-valid wrong answers never crash a
run of any system: an adversarial-answer campaign over all four systems shows 0 internal
errors."""

import json
import random

import pytest

from mockllm import schema
from mockllm.adversarial import AdversarialBackend, sample
from simcore.cli import main

SIZES = {"mind": ["--groups", "3"], "astra": ["--episodes", "1"], "scorable": ["--trials", "2"],
         "dominance": ["--dialogues", "2"]}


def test_samples_satisfy_their_schema():
    s = {"anyOf": [schema.obj({"kind": {"const": "propose"}, "value": schema.enum(["a", "b"])}),
                   schema.obj({"n": schema.integer(1, 10), "xs": {"type": "array", "items": schema.STRING,
                                                                  "minItems": 1, "maxItems": 3}})]}
    rnd = random.Random(0)
    for _ in range(200):
        schema.validate(sample(s, rnd, ["w"]), s)


@pytest.mark.parametrize("system", sorted(SIZES))
def test_a_run_against_wrong_answers_finishes_with_counted_fallbacks(system, tmp_path, capsys):
    args = ["run", system, *SIZES[system], "--backend", "adversarial-v1", "--backend-arg", "share=0.4",
            "--max-fallback-share", "1", "--min-reading-accuracy", "0", "--no-progress", "--out", str(tmp_path / "o")]
    with pytest.raises(SystemExit) as stop:
        main(args)
        raise SystemExit(0)
    assert stop.value.code in (0, None), capsys.readouterr().err
    calls = json.loads((tmp_path / "o" / "metrics.json").read_text())["model_calls"]
    assert calls["asks"] > 0
    assert sum(t["retries"] for t in calls["by_task"].values()) > 0  # wrong answers were refused and retried


def test_the_share_is_checked():
    with pytest.raises(Exception, match="share"):
        AdversarialBackend(share=2)
