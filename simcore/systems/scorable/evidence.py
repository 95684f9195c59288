"""What the scorable system's LLM roles are built from and the seed's claims measured on a run:
the scorable.negotiator role (every party's proposals; Base-LLM's "agents negotiate based on
prompts") and the scorable.llm_pe role (LLM-PE's direct estimate), each with its stand-in's
evidence and family (``simcore roles scorable``), and the headline claims of Tables 1 and 2."""

from __future__ import annotations

from simcore.protocols.scorable import (AMEND_FROM_LOGS, ASPIRATION_FROM_LOGS, FINAL_FROM_LOGS, FIT_KNOWLEDGE,
                                        FIT_THRESHOLD)
from simcore.metrics.proportions import newcombe95
from simcore.roles import Claim, Evidence, Role, StandIn
from simcore.systems.scorable.registry import SYSTEM


def _r(m, method, key):
    r = (m.get("results") or {}).get(method) or {}
    v = r.get(key)
    return v.get("avg") if isinstance(v, dict) else v


def _d(a, b):
    return None if a is None or b is None else a - b


def _far_interval(m, a, b):
    """The 95% interval of method ``a``'s FAR minus method ``b``'s: Newcombe's hybrid score
    interval for a difference of two proportions, from each method's Wilson interval
    (``scipy.stats.binomtest``) over its trials; the methods' trials are treated as
    independent (no pairing is recorded), which widens the interval when they are not."""
    res = m.get("results") or {}
    ra, rb = res.get(a) or {}, res.get(b) or {}
    if not all(isinstance(r.get("FAR"), (int, float)) and r.get("trials") for r in (ra, rb)):
        return None
    na, nb = int(ra["trials"]), int(rb["trials"])
    return list(newcombe95(round(ra["FAR"] * na), na, round(rb["FAR"] * nb), nb))


def _recorded(claim_id):
    """The claim's 95% interval as the study records it (``claim_intervals``, paired by trial:
    :func:`simcore.metrics.scorable.claim_intervals`)."""
    return lambda m: (m.get("claim_intervals") or {}).get(claim_id)


def _best_other(m):
    res = m.get("results") or {}
    others = {k: v for k, v in res.items() if k != "proposed-all" and isinstance(v.get("FAR"), (int, float))}
    return max(others, key=lambda k: others[k]["FAR"]) if others else None


def _roles():
    start, end = ASPIRATION_FROM_LOGS
    negotiator = Role(
        id="scorable.negotiator", system=SYSTEM,
        llm="GPT-4.1 (sec. 4.1), every party in every method; Base-LLM: 'the original implementation where agents "
            "negotiate based on prompts' (Abdelnabi et al. 2024)",
        passage="sec. 4.1 'Base-LLM: The original implementation where agents negotiate based on prompts without "
                "explicit preference estimation'; 'For all agents, GPT-4.1 was employed'",
        stand_in="scorable-v1 (policies/scorable.py: aspiration, candidates, acceptance prediction, echo)",
        parameters=(
            Evidence("aspiration", "best own score -> threshold (start 1, end 0)",
                     "choice (the time-dependent conceder the observers assume, sec. 3.1); the benchmark's GPT-4 "
                     f"logs fit {start} -> {end}"),
            Evidence("candidates", "any deal (amend_max_issues None)",
                     f"choice; the logs change a median of {AMEND_FROM_LOGS} issues of the deal on the table"),
            Evidence("echo", "j's deals only (echo_words False)", "sec. 2 'the history of d_t and u_t'"),
            Evidence("implicit_knowledge", "0 (knows nothing of the others' tables without an estimator)",
                     f"choice; fitted to the logs' per-proposal statistics: {FIT_KNOWLEDGE} (with the threshold "
                     f"rule at {FIT_THRESHOLD})"),
            Evidence("final_aspiration", "the schedule's end",
                     f"choice; the logs' final proposals keep a median {FINAL_FROM_LOGS} of the range"),
            Evidence("acceptance_rule", "share (the best half of deals by the estimate)",
                     "choice; 'learnt' (the responsive member): the least valued deal a party has put on the table, "
                     "since in the logs 684 of 685 counters meet their proposer's threshold"),
        ),
        built_from="sec. 2 and 4.1, and (the 'logs' members) the Base-LLM role's own proposals in the public "
                   "benchmark's GPT-4 logs of this game (benchmarks/base_llm_logs.py)",
        left_to_test="Table 1 (every method's FAR/PAR/LAR, Base-LLM's 0.368/0.764/0.974 among them) and Table 2",
        task="scorable.negotiator",
        family=(
            StandIn("v1", {}, "from the best own score to the threshold, any deal, deals only", "no evidence"),
            StandIn("amend", {"amend_max_issues": AMEND_FROM_LOGS},
                    f"v1, proposing within {AMEND_FROM_LOGS} changes of the deal on the table",
                    "the logs: a median of 2 issues changed"),
            StandIn("words", {"echo_words": True}, "v1, also using the others' words about single options",
                    "sec. 2 'the history of d_t and u_t'"),
            StandIn("logs", {"aspiration_start": start, "aspiration_end": end, "amend_max_issues": AMEND_FROM_LOGS,
                             "echo_words": True},
                    f"aspiration {start} -> {end}, within {AMEND_FROM_LOGS} changes, using words",
                    "the logs' linear fit of the share each proposal kept above the threshold, and their amends"),
            StandIn("logs-fit", {"aspiration_start": start, "aspiration_end": end, "amend_max_issues": AMEND_FROM_LOGS,
                                 "echo_words": True, "final_aspiration": FINAL_FROM_LOGS,
                                 "acceptance_rule": "threshold", "assumed_threshold": FIT_THRESHOLD,
                                 "implicit_knowledge": FIT_KNOWLEDGE},
                    f"logs, final proposal at {FINAL_FROM_LOGS}, knowing {FIT_KNOWLEDGE} of the others' tables, "
                    f"predicting acceptance at {FIT_THRESHOLD}",
                    "the logs as for 'logs', their final proposals' median share, and the two unobserved numbers "
                    "fitted to the logs' per-proposal acceptance (0.734 of the others) and pass share (0.349) on "
                    "the logs' own game (benchmarks/fit_base_llm_knowledge.py)"),
            StandIn("responsive", {"aspiration_start": start, "aspiration_end": end,
                                   "amend_max_issues": AMEND_FROM_LOGS, "echo_words": True,
                                   "final_aspiration": FINAL_FROM_LOGS, "acceptance_rule": "learnt"},
                    f"logs, final proposal at {FINAL_FROM_LOGS}, predicting that each party accepts what it values "
                    "at least as much as the least valued deal it has itself put on the table",
                    "the logs as for 'logs' and their final proposals' median; the learnt acceptance line from how "
                    "the logs' parties answer the deal on the table: 684 of 685 counters and 106 of 109 unchanged "
                    "re-proposals are deals their proposer accepts (benchmarks/base_llm_responses.py); the share "
                    "rule before a party has proposed is a choice"),
            StandIn("threshold-floor", {"aspiration_start": 0.0, "aspiration_end": 0.0,
                                        "amend_max_issues": AMEND_FROM_LOGS, "echo_words": True},
                    "any deal at or above the threshold, within 2 changes, using words",
                    "the benchmark's prompt: 'reach an agreement as long as your minimum score is met'"),
        ),
        default="v1")
    llm_pe = Role(
        id="scorable.llm_pe", system=SYSTEM, llm="GPT-4.1 (sec. 4.1)",
        passage="sec. 4.1 'LLM-PE: A method where an LLM directly infers the numerical values of the opponents' "
                "score functions s without a structured Bayesian framework'",
        stand_in="the mock's scorable-estimate answer (pe_forget 0.3, pe_jitter 0.15)",
        parameters=(Evidence("pe_forget", 0.3, "choice: sec. 1 'struggle to maintain inferential consistency "
                                               "during prolonged interactions'"),
                    Evidence("pe_jitter", 0.15, "choice: the same; a table entry off by N(0, 10)")),
        built_from="sec. 1's description of LLMs' inconsistency; no figure",
        left_to_test="Table 1's LLM-PE rows and Table 2's LLM-PE MSE (162.8)",
        family=tuple(StandIn(name, {"pe_forget": f, "pe_jitter": j}, f"pe_forget {f}, pe_jitter {j}", ev)
                     for name, f, j, ev in (("exact", 0.0, 0.0, "a perfect reader of the dialogue"),
                                            ("light", 0.15, 0.05, "half the default noise"),
                                            ("default", 0.3, 0.15, "the default choice"),
                                            ("heavy", 0.5, 0.3, "about twice the default noise"))),
        default="default", backend_task="scorable-estimate")
    return (negotiator, llm_pe)


def _claims():
    def best_far(m):
        res = m.get("results") or {}
        if "proposed-all" not in res or len(res) < 2:
            return None
        return res["proposed-all"]["FAR"] - max(v["FAR"] for k, v in res.items() if k != "proposed-all")

    return (
        Claim("proposed_all_highest_far", "Proposed (all) has the highest FAR of the seven", "0.618 (Table 1)",
              best_far, interval=lambda m: (None if _best_other(m) is None
                                            else _far_interval(m, "proposed-all", _best_other(m)))),
        Claim("proposed_all_above_base_llm", "Proposed (all) reaches full agreement more often than Base-LLM",
              "0.618 vs 0.368 (Table 1)", lambda m: _d(_r(m, "proposed-all", "FAR"), _r(m, "base-llm", "FAR")),
              interval=lambda m: _far_interval(m, "proposed-all", "base-llm")),
        Claim("all_above_p1", "Mutual estimation beats p1 alone (Proposed FAR)", "0.618 vs 0.462 (Table 1)",
              lambda m: _d(_r(m, "proposed-all", "FAR"), _r(m, "proposed-p1", "FAR")),
              interval=lambda m: _far_interval(m, "proposed-all", "proposed-p1")),
        Claim("mse_below_base_om", "Proposed's MSE is below Base-OM's", "158.9 vs 188.5 (Table 2)",
              lambda m: _d(_r(m, "base-om-p1", "MSE"), _r(m, "proposed-p1", "MSE")),
              interval=_recorded("mse_below_base_om")),
        Claim("mse_below_llm_pe", "Proposed's MSE is below LLM-PE's", "158.9 vs 162.8 (Table 2)",
              lambda m: _d(_r(m, "llm-pe-p1", "MSE"), _r(m, "proposed-p1", "MSE")),
              interval=_recorded("mse_below_llm_pe")),
    )


ROLES = _roles()
CLAIMS = _claims()
