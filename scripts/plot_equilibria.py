#!/usr/bin/python3
"""Plots the branches of `saltus equilibrium --continue ...` (called by it unless --no-plot).

DIR/branches.png: the state SHOW (default: the first state that is not the parameter and
changes along some branch) against the parameter, one colour per branch. Admissible stable
points are drawn solid, admissible unstable ones dashed, virtual ones dotted and faint.
Bifurcations are marked: fold (circle), Hopf (square), boundary (star), each labelled with its
kind (a boundary point with persistence or nonsmooth-fold). The file is written atomically.
Usage: plot_equilibria.py DIR [--show STATE]
"""
import argparse
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from png_file import save_png  # noqa: E402

STYLES = {(True, True): ("-", 1.0), (True, False): ("--", 1.0), (False, True): (":", 0.45),
          (False, False): (":", 0.45)}
MARKERS = {"fold": "o", "hopf": "s", "boundary": "*"}


def runs(points):
    """Consecutive points of one (admissible, stable) kind, each run sharing its end point with
    the next so the curve is unbroken."""
    out, start = [], 0
    for k in range(1, len(points) + 1):
        if k == len(points) or points[k][2:] != points[start][2:]:
            out.append((points[start][2:], points[start:min(k + 1, len(points))]))
            start = k
    return out


def main():
    parser = argparse.ArgumentParser(usage="plot_equilibria.py DIR [--show STATE]")
    parser.add_argument("dir")
    parser.add_argument("--show", default="")
    args = parser.parse_args()
    with open(os.path.join(args.dir, "equilibria.json")) as f:
        data = json.load(f)
    if "parameter" not in data:
        sys.exit("plot_equilibria.py: no branches in " + args.dir + " (run with --continue)")
    with open(os.path.join(args.dir, "branches.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    p = data["parameter"]["name"]
    states = [s for s in data["states"] if s != p]
    show = args.show
    if not show:
        moving = [s for s in states if len({round(float(r[s]), 12) for r in rows}) > 1]
        show = (moving or states)[0]
    if show not in states:
        sys.exit(f"plot_equilibria.py: --show {show} is no state (states: {', '.join(states)})")
    fig, ax = plt.subplots(figsize=(7.0, 4.8))
    for b, branch in enumerate(data["branches"]):
        colour = f"C{b}"
        points = [(float(r[p]), float(r[show]), r["admissible"] == "1", r["stable"] == "1")
                  for r in rows if int(r["branch"]) == b]
        for (admissible, stable), part in runs(points):
            style, alpha = STYLES[(admissible, stable)]
            ax.plot([q[0] for q in part], [q[1] for q in part], style, color=colour, alpha=alpha,
                    label=None)
        ax.plot([], [], "-", color=colour, label=branch["mode"])
        for e in branch["bifurcations"]:
            x = e["equilibrium"]["x"]
            kind = e["kind"] if e["kind"] != "boundary" else e["boundary_kind"]
            ax.plot([x[p]], [x[show]], MARKERS[e["kind"]], color="black", markersize=8)
            ax.annotate(kind, (x[p], x[show]), textcoords="offset points", xytext=(6, 6),
                        fontsize=8)
    ax.set_xlabel(p)
    ax.set_ylabel(show)
    ax.set_title(f"{data.get('model', '')}: equilibria (solid stable, dashed unstable, "
                 "dotted virtual)", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, os.path.join(args.dir, "branches.png"))


if __name__ == "__main__":
    main()
