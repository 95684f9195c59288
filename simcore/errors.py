"""The library's own exceptions.

Every error a user can cause (a bad file, a bad option, an unknown id) is a
:class:`SimcoreError` whose message names what is wrong; the CLI prints it as one
line and exits with status 2.  Model output that cannot be read raises
:class:`ParseError`, which callers turn into a counted fallback.  A policy that makes
an illegal move (:class:`IllegalMove`) is a bug in simcore, not bad input: exit 1.

Every class pickles with its fields (a process pool sends a worker's exception back to
the parent by pickling it), whatever its ``__init__`` takes.
"""

from __future__ import annotations


def _rebuild(cls, args: tuple, state: dict) -> BaseException:
    """Unpickle an exception without calling its ``__init__`` (see :class:`SimcoreError`)."""
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(state)
    return exc


class SimcoreError(Exception):
    """Base class of every error simcore raises on purpose.

    Picklable whatever a subclass's ``__init__`` takes: the default exception pickling
    calls ``cls(*self.args)``, which fails for ``InputError(source, field, problem)``
    (its ``args`` hold only the joined message), so a process-pool worker's error
    became ``BrokenProcessPool`` in the parent.  ``__reduce__`` rebuilds the instance
    from its ``args`` and attributes instead, without calling ``__init__``.
    """

    def __reduce__(self):
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class InputError(SimcoreError):
    """A scenario/game/domain file or an option is invalid.

    The message reads ``<source>: <field>: <problem>`` so the user can find the
    offending spot without a traceback.
    """

    def __init__(self, source: str, field: str, problem: str):
        self.source = str(source)
        self.field = str(field)
        self.problem = str(problem)
        where = f"{self.source}: {self.field}" if self.field else self.source
        super().__init__(f"{where}: {self.problem}")


class UnknownIdError(SimcoreError, KeyError):
    """A registry id (scenario, policy, backend, ...) that is not registered."""

    def __init__(self, kind: str, given: str, valid):
        self.kind, self.given, self.valid = kind, given, sorted(valid)
        listing = ", ".join(self.valid) or "(none registered)"
        SimcoreError.__init__(self, f"unknown {kind} id {given!r}; valid: {listing}")

    def __str__(self) -> str:  # KeyError would quote the message otherwise
        return self.args[0]


class ParseError(SimcoreError):
    """Model output that the task's parser cannot read."""

    def __init__(self, task: str, problem: str, text: str = ""):
        self.task, self.problem, self.text = task, problem, text
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(f"{task}: cannot parse model output ({problem}): {shown!r}")


class UnrecognisedPrompt(SimcoreError):
    """The mock backend was sent a prompt that no registered task template produced."""


class IllegalMove(SimcoreError):
    """A policy produced an action the protocol does not allow.

    Every policy is an exact rule-based engine, so this is a bug in simcore -- never the
    user's bad input, and never a model's answer (a protocol checks what a model said
    itself and turns an illegal reading or offer into a counted fallback).  The
    protocol names the ``policy``, its ``move`` and the ``rule`` the move breaks; the
    CLI prints it as one line with exit status :attr:`exit_code` (1) and a request to
    report it, the traceback only when ``SIMCORE_DEBUG`` is set.  Raised with the rule
    alone (``IllegalMove(rule)``) by the legality checks, whose callers add the rest.
    """

    exit_code = 1

    def __init__(self, rule: str, *, policy: str = "", move: object = None):
        self.rule, self.policy, self.move = str(rule), str(policy), move
        if policy:
            super().__init__(f"policy {policy} made an illegal move {move!r}: {rule}")
        else:
            super().__init__(self.rule)


class AgentError(SimcoreError):
    """A user's agent failed in its seat: it made an illegal move, or its ``act`` raised.
    The fault is that agent's, not simcore's and not the input files': the message names the
    agent's class, the seat and the decision asked, and the CLI exits with status 2."""

    def __init__(self, agent: str, seat: str, step: str, problem: str):
        self.agent, self.seat, self.step, self.problem = str(agent), str(seat), str(step), str(problem)
        super().__init__(f"your agent {self.agent} in seat {self.seat!r} ({self.step}): {self.problem}")


class BackendError(SimcoreError):
    """A chat backend failed (network, HTTP status, malformed response)."""


class BackendFatal(SimcoreError):
    """A backend failure after which the run's results would mean nothing: the server
    refused the credentials (HTTP 401/403), nothing listens at the address, too many
    calls in a row failed, or a replayed cassette lacks a request.  Unlike
    :class:`BackendError` it is never turned into a fallback: the run stops, and the
    CLI prints the one-line message and exits with :attr:`exit_code`."""

    exit_code = 3

    def __init__(self, message: str):
        super().__init__(message)


class FallbackShareExceeded(SimcoreError):
    """The run finished, but more of its model answers were replaced by the rule-based
    fallback than ``--max-fallback-share`` allows; its outputs are written, the exit
    status is :attr:`exit_code` so that CI notices."""

    exit_code = 3

    def __init__(self, message: str):
        super().__init__(message)


class ReadingAccuracyTooLow(SimcoreError):
    """The run finished, but the readings it accepted were what the speaker meant less often
    than ``--min-reading-accuracy`` asks (:mod:`simcore.readings`); its outputs are written,
    the exit status is :attr:`exit_code`, the fallback check's, so that CI notices."""

    exit_code = 3

    def __init__(self, message: str):
        super().__init__(message)
