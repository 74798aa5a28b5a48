"""Hybrid systems from Python callables: flows, guards and resets written in Python, run by the
same engine as model files, for prototyping.

Slow: every evaluation calls Python, and the run holds the GIL throughout. A guard is sampled
(events.guard_samples points per step), not searched with a certificate as a model file's guards
are: a crossing and return between two samples can be missed. docs/PYTHON.md "Python callables".
"""

from . import _core
from .errors import CallableError, EngineError, RunFailedError
from .model import Run

_DIRECTIONS = ("rising", "falling", "either")
_INTEGRATORS = ("dopri5", "dop853")


def _name_of(fn):
    """The callable's __qualname__ (its __name__, or repr, when it has none): for messages."""
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


def _require_callable(fn, what):
    if not callable(fn):
        raise EngineError(f"{what} is {fn!r}, not a callable")


class Transition:
    """A guard of a mode with what happens when it fires.

    ``guard(t, x)`` returns a float p: the transition fires where p crosses zero in
    ``direction`` ('rising': towards p >= 0, 'falling': towards p <= 0, 'either'). ``reset(t,
    x)`` returns x+ (a sequence or array of the target mode's size); None keeps x (the target
    must then have the same size). ``target`` names the mode the run continues in (None: the
    mode itself). ``terminal``: the run stops after the event (status terminal-event). The event
    log names the transition's events by ``name`` (column ``guard``).

    ``gradient(t, x)``, optional, returns the pair (dp/dx, dp/dt) of the guard. Without it the
    engine cannot tell a state leaving the guard's surface after a reset from one resting on it:
    events it recognises as accumulating (a Zeno pattern, after about 5 of them) are taken as
    having reached their accumulation point at once. With it the run resolves them on to the
    hand-over tolerance as a model file does, and ``root_finder="newton"`` is available.
    """

    def __init__(self, name, guard, direction="rising", reset=None, target=None, terminal=False,
                 gradient=None):
        _require_callable(guard, f"the guard of transition '{name}'")
        for fn, what in ((reset, "reset"), (gradient, "gradient")):
            if fn is not None:
                _require_callable(fn, f"the {what} of transition '{name}'")
        if direction not in _DIRECTIONS:
            raise EngineError(f"transition '{name}': direction {direction!r}; expected one of "
                              f"{', '.join(_DIRECTIONS)}")
        self.name = str(name)
        self.guard = guard
        self.direction = direction
        self.reset = reset
        self.target = target
        self.terminal = bool(terminal)
        self.gradient = gradient

    def __repr__(self):
        return f"saltus.Transition({self.name!r}, {_name_of(self.guard)}, {self.direction!r})"


class Mode:
    """A mode: ``flow(t, x)`` returns dx/dt (a sequence or array of ``size`` floats; ``size``
    None: every state of the system), and its transitions."""

    def __init__(self, flow, transitions=(), size=None):
        _require_callable(flow, "a mode's flow")
        self.flow = flow
        self.transitions = list(transitions)
        for tr in self.transitions:
            if not isinstance(tr, Transition):
                raise EngineError(f"{tr!r} is not a saltus.Transition")
        self.size = size

    def __repr__(self):
        return f"saltus.Mode({_name_of(self.flow)}, {len(self.transitions)} transitions)"


class System:
    """A hybrid system of Python callables: ``states`` (names, the trajectory's columns) and
    ``modes`` ({name: :class:`Mode`}, the first one the default initial mode).

    ``run`` simulates it with the engine of model files and returns a :class:`saltus.Run`
    (trajectory, events, summary, report, write), as :meth:`saltus.Model.run` does.
    """

    def __init__(self, states, modes, name="system"):
        self.states = [str(s) for s in states]
        self.modes = dict(modes)
        self.name = str(name)
        if not self.modes:
            raise EngineError(f"system '{self.name}' has no modes")
        names = list(self.modes)
        self._sizes = {}
        for mode_name, mode in self.modes.items():
            if not isinstance(mode, Mode):
                raise EngineError(f"mode '{mode_name}' is {mode!r}, not a saltus.Mode")
            size = len(self.states) if mode.size is None else int(mode.size)
            if not 0 < size <= len(self.states):
                raise EngineError(f"mode '{mode_name}' has size {size}; expected 1 to "
                                  f"{len(self.states)} (the system's states)")
            self._sizes[mode_name] = size
            for tr in mode.transitions:
                target = mode_name if tr.target is None else tr.target
                if target not in self.modes:
                    raise EngineError(f"transition '{tr.name}' of mode '{mode_name}' targets "
                                      f"'{target}'; the modes are {', '.join(names)}")

    def _spec(self):
        """The modes as saltus._core.run_callables takes them (callable_system.cpp)."""
        ids = {n: i for i, n in enumerate(self.modes)}
        spec = []
        for name, mode in self.modes.items():
            guards = []
            for tr in mode.transitions:
                target = ids[name if tr.target is None else tr.target]
                guards.append((tr.name, tr.guard, _name_of(tr.guard), tr.direction, tr.reset,
                               "" if tr.reset is None else _name_of(tr.reset), target,
                               tr.terminal, tr.gradient,
                               "" if tr.gradient is None else _name_of(tr.gradient)))
            spec.append((name, self._sizes[name], mode.flow, _name_of(mode.flow), guards))
        return spec

    def run(self, x0, t_end, t0=0.0, mode=None, *, rtol=None, atol=None, integrator=None,
            h_max=None, guard_samples=None, root_finder=None, max_events=None, samples=1001,
            sample_times=None, record_steps=False, check=True):
        """Simulates from ``x0`` in ``mode`` (default: the first) at ``t0`` to ``t_end``.

        The options are the model files' ([solver] rtol, atol, integrator, h_max, guard_samples,
        root_finder, max_events; [output] samples, sample_times, record_steps) with their
        defaults (``guard_samples``: 4 samples per step, and per guard, between the step's ends);
        ``integrator`` is 'dopri5' or 'dop853' (radau5 needs the flow's Jacobian, which a
        callable does not give). The GIL is held for the whole run.

        Raises :class:`saltus.CallableError` when a callable raised (chained to its exception)
        or returned what its role cannot use; a KeyboardInterrupt or SystemExit raised inside a
        callable is re-raised as it is. A failed run raises :class:`saltus.RunFailedError`
        (``check=False``: the run is returned).
        """
        mode = next(iter(self.modes)) if mode is None else mode
        if mode not in self.modes:
            raise EngineError(f"no mode '{mode}'; the modes are {', '.join(self.modes)}")
        x0 = [float(v) for v in x0]
        if len(x0) != self._sizes[mode]:
            raise EngineError(f"x0 has {len(x0)} values; mode '{mode}' has "
                              f"{self._sizes[mode]} states")
        if integrator is not None and integrator not in _INTEGRATORS:
            raise EngineError(f"integrator {integrator!r}: Python callables run with "
                              f"{' or '.join(_INTEGRATORS)} (radau5 needs the flow's Jacobian)")
        t0, t_end = float(t0), float(t_end)
        if sample_times is not None:
            sample_times = [float(t) for t in sample_times]
        options = {"rtol": rtol, "atol": atol, "integrator": integrator, "h_max": h_max,
                   "guard_samples": guard_samples, "root_finder": root_finder,
                   "max_events": max_events,
                   "samples": int(samples), "sample_times": sample_times,
                   "record_steps": bool(record_steps)}
        core_run, failure = _core.run_callables(self.name, self.states, self._spec(),
                                                list(self.modes).index(mode), t0, x0, t_end,
                                                options)
        if failure is not None:
            message, cause, name, role, t, x = failure
            if cause is not None and not isinstance(cause, Exception):
                raise cause  # KeyboardInterrupt, SystemExit: not the callable's failure
            raise CallableError(message, name, role, t, x) from cause
        r = Run(self, core_run)
        if check and not r.succeeded:
            raise RunFailedError(r)
        return r

    def __repr__(self):
        return f"saltus.System({self.name!r}, states={self.states}, modes={list(self.modes)})"
