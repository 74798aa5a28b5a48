#!/usr/bin/python3
"""Peer benchmark (issue 45): Siconos's relay formulation (python3-siconos 4.4) of the two sign()
models of bench/peers/scipy_switching.py, at fixed steps h, against their closed forms.

  relay         x' = -v sign(x) + a t, x(0) = 1, v = 1, a = 0.25, to t = 6 (models/relay_sign.toml):
                reaches 0 at 4 - 2 sqrt 2, slides until 4, then x = (t - 4)^2 / 8 (x(6) = 0.5).
                FirstOrderLinearDS x' = A x + b(t) + r with A = 0 and b(t) = a t from the C plugin
                bench/peers/relay_plugin.c (compiled by this script with cc), FirstOrderLinearTIR
                y = C x, r = B lambda with C = 1, B = v, D = 0.
  dry friction  x'' + w^2 x = -F sign(x' - vb), F = 1, vb = 0.2, w = 1, from rest at 0 to t = 12
                (models/dry_friction_sign.toml): slips until v = vb at asin(vb / F), sticks until
                x = F, then the limit cycle x = F + vb sin(t - t2), which touches v = vb once per
                period without sticking. FirstOrderLinearTIDS on (x, v) with A = [[0, 1],
                [-w^2, 0]], FirstOrderLinearTIR y = v - vb (C = [0 1], e = -vb), r = B lambda
                with B = [0, F].
Both: RelayNSL(1, -1, 1), Relay one-step problem (its default solver, AVI Cao-Ferris),
EulerMoreauOSI(theta = 0.5, --theta), TimeStepping with fixed step h. Siconos's relay law is
-y in N_[-1,1](lambda), so lambda = -sign(y) off the surface: hence B = +v and +F (a user who
writes B = -v gets x' = +v sign(x) and x grows).

The relay's leaving time t = 4 is a step end for every h = 10^-k, and its sliding phase sets x = 0
exactly, so at those steps its error at t = 6 is round-off. Each relay h is therefore also run at
h' = 6 / (6 / h - 1), where t = 4 falls inside a step ("off the grid").

Observed per step (end of the step): lambda. A step with |lambda| < 1 slides (relay) or sticks
(dry friction). Reach / stick start: the end of the first such step; leave / stick end: the end
of the first step after it with |lambda| = 1 (both resolution h). Also counted: the sliding or
sticking intervals (exact: 1 each before t_end).

Timing: time.process_time() (CPU) and time.perf_counter() (wall) around the stepping loop of a run
that observes nothing (computeOneStep / nextStep only, the model built outside the loop); a
separate observed run gives x at the end and the switching times (deterministic, so once). Timed
runs are repeated REPEATS times, interleaved over all cases; medians. A case whose time,
estimated from the one a step size above it, exceeds 60 s is not run (a row says so).

Prints two Markdown tables: the first in scipy_switching.py's columns (rows merge with its
table); the second with steps, CPU seconds and the switching times.
Run with Debian's /usr/bin/python3.
Usage: siconos_relay.py [REPEATS] [--h 1e-2,1e-3,1e-4,1e-5] [--theta 0.5]
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import siconos.kernel as sk

V, A_RELAY, X0, T_RELAY = 1.0, 0.25, 1.0, 6.0
F, VB, W, T_DRY = 1.0, 0.2, 1.0, 12.0
LIMIT_S = 60.0
# lambda strictly inside (-1, 1): sliding / sticking. Its last sliding value is 1 - a h / (2 v)
# (relay) or x / F -> 1 (stick end), far from this margin at h >= 1e-6.
INSIDE = 1.0 - 1e-12

# closed forms (as in scipy_switching.py)
RELAY_REACH, RELAY_LEAVE = (V - math.sqrt(V * V - 2 * A_RELAY * X0)) / A_RELAY, V / A_RELAY
DRY_STICK = math.asin(VB / F)
DRY_X_IN = F - math.sqrt(F * F - VB * VB)
DRY_UNSTICK = DRY_STICK + (F - DRY_X_IN) / VB


def relay_exact(t):
    if t <= RELAY_REACH:
        return X0 - V * t + 0.5 * A_RELAY * t * t
    return 0.0 if t <= RELAY_LEAVE else 0.5 * A_RELAY * (t - RELAY_LEAVE) ** 2


def dry_exact(t):
    if t <= DRY_STICK:
        return F - F * math.cos(t)
    if t <= DRY_UNSTICK:
        return DRY_X_IN + VB * (t - DRY_STICK)
    return F + VB * math.sin(t - DRY_UNSTICK)


def plugin_path():
    """Compiles relay_plugin.c (once) into the peers' build folder; returns its stem."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    build = os.environ.get("SALTUS_PEERS_BUILD", os.path.join(root, "build-peers"))
    os.makedirs(build, exist_ok=True)
    src = os.path.join(here, "relay_plugin.c")
    lib = os.path.join(build, "relay_plugin.so")
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", lib, src], check=True)
    return lib[: -len(".so")]  # Siconos appends the suffix


def build(model, h, n_steps, theta, plugin):
    if model == "relay":
        ds = sk.FirstOrderLinearDS([X0], np.zeros((1, 1)))
        ds.setzPtr(np.array([A_RELAY]))
        ds.setComputebFunction(plugin, "b_ramp")
        rel = sk.FirstOrderLinearTIR(np.array([[1.0]]), np.array([[V]]))
    else:
        ds = sk.FirstOrderLinearTIDS([0.0, 0.0], np.array([[0.0, 1.0], [-W * W, 0.0]]))
        rel = sk.FirstOrderLinearTIR(np.array([[0.0, 1.0]]), np.array([[0.0], [F]]))
        rel.setePtr(np.array([-VB]))
    inter = sk.Interaction(sk.RelayNSL(1, -1.0, 1.0), rel)
    # the model's final time must lie beyond the last step (else Siconos asserts on NaN)
    nsds = sk.NonSmoothDynamicalSystem(0.0, (n_steps + 2) * h)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.EulerMoreauOSI(theta), sk.Relay())
    return ds, inter, sim


def timed_run(model, h, n_steps, theta, plugin):
    _, _, sim = build(model, h, n_steps, theta, plugin)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(n_steps):
        sim.computeOneStep()
        sim.nextStep()
    return time.process_time() - c0, time.perf_counter() - w0


def observed_run(model, h, n_steps, theta, plugin):
    ds, inter, sim = build(model, h, n_steps, theta, plugin)
    starts, ends = [], []
    inside = False  # both start off the surface
    w0 = time.perf_counter()
    for _ in range(n_steps):
        sim.computeOneStep()
        now = abs(inter.lambda_(0)[0]) < INSIDE
        if now != inside:
            (starts if now else ends).append(sim.nextTime())
        inside = now
        sim.nextStep()
    wall = time.perf_counter() - w0
    t_end = sim.startingTime()
    exact = relay_exact(t_end) if model == "relay" else dry_exact(t_end)
    return dict(t_end=t_end, err=abs(ds.x()[0] - exact), starts=starts, ends=ends, wall=wall)


def cases(h_list):
    """(model, label, h, steps), each model's step sizes from large to small."""
    out = []
    for h in h_list:
        n = int(round(T_RELAY / h))
        out.append(("relay", f"h = {h:g}", T_RELAY / n, n))
        out.append(("relay", f"h = 6/{n - 1} = {T_RELAY / (n - 1):.4g} (t = 4 inside a step)",
                    T_RELAY / (n - 1), n - 1))
    for h in h_list:
        n = int(round(T_DRY / h))
        out.append(("dry friction", f"h = {h:g}", T_DRY / n, n))
    return out


def fmt_switch(t, exact):
    return f"{t:.6g} (err {abs(t - exact):.1e})" if t is not None else "none"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repeats", nargs="?", type=int, default=3)
    ap.add_argument("--h", default="1e-2,1e-3,1e-4,1e-5")
    ap.add_argument("--theta", type=float, default=0.5)
    args = ap.parse_args()
    plugin = plugin_path()
    todo = cases(sorted((float(s) for s in args.h.split(",")), reverse=True))
    observed, skipped = {}, {}
    last_wall = {}  # (model, off grid?) -> (steps, wall) of the last observed run
    for case in todo:
        model, label, h, n = case
        kind = (model, "inside" in label)
        if kind in last_wall:
            n0, w = last_wall[kind]
            estimate = w * n / n0
            if estimate > LIMIT_S:
                skipped[case] = f"not run: about {estimate:.3g} s estimated (> {LIMIT_S:g} s)"
                continue
        observed[case] = observed_run(model, h, n, args.theta, plugin)
        last_wall[kind] = (n, observed[case]["wall"])
    cpu = {c: [] for c in observed}
    wall = {c: [] for c in observed}
    for _ in range(args.repeats):
        for case in observed:
            model, _, h, n = case
            c, w = timed_run(model, h, n, args.theta, plugin)
            cpu[case].append(c)
            wall[case].append(w)
    code = f"Siconos relay, EulerMoreauOSI theta {args.theta:g}"
    print("| model | code | error at t_end | wall s (median) | rhs evaluations | note |")
    print("|---|---|---|---|---|---|")
    for case in todo:
        model, label, h, n = case
        if case in skipped:
            print(f"| {model} | {code}, {label} | nan | nan | - | {skipped[case]} |")
            continue
        o = observed[case]
        print(f"| {model} | {code}, {label} | {o['err']:.2g} | "
              f"{statistics.median(wall[case]):.3g} | - | {n} steps |")
    print()
    print(f"Exact: the relay reaches 0 at {RELAY_REACH:.6g} and leaves at {RELAY_LEAVE:.6g}; "
          f"the mass sticks at {DRY_STICK:.6g} and slips again at {DRY_UNSTICK:.6g}. "
          "Observed: step ends.")
    print()
    print("| model | h | steps | error at t_end | CPU s (median) | reach / stick start "
          "| leave / stick end | sliding / sticking intervals |")
    print("|---|---|---|---|---|---|---|---|")
    for case in todo:
        model, label, h, n = case
        if case in skipped:
            continue
        o = observed[case]
        t_in, t_out = (RELAY_REACH, RELAY_LEAVE) if model == "relay" else (DRY_STICK, DRY_UNSTICK)
        start = o["starts"][0] if o["starts"] else None
        end = o["ends"][0] if o["ends"] else None
        extra = "; the others from " + ", ".join(f"{t:.6g}" for t in o["starts"][1:4]) \
            if len(o["starts"]) > 1 else ""
        print(f"| {model} | {h:.4g} | {n} | {o['err']:.2g} | {statistics.median(cpu[case]):.3g} | "
              f"{fmt_switch(start, t_in)} | {fmt_switch(end, t_out)} | "
              f"{len(o['starts'])}{extra} |")


if __name__ == "__main__":
    sys.exit(main())
