#!/usr/bin/python3
"""Peer benchmark: Siconos (python3-siconos 4.4) on the saltus bouncing-ball problems.

The ball is a Lagrangian linear time-invariant system M q'' + C q' = f_ext with M = 1,
C = c (linear drag), f_ext = -g, a linear relation y = q (the gap) and Newton's impact law
with restitution e.  Two simulations:

  siconos-ed  EventDriven + LsodarOSI (LSODAR with root-finding on the gap), LCPs for the
              impact (SICONOS_OSNSP_ED_IMPACT) and for the contact acceleration
              (SICONOS_OSNSP_ED_SMOOTH_ACC).  Impact times are the times of the non-smooth
              events (type 2).  Siconos restarts LSODAR after every event; right-hand-side
              evaluations are LSODAR's own counter (LsodarOSI.count_rhs_call()) read after
              every advanceToEvent and summed over the restarts.
  siconos-mj  TimeStepping + MoreauJeanOSI (theta = 0.5) + LCP, fixed step h.  An impact is
              a step whose contact impulse (lambda(1)) is positive after a step where it was
              zero; its time is the end of that step, so the resolution is h.  No
              right-hand-side count (one linear solve per step); the note gives the steps.

Problems: ball, ball-zeno (run on to t_inf + 1: Siconos comes to rest), drag, ensemble
(subsampled: every STRIDE-th ball).  One JSON object per line on stdout per
(tool, problem, setting).  Wall time is time.perf_counter() around the simulation loop only
(the model is built outside it), best of several repetitions for short runs.

Run with Debian's /usr/bin/python3.
Usage: siconos_ball.py [--quick] [--reference drag_reference.json] [--stride N]
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import siconos.kernel as sk

G = 9.81
PEN_TOL = 1e-12
EPS = np.finfo(float).eps
TYPE_TD, TYPE_NS = 1, 2  # Siconos event types: time discretisation, non-smooth
OUT = sys.stdout  # JSON lines go here (see main)


def frac(a):
    return a - math.floor(a)


def ensemble_ball(i):
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


def build(x0, e, c, t_final):
    ball = sk.LagrangianLinearTIDS([x0], [0.0], [[1.0]])
    ball.setFExtPtr(np.array([-G]))
    if c:
        ball.setCPtr(np.array([[c]]))
    inter = sk.Interaction(sk.NewtonImpactNSL(e), sk.LagrangianLinearTIR(np.array([[1.0]])))
    nsds = sk.NonSmoothDynamicalSystem(0.0, t_final)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    return ball, inter, nsds


def run_ed(x0, e, c, t_final, max_impacts, ref, tol=None):
    """EventDriven + LSODAR.  tol: (rtol, atol) or None for the Siconos defaults."""
    ball, inter, nsds = build(x0, e, c, t_final)
    osi = sk.LsodarOSI()
    if tol is not None:
        osi.setTol(1, tol[0], tol[1])
    s = sk.EventDriven(nsds, sk.TimeDiscretisation(0.0, t_final))
    s.insertIntegrator(osi)
    s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_IMPACT)
    s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_SMOOTH_ACC)
    em = s.eventsManager()
    out = dict(impacts=0, max_err=0.0, min_x=x0, nfe=0, events=0, status="ok",
               t_last=float("nan"))
    t0 = time.perf_counter()
    while s.hasNextEvent():
        try:
            s.advanceToEvent()
        except Exception as exc:  # Siconos throws when it finds the gap below -TOL_ED
            out["status"] = f"exception in advanceToEvent after t = {out['t_last']!r}: {exc}"
            out["min_x"] = min(out["min_x"], ball.q()[0])
            break
        out["nfe"] += sk.LsodarOSI.count_rhs_call()  # LSODAR restarts at every event
        out["events"] += 1
        ev = em.nextEvent()
        out["min_x"] = min(out["min_x"], ball.q()[0])
        done = False
        if ev.getType() == TYPE_NS:
            te = ev.getDoubleTimeOfEvent()
            k = out["impacts"]
            if k < len(ref):
                out["max_err"] = max(out["max_err"], abs(te - ref[k]))
            out["impacts"] = k + 1
            out["t_last"] = te
            done = out["impacts"] >= max_impacts
        elif ev.getType() == TYPE_TD and ev.getDoubleTimeOfEvent() >= t_final * (1 - 4 * EPS):
            done = True
        if out["events"] > 100000:
            out["status"] = "event cap"
            done = True
        try:
            s.processEvents()
        except Exception as exc:
            out["status"] = (f"exception in processEvents at t = {ev.getDoubleTimeOfEvent()!r} "
                             f"(gap {inter.y(0)[0]:.3e} below -TOL_ED = "
                             f"{-s.toleranceED():.3e}): {exc}")
            out["min_x"] = min(out["min_x"], ball.q()[0], inter.y(0)[0])
            break
        out["min_x"] = min(out["min_x"], ball.q()[0])
        if done:
            break
    out["wall"] = time.perf_counter() - t0
    out["x_end"], out["v_end"], out["t_end"] = ball.q()[0], ball.velocity()[0], s.startingTime()
    return out


def run_mj(x0, e, c, t_final, max_impacts, ref, h):
    """Moreau-Jean time stepping (theta = 0.5), step h."""
    n_steps = int(math.ceil(t_final / h - 1e-9))
    # the model's final time must lie beyond the last step (else Siconos asserts on NaN)
    ball, inter, nsds = build(x0, e, c, (n_steps + 2) * h)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), sk.LCP())
    out = dict(impacts=0, max_err=0.0, min_x=x0, steps=0, status="ok", t_last=float("nan"))
    prev = 0.0
    t0 = time.perf_counter()
    while out["steps"] < n_steps:
        s.computeOneStep()
        lam = inter.lambda_(1)[0]
        x = ball.q()[0]
        if x < out["min_x"]:
            out["min_x"] = x
        if lam > 0.0 and prev <= 0.0:
            te = s.nextTime()
            k = out["impacts"]
            if k < len(ref):
                out["max_err"] = max(out["max_err"], abs(te - ref[k]))
            out["impacts"] = k + 1
            out["t_last"] = te
        prev = lam
        s.nextStep()
        out["steps"] += 1
        if out["impacts"] >= max_impacts:
            break
    out["wall"] = time.perf_counter() - t0
    out["x_end"], out["v_end"] = ball.q()[0], ball.velocity()[0]
    return out


def emit(tool, problem, setting, impacts, err, rhs, wall, pen, hung, note):
    line = dict(tool=tool, problem=problem, setting=setting, impacts=int(impacts),
                max_impact_time_error=float(err), rhs_evals=rhs, wall_s=wall,
                us_per_impact=(1e6 * wall / impacts) if impacts else None,
                penetration=bool(pen), hung=bool(hung), note=note)
    print(json.dumps(line), file=OUT, flush=True)


def problem_setup(problem, drag_ref):
    x0, e = 1.0, 0.8
    t_inf = math.sqrt(2 * x0 / G) * (1 + e) / (1 - e)
    if problem == "drag":
        return x0, e, 0.5, drag_ref[-1] + 0.5, len(drag_ref), drag_ref, t_inf
    ref = ball_times(x0, e, 400)
    if problem == "ball":
        return x0, e, 0.0, 0.9 * t_inf, 100000, ref, t_inf
    return x0, e, 0.0, t_inf + 1.0, 100000, ref, t_inf  # ball-zeno


def ed_setting(tol):
    if tol is None:
        return "rtol=2e-15,atol=2e-14 (Siconos LsodarOSI default)"
    return f"rtol={tol[0]:.0e},atol={tol[1]:.0e}"


def bench_ed(problem, tol, drag_ref, reps):
    x0, e, c, t_final, cap, ref, t_inf = problem_setup(problem, drag_ref)
    best = None
    for _ in range(reps):
        r = run_ed(x0, e, c, t_final, cap, ref, tol)
        if best is None or r["wall"] < best["wall"]:
            best = r
    r = best
    pen = r["min_x"] < -PEN_TOL
    note = (f"best of {reps}; {r['events']} events; lowest x at events {r['min_x']:.3e}; "
            f"status: {r['status']}")
    if problem == "ball-zeno":
        note = (f"run on to t_inf+1 (t_inf = {t_inf:.15f}); last impact at "
                f"t = {r['t_last']:.15f} (t_inf - t = {t_inf - r['t_last']:.2e}); end state: "
                f"x = {r['x_end']:.3e}, v = {r['v_end']:.3e} at t = {r['t_end']:.6f}; error "
                f"over all impacts against the closed form; " + note)
    emit("siconos-ed", problem, ed_setting(tol), r["impacts"], r["max_err"], r["nfe"],
         r["wall"], pen, r["status"] == "event cap",
         note + "; rhs = LSODAR NFE summed over restarts")


def bench_mj(problem, h, drag_ref, reps):
    x0, e, c, t_final, cap, ref, t_inf = problem_setup(problem, drag_ref)
    best = None
    for _ in range(reps):
        r = run_mj(x0, e, c, t_final, cap, ref, h)
        if best is None or r["wall"] < best["wall"]:
            best = r
    r = best
    note = (f"best of {reps}; {r['steps']} steps; impact time = end of the first step with a "
            f"positive impulse (resolution h); lowest x {r['min_x']:.3e} (Moreau-Jean lets the "
            f"ball into the floor by O(h v) at each impact); x = {r['x_end']:.3e}, "
            f"v = {r['v_end']:.3e} at the end")
    if problem == "ball-zeno":
        note = f"run on to t_inf+1 (t_inf = {t_inf:.15f}); last impact at t = {r['t_last']:.6f}; " + note
    emit("siconos-mj", problem, f"h={h:.0e},theta=0.5", r["impacts"], r["max_err"], None,
         r["wall"], r["min_x"] < -PEN_TOL, False, note)


def bench_ensemble(tool, param, stride, reps):
    """Every stride-th ball; each ball solved reps times, its best time summed."""
    n_imp = 20
    impacts, max_err, wall, lo, short, evals, hung, failed = 0, 0.0, 0.0, 0.0, 0, 0, False, 0
    balls = range(0, 10000, stride)
    for i in balls:
        x0, e = ensemble_ball(i)
        t_inf = math.sqrt(2 * x0 / G) * (1 + e) / (1 - e)
        ref = ball_times(x0, e, n_imp)
        runs = []
        for _ in range(reps):
            if tool == "siconos-ed":
                runs.append(run_ed(x0, e, 0.0, t_inf + 1.0, n_imp, ref, param))
            else:
                runs.append(run_mj(x0, e, 0.0, t_inf, n_imp, ref, param))
        r = runs[0]
        if tool == "siconos-ed":
            evals += r["nfe"]
            hung |= r["status"] == "event cap"
            failed += r["status"] != "ok"
        else:
            evals += r["steps"]
        wall += min(x["wall"] for x in runs)
        impacts += r["impacts"]
        max_err = max(max_err, r["max_err"])
        lo = min(lo, r["min_x"])
        short += r["impacts"] < n_imp
    note = (f"subsampled: {len(balls)} of 10^4 balls (i = 0, {stride}, {2 * stride}, ...), "
            f"20 impacts each; time per impact from the impacts run; model built outside the "
            f"timing; per ball best of {reps}; balls with fewer than 20 impacts: {short}; "
            f"lowest x {lo:.3e}")
    if tool == "siconos-ed":
        setting, rhs = ed_setting(param), evals
        note += f"; balls ended by a Siconos exception: {failed}; rhs = LSODAR NFE summed over restarts"
    else:
        setting, rhs = f"h={param:.0e},theta=0.5", None
        note += (f"; {evals} steps; Moreau-Jean merges impacts closer than h, so balls with "
                 f"small e come to rest with fewer than 20 impacts; error over the impacts found")
    emit(tool, "ensemble", setting, impacts, max_err, rhs, wall, lo < -PEN_TOL, hung, note)


def main():
    # Siconos prints object dumps on the C++ stdout when it throws: keep our stdout for the
    # JSON lines and send file descriptor 1 to stderr.
    global OUT
    OUT = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(2, 1)
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer repetitions and balls")
    ap.add_argument("--reference", default=os.path.join(here, "drag_reference.json"))
    ap.add_argument("--stride", type=int, default=10,
                    help="ensemble: EventDriven runs every N-th ball, Moreau-Jean every 20 N-th")
    ap.add_argument("--problems", default="ball,ball-zeno,drag,ensemble")
    a = ap.parse_args()
    with open(a.reference) as f:
        drag_ref = json.load(f)["impact_times"]
    problems = a.problems.split(",")
    reps = 2 if a.quick else 5
    q = 5 if a.quick else 1
    ed_tols = [(1e-8, 1e-14), None]
    mj_steps = [1e-3, 1e-4]
    if "ball" in problems:
        for tol in ed_tols:
            bench_ed("ball", tol, drag_ref, reps)
        for h in mj_steps:
            bench_mj("ball", h, drag_ref, reps if h >= 1e-3 else 1)
    if "ball-zeno" in problems:
        for tol in ed_tols:
            bench_ed("ball-zeno", tol, drag_ref, 1)
        bench_mj("ball-zeno", 1e-3, drag_ref, 1)
    if "drag" in problems:
        for rtol in (1e-6, 1e-9, 1e-12):
            bench_ed("drag", (rtol, rtol * 1e-3), drag_ref, reps)
        bench_ed("drag", None, drag_ref, reps)
        for h in mj_steps:
            bench_mj("drag", h, drag_ref, reps if h >= 1e-3 else 1)
    if "ensemble" in problems:
        ens_reps = 1 if a.quick else 3
        for tol in ed_tols:
            bench_ensemble("siconos-ed", tol, a.stride * q, ens_reps)
        bench_ensemble("siconos-mj", 1e-3, 20 * a.stride * q, ens_reps)


if __name__ == "__main__":
    main()
