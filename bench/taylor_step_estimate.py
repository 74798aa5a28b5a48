#!/usr/bin/env python3
"""How many steps per unit time would a Taylor-series integrator take on the sleigh billiard?

An estimate for issue 12 (the speed ratio): the free flights of a saltus run of the sleigh
(events.csv of `saltus run models/chaplygin_sleigh.toml`) are re-integrated with the reduced
flow of FORMULAS.md 13.1 (v' = a w^2, w' = -m a v w / (I + m a^2), theta' = w,
x' = v cos theta, y' = v sin theta) by Taylor series of a fixed order, each flight from the
state after an impact to the next impact time. The step is the largest h whose last two terms
|x_p| h^p and |x_(p-1)| h^(p-1) stay below tol * max(1, |x|) (Jorba & Zou's rule without its
fixed e^-2 factor), times 0.9. Prints steps per unit time per order, to compare with the
accepted and rejected steps of DOP853 in summary.json of the same run.

    saltus run models/chaplygin_sleigh.toml --t-end 10000 --set solver.rtol=1e-6 --out DIR
    bench/taylor_step_estimate.py DIR/events.csv 1e-6 8,10,12,16 [FLIGHTS=400]
"""
import csv
import math
import sys

M, INERTIA, A = 1.0, 0.1, 0.3  # the model file's m, I, a
K = M * A / (INERTIA + M * A * A)


def jet(state, order):
    """Taylor coefficients (theta, v, w, x, y) of the reduced flow at `state`, to `order`."""
    th, v, w, x, y = ([0.0] * (order + 1) for _ in range(5))
    s, c = [0.0] * (order + 1), [0.0] * (order + 1)
    th[0], v[0], w[0], x[0], y[0] = state
    s[0], c[0] = math.sin(th[0]), math.cos(th[0])
    for n in range(order):
        if n > 0:  # sin and cos of theta: s' = c theta', c' = -s theta'
            s[n] = sum(j * th[j] * c[n - j] for j in range(1, n + 1)) / n
            c[n] = -sum(j * th[j] * s[n - j] for j in range(1, n + 1)) / n

        def conv(p, q):
            return sum(p[j] * q[n - j] for j in range(n + 1))

        th[n + 1] = w[n] / (n + 1)
        v[n + 1] = A * conv(w, w) / (n + 1)
        w[n + 1] = -K * conv(v, w) / (n + 1)
        x[n + 1] = conv(v, c) / (n + 1)
        y[n + 1] = conv(v, s) / (n + 1)
    return [th, v, w, x, y]


def flight_steps(state, duration, tol, order):
    t, steps = 0.0, 0
    while t < duration:
        series = jet(state, order)
        scale = max(1.0, max(abs(u[0]) for u in series))
        h = min((tol * scale / max(abs(u[q]), 1e-300)) ** (1.0 / q)
                for u in series for q in (order - 1, order))
        h = min(0.9 * h, duration - t)
        state = [sum(u[k] * h**k for k in range(order + 1)) for u in series]
        t += h
        steps += 1
    return steps


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    tol = float(sys.argv[2])
    orders = [int(p) for p in sys.argv[3].split(",")]
    flights = int(sys.argv[4]) if len(sys.argv) > 4 else 400
    for order in orders:
        steps, time = 0, 0.0
        count = min(len(rows) - 1, flights)
        for r, following in zip(rows[:count], rows[1:count + 1]):
            th = float(r["theta_after"])
            v = float(r["x'_after"]) * math.cos(th) + float(r["y'_after"]) * math.sin(th)
            state = [th, v, float(r["theta'_after"]), float(r["x_after"]), float(r["y_after"])]
            duration = float(following["t"]) - float(r["t"])
            steps += flight_steps(state, duration, tol, order)
            time += duration
        print(f"tol {tol:g}, order {order}: {steps / time:.2f} steps per unit time "
              f"({steps} steps over {time:.1f} time units, {count} flights)")


if __name__ == "__main__":
    main()
