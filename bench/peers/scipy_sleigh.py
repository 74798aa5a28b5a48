#!/usr/bin/python3
"""The Chaplygin sleigh billiard's time-1 maps as a SciPy user writes them (issue 12's anchor).

Reduced equations (FORMULAS.md 13.1) in (x, y, theta, v, omega): xd = v cos th, yd = v sin th,
thd = omega, vd = a omega^2, omegad = -m a v omega / J, J = I + m a^2. solve_ivp DOP853 (rtol
1e-10, atol 1e-12) with the two ends' wall functions as terminal events; at an event the impact
map (Theorem 4 in reduced velocities: the reflection of (v, omega) in the metric diag(m, J)
along dh) is applied and solve_ivp restarted. The states at t = 1, 2, ... come from t_eval.
Prints one JSON line: maps, wall seconds, us per map, relative energy error, impacts.
Usage: scipy_sleigh.py MAPS
"""
import json
import math
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

m, I, a, L, A, B = 1.0, 0.1, 0.3, 0.3, 2.0, 1.0
J = I + m * a * a


def rhs(_t, s):
    x, y, th, v, w = s
    return [v * math.cos(th), v * math.sin(th), w, a * w * w, -m * a * v * w / J]


def end_h(s, side):
    ex = s[0] + side * L * math.cos(s[2])
    ey = s[1] + side * L * math.sin(s[2])
    return 1.0 - ex * ex / (A * A) - ey * ey / (B * B)


def wall_event(side):
    def h(_t, s):
        return end_h(s, side)
    h.terminal = True
    h.direction = -1
    return h


def impact(s, side):
    x, y, th, v, w = s
    c, sn = math.cos(th), math.sin(th)
    ex, ey = x + side * L * c, y + side * L * sn
    hx, hy = -2.0 * ex / (A * A), -2.0 * ey / (B * B)  # dh/d(end position)
    g_v = hx * c + hy * sn  # dh along the reduced velocity basis (v, omega)
    g_w = side * L * (-hx * sn + hy * c)
    dh = g_v * v + g_w * w
    D = g_v * g_v / m + g_w * g_w / J
    return [x, y, th, v - 2.0 * dh / D * g_v / m, w - 2.0 * dh / D * g_w / J]


def energy(s):
    return 0.5 * (m * s[3] ** 2 + J * s[4] ** 2)


def run(maps):
    s = [0.0, 0.0, 0.3, 1.0, 0.5]
    T0 = energy(s)
    events = [wall_event(1.0), wall_event(-1.0)]
    t, impacts, samples = 0.0, 0, 0
    while t < maps:
        t_eval = np.arange(math.floor(t) + 1.0, maps + 0.5)
        r = solve_ivp(rhs, (t, float(maps)), s, method="DOP853", rtol=1e-10, atol=1e-12,
                      events=events, t_eval=t_eval)
        samples += len(r.t)
        if r.status == 1:  # an event ended the solve
            k = 0 if r.t_events[0].size else 1
            t = float(r.t_events[k][0])
            s = impact(r.y_events[k][0], 1.0 if k == 0 else -1.0)
            impacts += 1
        else:
            t, s = float(maps), r.y[:, -1]
    return samples, impacts, abs(energy(s) - T0) / T0


def main():
    maps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start = time.perf_counter()
    samples, impacts, err = run(maps)
    wall = time.perf_counter() - start
    print(json.dumps({"tool": "scipy", "maps": maps, "samples": samples, "impacts": impacts,
                      "wall_s": wall, "us_per_map": 1e6 * wall / maps,
                      "energy_rel_error": err}))


if __name__ == "__main__":
    main()
