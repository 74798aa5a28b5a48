#!/usr/bin/python3
"""Plots the output folder of `saltus run` (called by `saltus plot DIR` and `saltus run --plot`).

Writes, one figure per file, with the functions of python/saltus/plot.py (the package's
helpers, loaded by path so that the compiled package is not needed):
  DIR/states.png       every state against time, event markers, Zeno time if any
  DIR/phase.png        phase portrait of --phase X,Y (default: q against q' for a mechanical
                       model, else the first two states), coloured by mode
  DIR/hybrid_time.png  the hybrid time domain: t against the jump count j
  DIR/forces.png       contact forces (algebraic states) and impulses (reset outputs), if any
Axis labels carry the units from summary.json. Files are written atomically (temp + rename).
Usage: plot_run.py DIR [--phase X,Y]
"""
import argparse
import csv
import importlib.util
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "saltus_plot", os.path.join(HERE, "..", "python", "saltus", "plot.py"))
splot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(splot)


class CsvTable:
    """The columns of a CSV file of saltus: numbers as floats (empty = NaN), labels as text."""

    def __init__(self, path, labels):
        rows = []
        if os.path.exists(path):
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        header = list(rows[0].keys()) if rows else []
        self.columns = [c for c in header if c not in labels]
        self._data = {c: [r[c] for r in rows] for c in header if c in labels}
        for c in self.columns:
            self._data[c] = [float(r[c]) if r[c] != "" else math.nan for r in rows]
        for c in labels:
            self._data.setdefault(c, [])
        self._rows = len(rows)

    def __len__(self):
        return self._rows

    def __getitem__(self, name):
        return self._data[name]


class RunFolder:
    """A run read back from its folder: trajectory, events, summary (as a saltus.Run has)."""

    def __init__(self, out):
        self.trajectory = CsvTable(os.path.join(out, "trajectory.csv"), ["mode"])
        self.events = CsvTable(os.path.join(out, "events.csv"),
                               ["guard", "mode_before", "mode_after", "note"])
        self.summary = {}
        if os.path.exists(os.path.join(out, "summary.json")):
            with open(os.path.join(out, "summary.json")) as f:
                self.summary = json.load(f)
        if not self.summary.get("model"):
            self.summary["model"] = os.path.basename(os.path.abspath(out))


def save(fig, path):
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=120)
    plt.close(fig)
    os.replace(tmp, path)
    print("wrote", path)


def main():
    parser = argparse.ArgumentParser(description="Plot the output folder of `saltus run`.")
    parser.add_argument("dir")
    parser.add_argument("--phase", help="X,Y: the phase portrait's variables")
    args = parser.parse_args()
    run = RunFolder(args.dir)
    x = y = None
    if args.phase:
        parts = args.phase.split(",")
        if len(parts) != 2:
            sys.exit(f"error: --phase '{args.phase}': expected two variables X,Y")
        x, y = parts
        names = splot.state_columns(run)
        for n in parts:
            if n not in names:
                sys.exit(f"error: --phase: '{n}' is not a variable of {args.dir}; expected one "
                         f"of {', '.join(names)}")
    save(splot.states(run), os.path.join(args.dir, "states.png"))
    if splot.default_phase_variables(run) is not None or x:
        save(splot.phase(run, x, y), os.path.join(args.dir, "phase.png"))
    save(splot.hybrid_time(run), os.path.join(args.dir, "hybrid_time.png"))
    forces = splot.contact_forces(run)
    if forces is not None:
        save(forces, os.path.join(args.dir, "forces.png"))


if __name__ == "__main__":
    main()
