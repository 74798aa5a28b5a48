#!/usr/bin/env python3
"""End-to-end tests of spatial rigid bodies in model files (issue 48, stage 1: [[bodies]]):
models/lagrange_top.toml, the heavy symmetric top on a fixed point written as a body with ZXZ
Euler angles, against lagrange_top_oracle.py (the classical cubic's roots and the nutation period
and precession per period as elliptic integrals; SciPy, nothing from saltus): over 100 nutation
periods the section `turn` (theta' = 0 rising, theta at its smallest) fires at k T_nut with
phi = phi0 + k D_phi, for the file's top and 8 seeded random ones; energy and the momenta p_phi,
p_psi stay constant along the trajectory; bad bodies are refused at their lines.

A thrown asymmetric box (a body with a `position`) falls on its parabola and keeps its rotational
energy and its angular momentum in space.

Usage: cli_lagrange_top_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt; run by /usr/bin/python3, which has SciPy).
"""
import math
import os

import lagrange_top_oracle as oracle
from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


PERIODS = 100
# The model's rtol 1e-12 over 100 periods: event times within 1e-9 of k T_nut (relative), the
# invariants within 1e-10 of their scale.
CLOSE = 1e-9


def run_top(cli, name, c, extra=()):
    p, y = c["params"], c["state"]
    cf = oracle.closed_form(y, p)
    out = os.path.join(cli.work, name)
    sets = [f"m={p['m']!r}", f"g={p['g']!r}", f"l={p['l']!r}", f"I1={p['I1']!r}",
            f"I3={p['I3']!r}", f"theta0={y[1]!r}", f"precession={y[3]!r}", f"spin={y[5]!r}",
            f"phi={y[0]!r}", f"psi={y[2]!r}", f"t_end={(PERIODS + 0.5) * cf['T_nut']!r}",
            "output.samples=2001", *extra]
    args = ["run", cli.model("lagrange_top.toml"), "--out", out]
    for s in sets:
        args += ["--set", s]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, name)
    events = [e for e in read_csv(os.path.join(out, "events.csv"))
              if e["guard"] == "turn" and float(e["t"]) > 0.0]
    return cf, events, read_csv(os.path.join(out, "trajectory.csv"))


def check_top(name, c, cf, events, trajectory):
    p, y = c["params"], c["state"]
    ref = oracle.nutation_events(y, PERIODS, p)
    expect(len(events) == PERIODS, name + ": one turn per nutation period", len(events))
    span = PERIODS * cf["T_nut"]
    for k, e in enumerate(events):
        expect(abs(float(e["t"]) - ref["t"][k]) < CLOSE * span, name + ": time", k, e["t"],
               ref["t"][k])
        expect(abs(float(e["phi_after"]) - ref["phi"][k]) < CLOSE * (1 + abs(ref["phi"][-1])),
               name + ": precession", k, e["phi_after"], ref["phi"][k])
        expect(abs(float(e["theta_after"]) - ref["theta"][k]) < CLOSE, name + ": theta_min", k)
    # Energy and both momenta along the whole trajectory.
    names = ("phi", "theta", "psi", "phi'", "theta'", "psi'")
    e0 = oracle.invariants(y, p)
    scale = [abs(e0[0]) + p["m"] * p["g"] * p["l"], abs(e0[1]) + abs(e0[2]), abs(e0[2])]
    worst = [0.0, 0.0, 0.0]
    for r in trajectory:
        inv = oracle.invariants([float(r[n]) for n in names], p)
        worst = [max(w, abs(a - b) / s) for w, a, b, s in zip(worst, inv, e0, scale)]
    expect(max(worst) < 1e-10, name + ": E, p_phi, p_psi kept", worst)


@case
def lagrange_top_nutates_and_precesses_as_the_closed_form(cli):
    c = oracle.default_case()
    cf, events, trajectory = run_top(cli, "file", c)
    check_top("the file's top", c, cf, events, trajectory)


@case
def random_tops_nutate_and_precess_as_the_closed_form(cli):
    for k, c in enumerate(oracle.random_cases(8)):
        cf, events, trajectory = run_top(cli, f"random{k}", c)
        check_top(f"random top {k}", c, cf, events, trajectory)


FREE_BODY = """
[model]
name = "thrown_box"
[parameters]
m = 2.0
g = 9.81
[coordinates]
x = { initial = 0.1, velocity = 1.0 }
y = { initial = -0.2, velocity = 0.5 }
z = { initial = 1.0, velocity = 3.0 }
phi = { initial = %(phi)r, velocity = %(dphi)r }
theta = { initial = %(theta)r, velocity = %(dtheta)r }
psi = { initial = %(psi)r, velocity = %(dpsi)r }
[mechanics]
gravity = [0.0, 0.0, "-g"]
[[bodies]]
name = "box"
mass = "m"
inertia = [%(I1)r, %(I2)r, %(I3)r]
orientation = ["phi", "theta", "psi"]
position = ["x", "y", "z"]
[solver]
t_end = 2.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
[output]
samples = 201
"""


def rotation(phi, theta, psi):
    """R = Rz(phi) Rx(theta) Rz(psi) (ZXZ), as nested lists."""
    cf, sf, ct, st, cp, sp = (math.cos(phi), math.sin(phi), math.cos(theta), math.sin(theta),
                              math.cos(psi), math.sin(psi))
    return [[cf * cp - sf * ct * sp, -cf * sp - sf * ct * cp, sf * st],
            [sf * cp + cf * ct * sp, cf * ct * cp - sf * sp, -cf * st],
            [st * sp, st * cp, ct]]


def body_rates(theta, psi, dphi, dtheta, dpsi):
    """The angular velocity in body axes of ZXZ Euler rates."""
    return (dphi * math.sin(theta) * math.sin(psi) + dtheta * math.cos(psi),
            dphi * math.sin(theta) * math.cos(psi) - dtheta * math.sin(psi),
            dphi * math.cos(theta) + dpsi)


@case
def thrown_box_falls_and_keeps_its_angular_momentum(cli):
    # A free asymmetric body under gravity: its centre of mass falls on the parabola, its
    # rotational energy and its angular momentum in space (R I w) stay constant; spinning about
    # its largest axis, held horizontal, theta stays away from the Euler angles' poles.
    I = (0.012, 0.02, 0.028)
    theta, psi = 1.4, 0.2
    w = (0.3, -0.2, 8.0)
    dtheta = w[0] * math.cos(psi) - w[1] * math.sin(psi)
    dphi = (w[0] * math.sin(psi) + w[1] * math.cos(psi)) / math.sin(theta)
    dpsi = w[2] - dphi * math.cos(theta)
    text = FREE_BODY % {"phi": 0.3, "theta": theta, "psi": psi, "dphi": dphi, "dtheta": dtheta,
                        "dpsi": dpsi, "I1": I[0], "I2": I[1], "I3": I[2]}
    path = os.path.join(cli.work, "thrown_box.toml")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(cli.work, "box")
    code, stdout, stderr = cli.run("run", path, "--out", out)
    expect_exit(code, 0, stdout, stderr, "the thrown box")
    rows = read_csv(os.path.join(out, "trajectory.csv"))
    expect(len(rows) == 201, "samples", len(rows))
    first = None
    for r in rows:
        t = float(r["t"])
        expect(abs(float(r["x"]) - (0.1 + t)) < 1e-10 and
               abs(float(r["z"]) - (1.0 + 3.0 * t - 0.5 * 9.81 * t * t)) < 1e-10,
               "the parabola", r)
        wb = body_rates(float(r["theta"]), float(r["psi"]), float(r["phi'"]),
                        float(r["theta'"]), float(r["psi'"]))
        R = rotation(float(r["phi"]), float(r["theta"]), float(r["psi"]))
        L = [sum(R[i][j] * I[j] * wb[j] for j in range(3)) for i in range(3)]
        energy = 0.5 * sum(I[j] * wb[j] ** 2 for j in range(3))
        first = first or (L, energy)
        scale = math.sqrt(sum(v * v for v in first[0]))
        expect(max(abs(a - b) for a, b in zip(L, first[0])) < 1e-10 * scale, "L kept", t, L)
        expect(abs(energy - first[1]) < 1e-10 * first[1], "energy kept", t, energy)
        expect(0.3 < float(r["theta"]) < math.pi - 0.3, "away from the poles", t)


@case
def a_force_and_a_torque_on_a_body_are_the_closed_form(cli):
    # A symmetric body (I1 = I2) spinning about its axis, no gravity, pushed along y by a
    # constant force F and braked by an axial torque -c w3 (body axes): its centre of mass
    # moves as y0 + F t^2 / (2 m), its spin decays as w3(0) exp(-c t / I3), its axis stays put.
    m, F, c, I1, I3, w0 = 2.0, 0.6, 0.003, 0.02, 0.01, 40.0
    text = FREE_BODY % {"phi": 0.3, "theta": 1.1, "psi": 0.0, "dphi": 0.0, "dtheta": 0.0,
                        "dpsi": w0, "I1": I1, "I2": I1, "I3": I3}
    text = text.replace('gravity = [0.0, 0.0, "-g"]', "")
    text = text.replace('position = ["x", "y", "z"]',
                        'position = ["x", "y", "z"]\nforce = [0.0, %r, 0.0]\n'
                        'torque = [0.0, 0.0, "-%r*(psi\' + phi\'*cos(theta))"]' % (F, c))
    path = os.path.join(cli.work, "pushed_top.toml")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(cli.work, "pushed")
    code, stdout, stderr = cli.run("run", path, "--out", out)
    expect_exit(code, 0, stdout, stderr, "the pushed top")
    for r in read_csv(os.path.join(out, "trajectory.csv")):
        t = float(r["t"])
        expect(abs(float(r["y"]) - (-0.2 + 0.5 * t + 0.5 * F / m * t * t)) < 1e-10, "force", r)
        w3 = float(r["psi'"]) + float(r["phi'"]) * math.cos(float(r["theta"]))
        want = w0 * math.exp(-c * t / I3)
        expect(abs(w3 - want) < 1e-10 * w0, "torque", t, w3, want)
        expect(abs(float(r["theta"]) - 1.1) < 1e-10 and abs(float(r["phi"]) - 0.3) < 1e-10,
               "the axis stays", r)


PENDULUM = """
[model]
name = "compound_pendulum"
[parameters]
m = 1.5
g = 9.81
d = 0.3
Ic = 0.02
[coordinates]
a = { initial = %(a0)r, velocity = 0.0 }
[mechanics]
gravity = [0.0, 0.0, "-g"]
[[bodies]]
name = "rod"
mass = "m"
inertia = ["Ic", "Ic", 0.001]
orientation = [%(phi)r, "a", %(psi)r]    # a revolute joint: the axis fixed by phi
fixed_point = [0.0, 0.0, "d"]            # the pivot, d above the centre of mass
[[sections]]
name = "back"
value = "a'"
direction = "rising"
[solver]
t_end = 20.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
"""


@case
def a_revolute_joint_swings_with_the_elliptic_period(cli):
    # A rigid body on a horizontal axis through a pivot d above its centre of mass (orientation
    # [phi, a, psi] with phi and psi constant: a revolute joint about an axis set by phi): a
    # compound pendulum, period 4 sqrt(I_p / (m g d)) K(sin^2(a0 / 2)), I_p = Ic + m d^2, at any
    # amplitude; the angle at a = 0 (hanging) is no chart pole here.
    from scipy.special import ellipk
    m, g, d, ic = 1.5, 9.81, 0.3, 0.02
    for k, (a0, phi, psi) in enumerate(((0.3, 0.0, 0.0), (2.5, 0.7, 0.0), (1.2, -1.9, 0.4))):
        path = os.path.join(cli.work, f"pendulum{k}.toml")
        with open(path, "w") as f:
            f.write(PENDULUM % {"a0": a0, "phi": phi, "psi": psi})
        out = os.path.join(cli.work, f"pendulum{k}")
        code, stdout, stderr = cli.run("run", path, "--out", out)
        expect_exit(code, 0, stdout, stderr, f"pendulum {k}")
        t = [float(e["t"]) for e in read_csv(os.path.join(out, "events.csv"))
             if e["guard"] == "back"]
        period = 4 * math.sqrt((ic + m * d * d) / (m * g * d)) * ellipk(math.sin(a0 / 2) ** 2)
        expect(len(t) >= 3, f"pendulum {k}: swings", t)
        for j, tj in enumerate(t, start=1):
            expect(abs(tj - (j - 0.5) * period) < 1e-9 * (1 + tj), f"pendulum {k}: period", j,
                   tj, (j - 0.5) * period)


@case
def a_body_reaching_its_chart_pole_ends_the_run_naming_it(cli):
    # A top without spin started near upright falls through theta = pi, the ZXZ chart's pole:
    # the run ends there (status reset-failed) naming the body, t and theta, its outputs written.
    out = os.path.join(cli.work, "pole")
    code, stdout, stderr = cli.run("run", cli.model("lagrange_top.toml"), "--set", "theta0=0.05",
                                   "--set", "spin=0", "--set", "precession=0", "--set",
                                   "t_end=3", "--out", out)
    expect(code != 0, "a failed run is not a success", code, stdout)
    summary = read_json(out, "summary.json")
    expect(summary["status"] == "reset-failed" and not summary["succeeded"], "status", summary)
    message = summary["message"]
    expect("body 'top'" in message and "chart's pole" in message and "theta = 3.14" in message,
           "named", message)
    rows = read_csv(os.path.join(out, "trajectory.csv"))
    expect(rows and abs(math.sin(float(rows[-1]["theta"]))) < 2e-3, "kept up to the pole",
           rows[-1] if rows else None)


@case
def the_top_in_centimetres_and_from_t0_1e6_turns_at_the_same_times(cli):
    # The file's top in cm (l = 10, g = 981, moments in kg cm^2) and started at t0 = 1e6: the
    # same turn times after t0 (the clock's round-off at 1e6 is 2.2e-10 s).
    runs = {}
    for name, sets in (("m", []), ("cm", ["l=10", "g=981", "I1=200", "I3=80"]),
                       ("t0", ["initial.t=1e6", "t_end=1000005"])):
        out = os.path.join(cli.work, name)
        args = ["run", cli.model("lagrange_top.toml"), "--out", out]
        for s_ in sets:
            args += ["--set", s_]
        code, stdout, stderr = cli.run(*args)
        expect_exit(code, 0, stdout, stderr, name)
        runs[name] = [float(e["t"]) for e in read_csv(os.path.join(out, "events.csv"))
                      if e["guard"] == "turn"]
    for name, t0 in (("cm", 0.0), ("t0", 1e6)):
        expect(len(runs[name]) == len(runs["m"]) >= 10, name + ": as many turns", runs[name])
        for a, b in zip(runs["m"], runs[name]):
            expect(abs((b - t0) - a) < 1e-12 + 1e-15 * t0, name, a, b)


@case
def bad_bodies_are_refused_at_their_lines(cli):
    with open(cli.model("lagrange_top.toml")) as f:
        text = f.read()
    cases = (
        ('inertia = ["I1 - m*l^2", "I1 - m*l^2", "I3"]', 'inertia = [0.001, 0.001, "I3"]',
         "is not a rigid body's"),
        ('orientation = ["phi", "theta", "psi"]', 'orientation = ["phi", "theta", "psi\'"]',
         "orientation depends on"),
        ('fixed_point = [0.0, 0.0, "-l"]', 'fixed_point = [0.0, "-l"]', "expected three"),
        ('fixed_point = [0.0, 0.0, "-l"]', 'fixed_point = [0.0, 0.0, "-l*theta\'"]',
         "depends on"),
        ('fixed_point = [0.0, 0.0, "-l"]', '', "has no position"),
        ('mass = "m"\n', '', "has no mass"),
    )
    for k, (old, new, cause) in enumerate(cases):
        bad = text.replace(old, new)
        expect(bad != text, "the substitution applies", old)
        line = next((i for i, s in enumerate(bad.splitlines(), 1) if new and new in s), None)
        path = os.path.join(cli.work, f"bad{k}.toml")
        with open(path, "w") as f:
            f.write(bad)
        code, stdout, stderr = cli.run("check", path)
        expect_exit(code, 1, stdout, stderr, "bad body " + str(k))
        where = f"bad{k}.toml:{line}:" if line else f"bad{k}.toml:"
        expect(where in stderr and "body 'top'" in stderr and cause in stderr, "named", k,
               stderr)


if __name__ == "__main__":
    main(CASES, "cli_lagrange_top_test.py")
