"""What the analysis commands (:mod:`saltus.analysis`) return: the command's exit status and
output, and its files read back, each when first asked for (JSON files as dicts, CSV files as
:class:`saltus.Table`; a file the command did not write reads as None)."""

import json
import os

import numpy as np

from .tables import csv_table


class CommandResult:
    """A finished command: ``command`` (its arguments), ``status`` (exit status 0 or 2),
    ``complete`` (status 0), ``out`` (the output folder), ``stdout`` and ``stderr`` (what it
    printed; with status 2, stderr and the files say what is missing)."""

    def __init__(self, command, status, out, stdout, stderr):
        self.command = list(command)
        self.status = status
        self.out = out
        self.stdout = stdout
        self.stderr = stderr
        self._files = {}

    @property
    def complete(self):
        """True for exit status 0; False for 2 (no orbit, a partial branch, ...)."""
        return self.status == 0

    def path(self, name):
        """The path of the output file `name` (written or not)."""
        return os.path.join(self.out, name)

    def _read(self, name, reader):
        if name not in self._files:
            path = self.path(name)
            self._files[name] = reader(path) if os.path.exists(path) else None
        return self._files[name]

    def json(self, name):
        """The JSON file `name` of the output folder as a dict (None when not written)."""
        def read(path):
            with open(path) as f:
                return json.load(f)
        return self._read(name, read)

    def table(self, name):
        """The CSV file `name` of the output folder as a :class:`saltus.Table` (None when not
        written)."""
        return self._read(name, csv_table)

    def __repr__(self):
        state = "complete" if self.complete else f"partial (exit status {self.status})"
        return f"saltus.{type(self).__name__}({self.out!r}, {state})"


def _complex(entries):
    """[{re, im, abs}, ...] of a JSON file as a complex array."""
    return np.array([complex(m["re"], m["im"]) for m in entries])


class OrbitResult(CommandResult):
    """``saltus orbit``: ``orbit`` (orbit.json), ``branch``, ``bifurcations``, ``period2`` and
    ``curves`` (their CSV files; None when not written), ``multipliers`` (complex array)."""

    orbit = property(lambda self: self.json("orbit.json"), doc="orbit.json as a dict.")
    branch = property(lambda self: self.table("branch.csv"), doc="branch.csv (--continue).")
    bifurcations = property(lambda self: self.table("bifurcations.csv"),
                            doc="bifurcations.csv: the bifurcations located on the branch.")
    period2 = property(lambda self: self.table("period2.csv"), doc="period2.csv (--switch-at-pd).")
    curves = property(lambda self: self.table("curves.csv"), doc="curves.csv (--curve).")

    @property
    def multipliers(self):
        """The Floquet multipliers of orbit.json (of the orbit found; with ``continue_``, of the
        branch's first point) as a complex array; None when there are none (no orbit)."""
        entries = (self.orbit or {}).get("multipliers")
        return None if entries is None else _complex(entries)


class BifurcationResult(CommandResult):
    """``saltus bifurcation``: ``diagram`` (bifurcation.csv: parameter, point, the states, mode,
    status, ...; a value with fewer points has a row with point -1 and the reason)."""

    diagram = property(lambda self: self.table("bifurcation.csv"), doc="bifurcation.csv.")


class SensitivityResult(CommandResult):
    """``saltus sensitivity``: ``sensitivity`` (sensitivity.json), ``jacobian`` (its flow map
    Jacobian as an array; None without a derivative), ``parameter_sensitivity``, and the run's
    ``trajectory``, ``events`` (tables) and ``summary`` (dict)."""

    sensitivity = property(lambda self: self.json("sensitivity.json"),
                           doc="sensitivity.json as a dict.")
    trajectory = property(lambda self: self.table("trajectory.csv"), doc="trajectory.csv.")
    events = property(lambda self: self.table("events.csv"), doc="events.csv.")
    summary = property(lambda self: self.json("summary.json"), doc="summary.json as a dict.")

    def _matrix(self, key):
        rows = (self.sensitivity or {}).get(key)
        return None if rows is None else np.array(rows, dtype=np.float64)

    @property
    def jacobian(self):
        """d x(t_end) / d x(t_start) (flow_map_jacobian), rows and columns in ``states`` order."""
        return self._matrix("flow_map_jacobian")

    @property
    def parameter_sensitivity(self):
        """d x(t_end) / d p, one column per ``parameters=[...]`` name (None when not asked)."""
        return self._matrix("parameter_sensitivity")


class LyapunovResult(CommandResult):
    """``saltus lyapunov``: ``lyapunov`` (lyapunov.json) and ``exponents`` (an array, decreasing,
    per unit time; -inf for a collapsed direction; None without exponents)."""

    lyapunov = property(lambda self: self.json("lyapunov.json"), doc="lyapunov.json as a dict.")

    @property
    def exponents(self):
        values = (self.lyapunov or {}).get("exponents")
        if values is None:
            return None
        return np.array([-np.inf if v is None else v for v in values], dtype=np.float64)


class EquilibriumResult(CommandResult):
    """``saltus equilibrium``: ``equilibria`` (equilibria.json) and ``branches`` (branches.csv,
    with ``continue_``)."""

    equilibria = property(lambda self: self.json("equilibria.json"),
                          doc="equilibria.json as a dict.")
    branches = property(lambda self: self.table("branches.csv"), doc="branches.csv (--continue).")
