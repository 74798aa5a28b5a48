#!/usr/bin/python3
"""Plots the output folder of `saltus sweep` (called by `saltus sweep` unless --no-plot).

Writes DIR/sweep_<quantity>.png for every collected quantity of DIR/sweep.csv: one panel per
varied parameter, the quantity against it; failed points (NaN) are left out and counted in the
title. Drawn by saltus.plot.sweep (python/saltus/plot.py, loaded by path so that the compiled
package is not needed). Files are written atomically (temp + rename).
Usage: plot_sweep.py DIR
"""
import csv
import importlib.util
import os
import sys

import matplotlib

matplotlib.use("Agg")
from png_file import save_png  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "saltus_plot", os.path.join(HERE, "..", "python", "saltus", "plot.py"))
splot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(splot)


class SweepTable:
    """sweep.csv's columns as floats (nan for missing values), with axes and quantities."""

    def __init__(self, path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        header = list(rows[0].keys()) if rows else []
        split = header.index("status") if "status" in header else 0
        self.axes, self.quantities = header[:split], header[split + 2:]
        self._data = {c: [float(r[c]) for r in rows] for c in self.axes + self.quantities}

    def __getitem__(self, name):
        return self._data[name]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_sweep.py DIR")
    out = sys.argv[1]
    table = SweepTable(os.path.join(out, "sweep.csv"))
    for q in table.quantities:
        fig = splot.sweep(table, q)
        save_png(fig, os.path.join(out, f"sweep_{q}.png"))


if __name__ == "__main__":
    main()
