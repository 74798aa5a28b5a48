#!/usr/bin/python3
"""Plots the output folder of `saltus bifurcation` (called by it unless --no-plot).

DIR/bifurcation.png: every recorded section point's state SHOW (default: the first state that
is not the varied one) against the parameter VARIED, black, or blue for values whose run went on
through Painleve resolutions (painleve_lift_offs or bridge_stretches > 0: the free motion taken
among several, Moreau-Jean stretches); values that gave fewer points are marked below the points, red triangles where the run
met a Painleve situation, grey crosses otherwise, and counted in the title. Atomic write.
Usage: plot_bifurcation.py DIR [--varied NAME] [--show STATE]
"""
import argparse
import csv
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from png_file import save_png  # noqa: E402


def main():
    parser = argparse.ArgumentParser(usage="plot_bifurcation.py DIR [--varied NAME] [--show STATE]")
    parser.add_argument("dir")
    parser.add_argument("--varied", default=None)
    parser.add_argument("--show", default=None)
    args = parser.parse_args()
    out = args.dir
    with open(os.path.join(out, "bifurcation.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) if rows else ["parameter", "point", "status"]
    states = [h for h in header[2:]
              if h not in ("mode", "status", "bridge_stretches", "painleve_lift_offs")]
    ok = [r for r in rows if r["status"] == "ok"]
    # The varied state equals the parameter in every row; plot the first other one.
    state = args.show or next(
        (s for s in states
         if any(not math.isclose(float(r[s]), float(r["parameter"])) for r in ok)),
        states[0] if states else None)
    varied = args.varied or next(
        (s for s in states
         if ok and all(math.isclose(float(r[s]), float(r["parameter"])) for r in ok)),
        "parameter")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if state:
        def bridged(r):
            return int(r.get("bridge_stretches") or 0) + int(r.get("painleve_lift_offs") or 0) > 0
        for through, color, label in ((False, "k", "event-driven"),
                                      (True, "tab:blue", "through Painleve resolutions")):
            rs = [r for r in ok if bridged(r) == through]
            if rs:
                ax.plot([float(r["parameter"]) for r in rs], [float(r[state]) for r in rs], ".",
                        color=color, markersize=1.5,
                        label=label if any(bridged(r) for r in ok) else None)
        ax.set_ylabel(state + " on the section")
    failed_rows = [r for r in rows if r["status"] != "ok"]
    failed = len(failed_rows)
    if failed_rows:
        low = min((float(r[state]) for r in ok), default=0.0) if state else 0.0
        high = max((float(r[state]) for r in ok), default=1.0) if state else 1.0
        mark = low - 0.05 * max(high - low, 1e-12)
        for painleve in (True, False):
            xs = [float(r["parameter"]) for r in failed_rows
                  if ("painleve" in r["status"].lower()) == painleve]
            if xs:
                ax.plot(xs, [mark] * len(xs), "^" if painleve else "x",
                        color="tab:red" if painleve else "0.5", markersize=4,
                        label="Painleve stop" if painleve else "fewer points (other)")
    if failed_rows or (state and any(bridged(r) for r in ok)):
        ax.legend(loc="best", fontsize=8, markerscale=4)
    ax.set_xlabel(varied)
    ax.set_title("bifurcation diagram" + (f" ({failed} values without points)" if failed else ""))
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    save_png(fig, os.path.join(out, "bifurcation.png"))


if __name__ == "__main__":
    main()
