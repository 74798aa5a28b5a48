"""Parameter sweeps: ``saltus sweep`` from Python (run/sweep.hpp runs the points)."""

import os

import numpy as np

from . import _core
from .model import _overrides
from .tables import Table


class SweepResult(Table):
    """One row per point: the varied values, then the collected quantities (NaN where a point
    has none); labels 'status' and 'message'; ``succeeded`` (bool array); ``axes`` and
    ``quantities`` (column names); ``failed_count``.
    """

    def __init__(self, raw):
        values = np.hstack([raw["values"], raw["collected"]])
        super().__init__(raw["axes"] + raw["quantities"], values,
                         {"status": raw["status"], "message": raw["message"]})
        self.axes = list(raw["axes"])
        self.quantities = list(raw["quantities"])
        self.succeeded = np.asarray(raw["succeeded"], dtype=bool)

    @property
    def failed_count(self):
        """Points whose run failed (or whose model did not load)."""
        return int((~self.succeeded).sum())

    def to_frame(self):
        frame = super().to_frame()
        frame.insert(len(self.labels), "succeeded", self.succeeded)
        return frame


def _axis(name, spec):
    if isinstance(spec, str):
        return _core.parse_axis(f"{name}={spec}")
    low, high, count = spec
    return _core.parse_axis(f"{name}={float(low)!r}:{float(high)!r}:{int(count)}")


def sweep(path, vary, collect, set=None, random=None, seed=0, threads=0, **values):
    """Runs the model file `path` at every point of a grid (or `random` points), as ``saltus sweep``.

    `vary`: {name: (low, high, count)} or {name: "LO:HI:N"} or a list of "NAME=LO:HI:N"; the
    grid's last axis varies fastest. `collect`: quantities per point (zeno_time, zeno_events,
    events.count, t_final, final.<state>). `random`: draw that many points uniformly in the
    ranges from `seed` instead of the grid. `threads`: 0 for every core. Overrides (`set`, keyword
    values) apply to every point. The GIL is released while the points run; a failed point is a
    row with its status. Raises :class:`saltus.errors.EngineError` for a malformed range, an
    unknown name or quantity, and a ModelError subclass when the file does not load.
    """
    if isinstance(vary, dict):
        axes = [_axis(n, s) for n, s in vary.items()]
    else:
        axes = [_core.parse_axis(text) for text in vary]
    if isinstance(collect, str):
        collect = collect.split(",")
    threads = threads or os.cpu_count() or 1
    raw = _core.sweep(os.fspath(path), _overrides(set, values), axes, list(collect),
                      int(random or 0), int(seed), int(threads))
    return SweepResult(raw)
