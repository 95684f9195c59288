"""LLM-PE: the language layer's direct estimate of a party's score table (no Bayes).

=====================  =========================================  =====================================
rule                   what it does                               source
=====================  =========================================  =====================================
direct estimate        ask the ``scorable-estimate`` task for     seed sec. 4.1 "LLM-PE: ... an LLM
                       party j's table                            directly infers the numerical values
                                                                  of the opponents' score functions s
                                                                  without a structured Bayesian
                                                                  framework"
what it is given       only the public record: the deals j        seed sec. 2 "parties infer others'
                       proposed and the signals read from j's     preferences from the history of d_t
                       words, each tagged with its turn           and u_t"
checked                one score list per issue, of the right     choice: model output is never trusted
                       length, clipped to 0..100                  (project rule)
fallback               a table that does not fit, or two          choice: the same table a Bayesian
                       unreadable answers: the uniform-prior      estimator holds before any
                       mean table, counted                        observation, so the run continues
=====================  =========================================  =====================================

The mock's own answer (``mockllm.scorable.direct_estimate``) and its noise (``pe_forget``,
``pe_jitter``) are documented in docs/systems/scorable.md.  Like the Bayesian posterior, this
estimate depends only on the public record, so a session's model
(:mod:`simcore.systems.scorable.model`) asks once per party per turn and every observer reads
the shared answer.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from mockllm.client import ModelClient
from mockllm.scorable import ESTIMATE
from policies.bayes import shape_values
from scenarios.scorable import Game
from simcore import caches


def prior_mean_table(game: Game) -> tuple[np.ndarray, ...]:
    """100 * E[w_m] E[v_m(o)] under the uniform prior of :mod:`policies.bayes`."""

    M = game.n_issues
    return tuple(100.0 / M * shape_values(k).mean(axis=0) for k in game.option_counts)


def issues_context(game: Game) -> list[dict]:
    """The issues as the language tasks see them (one shared list per game; do not modify)."""
    return _issues_context(game)


@caches.lru("policies.llm_pe: a game's issues as the prompt states them", maxsize=16)
def _issues_context(game: Game) -> list[dict]:
    return [{"name": i.name, "title": i.title, "options": list(i.options)} for i in game.issues]


def pe_estimate(client: ModelClient, game: Game, party: int, deals: Sequence[Sequence[int]],
                signals: Sequence[dict], rng: np.random.Generator) -> tuple[tuple[np.ndarray, ...], bool]:
    """(estimate per issue on the 0-100 scale, True if the model's table was used)."""
    fallback = object()
    answer = client.ask(ESTIMATE, rng, fallback=lambda: fallback, party=game.parties[party].name,
                        issues=issues_context(game), deals=[list(game.deal_ids(d)) for d in deals],
                        signals=list(signals))
    if answer is not fallback:
        rows = []
        for iss in game.issues:
            row = answer.get(iss.name)
            if row is None or len(row) != len(iss.options):
                break
            rows.append(np.clip(np.asarray(row, dtype=float), 0.0, 100.0))
        else:
            return tuple(rows), True
        client.stats.fallbacks += 1
        client.stats._bump(ESTIMATE.id, "fallbacks")
    return prior_mean_table(game), False
