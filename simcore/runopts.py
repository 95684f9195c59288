"""Names shared by the command line and the runner (no imports of either).

``SWEEP_META`` and ``BACKEND_META`` key the options :mod:`simcore.cli_options` keeps in the
click context for :func:`simcore.launch.launch`; :data:`DEFAULT_MAX_FALLBACK_SHARE` is the
command line's fallback threshold.  Kept here so that the CLI, the study runner and the sweep
import this module and not each other (tests/test_import_cycles.py).
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

#: the sweep options :func:`simcore.launch.launch` takes from the command line or as keywords
SWEEP_OPTIONS = ("grid", "replicates", "resume", "executor", "scheduler", "overwrite", "robustness", "json", "metrics")
