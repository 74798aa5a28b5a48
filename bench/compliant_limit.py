#!/usr/bin/python3
"""The compliant limit of saltus's rigid impulsive resolutions (issue 32 item 4(a)).

The same landing resolved by the rigid law of the model and by a compliant contact of growing
stiffness k, both started from the same state just before it; as k grows the compliant contact's
impulses and the state after the landing converge to the rigid answer, at the rate printed.

Cases (the rigid answers are saltus's):
  fbm-<v_b>   models/frictional_bounce.toml at belt speed v_b, its first Painleve landing (the
              first impact:tip whose slip has B < 0 before it, B the tip's Painleve coefficient,
              FORMULAS.md 11.1; e = 0, mu = 0.49, Routh's process along its whole path).
  rod-jam     models/painleve_rounded_rod.toml with a point tip (a = 0), mu = 3, theta0 = 0.40,
              theta' = 1, sliding at 30 m/s: its slip reaches B = 0 with the normal force growing
              without bound (Genot and Brogliato's dynamic jam) and the rigid model takes Lecornu's
              impact without collision (event painleve:tip).

Compliant contact: law kelvin_voigt, release = "force", stiffness k and damping c = tau k (a fixed
retardation time tau = c / k). Its damping ratio over the normal mass m_n, zeta = tau sqrt(k / m_n)
/ 2, grows without bound with k, and its restitution with it goes to zero (force release, zeta >> 1:
e = m_n / (tau^2 k) to leading order), as the plastic rigid law (e = 0) requires; a fixed zeta
would converge to a rigid impact with that zeta's restitution instead.

Start: the rigid run's state at t_c - pre (t_c the rigid event). Window: [t_c - pre, t_c + post].
Impulses over the window, the same way for both: the generalised contact impulse
Pi = M (qdot(end) - qdot(start)) - int h dt (h the model's smooth forces, trapezoid over samples
every `dt`: the velocities jump within a microsecond, where h changes by its damping terms only),
written as w_T P_T + w_N P_N at the rigid event's configuration (least squares in the metric
M^-1); the rigid window's (P_T, P_N) is its event's impulse (plus, before a jam, the contact force
of the slip). The window is the same for both, so the difference is that of the landing. State:
the velocities at the window's end.

Rates: between successive k, log10(error ratio) / log10(k ratio). Cost: the window run's accepted
steps and its wall time (summary.json's wall_seconds; it includes writing the samples).
Usage: compliant_limit.py SALTUS_EXE [--cases fbm-1.0,fbm-1.5,rod-jam] [--k 1e5,1e6,1e7,1e8]
                          [--tau 1e-3] [--json OUT]
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATES = ("x", "y", "theta", "x'", "y'", "theta'")


def run(exe, model, sets, out):
    cmd = [exe, "run", os.path.join(ROOT, "models", model), "--out", out]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    summary = json.load(open(os.path.join(out, "summary.json")))
    rows = list(csv.DictReader(open(os.path.join(out, "trajectory.csv"))))
    events = list(csv.DictReader(open(os.path.join(out, "events.csv"))))
    return dict(ok=p.returncode == 0, status=summary.get("status"), rows=rows, events=events,
                message=summary.get("message", ""), steps=summary.get("steps"),
                wall=summary.get("wall_seconds"))


def fbm_B(row, L=0.5, J=0.005, m=1.0, mu=0.49):
    th, xd, thd = float(row["theta_before"]), float(row["x'_before"]), float(row["theta'_before"])
    s = 1.0 if xd + L * math.sin(th) * thd > 0.0 else -1.0
    c, sn = math.cos(th), math.sin(th)
    return 1.0 / m + L * L * (c * c + mu * s * sn * c) / J


def case_setup(name, exe, tmp):
    """(model, base sets, rigid event guard, event time, start state (t, 6 states))."""
    if name.startswith("fbm-"):
        model, sets = "frictional_bounce.toml", [f"v_b={name[4:]}", "t_end=2.5"]
        guard = "impact:tip"
        r = run(exe, model, sets, os.path.join(tmp, "find"))
        hits = [e for e in r["events"] if e["guard"] == guard and fbm_B(e) < 0.0]
    else:  # rod-jam
        th, w, v = 0.40, 1.0, 30.0
        model = "painleve_rounded_rod.toml"
        sets = ["a=0", "mu=3", f"theta0={th!r}", f"theta'={w!r}", f"y'={math.cos(th) * w!r}",
                f"v0={v!r}", "t_end=0.05"]
        guard = "painleve:tip"
        r = run(exe, model, sets, os.path.join(tmp, "find"))
        hits = [e for e in r["events"] if e["guard"] == guard]
    if not hits:
        raise RuntimeError(f"{name}: no {guard} event ({r['status']}: {r['message'][:300]})")
    t_c = float(hits[0]["t"])
    q_c = [float(hits[0][k + "_before"]) for k in STATES[:3]]
    if name.startswith("fbm-"):
        v_b = float(name[4:])
        h = lambda t, q, v: fbm_h(t, q, v, v_b)  # noqa: E731
    else:
        h = lambda t, q, v: [0.0, -9.81, 0.0]  # noqa: E731
    return model, sets, guard, t_c, q_c, h


# The models' mass matrices M = diag(m, m, J), smooth forces h(t, q, qdot) and contact directions
# (w_T, w_N) at q (their [mechanics] and [[contacts]], with the files' values).
def fbm_h(t, q, v, v_b):
    m, g, L, th0, press = 1.0, 9.81, 0.5, 1.14, 0.003
    return [-1000.0 * (q[0] + v_b * t) - 1.0 * (v[0] + v_b),
            -m * g - 1000.0 * (q[1] - L * math.sin(th0) + press) - 1.0 * v[1],
            -100.0 * (q[2] - th0) - 0.0005 * v[2]]


MODELS = {
    "frictional_bounce.toml": dict(M=(1.0, 1.0, 0.005), L=0.5),
    "painleve_rounded_rod.toml": dict(M=(1.0, 1.0, 1.0 / 3.0), L=1.0),
}


def contact_impulse(model, rows, h, q_c):
    """(P_T, P_N) of the contact over the rows: M (v_end - v_start) - int h dt (trapezoid), solved
    for w_T P_T + w_N P_N at q_c in the metric M^-1."""
    Md, L = MODELS[model]["M"], MODELS[model]["L"]
    pi = [0.0, 0.0, 0.0]
    prev = None
    for r in rows:
        t = float(r["t"])
        x = [float(r[k]) for k in STATES]
        f = h(t, x[:3], x[3:])
        if prev is not None:
            dt = t - prev[0]
            for i in range(3):
                pi[i] -= 0.5 * dt * (f[i] + prev[1][i])
        prev = (t, f)
    v0 = [float(rows[0][k]) for k in STATES[3:]]
    v1 = [float(rows[-1][k]) for k in STATES[3:]]
    for i in range(3):
        pi[i] += Md[i] * (v1[i] - v0[i])
    th = q_c[2]
    w_t = (1.0, 0.0, L * math.sin(th))
    w_n = (0.0, 1.0, -L * math.cos(th))
    # normal equations of min |Pi - W P|^2 in the metric M^-1
    def dot(a, b):
        return sum(a[i] * b[i] / Md[i] for i in range(3))
    a11, a12, a22 = dot(w_t, w_t), dot(w_t, w_n), dot(w_n, w_n)
    r1, r2 = dot(w_t, pi), dot(w_n, pi)
    det = a11 * a22 - a12 * a12
    return (a22 * r1 - a12 * r2) / det, (a11 * r2 - a12 * r1) / det


def window_run(exe, model, sets, start, t_end, dt, extra, h, q_c, out):
    t0, x0 = start
    s = [x for x in sets if not x.startswith("t_end=")] + [f"initial.t={t0!r}",
                                                            f"t_end={t_end!r}",
                                                            f"output.sample_interval={dt!r}"]
    s += [f"{n}={v!r}" for n, v in zip(STATES, x0)] + extra
    r = run(exe, model, s, out)
    rows = r["rows"]
    p_t, p_n = contact_impulse(model, rows, h, q_c)
    end = [float(rows[-1][k]) for k in STATES]
    return dict(status=r["status"], P_N=p_n, P_T=p_t, end=end, t_end=float(rows[-1]["t"]),
                steps=r["steps"], wall=r["wall"],
                events=[(float(e["t"]), e["guard"]) for e in r["events"]
                        if e["guard"] != "apex"][:8])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("saltus")
    ap.add_argument("--cases", default="fbm-1.0,fbm-1.5,rod-jam")
    ap.add_argument("--k", default="1e5,1e6,1e7,1e8")
    ap.add_argument("--tau", type=float, default=1e-3)
    ap.add_argument("--pre", type=float, default=1e-3)
    ap.add_argument("--post", type=float, default=2e-3)
    ap.add_argument("--dt", type=float, default=1e-7)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    ks = [float(k) for k in args.k.split(",")]
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.cases.split(","):
            model, sets, guard, t_c, q_c, h = case_setup(name, args.saltus, tmp)
            t0 = t_c - args.pre
            pre = run(args.saltus, model, [x for x in sets if not x.startswith("t_end=")] +
                      [f"t_end={t0!r}", "output.samples=2"], os.path.join(tmp, "pre"))
            start = (float(pre["rows"][-1]["t"]), [float(pre["rows"][-1][k]) for k in STATES])
            t_end = t_c + args.post
            rigid = window_run(args.saltus, model, sets, start, t_end, args.dt, [], h, q_c,
                               os.path.join(tmp, "rigid"))
            print(f"\n{name}: rigid {guard} at t = {t_c:.10f}: window impulses P_N = "
                  f"{rigid['P_N']:.8f}, P_T = {rigid['P_T']:.8f}; velocities at t = "
                  f"{rigid['t_end']:.6f}: " + ", ".join(f"{v:.6f}" for v in rigid["end"][3:]) +
                  f"; {rigid['steps']} steps, {1e3 * rigid['wall']:.2f} ms")
            print("| k | c = tau k | first events | P_N - rigid | P_T - rigid | "
                  "max abs velocity error at the window's end | rate (P) | rate (v) | steps | "
                  "run (ms) |")
            print("|---|---|---|---|---|---|---|---|---|---|")
            prev = None
            for k in ks:
                c = args.tau * k
                comp = window_run(args.saltus, model, sets, start, t_end, args.dt,
                                  ["contacts.tip.law=kelvin_voigt", f"contacts.tip.k={k!r}",
                                   f"contacts.tip.c={c!r}", 'contacts.tip.release="force"'], h,
                                  q_c, os.path.join(tmp, "c"))
                dp = math.hypot(comp["P_N"] - rigid["P_N"], comp["P_T"] - rigid["P_T"])
                dv = max(abs(a - b) for a, b in zip(comp["end"][3:], rigid["end"][3:]))
                rate_p = rate_v = ""
                if prev is not None:
                    f = math.log10(k / prev[0])
                    rate_p = f"{-math.log10(dp / prev[1]) / f:.2f}" if dp > 0 else ""
                    rate_v = f"{-math.log10(dv / prev[2]) / f:.2f}" if dv > 0 else ""
                guards = ", ".join(f"{g}" for _, g in comp["events"][:4])
                print(f"| {k:.0e} | {c:.0e} | {guards} | {comp['P_N'] - rigid['P_N']:+.3e} | "
                      f"{comp['P_T'] - rigid['P_T']:+.3e} | {dv:.3e} | {rate_p} | {rate_v} | "
                      f"{comp['steps']} | {1e3 * comp['wall']:.2f} |")
                lines.append(dict(case=name, k=k, c=c, tau=args.tau, dP_N=comp["P_N"] - rigid["P_N"],
                                  dP_T=comp["P_T"] - rigid["P_T"], dv=dv, status=comp["status"],
                                  rigid_P_N=rigid["P_N"], rigid_P_T=rigid["P_T"], t_c=t_c))
                prev = (k, dp, dv)
    if args.json:
        with open(args.json, "w") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
