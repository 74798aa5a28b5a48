#!/usr/bin/python3
"""Issue 43: do peer solvers miss impacts of the ball on a vibrating table?

Holmes' (1982) ball: flight y'' = -g, table at A sin(w t) (w = 2 pi, g = 9.81), impact when
y - A sin(w t) reaches 0 from above, reset v+ = (1 + e) A w cos(w t) - e v-. N random tables
(the generator of tests/support/vibrating_table_reference.hpp: splitmix64, bit for bit) run
through SciPy solve_ivp (RK45, DOP853; rtol 1e-10, atol 1e-12, so accuracy is not the excuse:
the flight is a parabola, which both methods integrate exactly) with a terminal event
A sin(w t) - y, direction +1, restarted after each impact from the event state with v reset
(y kept, as a user writes it); optionally also the CVODE peer
(bench/peers/vibrating_table_cvode.c, Adams and BDF), whose impacts this script reads.

Reference: the certified isolation of the C++ header, ported line for line (the same
operations in the same order, so the same doubles; --check-cpp FILE compares against the
header's output). It stops where the ball sticks or impacts accumulate (chatter); peers run to
that time + 1e-6 s and are compared before it.

Per method:
  miss (to stop)      impacts before the reference's stop differ: one missing or extra, or a
                      time off by more than 1e-6 s (the issue's criterion).
  miss (pre-chatter)  the same up to the first impact after which the reference's launch speed
                      relative to the table is below --min-speed (1e-3 m/s: flights of ~0.1 ms,
                      apex ~5e-8 m, far above the tolerances). Chatter below that is a Zeno
                      sequence no restart-per-impact solver is built for.
  stepped over        flight by flight in the pre-chatter window: from each state the peer
                      restarted at, the reference finds the first crossing; a peer impact later
                      than it by > 1e-6 s (or none) is a crossing stepped over, an earlier one
                      a spurious impact (SciPy: mostly the restart point itself, where the
                      event function is 0). This separates misses from chaos: the tables that
                      keep bouncing amplify 1e-16 to 1e-7 over 20 s, so whole-trajectory
                      comparison flags runs that missed nothing ("diverged only": a pre-chatter
                      miss with every flight right).
  penetration         largest A sin(w t) - y on the 1e-3 grid (dense output) up to the stop.

Run with Debian's /usr/bin/python3 (python3-scipy).
Usage: vibrating_table_peers.py [--tables N] [--seed S] [--cvode BINARY] [--min-speed U]
                                [--check-cpp FILE] [--methods RK45,DOP853] [--json FILE]
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from splitmix64 import GOLDEN, SplitMix64  # noqa: E402 (bench/peers/splitmix64.py)

W = 2 * math.pi
G = 9.81
T_END = 20.0
TOL_T = 1e-6
EPS = 2.220446049250313e-16

# --- generator (bench/splitmix64.hpp, vibrating_table_case in the header) ------------------


def vibrating_table_case(seed, k):
    """case k of a seed: draws 4k .. 4k+3 of splitmix64(seed)"""
    rng = SplitMix64(seed + 4 * k * GOLDEN)
    A = rng.uniform(0.05, 0.6)
    e = rng.uniform(0.1, 0.9)
    y0 = A + rng.uniform(0.05, 1.0)
    v0 = rng.uniform(-1.0, 1.0)
    return {"A": A, "e": e, "y0": y0, "v0": v0}


# --- reference (tests/support/vibrating_table_reference.hpp, same operations) --------------


def sin_m(x):
    if abs(x) >= 1:
        return math.sin(x) - x
    x2 = x * x
    term = -x * x2 / 6
    s = term
    n = 5
    while abs(term) > 1e-17 * abs(s):
        term *= -x2 / ((n - 1) * n)
        s += term
        n += 2
    return s


def cos_m(x):
    h = math.sin(x / 2)
    return -2 * h * h


class Flight:
    """the gap h(tau) = y - A sin(w t) along one flight from (tk, hk, u), tau = t - tk"""

    def __init__(self, A, w, g, tk, hk, u):
        self.A, self.w, self.g, self.tk, self.hk, self.u = A, w, g, tk, hk, u
        self.M = (g + A * w * w) * (1 + 1e-12)
        self.s, self.c = math.sin(w * tk), math.cos(w * tk)

    def h(self, tau):
        x = self.w * tau
        return (self.hk + self.u * tau - 0.5 * self.g * tau * tau
                - self.A * (self.s * cos_m(x) + self.c * sin_m(x)))

    def hp(self, tau):
        x = self.w * tau
        return self.u - self.g * tau - self.A * self.w * (self.c * cos_m(x) - self.s * math.sin(x))

    def h_err(self, tau):
        x = self.w * tau
        return 16 * EPS * (abs(self.hk) + abs(self.u * tau) + 0.5 * self.g * tau * tau
                           + self.A * (abs(self.s * cos_m(x)) + abs(self.c * sin_m(x))))

    def hp_err(self, tau):
        x = self.w * tau
        return 16 * EPS * (abs(self.u) + self.g * tau + self.A * self.w
                           * (abs(self.c * cos_m(x)) + abs(self.s * math.sin(x))))


def _scan(f, a, b):
    """first tau in (a, b] with h <= 0, given h(a) > 0: (kind, tau), kind none/impact/graze"""
    (ta, ha, hpa), (tb, hb, hpb) = a, b
    L = tb - ta
    quad = 0.5 * f.M * L * L
    ea = f.h_err(ta) + f.hp_err(ta) * L + 16 * EPS * quad
    eb = f.h_err(tb) + f.hp_err(tb) * L + 16 * EPS * quad
    if ha > ea and ha + hpa * L - quad > ea:
        return ("none", 0.0)
    if hb > eb and hb - hpb * L - quad > eb:
        return ("none", 0.0)
    spread = f.M * L + f.hp_err(ta)
    if hpa - spread > 0:
        return ("none", 0.0)
    if hpa + spread < 0:
        if hb > 0:
            return ("none", 0.0)
        lo, hi = ta, tb
        while True:
            mid = lo + 0.5 * (hi - lo)
            if mid <= lo or mid >= hi:
                break
            if f.h(mid) > 0:
                lo = mid
            else:
                hi = mid
        return ("impact", hi)
    mid = ta + 0.5 * L
    if f.tk + mid == f.tk + ta or f.tk + mid == f.tk + tb:
        return ("graze", ta)
    m = (mid, f.h(mid), f.hp(mid))
    left = _scan(f, a, m)
    if left[0] != "none":
        return left
    return _scan(f, m, b)


def first_crossing(f, tau0, tau_end):
    chunk = 0.5 * math.pi / f.w
    a = (tau0, f.h(tau0), f.hp(tau0))
    while a[0] < tau_end:
        tb = min(a[0] + chunk, tau_end)
        b = (tb, f.h(tb), f.hp(tb))
        r = _scan(f, a, b)
        if r[0] != "none":
            return r
        a = b
    return ("none", 0.0)


def reference(A, w, e, g, t0, y0, v0, t_end, max_impacts=1000):
    """(impacts [(t, v_after, rel_speed)], stop, t_stop), as the header's function"""
    f = Flight(A, w, g, t0, y0 - A * math.sin(w * t0), v0 - A * w * math.cos(w * t0))
    assert f.hk > 0
    tau0 = 0.0
    impacts = []
    while True:
        kind, tau = first_crossing(f, tau0, t_end - f.tk)
        t = f.tk + tau
        if kind == "none":
            return impacts, "end", t_end
        if kind == "graze":
            return impacts, "grazes", t
        rel = -f.hp(tau)
        u = e * rel
        impacts.append((t, u + A * w * math.cos(w * t), rel))
        f = Flight(A, w, g, t, 0.0, u)
        tau0 = u / f.M
        if not u > 0:
            return impacts, "sticks", t
        ulp = math.nextafter(t, math.inf) - t
        if len(impacts) >= max_impacts or tau0 < 64 * ulp or not f.h(tau0) > 0:
            return impacts, "accumulates", t


def next_crossing_from(A, tk, yk, vk, t_until):
    """The reference's first crossing after a peer's restart state (tk, yk, vk): its time,
    None if there is none before t_until, or 'undecided' (the peer restarted below the table or
    moving into it, or a tangency)."""
    hk = yk - A * math.sin(W * tk)
    u = vk - A * W * math.cos(W * tk)
    if hk > 0:
        f, tau0 = Flight(A, W, G, tk, hk, u), 0.0
    elif hk > -1e-9 and u > 0:  # on the table within the peer's tolerance: put it there
        f = Flight(A, W, G, tk, 0.0, u)
        tau0 = u / f.M
        if tk + tau0 == tk:
            return "undecided"
    else:
        return "undecided"
    kind, tau = first_crossing(f, tau0, t_until - tk)
    if kind == "impact":
        return tk + tau
    return None if kind == "none" else "undecided"


# --- SciPy peer -----------------------------------------------------------------------------


def scipy_run(case, method, t_final, rtol, atol, max_events=2000):
    """impacts [(t, y_located, v_after)], max penetration on the 1e-3 grid, status"""
    A, e = case["A"], case["e"]

    def rhs(t, y):
        return np.array([y[1], -G])

    def table(t, y):
        return A * math.sin(W * t) - y[0]

    table.terminal = True
    table.direction = 1
    t, y = 0.0, np.array([case["y0"], case["v0"]])
    impacts, pen, status, stalled = [], 0.0, "end", 0
    while t < t_final:
        if len(impacts) >= max_events:
            status = "event-cap"
            break
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sol = solve_ivp(rhs, (t, t_final), y, method=method, rtol=rtol, atol=atol,
                            events=table, dense_output=True)
        t_seg = sol.t[-1]
        k0, k1 = math.floor(t * 1000) + 1, math.floor(t_seg * 1000)
        if k1 >= k0 and sol.sol is not None:
            grid = np.arange(k0, k1 + 1) * 1e-3
            ys = sol.sol(grid)[0]
            pen = max(pen, float(np.max(A * np.sin(W * grid) - ys)))
        if sol.status == 1:
            te, ye = float(sol.t_events[0][0]), sol.y_events[0][0]
            vplus = (1 + e) * A * W * math.cos(W * te) - e * ye[1]
            impacts.append((te, float(ye[0]), vplus))
            stalled = stalled + 1 if te <= t else 0
            if stalled > 10:
                status = "stalled"
                break
            t, y = te, np.array([ye[0], vplus])
        elif sol.status == 0:
            break
        else:
            status = "failed: " + sol.message
            break
    return impacts, pen, status


# --- comparison -----------------------------------------------------------------------------


def lists_differ(ref_times, peer_times, t_window):
    r = [t for t in ref_times if t <= t_window]
    p = [t for t in peer_times if t <= t_window + TOL_T]
    if len(r) != len(p):
        return True
    return any(abs(a - b) > TOL_T for a, b in zip(r, p))


def stepped_over(case, peer_impacts, t_window):
    """flight by flight up to t_window: 'missed' (a crossing stepped over), 'spurious',
    'undecided' (the peer restarted where the reference cannot start: below the table or moving
    into it, without an earlier discrepancy), or '' (every flight right)"""
    state = (0.0, case["y0"], case["v0"])
    i = 0
    while True:
        t_ref = next_crossing_from(case["A"], *state, t_window + TOL_T)
        t_peer = peer_impacts[i][0] if i < len(peer_impacts) else None
        if t_ref == "undecided":
            return "undecided"
        if t_ref is None:
            return "spurious" if t_peer is not None and t_peer <= t_window else ""
        if t_peer is None or t_peer > t_ref + TOL_T:
            return "missed"
        if t_peer < t_ref - TOL_T:
            return "spurious"
        state = peer_impacts[i]
        i += 1


def chatter_cut(ref_impacts, t_stop, e, min_speed):
    """time of the first reference impact after which the launch speed e * rel < min_speed"""
    for t, _, rel in ref_impacts:
        if e * rel < min_speed:
            return t
    return t_stop


def run_cvode(binary, seed, n, windows, rtol, atol):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join("%.17g\n" % w for w in windows))
        until = f.name
    out = {}
    try:
        for method in ("adams", "bdf"):
            p = subprocess.run([binary, "--seed", str(seed), "--tables", str(n), "--method",
                                method, "--rtol", repr(rtol), "--atol", repr(atol), "--until",
                                until], capture_output=True, text=True, check=True)
            for line in p.stdout.splitlines():
                d = json.loads(line)
                out[(d["tool"], d["table"])] = d
    finally:
        os.unlink(until)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seed", type=lambda s: int(s, 0), default=43)
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--min-speed", type=float, default=1e-3)
    ap.add_argument("--methods", default="RK45,DOP853")
    ap.add_argument("--cvode", help="path of the built bench/peers/vibrating_table_cvode")
    ap.add_argument("--check-cpp", help="JSON lines of the C++ header's reference to compare")
    ap.add_argument("--json", help="write per-table results here")
    a = ap.parse_args()

    cases = [vibrating_table_case(a.seed, k) for k in range(a.tables)]
    refs = [reference(c["A"], W, c["e"], G, 0.0, c["y0"], c["v0"], T_END) for c in cases]
    stops = {}
    for r in refs:
        stops[r[1]] = stops.get(r[1], 0) + 1
    print("seed %#x, %d tables; reference stops: %s" % (a.seed, a.tables, ", ".join(
        "%s %d" % kv for kv in sorted(stops.items()))))

    if a.check_cpp:
        same = 0
        rows = [json.loads(line) for line in open(a.check_cpp)]
        for d in rows:
            c, (imp, stop, t_stop) = cases[d["k"]], refs[d["k"]]
            ok = ([c["A"], c["e"], c["y0"], c["v0"]] == [d["A"], d["e"], d["y0"], d["v0"]]
                  and stop == d["stop"] and t_stop == d["t_stop"]
                  and [list(x) for x in imp] == d["impacts"])
            same += ok
        print("Python reference == C++ header, bit for bit: %d of %d tables" % (same, len(rows)))

    # peers run to the reference's stop (+1e-6 s); compared before it
    runs_to = [T_END if stop == "end" else min(T_END, t_stop + TOL_T) for _, stop, t_stop in refs]
    cuts = [chatter_cut(imp, t_stop, c["e"], a.min_speed) for c, (imp, _, t_stop) in
            zip(cases, refs)]
    results = {}
    for m in a.methods.split(","):
        for k, c in enumerate(cases):
            results[(m, k)] = scipy_run(c, m, runs_to[k], a.rtol, a.atol)
    methods = a.methods.split(",")
    if a.cvode:
        cv = run_cvode(a.cvode, a.seed, a.tables, runs_to, a.rtol, a.atol)
        for (tool, k), d in cv.items():
            results[(tool, k)] = ([tuple(x) for x in d["impacts"]], d["penetration"], d["status"])
        methods += ["cvode-adams", "cvode-bdf"]

    print("rtol %g, atol %g; a miss: an impact missing or extra, or off by > %g s"
          % (a.rtol, a.atol, TOL_T))
    print("| method | tables | miss (to stop) | miss (pre-chatter) | stepped over | spurious "
          "| diverged only | largest penetration (m) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    per_table = []
    for m in methods:
        n_stop = n_cut = n_over = n_spur = n_div = 0
        pen_max = 0.0
        for k, c in enumerate(cases):
            imp, pen, status = results[(m, k)]
            ref_imp, stop, t_stop = refs[k]
            rt, pt = [x[0] for x in ref_imp], [x[0] for x in imp]
            miss_stop = lists_differ(rt, pt, t_stop)
            miss_cut = lists_differ(rt, pt, cuts[k])
            over = stepped_over(c, imp, cuts[k])
            n_stop += miss_stop
            n_cut += miss_cut
            n_over += over == "missed"
            n_spur += over == "spurious"
            n_div += miss_cut and over == ""
            pen_max = max(pen_max, pen)
            per_table.append({"method": m, "table": k, **c, "ref_stop": stop, "t_stop": t_stop,
                              "t_cut": cuts[k], "ref_impacts": len(rt), "peer_impacts": len(pt),
                              "miss_to_stop": miss_stop, "miss_pre_chatter": miss_cut,
                              "flight_check": over, "penetration": pen, "status": status})
        print("| %s | %d | %d | %d | %d | %d | %d | %.2e |" % (m, len(cases), n_stop, n_cut,
                                                               n_over, n_spur, n_div, pen_max))
    if a.json:
        with open(a.json, "w") as f:
            for row in per_table:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    sys.exit(main())
