#!/usr/bin/python3
"""Plots the output folder of `saltus density` (called by it unless --no-plot).

Writes DIR/density.png: the fraction of binned time-1 maps in each box of DIR/density.npy (rows
iy, columns ix) as an image over the ranges of DIR/summary.json, like Clark & Bloch Fig. 7 and 8,
with the ellipse of the table drawn when both axes are x and y; and DIR/convergence.png from
DIR/convergence.csv (when it has rows): the L1 distance of the histogram after fewer maps to the
final one, beside the distance independent draws would have. Written atomically (temp + rename).
Usage: plot_density.py DIR [TITLE]
"""
import json
import os
import sys
import textwrap

import matplotlib
import matplotlib.colors
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: plot_density.py DIR [TITLE]")
    out = sys.argv[1]
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    counts = np.load(os.path.join(out, "density.npy")).astype(float)
    fraction = counts / max(1.0, counts.sum())
    (x0, x1), (y0, y1) = s["x_range"], s["y_range"]
    fig, ax = plt.subplots(figsize=(7, 7 * (y1 - y0) / (x1 - x0) + 0.8))
    occupied = fraction[fraction > 0.0]
    # A few boxes far above the rest (a trajectory circling in place) would hide everything else
    # on a linear scale: switch to a logarithmic one then.
    log = occupied.size > 0 and occupied.max() > 50.0 * np.median(occupied)
    norm = matplotlib.colors.LogNorm(vmin=occupied.min(), vmax=occupied.max()) if log else None
    image = ax.imshow(np.ma.masked_equal(fraction, 0.0), origin="lower", extent=(x0, x1, y0, y1),
                      cmap="viridis", interpolation="nearest", aspect="equal", norm=norm)
    fig.colorbar(image, ax=ax, shrink=0.8,
                 label="fraction of maps per box" + (" (log scale)" if log else ""))
    vx, vy = s["vars"]
    if (vx, vy) == ("x", "y"):
        t = np.linspace(0.0, 2.0 * np.pi, 400)
        p = s["parameters"]
        ax.plot(p["A"] * np.cos(t), p["B"] * np.sin(t), "k-", linewidth=0.8)
    ax.set_xlabel(vx)
    ax.set_ylabel(vy)
    shown = {k: v for k, v in s["parameters"].items() if k not in ("T",)}
    # A built-in billiard (--system) or a model file (its name).
    source = s["system"] if "system" in s else os.path.basename(s["model"])
    title = sys.argv[2] if len(sys.argv) == 3 else (
        source + ": " + ", ".join(f"{k}={v:g}" for k, v in sorted(shown.items())))
    # Wrapped: a model file's name and parameters would run into the colour bar.
    ax.set_title("\n".join(textwrap.wrap(title, 70)) +
                 f"\n{s['binned']:,} maps binned, {s['grid'][0]}x{s['grid'][1]} boxes", fontsize=9)
    save(fig, out, "density.png")
    plot_convergence(out, s)


def save(fig, out, name):
    tmp = os.path.join(out, name + ".tmp.png")
    fig.savefig(tmp, dpi=110, bbox_inches="tight")
    plt.close(fig)
    os.replace(tmp, os.path.join(out, name))


def plot_convergence(out, s):
    path = os.path.join(out, "convergence.csv")
    if not os.path.exists(path):
        return
    rows = np.atleast_1d(np.genfromtxt(path, delimiter=",", names=True))
    if rows.size == 0:
        return
    fig, ax = plt.subplots(figsize=(5.5, 4))
    ax.loglog(rows["maps"], rows["l1_to_final"], "o-", label="L1 distance to the final histogram")
    ax.loglog(rows["maps"], rows["independent_sampling_l1"], "s--",
              label="the same for independent draws")
    ax.set_xlabel("maps binned (all trajectories)")
    ax.set_ylabel("L1 distance (0 to 2)")
    ax.set_title(f"convergence towards {s['binned'] + s['outside_grid']:,} maps, "
                 f"{s['grid'][0]}x{s['grid'][1]} boxes", fontsize=9)
    ax.legend(fontsize=8)
    save(fig, out, "convergence.png")


if __name__ == "__main__":
    main()
