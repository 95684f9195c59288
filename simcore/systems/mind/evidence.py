"""What MIND's LLM roles are built from and the paper's claims measured on a run: the
mind.base role (the Base agents' decisions, B1-B4), the mind.judge role (Table 4's judge,
E16-E17) and the mind.reader role (the Phase-2a appraisal's reading, Table 3), each with its
stand-in's evidence and family (``simcore roles mind``), and the headline claims with the
passage they reproduce."""

from __future__ import annotations

from scipy import stats

from simcore.roles import Claim, Evidence, Role, StandIn
from simcore.systems.mind.registry import BASE_AGREE_MAX_W

#: the paper's Table 3 (ToM inference accuracy of MIND's appraisal) and, per figure, the tone_noise
#: whose figure is nearest it on the 0.05 grid of `simcore run mind --calibrate` (default study,
#: seed 0, measured 2026-11-24): the reader family
TOM_PAPER = {"MAE": 1.27, "pearson": 0.69, "acc1": 0.677, "acc2": 0.902}
READER_FITS = {"acc2": 0.20, "acc1": 0.35, "pearson": 0.40, "MAE": 0.45}


def _res(m, variant, key):
    r = (m.get("results") or {}).get(variant) or {}
    return r.get(key)


def _sub(a, b):
    return None if a is None or b is None else a - b


def _paired(m, key, flip=False):
    """MIND minus Base's 95% interval on ``key`` (``results.mind.ci95_minus_base``); Base minus
    MIND with ``flip``."""
    span = (_res(m, "mind", "ci95_minus_base") or {}).get(key)
    if span is None:
        return None
    return [-span[1], -span[0]] if flip else list(span)


def _judge_interval(m):
    """The judge's MIND win share minus 1/2 with its 95% Clopper-Pearson interval (scipy.stats)."""
    j = m.get("judge") or {}
    win, n = (j.get("overall") or {}).get("win"), j.get("n")
    if win is None or not n:
        return None
    ci = stats.binomtest(round(win * n), n).proportion_ci(0.95)
    return [float(ci.low) - 0.5, float(ci.high) - 0.5]


def _one_minus(value):
    return None if value is None else 1.0 - value


def _roles():
    base = Role(
        id="mind.base", system="mind", llm="gpt-4.1-mini (temperature 0.4, F.1), prompted with Tables B1-B4",
        passage="B.1: the Multi-Agent Debate baseline, every decision an LLM's answer to prompts B1-B4",
        stand_in="base-v3",
        parameters=(
            Evidence("agree_max_w", BASE_AGREE_MAX_W,
                     "Base's own Table 1 Debate Ratio (82.71%): of 0..7, the threshold whose Base DR is nearest "
                     "(3: 87.8%, 2: 75.1%; default study, seed 0)"),
            Evidence("reasons", "b3", "B1 'Do NOT mention any preference strength', B3 'reasonable compromise', "
                                      "B4 'best for a majority' / 'balances the group's needs'"),
            Evidence("dissent_value", "own", "B3 'Act as a representative of your private preferences'"),
            Evidence("proposer_keeps_at_w", None, "B4's context gives the proposer no importance"),
        ),
        built_from="prompts B1-B4 and Base's own Table 1 row (DR 82.71%), the role's own figure",
        left_to_test="every MIND-vs-Base comparison (Table 1 DHR, S_total, F, High-w Hit; Table 2's DR by size; "
                     "Table 4's judge)",
        family=tuple(StandIn(name, {"agree_max_w": k}, f"base-v3 with agree_max_w={k}", ev) for name, k, ev in (
            ("tough", 1, "agrees below its own value only at w 1"),
            ("firm", 2, "the threshold just below the fitted one"),
            ("fitted", BASE_AGREE_MAX_W, "nearest Base's own Table 1 DR"),
            ("v2-choice", 5, "base-v2's choice: the lower half of the 1-10 scale"),
            ("soft", 7, "agrees below its own value up to w 7"))),
        default="fitted", task="mind.base",
        toughness=lambda m: _one_minus(_res(m, "base", "DR")),
        toughness_text="1 - Base's DR (the share of items a Base that agrees less leaves to the fallback)")
    judge = Role(
        id="mind.judge", system="mind", llm="gpt-4.1 (2025-04-14), Tables E16-E17",
        passage="§4.1 'We utilize gpt-4.1-2025-04-14 to evaluate the linguistic and strategic quality of dialogs'; "
                "E16 (criteria), E17 (inputs: version, final constraints, conversation)",
        stand_in="simcore.metrics.mind_judge (blind)",
        parameters=(
            Evidence("inputs", "version, final constraints, conversation", "E17"),
            Evidence("criteria", "E16's five, one test for both plans", "E16"),
            Evidence("overall", "majority of the five criteria", "E16 'decide who wins (A or B), then give the "
                                                                "final overall winner'"),
        ),
        built_from="E16's criteria and E17's inputs only",
        left_to_test="Table 4's win rates (Rationality 68.8%, Fluency 72.4%, Overall 68.3%)",
        family=(
            StandIn("blind", {"judge": "blind", "judge_overall": "all"}, "blind judge, overall of all five",
                    "E16-E17 as written"),
            StandIn("blind-no-fluency", {"judge": "blind", "judge_overall": "no-fluency"},
                    "blind, overall of the four criteria other than fluency",
                    "fluency scores the mock's templates, not a policy's choice"),
            StandIn("blind-outcome", {"judge": "blind", "judge_overall": "outcome"},
                    "blind, overall of Rationality and Preference Alignment",
                    "a judge that weighs the result ('not just the final outcome' read the other way)"),
            StandIn("blind-process", {"judge": "blind", "judge_overall": "process"},
                    "blind, overall of Reason-Value Validity, Opinion Change and Fluency",
                    "E16 'Evaluate based on the QUALITY of the negotiation process'"),
            StandIn("informed", {"judge": "v2", "judge_overall": "all"},
                    "the v2 judge: reads each member's alpha and knows every reason B3-B4 give Base",
                    "a judge told the alphas E16's criteria 1-2 ask about (E17 does not give them)"),
        ),
        default="blind", task="mind.judge",
        toughness=lambda m: _one_minus(((m.get("judge") or {}).get("overall") or {}).get("win")),
        toughness_text="1 - the judge's overall MIND win share")
    reader = Role(
        id="mind.reader", system="mind", llm="gpt-4.1-mini, Table B7 (Phase 2a appraisal) and the tone it reads",
        passage="B7 'GUESSED_OPPONENT_ALPHA (1-10): Based on linguistic intensity'; B5-B6 the tone it is read from",
        stand_in="the mock's tone_noise (mockllm/tone.py)",
        parameters=(Evidence("tone_noise", READER_FITS["acc2"],
                             "Table 3's Acc(+-2) 90.2%, the figure §4.2 puts first ('a high accuracy of 90.2% "
                             "within a margin of +-2'), on the grid 0, 0.1, 0.2, 0.25, ... 0.5"),),
        built_from="Table 3 (the role's own figure): Acc(+-2)",
        left_to_test="Table 3's MAE, r and Acc(+-1) (side by side in docs/systems/mind.md); every Table 1 comparison",
        family=tuple(StandIn(name, {"tone_noise": p}, f"tone_noise {p:g}", ev) for name, p, ev in (
            ("exact", 0.0, "a perfect reader (no figure of the paper)"),
            ("acc2", READER_FITS["acc2"], "fitted to Table 3's Acc(+-2) 90.2%"),
            ("acc1", READER_FITS["acc1"], "fitted to Table 3's Acc(+-1) 67.7%"),
            ("pearson", READER_FITS["pearson"], "fitted to Table 3's r 0.69"),
            ("mae", READER_FITS["MAE"], "fitted to Table 3's MAE 1.27"))),
        default="acc2", backend_task="travel.read-v1",
        toughness=lambda m: _one_minus(((m.get("tom") or {}).get("mind") or {}).get("acc2")),
        toughness_text="1 - the reader's Acc(+-2) on MIND's appraisals")
    return (base, judge, reader)


def _claims():
    def judge_win(m):
        j = m.get("judge") or {}
        win = (j.get("overall") or {}).get("win")
        return None if win is None else win - 0.5

    return (
        Claim("dhr", "MIND's Debate Hit-Rate is above Base's", "34.65% vs 26.51% (Table 1)",
              lambda m: _sub(_res(m, "mind", "DHR"), _res(m, "base", "DHR")), interval=lambda m: _paired(m, "DHR")),
        Claim("dr", "MIND's Debate Ratio is above Base's", "93.18% vs 82.71% (Table 1)",
              lambda m: _sub(_res(m, "mind", "DR"), _res(m, "base", "DR")), interval=lambda m: _paired(m, "DR")),
        Claim("s_total", "MIND's Total Satisfaction is above Base's", "19.96 vs 18.03 (Table 1)",
              lambda m: _sub(_res(m, "mind", "S_total"), _res(m, "base", "S_total")),
              interval=lambda m: _paired(m, "S_total")),
        Claim("high_w_hit", "MIND's High-w Hit is above Base's", "35.08%, +20.5 points (§4.2)",
              lambda m: _sub(_res(m, "mind", "high_w_hit"), _res(m, "base", "high_w_hit")),
              interval=lambda m: _paired(m, "high_w_hit")),
        Claim("fidelity", "MIND's Total Fidelity is below Base's", "23.87% vs 25.80% (Table 1)",
              lambda m: _sub(_res(m, "base", "F"), _res(m, "mind", "F")), interval=lambda m: _paired(m, "F", True)),
        Claim("judge", "the judge prefers MIND overall (win share above 1/2)", "68.3% (Table 4)", judge_win,
              interval=_judge_interval),
    )


ROLES = _roles()
CLAIMS = _claims()
