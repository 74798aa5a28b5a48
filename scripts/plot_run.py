#!/usr/bin/python3
"""Plots the output folder of `saltus run` (called by `saltus plot DIR` and `saltus run --plot`).

Writes, one figure per file:
  DIR/states.png       every state against time, event markers, Zeno time if any
  DIR/phase.png        phase portrait of the first two states (coloured by mode)
  DIR/hybrid_time.png  the hybrid time domain: t against the jump count j
Axis labels carry the units from summary.json. Files are written atomically (temp + rename).
Usage: plot_run.py DIR
"""
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    return float(text) if text not in ("", None) else math.nan


def label(name, units):
    unit = units.get(name, "")
    return f"{name} [{unit}]" if unit else name


def save(fig, path):
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=120)
    plt.close(fig)
    os.replace(tmp, path)
    print("wrote", path)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_run.py DIR")
    out = sys.argv[1]
    traj = read_csv(os.path.join(out, "trajectory.csv"))
    events_path = os.path.join(out, "events.csv")
    events = read_csv(events_path) if os.path.exists(events_path) else []
    summary_path = os.path.join(out, "summary.json")
    summary = {}
    if os.path.exists(summary_path):
        with open(summary_path) as f:
            summary = json.load(f)
    units = summary.get("units", {})
    time_unit = summary.get("time_unit", "")
    t_label = f"t [{time_unit}]" if time_unit else "t"
    title = summary.get("model", "") or os.path.basename(os.path.abspath(out))
    columns = [c for c in (traj[0].keys() if traj else []) if c not in ("t", "j", "mode")]
    t = [number(r["t"]) for r in traj]

    # 1. States against time, with event markers.
    fig, axes = plt.subplots(len(columns) or 1, 1, figsize=(8, 2.2 * max(len(columns), 1) + 0.8),
                             sharex=True, squeeze=False)
    ev_t = [number(e["t"]) for e in events if e["guard"] != "zeno-handover"]
    for ax, name in zip(axes[:, 0], columns):
        ax.plot(t, [number(r[name]) for r in traj], lw=1)
        before = name + "_before"
        if events and before in events[0]:
            ax.plot(ev_t, [number(e[before]) for e in events if e["guard"] != "zeno-handover"],
                    "rv", ms=3, label="events")
        if summary.get("zeno_time") is not None:
            ax.axvline(summary["zeno_time"], color="k", ls="--", lw=0.8, label="Zeno time")
        ax.set_ylabel(label(name, units))
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(t_label)
    if events or summary.get("zeno_time") is not None:
        axes[0, 0].legend(loc="best", fontsize=8)
    axes[0, 0].set_title(f"{title}: states against time")
    fig.tight_layout()
    save(fig, os.path.join(out, "states.png"))

    # 2. Phase portrait of the first two states, one colour per mode.
    states = [c for c in summary.get("states", columns) if c in columns] or columns
    fig, ax = plt.subplots(figsize=(6, 5))
    if len(states) >= 2:
        a, b = states[0], states[1]
        for mode in dict.fromkeys(r["mode"] for r in traj):
            pts = [(number(r[a]), number(r[b])) if r["mode"] == mode else (math.nan, math.nan)
                   for r in traj]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1, label=mode)
        ax.set_xlabel(label(a, units))
        ax.set_ylabel(label(b, units))
        ax.legend(loc="best", fontsize=8)
    elif states:
        a = states[0]
        ax.plot(t, [number(r[a]) for r in traj], lw=1)
        ax.set_xlabel(t_label)
        ax.set_ylabel(label(a, units))
    ax.set_title(f"{title}: phase portrait")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, os.path.join(out, "phase.png"))

    # 3. Hybrid time domain: t against j.
    fig, ax = plt.subplots(figsize=(7, 4))
    t0 = t[0] if t else 0.0
    t1 = t[-1] if t else 0.0
    ts = [t0] + [number(e["t"]) for e in events] + [t1]
    js = [0] + [int(e["j"]) for e in events] + [int(events[-1]["j"]) if events else 0]
    ax.step(ts, js, where="post")
    ax.set_xlabel(t_label)
    ax.set_ylabel("jump count j")
    ax.set_title(f"{title}: hybrid time domain")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, os.path.join(out, "hybrid_time.png"))


if __name__ == "__main__":
    main()
