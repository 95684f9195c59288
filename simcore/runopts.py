"""Names shared by the command line and the runner (no imports of either).

``SWEEP_META`` and ``BACKEND_META`` key the options :mod:`simcore.cli_options` keeps in the
click context for :func:`simcore.launch.launch`; :data:`DEFAULT_MAX_FALLBACK_SHARE` and
:data:`DEFAULT_MIN_READING_ACCURACY` are the command line's fallback and reading thresholds.  Kept here so that the CLI, the study runner and the sweep
import this module and not each other (tests/core/test_import_cycles.py).
"""

from __future__ import annotations

SWEEP_META = "simcore.sweep"
BACKEND_META = "simcore.backend"

#: A choice (no paper states one).  An ask falls back only after two unreadable
#: answers in a row (or a failed backend call), so 5% is what a model whose answers
#: are unreadable about 22% of the time independently would give (0.22**2 ~ 0.05);
#: the mock at its default noise falls back on none of the ~21,000 asks of the four
#: small studies measured, and a dead or misconfigured backend on all of them.  Above
#: this the tables describe the fallback rules more than the model.
DEFAULT_MAX_FALLBACK_SHARE = 0.05

#: A choice, from what the mock achieves at its default noise (no paper states one): the
#: share of a run's accepted readings that must be right -- beyond chance: the run stops when
#: even the 95% upper bound of its accuracy is below this (simcore.readings).  The mock on each
#: system's default study (``simcore run SYSTEM``, seed 0; docs/users/real-models.md, "Parsed is not
#: right"): astra 0.957 of 19,782 readings (0.940-0.972 per pairing: it blurs a tenth of the
#: partner's answers and misreads 3% on purpose), dominance 1.0 of 11,120, scorable 1.0 of
#: 187,026 signals, mind 0.900 of 17,741 (its mind variant 0.793: its tone slips a band 20% of
#: the time on purpose; appraisal-only 1.0).  0.6 leaves the mock's lowest figure 0.19 above it;
#: a reader wrong on most answers that pass the checks (adversarial-v1 at share 1.0: 0.00-0.15 on
#: every system) is far below it.
DEFAULT_MIN_READING_ACCURACY = 0.6

#: the sweep options :func:`simcore.launch.launch` takes from the command line or as keywords
SWEEP_OPTIONS = ("grid", "replicates", "resume", "executor", "scheduler", "overwrite", "robustness", "json", "metrics")
