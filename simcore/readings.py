"""How often the readings a run accepted were right, and the check that stops a run whose
readings are wrong too often.

In a simulation the meaning of every utterance is known -- the speaker's intent is an
input of the words task -- so every system scores what its readers read against it:

| system | a reading | right when |
|---|---|---|
| astra | the agent's ``astra.read`` answer to a partner utterance | both items are what the partner meant (an answer's item, the first offer's top item when it mentions one, else nothing) |
| dominance | the listener's ``dominance-read`` answer | it is exactly the utterance said |
| mind | a ``travel.read-v1`` answer (an appraisal, Phase 2a or 3) | the willingness read is in the tone band of the speaker's w (B5; no marker for a speaker without tone) |
| scorable | each signal read by ``scorable-extract`` | it is one of the cues the speaker was asked to give |

Only ACCEPTED readings count: an answer that was refused and replaced by its fallback is a
counted fallback (``model_calls``, ``--max-fallback-share``), never a right or a wrong
reading.  Each study puts the run's totals in ``metrics["readings"]``
(:func:`reading_totals`: ``read``, ``right``, ``accuracy``, ``accuracy`` None when nothing
was read); the terminal shows :func:`readings_line` after the tables.

:func:`check_reading_accuracy` raises :class:`~simcore.errors.ReadingAccuracyTooLow` (exit
status 3, the fallback check's) when the accuracy is below the threshold
(``--min-reading-accuracy``, default :data:`simcore.runopts.DEFAULT_MIN_READING_ACCURACY`)
beyond chance: when even the one-sided 95% upper confidence bound of the accuracy (the exact
Clopper-Pearson bound, the beta quantile of ``scipy.stats.binomtest``'s interval) is below
it.  A run of a few readings with one slip is not stopped by its sample; a run whose hundreds
of readings are mostly wrong is.
"""

from __future__ import annotations

from typing import Any, Mapping

from scipy.special import betaincinv

from simcore.errors import ReadingAccuracyTooLow
from simcore.tables import Num

#: the confidence of the upper bound the check compares with the threshold
CONFIDENCE = 0.95


def reading_totals(read: int, right: int) -> dict:
    """``metrics["readings"]``: readings accepted, of them right, and the share right (None
    when none was accepted)."""
    read, right = int(read), int(right)
    return {"read": read, "right": right, "accuracy": right / read if read else None}


def upper_bound(read: int, right: int) -> float | None:
    """The one-sided :data:`CONFIDENCE` upper bound of the accuracy (exact Clopper-Pearson),
    None when nothing was read."""
    # the inverse regularised incomplete beta: beta.ppf(CONFIDENCE, right + 1, read - right), what
    # scipy.stats.binomtest(right, read, alternative="less").proportion_ci(CONFIDENCE) gives, from
    # scipy.special (scipy.stats costs 1.4 s to import, scipy.special 0.25 s)

    read, right = int(read), int(right)
    if not read:
        return None
    if right >= read:
        return 1.0
    return float(betaincinv(right + 1, read - right, CONFIDENCE))


def readings_line(totals: Mapping[str, Any]) -> str:
    """The line printed after a run's tables: how many accepted readings were right."""
    if not totals["read"]:
        return "readings: none accepted (accuracy n/a)"
    return (f"readings: {totals['read']} accepted, {totals['right']} right ({totals['accuracy']:.2%}; "
            f"{CONFIDENCE:.0%} upper bound {upper_bound(totals['read'], totals['right']):.2%})")


def accuracy_cell(value: float | None, text: str | None = None) -> Num:
    """A table cell of a reading accuracy: ``text`` (the table's own formatting; default four
    decimals), "n/a" when nothing was read (None)."""
    if value is None:
        return Num(None, "n/a")
    return Num(value, text if text is not None else f"{value:.4f}")


def check_reading_accuracy(metrics: Mapping[str, Any], limit: float | None, where: str | None) -> None:
    """Raises :class:`~simcore.errors.ReadingAccuracyTooLow` when the run's accepted readings
    (``metrics["readings"]``) are right less often than ``limit`` beyond chance (see the
    module docstring); called after the outputs are written."""

    totals = metrics.get("readings")
    if limit is None or not totals or not totals.get("read"):
        return
    bound = upper_bound(totals["read"], totals["right"])
    if bound >= limit:
        return
    written = f"; outputs written to {where}" if where else ""
    raise ReadingAccuracyTooLow(
        f"{totals['right']} of {totals['read']} accepted readings ({totals['accuracy']:.2%}; {CONFIDENCE:.0%} upper "
        f"bound {bound:.2%}) were what the speaker meant, below --min-reading-accuracy {limit:g}: the tables "
        f"describe decisions taken on wrong readings{written}")


def sweep_readings(sweep_metrics: Mapping[str, Any]) -> dict | None:
    """The reading totals over every finished run of a sweep (from the per-point means and
    run counts of ``readings.read`` / ``readings.right``), or None when the runs report none."""
    totals = {"read": 0.0, "right": 0.0}
    seen = False
    for point in sweep_metrics.get("points", ()):
        for name in totals:
            stat = (point.get("metrics") or {}).get(f"readings.{name}")
            if stat and stat.get("mean") is not None:
                seen = True
                totals[name] += stat["mean"] * stat["n"]
    if not seen:
        return None
    return reading_totals(round(totals["read"]), round(totals["right"]))


__all__ = ["CONFIDENCE", "reading_totals", "upper_bound", "readings_line", "accuracy_cell",
           "check_reading_accuracy", "sweep_readings"]
