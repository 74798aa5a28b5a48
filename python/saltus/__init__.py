"""saltus: hybrid dynamical systems (flows interrupted by jumps, impact mechanics) from Python.

    import saltus
    run = saltus.load("models/bouncing_ball.toml", e=0.5).run()
    run.status, run.zeno_time, run.trajectory["x"], run.events.to_frame()
    saltus.sweep("models/bouncing_ball.toml", {"e": (0.05, 0.95, 100)}, ["zeno_time"])

See docs/PYTHON.md. Plot helpers are in :mod:`saltus.plot` (matplotlib).
"""

from .errors import (ArityError, EngineError, ExpressionError, MissingValueError, ModelError,
                     RunFailedError, SaltusError, TomlSyntaxError, UnknownModeError,
                     UnknownParameterError, UnknownStateError, UnknownSymbolError)
from .model import Guard, Model, Run, load, load_string
from .sweep import SweepResult, sweep
from .tables import Table

__all__ = [
    "load", "load_string", "sweep", "Guard", "Model", "Run", "SweepResult", "Table", "SaltusError",
    "EngineError", "RunFailedError", "ModelError", "TomlSyntaxError", "UnknownSymbolError",
    "ArityError", "UnknownModeError", "UnknownStateError", "MissingValueError",
    "UnknownParameterError", "ExpressionError",
]
