#!/usr/bin/python3
"""The rattleback of models/rattleback.toml rolling and reversing its spin (issue 48): saltus
against the same rolling model written by hand for SciPy (tests/apps/rattleback_oracle.py:
Newton-Euler for rolling without slip, solve_ivp DOP853 with an event on the spin's zeros), on
the same problem, alternated REPEATS times (interleaved, so that load on a shared machine hits
both alike).

Accuracy: the spin's zeros in [0, 6] s (3 of them, near 4.8 s) against the reference, SciPy at
rtol 1e-13 (checked against saltus at rtol 1e-13). CPU: saltus's `wall_seconds` of the
simulation (summary.json; one thread, so its CPU time) and, apart, the CPU of the whole
`saltus run` process (loading the file and deriving the equations included); SciPy's
time.process_time() around solve_ivp. Medians over the repeats, and the ratio SciPy / saltus at
each tolerance.

Usage: bench/rattleback_bench.py [SALTUS_BINARY] (default build/apps/saltus; SALTUS_BENCH_REPEATS,
default 5). Prints a markdown table (docs/BENCHMARKS.md).
"""
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "apps"))
import rattleback_oracle as oracle  # noqa: E402

MODEL = os.path.join(ROOT, "models", "rattleback.toml")
RTOLS = (1e-8, 1e-10, 1e-12)
T_END = 6.0


def parameters():
    """The file's parameters (the test's reader: values, or expressions of the ones before)."""
    from cli_rattleback_test import file_parameters
    return file_parameters(MODEL)


def saltus(binary, rtol, out):
    """The spin's zeros, the simulation's seconds and the process's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, "run", MODEL, "--out", out, "--set", "rtol=%r" % rtol,
                    "--set", "atol=%r" % (rtol * 1e-2), "--set", "solver.t_end=%r" % T_END],
                   check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(out, "events.csv")) as f:
        rows = f.read().splitlines()[1:]
    zeros = [float(r.split(",")[0]) for r in rows if r.split(",")[2] == "spin"]
    process = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return zeros, summary["wall_seconds"], process


def scipy(p, rtol):
    th = p["theta0"]
    q = np.array([math.cos(th / 2), math.sin(th / 2), 0.0, 0.0])
    w = np.array([0.0, 0.0, p["Omega"]])
    from scipy.integrate import solve_ivp

    def spin(_, y):
        return y[6]
    y0 = np.concatenate([q, w, [0.0, 0.0]])
    c0 = time.process_time()
    sol = solve_ivp(oracle.rhs(p), (0.0, T_END), y0, method="DOP853", rtol=rtol,
                    atol=rtol * 1e-2, events=spin)
    return list(sol.t_events[0]), time.process_time() - c0


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "apps", "saltus")
    repeats = int(os.environ.get("SALTUS_BENCH_REPEATS", "5"))
    p = parameters()
    work = tempfile.mkdtemp(prefix="rattleback_bench_")
    reference, _ = scipy(p, 1e-13)
    check, _, _ = saltus(binary, 1e-13, os.path.join(work, "check"))
    agree = max(abs(a - b) for a, b in zip(reference, check))
    times = {(tool, rtol): [] for tool in ("saltus", "saltus_process", "scipy") for rtol in RTOLS}
    errors = {}
    for _ in range(repeats):
        for rtol in RTOLS:
            zeros, sim, process = saltus(binary, rtol, os.path.join(work, "s%g" % rtol))
            times[("saltus", rtol)].append(sim)
            times[("saltus_process", rtol)].append(process)
            errors[("saltus", rtol)] = max(abs(a - b) for a, b in zip(zeros, reference)) \
                if len(zeros) == len(reference) else math.inf
            zeros, cpu = scipy(p, rtol)
            times[("scipy", rtol)].append(cpu)
            errors[("scipy", rtol)] = max(abs(a - b) for a, b in zip(zeros, reference)) \
                if len(zeros) == len(reference) else math.inf
    print("machine: %d cores, load average %s; %d repeats; reference: SciPy rtol 1e-13, saltus "
          "rtol 1e-13 within %.1e s of it" % (os.cpu_count(), open("/proc/loadavg").read()[:14],
                                              repeats, agree))
    print("| rtol | saltus: error of the spin zeros | saltus CPU (simulation; whole process) | "
          "SciPy DOP853: error | SciPy CPU | SciPy / saltus |")
    print("|---|---|---|---|---|---|")
    for rtol in RTOLS:
        s = statistics.median(times[("saltus", rtol)])
        sp = statistics.median(times[("saltus_process", rtol)])
        c = statistics.median(times[("scipy", rtol)])
        print("| %g | %.1e s | %.1f ms; %.0f ms | %.1e s | %.0f ms | %.0fx |" % (
            rtol, errors[("saltus", rtol)], 1e3 * s, 1e3 * sp, errors[("scipy", rtol)], 1e3 * c,
            c / s))


if __name__ == "__main__":
    main()
