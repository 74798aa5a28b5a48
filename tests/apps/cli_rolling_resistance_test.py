#!/usr/bin/env python3
"""End-to-end tests of rolling resistance (issue 48, stage 3): `rolling = mu_r` (a length) on a
body-point contact with friction in space bounds the rolling torque, the torque about the two
tangent directions, by mu_r lambda_N in a cone of its own, with a state of its own: held at rest
(".../rest") or rolling against the torque at the cone's edge (".../rolling"). Closed forms derived
here for a solid sphere (mass m, radius r, I = 2/5 m r^2) on the floor:

- Rolling without slip at v0: the torque mu_r m g about the centre's contact point decelerates it
  at a = 5/7 mu_r g / r (the slip stays stuck: friction m a <= mu m g), so it stops at
  T = 7 r v0 / (5 mu_r g) (event "roll-stop"), then rests held.
- Launched sliding at v0 without spin: the slip falls at 7/2 mu g - 5/2 g mu_r / r (the rolling
  torque opposes the spin that friction builds), so it sticks at t1 = v0 / (that rate) with
  v1 = v0 - mu g t1, and rolls on to a stop t1 + v1 / a.
- On a slope th (gravity tilted): at rest it is held while tan th <= mu_r / r, else it rolls down at
  5/7 g (sin th - mu_r / r cos th); rolled up the slope at v0 it stops at v0 / (5/7 g (sin th +
  mu_r / r cos th)), then stays or rolls back.

Usage: cli_rolling_resistance_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt), run by Debian's python3 (NumPy).
"""
import json
import math
import os
import random

import numpy as np

from cli_drilling_test import (expect_friction_length_refused, expect_sphere_invariants, spin_sets,
                               thrown_sphere_sets)
from cli_spatial_routh_test import rod_in_space
from cli_test import expect, expect_exit, main, read_summary, run_with_sets
from quaternion_kinematics import q_rate

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


G = 9.81
M, R = 0.2, 0.05  # models/sliding_sphere.toml


def rolling_sets(v):
    """A sphere at identity orientation moving at (vx, vy) on the floor without slip."""
    return ["x'=%r" % v[0], "y'=%r" % v[1]] + spin_sets((-v[1] / R, v[0] / R, 0.0))


def in_world(row, column):
    """A contact force's rows 1, 2 as (x, y): the floor's tangents are t_1 = e_x x e_z = -e_y and
    t_2 = e_z x t_1 = e_x (body_point_slip.cpp: e the world axis least aligned with the normal)."""
    f1, f2 = float(row[column + "1:floor"]), float(row[column + "2:floor"])
    return np.array([f2, -f1])


def run(cli, name, sets, code=0, model=None):
    return run_with_sets(cli, name, model or cli.model("sliding_sphere.toml"), sets, code)


def guards(events):
    return [(e["guard"], e["mode_after"]) for e in events]


def sloped_model(cli):
    """sliding_sphere.toml with gravity tilted by the parameter th about y (down the slope: +x)."""
    with open(cli.model("sliding_sphere.toml")) as f:
        text = f.read()
    text = text.replace('gravity = [0.0, 0.0, "-g"]', 'gravity = ["g*sin(th)", 0.0, "-g*cos(th)"]')
    text = text.replace("mu = 0.3\n", "mu = 0.3\nth = 0.0\n")
    path = os.path.join(cli.work, "sloped_sphere.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


@case
def a_rolling_ball_stops_at_the_closed_form(cli):
    # 4 seeded (v0, direction, mu_r, mu): one event, roll-stop at T = 7 r v0 / (5 mu_r g) (1e-10
    # of T) from stick:floor/rolling into stick:floor/rest; the speed falls linearly at 5/7 mu_r g
    # / r along a fixed direction (1e-10 of v0); the rolling rows' force is m g against the
    # rolling, the friction m a against the motion; still after T.
    rng = random.Random(5)
    for k in range(4):
        v0, phi = rng.uniform(0.3, 3.0), rng.uniform(-math.pi, math.pi)
        mu_r, mu = rng.uniform(0.0005, 0.005), rng.uniform(0.2, 0.9)
        a = 5.0 / 7.0 * mu_r * G / R
        T = v0 / a
        u = np.array([math.cos(phi), math.sin(phi)])
        events, rows = run(cli, "roll%d" % k, rolling_sets(v0 * u) + [
            "mu=%r" % mu, "contacts.floor.rolling=%r" % mu_r, "solver.t_end=%r" % (1.3 * T),
            "output.samples=53"])
        expect(guards(events) == [("roll-stop:floor", "stick:floor/rest")], "one roll-stop", k,
               guards(events))
        expect(abs(float(events[0]["t"]) - T) < 1e-10 * T, "the stop at T", k, events[0]["t"], T)
        for row in rows:
            t = float(row["t"])
            v = np.array([float(row["x'"]), float(row["y'"])])
            want = max(v0 - a * t, 0.0) * u
            expect(np.linalg.norm(v - want) < 1e-10 * v0, "the speed falls linearly", k, t, v,
                   want)
            if t < T * (1 - 1e-9):
                expect(row["mode"] == "stick:floor/rolling", "rolling without slip", k, t,
                       row["mode"])
                fR = in_world(row, "lambda_R")
                fT = in_world(row, "lambda_T")
                spin = np.array([-u[1], u[0]])  # the rolling's direction about the centre
                expect(np.linalg.norm(fR + M * G * spin) < 1e-10 * M * G,
                       "the rolling torque at its bound, against the rolling", k, t, fR)
                expect(np.linalg.norm(fT + M * a * u) < 1e-10 * M * G, "friction m a backwards",
                       k, t, fT)
            elif t > T * (1 + 1e-9):
                expect(row["mode"] == "stick:floor/rest", "held at rest", k, t, row["mode"])
        print("roll %d: v0 %.3g mu_r %.2e: stops at %.9g s" % (k, v0, mu_r, T))


@case
def a_ball_launched_sliding_sticks_then_stops(cli):
    # 4 seeded launches without spin: stick at t1 = v0 / (7/2 mu g - 5/2 g mu_r / r), then the
    # roll-stop at t1 + v1 / (5/7 mu_r g / r) (1e-10 of each); the modes slip:floor/rolling,
    # stick:floor/rolling, stick:floor/rest. (mu_r < mu r: friction's torque turns the ball.)
    rng = random.Random(8)
    for k in range(4):
        v0, phi = rng.uniform(0.5, 3.0), rng.uniform(-math.pi, math.pi)
        mu_r, mu = rng.uniform(0.0005, 0.005), rng.uniform(0.2, 0.9)
        t1 = v0 / (3.5 * mu * G - 2.5 * G * mu_r / R)
        v1 = v0 - mu * G * t1
        t2 = t1 + v1 / (5.0 / 7.0 * mu_r * G / R)
        sets = ["x'=%r" % (v0 * math.cos(phi)), "y'=%r" % (v0 * math.sin(phi)), "mu=%r" % mu,
                "contacts.floor.rolling=%r" % mu_r, "solver.t_end=%r" % (1.2 * t2)]
        events, rows = run(cli, "launch%d" % k, sets)
        expect(guards(events) == [("stick:floor", "stick:floor/rolling"),
                                  ("roll-stop:floor", "stick:floor/rest")],
               "stick, then the roll's stop", k, guards(events))
        for e, want in zip(events, (t1, t2)):
            expect(abs(float(e["t"]) - want) < 1e-10 * want, "at the closed form", k, e["guard"],
                   e["t"], want)
        expect(rows[0]["mode"] == "slip:floor/rolling", "sliding and rolling from the start", k,
               rows[0]["mode"])
        print("launch %d: v0 %.3g mu %.2f mu_r %.2e: sticks %.9g, stops %.9g" %
              (k, v0, mu, mu_r, t1, t2))
    # mu_r > mu r: friction's torque mu m g r cannot turn the ball against the rolling torque, so
    # it slides without turning (slip:floor/rest), decelerating at mu g, and stops at v0 / (mu g)
    # into stick:floor/rest.
    v0, mu = 1.2, 0.3
    for factor in (1.01, 3.0):
        events, rows = run(cli, "unturned%g" % factor, [
            "x'=%r" % v0, "mu=%r" % mu, "contacts.floor.rolling=%r" % (factor * mu * R),
            "solver.t_end=%r" % (1.3 * v0 / (mu * G))])
        expect(guards(events) == [("stick:floor", "stick:floor/rest")] and
               abs(float(events[0]["t"]) - v0 / (mu * G)) < 1e-10 * v0 / (mu * G),
               "slides unturned, then stops", factor, guards(events), events and events[0]["t"])
        expect(rows[0]["mode"] == "slip:floor/rest" and
               all(abs(float(r["q2'"])) < 1e-13 for r in rows), "no rolling", factor,
               rows[0]["mode"])


@case
def on_a_slope_it_is_held_while_tan_th_is_below_mu_r_over_r(cli):
    model = sloped_model(cli)
    mu_r = 0.003
    for factor in (0.9, 0.999, 1.001, 1.1):
        th = math.atan(factor * mu_r / R)
        events, rows = run(cli, "slope%g" % factor, [
            "x'=0", "th=%r" % th, "mu=0.8", "contacts.floor.rolling=%r" % mu_r,
            "solver.t_end=2.0", "output.samples=21"], model=model)
        expect(events == [], "no event", factor, guards(events))
        a = 5.0 / 7.0 * G * (math.sin(th) - mu_r / R * math.cos(th))
        for row in rows:
            t = float(row["t"])
            if factor < 1:
                expect(row["mode"] == "stick:floor/rest" and abs(float(row["x"])) < 1e-13,
                       "held", factor, t, row["mode"], row["x"])
            else:
                expect(row["mode"] == "stick:floor/rolling" and
                       abs(float(row["x"]) - 0.5 * a * t * t) < 1e-10 * (1 + 0.5 * a * t * t),
                       "rolls down at 5/7 g (sin th - mu_r / r cos th)", factor, t, row["mode"],
                       row["x"], 0.5 * a * t * t)
    # Rolled up the slope at v0: the roll stops at v0 / a_up, then stays (tan th < mu_r / r) or
    # rolls back at once (tan th > mu_r / r) with the down-slope acceleration.
    v0 = 0.8
    for factor in (0.5, 2.0):
        th = math.atan(factor * mu_r / R)
        a_up = 5.0 / 7.0 * G * (math.sin(th) + mu_r / R * math.cos(th))
        a_down = 5.0 / 7.0 * G * (math.sin(th) - mu_r / R * math.cos(th))
        T = v0 / a_up
        events, rows = run(cli, "uphill%g" % factor, rolling_sets((-v0, 0.0)) + [
            "th=%r" % th, "mu=0.8", "contacts.floor.rolling=%r" % mu_r,
            "solver.t_end=%r" % (2 * T), "output.samples=41"], model=model)
        after = "stick:floor/rest" if factor < 1 else "stick:floor/rolling"
        expect(guards(events) == [("roll-stop:floor", after)] and
               abs(float(events[0]["t"]) - T) < 1e-10 * T, "the stop up the slope", factor,
               guards(events), events and events[0]["t"], T)
        for row in rows:
            t = float(row["t"])
            want = -v0 + a_up * t if t <= T else (0.0 if factor < 1 else a_down * (t - T))
            expect(abs(float(row["x'"]) - want) < 1e-9 * v0, "up, then still or back down",
                   factor, t, row["x'"], want)


def pushed_model(cli):
    """sliding_sphere.toml with the force (k t, 0, 0) at the ball's centre (parameter k)."""
    with open(cli.model("sliding_sphere.toml")) as f:
        text = f.read()
    text = text.replace('position = ["x", "y", "z"]\n',
                        'position = ["x", "y", "z"]\nforce = ["k*t", 0.0, 0.0]\n')
    text = text.replace("mu = 0.3\n", "mu = 0.3\nk = 1.0\n")
    path = os.path.join(cli.work, "pushed_sphere.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


@case
def a_pushed_ball_starts_to_roll_then_to_slip_at_the_closed_forms(cli):
    # A ball at rest pushed at its centre by F = k t: held until F r = mu_r m g (event
    # "roll:floor" at t0 = mu_r m g / (r k), into stick:floor/rolling); then rolling without slip,
    # m x'' = 5/7 (F - c), c = mu_r m g / r; the friction -(2/7 F + 5/7 c) reaches mu m g at
    # F* = (7 mu m g - 5 c) / 2 (event "slip:floor" into slip:floor/rolling). Both instants to
    # 1e-10 of them, x' between them to 1e-10 of its scale.
    model = pushed_model(cli)
    for k_push, mu_r, mu in ((2.0, 0.002, 0.3), (0.7, 0.004, 0.15)):
        c = mu_r * M * G / R
        t0 = c / k_push
        t1 = (7 * mu * M * G - 5 * c) / 2 / k_push
        events, rows = run(cli, "push%g" % k_push, [
            "x'=0", "k=%r" % k_push, "mu=%r" % mu, "contacts.floor.rolling=%r" % mu_r,
            "solver.t_end=%r" % (1.1 * t1), "output.samples=45"], model=model)
        expect(guards(events) == [("roll:floor", "stick:floor/rolling"),
                                  ("slip:floor", "slip:floor/rolling")],
               "rolls, then slips", k_push, guards(events))
        for e, want in zip(events, (t0, t1)):
            expect(abs(float(e["t"]) - want) < 1e-10 * want, "at the closed form", k_push,
                   e["guard"], e["t"], want)
        scale = 5.0 / (7.0 * M) * (0.5 * k_push * t1 * t1)
        for row in rows:
            t = float(row["t"])
            if t > t1:
                continue
            want = 0.0 if t <= t0 else 5.0 / (7.0 * M) * (
                0.5 * k_push * (t * t - t0 * t0) - c * (t - t0))
            expect(abs(float(row["x'"]) - want) < 1e-10 * scale, "x' of the rolling", k_push, t,
                   row["x'"], want)
        print("push %g: rolls at %.9g s, slips at %.9g s" % (k_push, t0, t1))


@case
def the_flow_map_jacobian_through_the_roll_stop(cli):
    # `saltus sensitivity` of the ball rolling without slip at v0 through its roll-stop, applied to
    # the start's change along the rolling motion (x' and the spin w_y = x' / r together): the
    # final x moves by d/dv0 (7 r v0^2 / (10 mu_r g)) = T, the stop's instant (1e-6 of T), and the
    # final velocities not at all (1e-6).
    v0, mu_r = 1.1, 0.003
    T = 7 * R * v0 / (5 * mu_r * G)
    out = os.path.join(cli.work, "sensitivity")
    args = []
    for s in rolling_sets((v0, 0.0)) + ["contacts.floor.rolling=%r" % mu_r,
                                        "solver.t_end=%r" % (1.5 * T)]:
        args += ["--set", s]
    code, stdout, stderr = cli.run("sensitivity", cli.model("sliding_sphere.toml"), "--out", out,
                                   *args)
    expect_exit(code, 0, stdout, stderr, "sensitivity")
    with open(os.path.join(out, "sensitivity.json")) as f:
        J = np.array(json.load(f)["flow_map_jacobian"])
    names = ["x", "y", "z", "q0", "q1", "q2", "q3", "x'", "y'", "z'", "q0'", "q1'", "q2'", "q3'"]
    delta = np.zeros(14)
    delta[names.index("x'")] = 1.0
    delta[10:14] = q_rate(np.array([1.0, 0.0, 0.0, 0.0]), np.array([0.0, 1.0 / R, 0.0]))
    moved = J @ delta
    expect(abs(moved[names.index("x")] - T) < 1e-6 * T, "the end moves by T", moved, T)
    expect(np.abs(moved[7:10]).max() < 1e-6, "the end's velocity stays zero", moved)
    print("d x_end / d v0 = %.12g, T = %.12g" % (moved[0], T))


@case
def an_upright_coin_rolls_slower_at_its_own_closed_form(cli):
    # The thin disk of models/disk_on_rim.toml (I = m R^2 / 2 about its axis) upright, rolling
    # along x at v0 on its rim: the rolling torque decelerates it at a = mu_r g / (R (1 + 1/2)),
    # 2/3 mu_r g / R instead of the sphere's 5/7. Above its critical speed sqrt(g R / 3) it stays
    # upright: x' = v0 - a t at every sample (1e-10 of v0), the mode stick:rim/rolling.
    Rd, v0, mu_r = 0.04, 1.0, 0.001
    a = 2.0 / 3.0 * mu_r * G / Rd
    q = (math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0)  # the axis along -y
    sets = spin_sets((0.0, 0.0, -v0 / Rd), q) + [
        "alpha=%r" % (math.pi / 2), "z=%r" % Rd, "x'=%r" % v0, "contacts.rim.law=newton_coulomb",
        "contacts.rim.mu=0.5", "contacts.rim.rolling=%r" % mu_r, "solver.t_end=2.0",
        "output.samples=41"]
    events, rows = run(cli, "coin", sets, model=cli.model("disk_on_rim.toml"))
    expect(events == [], "no event", guards(events))
    for row in rows:
        t = float(row["t"])
        expect(row["mode"] == "stick:rim/rolling" and
               abs(float(row["x'"]) - (v0 - a * t)) < 1e-10 * v0, "x' = v0 - a t", t,
               row["mode"], row["x'"], v0 - a * t)


@case
def the_stops_are_the_same_in_cm_far_away_and_late(cli):
    # The launched sphere in cm (r, g, v, mu_r in cm), moved 1e6 along x and y, started at
    # t0 = 1e9: the same stick and roll-stop instants after the start (1e-10 s; 1e-6 s at 1e9).
    v0, mu, mu_r = 1.4, 0.35, 0.002
    base = ["x'=%r" % v0, "mu=%r" % mu]
    events, _ = run(cli, "si", base + ["contacts.floor.rolling=%r" % mu_r, "solver.t_end=6"])
    times = [float(e["t"]) for e in events]
    expect(len(times) == 2, "two events in SI", guards(events))
    for name, sets, t0, tol in (
            ("cm", ["r=5.0", "g=981.0", "z=5.0", "x'=%r" % (100 * v0),
                    "contacts.floor.rolling=%r" % (100 * mu_r)], 0.0, 1e-10),
            ("far", ["x=1e6", "y=-1e6", "contacts.floor.rolling=%r" % mu_r], 0.0, 1e-10),
            ("late", ["initial.t=1e9", "contacts.floor.rolling=%r" % mu_r], 1e9, 1e-6)):
        moved, _ = run(cli, name, base + sets + ["solver.t_end=%r" % (t0 + 6.0)])
        expect(guards(moved) == guards(events) and
               all(abs(float(e["t"]) - t0 - t) < tol for e, t in zip(moved, times)),
               "the same events", name, [(e["guard"], e["t"]) for e in moved], times)


@case
def random_thrown_spheres_keep_their_invariants_and_come_to_rest(cli):
    # 10 seeded spheres thrown spinning at random (mu, e, mu_r, height, law; drilling in half):
    # through bounces, the Zeno hand-over, sliding and rolling every run reaches t_end, the sphere
    # never below the floor (1e-12 m), its energy never rising between samples (1e-12 of its
    # scale), and it ends at rest in translation and rolling, held ("stick:floor/rest").
    rng = random.Random(21)
    for k in range(10):
        sets = thrown_sphere_sets(rng, k, 30.0, 1.5, 0.2, 0.7, 0.4) + [
            "contacts.floor.rolling=%r" % rng.uniform(0.003, 0.01), "solver.t_end=12",
            "output.samples=241"]
        if k % 2:
            sets.append("contacts.floor.drilling=%r" % rng.uniform(0.002, 0.02))
        _, rows = run(cli, "sphere%d" % k, sets)
        summary = read_summary(os.path.join(cli.work, "sphere%d" % k))
        expect(summary["status"] == "end-time-reached", "reaches t_end", k, summary["status"])
        expect_sphere_invariants(rows, k)
        last = rows[-1]
        speed = math.hypot(float(last["x'"]), float(last["y'"]))
        expect(last["mode"] == "stick:floor/rest" and speed < 1e-9, "at rest at the end", k,
               last["mode"], speed)


@case
def the_painleve_rod_with_rolling_resistance_stops_at_its_jam(cli):
    # The Painleve rod in space of cli_spatial_routh_test.py (mu = 3, its tip sliding towards
    # B = 0) with rolling resistance at the tip: the folded rolling torque moves the jam (later
    # with mu_r = 1e-4), and the run stops there with status reset-failed, exit 2, a message
    # naming the contact, the mode and why (no impact without collision is built with rolling
    # resistance), trajectory.csv written up to the stop. As mu_r -> 0 the jam tends to the rod's
    # without rolling resistance (0.025539162576 s, equal to the planar rod's): 1e-8 s at
    # mu_r = 1e-8 (measured 2.4e-9 s).
    th, thdot, v_t = 0.40, 1.0, -30.0
    path, turn = rod_in_space(cli, th, thdot)
    slide = turn + ["z=%r" % math.sin(th), "x'=%r" % (v_t - math.sin(th) * thdot),
                    "z'=%r" % (math.cos(th) * thdot)]
    plain, _ = run_with_sets(cli, "plain", path, slide)
    t_plain = float([e for e in plain if e["guard"] == "painleve:tip"][0]["t"])
    jams = []
    for mu_r in (1e-8, 1e-4):
        name = "rod%g" % mu_r
        args = ["run", path, "--out", os.path.join(cli.work, name)]
        for s in slide + ["contacts.tip.rolling=%r" % mu_r]:
            args += ["--set", s]
        code, out, err = cli.run(*args)
        expect_exit(code, 2, out, err, name)
        summary = read_summary(os.path.join(cli.work, name))
        expect(summary["status"] == "reset-failed" and "contact 'tip'" in summary["message"] and
               "slip:tip/rolling" in summary["message"] and
               "rolling resistance" in summary["message"], "the stop says why", summary["message"])
        expect(float(summary["t_final"]) > 0.02 and
               os.path.getsize(os.path.join(cli.work, name, "trajectory.csv")) > 0,
               "the run up to the stop is kept", summary["t_final"])
        jams.append(float(summary["t_final"]))
    expect(abs(jams[0] - t_plain) < 1e-8 and jams[1] > t_plain + 1e-6, "the jam moves with mu_r",
           jams, t_plain)


@case
def rolling_resistance_is_refused_where_it_cannot_act(cli):
    expect_friction_length_refused(cli, "rolling")
    # Beside another rigid contact (a cube's corners): refused, naming the contact.
    code, out, err = cli.run("run", cli.model("cube_drop_friction.toml"), "--out",
                             os.path.join(cli.work, "cube"), "--set", "contacts.c1.rolling=0.01")
    expect_exit(code, 1, out, err, "rolling beside other contacts")
    expect("rolling resistance beside rigid contact" in err and "'c1'" in err,
           "the message names the contact", err)


if __name__ == "__main__":
    main(CASES, "cli_rolling_resistance_test.py")
