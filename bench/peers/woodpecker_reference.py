#!/usr/bin/python3
"""Independent reference for models/woodpecker.toml (issue 46): the woodpecker toy of Glocker
(PhD thesis, TU Muenchen 1995, pp. 162ff) and Leine, Glocker and van Campen ("Nonlinear dynamics
of the woodpecker toy", DETC 2001), integrated by Moreau-Jean midpoint time stepping in numpy
alone (no saltus code, no peer library).

What: the limit cycle's period (time between two crossings of the section `swing`, phi_S' = 0
rising while the sleeve sticks, after the transient), the sleeve's descent per cycle, the times
between beak impacts, at several step sizes h (and, for saltus's event-driven run, the nontrivial
Floquet multiplier of the cycle's one-dimensional return map, from the decay of the transient).

Model (the file's, written out here by hand from the literature, not read from the file):
q = (y, phi_M, phi_S), u = q', all matrices constant (Glocker's model is linearised in the angles):
    M = [[m_M + m_S,  m_S l_M,             m_S l_G            ],
         [m_S l_M,    J_M + m_S l_M^2,     m_S l_M l_G        ],
         [m_S l_G,    m_S l_M l_G,         J_S + m_S l_G^2    ]]
    f(q) = [-(m_M + m_S) g,
            -m_S l_M g + c_phi (phi_S - phi_M),
            -m_S l_G g - c_phi (phi_S - phi_M)]
contacts i (gap g_N, normal direction w_N = dg_N/dq, tangent direction w_T, Newton's e_N):
    upper: g_N = r_M - r_0 - h_M phi_M,               w_N = (0, -h_M, 0), w_T = (1, r_M, 0), e_N = 0
    lower: g_N = r_M - r_0 + h_M phi_M,               w_N = (0,  h_M, 0), w_T = (1, r_M, 0), e_N = 0
    beak:  g_N = l_M + l_G - l_S - r_0 - h_S phi_S,   w_N = (0, 0, -h_S), w_T = (1, l_M, l_G - l_S),
           e_N = 0.5
Coulomb friction mu = 0.3 at each, tangential restitution e_T = 0.

How (Moreau's midpoint rule, the scheme of Siconos' MoreauJeanOSI with theta = 1/2): from
(q_k, u_k),
    q_M = q_k + h/2 u_k,   active set I = {i : g_N,i(q_M) <= 0},
    M (u_k+1 - u_k) = h f(q_M) + sum_{i in I} (w_N,i P_N,i + w_T,i P_T,i),
    q_k+1 = q_M + h/2 u_k+1,
with, for i in I, the impact law on the velocities at the step's end
    xi_N = w_N^T u_k+1 + e_N w_N^T u_k,   0 <= P_N  _|_  xi_N >= 0,
    xi_T = w_T^T u_k+1 + e_T w_T^T u_k,   -xi_T in the normal cone of [-mu P_N, mu P_N] at P_T.
The contact problem is solved by block Gauss-Seidel over the active contacts: each contact's
planar problem (open, stick, slip+, slip-) is solved exactly with the other contacts' impulses
held, until no impulse changes by more than 1e-15 of the largest one (the sleeve's two edges are
never active together, so mostly one contact, solved in one sweep). Initial state: the
literature's (y' = -0.3411 m/s, phi_M = -0.1036, phi_S = -0.2788, phi_S' = -7.4583 rad/s, y = 0,
phi_M' = 0): the lower edge starts 0.88 um inside the pole, which the scheme takes as it comes
(saltus projects it onto the contact, [initial] project).

Observed: a section crossing is a step over which phi_S' goes from < 0 to >= 0 with phi_S < -0.3
(the bird's lowest swing, while the sleeve sticks); its time and state are interpolated linearly
within the step. A beak impact is the first step of a run of steps with P_N,beak > 0 (time: that
step's end, resolution h). The period and the descent are reported as means over the last n
cycles (n even, up to 20; the cycle's multiplier is negative, so successive periods alternate
about the limit and a pair cancels the transient to first order) with their spread (Moreau-Jean
places the stick-slip transitions at step ends: an O(h) error per cycle that the contraction
accumulates into a jitter), and Aitken-extrapolated from the last three (useful for the event-
driven run only). The multiplier: the median ratio of successive deviations of phi_S at the
section from its Aitken limit over the last cycles (meaningful for the event-driven run only: the
stepped run's jitter exceeds the deviations once the transient has decayed).

--saltus runs `build/apps/saltus run models/woodpecker.toml --t-end T` (the repository's command)
and reports the same quantities from its events.csv (the `swing` rows and the impact:beak rows),
side by side.

Usage: woodpecker_reference.py [--h 1e-4,1e-5,1e-6] [--t-end 6.0] [--saltus] [--json FILE]
Run with Debian's /usr/bin/python3 (numpy). About 25 us a step: h = 1e-6 over 6 s takes
about 3 minutes.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

# Parameters (Glocker 1995; Leine, Glocker and van Campen 2001).
m_M, J_M = 0.0003, 5.0e-9
m_S, J_S = 0.0045, 7.0e-7
r_0, r_M, h_M = 0.0025, 0.0031, 0.0058
l_M, l_G, h_S, l_S = 0.010, 0.015, 0.020, 0.0201
c_phi, g = 0.0056, 9.81
MU = 0.3
E_N = {"upper": 0.0, "lower": 0.0, "beak": 0.5}
E_T = 0.0

M = np.array([[m_M + m_S, m_S * l_M, m_S * l_G],
              [m_S * l_M, J_M + m_S * l_M ** 2, m_S * l_M * l_G],
              [m_S * l_G, m_S * l_M * l_G, J_S + m_S * l_G ** 2]])
MINV = np.linalg.inv(M)

CONTACTS = ["beak", "lower", "upper"]  # saltus numbers contacts by name: beak, lower, upper
W_N = {"upper": np.array([0.0, -h_M, 0.0]),
       "lower": np.array([0.0, h_M, 0.0]),
       "beak": np.array([0.0, 0.0, -h_S])}
G_0 = {"upper": r_M - r_0, "lower": r_M - r_0, "beak": l_M + l_G - l_S - r_0}
W_T = {"upper": np.array([1.0, r_M, 0.0]),
       "lower": np.array([1.0, r_M, 0.0]),
       "beak": np.array([1.0, l_M, l_G - l_S])}


def gap(c, q):
    return G_0[c] + W_N[c] @ q


def force(q):
    spring = c_phi * (q[2] - q[1])
    return np.array([-(m_M + m_S) * g, -m_S * l_M * g + spring, -m_S * l_G * g - spring])


def solve_contact(a_nn, a_nt, a_tt, b_n, b_t, mu):
    """One planar contact: xi_N = a_nn P_N + a_nt P_T + b_n, xi_T = a_nt P_N + a_tt P_T + b_t.
    Returns (P_N, P_T) with 0 <= P_N _|_ xi_N >= 0 and Coulomb's law on (P_T, xi_T)."""
    if b_n >= 0.0:
        return 0.0, 0.0  # open: no impulse needed
    # stick: xi_N = 0, xi_T = 0
    det = a_nn * a_tt - a_nt * a_nt
    p_n = (-b_n * a_tt + b_t * a_nt) / det
    p_t = (-b_t * a_nn + b_n * a_nt) / det
    if p_n >= 0.0 and abs(p_t) <= mu * p_n:
        return p_n, p_t
    # slip: P_T = -s mu P_N with xi_T of sign s; xi_N = 0
    for s in (1.0, -1.0):
        denom = a_nn - s * mu * a_nt
        if denom <= 0.0:
            continue
        p_n = -b_n / denom
        xi_t = (a_nt - s * mu * a_tt) * p_n + b_t
        if p_n >= 0.0 and s * xi_t >= 0.0:
            return p_n, -s * mu * p_n
    raise RuntimeError("no planar contact solution (Painleve)")


class Stepper:
    def __init__(self, h):
        self.h = h
        self.iterations_max = 0

    def step(self, q, u):
        h = self.h
        q_m = q + 0.5 * h * u
        u_free = u + h * (MINV @ force(q_m))
        active = [c for c in CONTACTS if gap(c, q_m) <= 0.0]
        impulses = {}
        if active:
            p = {c: [0.0, 0.0] for c in active}
            mw = {c: (MINV @ W_N[c], MINV @ W_T[c]) for c in active}
            for it in range(1, 201):
                largest, change = 0.0, 0.0
                for c in active:
                    # rates at the step's end without c's own impulse
                    u_other = u_free.copy()
                    for d in active:
                        if d != c:
                            u_other += mw[d][0] * p[d][0] + mw[d][1] * p[d][1]
                    b_n = W_N[c] @ u_other + E_N[c] * (W_N[c] @ u)
                    b_t = W_T[c] @ u_other + E_T * (W_T[c] @ u)
                    a_nn = W_N[c] @ mw[c][0]
                    a_nt = W_N[c] @ mw[c][1]
                    a_tt = W_T[c] @ mw[c][1]
                    new = solve_contact(a_nn, a_nt, a_tt, b_n, b_t, MU)
                    change = max(change, abs(new[0] - p[c][0]), abs(new[1] - p[c][1]))
                    largest = max(largest, abs(new[0]), abs(new[1]))
                    p[c] = list(new)
                if len(active) == 1 or change <= 1e-15 * largest:
                    break
            else:
                raise RuntimeError("block Gauss-Seidel did not converge")
            self.iterations_max = max(self.iterations_max, it)
            u_new = u_free.copy()
            for c in active:
                u_new += mw[c][0] * p[c][0] + mw[c][1] * p[c][1]
                impulses[c] = tuple(p[c])
        else:
            u_new = u_free
        return q_m + 0.5 * h * u_new, u_new, impulses


def literature_start():
    return np.array([0.0, -0.1036, -0.2788]), np.array([-0.3411, 0.0, -7.4583])


def simulate(h, t_end):
    q, u = literature_start()
    stepper = Stepper(h)
    n = int(round(t_end / h))
    t = 0.0
    crossings = []  # (t, y, phi_S) at phi_S' = 0 rising, phi_S < -0.3
    beak = []
    beak_was = False
    started = time.perf_counter()
    for k in range(n):
        q1, u1, imp = stepper.step(q, u)
        t1 = (k + 1) * h
        if u[2] < 0.0 <= u1[2] and q1[2] < -0.3 and "beak" not in imp:
            s = -u[2] / (u1[2] - u[2])
            crossings.append((t + s * h, q[0] + s * (q1[0] - q[0]), q[2] + s * (q1[2] - q[2])))
        hit = "beak" in imp and imp["beak"][0] > 0.0
        if hit and not beak_was:
            beak.append(t1)
        beak_was = hit
        q, u, t = q1, u1, t1
    return {"h": h, "t_end": t_end, "steps": n, "wall_s": time.perf_counter() - started,
            "gauss_seidel_sweeps_max": stepper.iterations_max,
            "crossings": crossings, "beak": beak}


def aitken(a, b, c):
    d = a - 2.0 * b + c
    return c if d == 0.0 else c - (c - b) ** 2 / d


def summarise(crossings, beak):
    t = [c[0] for c in crossings]
    y = [c[1] for c in crossings]
    phi = [c[2] for c in crossings]
    periods = np.diff(t)
    descent = np.diff(y)
    out = {"cycles": len(periods)}
    n = 2 * min(10, len(periods) // 4)  # an even count: alternating deviations cancel pairwise
    if n >= 2:
        out["averaged_cycles"] = n
        out["period_mean_last_n"] = float(np.mean(periods[-n:]))
        out["period_std_last_n"] = float(np.std(periods[-n:]))
        out["descent_mean_last_n"] = float(np.mean(descent[-n:]))
        out["descent_std_last_n"] = float(np.std(descent[-n:]))
    if len(periods) >= 3:
        out["period_last"] = periods[-1]
        out["period_mean_last_two"] = 0.5 * (periods[-1] + periods[-2])
        out["period_aitken"] = aitken(*periods[-3:])
        out["descent_last"] = descent[-1]
        out["descent_mean_last_two"] = 0.5 * (descent[-1] + descent[-2])
        out["descent_aitken"] = aitken(*descent[-3:])
        star = aitken(*phi[-3:])
        out["phi_S_at_section_aitken"] = star
        ratios = [(phi[i + 1] - star) / (phi[i] - star) for i in range(len(phi) - 8, len(phi) - 2)
                  if i >= 0 and phi[i] != star]
        out["multiplier_from_deviations"] = float(np.median(ratios)) if ratios else None
    if len(beak) >= 3:
        bp = np.diff(beak)
        out["beak_period_last"] = bp[-1]
        out["beak_period_mean_last_two"] = 0.5 * (bp[-1] + bp[-2])
    out["periods"] = [float(x) for x in periods]
    return out


def saltus_run(t_end):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    exe = os.path.join(root, "build", "apps", "saltus")
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([exe, "run", os.path.join(root, "models", "woodpecker.toml"), "--t-end",
                        repr(t_end), "--out", out], check=True, stdout=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(os.path.join(out, "events.csv"))))
    crossings = [(float(r["t"]), float(r["y_after"]), float(r["phi_S_after"])) for r in rows
                 if r["guard"] == "swing"]
    beak = [float(r["t"]) for r in rows if r["guard"] == "impact:beak"]
    return crossings, beak


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--h", default="1e-4,1e-5,1e-6")
    ap.add_argument("--t-end", type=float, default=6.0)
    ap.add_argument("--saltus", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    results = []
    for h in [float(x) for x in a.h.split(",")]:
        r = simulate(h, a.t_end)
        s = summarise(r["crossings"], r["beak"])
        s.update({"tool": "moreau-jean (numpy)", "h": h, "steps": r["steps"],
                  "wall_s": r["wall_s"], "gauss_seidel_sweeps_max": r["gauss_seidel_sweeps_max"]})
        results.append(s)
    if a.saltus:
        c, b = saltus_run(a.t_end)
        s = summarise(c, b)
        s.update({"tool": "saltus run (event-driven)", "h": None})
        results.append(s)
    keys = ["period_mean_last_n", "period_std_last_n", "period_aitken",
            "beak_period_mean_last_two", "descent_mean_last_n", "descent_std_last_n",
            "multiplier_from_deviations"]
    print("%-26s %-7s %6s " % ("tool", "h", "cycles") + " ".join("%-22s" % k for k in keys))
    for s in results:
        print("%-26s %-7s %6d " % (s["tool"], "-" if s["h"] is None else "%.0e" % s["h"],
                                     s["cycles"]) +
              " ".join("%-22s" % ("%.10g" % s[k] if s.get(k) is not None else "-") for k in keys))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
