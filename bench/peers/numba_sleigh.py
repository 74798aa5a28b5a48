#!/usr/bin/python3
"""The Chaplygin sleigh billiard's time-1 maps as hand-written numba code (issue 12's anchor).

The free flight by its closed form (FORMULAS.md 13.1: v, omega, theta exact; the blade's x, y by
8-point Gauss-Legendre quadrature of v (cos th, sin th) on sub-steps of 0.05), the two ends'
wall functions checked at every sub-step end, a crossing located by Illinois false position and
the impact map of Theorem 4 in reduced velocities. Same problem and start as scipy_sleigh.py and
bench/sleigh_maps_bench.cpp. An end leaving and re-entering within one sub-step is not seen
(the shortcut such code takes). Prints one JSON line like scipy_sleigh.py.
Usage: numba_sleigh.py MAPS
"""
import json
import math
import sys
import time

import numpy as np
from numba import njit

m, I, a, L, A, B = 1.0, 0.1, 0.3, 0.3, 2.0, 1.0
J = I + m * a * a
SUB = 0.05
NODES, WEIGHTS = np.polynomial.legendre.leggauss(8)


@njit(cache=False)
def arc_constants(v0, w0):
    """V, tau0, gd(tau0), cosh(tau0) of an arc (computed once per arc)."""
    V = math.sqrt(v0 * v0 + J * w0 * w0 / m)
    tau0 = math.atanh(v0 / V) if w0 != 0.0 else 0.0
    return V, tau0, 2.0 * math.atan(math.tanh(tau0 / 2.0)), math.cosh(tau0)


@njit(cache=False)
def flow_vwth(v0, w0, th0, t, V, tau0, gd0, ch0):
    """v, omega, theta at time t of an arc from (v0, omega0, theta0)."""
    if w0 == 0.0:
        return v0, 0.0, th0
    tau = a * m * V * t / J + tau0
    gd = 2.0 * math.atan(math.tanh(tau / 2.0)) - gd0
    th = th0 + math.copysign(1.0, w0) * math.sqrt(J / m) * gd / a
    return V * math.tanh(tau), w0 * ch0 / math.cosh(tau), th


@njit(cache=False)
def advance(x, y, v0, w0, th0, t0, t1, nodes, weights, c):
    """Blade position at arc time t1 from the one at arc time t0."""
    half = 0.5 * (t1 - t0)
    for i in range(nodes.size):
        v, _, th = flow_vwth(v0, w0, th0, t0 + half * (1.0 + nodes[i]), c[0], c[1], c[2], c[3])
        x += half * weights[i] * v * math.cos(th)
        y += half * weights[i] * v * math.sin(th)
    return x, y


@njit(cache=False)
def end_h(x, y, th, side):
    ex = x + side * L * math.cos(th)
    ey = y + side * L * math.sin(th)
    return 1.0 - ex * ex / (A * A) - ey * ey / (B * B)


@njit(cache=False)
def lowest_h(x, y, th):
    return min(end_h(x, y, th, 1.0), end_h(x, y, th, -1.0))


@njit(cache=False)
def run(maps, nodes, weights):
    # Arc start state: position, heading, reduced velocities; t_arc = time of the arc's start.
    x, y, th, v, w = 0.0, 0.0, 0.3, 1.0, 0.5
    T0 = 0.5 * (m * v * v + J * w * w)
    t_arc, s = 0.0, 0.0  # s: time within the arc of the current sub-step start
    px, py = x, y  # blade position at arc time s
    impacts, samples = 0, 0
    next_sample = 1.0
    c = arc_constants(v, w)
    zero_arcs = 0  # consecutive impacts at the start of their arc (no progress)
    while next_sample <= maps:
        s1 = min(s + SUB, next_sample - t_arc)
        qx, qy = advance(px, py, v, w, th, s, s1, nodes, weights, c)
        _, _, th1 = flow_vwth(v, w, th, s1, c[0], c[1], c[2], c[3])
        if lowest_h(qx, qy, th1) < 0.0:
            # Illinois false position on the lowest end's h over [s, s1].
            lo, hi = s, s1
            f_lo, f_hi = lowest_h(px, py, flow_vwth(v, w, th, s, c[0], c[1], c[2], c[3])[2]), \
                lowest_h(qx, qy, th1)
            side_kept = 0
            for _ in range(60):
                mid = hi - f_hi * (hi - lo) / (f_hi - f_lo)
                mx, my = advance(px, py, v, w, th, s, mid, nodes, weights, c)
                f_mid = lowest_h(mx, my, flow_vwth(v, w, th, mid, c[0], c[1], c[2], c[3])[2])
                if f_mid < 0.0:
                    hi, f_hi = mid, f_mid
                    if side_kept == -1:
                        f_lo *= 0.5
                    side_kept = -1
                else:
                    lo, f_lo = mid, f_mid
                    if side_kept == 1:
                        f_hi *= 0.5
                    side_kept = 1
                if hi - lo < 1e-13 or f_mid == 0.0:
                    break
            ix, iy = advance(px, py, v, w, th, s, lo, nodes, weights, c)
            vi, wi, thi = flow_vwth(v, w, th, lo, c[0], c[1], c[2], c[3])
            side = 1.0 if end_h(ix, iy, thi, 1.0) < end_h(ix, iy, thi, -1.0) else -1.0
            c, sn = math.cos(thi), math.sin(thi)
            ex, ey = ix + side * L * c, iy + side * L * sn
            hx, hy = -2.0 * ex / (A * A), -2.0 * ey / (B * B)
            g_v = hx * c + hy * sn
            g_w = side * L * (-hx * sn + hy * c)
            dh = g_v * vi + g_w * wi
            D = g_v * g_v / m + g_w * g_w / J
            x, y, th = ix, iy, thi
            v, w = vi - 2.0 * dh / D * g_v / m, wi - 2.0 * dh / D * g_w / J
            t_arc += lo
            s, px, py = 0.0, x, y
            c = arc_constants(v, w)
            impacts += 1
            # The shortcut's failure mode: an impact found again at the start of its own arc,
            # forever (seen from this start between 15000 and 20000 maps). Stop and say so.
            zero_arcs = zero_arcs + 1 if lo <= 1e-12 else 0
            if zero_arcs > 1000:
                return samples, impacts, -1.0
            continue
        s, px, py = s1, qx, qy
        if t_arc + s >= next_sample - 1e-12:
            samples += 1
            next_sample += 1.0
    vf, wf, _ = flow_vwth(v, w, th, s, c[0], c[1], c[2], c[3])
    return samples, impacts, abs(0.5 * (m * vf * vf + J * wf * wf) - T0) / T0


def main():
    maps = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    run(10, NODES, WEIGHTS)  # compile outside the timing
    start = time.perf_counter()
    samples, impacts, err = run(maps, NODES, WEIGHTS)
    wall = time.perf_counter() - start
    if err < 0.0:  # stuck: impacts at the start of their arc, no time advancing
        print(f"numba_sleigh: stuck after {samples} maps ({impacts} impacts): an impact found "
              "again at the start of its own arc, 1000 times in a row", file=sys.stderr)
        sys.exit(2)
    print(json.dumps({"tool": "numba", "maps": maps, "samples": int(samples),
                      "impacts": int(impacts), "wall_s": wall, "us_per_map": 1e6 * wall / maps,
                      "energy_rel_error": err}))


if __name__ == "__main__":
    main()
