"""A real model as MIND's Table 4 judge, on conversations worded by the mock.

``simcore run mind ... --backend openai-compat-v1 --role mind.judge=model`` sends the words
*and* the judge to the model.  On a loaded two-core machine the words alone (about 50
requests for one group of two) took longer than the server's timeout allowed, so this
script records the judge's requests only: the negotiations are the default study's, worded
by the mock (``mock-v1``, as the stand-in run), and each group's verdict is asked of the
model through the ``mind.judge`` task (the same prompt, parse, check, repairs and counted
fallback as ``--role mind.judge=model``).  The model and the stand-in therefore judge the
very same conversations.

    python benchmarks/record_mind_judge.py --groups 3 --record tests/cassettes/real/mind-judge-json_object.jsonl \\
        --backend-arg base_url=http://127.0.0.1:8791/v1 --backend-arg model=SmolLM2-135M-Instruct.Q4_1 \\
        --backend-arg schema=json_object --backend-arg tries=3
    python benchmarks/record_mind_judge.py --groups 3 --replay tests/cassettes/real/mind-judge-json_object.jsonl

Prints the judge's counts (``model_calls.by_task["mind.judge"]``), each group's verdict by
the model and by the stand-in, and the win shares of both (JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: the run: the default MIND study's first groups, groups of two (short conversations for a small context)
SIZES = (2,)


def judge_run(groups: int, judge_backend, seed: int = 0) -> dict:
    """The default study's first ``groups`` groups of two (mind vs base, mock words), the
    judge asked of ``judge_backend``; with None, the stand-in judges.  Returns the metrics."""
    import simcore.systems.mind.study as study
    from mockllm.client import ModelClient
    from simcore.study import run_study

    roles = () if judge_backend is None else (("mind.judge", "model"),)
    config = study.MindConfig(seed=seed, groups=groups, sizes=SIZES, variants=("mind", "base"), roles=roles,
                              transcripts=False)
    saved = study.judge_role
    if judge_backend is not None:
        study.judge_role = lambda config, backend: ModelClient(judge_backend)
    try:
        summary = run_study("simcore.systems.mind:STUDY", config, workers=1)
    finally:
        study.judge_role = saved
    return summary.metrics


def main(argv=None) -> int:
    from simcore.backends import build_backend

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--record")
    ap.add_argument("--replay")
    ap.add_argument("--backend-arg", action="append", default=[], help="KEY=VALUE for openai-compat-v1")
    a = ap.parse_args(argv)
    args = [tuple(kv.split("=", 1)) for kv in a.backend_arg]
    backend = build_backend("openai-compat-v1", args, record=a.record, replay=a.replay)
    model = judge_run(a.groups, backend, a.seed)
    if hasattr(backend, "close"):
        backend.close()
    stand_in = judge_run(a.groups, None, a.seed)
    keys = ("rationality", "alignment", "reason_validity", "change_justification", "fluency", "overall")
    print(json.dumps({"counts": model["model_calls"]["by_task"].get("mind.judge"),
                      "mind_wins": {"model": {k: model["judge"][k]["win"] for k in keys},
                                    "stand_in": {k: stand_in["judge"][k]["win"] for k in keys}},
                      "decided_by_coin": {"model": {k: model["judge"][k]["tie_break"] for k in keys},
                                          "stand_in": {k: stand_in["judge"][k]["tie_break"] for k in keys}}},
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
