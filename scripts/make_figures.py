#!/usr/bin/python3
# Over 450 lines on purpose: one function per figure of the seed documents, sharing the run and
# phase-volume helpers at the top; splitting would scatter the figure list docs/VALIDATION.md cites.
"""Reproduces the figures of the source documents from saltus runs (docs/VALIDATION.md "Figures").

Every curve comes from `saltus run` / `saltus sweep` on a file of models/; this script only
reads the output folders and draws. Written into OUT (default docs/figures):

  cb_fig1_bouncing_ball.png   seed 003 Fig. 1: inelastic ball (m = g = 1, c = 3/4): phase portrait
                              with a region of initial states propagated by the flow (black ->
                              blue, same area) and through an impact (red, area times c^2),
                              height, energy and infinitesimal phase volume against time
  cb_fig2_cross.png           seed 003 Fig. 2: Example 2's Zeno trajectory into the cross and the
                              infinitesimal phase volume around its initial state
  cb_fig3_refraction.png      seed 003 Fig. 3: Example 3's horizontal rays into the disc: the
                              refraction root of (12) (left) and the reflection root (right)
  cb_fig5_superelastic.png    seed 003 Fig. 5: Example 4's first 40 impacts (alpha = 1.1)
  cb_fig6_steady_zeno.png     seed 003 Fig. 6: Proposition 8's steady Zeno under the raised table
  jb_fig1_position.png        seed 004 Fig. 1: jumping ball position
  jb_fig7_position_velocity.png  seed 004 Fig. 7: position and velocity
  jb_fig8_event_function.png  seed 004 Fig. 8: the seed's event function max(-x, -v) and the guard
                              -x (rising) that saltus uses (FORMULAS.md 14)
  impact_rod.png              seed 000: the bouncing rod (snapshots, contact-end height, angle)
  impact_zeno_ball.png        seed 000: the Zeno bouncing ball, then rest after t_inf

The phase volume is measured, not assumed: runs from the initial state and from it displaced by
eps along each state axis give, at every common sample with the same jump count, the volume
|det[x_i(t) - x_0(t)]| / eps^n of the displaced simplex (the product of the hybrid Jacobians).

Usage: make_figures.py [--saltus BIN] [--out DIR] [--work DIR] [--quick]
  --quick  fewer points on the region boundaries and lower resolution (the CTest test runs it)
"""
import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "models")


class Saltus:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.count = 0

    def run(self, model, sets=(), name=None):
        """`saltus run MODEL --set ...` into a fresh folder; returns (trajectory, events, summary)."""
        self.count += 1
        out = os.path.join(self.work, name or f"run{self.count}")
        cmd = [self.binary, "run", os.path.join(MODELS, model), "--out", out]
        for s in sets:
            cmd += ["--set", s]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"make_figures: {' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
        return read_run(out)

    def sweep_final(self, model, name, lo, hi, n, sets, states):
        """`saltus sweep` of the initial value `name` over [lo, hi]; returns final states."""
        self.count += 1
        out = os.path.join(self.work, f"sweep{self.count}")
        cmd = [self.binary, "sweep", os.path.join(MODELS, model), "--vary",
               f"{name}={lo!r}:{hi!r}:{n}", "--collect", ",".join("final." + s for s in states),
               "--out", out, "--no-plot", "--threads", "1"]
        for s in sets:
            cmd += ["--set", s]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"make_figures: {' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
        rows = read_csv(os.path.join(out, "sweep.csv"))
        return np.array([[float(r["final." + s]) for s in states] for r in rows])


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    return float(text) if text not in ("", None) else math.nan


def read_run(out):
    traj = read_csv(os.path.join(out, "trajectory.csv"))
    events = read_csv(os.path.join(out, "events.csv"))
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return Run(traj, events, summary)


class Run:
    def __init__(self, traj, events, summary):
        self.summary = summary
        self.t = np.array([float(r["t"]) for r in traj])
        self.j = np.array([int(r["j"]) for r in traj])
        self.columns = {k: np.array([number(r[k]) for r in traj])
                        for k in traj[0].keys() if k not in ("t", "j", "mode")}
        self.events = [e for e in events if e["guard"] != "zeno-handover"]

    def __getitem__(self, name):
        return self.columns[name]

    def event_times(self):
        return np.array([float(e["t"]) for e in self.events])

    def event_values(self, name, when="before"):
        return np.array([float(e[f"{name}_{when}"]) for e in self.events])


def phase_volume(base, displaced, states, eps):
    """Volume of the displaced simplex at the samples where every run has the same jump count."""
    n = len(states)
    # Runs that stop at a Zeno point end at slightly different times (their last sample is the
    # stop): only samples at the same time in every run count.
    common = min(len(d.t) for d in displaced + [base])
    same = np.zeros(len(base.t), dtype=bool)
    same[:common] = True
    for d in displaced:
        same[:common] &= (d.j[:common] == base.j[:common]) & (d.t[:common] == base.t[:common])
    volume = np.full(len(base.t), np.nan)
    for i in np.nonzero(same)[0]:
        m = np.array([[d[s][i] - base[s][i] for s in states] for d in displaced])
        volume[i] = abs(np.linalg.det(m)) / eps**n
    return volume


def check(condition, message):
    """A figure showing the wrong physics fails the script (and the CTest test that runs it)."""
    if not condition:
        sys.exit("make_figures: " + message)


def shoelace(points):
    x, y = points[:, 0], points[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def save(fig, out, name, dpi):
    path = os.path.join(out, name)
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=dpi)
    plt.close(fig)
    os.replace(tmp, path)
    print("wrote", path)


def mark_events(ax, run, name):
    ax.plot(run.event_times(), run.event_values(name), "rv", ms=3, label="impacts")


# --------------------------------------------------------------------------- seed 003

def cb_fig1(s, out, quick, dpi):
    """Inelastic ball, m = g = 1, c = 3/4, dropped from x = 1 (p = m v = v)."""
    base_sets = ["g=1", "m=1", "e=0.75", "h0=1", "t_end=12", "output.sample_interval=0.004"]
    ball = s.run("bouncing_ball.toml", base_sets, "fig1_ball")
    eps = 1e-7
    disp = [s.run("bouncing_ball.toml", base_sets + ["x=" + repr(1 + eps)]),
            s.run("bouncing_ball.toml", base_sets + ["v=" + repr(eps)])]
    volume = phase_volume(ball, disp, ["x", "v"], eps)

    # A square of initial states propagated to T1 (before any impact) and T2 (after one).
    x_lo, x_hi, p_lo, p_hi = 0.8, 1.0, -0.1, 0.1
    n = 8 if quick else 30
    regions = {}
    for label, t_end in (("black", 0.0), ("blue", 0.8), ("red", 1.9)):
        if t_end == 0.0:
            xs = np.linspace(x_lo, x_hi, n)
            ps = np.linspace(p_lo, p_hi, n)
            edges = [np.c_[xs, np.full(n, p_lo)], np.c_[np.full(n, x_hi), ps],
                     np.c_[xs[::-1], np.full(n, p_hi)], np.c_[np.full(n, x_lo), ps[::-1]]]
        else:
            common = ["g=1", "m=1", "e=0.75", f"t_end={t_end}"]
            edges = [
                s.sweep_final("bouncing_ball.toml", "x", x_lo, x_hi, n, common + [f"v={p_lo}"],
                              ["x", "v"]),
                s.sweep_final("bouncing_ball.toml", "v", p_lo, p_hi, n, common + [f"x={x_hi}"],
                              ["x", "v"]),
                s.sweep_final("bouncing_ball.toml", "x", x_lo, x_hi, n, common + [f"v={p_hi}"],
                              ["x", "v"])[::-1],
                s.sweep_final("bouncing_ball.toml", "v", p_lo, p_hi, n, common + [f"x={x_lo}"],
                              ["x", "v"])[::-1],
            ]
        regions[label] = (np.vstack(edges), t_end)

    fig, ax = plt.subplots(2, 2, figsize=(10, 7.5))
    a = ax[0, 0]
    X, P = np.meshgrid(np.linspace(0, 1.2, 13), np.linspace(-1.6, 1.6, 13))
    a.quiver(X, P, P, -np.ones_like(P), color="tab:blue", alpha=0.5, width=0.003)
    a.plot(ball["x"], ball["v"], "k--", lw=0.8, label="trajectory")
    area0 = shoelace(regions["black"][0])
    # The flow keeps area; the impact multiplies it by c^2 (J = c^2, FORMULAS.md 5.3). The red
    # polygon's edges are curved (measured: area ratio off by 1.3e-6 with 8 points per edge).
    check(abs(shoelace(regions["blue"][0]) / area0 - 1) < 1e-9, "flow changed the region's area")
    check(abs(shoelace(regions["red"][0]) / area0 - 0.5625) < 1e-4,
          "region after one impact is not c^2 = 0.5625 of the initial area")
    steps = [v for v in volume if v == v]
    check(abs(min(v for v in steps if v > 0.5) - 0.5625) < 1e-5,
          "phase volume after the first impact is not c^2")
    for color, (poly, t_end) in regions.items():
        area = shoelace(poly)
        a.fill(poly[:, 0], poly[:, 1], color=color, alpha=0.8,
               label=f"t = {t_end:g}: area {area:.4f} ({area / area0:.4f} x)")
    a.set_xlabel("x (height)")
    a.set_ylabel("p (momentum)")
    a.set_title("phase portrait")
    a.legend(fontsize=7, loc="lower right")
    a = ax[0, 1]
    a.plot(ball.t, ball["x"], lw=1)
    a.set_xlabel("t")
    a.set_ylabel("x")
    a.set_title("position")
    a = ax[1, 0]
    a.plot(ball.t, 0.5 * ball["v"] ** 2 + ball["x"], lw=1)
    a.set_xlabel("t")
    a.set_ylabel("E = p^2/2 + x")
    a.set_title("energy")
    a = ax[1, 1]
    a.plot(ball.t, volume, lw=1)
    a.set_xlabel("t")
    a.set_ylabel("volume")
    a.set_title(f"infinitesimal phase volume (x c^2 = {0.75 ** 2} per impact)")
    for a in ax.flat:
        a.grid(alpha=0.3)
    zeno = ball.summary.get("zeno_time")
    for a in (ax[0, 1], ax[1, 0], ax[1, 1]):
        a.axvline(zeno, color="k", ls=":", lw=0.8)
    fig.suptitle("Clark-Bloch Fig. 1: bouncing ball with dissipative impacts (m = g = 1, c = 3/4)")
    fig.tight_layout()
    save(fig, out, "cb_fig1_bouncing_ball.png", dpi)


def cb_fig2(s, out, dpi):
    """Example 2 from (2, 0) with velocity (-1/2, 3/2): Zeno at the origin at t = 4."""
    sets = ["t_end=10", "output.samples=4001"]
    base = s.run("cross_reflection.toml", sets, "fig2_cross")
    eps = 1e-7
    states = ["x", "y", "xdot", "ydot"]
    start = {"x": 2.0, "y": 0.0, "xdot": -0.5, "ydot": 1.5}
    disp = [s.run("cross_reflection.toml", sets + [f"{k}={start[k] + eps!r}"]) for k in states]
    volume = phase_volume(base, disp, states, eps)
    check(abs(base.summary["zeno_time"] - 4.0) < 1e-9, "Example 2's Zeno time is not x0/u = 4")
    fig, ax = plt.subplots(1, 2, figsize=(10, 4.2))
    a = ax[0]
    r = np.linspace(0, 2.2, 2)
    a.plot(r, r, "k", lw=1.5)
    a.plot(r, -r, "k", lw=1.5)
    a.plot(base["x"], base["y"], lw=1)
    a.plot(base.event_values("x"), base.event_values("y"), "r.", ms=3, label="impacts")
    a.set_aspect("equal")
    a.set_xlabel("x")
    a.set_ylabel("y")
    a.set_title(f"trajectory: {len(base.events)} impacts, Zeno at t = "
                f"{base.summary['zeno_time']:.6g}")
    a.legend(fontsize=8)
    a = ax[1]
    a.semilogy(base.t, volume, lw=1)
    a.set_xlabel("t")
    a.set_ylabel("volume")
    a.set_title("infinitesimal phase volume around the initial state")
    for a in ax:
        a.grid(alpha=0.3)
    fig.suptitle("Clark-Bloch Fig. 2: energy-preserving Zeno in the cross y = +-x")
    fig.tight_layout()
    save(fig, out, "cb_fig2_cross.png", dpi)


def h_inside(x, y, px, py):
    """Example 3's H inside the circle: p^T M^-1 p / 2 with the metric as printed in seed 003."""
    d = 1 - x * x - y * y
    m = np.array([[1 - x * x / d, x * y / d], [x * y / d, 1 - y * y / d]])
    p = np.array([px, py])
    return 0.5 * p @ np.linalg.solve(m, p)


def cb_fig3(s, out, quick, dpi):
    """Example 3: horizontal rays p = (1, 0) into the disc r < 1/2 with another metric."""
    heights = np.linspace(-0.48, 0.48, 9 if quick else 17)
    fig, ax = plt.subplots(1, 2, figsize=(10, 4.8))
    circle = np.linspace(0, 2 * np.pi, 200)
    refracted = reflected = 0
    for y0 in heights:
        run = s.run("refraction_sphere.toml", [f"y0={y0!r}", "t_end=2.2"])
        ax[0].plot(run["x"], run["y"], lw=0.9, color="tab:blue")
        first = run.events[0]
        x, y = float(first["x_after"]), float(first["y_after"])
        if first["mode_after"] == "inside":
            refracted += 1
            energy = h_inside(x, y, float(first["p_x_after"]), float(first["p_y_after"]))
            check(abs(energy - 0.5) < 1e-10, f"refraction at y0 = {y0} changed H to {energy}")
            # The other root of (12): back into the flat side with momentum p + eps dh.
            eps = float(first["eps_reflection"])
            px, py = 1.0 + eps * 2 * x, eps * 2 * y
            check(abs(0.5 * (px * px + py * py) - 0.5) > 1e-6,
                  f"the reflection root at y0 = {y0} keeps the flat side's energy")
            t_before = float(first["t"])
            before = run.t <= t_before
            tail = np.linspace(0, 2.2 - t_before, 50)
            ax[1].plot(np.append(run["x"][before], x + px * tail),
                       np.append(run["y"][before], y + py * tail), lw=0.9, color="tab:red")
        else:
            reflected += 1
            ax[1].plot(run["x"], run["y"], lw=0.9, color="tab:blue")
    check(refracted >= 5 and reflected >= 2, "Fig. 3 needs refracted and totally reflected rays")
    for a, title in zip(ax, ["refraction root of (12) (taken)", "reflection root (wrong energy)"]):
        a.plot(0.5 * np.cos(circle), 0.5 * np.sin(circle), "k", lw=1.2)
        a.set_xlim(-1.0, 1.2)
        a.set_ylim(-1.1, 1.1)
        a.set_aspect("equal")
        a.set_xlabel("x")
        a.set_ylabel("y")
        a.set_title(title, fontsize=10)
        a.grid(alpha=0.3)
    fig.suptitle(f"Clark-Bloch Fig. 3: Example 3, rays p = (1, 0); {refracted} refract, "
                 f"{reflected} reflect totally (no real root)")
    fig.tight_layout()
    save(fig, out, "cb_fig3_refraction.png", dpi)


def cb_fig5(s, out, dpi):
    """Example 4 with alpha = 1.1, v0 = 1 from q = 0: t_k = sum_{j<k} alpha^-j."""
    alpha = 1.1
    t40 = sum(alpha ** -j for j in range(40))
    t_end = t40 + 0.5 * alpha ** -40  # half-way to the 41st impact
    run = s.run("superelastic_interval.toml",
                [f"alpha={alpha}", f"t_end={t_end!r}", "output.samples=20001"], "fig5_superelastic")
    if len(run.events) != 40:
        sys.exit(f"make_figures: Example 4 run has {len(run.events)} impacts, expected 40")
    fig, ax = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True)
    ax[0].plot(run.t, run["q"], lw=0.8)
    ax[0].plot(run.event_times(), run.event_values("q"), "r.", ms=3)
    ax[0].set_ylabel("q")
    ax[1].semilogy(run.t, np.abs(run["qdot"]), lw=0.8)
    ax[1].set_ylabel("|qdot|")
    ax[1].set_xlabel("t")
    t_zeno = alpha / (alpha - 1)
    for a in ax:
        a.axvline(t_zeno, color="k", ls=":", lw=0.8)
        a.grid(alpha=0.3)
    fig.suptitle(f"Clark-Bloch Fig. 5: Example 4's first 40 impacts (alpha = {alpha}); "
                 f"t_Zeno = {t_zeno:g}")
    fig.tight_layout()
    save(fig, out, "cb_fig5_superelastic.png", dpi)


def cb_fig6(s, out, dpi):
    # alpha = 0.5 (gap ratio 0.48) instead of the file's 0.8 (0.05): the bounces stay visible.
    run = s.run("steady_zeno.toml", ["alpha=0.5", "output.samples=4001"], "fig6_steady_zeno")
    p = run.summary["parameters"]
    a2, v0 = p["a2"]["value"], p["v0"]["value"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = np.linspace(0, math.sqrt(2) * v0 / a2, 400)
    ax.fill_between(xs, a2 * xs * (math.sqrt(2) * v0 - a2 * xs), -0.05, color="0.85",
                    label="table y = a^2 x (sqrt2 v0 - a^2 x)")
    ax.plot(run["x"], run["y"], lw=1, label="trajectory")
    ax.plot(run.event_values("x"), run.event_values("y"), "r.", ms=5, label="impacts")
    t_z = run.summary["zeno_time"]
    check(abs(t_z - v0 / (math.sqrt(2) * a2)) < 1e-6 * t_z, "Prop. 8's Zeno time is not "
          "v0/(sqrt2 alpha^2)")
    # x = t (xdot = 1): the Zeno point is (t_Z, v0^2/2) (FORMULAS.md 5.8).
    ax.plot([t_z], [v0 ** 2 / 2], "k*", ms=8, label=f"Zeno point (t = {t_z:.6g})")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax.set_title(f"Clark-Bloch Fig. 6: steady elastic Zeno (alpha = {p['alpha']['value']}, "
                 f"v0 = {v0})")
    fig.tight_layout()
    save(fig, out, "cb_fig6_steady_zeno.png", dpi)


# --------------------------------------------------------------------------- seed 004

def jumping_ball(s, out, dpi):
    run = s.run("jumping_ball.toml", ["output.sample_interval=0.005"], "jumping_ball")
    zeno = run.summary.get("zeno_time")
    fig, ax = plt.subplots(figsize=(8, 3.5))
    ax.plot(run.t, run["x"], lw=1)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("x [m]")
    ax.grid(alpha=0.3)
    ax.set_title("seed 004 Fig. 1: jumping ball position (x0 = 10, v0 = 5, k = 0.8)")
    fig.tight_layout()
    save(fig, out, "jb_fig1_position.png", dpi)

    fig, ax = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True)
    ax[0].plot(run.t, run["x"], lw=1)
    ax[0].set_ylabel("x [m]")
    ax[1].plot(run.t, run["v"], lw=1)
    mark_events(ax[1], run, "v")
    ax[1].set_ylabel("v [m/s]")
    ax[1].set_xlabel("t [s]")
    for a in ax:
        a.axvline(zeno, color="k", ls=":", lw=0.8)
        a.grid(alpha=0.3)
    ax[1].legend(fontsize=8)
    fig.suptitle(f"seed 004 Fig. 7: position and velocity; Zeno at t = {zeno:.6g}, then rest")
    fig.tight_layout()
    save(fig, out, "jb_fig7_position_velocity.png", dpi)

    fig, ax = plt.subplots(figsize=(8, 3.8))
    seed_event = np.maximum(-run["x"], -run["v"])
    ax.plot(run.t, seed_event, lw=1, label="seed's event function max(-x, -v)")
    ax.plot(run.t, -run["x"], lw=1, ls="--", label="guard used: p = -x (rising)")
    ax.plot(run.event_times(), np.zeros(len(run.events)), "rv", ms=4, label="impacts found")
    ax.axhline(0, color="k", lw=0.6)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("p")
    ax.set_ylim(-12, 12)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    ax.set_title("seed 004 Fig. 8: event function (max(-x, -v) >= 0 at every descent, "
                 "FORMULAS.md 14)", fontsize=10)
    fig.tight_layout()
    save(fig, out, "jb_fig8_event_function.png", dpi)


# --------------------------------------------------------------------------- seed 000

def impact_rod(s, out, dpi):
    run = s.run("bouncing_rod.toml", ["contacts.tip.law=newton", "output.sample_interval=0.002"], "rod")
    ell = run.summary["parameters"]["ell"]["value"]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.6, 1]})
    a = ax[0]
    stride = max(1, len(run.t) // 25)
    cmap = plt.get_cmap("viridis")
    for i in range(0, len(run.t), stride):
        x, y, th = run["x"][i], run["y"][i], run["theta"][i]
        a.plot([x, x + 2 * ell * math.cos(th)], [y, y + 2 * ell * math.sin(th)],
               color=cmap(run.t[i] / run.t[-1]), lw=2)
    a.plot(run.event_values("x"), run.event_values("y"), "r*", ms=9, label="tip impacts")
    a.axhline(0, color="k", lw=1.5)
    a.set_aspect("equal")
    a.set_xlabel("x [m]")
    a.set_ylabel("y [m]")
    a.legend(fontsize=8)
    a.set_title("rod every %.3g s (colour: time)" % (stride * (run.t[1] - run.t[0])))
    a = ax[1]
    a.plot(run.t, run["y"], lw=1, label="tip height y")
    a.plot(run.t, run["theta"], lw=1, label="angle theta")
    xc_dot = run["x'"] - ell * np.sin(run["theta"]) * run["theta'"]
    a.plot(run.t, xc_dot, lw=1, label="horizontal CoM velocity")
    for t in run.event_times():
        a.axvline(t, color="r", lw=0.5, ls=":")
    a.set_xlabel("t [s]")
    a.legend(fontsize=8)
    a.grid(alpha=0.3)
    fig.suptitle("seed 000: the bouncing rod (frictionless tip, e = 0.8; only the tip is a contact, "
                 "the rest of the rod passes the table);\nthe horizontal CoM velocity is kept by "
                 "every impact", fontsize=10)
    fig.tight_layout()
    save(fig, out, "impact_rod.png", dpi)


def impact_zeno_ball(s, out, dpi):
    run = s.run("bouncing_ball.toml", [], "zeno_ball")
    p = run.summary["parameters"]
    g, e, h0 = p["g"]["value"], p["e"]["value"], p["h0"]["value"]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    a = ax[0]
    a.plot(run.t, run["x"], lw=1)
    a.axvline(run.summary["zeno_time"], color="k", ls=":", lw=0.8,
              label=f"t_inf = {run.summary['zeno_time']:.6g} s")
    a.set_xlabel("t [s]")
    a.set_ylabel("height [m]")
    a.legend(fontsize=8)
    a.set_title("height: impacts accumulate, then rest")
    a = ax[1]
    v_plus = run.event_values("v", "after")
    k = np.arange(1, len(v_plus) + 1)
    a.semilogy(k, v_plus, "o", ms=3, label="saltus: v after impact k")
    a.semilogy(k, e ** k * math.sqrt(2 * g * h0), lw=1, label="e^k sqrt(2 g h0)")
    a.set_xlabel("impact k")
    a.set_ylabel("v+ [m/s]")
    a.legend(fontsize=8)
    a.set_title(f"{len(v_plus)} impacts resolved before the hand-over")
    for a in ax:
        a.grid(alpha=0.3)
    fig.suptitle(f"seed 000: the Zeno bouncing ball (h0 = {h0:g} m, e = {e:g})")
    fig.tight_layout()
    save(fig, out, "impact_zeno_ball.png", dpi)


FIGURES = ["cb_fig1_bouncing_ball.png", "cb_fig2_cross.png", "cb_fig3_refraction.png",
           "cb_fig5_superelastic.png",
           "cb_fig6_steady_zeno.png", "jb_fig1_position.png", "jb_fig7_position_velocity.png",
           "jb_fig8_event_function.png", "impact_rod.png", "impact_zeno_ball.png"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--saltus", default=os.path.join(ROOT, "build", "apps", "saltus"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "figures"))
    ap.add_argument("--work", help="folder for the runs (default: a temporary one, removed)")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = args.work or tempfile.mkdtemp(prefix="saltus_figures_")
    os.makedirs(work, exist_ok=True)
    dpi = 60 if args.quick else 110
    try:
        s = Saltus(args.saltus, work)
        cb_fig1(s, args.out, args.quick, dpi)
        cb_fig2(s, args.out, dpi)
        cb_fig3(s, args.out, args.quick, dpi)
        cb_fig5(s, args.out, dpi)
        cb_fig6(s, args.out, dpi)
        jumping_ball(s, args.out, dpi)
        impact_rod(s, args.out, dpi)
        impact_zeno_ball(s, args.out, dpi)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(FIGURES)} figures in {args.out} ({s.count} saltus runs)")


if __name__ == "__main__":
    main()
