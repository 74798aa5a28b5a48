#!/usr/bin/python3
"""Plots the demo's trajectory and events: height against time with impact markers, and the
hybrid time domain (t against j). Usage: plot_demo.py OUT_DIR"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "out"
    traj = read(os.path.join(out, "trajectory.csv"))
    events = read(os.path.join(out, "events.csv"))
    t = [float(r["t"]) for r in traj]
    x = [float(r["x"]) for r in traj]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7))
    ax1.plot(t, x, lw=1, label="height x")
    impacts = [e for e in events if e["guard"] == "impact"]
    ax1.plot([float(e["t"]) for e in impacts], [0.0] * len(impacts), "rv", ms=3, label="impacts")
    for e in events:
        if e["guard"] == "zeno-handover":
            ax1.axvline(float(e["t"]), color="k", ls="--", lw=0.8, label="Zeno time (hand-over to rest)")
    ax1.set_xlabel("t [s]")
    ax1.set_ylabel("x [m]")
    ax1.set_title("Bouncing ball, e = 0.8: impacts accumulate, then rest")
    ax1.legend()
    ax2.step([float(e["t"]) for e in events], [int(e["j"]) for e in events], where="post")
    ax2.set_xlabel("t [s]")
    ax2.set_ylabel("jump count j")
    ax2.set_title("Hybrid time domain")
    fig.tight_layout()
    path = os.path.join(out, "bouncing_ball.png")
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=120)
    os.replace(tmp, path)
    print("wrote", path)


if __name__ == "__main__":
    main()
