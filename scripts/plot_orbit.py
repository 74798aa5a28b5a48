#!/usr/bin/python3
"""Plots the output folder of `saltus orbit` (called by it unless --no-plot).

DIR/floquet.png: the Floquet multipliers of the orbit (the first branch point when continued) on
the unit circle; with DIR/branch.csv also every branch point's multipliers, coloured by the
parameter. DIR/branch.png (continuation only): the state SHOW (default: the first that is not the
parameter and changes along the branch; a state fixed on the section, e.g. v on "v=0", only
carries round-off) against the parameter, stable points solid, unstable dashed, bifurcations
(fold, period doubling,
Neimark-Sacker, grazing) marked; with DIR/period2.csv (--switch-at-pd) also both points of the
period-2 orbit (green solid: stable, magenta dashed: unstable) and its own bifurcations.
DIR/curves.png (--curve): each fold and period-doubling curve in the plane of the two parameters
(orbit.json: curve_parameters), the branch's bifurcations marked where the curves start.
Atomic writes.
Usage: plot_orbit.py DIR [--show STATE]
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from png_file import save_png  # noqa: E402


def save(fig, out, name):
    save_png(fig, os.path.join(out, name))


def main():
    parser = argparse.ArgumentParser(usage="plot_orbit.py DIR [--show STATE]")
    parser.add_argument("dir")
    parser.add_argument("--show", default=None)
    args = parser.parse_args()
    out = args.dir
    with open(os.path.join(out, "orbit.json")) as f:
        orbit = json.load(f)
    rows = []
    branch_path = os.path.join(out, "branch.csv")
    if os.path.exists(branch_path):
        with open(branch_path, newline="") as f:
            rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(5, 5))
    angle = [2 * math.pi * k / 400 for k in range(401)]
    ax.plot([math.cos(a) for a in angle], [math.sin(a) for a in angle], "k-", lw=0.8)
    if rows:
        names = [k for k in rows[0] if k.startswith("multiplier") and k.endswith("_re")]
        params = [float(r["parameter"]) for r in rows]
        for name in names:
            im = name[:-3] + "_im"
            sc = ax.scatter([float(r[name]) for r in rows], [float(r[im]) for r in rows],
                            c=params, s=8, cmap="viridis")
        fig.colorbar(sc, ax=ax, label=orbit.get("parameter", "parameter"))
    for m in orbit.get("multipliers", []):
        ax.plot(m["re"], m["im"], "rx", markersize=9)
    ax.set_aspect("equal")
    ax.set_xlabel("Re")
    ax.set_ylabel("Im")
    ax.set_title("Floquet multipliers (x: " + ("first branch point)" if rows else "the orbit)"))
    ax.grid(True, alpha=0.3)
    lim = max([1.2] + [abs(m["re"]) + 0.1 for m in orbit.get("multipliers", [])] +
              [abs(m["im"]) + 0.1 for m in orbit.get("multipliers", [])])
    ax.set_xlim(-min(lim, 5), min(lim, 5))
    ax.set_ylim(-min(lim, 5), min(lim, 5))
    fig.tight_layout()
    save(fig, out, "floquet.png")
    if not rows:
        return
    parameter = orbit["parameter"]
    fixed = ["point", "parameter", parameter]
    states = []
    for k in rows[0]:
        if k in fixed:
            continue
        if k == "stable":
            break  # the states end here
        if not k.startswith("next_"):
            states.append(k)

    def moves(k):
        values = [float(r[k]) for r in rows]
        return max(values) - min(values) > 1e-9 * (1 + max(abs(v) for v in values))

    if args.show and args.show not in states:
        sys.exit("plot_orbit.py: --show " + args.show + " is not a state of branch.csv")
    state = args.show or next((k for k in states if moves(k)), states[0])
    print("branch.png shows", state, "against", parameter)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i in range(len(rows) - 1):
        a, b = rows[i], rows[i + 1]
        stable = a["stable"] == "1" and b["stable"] == "1"
        ax.plot([float(a["parameter"]), float(b["parameter"])], [float(a[state]), float(b[state])],
                "b-" if stable else "r--", lw=1.5)
    period2_path = os.path.join(out, "period2.csv")
    if os.path.exists(period2_path):
        with open(period2_path, newline="") as f:
            rows2 = list(csv.DictReader(f))
        # Both points of the period-2 orbit (x1 and next_x1 = P(x1)).
        for column in (state, "next_" + state):
            for i in range(len(rows2) - 1):
                a, b = rows2[i], rows2[i + 1]
                if a[column] == "" or b[column] == "":
                    continue
                stable = a["stable"] == "1" and b["stable"] == "1"
                ax.plot([float(a["parameter"]), float(b["parameter"])],
                        [float(a[column]), float(b[column])], "g-" if stable else "m--", lw=1.2)
        ax.plot([], [], "g-", label="period 2, stable")
        ax.plot([], [], "m--", label="period 2, unstable")
        # The period-2 branch's own bifurcations (e.g. its doubling to period 4).
        for b in orbit.get("period_2", {}).get("bifurcations", []):
            ax.axvline(b["parameter"], color="g", ls=":", lw=0.8)
            ax.annotate(b["kind"] + " (period 2)", (b["parameter"], ax.get_ylim()[0]),
                        fontsize=8, rotation=90, va="bottom", color="g")
        ax.legend(loc="best", fontsize=8)
    for b in orbit.get("bifurcations", []):
        k = min(b["after_point"], len(rows) - 1)
        ax.axvline(b["parameter"], color="k", ls=":", lw=0.8)
        ax.annotate(b["kind"], (b["parameter"], float(rows[k][state])), fontsize=8,
                    rotation=90, va="bottom")
    ax.set_xlabel(parameter)
    ax.set_ylabel(state + " on the section")
    ax.set_title("continued branch (solid: stable, dashed: unstable)")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    save(fig, out, "branch.png")
    plot_curves(out, orbit)


def plot_curves(out, orbit):
    path = os.path.join(out, "curves.csv")
    if "curve_parameters" not in orbit or not os.path.exists(path):
        return
    p, q = orbit["curve_parameters"]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = {"fold": "b-", "period doubling": "r-"}
    for index, entry in enumerate(orbit.get("curves", [])):
        pts = [r for r in rows if int(r["curve"]) == index]
        if not pts:
            continue
        ax.plot([float(r[q]) for r in pts], [float(r[p]) for r in pts],
                styles.get(entry["kind"], "k-"), lw=1.5, label=entry["kind"])
        ax.plot(entry["from"][q], entry["from"][p], "ko", markersize=4)
    ax.set_xlabel(q)
    ax.set_ylabel(p)
    ax.set_title("bifurcation curves (dots: where the branch in " + p + " found them)")
    ax.grid(True, alpha=0.3)
    if rows:
        ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    save(fig, out, "curves.png")


if __name__ == "__main__":
    main()
