#!/usr/bin/python3
"""Peer benchmark: SciPy solve_ivp on the saltus bouncing-ball problems.

Flight x' = v, v' = -g - c v; a terminal event x = 0 with direction -1 stops solve_ivp at
the impact; the reset x+ = 0, v+ = -e v- is applied to the event state (sol.y_events) and
solve_ivp is called again from the impact time (every call starts the method afresh).
ball-zeno is also run with the reset x+ = x- (the located x kept, no projection).

Methods: RK45, DOP853 (explicit), Radau and LSODA (given the constant analytic Jacobian).
Problems: ball, ball-zeno (the ball run on towards t_inf + 1 with an impact cap),
drag (reference from drag_reference.json), ensemble (subsampled: every STRIDE-th ball).

One JSON object per line on stdout per (method, problem, setting).  Wall time is
time.perf_counter() around the event loop only, best of several repetitions for short runs.
Right-hand-side evaluations are counted inside the right-hand side (they include the
evaluations SciPy makes to choose each initial step).

Run with Debian's /usr/bin/python3 (python3-scipy).
Usage: scipy_ball.py [--quick] [--reference drag_reference.json] [--stride N]
"""

import argparse
import json
import math
import os
import sys
import time
import warnings

import numpy as np
import scipy
from scipy.integrate import solve_ivp

G = 9.81
PEN_TOL = 1e-12
METHODS = ("RK45", "DOP853", "Radau", "LSODA")


def frac(a):
    return a - math.floor(a)


def ensemble_ball(i):
    """x0_i, e_i of ball i of the ensemble (computed in double, as in every peer)."""
    x0 = 0.5 + 1.5 * frac((i + 1) * 0.6180339887498949)
    e = 0.5 + 0.45 * frac((i + 1) * 0.41421356237309515)
    return x0, e


def ball_times(x0, e, n):
    """Closed-form impact times t_1..t_n of the drag-free ball (math.fsum)."""
    t1 = math.sqrt(2 * x0 / G)
    w = 2 * math.sqrt(2 * G * x0) / G
    terms, out = [t1], []
    for k in range(n):
        out.append(math.fsum(terms))
        terms.append(w * e ** (k + 1))
    return out


class Ball:
    """The flight, its Jacobian and the impact event, with an evaluation counter."""

    def __init__(self, c):
        self.c = c
        self.nrhs = 0
        jac = np.array([[0.0, 1.0], [0.0, -c]])
        # a callable: SciPy 1.10's LSODA wrapper rejects a constant array
        self.jac = lambda t, y: jac

        def impact(t, y):
            return y[0]

        impact.terminal = True
        impact.direction = -1
        self.event = impact

    def rhs(self, t, y):
        self.nrhs += 1
        return np.array([y[1], -G - self.c * y[1]])


def run_ball(model, method, rtol, atol, x0, e, t_final, max_impacts, ref, wall_cap=None,
             keep_x=False):
    """One ball from (x0, 0) until max_impacts impacts or t_final.

    Returns a dict: impacts, max_err (against ref where available), penetration (x below
    -PEN_TOL anywhere in the returned steps), min_x, hung (no progress or a cap), status,
    t_last (last impact), t_pen (first step time below the floor), t_end.
    The reset is x+ = 0, v+ = -e v-; keep_x: x+ = the located x instead.
    """
    t, y = 0.0, np.array([x0, 0.0])
    out = dict(impacts=0, max_err=0.0, penetration=False, min_x=x0, hung=False,
               status="ok", t_last=float("nan"), t_pen=float("nan"), t_end=0.0)
    kw = dict(method=method, events=model.event, rtol=rtol, atol=atol)
    if method in ("Radau", "LSODA"):
        kw["jac"] = model.jac
    stalled = 0
    start = time.perf_counter()
    while t < t_final:
        try:
            sol = solve_ivp(model.rhs, (t, t_final), y, **kw)
        except Exception as exc:  # e.g. brentq inside SciPy's event location
            out["status"] = f"exception in solve_ivp at t = {t!r}: {exc}"
            break
        xs = sol.y[0]
        lo = float(xs.min())
        if lo < out["min_x"]:
            out["min_x"] = lo
        if lo < -PEN_TOL and not out["penetration"]:
            out["penetration"] = True
            out["t_pen"] = float(sol.t[np.argmax(xs < -PEN_TOL)])
        if sol.status == 1:  # terminal event: impact
            te = float(sol.t_events[0][0])
            ye = sol.y_events[0][0]
            k = out["impacts"]
            if k < len(ref):
                out["max_err"] = max(out["max_err"], abs(te - ref[k]))
            out["impacts"] = k + 1
            out["t_last"] = te
            stalled = stalled + 1 if te <= t else 0
            t = te
            if out["impacts"] >= max_impacts or stalled > 10:
                out["hung"] = stalled > 10 or max_impacts >= 1000
                if out["hung"]:
                    out["status"] = "stalled" if stalled > 10 else "impact cap"
                break
            y = np.array([ye[0] if keep_x else 0.0, -e * ye[1]])
        elif sol.status == 0:  # reached t_final
            t = float(sol.t[-1])
        else:
            out["status"] = "solver failure: " + sol.message
            t = float(sol.t[-1])
            break
        if wall_cap is not None and time.perf_counter() - start > wall_cap:
            out["hung"] = True
            out["status"] = f"wall cap {wall_cap} s"
            break
    out["t_end"] = t
    return out


def emit(**kw):
    line = dict(tool=kw["tool"], problem=kw["problem"], setting=kw["setting"],
                impacts=kw["impacts"], max_impact_time_error=kw["err"],
                rhs_evals=kw["rhs"], wall_s=kw["wall"],
                us_per_impact=(1e6 * kw["wall"] / kw["impacts"]) if kw["impacts"] else None,
                penetration=kw["pen"], hung=kw["hung"], note=kw["note"])
    print(json.dumps(line), flush=True)


def setting_str(rtol, atol):
    return f"rtol={rtol:.0e},atol={atol:.0e}"


def bench_single(problem, method, rtol, atol, drag_ref, reps, keep_x=False):
    x0, e = 1.0, 0.8
    t_inf = math.sqrt(2 * x0 / G) * (1 + e) / (1 - e)
    if problem == "drag":
        model, ref = Ball(0.5), drag_ref
        t_final, cap = ref[-1] + 1.0, len(ref)
    else:
        model, ref = Ball(0.0), ball_times(x0, e, 400)
        if problem == "ball":
            t_final, cap = 0.9 * t_inf, 1000
        else:
            t_final, cap = t_inf + 1.0, 2000
    best, r = float("inf"), None
    for _ in range(reps):
        model.nrhs = 0
        t0 = time.perf_counter()
        r = run_ball(model, method, rtol, atol, x0, e, t_final, cap, ref,
                     wall_cap=60.0 if problem == "ball-zeno" else None, keep_x=keep_x)
        best = min(best, time.perf_counter() - t0)
    if problem == "ball-zeno":
        note = (f"run on towards t_inf+1 (t_inf = {t_inf:.15f}); last impact at "
                f"t = {r['t_last']:.15f} (t_inf - t = {t_inf - r['t_last']:.2e}); first step "
                f"below -1e-12 at t = {r['t_pen']:.15f}; ended at t = {r['t_end']:.6f}, "
                f"lowest x {r['min_x']:.3e}; status: {r['status']}")
    else:
        note = f"best of {reps}; lowest x over steps {r['min_x']:.3e}; status: {r['status']}"
    if method in ("Radau", "LSODA"):
        note += "; analytic Jacobian given"
    setting = setting_str(rtol, atol) + (",reset keeps x" if keep_x else "")
    emit(tool=f"scipy-{method.lower()}", problem=problem, setting=setting,
         impacts=r["impacts"], err=r["max_err"], rhs=model.nrhs, wall=best,
         pen=r["penetration"], hung=r["hung"], note=note)


def bench_ensemble(method, rtol, atol, stride, reps):
    """Every stride-th ball; each ball solved reps times, its best time summed."""
    model = Ball(0.0)
    n_imp = 20
    impacts, max_err, wall, pen_balls, hung, short, lo = 0, 0.0, 0.0, 0, False, 0, 0.0
    balls = range(0, 10000, stride)
    nrhs = 0
    for i in balls:
        x0, e = ensemble_ball(i)
        t_inf = math.sqrt(2 * x0 / G) * (1 + e) / (1 - e)
        ref = ball_times(x0, e, n_imp)
        best = float("inf")
        for k in range(reps):
            model.nrhs = 0
            t0 = time.perf_counter()
            rk = run_ball(model, method, rtol, atol, x0, e, t_inf, n_imp, ref)
            best = min(best, time.perf_counter() - t0)
            if k == 0:
                r, nrhs = rk, nrhs + model.nrhs
        wall += best
        impacts += r["impacts"]
        max_err = max(max_err, r["max_err"])
        pen_balls += r["penetration"]
        lo = min(lo, r["min_x"])
        hung |= r["hung"]
        short += r["impacts"] < n_imp
    note = (f"subsampled: {len(balls)} of 10^4 balls (i = 0, {stride}, {2 * stride}, ...), "
            f"20 impacts each; time and rhs per impact from the impacts run; per ball best of "
            f"{reps}; balls with fewer than 20 impacts: {short}; balls below -1e-12: "
            f"{pen_balls} (lowest x {lo:.3e})")
    if method in ("Radau", "LSODA"):
        note += "; analytic Jacobian given"
    emit(tool=f"scipy-{method.lower()}", problem="ensemble", setting=setting_str(rtol, atol),
         impacts=impacts, err=max_err, rhs=nrhs, wall=wall, pen=pen_balls > 0,
         hung=hung, note=note)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer repetitions and balls")
    ap.add_argument("--reference", default=os.path.join(here, "drag_reference.json"))
    ap.add_argument("--stride", type=int, default=100, help="ensemble: every N-th ball")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--problems", default="ball,ball-zeno,drag,ensemble")
    a = ap.parse_args()
    with open(a.reference) as f:
        drag_ref = json.load(f)["impact_times"]
    stride = a.stride * (5 if a.quick else 1)
    reps = 2 if a.quick else 5
    problems = a.problems.split(",")
    print(f"scipy {scipy.__version__}, numpy {np.__version__}", file=sys.stderr)
    ball_tols = [(1e-8, 1e-14), (1e-13, 1e-16)]
    for method in a.methods.split(","):
        if "ball" in problems:
            for rtol, atol in ball_tols:
                bench_single("ball", method, rtol, atol, drag_ref, reps)
        if "ball-zeno" in problems:
            for keep_x in (False, True):
                for rtol, atol in ball_tols:
                    bench_single("ball-zeno", method, rtol, atol, drag_ref, 1, keep_x)
        if "drag" in problems:
            for rtol in (1e-6, 1e-9, 1e-12):
                bench_single("drag", method, rtol, rtol * 1e-3, drag_ref, max(1, reps - 2))
        if "ensemble" in problems:
            for rtol, atol in ball_tols:
                bench_ensemble(method, rtol, atol, stride, 1 if a.quick else 3)


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        main()
