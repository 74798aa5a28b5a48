#!/usr/bin/python3
"""Reference impact times of the bouncing ball with linear air drag.

Problem "drag" of the peer benchmarks: x' = v, v' = -g - c v, impact when x reaches 0
moving down, reset v+ = -e v-.  g = 9.81, c = 0.5, e = 0.8, x(0) = 1, v(0) = 0.

Each flight has a closed form.  With s the time since the flight began at (x_k, v_k):

    v(s) = (v_k + g/c) exp(-c s) - g/c
    x(s) = x_k + (v_k + g/c) (1 - exp(-c s)) / c - g s / c

The end of the flight is the root of x(s) = 0 after the apex.  It is bracketed
(x > 0 at the apex, x < 0 further on), narrowed by bisection and polished by Newton's
method (x'(s) = v(s)) in mpmath with 60 working digits; 40 digits are kept.

Usage: drag_reference.py [output.json] [--check]
  output.json  default: drag_reference.json next to this script
  --check      also integrates the first flights with mpmath's Taylor ODE solver
               (independent of the closed form) and compares the impact times.
"""

import json
import os
import sys

import mpmath as mp

G = "9.81"
C = "0.5"
E = "0.8"
X0 = "1"
V0 = "0"
IMPACTS = 20
DIGITS = 40  # digits kept in the output
WORK_DIGITS = 60  # working precision


def flight_functions(xk, vk, g, c):
    a = vk + g / c

    def x(s):
        return xk + a * (1 - mp.exp(-c * s)) / c - g * s / c

    def v(s):
        return a * mp.exp(-c * s) - g / c

    return x, v


def flight_end(xk, vk, g, c):
    """First root s > 0 of x(s) on the way down (xk >= 0, apex at v(s) = 0)."""
    x, v = flight_functions(xk, vk, g, c)
    s_apex = mp.log(1 + c * vk / g) / c if vk > 0 else mp.mpf(0)
    lo = s_apex
    if x(lo) <= 0:
        raise ValueError("flight starts at or below the floor with no upward velocity")
    step = max(s_apex, mp.sqrt(2 * x(s_apex) / g), mp.mpf("1e-30"))
    hi = lo + step
    while x(hi) > 0:  # widen until the ball is below the floor
        lo = hi
        step *= 2
        hi = lo + step
    # bisection to a narrow bracket, then Newton (quadratic convergence)
    for _ in range(60):
        mid = (lo + hi) / 2
        if x(mid) > 0:
            lo = mid
        else:
            hi = mid
    s = (lo + hi) / 2
    tol = mp.mpf(10) ** (-(WORK_DIGITS - 5))
    for _ in range(50):
        ds = x(s) / v(s)
        s -= ds
        if abs(ds) <= tol * max(1, abs(s)):
            break
    else:
        raise RuntimeError("Newton did not converge")
    if not (lo <= s <= hi):
        raise RuntimeError("Newton left the bracket")
    return s, v(s)


def reference():
    mp.mp.dps = WORK_DIGITS
    g, c, e = mp.mpf(G), mp.mpf(C), mp.mpf(E)
    xk, vk, t = mp.mpf(X0), mp.mpf(V0), mp.mpf(0)
    times, v_minus = [], []
    for _ in range(IMPACTS):
        s, v_end = flight_end(xk, vk, g, c)
        t += s
        times.append(t)
        v_minus.append(v_end)
        xk, vk = mp.mpf(0), -e * v_end
    return times, v_minus


def taylor_check(times, flights=3):
    """Integrates the ODE with mp.odefun (Taylor series), independent of the closed form."""
    mp.mp.dps = 30
    g, c, e = mp.mpf(G), mp.mpf(C), mp.mpf(E)
    y0 = [mp.mpf(X0), mp.mpf(V0)]
    t0 = mp.mpf(0)
    worst = mp.mpf(0)
    for k in range(flights):
        sol = mp.odefun(lambda t, y: [y[1], -g - c * y[1]], t0, y0)
        tk = mp.findroot(lambda t: sol(t)[0], mp.mpf(times[k]))
        worst = max(worst, abs(tk - times[k]))
        vm = sol(tk)[1]
        y0 = [mp.mpf(0), -e * vm]
        t0 = tk
    return worst


def main(argv):
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "drag_reference.json")
    check = False
    for a in argv[1:]:
        if a == "--check":
            check = True
        else:
            out = a
    times, v_minus = reference()
    doc = {
        "problem": "drag",
        "description": "x' = v, v' = -g - c v; impact at x = 0 moving down; v+ = -e v-",
        "g": float(G),
        "c": float(C),
        "e": float(E),
        "x0": float(X0),
        "v0": float(V0),
        "method": "closed-form flights, root by bisection + Newton in mpmath at "
        f"{WORK_DIGITS} digits, {DIGITS} kept",
        "mpmath_version": mp.__version__,
        # strings keep all 40 digits; the numbers are the same values for double readers
        "impact_times_str": [mp.nstr(t, DIGITS, strip_zeros=False) for t in times],
        "pre_impact_velocities_str": [mp.nstr(v, DIGITS, strip_zeros=False) for v in v_minus],
        "impact_times": [float(t) for t in times],
    }
    if check:
        worst = taylor_check(times)
        doc["taylor_check_first3_max_abs_diff"] = mp.nstr(worst, 5)
        print(f"Taylor-series check, first 3 impacts: max |diff| = {mp.nstr(worst, 5)}",
              file=sys.stderr)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
