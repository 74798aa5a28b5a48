#!/usr/bin/env python3
"""Writes the seed inputs of tests/lcp/fuzz_corpus (the issue-16 reproductions and bad input)
in the byte format of lcp_fuzzer.cpp. Run from the repository root."""
import math
import os

OUT = "tests/lcp/fuzz_corpus"


def entry(x):
    if isinstance(x, str):
        return bytes([0xFF, {"nan": 0, "inf": 1, "-inf": 2, "zero": 3}[x]])
    if x == 0:
        return bytes([0xFE, 0])
    e = math.floor(math.log10(abs(x)))
    mantissa = abs(x) / 10.0 ** e  # in [1, 10): take what fits in (1 + b / 256)
    while mantissa >= 2.0 - 1.0 / 256:
        mantissa /= 10.0
        e += 1
    if mantissa < 1.0:
        mantissa *= 10.0
        e -= 1
    b = min(255, round((mantissa - 1.0) * 256))
    a = 2 * (e + 20) + (1 if x < 0 else 0)
    return bytes([a, b])


def problem(name, m, q, flags=0, n=None):
    n = len(q) if n is None else n
    body = bytes([n, flags]) + b"".join(entry(v) for row in m for v in row)
    body += b"".join(entry(v) for v in q)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(body)


os.makedirs(OUT, exist_ok=True)
problem("huge_scalar", [[1e12]], [-1])
problem("diag_1e11_1e-2_a", [[1e11, 0], [0, 1e-2]], [-1e-2, -1])
problem("diag_1e11_1e-2_b", [[1e11, 0], [0, 1e-2]], [-1, -1e-2])
problem("diag_1e13_1", [[1e13, 0], [0, 1]], [-1, -1])
three = [[1, 1.99, 0, 0], [1.99, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
problem("three_solutions_1e8", [[1e8 * v for v in r] for r in three], [-1e8] * 4)
problem("three_solutions_1e-8", [[1e-8 * v for v in r] for r in three], [-1e-8] * 4)
problem("stiff_pivot_tolerance_5e-6", [[1e6, 2e2, 0], [2e2, 1, 0.1], [0, 0.1, 0.5]],
        [-1e3, -1, -0.2], flags=0x08)
problem("ray_zero_matrix", [[0, 0], [0, 0]], [-1, 1])
problem("first_row_cycles", [[1, 1.99, -1.99], [0, 1, 1.99], [1.99, -1.99, 1]], [-1, -1, -1],
        flags=0x02)
problem("nan_in_m", [[1, "nan"], [0, 1]], [-1, -1])
problem("inf_in_q", [[1, 0], [0, 1]], [-1, "-inf"])
problem("mismatched_q", [[1, 0], [0, 1]], [-1, -1, -1], flags=0x10)
problem("non_square_m", [[1, 0, 0], [0, 1, 0]], [-1, -1], flags=0x20)
problem("empty", [], [], n=0)
problem("unequilibrated_wide_range", [[1e20, 1e-20], [1e-20, 1e-20]], [-1e-20, -1e20],
        flags=0x01)
