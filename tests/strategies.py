"""The hypothesis strategies of simcore's tests: the package's own (simcore.strategies)."""

from simcore.strategies import *  # noqa: F401,F403
from simcore.strategies import _replace_somewhere, model_answers, words_of  # noqa: F401
