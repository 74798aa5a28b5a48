#!/usr/bin/env python3
"""End-to-end tests of spatial rigid bodies whose orientation is a quaternion of four coordinates
(issue 48; src/model/loader/body_quaternion.cpp): no chart, so no pole.

- Lagrange's top with quaternion coordinates against lagrange_top_oracle.py (elliptic integrals,
  SciPy): the turns of 100 nutation periods, the precession per period, energy and both momenta
  along the trajectory, and how far |q| drifts from 1.
- The top released near upright without spin, which ends the ZXZ chart's run at its pole, swings
  through it as a physical pendulum (Jacobi's elliptic functions).
- models/cube_drop.toml with a quaternion: the same events as with ZXZ angles; seeded random
  tumbling drops never penetrate or gain energy, and end at their end time.
- Bad quaternions are refused at their lines.

Usage: cli_quaternion_body_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt; run by /usr/bin/python3, which has NumPy and SciPy).
"""
import math
import os
import re

import numpy as np
from scipy.special import ellipj, ellipk

import lagrange_top_oracle as oracle
from cli_analysis_test import read_json
from cli_test import expect, expect_exit, expect_refused_edits, main, read_csv
from quaternion_kinematics import body_rates, q_rate, q_zxz, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


QUATERNION_TOP = """
[model]
name = "quaternion_top"
[parameters]
m = {m!r}
g = {g!r}
l = {l!r}
I1 = {I1!r}
I3 = {I3!r}
[coordinates]
q0 = {{ initial = {q[0]!r}, velocity = {dq[0]!r} }}
q1 = {{ initial = {q[1]!r}, velocity = {dq[1]!r} }}
q2 = {{ initial = {q[2]!r}, velocity = {dq[2]!r} }}
q3 = {{ initial = {q[3]!r}, velocity = {dq[3]!r} }}
[mechanics]
gravity = [0.0, 0.0, "-g"]
[[bodies]]
name = "top"
mass = "m"
inertia = ["I1 - m*l^2", "I1 - m*l^2", "I3"]
quaternion = ["q0", "q1", "q2", "q3"]
fixed_point = [0.0, 0.0, "-l"]
# theta at its smallest: cos(theta) = (q0^2 - q1^2 - q2^2 + q3^2) / |q|^2 at its largest, where
# its rate's numerator N' |q|^2 - N (|q|^2)' falls through 0.
[[sections]]
name = "turn"
value = "(q0*q0' - q1*q1' - q2*q2' + q3*q3')*(q0^2 + q1^2 + q2^2 + q3^2) - (q0^2 - q1^2 - q2^2 + q3^2)*(q0*q0' + q1*q1' + q2*q2' + q3*q3')"
direction = "falling"
[solver]
t_end = {t_end!r}
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
[output]
samples = 2001
"""

PERIODS = 100


def top_file(cli, name, p, y, t_end):
    """The top of the oracle's state y = (phi, theta, psi, phi', theta', psi') in quaternions."""
    q = q_zxz(y[0], y[1], y[2])
    th, ps, dph, dth, dps = y[1], y[2], y[3], y[4], y[5]
    w = np.array([dph * math.sin(th) * math.sin(ps) + dth * math.cos(ps),
                  dph * math.sin(th) * math.cos(ps) - dth * math.sin(ps),
                  dph * math.cos(th) + dps])
    path = os.path.join(cli.work, name + ".toml")
    with open(path, "w") as f:
        f.write(QUATERNION_TOP.format(q=[float(v) for v in q],
                                      dq=[float(v) for v in q_rate(q, w)], t_end=t_end, **p))
    return path


@case
def quaternion_top_nutates_and_precesses_as_the_closed_form(cli):
    # The file's top and 3 seeded random ones: each turn within 1e-9 of the span of k T_nut, the
    # precession phi = atan2(R13, -R23) at it within 1e-9 (mod 2 pi), E, p_phi = (R I w)_z and
    # p_psi = I3 w3 along the trajectory within 1e-10 of their scale; |q|^2 - 1 within 1e4 rtol
    # (measured 1.4e-9 over 100 periods: d ln|q| / dt is a free particle's speed, which only
    # the integrator's error moves).
    for k, c in enumerate([oracle.default_case()] + oracle.random_cases(3)):
        p, y = c["params"], c["state"]
        cf = oracle.closed_form(y, p)
        span = PERIODS * cf["T_nut"]
        model = top_file(cli, "top%d" % k, p, y, (PERIODS + 0.5) * cf["T_nut"])
        out = os.path.join(cli.work, "top%d" % k)
        code, stdout, stderr = cli.run("run", model, "--out", out)
        expect_exit(code, 0, stdout, stderr, "top %d" % k)
        # (A start at a turn fires it at t = 0 plus round-off.)
        turns = [e for e in read_csv(os.path.join(out, "events.csv")) if e["guard"] == "turn"
                 and float(e["t"]) > 1e-9 * span]
        ref = oracle.nutation_events(y, PERIODS, p)
        expect(len(turns) == PERIODS, "top %d: one turn per period" % k, len(turns))
        for j, e in enumerate(turns):
            expect(abs(float(e["t"]) - ref["t"][j]) < 1e-9 * span, "top %d: time" % k, j,
                   e["t"], ref["t"][j])
            q = np.array([float(e["q%d_after" % i]) for i in range(4)])
            R = rotation(q)
            phi = math.atan2(R[0, 2], -R[1, 2])
            miss = (phi - ref["phi"][j] + math.pi) % (2 * math.pi) - math.pi
            expect(abs(miss) < 1e-9 * (1 + abs(ref["phi"][-1])), "top %d: precession" % k, j,
                   phi, ref["phi"][j])
            expect(abs(math.acos(R[2, 2]) - ref["theta"][j]) < 1e-7, "top %d: theta_min" % k, j)
        inertia = np.diag([p["I1"], p["I1"], p["I3"]])  # about the fixed point
        e0 = oracle.invariants(y, p)
        scale = [abs(e0[0]) + p["m"] * p["g"] * p["l"], abs(e0[1]) + abs(e0[2]), abs(e0[2])]
        worst, drift = [0.0, 0.0, 0.0], 0.0
        for r in read_csv(os.path.join(out, "trajectory.csv")):
            q = np.array([float(r["q%d" % i]) for i in range(4)])
            dq = np.array([float(r["q%d'" % i]) for i in range(4)])
            R, w = rotation(q), body_rates(q, dq)
            inv = (0.5 * w @ inertia @ w + p["m"] * p["g"] * p["l"] * R[2, 2],
                   (R @ inertia @ w)[2], p["I3"] * w[2])
            worst = [max(a, abs(b - c0) / s) for a, b, c0, s in zip(worst, inv, e0, scale)]
            drift = max(drift, abs(q @ q - 1.0))
        expect(max(worst) < 1e-10, "top %d: E, p_phi, p_psi kept" % k, worst)
        expect(drift < 1e-8, "top %d: |q| stays 1 (1e4 rtol)" % k, drift)


@case
def a_quaternion_top_swings_through_the_euler_pole(cli):
    # Released at theta0 = 0.05 from upright without spin (the ZXZ run ends at theta = pi, its
    # chart's pole): a physical pendulum of frequency w0 = sqrt(m g l / I1) and amplitude
    # a = pi - theta0 about the hanging position, cos(theta) = -cos(alpha) with
    # sin(alpha / 2) = k sn(K - w0 t, k), k = sin(a / 2). At every sample within 1e-8, through
    # 3 periods; the run ends at its end time.
    p = oracle.default_case()["params"]
    w0 = math.sqrt(p["m"] * p["g"] * p["l"] / p["I1"])
    kk = math.sin((math.pi - 0.05) / 2)
    period = 4 * ellipk(kk * kk) / w0
    model = top_file(cli, "upright", p, (0.3, 0.05, 0.0, 0.0, 0.0, 0.0), 3 * period)
    out = os.path.join(cli.work, "upright")
    code, stdout, stderr = cli.run("run", model, "--out", out)
    expect_exit(code, 0, stdout, stderr, "the upright top")
    expect(read_json(out, "summary.json")["status"] == "end-time-reached", "to the end")
    worst, lowest = 0.0, 1.0
    for r in read_csv(os.path.join(out, "trajectory.csv")):
        t = float(r["t"])
        q = np.array([float(r["q%d" % i]) for i in range(4)])
        sn = ellipj(ellipk(kk * kk) - w0 * t, kk * kk)[0]
        alpha = 2 * math.asin(kk * sn)
        worst = max(worst, abs(rotation(q)[2, 2] + math.cos(alpha)))
        lowest = min(lowest, rotation(q)[2, 2])
    expect(worst < 1e-8, "the pendulum's closed form", worst)
    expect(lowest < -0.999, "through the hanging position (the ZXZ pole)", lowest)


def quaternion_cube(cli, name, angles, spin):
    """models/cube_drop.toml with its ZXZ angles replaced by a quaternion, spinning at `spin`
    (body axes) at the start."""
    with open(cli.model("cube_drop.toml")) as f:
        text = f.read()
    q = q_zxz(*angles)
    dq = q_rate(q, np.array(spin, dtype=float))
    lines = "".join("q%d = { initial = %r, velocity = %r }\n" % (i, float(q[i]), float(dq[i]))
                    for i in range(4))
    text = re.sub(r"phi = \{[^\n]*\ntheta = \{[^\n]*\npsi = \{[^\n]*\n", lines, text)
    text = text.replace('orientation = ["phi", "theta", "psi"]',
                        'quaternion = ["q0", "q1", "q2", "q3"]')
    expect("q0 = " in text and "quaternion = " in text, "the cube rewritten")
    path = os.path.join(cli.work, name + ".toml")
    with open(path, "w") as f:
        f.write(text)
    return path


M, G, A = 1.0, 9.81, 0.1
I = 2.0 / 3.0 * M * A * A
CORNERS = [np.array(c, dtype=float) for c in
           ((-1, -1, -1), (1, -1, -1), (-1, 1, -1), (1, 1, -1), (-1, -1, 1), (1, -1, 1),
            (-1, 1, 1), (1, 1, 1))]


@case
def a_quaternion_cube_drops_as_the_euler_cube(cli):
    # A corner, an edge and a face drop (without spin) and 6 seeded random tumbling drops (spin
    # up to 30 rad/s about a random axis), e random: every quaternion run ends at its end time;
    # no corner below the floor (1e-9), T + V never above its start (1e-9 relative) at any
    # sample; where the ZXZ run of the same drop does not reach its chart's pole, the same
    # impact instants and Zeno points (1e-9 s).
    rng = np.random.default_rng(4848)
    drops = [((0.1, math.acos(1 / math.sqrt(3)), math.pi / 4), (0, 0, 0), 1.0),
             ((0.0, math.pi / 4, 0.0), (0, 0, 0), 0.5), ((0.3, 0.0, 0.0), (0, 0, 0), 0.5)]
    for _ in range(6):
        axis = rng.normal(size=3)
        drops.append(((rng.uniform(0, 2 * math.pi), rng.uniform(0.3, 2.8),
                       rng.uniform(0, 2 * math.pi)),
                      tuple(rng.uniform(5, 30) * axis / np.linalg.norm(axis)),
                      rng.uniform(0.3, 1.0)))
    compared = 0
    for k, (angles, spin, e) in enumerate(drops):
        model = quaternion_cube(cli, "cube%d" % k, angles, spin)
        out = os.path.join(cli.work, "cube%d" % k)
        code, stdout, stderr = cli.run("run", model, "--out", out, "--set", "e=%r" % e,
                                       "--set", "solver.t_end=1.2")
        expect_exit(code, 0, stdout, stderr, "quaternion cube %d" % k)
        energy0 = None
        for r in read_csv(os.path.join(out, "trajectory.csv")):
            q = np.array([float(r["q%d" % i]) for i in range(4)])
            dq = np.array([float(r["q%d'" % i]) for i in range(4)])
            R, w = rotation(q), body_rates(q, dq)
            c = np.array([float(r[n]) for n in "xyz"])
            lowest = min((c + R @ (A * p))[2] for p in CORNERS)
            expect(lowest > -1e-9, "cube %d: no corner below the floor" % k, r["t"], lowest)
            v = np.array([float(r[n + "'"]) for n in "xyz"])
            energy = 0.5 * M * v @ v + 0.5 * I * w @ w + M * G * c[2]
            energy0 = energy if energy0 is None else energy0
            expect(energy <= energy0 * (1 + 1e-9), "cube %d: energy never gained" % k, r["t"])
        # The ZXZ drop: Euler rates of the body spin at the start (theta away from its poles).
        th, ps = angles[1], angles[2]
        if abs(math.sin(th)) < 0.1:
            continue
        w = spin
        dth = w[0] * math.cos(ps) - w[1] * math.sin(ps)
        dph = (w[0] * math.sin(ps) + w[1] * math.cos(ps)) / math.sin(th)
        dps = w[2] - dph * math.cos(th)
        zout = os.path.join(cli.work, "zxz%d" % k)
        args = ["run", cli.model("cube_drop.toml"), "--out", zout, "--set", "e=%r" % e,
                "--set", "solver.t_end=1.2"]
        for n_, v_ in zip(("phi", "theta", "psi", "phi'", "theta'", "psi'"),
                          (*angles, dph, dth, dps)):
            args += ["--set", "%s=%r" % (n_, float(v_))]
        code, stdout, stderr = cli.run(*args)
        if read_json(zout, "summary.json")["status"] != "end-time-reached":
            continue  # the ZXZ chart's pole: nothing to compare
        # The instants of impacts and the Zeno points. Which of an edge's two corners registers
        # a micro-impact just before a Zeno point is decided by round-off: the ZXZ cube's part
        # from 2e-3 s before it, so the corners are compared up to 1e-2 s before it (the
        # quaternion cube's edge, below, keeps both to the end, as its symmetry says).
        def instants(folder):
            rows = read_csv(os.path.join(folder, "events.csv"))
            zeno = [float(r["t"]) for r in rows if r["guard"] == "zeno-handover"]
            first = zeno[0] if zeno else np.inf
            times, corners = [], []
            for r in rows:
                t, guard = float(r["t"]), r["guard"]
                if not guard.startswith("impact:") or t > first:
                    continue
                if not times or t - times[-1] > 1e-9:
                    times.append(t)
                    corners.append(set())
                if t < first - 1e-2:
                    corners[-1].add(guard)
            return times, corners, zeno
        (ta, ca, za), (tb, cb, zb) = instants(out), instants(zout)
        if k == 1:  # the edge: both corners at every impact
            every = [set(r["guard"] for r in read_csv(os.path.join(out, "events.csv"))
                         if r["guard"].startswith("impact:") and abs(float(r["t"]) - t) < 1e-9)
                     for t in ta]
            expect(all(c == {"impact:c1", "impact:c2"} for c in every),
                   "the edge's two corners together", every)
        expect(len(ta) == len(tb) and all(abs(x - y) < 1e-9 for x, y in zip(ta, tb)) and
               ca == cb, "cube %d: the ZXZ cube's impacts" % k, ta[:6], tb[:6])
        expect(len(za) == len(zb) and all(abs(x - y) < 1e-9 for x, y in zip(za, zb)),
               "cube %d: the ZXZ cube's Zeno points" % k, za, zb)
        compared += 1
    expect(compared >= 4, "most drops compared with the ZXZ cube", compared)


@case
def bad_quaternions_are_refused_at_their_lines(cli):
    p = oracle.default_case()["params"]
    good = top_file(cli, "good", p, (0.0, 0.5, 0.0, 2.0, 0.0, 50.0), 1.0)
    with open(good) as f:
        text = f.read()
    expect_refused_edits(cli, text, (
            ("not_unit", "q0 = { initial = 0.9689124217106447,", "q0 = { initial = 0.9,",
             "|q|^2 = "),
            ("not_orthogonal", "q0 = { initial = 0.9689124217106447, velocity = 0.0 }",
             "q0 = { initial = 0.9689124217106447, velocity = 1.0 }", "q . q' = "),
            ("repeated", '"q0", "q1", "q2", "q3"', '"q0", "q1", "q1", "q3"',
             "not a coordinate of its own"),
            ("expression", '"q0", "q1", "q2", "q3"', '"q0", "2*q1", "q2", "q3"',
             "not a coordinate of its own"),
            ("three", '"q0", "q1", "q2", "q3"', '"q0", "q1", "q2"', "four distinct"),
            ("both", 'quaternion = ["q0"', 'orientation = ["q0", "q1", "q2"]\nquaternion = ["q0"',
             "both orientation and quaternion")), "body 'top'")


if __name__ == "__main__":
    main(CASES, "cli_quaternion_body_test.py")
