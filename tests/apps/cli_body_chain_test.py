#!/usr/bin/env python3
"""End-to-end tests of a chain of spatial rigid bodies joined by spherical joints (issue 48:
`parent` and `parent_point` in [[bodies]]): two rods, each oriented by a quaternion, the upper
hung from the origin and the lower from the upper's end.

- Swinging in a vertical plane it is the compound double pendulum, against SciPy's solve_ivp of
  its planar equations (written here from T and V); so are the same rods on two revolute joints
  (`hinge`, two coordinates).
- Thrown into random spatial motion it keeps its energy and its angular momentum about the
  vertical through the hanging point, and the joint holds.
- A parent declared later, a parent without parent_point or fixed_point, parent_point without
  parent: refused at the line.

Usage: cli_body_chain_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt), run by Debian's python3 (NumPy, SciPy).
"""
import math
import os

import numpy as np
from scipy.integrate import solve_ivp

from cli_test import expect, expect_exit, expect_refused_edits, main, read_csv
from quaternion_kinematics import body_rates, q_rate, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


M1, M2, L1, L2, RADIUS, G = 1.0, 0.7, 0.5, 0.4, 0.01, 9.81


def transverse(m, length):
    """A slender cylinder's moment about a diameter through its centre."""
    return m * length ** 2 / 12 + m * RADIUS ** 2 / 4


CHAIN = """
[model]
name = "rod_chain"
[parameters]
g = {g!r}
[coordinates]
{coordinates}
[mechanics]
gravity = [0.0, 0.0, "-g"]
[[bodies]]
name = "upper"
mass = {m1!r}
inertia = [{i1!r}, {i1!r}, {a1!r}]
quaternion = ["a0", "a1", "a2", "a3"]
fixed_point = [0, 0, {h1!r}]
[[bodies]]
name = "lower"
mass = {m2!r}
inertia = [{i2!r}, {i2!r}, {a2!r}]
quaternion = ["b0", "b1", "b2", "b3"]
parent = "upper"
parent_point = [0, 0, {e1!r}]
fixed_point = [0, 0, {h2!r}]
[solver]
t_end = {t_end!r}
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
[output]
sample_interval = 0.01
"""


def chain_file(cli, name, qa, wa, qb, wb, t_end):
    """The chain with rods along their body z axes (upper end +l/2), quaternions qa, qb and body
    rates wa, wb."""
    lines = []
    for prefix, q, w in (("a", qa, wa), ("b", qb, wb)):
        dq = q_rate(q, np.array(w, dtype=float))
        lines += ["%s%d = { initial = %r, velocity = %r }" % (prefix, i, float(q[i]), float(dq[i]))
                  for i in range(4)]
    text = CHAIN.format(g=G, coordinates="\n".join(lines), m1=M1, m2=M2,
                        i1=transverse(M1, L1), i2=transverse(M2, L2), a1=M1 * RADIUS ** 2 / 2,
                        a2=M2 * RADIUS ** 2 / 2, h1=L1 / 2, e1=-L1 / 2, h2=L2 / 2, t_end=t_end)
    path = os.path.join(cli.work, name + ".toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def run(cli, name, *files):
    out = os.path.join(cli.work, name)
    code, stdout, stderr = cli.run("run", *files, "--out", out)
    expect_exit(code, 0, stdout, stderr, name)
    return read_csv(os.path.join(out, "trajectory.csv"))


def bodies(row):
    """Each rod's quaternion and its rate in a trajectory row."""
    return [(np.array([float(row["%s%d" % (p, i)]) for i in range(4)]),
             np.array([float(row["%s%d'" % (p, i)]) for i in range(4)])) for p in "ab"]


def swing(theta):
    """The quaternion turning the rod's downward axis -z towards +x by theta (about -y)."""
    return np.array([math.cos(theta / 2), 0.0, -math.sin(theta / 2), 0.0])


def double_pendulum(times, start):
    """solve_ivp (rtol 1e-12) of the compound double pendulum's absolute angles from the
    downward vertical: M(theta) theta'' = h(theta, theta'), M11 = I1 + m1 l1^2/4 + m2 l1^2,
    M12 = m2 l1 l2 / 2 cos(theta1 - theta2), M22 = I2 + m2 l2^2 / 4 [derived from T and V]."""
    I1, I2 = transverse(M1, L1), transverse(M2, L2)
    c = M2 * L1 * L2 / 2

    def rhs(t, y):
        a, b, da, db = y
        s, co = math.sin(a - b), math.cos(a - b)
        Mm = np.array([[I1 + M1 * L1 ** 2 / 4 + M2 * L1 ** 2, c * co],
                       [c * co, I2 + M2 * L2 ** 2 / 4]])
        h = np.array([-c * s * db ** 2 - (M1 * L1 / 2 + M2 * L1) * G * math.sin(a),
                      c * s * da ** 2 - M2 * L2 / 2 * G * math.sin(b)])
        return [da, db, *np.linalg.solve(Mm, h)]
    return solve_ivp(rhs, (0, times[-1]), start, t_eval=times, rtol=1e-12, atol=1e-14,
                     method="DOP853")


HINGED = """
[model]
name = "hinged_rods"
[parameters]
g = {g!r}
[coordinates]
th1 = {{ initial = {th1!r}, velocity = {w1!r} }}
th2 = {{ initial = {th2!r}, velocity = {w2!r} }}
[mechanics]
gravity = [0.0, 0.0, "-g"]
[[bodies]]
name = "upper"
mass = {m1!r}
inertia = [{i1!r}, {i1!r}, {a1!r}]
orientation = [0, "th1", 0]       # about the world x axis
fixed_point = [0, 0, {h1!r}]
[[bodies]]
name = "lower"
mass = {m2!r}
inertia = [{i2!r}, {i2!r}, {a2!r}]
hinge = {{ axis = [2, 0, 0], angle = "th2" }}   # about the upper's x axis (not unit: made so)
parent = "upper"
parent_point = [0, 0, {e1!r}]
fixed_point = [0, 0, {h2!r}]
[solver]
t_end = 2.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
[output]
sample_interval = 0.01
"""


@case
def hinged_rods_are_the_compound_double_pendulum(cli):
    # The same rods on revolute joints with two coordinates: the upper turned by th1 about the
    # world x axis, the lower by th2 about the upper's x axis (a hinge), so its absolute angle is
    # th1 + th2. The lower rod's end (y, z) at every sample over 2 s against the same solve_ivp:
    # within 1e-8 m; x stays 0. An angle reading a velocity, an axis of length 0 and a hinge
    # without parent are refused at the line.
    th1, th2, w1, w2 = 0.6, -0.9, 0.5, 1.5
    text = HINGED.format(g=G, th1=th1, th2=th2, w1=w1, w2=w2, m1=M1, m2=M2,
                         i1=transverse(M1, L1), i2=transverse(M2, L2), a1=M1 * RADIUS ** 2 / 2,
                         a2=M2 * RADIUS ** 2 / 2, h1=L1 / 2, e1=-L1 / 2, h2=L2 / 2)
    path = os.path.join(cli.work, "hinged.toml")
    with open(path, "w") as f:
        f.write(text)
    rows = run(cli, "hinged", path)
    ref = double_pendulum([float(r["t"]) for r in rows], [th1, th1 + th2, w1, w1 + w2])
    worst = 0.0
    for k, r in enumerate(rows):
        a, b = float(r["th1"]), float(r["th1"]) + float(r["th2"])
        # Rx(a) turns the downward axis -z to (0, sin a, -cos a).
        end = np.array([L1 * math.sin(a) + L2 * math.sin(b), -L1 * math.cos(a) - L2 * math.cos(b)])
        ra, rb = ref.y[0][k], ref.y[1][k]
        expected = np.array([L1 * math.sin(ra) + L2 * math.sin(rb),
                             -L1 * math.cos(ra) - L2 * math.cos(rb)])
        worst = max(worst, np.abs(end - expected).max())
    expect(worst < 1e-8, "the hinged pendulum's end", worst)
    expect_refused_edits(cli, text, (
            ("rate", 'angle = "th2"', "angle = \"th2'\"", "hinge angle depends on"),
            ("zero_axis", "axis = [2, 0, 0]", "axis = [0, 0, 0]", "hinge axis has length 0"),
            ("no_parent", 'parent = "upper"\n', "", "has a hinge but no parent")), "body 'lower'")


@case
def a_planar_swing_is_the_compound_double_pendulum(cli):
    # theta1(0) = 0.5, theta2(0) = -0.3 rad, theta2'(0) = 1 rad/s, in the x-z plane: the lower
    # rod's free end at every sample over 2 s against solve_ivp (rtol 1e-12) of
    # M(theta) theta'' = h(theta, theta'), M11 = I1 + m1 l1^2/4 + m2 l1^2,
    # M12 = m2 l1 l2 / 2 cos(theta1 - theta2), M22 = I2 + m2 l2^2 / 4 [derived from T and V]:
    # within 1e-8 m; the motion stays in the plane (y = 0, 1e-12).
    th1, th2, w1, w2 = 0.5, -0.3, 0.0, 1.0
    # A rotation by theta about -y has the angular velocity -theta' y (in body axes too).
    model = chain_file(cli, "planar", swing(th1), (0.0, -w1, 0.0), swing(th2), (0.0, -w2, 0.0),
                       2.0)
    rows = run(cli, "planar", model)
    ref = double_pendulum([float(r["t"]) for r in rows], [th1, th2, w1, w2])
    worst, off_plane = 0.0, 0.0
    for k, r in enumerate(rows):
        (qa, _), (qb, _) = bodies(r)
        end = L1 * (rotation(qa) @ [0, 0, -1.0]) + L2 * (rotation(qb) @ [0, 0, -1.0])
        a, b = ref.y[0][k], ref.y[1][k]
        expected = np.array([L1 * math.sin(a) + L2 * math.sin(b), 0.0,
                             -L1 * math.cos(a) - L2 * math.cos(b)])
        worst = max(worst, np.abs(end - expected).max())
        off_plane = max(off_plane, abs(end[1]))
    expect(worst < 1e-8, "the double pendulum's end", worst)
    expect(off_plane < 1e-12, "in its plane", off_plane)


@case
def a_thrown_chain_keeps_energy_and_vertical_angular_momentum(cli):
    # 4 seeded random orientations and body rates (up to 8 rad/s about every axis): over 2 s
    # the energy and the angular momentum about the vertical through the hanging point stay
    # those of the start (1e-9 of their scale), and the lower rod's upper end is the upper
    # rod's lower end (1e-12 m).
    rng = np.random.default_rng(4850)
    for k in range(4):
        qa, qb = (v / np.linalg.norm(v) for v in rng.normal(size=(2, 4)))
        wa, wb = rng.uniform(-8, 8, size=3), rng.uniform(-8, 8, size=3)
        model = chain_file(cli, "thrown%d" % k, qa, wa, qb, wb, 2.0)
        rows = run(cli, "thrown%d" % k, model)
        inertia = [np.diag([transverse(m, length)] * 2 + [m * RADIUS ** 2 / 2])
                   for m, length in ((M1, L1), (M2, L2))]
        values, gap = [], 0.0
        for r in rows:
            (qa_, dqa), (qb_, dqb) = bodies(r)
            Ra, Rb = rotation(qa_), rotation(qb_)
            wa_, wb_ = body_rates(qa_, dqa), body_rates(qb_, dqb)
            joint = -Ra @ [0, 0, L1]  # the upper rod's lower end: c_a + R_a (0, 0, -l1/2)
            ca = -Ra @ [0, 0, L1 / 2]
            cb = joint - Rb @ [0, 0, L2 / 2]
            va = np.cross(Ra @ wa_, ca)
            vb = np.cross(Ra @ wa_, joint) + np.cross(Rb @ wb_, cb - joint)
            energy = (0.5 * M1 * va @ va + 0.5 * wa_ @ inertia[0] @ wa_ + M1 * G * ca[2] +
                      0.5 * M2 * vb @ vb + 0.5 * wb_ @ inertia[1] @ wb_ + M2 * G * cb[2])
            lz = (M1 * np.cross(ca, va) + Ra @ inertia[0] @ wa_ +
                  M2 * np.cross(cb, vb) + Rb @ inertia[1] @ wb_)[2]
            values.append((energy, lz))
            gap = max(gap, np.abs(cb + Rb @ [0, 0, L2 / 2] - joint).max())
        values = np.array(values)
        scale = np.abs(values).max(axis=0) + [G * (M1 + M2) * (L1 + L2), 1e-3]
        drift = (np.abs(values - values[0]) / scale).max(axis=0)
        expect((drift < 1e-9).all(), "chain %d: energy and L_z kept" % k, drift)
        expect(gap < 1e-12, "chain %d: the joint holds" % k, gap)


@case
def bad_chains_are_refused_at_their_lines(cli):
    path = chain_file(cli, "good", swing(0.1), (0, 0, 0), swing(0.2), (0, 0, 0), 1.0)
    with open(path) as f:
        text = f.read()
    expect_refused_edits(cli, text, (
            ("later", 'parent = "upper"', 'parent = "lower"', "no body declared before it"),
            ("no_parent_point", "parent_point = [0, 0, -0.25]\n", "", "no parent_point"),
            ("orphan_point", 'parent = "upper"\n', "", "parent_point but no parent")), "body 'lower'")


if __name__ == "__main__":
    main(CASES, "cli_body_chain_test.py")
