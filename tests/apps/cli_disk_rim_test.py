#!/usr/bin/env python3
"""End-to-end tests of a contact on a disk's rim (issue 48, stage 2): models/disk_on_rim.toml, a
thin disk with a quaternion orientation dropped on a frictionless floor, against

- the closed form of its first impact: it falls without turning and lands at
  t1 = sqrt(2 (z0 - R sin alpha) / g) on its lowest rim point r (from the centre), then
  P = -(1 + e) v_n / (1/m + (r x n) . I_w^-1 (r x n)), v+ = v- + P n / m,
  w+ = I_w^-1 (r x P n) [derived, Newton's law];
- the invariants of a frictionless floor, whose force is vertical and acts on the rim: the
  horizontal momentum, the spin about the symmetry axis (its torque about the axis is
  a . (r x n) = 0, r in the plane of a and n) and the angular momentum about the vertical
  through the centre stay constant through flight, impacts and contact; the energy too at e = 1.

Usage: cli_disk_rim_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt), run by Debian's python3 (NumPy).
"""
import math
import os

import numpy as np

from cli_analysis_test import read_json, run_outputs
from cli_test import expect, expect_refused_edits, main
from quaternion_kinematics import body_rates, body_state, q_mul, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


state = body_state


def rim_point(R, q, radius):
    """The lowest point of the rim, from the centre: -radius (n - (n.a) a) / |...|, n = z."""
    a = R @ np.array([0.0, 0.0, 1.0])
    n = np.array([0.0, 0.0, 1.0])
    d = n - (n @ a) * a
    return -radius * d / np.linalg.norm(d)


def drop(cli, name, sets, model=None):
    return run_outputs(cli, model or cli.model("disk_on_rim.toml"), os.path.join(cli.work, name),
                       sets)


M, G, RADIUS = 0.5, 9.81, 0.04
INERTIA = np.diag([M * RADIUS ** 2 / 4, M * RADIUS ** 2 / 4, M * RADIUS ** 2 / 2])


@case
def a_tilted_disk_lands_on_its_rim_as_the_closed_form(cli):
    # Tilts 0.3, 0.6, 1.2 rad, e = 1 and 0.5: the first impact at t1 (1e-10 s), and the
    # velocities after it against the closed form within 1e-10 of the fall speed.
    for alpha in (0.3, 0.6, 1.2):
        for e in (1.0, 0.5):
            z0 = 0.1
            events, _, _ = drop(cli, "tilt%g_e%g" % (alpha, e),
                                ["alpha=%r" % alpha, "e=%r" % e, "solver.t_end=0.2"])
            first = events[0]
            t1 = math.sqrt(2 * (z0 - RADIUS * math.sin(alpha)) / G)
            expect(first["guard"] == "impact:rim" and abs(float(first["t"]) - t1) < 1e-10,
                   "the first impact at t1", first["t"], t1)
            c, v, q, dq = state(first, "before")
            R = rotation(q)
            expect(np.abs(body_rates(q, dq)).max() < 1e-12 and abs(v[2] + G * t1) < 1e-9,
                   "falling without turning", v, dq)
            r = rim_point(R, q, RADIUS)
            n = np.array([0.0, 0.0, 1.0])
            Iw = R @ INERTIA @ R.T
            rn = np.cross(r, n)
            P = -(1 + e) * v[2] / (1 / M + rn @ np.linalg.solve(Iw, rn))
            v_after = v + P * n / M
            w_after = np.linalg.solve(Iw, np.cross(r, P * n))
            c2, v2, q2, dq2 = state(first, "after")
            w2 = R @ body_rates(q2, dq2)
            scale = G * t1
            expect(np.abs(v2 - v_after).max() < 1e-10 * scale, "v+", v2, v_after)
            expect(np.abs(w2 - w_after).max() * RADIUS < 1e-10 * scale, "w+", w2, w_after)
            # bodies.json marks the impact at the rim point (run/body_frames.cpp).
            marked = read_json(os.path.join(cli.work, "tilt%g_e%g" % (alpha, e)),
                               "bodies.json")["events"][0]
            expect(np.abs(np.array(marked["at"]) - (c + r)).max() < 1e-12 and
                   abs(marked["at"][2]) < 1e-12, "the marked rim point", marked, c + r)
            rim_speed = (v2 + np.cross(w2, r))[2]
            expect(abs(rim_speed + e * v[2]) < 1e-10 * scale, "Newton's law at the rim",
                   rim_speed, -e * v[2])


def invariants(row):
    c, v, q, dq = state(row)
    R = rotation(q)
    w_body = body_rates(q, dq)
    energy = 0.5 * M * v @ v + 0.5 * w_body @ INERTIA @ w_body + M * G * c[2]
    lowest = c[2] + rim_point(R, q, RADIUS)[2]
    return np.array([M * v[0], M * v[1], w_body[2], (R @ INERTIA @ w_body)[2]]), energy, lowest


@case
def random_spinning_disks_keep_the_floors_invariants(cli):
    # 8 seeded random drops: tilt in [0.3, 1.2], spin about the axis up to 60 rad/s, a random
    # transverse rate, a horizontal throw, e = 1 for half of them, else random. Every run ends
    # at its end time; at every sample the rim is not below the floor (1e-9 R), the horizontal
    # momentum, the axial spin and the vertical angular momentum about the centre are those of
    # the start (1e-9 of their scale), and the energy is kept (e = 1) or never gained (1e-9).
    rng = np.random.default_rng(48)
    for k in range(8):
        alpha = rng.uniform(0.3, 1.2)
        w_body = np.array([rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-60, 60)])
        e = 1.0 if k % 2 == 0 else rng.uniform(0.2, 0.9)
        q = np.array([math.cos(alpha / 2), math.sin(alpha / 2), 0.0, 0.0])
        dq = 0.5 * q_mul(q, np.concatenate([[0.0], w_body]))
        sets = ["alpha=%r" % alpha, "e=%r" % e, "z=%r" % rng.uniform(0.05, 0.15),
                "x'=%r" % rng.uniform(-1, 1), "y'=%r" % rng.uniform(-1, 1), "solver.t_end=0.6"]
        sets += ["q%d'=%r" % (i, float(dq[i])) for i in range(4)]
        _, rows, summary = drop(cli, "random%d" % k, sets)
        expect(summary["status"] == "end-time-reached", "drop %d: to the end" % k, summary)
        start, energy0, _ = invariants(rows[0])
        scale = np.array([M * 2, M * 2, 60, INERTIA[2, 2] * 60]) + np.abs(start)
        for r in rows:
            kept, energy, lowest = invariants(r)
            expect(lowest > -1e-9 * RADIUS, "drop %d: the rim above the floor" % k, r["t"],
                   lowest)
            expect((np.abs(kept - start) < 1e-9 * scale).all(),
                   "drop %d: momentum, axial spin, vertical angular momentum" % k, r["t"],
                   kept - start)
            if e == 1.0:
                expect(abs(energy - energy0) < 1e-9 * abs(energy0), "drop %d: energy kept" % k,
                       r["t"], energy, energy0)
            else:
                expect(energy <= energy0 + 1e-9 * abs(energy0), "drop %d: energy never gained"
                       % k, r["t"], energy, energy0)


@case
def a_precessing_disk_on_its_rim_keeps_its_steady_motion(cli):
    # A disk at rest centre and inclination theta precessing at Omega about the vertical slides
    # on its rim in steady motion when the floor's torque about the centre, N a cos(theta) with
    # N = m g, turns its angular momentum at Omega [derived, Euler's equations of a symmetric
    # body]: I3 w3 Omega sin(theta) - I1 Omega^2 sin(theta) cos(theta) = -m g a cos(theta), w3
    # the spin about the axis. 6 seeded random (theta, Omega), both senses: over 3 precession
    # periods the inclination stays theta and the centre where it was (1e-9), the axis' azimuth
    # turns at Omega (1e-9 rad), the contact stays closed. With w3 of the other sign of the
    # torque the disk leaves the floor.
    rng = np.random.default_rng(4849)
    for k in range(7):
        theta = rng.uniform(0.3, 1.2)
        omega = rng.uniform(5, 20) * (1 if k % 2 == 0 else -1)
        torque = -1.0 if k < 6 else 1.0  # the last: the wrong sign
        I1, I3 = INERTIA[0, 0], INERTIA[2, 2]
        w3 = (torque * M * G * RADIUS * math.cos(theta) / (omega * math.sin(theta)) +
              I1 * omega * math.cos(theta)) / I3
        q = np.array([math.cos(theta / 2), math.sin(theta / 2), 0.0, 0.0])
        R = rotation(q)
        axis = R @ np.array([0.0, 0.0, 1.0])
        w = omega * np.array([0.0, 0.0, 1.0]) + (w3 - omega * math.cos(theta)) * axis
        dq = 0.5 * q_mul(q, np.concatenate([[0.0], R.T @ w]))
        period = 2 * math.pi / abs(omega)
        z = RADIUS * math.sin(theta)
        sets = ["alpha=%r" % theta, "z=%r" % z, "solver.t_end=%r" % (3 * period)]
        sets += ["q%d'=%r" % (i, float(dq[i])) for i in range(4)]
        _, rows, _ = drop(cli, "steady%d" % k, sets)
        worst, modes = np.zeros(3), set()
        for r in rows:
            t = float(r["t"])
            a = rotation(np.array([float(r["q%d" % i]) for i in range(4)])) @ [0.0, 0.0, 1.0]
            turn = math.atan2(a[1], a[0]) - math.atan2(axis[1], axis[0]) - omega * t
            c = np.array([float(r[n]) for n in "xyz"])
            worst = np.maximum(worst, [abs(math.acos(a[2]) - theta),
                                       abs((turn + math.pi) % (2 * math.pi) - math.pi),
                                       np.abs(c - [0.0, 0.0, z]).max() / RADIUS])
            modes.add(r["mode"])
        if torque < 0:
            expect((worst < 1e-9).all() and modes == {"closed:rim"}, "steady %d" % k, worst,
                   modes)
        else:
            expect("free" in modes, "the wrong spin leaves the floor", modes, worst)


@case
def the_disk_in_centimetres_lands_at_the_same_times(cli):
    # The spinning drop in cm (R = 4, g = 981, z0 = 10): the same impact times (1e-10 s).
    times = {}
    for name, sets in (("m", []), ("cm", ["R=4", "g=981", "z=10"]),
                       ("far", ["x=1e6", "y=-1e6"]),
                       ("late", ["initial.t=1e9", "solver.t_end=%r" % (1e9 + 0.5)])):
        # 20 rad/s about the axis: q' = 1/2 q (x) (0, 0, 0, 20) at the file's tilt 0.6.
        dq = ["q2'=%r" % (-10 * math.sin(0.3)), "q3'=%r" % (10 * math.cos(0.3))]
        end = [] if name == "late" else ["solver.t_end=0.5"]
        events, _, _ = drop(cli, name, sets + dq + end)
        times[name] = [float(e["t"]) for e in events if e["guard"].startswith("impact")]
    # Moved 1e6 along x and y: the same times; started at t0 = 1e9, the same after t0 within
    # the clock's resolution there (ulp 1.2e-7 s).
    for name, t0, close in (("cm", 0.0, 1e-10), ("far", 0.0, 1e-10), ("late", 1e9, 1e-6)):
        expect(len(times["m"]) == len(times[name]) >= 3, name + ": as many impacts", times)
        expect(all(abs(a - (b - t0)) < close for a, b in zip(times["m"], times[name])),
               name + ": the same times", times["m"], times[name])


@case
def rim_contacts_refuse_what_they_cannot_be(cli):
    with open(cli.model("disk_on_rim.toml")) as f:
        text = f.read()
    expect_refused_edits(cli, text, (
            ("no_axis", 'axis = [0, 0, 1]\n', "", "has rim but no axis"),
            ("no_rim", 'rim = "R"\n', "", "has axis but no rim"),
            ("no_point", 'point = [0, 0, 0]\n', 'gap = "z"\n', "but no point")), "contact 'rim'")


if __name__ == "__main__":
    main(CASES, "cli_disk_rim_test.py")
