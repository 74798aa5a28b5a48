#!/usr/bin/python3
"""Plots the output folder of `saltus bifurcation` (called by it unless --no-plot).

DIR/bifurcation.png: every recorded section point's first state that is not the varied one
against the parameter (values without points are counted in the title). Atomic write.
Usage: plot_bifurcation.py DIR
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
        sys.exit("usage: plot_bifurcation.py DIR")
    out = sys.argv[1]
    with open(os.path.join(out, "bifurcation.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) if rows else ["parameter", "point", "status"]
    states = header[2:-1]
    ok = [r for r in rows if r["status"] == "ok"]
    # The varied state equals the parameter in every row; plot the first other one.
    state = next((s for s in states
                  if any(not math.isclose(float(r[s]), float(r["parameter"])) for r in ok)),
                 states[0] if states else None)
    varied = next((s for s in states
                   if ok and all(math.isclose(float(r[s]), float(r["parameter"])) for r in ok)),
                  "parameter")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if state:
        ax.plot([float(r["parameter"]) for r in ok], [float(r[state]) for r in ok], "k.",
                markersize=1.5)
        ax.set_ylabel(state + " on the section")
    failed = len([r for r in rows if r["status"] != "ok"])
    ax.set_xlabel(varied)
    ax.set_title("bifurcation diagram" + (f" ({failed} values without points)" if failed else ""))
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path = os.path.join(out, "bifurcation.png")
    tmp = path[:-len(".png")] + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, path)
    print("wrote", path)


if __name__ == "__main__":
    main()
