"""Column tables of a run (trajectory, event log) and of a sweep, as numpy arrays.

A :class:`Table` holds one float64 array (rows x numeric columns) and, for name-valued columns
(mode, guard, status, ...), lists of strings. ``table["x"]`` is a column, ``table.to_frame()`` a
pandas DataFrame (when pandas is importable).
"""

import csv

import numpy as np


class Table:
    """Numeric columns in one array plus name-valued columns.

    Attributes: ``columns`` (names of the numeric columns), ``values`` (float64 array, one row
    per sample / event / point; NaN where a row has no value, as an empty CSV cell), ``labels``
    (dict: name -> list of strings, one per row).
    """

    def __init__(self, columns, values, labels=None):
        self.columns = list(columns)
        self.values = np.asarray(values, dtype=np.float64)
        self.labels = dict(labels or {})

    def __len__(self):
        return self.values.shape[0]

    def __contains__(self, name):
        return name in self.columns or name in self.labels

    def __getitem__(self, name):
        """The column `name`: a float64 array, or a list of strings for a name-valued column."""
        if name in self.labels:
            return self.labels[name]
        try:
            return self.values[:, self.columns.index(name)]
        except ValueError:
            raise KeyError(f"no column '{name}'; columns: {', '.join(self.columns + list(self.labels))}") from None

    def __repr__(self):
        return f"Table({len(self)} rows; {', '.join(list(self.labels) + self.columns)})"

    def to_frame(self):
        """A pandas DataFrame with the name-valued columns first (ImportError without pandas)."""
        import pandas as pd

        frame = pd.DataFrame(self.values, columns=self.columns)
        for i, (name, values) in enumerate(self.labels.items()):
            frame.insert(i, name, values)
        return frame


def trajectory_table(raw):
    """Table of _core.Run.trajectory(): t, j, the states, the algebraic states; label 'mode'."""
    names = raw["mode_names"]
    modes = [names[i] for i in raw["mode_index"]]
    return Table(raw["columns"], raw["values"], {"mode": modes})


def event_table(raw):
    """Table of _core.Run.events(): labels 'guard', 'mode_before', 'mode_after' (and 'note' for
    a bridged run's stretches)."""
    labels = {k: raw[k] for k in ("guard", "mode_before", "mode_after", "note") if k in raw}
    return Table(raw["columns"], raw["values"], labels)


def _number(text):
    """A CSV cell as a float (empty = absent = NaN), or None when it is no number."""
    if text == "":
        return np.nan
    try:
        return float(text)
    except ValueError:
        return None


def csv_table(path):
    """Table of a CSV file the saltus command writes (branch.csv, bifurcation.csv, ...).

    A column is numeric when every cell is a number or empty (NaN), else a name-valued column
    (a list of strings): bifurcations.csv's kind, bifurcation.csv's mode and status.
    """
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = (rows[0], rows[1:]) if rows else ([], [])
    columns, numbers, labels = [], [], {}
    for i, name in enumerate(header):
        cells = [row[i] if i < len(row) else "" for row in rows]
        values = [_number(c) for c in cells]
        if any(v is None for v in values):
            labels[name] = cells
        else:
            columns.append(name)
            numbers.append(values)
    values = np.array(numbers, dtype=np.float64).T.reshape(len(rows), len(columns))
    return Table(columns, values, labels)
