"""Test-suite configuration.

Under CI (the ``CI`` environment variable set, as ``.ci/run`` runs) Hypothesis is
derandomized: every run draws the same examples, so a CI result is reproducible.
Locally it explores new examples each run.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
