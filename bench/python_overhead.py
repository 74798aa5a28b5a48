#!/usr/bin/python3
"""Issue 14: what the Python package adds to a run, and the 100-value sweep from Python.

1. Overhead per run: `model.run()` timed in Python minus the engine's own time inside the call
   (run_model, measured in C++: Run.engine_seconds), for models/bouncing_ball.toml (through its
   Zeno point to rest); also the cost of taking the trajectory and event tables as numpy arrays.
2. Side by side, the same ball with SciPy's solve_ivp (RK45, rtol 1e-10, atol 1e-12, a terminal
   impact event and a restart per bounce, as bench/peers/scipy_ball.py does), stopped after the
   same number of impacts saltus logs before its Zeno hand-over.
3. The sweep e = 0.05 .. 0.95 (100 points): saltus.sweep on 2 threads, a Python loop of
   model.with_values(e=..).run(), and the `saltus sweep` command (subprocess), interleaved.
Medians of interleaved repeats. Usage: PYTHONPATH=build/python python_overhead.py [REPEATS] [SALTUS]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp

import saltus

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BALL = os.path.join(ROOT, "models", "bouncing_ball.toml")
G, E, H0 = 9.81, 0.8, 1.0


def scipy_ball(impacts):
    def flight(t, y):
        return [y[1], -G]

    def ground(t, y):
        return y[0]

    ground.terminal, ground.direction = True, -1
    t, y, n = 0.0, [H0, 0.0], 0
    while n < impacts:
        sol = solve_ivp(flight, (t, 10.0), y, method="RK45", rtol=1e-10, atol=1e-12, events=ground)
        t, yv = sol.t_events[0][0], sol.y_events[0][0]
        y, n = [0.0, -E * yv[1]], n + 1
    return t


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    cli = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "apps", "saltus")
    model = saltus.load(BALL)
    first = model.run()
    impacts = sum(1 for g in first.events["guard"] if g == "impact")
    values = [0.95 if k == 99 else 0.05 + 0.9 * k / 99 for k in range(100)]
    over, tables, total, scipy_t, sweep_t, loop_t, cli_t = [], [], [], [], [], [], []
    work = tempfile.mkdtemp()
    for _ in range(repeats):
        for _ in range(50):  # 50 runs per repeat: per-run overhead
            t0 = time.perf_counter()
            r = model.run()
            t1 = time.perf_counter()
            r.trajectory, r.events
            t2 = time.perf_counter()
            over.append(t1 - t0 - r._core.engine_seconds)
            total.append(t1 - t0)
            tables.append(t2 - t1)
        t0 = time.perf_counter()
        scipy_ball(impacts)
        scipy_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        saltus.sweep(BALL, {"e": (0.05, 0.95, 100)}, ["zeno_time", "events.count"], threads=2)
        sweep_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for e in values:
            model.with_values(e=e).run()
        loop_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        subprocess.run([cli, "sweep", BALL, "--vary", "e=0.05:0.95:100", "--collect",
                        "zeno_time,events.count", "--threads", "2", "--no-plot", "--out",
                        os.path.join(work, "s")], check=True, capture_output=True)
        cli_t.append(time.perf_counter() - t0)
    med = statistics.median
    print(f"ball to rest ({impacts} impacts, Zeno hand-over), {repeats} x 50 runs:")
    print(f"  saltus model.run() total       median {med(total) * 1e6:9.1f} us")
    print(f"  of which Python overhead        median {med(over) * 1e6:9.1f} us")
    print(f"  trajectory + events as arrays   median {med(tables) * 1e6:9.1f} us")
    print(f"  SciPy solve_ivp RK45, {impacts} impacts median {med(scipy_t) * 1e6:9.1f} us"
          f"  (ratio to saltus run {med(scipy_t) / med(total):.0f}x)")
    print("sweep e = 0.05 .. 0.95, 100 points:")
    print(f"  saltus.sweep, 2 threads         median {med(sweep_t) * 1e3:8.1f} ms")
    print(f"  Python loop of with_values().run() median {med(loop_t) * 1e3:8.1f} ms")
    print(f"  `saltus sweep -j 2` (subprocess) median {med(cli_t) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
