#!/usr/bin/python3
"""Plot post-impact contact velocities and energy loss against incidence angle, one curve per
frictional impact law, from the CSV written by examples/impact_angle_sweep.

Usage: plot_impact_sweep.py sweep.csv [out.png]
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else "impact_sweep.png"
    data = defaultdict(lambda: defaultdict(list))
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["status"] != "resolved":
                continue
            d = data[row["law"]]
            d["angle"].append(float(row["angle_deg"]))
            d["vt"].append(float(row["v_t_plus"]))
            d["vn"].append(float(row["v_n_plus"]))
            d["loss"].append(-float(row["dT"]) / float(row["T_minus"]))
    fig, axes = plt.subplots(3, 1, figsize=(7, 10), sharex=True)
    for law, d in data.items():
        axes[0].plot(d["angle"], d["vt"], label=law)
        axes[1].plot(d["angle"], d["vn"], label=law)
        axes[2].plot(d["angle"], d["loss"], label=law)
    axes[0].set_ylabel("v_t+ (contact point)")
    axes[1].set_ylabel("v_n+")
    axes[2].set_ylabel("energy loss -dT/T-  (< 0: energy created)")
    axes[2].axhline(0.0, color="k", lw=0.5)
    axes[2].set_xlabel("incidence angle of v- from +t (deg); 90 = normal")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
