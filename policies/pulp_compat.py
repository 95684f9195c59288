"""The few places where PuLP 3 and PuLP 4 differ, for :class:`policies.lp.PulpSolver`.

Supported: PuLP 3.0.2 and later, 3.x and 4.x (``pulp>=3.0.2`` in setup.cfg; PuLP 4
needs Python 3.12+, so pip picks 3.x on 3.10/3.11 and 4.x on 3.12/3.13).

=================  ==============================  ==================================
                   PuLP 3.x                        PuLP 4.x
=================  ==============================  ==================================
new variable       ``LpVariable(name, lo, up,      ``LpVariable`` wraps a solver-side
                   cat=...)``; from 3.3 also       object: only
                   ``prob.add_variable(...)``      ``prob.add_variable(...)``
``prob.solve()``   returns the status number       returns an ``LpSolveStats`` whose
                                                   ``.status`` is that number
CBC binary         bundled in the wheel            not shipped (optional ``cbcbox``)
HiGHS              ``pulp.HiGHS`` with ``highspy``  the same
=================  ==============================  ==================================

HiGHS (``highspy``, a PyPI wheel for every platform PuLP supports) is therefore the
engine that works everywhere; it is declared in setup.cfg.  The status number of an
optimal solve is 1 in both versions (``LpStatusOptimal``, ``LpSolveStatus.Optimal``).
"""

from __future__ import annotations

import os
import sys
import threading
import warnings

import pulp

OPTIMAL = 1


def add_variable(prob, name: str, low, up, cat: str):
    """A new variable of ``prob`` (``cat``: "Continuous", "Integer" or "Binary")."""
    add = getattr(prob, "add_variable", None)
    if add is not None:
        return add(name, low, up, cat=cat)

    return pulp.LpVariable(name, low, up, cat=cat)


def solved_optimal(result) -> bool:
    """Whether ``prob.solve(...)``'s return value (3.x: a number, 4.x: stats) says optimal."""
    status = getattr(result, "status", result)
    if getattr(result, "has_solution", True) is False:
        return False
    return int(status) == OPTIMAL


_BANNER_LOCK = threading.Lock()
_banner_done = False


def _silence_highs_banner() -> None:
    """HiGHS prints a two-line banner on the process's standard output (file descriptor 1, from
    C++) the first time a ``highspy.Highs`` object is made, whatever ``msg`` says; simcore's
    stdout is its tables.  The first object is made here once with descriptor 1 pointed at
    the null device (flushed before it is restored); later objects print nothing."""
    global _banner_done
    with _BANNER_LOCK:
        if _banner_done:
            return
        try:
            import highspy
        except ImportError:
            return
        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                highspy.Highs()
                try:
                    import ctypes

                    ctypes.CDLL(None).fflush(None)  # C stdio buffers go to the null device too
                except (OSError, AttributeError):
                    pass
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        _banner_done = True


def make_engine(engine: str, time_limit: float | None = None):
    """The PuLP solver object for ``engine`` ("highs" or "cbc"), quiet and with no MIP gap."""

    if engine == "highs":
        _silence_highs_banner()
        solver = pulp.HiGHS(msg=False, gapRel=0, threads=1, timeLimit=time_limit)
        if not solver.available():
            raise RuntimeError("the pulp solver backend needs the highspy package "
                               "(a dependency of simcore): pip install highspy")
        return solver
    if engine == "cbc":
        cmd = getattr(pulp, "PULP_CBC_CMD", None)
        # CBC's integer preprocessing returns a wrong optimum on some of these models
        # (found by hypothesis: minimise 16 x0 + 4 x1 + x2 s.t. 29.5 <= 6 x0 + 6 x1 <= 30.5,
        # x in 0..3, gives 56 instead of 44), so it is switched off.
        kwargs = {"msg": False, "gapRel": 0, "options": ["preprocess off"]}
        if time_limit:
            kwargs["timeLimit"] = time_limit
        solver = cmd(**kwargs) if cmd is not None else None
        if solver is None or not solver.available():
            raise RuntimeError("this PuLP has no bundled CBC (PuLP 4 ships none); use the HiGHS engine")
        return solver
    raise ValueError(f"unknown pulp engine {engine!r}")


def cbc_available() -> bool:

    with warnings.catch_warnings():  # PuLP 3.3 warns that PULP_CBC_CMD goes away in 4.0
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            make_engine("cbc")
        except RuntimeError:
            return False
    return True
