#!/usr/bin/python3
"""Peer benchmark: Siconos numerics (python3-siconos) LCP solvers on the saltus LCP problems.

Same problems as bench/lcp_bench.cpp (identical splitmix64 generator, bitwise identical data):
for n in 2, 4, 8, 16, 32 and k = 0..63, seed 1000 n + k; strict upper triangle of a symmetric
M row by row uniform in [-1, 1], diagonal = sum of |off-diagonal| + uniform [0.1, 1] (SPD,
Delassus-like), then q uniform in [-1, 1].

Solvers: lcp_lexicolemke (Siconos' Lemke with lexicographic rule: the like-for-like peer),
lcp_enum (enumeration, first solution found, n <= 8) and lcp_pgs (projected Gauss-Seidel,
tolerance 1e-12). Each is called through the Python binding; the time per solve includes the
binding's call overhead, which is measured separately ("overhead_us": lcp_lexicolemke on a
2 x 2 problem with q >= 0, which returns without pivoting) and reported so that the table can
show it. Wall time: time.perf_counter() around REPS passes over the 64 problems, best of 5.

One JSON object per line on stdout: {"tool", "solver", "n", "time_us", "z_checksum",
"max_error", "overhead_us"}.
Run with Debian's /usr/bin/python3.
"""

import json
import sys
import time

import numpy as np
import siconos.numerics as sn
from splitmix64 import SplitMix64  # bench/peers/splitmix64.py

N_PROBLEMS = 64


def make_problems(n):
    out = []
    for k in range(N_PROBLEMS):
        g = SplitMix64(1000 * n + k)
        m = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                m[i, j] = m[j, i] = g.uniform(-1.0, 1.0)
        for i in range(n):
            s = 0.0
            for j in range(n):
                if j != i:
                    s += abs(m[i, j])
            m[i, i] = s + g.uniform(0.1, 1.0)
        q = np.array([g.uniform(-1.0, 1.0) for _ in range(n)])
        out.append((m, q))
    return out


def bench(solver_fn, options, problems, reps):
    n = problems[0][1].size
    lcps = [sn.LCP(np.ascontiguousarray(m), q.copy()) for m, q in problems]
    z = np.zeros(n)
    w = np.zeros(n)
    checksum = 0.0
    max_error = 0.0
    for lcp, (m, q) in zip(lcps, problems):
        z[:] = 0.0
        w[:] = 0.0
        info = solver_fn(lcp, z, w, options)
        if info != 0:
            raise RuntimeError(f"Siconos solver failed (info {info}) at n = {n}")
        checksum += z.sum()
        wz = m @ z + q
        max_error = max(max_error, float(np.max(np.abs(np.minimum(z, wz)))) / (1 + np.max(np.abs(q))))
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            for lcp in lcps:
                solver_fn(lcp, z, w, options)
        best = min(best, time.perf_counter() - t0)
    return best / (reps * len(lcps)) * 1e6, checksum, max_error


def main():
    sizes = [2, 4, 8, 16, 32]
    quick = "--quick" in sys.argv
    # Call overhead of the binding: a solve that returns at once (q >= 0).
    trivial = sn.LCP(np.eye(2), np.ones(2))
    z = np.zeros(2)
    w = np.zeros(2)
    opt = sn.SolverOptions(sn.SICONOS_LCP_LEMKE)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(20000):
            sn.lcp_lexicolemke(trivial, z, w, opt)
        best = min(best, time.perf_counter() - t0)
    overhead = best / 20000 * 1e6
    for n in sizes:
        problems = make_problems(n)
        reps = max(1, (200 if not quick else 20) // max(1, n // 4))
        runs = [("lexicolemke", sn.lcp_lexicolemke, sn.SolverOptions(sn.SICONOS_LCP_LEMKE))]
        if n <= 8:
            runs.append(("enum", sn.lcp_enum, sn.SolverOptions(sn.SICONOS_LCP_ENUM)))
        pgs = sn.SolverOptions(sn.SICONOS_LCP_PGS)
        pgs.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
        pgs.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 100000
        runs.append(("pgs", sn.lcp_pgs, pgs))
        for name, fn, options in runs:
            if name == "enum":
                sn.lcp_enum_init(sn.LCP(problems[0][0], problems[0][1]), options, 1)
            t, checksum, err = bench(fn, options, problems, reps)
            print(json.dumps({"tool": "siconos", "solver": name, "n": n, "time_us": t,
                              "z_checksum": checksum, "max_error": err,
                              "overhead_us": overhead}), flush=True)


if __name__ == "__main__":
    main()
