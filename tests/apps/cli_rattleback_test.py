#!/usr/bin/env python3
"""End-to-end tests of a curved body rolling on a rough floor with an inertia tensor whose axes are
not the shape's (issue 48, stage 3): models/rattleback.toml, a rattleback whose bottom is an
ellipsoid, against rattleback_oracle.py (Newton-Euler for rolling without slip, solve_ivp DOP853
at rtol 1e-12, atol 1e-14; SciPy, nothing from saltus):

- The file's rattleback, started spinning with a small tilt, reverses its spin: every zero of the
  world spin w . z (the file's section `spin`) at the reference's located zero; the centre of
  mass and the angular velocity at every sample as the reference's; the mode stick:floor
  throughout with no other event (it rolls: the contact point's velocity stays 0); the energy
  kept; the start as the reference derives it (on the floor, the contact point at rest).
- 4 seeded random rattlebacks (product of inertia of either sign, spin either way, tilted about a
  random horizontal axis, turned about the vertical, rocking) against the reference in the same
  way; each again translated by 1e6 m along x and turned by a random angle about the vertical:
  the same spin zeros.
- Ellipsoids dropped on the floor: the first impact at the closed-form instant (falling without
  spin, the lowest point reaches the floor at sqrt(2 g0 / g) for its gap g0), its marked point
  on the floor; frictionless with e = 1 the energy kept through bounces; with friction every
  run ends at t_end or with a status naming the contact, never below the floor (the ellipsoid's
  lowest point, its support distance computed here, at every sample), energy never gained.
- Bad input: an ellipsoid with a non-positive semi-axis or beside a rim, an inertia tensor that is
  not symmetric or not a rigid body's.

Usage: cli_rattleback_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt), run by Debian's python3 (NumPy, SciPy).
"""
import math
import os
import random
import tomllib

import numpy as np

import rattleback_oracle as oracle
from cli_analysis_test import read_json, run_outputs
from cli_test import expect, expect_refused_edits, main
from quaternion_kinematics import body_rates, q_mul, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# Agreement with the reference at every sample, relative to a3 (centre of mass) and to |Omega|
# (angular velocity). Measured (saltus's dop853 against SciPy's DOP853, both at rtol 1e-12,
# atol 1e-14): 1.9e-12 (centre), 4.0e-11 (angular velocity) for the file's rattleback, at most
# 8.0e-13 and 2.9e-11 over the random ones.
CLOSE = 1e-8
# The spin's zeros, saltus's section events against solve_ivp's events: measured 1.4e-12 s
# (file), at most 1.1e-12 s (random).
CLOSE_T = 1e-8
# Energy along saltus's trajectory, relative to its scale m g a3 + 1/2 C Omega^2: measured
# 3.2e-13 (file), at most 5.6e-13 (random).
CLOSE_E = 1e-10
# The contact point's velocity and height at saltus's samples, relative to |Omega| a3 and a3:
# rolling on the floor. Measured 5.1e-13 (file), at most 5.2e-13 (random).
CLOSE_SLIP = 1e-9
KEYS = ("m", "g", "a1", "a2", "a3", "h", "A", "B", "C", "D")


def file_parameters(path):
    """The model file's [parameters] as numbers: values, or expressions of the ones before."""
    with open(path, "rb") as f:
        table = tomllib.load(f)["parameters"]
    out = {}
    scope = {k: getattr(math, k) for k in ("sqrt", "sin", "cos", "tan", "pi")}
    for name, v in table.items():
        v = v["value"] if isinstance(v, dict) else v
        out[name] = float(eval(v.replace("^", "**"), scope, dict(out))) if isinstance(v, str) \
            else float(v)
    return out


def start_sets(p, q, w, xy=(0.0, 0.0)):
    """--set values of the coordinates and velocities for a rolling start at (q, w) over xy."""
    c, v = oracle.start(p, q, w)
    c[:2] = xy
    dq = 0.5 * q_mul(np.concatenate([[0.0], w]), q)
    sets = ["%s=%r" % (n, c[k]) for k, n in enumerate("xyz")]
    sets += ["%s'=%r" % (n, v[k]) for k, n in enumerate("xyz")]
    sets += ["q%d=%r" % (k, q[k]) for k in range(4)]
    sets += ["q%d'=%r" % (k, dq[k]) for k in range(4)]
    return sets


def states(rows):
    """Arrays over the samples: t, c, v, A (rotation), w (world rates)."""
    out = {k: [] for k in ("t", "c", "v", "A", "w")}
    for r in rows:
        q = np.array([float(r["q%d" % i]) for i in range(4)])
        dq = np.array([float(r["q%d'" % i]) for i in range(4)])
        A = rotation(q)
        out["t"].append(float(r["t"]))
        out["c"].append([float(r[n]) for n in "xyz"])
        out["v"].append([float(r[n + "'"]) for n in "xyz"])
        out["A"].append(A)
        out["w"].append(A @ body_rates(q, dq))
    return {k: np.array(x) for k, x in out.items()}


def against_reference(name, p, q, w, events, rows, xy=(0.0, 0.0)):
    """saltus's run against the reference from the same start: the spin's zeros, the centre and
    angular velocity at every sample, rolling and energy along the run. Returns the zeros."""
    s = states(rows)
    t_end = s["t"][-1]
    times = np.unique(s["t"])
    ref, zeros = oracle.solve(p, q, w, np.array(xy, dtype=float), t_end, times)
    spin = [float(e["t"]) for e in events if e["guard"] == "spin"]
    expect(len(spin) == len(zeros), name + ": as many spin zeros as the reference", spin, zeros)
    gap = max(abs(a - b) for a, b in zip(spin, zeros)) if spin else 0.0
    expect(gap < CLOSE_T, name + ": the spin's zeros at the reference's", gap, spin, zeros)
    others = [e["guard"] for e in events if e["guard"] != "spin"]
    expect(not others and all(r["mode"] == "stick:floor" for r in rows),
           name + ": rolling throughout (stick:floor, no contact event)", others)
    at = {t: k for k, t in enumerate(times)}
    scale_w = abs(p["Omega"]) if "Omega" in p else np.abs(w).max()
    err_c = err_w = slip = lift = 0.0
    e = []
    for k, t in enumerate(s["t"]):
        y = ref[at[t]]
        c_ref, _ = oracle.centre(p, y)
        err_c = max(err_c, np.abs(s["c"][k] - c_ref).max() / p["a3"])
        err_w = max(err_w, np.abs(s["w"][k] - y[4:7]).max() / scale_w)
        r, _ = oracle.lever(p, s["A"][k], s["w"][k])
        slip = max(slip, np.linalg.norm(s["v"][k] + np.cross(s["w"][k], r)) / (scale_w * p["a3"]))
        lift = max(lift, abs(s["c"][k][2] + r[2]) / p["a3"])
        e.append(oracle.energy(p, s["c"][k], s["v"][k], s["A"][k], s["w"][k]))
    expect(err_c < CLOSE and err_w < CLOSE, name + ": centre and spin as the reference",
           err_c, err_w)
    expect(slip < CLOSE_SLIP and lift < CLOSE_SLIP, name + ": on the floor, the contact at rest",
           slip, lift)
    drift = (max(e) - min(e)) / (p["m"] * p["g"] * p["a3"] + 0.5 * p["C"] * scale_w ** 2)
    expect(drift < CLOSE_E, name + ": energy kept", drift)
    print("%s: %d spin zeros, worst %.2e s; centre %.2e, spin %.2e, slip %.2e, energy %.2e"
          % (name, len(spin), gap, err_c, err_w, slip, drift))
    return spin


def run(cli, name, sets=(), model=None):
    return run_outputs(cli, model or cli.model("rattleback.toml"), os.path.join(cli.work, name),
                       list(sets))


@case
def the_rattleback_reverses_its_spin_as_the_rolling_reference(cli):
    p = file_parameters(cli.model("rattleback.toml"))
    th = p["theta0"]
    q = np.array([math.cos(th / 2), math.sin(th / 2), 0.0, 0.0])
    w = np.array([0.0, 0.0, p["Omega"]])
    events, rows, summary = run(cli, "file")
    # The file's start is the reference's: on the floor, the contact point at rest.
    c0, v0 = oracle.start(p, q, w)
    first = states(rows[:1])
    expect(np.abs(first["c"][0] - c0).max() < 1e-15 * p["a3"] + 1e-17
           and np.abs(first["v"][0] - v0).max() < 1e-14 * abs(p["Omega"]) * p["a3"],
           "the file's start rolls on the floor", first["c"][0], c0, first["v"][0], v0)
    spin = against_reference("file", p, q, w, events, rows)
    # It reverses: the spin ends the other way round.
    expect(len(spin) >= 1 and np.sign(states(rows[-1:])["w"][0][2]) == -np.sign(p["Omega"]),
           "the spin reverses", spin)
    expect(summary["status"] == "end-time-reached", "the run ends at t_end", summary["status"])


def random_rattleback(rng):
    """Parameters, a tilted and turned start with a spin either way and some rocking."""
    p = {"m": rng.uniform(0.5, 2.0), "g": 9.81, "a1": rng.uniform(0.08, 0.12),
         "a3": rng.uniform(0.04, 0.06)}
    p["a2"] = math.sqrt(rng.uniform(0.025, 0.035) * p["a3"])
    p["h"] = rng.uniform(0.008, 0.012)
    scale = p["m"]
    p.update(A=2e-4 * scale, B=1.6e-3 * scale, C=1.7e-3 * scale,
             D=rng.choice((-1, 1)) * rng.uniform(0.6e-4, 1.2e-4) * scale)
    p["Omega"] = rng.choice((-1, 1)) * rng.uniform(3.0, 6.0)
    axis = rng.uniform(0, 2 * math.pi)
    tilt = rng.uniform(0.005, 0.03)
    yaw = rng.uniform(0, 2 * math.pi)
    q_tilt = np.array([math.cos(tilt / 2), math.sin(tilt / 2) * math.cos(axis),
                       math.sin(tilt / 2) * math.sin(axis), 0.0])
    q_yaw = np.array([math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)])
    q = q_mul(q_tilt, q_yaw)
    w = np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), p["Omega"]])
    return p, q, w


@case
def random_rattlebacks_roll_as_the_reference(cli):
    rng = random.Random(48048)
    reversing = 0
    for k in range(4):
        p, q, w = random_rattleback(rng)
        sets = ["%s=%r" % (key, p[key]) for key in KEYS] + ["solver.t_end=4.0"]
        events, rows, summary = run(cli, "random%d" % k, sets + start_sets(p, q, w))
        expect(summary["status"] == "end-time-reached", "random %d ends at t_end" % k,
               summary["status"], summary["message"])
        spin = against_reference("random %d" % k, p, q, w, events, rows)
        # Translated by 1e6 m and turned about the vertical: the same spin zeros.
        turn = rng.uniform(0, 2 * math.pi)
        q_turn = np.array([math.cos(turn / 2), 0.0, 0.0, math.sin(turn / 2)])
        w_turn = rotation(q_turn) @ w
        moved, _, _ = run(cli, "random%d_moved" % k,
                          sets + start_sets(p, q_mul(q_turn, q), w_turn, (1e6, -3.0)))
        spin_moved = [float(e["t"]) for e in moved if e["guard"] == "spin"]
        expect(len(spin_moved) == len(spin) and
               all(abs(a - b) < CLOSE_T for a, b in zip(spin, spin_moved)),
               "random %d: the same spin zeros moved and turned" % k, spin, spin_moved)
        reversing += len(spin) > 0
    expect(reversing >= 2, "some of them reverse within t_end", reversing)


def ellipsoid_model(e, mu, axes):
    """A lone ellipsoid (its centre the centre of mass) on the floor, as the file's body."""
    law = 'law = "newton_coulomb"\nmu = %r' % mu if mu > 0 else 'law = "newton"'
    a, b, c = axes
    return f"""[model]
name = "ellipsoid_drop"
[parameters]
m = 0.7
g = 9.81
[coordinates]
x = {{ initial = 0.0 }}
y = {{ initial = 0.0 }}
z = {{ initial = 1.0 }}
q0 = {{ initial = 1.0 }}
q1 = {{ initial = 0.0 }}
q2 = {{ initial = 0.0 }}
q3 = {{ initial = 0.0 }}
[mechanics]
gravity = [0.0, 0.0, "-g"]
[[bodies]]
name = "egg"
mass = "m"
inertia = ["m*({b}^2 + {c}^2)/5", "m*({a}^2 + {c}^2)/5", "m*({a}^2 + {b}^2)/5"]
quaternion = ["q0", "q1", "q2", "q3"]
position = ["x", "y", "z"]
[[contacts]]
name = "floor"
body = "egg"
point = [0, 0, 0]
ellipsoid = [{a}, {b}, {c}]
{law}
e = {e}
[solver]
t_end = 1.5
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
[output]
sample_interval = 0.005
"""


def lowest_surface_point(c, A, axes):
    """The lowest height of the ellipsoid's surface: its support distance along -z,
    sqrt(sum_i (a_i A_zi)^2), below its centre."""
    return c[2] - math.sqrt(sum((axes[i] * A[2, i]) ** 2 for i in range(3)))


@case
def dropped_ellipsoids_land_on_time_and_stay_above_the_floor(cli):
    rng = random.Random(4848)
    for k in range(5):
        axes = (rng.uniform(0.05, 0.15), rng.uniform(0.05, 0.15), rng.uniform(0.05, 0.15))
        e, mu = (1.0, 0.0) if k < 2 else (rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8))
        path = os.path.join(cli.work, "egg%d.toml" % k)
        with open(path, "w") as f:
            f.write(ellipsoid_model(e, mu, axes))
        q = rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)
        q = np.array(q) / np.linalg.norm(q)
        A = rotation(q)
        z0 = rng.uniform(0.3, 0.6)
        sets = ["z=%r" % z0] + ["q%d=%r" % (i, q[i]) for i in range(4)]
        out = os.path.join(cli.work, "egg%d" % k)
        events, rows, summary = run_outputs(cli, path, out, sets)
        # Falling without spin: the lowest point reaches the floor when g t^2 / 2 = its gap.
        t_hit = math.sqrt(2 * lowest_surface_point([0, 0, z0], A, axes) / 9.81)
        first = next(ev for ev in events if ev["guard"].startswith("impact"))
        expect(abs(float(first["t"]) - t_hit) < 1e-10 * t_hit, "egg %d lands on time" % k,
               first["t"], t_hit)
        marks = read_json(out, "bodies.json")
        expect([s["kind"] for s in marks["bodies"][0]["shapes"]] == ["ellipsoid"],
               "egg %d: bodies.json names the ellipsoid" % k, marks["bodies"])
        at = marks["events"][0]["at"]
        expect(abs(at[2]) < 1e-12 and abs(float(marks["events"][0]["t"]) - t_hit) < 1e-9,
               "egg %d: the landing point marked on the floor" % k, marks["events"][0])
        s = states(rows)
        low = min(lowest_surface_point(c, Ak, axes) for c, Ak in zip(s["c"], s["A"]))
        expect(low > -1e-9 * max(axes), "egg %d stays above the floor" % k, low)
        m = 0.7
        inertia = np.diag([m * (axes[1] ** 2 + axes[2] ** 2) / 5, m * (axes[0] ** 2 + axes[2] ** 2)
                           / 5, m * (axes[0] ** 2 + axes[1] ** 2) / 5])
        energy = [0.5 * m * v @ v + 0.5 * w @ (Ak @ inertia @ Ak.T) @ w + m * 9.81 * c[2]
                  for c, v, Ak, w in zip(s["c"], s["v"], s["A"], s["w"])]
        scale = m * 9.81 * z0
        if e == 1.0:
            expect(max(energy) - min(energy) < 1e-9 * scale, "egg %d keeps its energy" % k,
                   max(energy) - min(energy))
        else:
            rise = max(b - a for a, b in zip(energy, energy[1:]))
            expect(rise < 1e-9 * scale, "egg %d never gains energy" % k, rise)
        expect(summary["status"] == "end-time-reached" or "floor" in summary["message"],
               "egg %d ends at t_end or with a status naming the contact" % k, summary["status"],
               summary["message"])
        print("egg %d: e %.2f mu %.2f status %s, %d events, lowest %.1e"
              % (k, e, mu, summary["status"], len(events), low))


@case
def ellipsoids_and_inertia_tensors_refuse_bad_input(cli):
    with open(cli.model("rattleback.toml")) as f:
        text = f.read()
    ellipsoid = 'ellipsoid = ["a1", "a2", "a3"]'
    expect_refused_edits(cli, text, (
        ("flat", ellipsoid, 'ellipsoid = ["a1", 0.0, "a3"]', "not positive"),
        ("rim_too", ellipsoid, ellipsoid + '\nrim = "a1"\naxis = [0, 0, 1]', "both rim and"),
        ("two_entries", ellipsoid, 'ellipsoid = ["a1", "a2"]', "three expressions"),
    ), "floor")
    tensor = 'inertia = [["A", "-D", 0.0], ["-D", "B", 0.0], [0.0, 0.0, "C"]]'
    expect_refused_edits(cli, text, (
        ("unsymmetric", tensor, 'inertia = [["A", "D", 0.0], ["-D", "B", 0.0], [0.0, 0.0, "C"]]',
         "not symmetric"),
        ("indefinite", tensor, 'inertia = [["A", "-0.01", 0.0], ["-0.01", "B", 0.0], '
         '[0.0, 0.0, "C"]]', "not a rigid body's"),
        ("triangle", tensor, 'inertia = [["A", 0.0, 0.0], [0.0, "B", 0.0], [0.0, 0.0, "10*C"]]',
         "not a rigid body's"),
        ("short_row", tensor, 'inertia = [["A", "-D"], ["-D", "B", 0.0], [0.0, 0.0, "C"]]',
         "inertia row 1"),
        ("velocity", tensor, 'inertia = [["A", "-D*x\'", 0.0], ["-D", "B", 0.0], '
         '[0.0, 0.0, "C"]]', "expected the parameters only"),
    ), "celt")


if __name__ == "__main__":
    main(CASES)
