#!/usr/bin/python3
"""Plots the output folder of `saltus sweep` (called by `saltus sweep` unless --no-plot).

Writes DIR/sweep_<quantity>.png for every collected quantity of DIR/sweep.csv: one panel per
varied parameter, the quantity against it; failed points (NaN) are left out and counted in the
title. Files are written atomically (temp + rename).
Usage: plot_sweep.py DIR
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_sweep.py DIR")
    out = sys.argv[1]
    with open(os.path.join(out, "sweep.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) if rows else []
    split = header.index("status") if "status" in header else 0
    axes, quantities = header[:split], header[split + 2:]
    for q in quantities:
        fig, panels = plt.subplots(1, max(len(axes), 1), figsize=(5 * max(len(axes), 1), 4),
                                   squeeze=False)
        for axis, panel in zip(axes, panels[0]):
            points = [(float(r[axis]), float(r[q])) for r in rows]
            kept = [(x, y) for x, y in points if not math.isnan(y)]
            panel.plot([x for x, _ in kept], [y for _, y in kept], ".", markersize=4)
            panel.set_xlabel(axis)
            panel.set_ylabel(q)
            missing = len(points) - len(kept)
            panel.set_title(f"{q} against {axis}" + (f" ({missing} without a value)" if missing
                                                     else ""))
            panel.grid(True, alpha=0.3)
        fig.tight_layout()
        path = os.path.join(out, f"sweep_{q}.png")
        tmp = path[:-len(".png")] + ".tmp.png"
        fig.savefig(tmp, dpi=110)
        plt.close(fig)
        os.replace(tmp, path)
        print("wrote", path)


if __name__ == "__main__":
    main()
