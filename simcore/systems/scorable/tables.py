"""The scorable study's tables: Table 1's analogue (outcomes per method), Table 2's (p1's final
estimation error) and p1's error as the session goes on."""

from __future__ import annotations

from typing import Optional

from simcore.readings import accuracy_cell
from simcore.systems.scorable.methods import METHODS
from simcore.tables import Table


def table_outcomes(config, game, results) -> Table:
    return Table("scorable_outcomes", f"Table 1 analogue -- negotiation outcomes ({game.id}, "
                 f"{config.trials} trials per method, seed {config.seed})",
                 ("method", "label", "FAR", "PAR", "LAR", "fallbacks", "readings_right", "signals_read",
                  "cues_read"),
                 [(m, METHODS[m][0], results[m]["FAR"], results[m]["PAR"], results[m]["LAR"], results[m]["fallbacks"],
                   accuracy_cell(results[m]["readings"]["precision"]), results[m]["readings"]["read"],
                   results[m]["readings"]["recall"]) for m in config.methods],
                 note="FAR: final deal accepted by all; PAR: final deal passes (>= N-1 incl. veto holders); "
                      "LAR: some deal of the session passes.  readings_right: of the signals read from the words "
                      "in the answers the checks accepted, the share the speaker was asked to give; signals_read: "
                      "how many were read (a refused answer is a counted fallback and reads none); cues_read: of "
                      "the cues it was asked to give, the share read back.")


def table_mse(config, others, results) -> Optional[Table]:
    """Table 2's analogue, None when no configured method has p1 estimate."""
    rows = [(m, METHODS[m][0], *[results[m]["MSE"].get(p) for p in others], results[m]["MSE"]["avg"])
            for m in config.methods if results[m]["MSE"]]
    if not rows:
        return None
    return Table("scorable_mse", "Table 2 analogue -- estimation error (MSE per table entry, "
                 "0-100 scale) of p1's final estimates", ("method", "label", *others, "avg"), rows)


def table_mse_by_turn(config, game, results) -> Optional[Table]:
    """p1's error after every sixth of the session, None when no method traces it."""
    traced = [m for m in config.methods if results[m].get("MSE_by_turn")]
    if not traced:
        return None
    T = game.turns + 1
    cols = sorted(set(range(0, T + 1, max(1, T // 6))) | {T})
    return Table("scorable_mse_by_turn", "MSE of p1's estimates as the session goes on "
                 "(average over the other parties and over trials; column = turn)",
                 ("method", "label", *[f"t{t}" for t in cols]),
                 [(m, METHODS[m][0], *[results[m]["MSE_by_turn"][t] for t in cols]) for m in traced])
