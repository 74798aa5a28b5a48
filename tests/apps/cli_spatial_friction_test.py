#!/usr/bin/env python3
"""End-to-end tests of Coulomb friction in space (issue 48, stage 3): models/sliding_sphere.toml,
a solid sphere (mass m, radius r, I = 2/5 m r^2, a quaternion orientation) on a rough plane,
against closed forms derived here:

- Sliding: the contact point's slip velocity u = v + w x (-r n) obeys du/dt = -7/2 mu g u/|u| on
  a horizontal floor (dv/dt = -mu g u/|u|, dw/dt = 5 mu g/(2 r) n x u/|u|... as a torque r x F
  over I), so u keeps its direction, reaches zero at t* = 2 |u0| / (7 mu g), and the sphere rolls
  on with v* = v0 - mu g t* u0/|u0| (5/7 v0 when launched without spin); the spin about the
  normal never changes.
- On a plane inclined by th, from rest: rolling (a = 5/7 g sin th) when mu >= 2/7 tan th, else
  sliding with a = g (sin th - mu cos th) and the spin growing at 5 mu g cos th / (2 r).
- An impact with friction, Newton's law and Coulomb's cone at one contact: P_N = (1 + e) m |v_N|;
  stick when the impulse that stops the slip, |P_T| = m |u| / (7/2), lies in the cone
  |P_T| <= mu P_N, else P_T = -mu P_N u/|u| (the slip keeps its direction: A is isotropic).

Usage: cli_spatial_friction_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt), run by Debian's python3 (NumPy).
"""
import math
import os
import random

import numpy as np

from cli_analysis_test import read_json, run_outputs
from cli_test import (difference_column, expect, expect_exit, expect_refused_edits, main,
                      read_csv)
from quaternion_kinematics import body_rates, body_state, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


M, G, R = 0.2, 9.81, 0.05
I = 0.4 * M * R * R
N = np.array([0.0, 0.0, 1.0])


def state(row, which=None):
    """Centre, velocity and angular velocity (world axes) of the sphere in a row."""
    c, v, q, dq = body_state(row, which)
    return c, v, rotation(q) @ body_rates(q, dq)


def run(cli, name, sets, model=None):
    return run_outputs(cli, model or cli.model("sliding_sphere.toml"),
                       os.path.join(cli.work, name), sets)


def launch(v0, w0, z=R):
    """--set values for a start at height z with velocity v0 and world (= body) spin w0."""
    sets = ["z=%r" % z]
    for k, name in enumerate("xyz"):
        sets.append("%s'=%r" % (name, v0[k]))
    for k in range(3):
        sets.append("q%d'=%r" % (k + 1, w0[k] / 2))  # q' = 1/2 q (x) (0, w) at q = 1
    return sets


def energy(row):
    c, v, w = state(row)
    return 0.5 * M * v @ v + 0.5 * I * w @ w + M * G * c[2]


def expect_energy_never_gained(rows, what):
    e = [energy(r) for r in rows]
    scale = max(abs(x) for x in e)
    expect(all(b <= a + 1e-9 * scale for a, b in zip(e, e[1:])), what + ": energy never gained",
           max(b - a for a, b in zip(e, e[1:])))


@case
def a_sphere_launched_sliding_rolls_on_at_five_sevenths(cli):
    # Without spin: the stick event at t* = 2 v0 / (7 mu g) (1e-10 of t*), 5/7 v0 after it
    # (1e-10 v0), the energy m v0^2 / 7 lost, then rolling in the stick mode to t_end.
    for mu, v0 in ((0.3, 2.0), (0.05, 0.5), (0.9, 7.0)):
        t_star = 2 * v0 / (7 * mu * G)
        events, rows, summary = run(cli, "launch_mu%g" % mu,
                                    ["mu=%r" % mu, "v0=%r" % v0,
                                     "solver.t_end=%r" % (2 * t_star)])
        expect(len(events) == 1 and events[0]["guard"] == "stick:floor" and
               events[0]["mode_after"] == "stick:floor", "one stick event", events)
        t = float(events[0]["t"])
        expect(abs(t - t_star) < 1e-10 * t_star, "stick at 2 v0 / (7 mu g)", t, t_star)
        _, v, w = state(events[0], "after")
        expect(np.abs(v - [5 / 7 * v0, 0, 0]).max() < 1e-10 * v0, "5/7 v0", v)
        expect(np.abs(w - [0, 5 / 7 * v0 / R, 0]).max() < 1e-10 * v0 / R, "rolling", w)
        lost = energy(rows[0]) - energy(rows[-1])
        expect(abs(lost - M * v0 * v0 / 7) < 1e-10 * M * v0 * v0, "m v0^2 / 7 lost", lost)
        expect(summary["final_mode"] == "stick:floor" and rows[-1]["mode"] == "stick:floor",
               "rolls to t_end", summary["final_mode"])
        # The friction columns: mu m g against the slip (-x) while sliding, none while rolling.
        for r in rows:
            f = np.array([float(r["lambda_T1:floor"]), float(r["lambda_T2:floor"])])
            expect(abs(float(r["lambda_N:floor"]) - M * G) < 1e-12 * M * G, "lambda_N = m g")
            want = mu * M * G if r["mode"] == "slip:floor" else 0.0
            expect(abs(np.linalg.norm(f) - want) < 1e-10 * M * G, "friction", r["t"], f, want)


@case
def random_spins_slide_along_a_fixed_direction_then_roll(cli):
    # 10 seeded launches with a random horizontal velocity and a random spin about every axis:
    # one stick event at t* (1e-10), the velocity and spin there, the spin about the normal
    # kept, the positions at t_end against the closed form (1e-9), energy never gained.
    rng = random.Random(48)
    for k in range(10):
        mu = rng.uniform(0.05, 0.8)
        v0 = np.array([rng.uniform(-3, 3), rng.uniform(-3, 3), 0.0])
        w0 = np.array([rng.uniform(-60, 60) for _ in range(3)])
        u0 = v0 + np.cross(w0, -R * N)
        speed = np.linalg.norm(u0)
        d = u0 / speed
        t_star = 2 * speed / (7 * mu * G)
        t_end = 1.5 * t_star
        events, rows, _ = run(cli, "spin%d" % k,
                              ["mu=%r" % mu, "solver.t_end=%r" % t_end] + launch(v0, w0))
        expect(len(events) == 1 and events[0]["guard"] == "stick:floor", "one stick", k, events)
        t = float(events[0]["t"])
        expect(abs(t - t_star) < 1e-10 * t_star, "stick at 2 |u0| / (7 mu g)", k, t, t_star)
        v_star = v0 - mu * G * t_star * d
        w_star = w0 + (np.cross(-R * N, -mu * M * G * d) / I) * t_star
        c, v, w = state(events[0], "after")
        scale = np.linalg.norm(v0) + R * np.linalg.norm(w0)
        expect(np.abs(v - v_star).max() < 1e-10 * scale, "velocity at t*", k, v, v_star)
        expect(np.abs(w - w_star).max() < 1e-10 * scale / R, "spin at t*", k, w, w_star)
        expect(abs(w[2] - w0[2]) < 1e-10 * scale / R, "spin about the normal kept", k)
        c_star = v0 * t_star - 0.5 * mu * G * t_star ** 2 * d
        c_end = c_star + v_star * (t_end - t_star) + R * N
        c, _, _ = state(rows[-1])
        expect(abs(float(rows[-1]["t"]) - t_end) < 1e-12 and
               np.abs(c - c_end).max() < 1e-9 * (1 + np.abs(c_end).max()),
               "position at t_end", k, c, c_end)
        expect_energy_never_gained(rows, "spin%d" % k)
    # Launched rolling (u0 = 0): the stick mode from the start, no event, the speed kept.
    v0 = np.array([1.2, -0.7, 0.0])
    events, rows, _ = run(cli, "rolling", launch(v0, np.cross(N, v0) / R) + ["solver.t_end=0.3"])
    expect(not events and rows[0]["mode"] == "stick:floor", "rolls from the start", events)
    _, v, _ = state(rows[-1])
    expect(np.abs(v - v0).max() < 1e-12, "speed kept", v)


@case
def on_an_incline_it_rolls_or_slides_by_mu(cli):
    # From rest on planes tilted by th towards random azimuths: mu above 2/7 tan th rolls
    # (stick throughout, a = 5/7 g sin th), below slides from the start (the slip's direction
    # taken from the stick force: down the slope) with a = g (sin th - mu cos th). Positions at
    # t_end within 1e-12 m, the sliding spin within 1e-10 of the closed form.
    rng = random.Random(7)
    for k in range(6):
        th, phi = rng.uniform(0.1, 1.0), rng.uniform(-math.pi, math.pi)
        n = np.array([math.sin(th) * math.cos(phi), math.sin(th) * math.sin(phi), math.cos(th)])
        critical = 2 / 7 * math.tan(th)
        rolls = k % 2 == 0
        mu = critical * (rng.uniform(1.05, 2.0) if rolls else rng.uniform(0.1, 0.95))
        T = 0.4
        c0 = R * n
        events, rows, _ = run(cli, "incline%d" % k, [
            "mu=%r" % mu, "v0=0.0", "x=%r" % c0[0], "y=%r" % c0[1], "z=%r" % c0[2],
            "solver.t_end=%r" % T, "contacts.floor.plane=[%r, %r, %r, 0]" % tuple(n)])
        expect(not events, "no event", k, events)
        mode = "stick:floor" if rolls else "slip:floor"
        expect(all(r["mode"] == mode for r in rows), "one mode throughout", k, mode)
        down = np.array([0.0, 0.0, -1.0]) + math.cos(th) * n
        down /= np.linalg.norm(down)
        a = G * math.sin(th) * (5 / 7 if rolls else 1.0) - (0 if rolls else mu * G * math.cos(th))
        c, v, w = state(rows[-1])
        expect(np.abs(c - (c0 + 0.5 * a * T * T * down)).max() < 1e-12, "position", k, c)
        expect(np.abs(v - a * T * down).max() < 1e-12, "velocity", k, v)
        friction = 2 / 7 * M * G * math.sin(th) if rolls else mu * M * G * math.cos(th)
        for r in rows:
            f = math.hypot(float(r["lambda_T1:floor"]), float(r["lambda_T2:floor"]))
            expect(abs(f - friction) < 1e-10 * M * G, "friction force", k, r["t"], f, friction)
        alpha = (5 / 7 * G * math.sin(th) if rolls else 5 * mu * G * math.cos(th) / 2) / R
        expect(np.abs(w - alpha * T * np.cross(n, down)).max() < 1e-10 * alpha * T, "spin", k, w)


@case
def a_rolling_sphere_slips_when_its_friction_leaves_the_cone(cli):
    # Pushed at its centre by F = k t along x from rest: it rolls (friction 2/7 F, a = 5/7 F / m)
    # until 2/7 k t = mu m g, t_s = 7 mu m g / (2 k), then slips from rest with the stick force's
    # direction (the onset at the cone's edge, where the slip starts with zero acceleration):
    # a = k t / m - mu g, the spin growing at 5 mu g / (2 r). 4 seeded (k, mu): the slip event at
    # t_s (1e-10 of t_s), slip to t_end, the position and velocity there (1e-10 of the scale).
    with open(cli.model("sliding_sphere.toml")) as f:
        text = f.read()
    pushed = text.replace('position = ["x", "y", "z"]',
                          'position = ["x", "y", "z"]\nforce = ["k*t", 0, 0]')
    pushed = pushed.replace('v0 = { value = 2.0, unit = "m/s" }', 'v0 = 0.0\nk = 3.0')
    path = os.path.join(cli.work, "pushed_sphere.toml")
    with open(path, "w") as f:
        f.write(pushed)
    rng = random.Random(17)
    for n in range(4):
        k, mu = rng.uniform(0.5, 5.0), rng.uniform(0.1, 0.6)
        ts = 7 * mu * M * G / (2 * k)
        T = 1.6 * ts
        events, rows, _ = run(cli, "pushed%d" % n, ["k=%r" % k, "mu=%r" % mu,
                                                    "solver.t_end=%r" % T], path)
        expect(len(events) == 1 and events[0]["guard"] == "slip:floor" and
               events[0]["mode_after"] == "slip:floor", "one slip onset", n, events)
        expect(abs(float(events[0]["t"]) - ts) < 1e-10 * ts, "at t_s", n, events[0]["t"], ts)
        vs, xs = 5 / 14 * k * ts ** 2 / M, 5 / 42 * k * ts ** 3 / M
        v = vs + k / (2 * M) * (T * T - ts * ts) - mu * G * (T - ts)
        x = xs + vs * (T - ts) + k / (6 * M) * (T ** 3 - ts ** 3 - 3 * ts ** 2 * (T - ts)) \
            - 0.5 * mu * G * (T - ts) ** 2
        w = vs / R + 5 * mu * G / (2 * R) * (T - ts)
        c, vel, spin = state(rows[-1])
        expect(rows[-1]["mode"] == "slip:floor" and abs(c[0] - x) < 1e-10 * (1 + x) and
               abs(vel[0] - v) < 1e-10 * v and abs(spin[1] - w) < 1e-10 * w,
               "motion at t_end", n, c[0], x, vel[0], v, spin[1], w)


@case
def an_impact_sticks_or_slides_as_newton_and_coulomb(cli):
    # Dropped from z0 with a spin that makes the contact point slip at u: the first impact at
    # sqrt(2 (z0 - r) / g), P_N = (1 + e) m |v_N|, the slip stopped (inside the cone) or
    # P_T = -mu P_N u/|u| (outside), within 1e-10 of the impact's scale; energy never gained.
    rng = random.Random(11)
    sticks = 0
    for k in range(8):
        e, mu, z0 = rng.uniform(0.0, 0.9), rng.uniform(0.05, 0.6), rng.uniform(0.1, 0.5)
        v0 = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0])
        w0 = np.array([rng.uniform(-80, 80), rng.uniform(-80, 80), rng.uniform(-20, 20)])
        events, rows, _ = run(cli, "impact%d" % k, ["contacts.floor.e=%r" % e, "mu=%r" % mu,
                                                    "solver.t_end=0.4"] + launch(v0, w0, z0))
        first = events[0]
        t1 = math.sqrt(2 * (z0 - R) / G)
        expect(first["guard"] == "impact:floor" and abs(float(first["t"]) - t1) < 1e-10,
               "the first impact", k, first["t"], t1)
        _, v, w = state(first, "before")
        u = v + np.cross(w, -R * N)
        u[2] = 0.0
        P_N = (1 + e) * M * -v[2]
        P_T = -u * M / 3.5
        if np.linalg.norm(P_T) > mu * P_N:
            P_T = -mu * P_N * u / np.linalg.norm(u)
        else:
            sticks += 1
        P = P_T + P_N * N
        _, v_after, w_after = state(first, "after")
        scale = np.linalg.norm(v) + R * np.linalg.norm(w)
        expect(np.abs(v_after - (v + P / M)).max() < 1e-10 * scale, "velocity after", k)
        expect(np.abs(w_after - (w + np.cross(-R * N, P) / I)).max() < 1e-10 * scale / R,
               "spin after", k)
        expect(abs(float(first["impulse_n"]) - P_N) < 1e-10 * M * scale, "impulse_n", k)
        expect(abs(float(first["impulse_t"]) - np.linalg.norm(P_T)) < 1e-10 * M * scale,
               "impulse_t = |P_T|", k)
        expect_energy_never_gained(rows, "impact%d" % k)
    expect(0 < sticks < 8, "both sides of the cone were reached", sticks)


@case
def random_drops_end_rolling_without_penetration(cli):
    # 8 seeded drops with random e, mu, spin and height through bounces, the Zeno point and the
    # rolling that follows: every run ends at t_end, no sample below the floor (1e-9 r), energy
    # never gained, and rolling at the end (u = 0 within 1e-9 of the speeds).
    rng = random.Random(3)
    for k in range(8):
        e, mu, z0 = rng.uniform(0.1, 0.8), rng.uniform(0.05, 0.8), rng.uniform(0.06, 0.4)
        v0 = np.array([rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(-1, 1)])
        w0 = np.array([rng.uniform(-100, 100) for _ in range(3)])
        _, rows, summary = run(cli, "drop%d" % k, ["contacts.floor.e=%r" % e, "mu=%r" % mu,
                                                   "solver.t_end=3.0"] + launch(v0, w0, z0))
        expect(summary["status"] == "end-time-reached", "ends at t_end", k, summary["message"])
        expect(min(float(r["z"]) for r in rows) > R * (1 - 1e-9), "no penetration", k)
        expect_energy_never_gained(rows, "drop%d" % k)
        _, v, w = state(rows[-1])
        u = v + np.cross(w, -R * N)
        expect(rows[-1]["mode"] == "stick:floor" and
               np.abs(u).max() < 1e-9 * (np.abs(v0).max() + R * np.abs(w0).max()),
               "rolling at the end", k, rows[-1]["mode"], u)


@case
def the_same_motion_in_cm_far_away_and_late(cli):
    # A spinning drop in cm (r = 5, g = 981), moved 1e6 along x and y, started at t0 = 1e9: the
    # same event times (1e-10 s; 1e-6 s at 1e9) and guards.
    v0, w0 = np.array([0.8, -0.3, 0.0]), np.array([30.0, -50.0, 10.0])
    base = ["contacts.floor.e=0.5", "mu=0.4", "solver.t_end=1.2"]
    runs = {}
    for name, sets in (("m", launch(v0, w0, 0.2)),
                       ("cm", ["r=5.0", "g=981.0", "m=200.0"] + launch(100 * v0, w0, 20.0)),
                       ("far", launch(v0, w0, 0.2) + ["x=1e6", "y=-1e6"]),
                       ("late", launch(v0, w0, 0.2) + ["initial.t=1e9",
                                                       "solver.t_end=%r" % (1e9 + 1.2)])):
        events, _, _ = run(cli, "inv_" + name, base[:2] + sets + ([] if name == "late"
                                                                   else base[2:]))
        runs[name] = [(float(r["t"]), r["guard"]) for r in events]
    expect(len(runs["m"]) > 10, "bounces, Zeno and rolling", runs["m"])
    for name, t0, close in (("cm", 0.0, 1e-10), ("far", 0.0, 1e-10), ("late", 1e9, 1e-6)):
        a, b = runs["m"], runs[name]
        expect(len(a) == len(b) and all(x[1] == y[1] and abs(x[0] - (y[0] - t0)) < close
                                        for x, y in zip(a, b)), "same events", name, a, b)


@case
def euler_disk_rolls_in_place_at_the_closed_form_precession(cli):
    # models/euler_disk.toml: a thin disk (I1 = m R^2 / 4) rolling on its rim with its centre
    # fixed. At tilt theta of the axis from the vertical, rolling keeps the rim point at rest
    # when w = Omega sin(theta) f (f in the disk's plane, up its slope), and the angular
    # momentum I1 w about the centre turns with the precession under the normal force m g at the
    # rim: I1 Omega^2 sin(theta) = m g R. 6 seeded tilts and radii over 3 precession periods:
    # the stick mode throughout, the centre fixed (1e-9 R), the tilt kept (1e-9), the axis'
    # azimuth at -pi/2 + Omega t (1e-9 rad; measured 7e-13 after 7 turns), lambda_N = m g.
    # The control: 2 % off Omega the tilt moves by more than 1e-4.
    rng = random.Random(5)
    for k in range(7):
        theta, radius = rng.uniform(0.2, 1.3), rng.uniform(0.01, 0.1)
        omega = math.sqrt(4 * G / (radius * math.sin(theta)))
        control = k == 6
        sets = ["theta=%r" % theta, "R=%r" % radius, "solver.t_end=%r" % (6 * math.pi / omega)]
        if control:
            sets.append("Omega=%r" % (1.02 * omega))
        events, rows, _ = run(cli, "euler%d" % k, sets, cli.model("euler_disk.toml"))
        tilts, worst = [], 0.0
        for r in rows:
            c, v, w = state(r)
            q = np.array([float(r["q%d" % i]) for i in range(4)])
            a = rotation(q) @ N
            t = float(r["t"])
            tilts.append(math.acos(max(-1.0, min(1.0, a[2]))) - theta)
            turn = math.atan2(a[1], a[0]) - (-math.pi / 2 + omega * t)
            worst = max(worst, abs((turn + math.pi) % (2 * math.pi) - math.pi))
            if not control:
                expect(np.abs(c - [0, 0, radius * math.sin(theta)]).max() < 1e-9 * radius,
                       "centre fixed", k, t, c)
                expect(abs(float(r["lambda_N:rim"]) - 0.4 * G) < 1e-9 * 0.4 * G, "m g", k, t)
        if control:
            expect(max(abs(x) for x in tilts) > 1e-4, "2 % off Omega: the tilt moves", tilts)
            continue
        expect(not events and all(r["mode"] == "stick:rim" for r in rows), "rolls", k, events)
        expect(max(abs(x) for x in tilts) < 1e-9, "tilt kept", k, max(abs(x) for x in tilts))
        expect(worst < 1e-9, "precession at Omega", k, worst)


@case
def the_flow_map_jacobian_through_the_stick_is_central_differences(cli):
    # `saltus sensitivity` of a spinning sphere through its stick event (t_end after it): each
    # column of the flow-map Jacobian for the start's horizontal position, velocity and spin
    # against central differences of whole runs (step 1e-6), within 1e-4 of the column's size.
    # The stick reset's derivative is AD of its slip removal; near rest the slip direction
    # enters the variational equations as a constant (spatial_friction_dynamics.hpp).
    start = {"x'": 2.0, "y'": 0.4, "q1'": -3.0, "q2'": 5.0, "q3'": 1.0}
    base = ["--set", "solver.t_end=0.25"]
    for k, v in start.items():
        base += ["--set", "%s=%r" % (k, v)]
    out = os.path.join(cli.work, "sensitivity")
    code, stdout, stderr = cli.run("sensitivity", cli.model("sliding_sphere.toml"), "--out", out,
                                   *base)
    expect_exit(code, 0, stdout, stderr, "sensitivity")
    J = np.array(read_json(out, "sensitivity.json")["flow_map_jacobian"])
    names = ["x", "y", "z", "q0", "q1", "q2", "q3", "x'", "y'", "z'", "q0'", "q1'", "q2'", "q3'"]
    events = read_csv(os.path.join(out, "events.csv"))
    expect([r["guard"] for r in events] == ["stick:floor"], "through the stick", events)

    for name in ["x", "y"] + list(start):
        column = np.array(difference_column(cli, cli.model("sliding_sphere.toml"), base[1::2],
                                            names, name, start.get(name, 0.0)))
        got = J[:, names.index(name)]
        miss = np.abs(column - got).max()
        expect(miss < 1e-4 * max(1.0, np.abs(got).max()), "column " + name, miss, column, got)


@case
def the_slip_speed_output_is_the_contact_points_slip(cli):
    # [outputs] slip_speed(floor) of the sphere launched at v0 without spin: |u| = v0 - 7/2 mu g t
    # until t* = 2 v0 / (7 mu g), then 0 (rolling), 1e-10 v0; the other tangential quantities
    # are refused for friction in space, naming the columns that hold its two components.
    with open(cli.model("sliding_sphere.toml")) as f:
        text = f.read()
    path = os.path.join(cli.work, "slip_output.toml")
    with open(path, "w") as f:
        f.write(text + '\n[outputs]\nslip = { value = "slip_speed(floor)", unit = "m/s" }\n')
    mu, v0 = 0.3, 2.0
    t_star = 2 * v0 / (7 * mu * G)
    _, rows, _ = run(cli, "slip_output", [], path)
    expect(len(rows) > 20 and any(float(r["t"]) > t_star for r in rows), "samples on both sides "
           "of t*", len(rows), t_star)
    for r in rows:
        t, slip = float(r["t"]), float(r["slip"])
        expect(abs(slip - max(v0 - 3.5 * mu * G * t, 0.0)) < 1e-10 * v0, "slip speed at t", t,
               slip)
    expect_refused_edits(cli, text + '\n[outputs]\nslip = "slip_speed(floor)"\n', (
        ("tangent_rate", '"slip_speed(floor)"', '"tangent_rate(floor)"', "lambda_T1:floor"),
        ("tangent_force", '"slip_speed(floor)"', '"tangent_force(floor)"', "friction in space"),
    ), "floor")


@case
def friction_in_space_refuses_what_it_cannot_do(cli):
    with open(cli.model("sliding_sphere.toml")) as f:
        text = f.read()
    law = 'law = "newton_coulomb"'
    expect_refused_edits(cli, text, (
        ("planar", law, 'law = "naive"', "expected newton (frictionless), newton_coulomb"),
        ("mu_without_friction", law, 'law = "newton"', "with mu"),
        ("tangent", law, law + '\ntangent = "x"', "tangent directions are derived"),
        ("compliant", law + "\ne = 0.0", 'law = "kelvin_voigt"\nk = 1e5', "with mu"),
        ("beside_compliant", "[solver]", '[[contacts]]\nname = "wall"\ngap = "x + 1"\n'
         'law = "kelvin_voigt"\nk = 1e5\n\n[solver]', "only with rigid contacts in space"),
    ), "floor")


if __name__ == "__main__":
    main(CASES)
