"""Exceptions raised by the saltus package.

Every exception derives from :class:`SaltusError`. A model file that does not load raises a
:class:`ModelError` subclass chosen by the kind of its first problem; the exception carries every
problem found (``diagnostics``: file, line, column, message), as ``saltus check`` lists them. A run
that fails raises :class:`RunFailedError` carrying the engine's status and message and the run
itself (its trajectory up to the failure).
"""

import shlex
from collections import namedtuple

Diagnostic = namedtuple("Diagnostic", "file line column message")
Diagnostic.__doc__ = "One problem of a model file: where (1-based line and column; 0 when unknown) and what."


class SaltusError(Exception):
    """Base class of every saltus exception."""


class EngineError(SaltusError):
    """The engine refused its input (a bad sweep specification, an unwritable folder, ...)."""


class CommandError(EngineError):
    """An analysis command (``saltus.orbit``, ...) refused its model or options, or could not
    write its folder: the command's exit status 1 or 3, or a status of the command line's
    parser (an unknown or malformed option).

    Attributes: ``command`` (the arguments of the equivalent ``saltus`` command line),
    ``status`` (its exit status) and ``message`` (what the command printed to stderr).
    """

    def __init__(self, command, status, message):
        self.command = list(command)
        self.status = status
        self.message = message.strip()
        line = shlex.join(["saltus", *self.command])
        super().__init__(f"{self.message}\n({line}: exit status {status})")


class CallableError(EngineError):
    """A Python callable of a :class:`saltus.System` raised, or returned what its role cannot use
    (another count of values than the mode's states, something that is not a number, a guard
    value or a reset's x+ that is not finite). The run stops there; no run is returned, so
    nothing of it can be written.

    Attributes: ``callable`` (its ``__qualname__``), ``role`` (``"the flow of mode 'flight'"``,
    ``"the guard 'impact' of mode 'flight'"``, ``"the reset of guard 'impact' of mode
    'flight'"``), ``t`` and ``x`` (the time and state it was called with). The exception the
    callable raised is chained as ``__cause__`` (``raise ... from``).
    """

    def __init__(self, message, callable, role, t, x):
        self.callable = callable
        self.role = role
        self.t = t
        self.x = x
        super().__init__(message)


class RunFailedError(SaltusError):
    """A run ended in a failure (non-finite state, Newton failure, step-size underflow, ...).

    Attributes: ``status`` (the engine's termination, e.g. ``"non-finite-state"``), ``message``
    (names mode, guard, time and value) and ``run`` (the :class:`saltus.Run`, up to the failure).
    """

    def __init__(self, run):
        self.status = run.status
        self.message = run.message
        self.run = run
        super().__init__(f"{run.status}: {run.message}")


class ModelError(SaltusError):
    """A model file (or its overrides) does not load.

    Attributes: ``diagnostics`` (every problem, a list of :class:`Diagnostic`) and ``file``,
    ``line``, ``column``, ``problem`` of the first one.
    """

    def __init__(self, diagnostics):
        self.diagnostics = [Diagnostic(*d) for d in diagnostics]
        first = self.diagnostics[0] if self.diagnostics else Diagnostic("", 0, 0, "")
        self.file, self.line, self.column, self.problem = first
        super().__init__("\n".join(_format(d) for d in self.diagnostics))


class TomlSyntaxError(ModelError):
    """The file is not valid TOML."""


class UnknownSymbolError(ModelError):
    """An expression names a symbol that is no parameter, state or function."""


class ArityError(ModelError):
    """A function is called with the wrong number of arguments."""


class UnknownModeError(ModelError):
    """A guard or Zeno hand-over targets a mode that does not exist."""


class UnknownStateError(ModelError):
    """A reset assigns to a name that is not a state."""


class MissingValueError(ModelError):
    """A required value (initial value, t_end, gap, ...) is missing."""


class UnknownParameterError(ModelError):
    """An override (``--set`` / keyword) names no parameter, state or solver setting."""


class ExpressionError(ModelError):
    """An expression is malformed or of the wrong kind (e.g. a condition where a scalar is due)."""


# The kind of a problem, from its message (first match wins; ModelError when none matches).
_KINDS = [
    (lambda d: d.message.startswith("TOML syntax"), TomlSyntaxError),
    (lambda d: d.file == "--set" and "is not a parameter" in d.message, UnknownParameterError),
    (lambda d: "unknown symbol" in d.message, UnknownSymbolError),
    (lambda d: " takes " in d.message and " argument" in d.message, ArityError),
    (lambda d: "unknown mode" in d.message, UnknownModeError),
    (lambda d: "is not a state" in d.message, UnknownStateError),
    (lambda d: " has no " in d.message or d.message.startswith("missing "), MissingValueError),
    (lambda d: "unexpected " in d.message or "is a condition" in d.message
     or "scalar function" in d.message or "malformed number" in d.message, ExpressionError),
]


def _format(d):
    where = d.file
    if d.line > 0:
        where += f":{d.line}:{d.column}"
    return f"{where}: error: {d.message}"


def model_error(diagnostics):
    """The ModelError subclass instance for these (file, line, column, message) tuples."""
    ds = [Diagnostic(*d) for d in diagnostics]
    for matches, cls in _KINDS:
        if ds and matches(ds[0]):
            return cls(ds)
    return ModelError(ds)
