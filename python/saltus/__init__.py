"""saltus: hybrid dynamical systems (flows interrupted by jumps, impact mechanics) from Python.

    import saltus
    run = saltus.load("models/bouncing_ball.toml", e=0.5).run()
    run.status, run.zeno_time, run.trajectory["x"], run.events.to_frame()
    saltus.sweep("models/bouncing_ball.toml", {"e": (0.05, 0.95, 100)}, ["zeno_time"])
    saltus.orbit("models/impact_oscillator.toml", "out/orbit", period=2.5132741228718345)
    saltus.System(["x", "v"], {"flight": saltus.Mode(flow, [saltus.Transition(...)])}).run(...)

See docs/PYTHON.md. Plot helpers are in :mod:`saltus.plot` (matplotlib); the analysis commands
(orbit, bifurcation, sensitivity, lyapunov, equilibrium) in :mod:`saltus.analysis`.
"""

from .analysis import bifurcation, equilibrium, lyapunov, orbit, sensitivity
from .errors import (ArityError, CallableError, CommandError, EngineError, ExpressionError,
                     MissingValueError, ModelError, RunFailedError, SaltusError, TomlSyntaxError,
                     UnknownModeError, UnknownParameterError, UnknownStateError,
                     UnknownSymbolError)
from .model import Guard, Model, Run, load, load_string
from .results import (BifurcationResult, CommandResult, EquilibriumResult, LyapunovResult,
                      OrbitResult, SensitivityResult)
from .sweep import SweepResult, sweep
from .system import Mode, System, Transition
from .tables import Table

__all__ = [
    "load", "load_string", "sweep", "orbit", "bifurcation", "sensitivity", "lyapunov",
    "equilibrium", "Guard", "Model", "Run", "System", "Mode", "Transition", "SweepResult", "Table",
    "CommandResult", "OrbitResult", "BifurcationResult", "SensitivityResult", "LyapunovResult",
    "EquilibriumResult", "SaltusError",
    "EngineError", "CommandError", "RunFailedError", "CallableError", "ModelError",
    "TomlSyntaxError", "UnknownSymbolError", "ArityError", "UnknownModeError", "UnknownStateError",
    "MissingValueError", "UnknownParameterError", "ExpressionError",
]
