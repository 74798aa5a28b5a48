"""Models and runs: load a model file (or text), override values, run, read the results."""

import collections
import json
import os

from . import _core
from .errors import RunFailedError, model_error
from .tables import event_table, trajectory_table


def _override_text(name, value):
    """'name=value' as `saltus run --set` takes it (floats with every digit: repr round-trips)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = str(value)
    return f"{name}={text}"


def _overrides(set, values):
    """The override list of `set` ('name=value' strings or a dict) plus keyword `values`."""
    out = []
    if isinstance(set, dict):
        out += [_override_text(k, v) for k, v in set.items()]
    elif set:
        out += list(set)
    out += [_override_text(k, v) for k, v in values.items()]
    return out


class Guard(collections.namedtuple("Guard", "mode name direction when targets terminal")):
    """A guard of a mode ([[modes.NAME.guards]]), as the file gives it.

    ``direction`` is 'rising', 'falling' or 'either'; ``when`` the jump set's condition as
    written (``when = "theta < 0"``), None when the guard fires wherever it is crossed;
    ``targets`` the modes its events continue in (one per entry of ``targets``, else the one
    ``target``); ``terminal`` whether the run stops after its event.
    """
    __slots__ = ()


class Model:
    """A loaded model file: what ``saltus run`` would simulate.

    Made by :func:`load` or :func:`load_string`. Overrides are applied at load time exactly as
    ``saltus run --set`` applies them (parameters are folded into the compiled expressions), so
    :meth:`with_values` loads the model again with more overrides. Parameters named in
    ``runtime=[...]`` at load time are not folded: :meth:`set_parameters` changes them in place,
    a write instead of a reload (the next :meth:`run` uses the new values).
    """

    def __init__(self, core_model, source, overrides, runtime=()):
        self._core = core_model
        self._source = source  # ("file", path) or ("text", text, file_name)
        self.overrides = list(overrides)
        self._runtime = list(runtime)

    name = property(lambda self: self._core.name, doc="[model] name.")
    file = property(lambda self: self._core.file, doc="The file name used in messages.")
    description = property(lambda self: self._core.description, doc="[model] description.")
    time_unit = property(lambda self: self._core.time_unit, doc="Unit of time.")
    t_start = property(lambda self: self._core.t_start, doc="Start time.")
    t_end = property(lambda self: self._core.t_end, doc="End time ([solver] t_end).")
    mechanical = property(lambda self: self._core.mechanical,
                          doc="True for a model given by coordinates, energies and contacts.")

    @property
    def parameters(self):
        """{name: value} of every parameter, overrides applied."""
        return {n: v for n, v, _ in self._core.parameters}

    @property
    def states(self):
        """{name: initial value} of every state (a mechanical model: q then q')."""
        return {n: v for n, v, _ in self._core.states}

    @property
    def guards(self):
        """Every mode's guards as :class:`Guard` tuples, in file order (empty for a mechanical
        model, whose contacts are not guards of the file)."""
        return [Guard(*g[:4], list(g[4]), g[5]) for g in self._core.guards]

    @property
    def units(self):
        """{name: unit} of every parameter and state ('' when not given)."""
        return {n: u for n, _, u in self._core.parameters + self._core.states}

    @property
    def runtime_parameters(self):
        """Names of the parameters kept at run time (``load(..., runtime=[...])``)."""
        return list(self._core.runtime_parameters)

    def with_values(self, set=None, **values):
        """A new Model with more overrides (``e=0.5``, or ``set={"solver.rtol": 1e-10}``)."""
        extra = _overrides(set, values)
        return _load(self._source, self.overrides + extra, self._runtime)

    def set_parameters(self, **values):
        """Sets run-time parameters in place (``model.set_parameters(e=0.3)``); returns self.

        Only parameters named in ``runtime=[...]`` when the model was loaded; others raise
        :class:`saltus.errors.EngineError` naming the run-time parameters. Runs made before keep
        the values they were made with.
        """
        for name, value in values.items():
            self._core.set_runtime_parameter(name, float(value))
        return self

    def run(self, check=True):
        """Simulates from the initial mode, state and time to t_end; returns a :class:`Run`.

        The GIL is released while the engine runs. With ``check`` (default) a failed run raises
        :class:`saltus.errors.RunFailedError` (carrying status, message and the run); with
        ``check=False`` the failed run is returned (its ``succeeded`` is False).
        """
        r = Run(self, _core.run(self._core))
        if check and not r.succeeded:
            raise RunFailedError(r)
        return r

    def __repr__(self):
        return f"saltus.Model({self.name or self.file!r}, overrides={self.overrides})"


class Run:
    """The result of :meth:`Model.run`: status, summary, trajectory and event log."""

    def __init__(self, model, core_run):
        self.model = model
        self._core = core_run
        self._trajectory = None
        self._events = None
        self._summary = None

    status = property(lambda self: self._core.status,
                      doc="How the run ended: end-time, terminal-event, zeno, or a failure.")
    message = property(lambda self: self._core.message, doc="The engine's message ('' if none).")
    succeeded = property(lambda self: self._core.succeeded,
                         doc="Reached t_end, a terminal guard or an allowed Zeno point.")

    @property
    def summary(self):
        """summary.json of ``saltus run`` as a dict (status, times, events per guard, Zeno data...)."""
        if self._summary is None:
            self._summary = json.loads(self._core.summary_json())
        return self._summary

    @property
    def zeno_time(self):
        """The predicted Zeno (accumulation) time, or None."""
        return self.summary["zeno_time"]

    @property
    def trajectory(self):
        """:class:`saltus.tables.Table`: t, j, states, algebraic states; label 'mode'."""
        if self._trajectory is None:
            self._trajectory = trajectory_table(self._core.trajectory())
        return self._trajectory

    @property
    def events(self):
        """:class:`saltus.tables.Table` of the event log (columns of events.csv)."""
        if self._events is None:
            self._events = event_table(self._core.events())
        return self._events

    def report(self):
        """The text ``saltus run`` prints."""
        return self._core.report()

    def write(self, folder):
        """Writes trajectory.csv, events.csv and summary.json into `folder` as ``saltus run`` does."""
        self._core.write_outputs(os.fspath(folder))

    def __repr__(self):
        return f"saltus.Run({self.status}, {len(self.trajectory)} samples, {len(self.events)} events)"


def _load(source, overrides, runtime=()):
    runtime = list(runtime)
    if source[0] == "file":
        core, problems = _core.load_file(source[1], overrides, runtime)
    else:
        core, problems = _core.load_text(source[1], source[2], overrides, runtime)
    if core is None:
        raise model_error(problems)
    return Model(core, source, overrides, runtime)


def load(path, set=None, runtime=(), **values):
    """Loads the model file `path` with overrides, as ``saltus run PATH --set ...``.

    ``load("models/bouncing_ball.toml", e=0.5)`` or ``set=["solver.integrator=radau5"]``.
    ``runtime=["e"]`` keeps those parameters at run time (:meth:`Model.set_parameters`); a
    value computed from one when the model loads (an initial value, a contact's e) is refused.
    Raises a :class:`saltus.errors.ModelError` subclass naming file, line and cause.
    """
    return _load(("file", os.fspath(path)), _overrides(set, values), runtime)


def load_string(text, name="<string>", set=None, runtime=(), **values):
    """Loads a model from its TOML text (`name` is the file name used in messages)."""
    return _load(("text", text, name), _overrides(set, values), runtime)
