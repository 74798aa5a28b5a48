#!/usr/bin/python3
"""Flows written with sign() (issue 45): saltus against SciPy on the same models, side by side.

Models: the relay x' = -v sign(x) + a t (models/relay_sign.toml: x(6) = 0.5, reach at
4 - 2 sqrt 2, leave at 4) and the stick-slip oscillator x'' + x = -F sign(x' - vb)
(models/dry_friction_sign.toml: the first stick at asin(vb/F), its end where x = F).
SciPy as a user writes them: solve_ivp with np.sign in the right-hand side (RK45 and LSODA at the
tolerances of the saltus files, and RK45 at rtol 1e-6; a run over 60 s or 10^7 evaluations is cut and reported as such),
and the expert's way, the modes written by hand with terminal events (DOP853). saltus: the
`saltus` command on the model file (its summary.json wall_seconds: the run, not the start-up).
Interleaved repeats, medians. Prints a Markdown table: error at the end, wall seconds, rhs
evaluations. Usage: scipy_switching.py SALTUS_BINARY MODELS_DIR [REPEATS]
"""
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp

V, A_RELAY, X0, T_RELAY = 1.0, 0.25, 1.0, 6.0
F, VB, T_DRY = 1.0, 0.2, 12.0


def relay_exact(t):
    t1, t2 = (V - math.sqrt(V * V - 2 * A_RELAY * X0)) / A_RELAY, V / A_RELAY
    if t <= t1:
        return X0 - V * t + 0.5 * A_RELAY * t * t
    return 0.0 if t <= t2 else 0.5 * A_RELAY * (t - t2) ** 2


def dry_exact(t):
    # From rest at 0: slip on the circle about x = F (radius F) until v = vb, stick to x = F,
    # then the limit cycle x = F + vb sin(t - t2).
    t1 = math.asin(VB / F)
    x_in = F - math.sqrt(F * F - VB * VB)
    t2 = t1 + (F - x_in) / VB
    if t <= t1:
        return F - F * math.cos(t)
    return x_in + VB * (t - t1) if t <= t2 else F + VB * math.sin(t - t2)


class Counted:
    def __init__(self, f, cap=10**7):
        self.f, self.n, self.cap, self.start = f, 0, cap, time.perf_counter()

    def __call__(self, t, x):
        self.n += 1
        if self.n > self.cap or time.perf_counter() - self.start > 60:
            raise TimeoutError
        return self.f(t, x)


def scipy_sign(model, method, rtol=1e-12, atol=1e-12):
    if model == "relay":
        f = Counted(lambda t, x: [-V * np.sign(x[0]) + A_RELAY * t])
        x0, t_end, exact = [X0], T_RELAY, relay_exact(T_RELAY)
    else:
        f = Counted(lambda t, x: [x[1], -x[0] - F * np.sign(x[1] - VB)])
        x0, t_end, exact = [0.0, 0.0], T_DRY, dry_exact(T_DRY)
    start = time.perf_counter()
    try:
        r = solve_ivp(f, (0, t_end), x0, method=method, rtol=rtol, atol=atol)
        err = abs(r.y[0, -1] - exact) if r.success else float("nan")
        note = "" if r.success else r.message
    except TimeoutError:
        err, note = float("nan"), "cut at 60 s / 10^7 evaluations"
    return time.perf_counter() - start, err, f.n, note


def scipy_modes(model):
    """The modes by hand: each side a smooth flow with a terminal event; sliding written out."""
    n = 0
    start = time.perf_counter()
    if model == "relay":
        def side(s):
            def f(t, x):
                nonlocal n
                n += 1
                return [-V * s + A_RELAY * t]
            return f
        hit = lambda t, x: x[0]
        hit.terminal, hit.direction = True, -1
        r = solve_ivp(side(1), (0, T_RELAY), [X0], method="DOP853", rtol=1e-12, atol=1e-12,
                      events=hit)
        t1 = r.t_events[0][0]
        # Sliding: x = 0 while |a t| < v, i.e. until t = v / a.
        t2 = V / A_RELAY
        r = solve_ivp(side(1), (t2, T_RELAY), [0.0], method="DOP853", rtol=1e-12, atol=1e-12)
        return time.perf_counter() - start, abs(r.y[0, -1] - relay_exact(T_RELAY)), n, ""
    def slip(t, x):
        nonlocal n
        n += 1
        return [x[1], -x[0] + F]
    reach = lambda t, x: x[1] - VB
    reach.terminal, reach.direction = True, 1
    r = solve_ivp(slip, (0, T_DRY), [0.0, 0.0], method="DOP853", rtol=1e-12, atol=1e-12,
                  events=reach)
    t1, x_in = r.t_events[0][0], r.y_events[0][0][0]
    t2 = t1 + (F - x_in) / VB  # stick at vb until the spring force reaches F
    r = solve_ivp(slip, (t2, T_DRY), [F, VB], method="DOP853", rtol=1e-12, atol=1e-12)
    return time.perf_counter() - start, abs(r.y[0, -1] - dry_exact(T_DRY)), n, ""


def saltus(binary, models, model):
    name = "relay_sign.toml" if model == "relay" else "dry_friction_sign.toml"
    t_end = T_RELAY if model == "relay" else T_DRY
    exact = relay_exact(t_end) if model == "relay" else dry_exact(t_end)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "run", os.path.join(models, name), "--set",
                        f"solver.t_end={t_end}", "--out", out], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        with open(os.path.join(out, "trajectory.csv")) as f:
            last = f.read().strip().splitlines()[-1].split(",")
    return s["wall_seconds"], abs(float(last[3]) - exact), s["rhs_evaluations"], ""


def main():
    binary, models = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    runners = {
        "saltus (sign in the file)": lambda m: saltus(binary, models, m),
        "SciPy DOP853, modes and events by hand": scipy_modes,
        "SciPy RK45, np.sign in the rhs": lambda m: scipy_sign(m, "RK45"),
        "SciPy LSODA, np.sign in the rhs": lambda m: scipy_sign(m, "LSODA"),
        "SciPy RK45, np.sign, rtol 1e-6 atol 1e-9": lambda m: scipy_sign(m, "RK45", 1e-6, 1e-9),
    }
    print("| model | code | error at t_end | wall s (median) | rhs evaluations | note |")
    print("|---|---|---|---|---|---|")
    for model in ("relay", "dry friction"):
        times = {k: [] for k in runners}
        last = {}
        for _ in range(repeats):
            for name, run in runners.items():
                if name in last and last[name][3]:
                    continue  # a cut run is not repeated
                last[name] = run(model)
                times[name].append(last[name][0])
        for name in runners:
            _, err, n, note = last[name]
            print(f"| {model} | {name} | {err:.2g} | {statistics.median(times[name]):.3g} | "
                  f"{n} | {note} |")


if __name__ == "__main__":
    main()
