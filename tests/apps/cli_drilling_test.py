#!/usr/bin/env python3
"""End-to-end tests of drilling friction (issue 48, stage 3): `drilling = l` on a body-point
contact with friction in space adds the spin about the normal, times l, as a third slip row in
the contact's cone (a soft finger: |f_T|^2 + (tau_n / l)^2 <= (mu lambda_N)^2, force and torque
opposing (gamma, l w_n) together while it slides). Closed forms derived here:

- A sphere (mass m, radius r, I = 2/5 m r^2) spinning at w0 about the vertical, on the floor at
  rest otherwise: the torque mu l m g stops the spin at t* = I w0 / (mu l m g); the centre stays.
- Launched sliding at v0 and spinning at w0: the slip s = |gamma| and u = l w_n obey
  s' = -A s / |(s, u)|, u' = -B u / |(s, u)| with A = 7/2 mu g, B = 5/2 (l / r)^2 mu g, so
  s / s0 = (u / u0)^(A / B) and both vanish at the same instant
  T = int_0^u0 |(s(u), u)| / (B u) du (SciPy's quad here): the sliding and the spinning stop
  together (Farkas, Bartels, Unger, Wolf, PRL 90 (2003) 248302, for a coupled friction law).
- A cube flat on its face spinning at w0, drilling l at each corner: each corner's slip is
  (a sqrt(2) w, l w), so the torque is mu m g sqrt(2 a^2 + l^2) and the spin stops at
  I w0 / (mu m g sqrt(2 a^2 + l^2)).

Usage: cli_drilling_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt), run by Debian's python3 (NumPy, SciPy).
"""
import json
import math
import os
import random

import numpy as np
from scipy.integrate import quad

from cli_spatial_contacts_test import energy as cube_energy
from cli_spatial_contacts_test import lowest_corner
from cli_spatial_contacts_test import start as cube_start
from cli_test import (difference_column, expect, expect_exit, expect_refused_edits, main,
                      read_csv, read_summary, run_with_sets)
from quaternion_kinematics import body_rates, body_state, q_rate, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


G = 9.81
M_SPHERE, R_SPHERE = 0.2, 0.05  # models/sliding_sphere.toml
I_SPHERE = 0.4 * M_SPHERE * R_SPHERE ** 2


def run(cli, name, model, sets, code=0):
    return run_with_sets(cli, name, cli.model(model), sets, code)


def spin_sets(w, q=(1.0, 0.0, 0.0, 0.0)):
    """--set values for body angular velocity w at orientation q."""
    dq = q_rate(np.array(q, dtype=float), np.array(w, dtype=float))
    return ["q%d=%r" % (k, q[k]) for k in range(4)] + ["q%d'=%r" % (k, dq[k]) for k in range(4)]


LAWS = ("newton_coulomb", "routh_newton", "routh_poisson", "routh_stronge")


def thrown_sphere_sets(rng, k, w_max, v_max, mu_min, e_max, z_max):
    """--set values of models/sliding_sphere.toml thrown at random: orientation, spin (|w_i| <=
    w_max), horizontal velocity (|v_i| <= v_max), mu in [mu_min, 1], e in [0, e_max], height in
    [0.06, z_max], under LAWS[k % 4]."""
    q = np.array([rng.gauss(0, 1) for _ in range(4)])
    q /= np.linalg.norm(q)
    w = [rng.uniform(-w_max, w_max) for _ in range(3)]
    mu, e, z = rng.uniform(mu_min, 1.0), rng.uniform(0.0, e_max), rng.uniform(0.06, z_max)
    return spin_sets(w, q) + [
        "z=%r" % z, "x'=%r" % rng.uniform(-v_max, v_max), "y'=%r" % rng.uniform(-v_max, v_max),
        "mu=%r" % mu, "contacts.floor.e=%r" % e, "contacts.floor.law=" + LAWS[k % 4]]


def expect_sphere_invariants(rows, what):
    """The sphere of sliding_sphere.toml never below the floor (1e-12 m) and its energy never
    rising between samples (1e-12 of its scale)."""
    def energy(row):
        c, v, qq, dqq = body_state(row)
        wb = body_rates(qq, dqq)
        return 0.5 * M_SPHERE * v @ v + 0.5 * I_SPHERE * wb @ wb + M_SPHERE * G * c[2]
    es = [energy(r) for r in rows]
    scale = max(abs(x) for x in es)
    expect(all(b <= a + 1e-12 * scale for a, b in zip(es, es[1:])), "energy never gained", what,
           max(b - a for a, b in zip(es, es[1:])))
    expect(min(float(r["z"]) for r in rows) > R_SPHERE - 1e-12, "never below the floor", what)


def world_spin(row):
    _, _, q, dq = body_state(row)
    return rotation(q) @ body_rates(q, dq)


@case
def a_spinning_sphere_stops_turning_at_the_closed_form(cli):
    # 4 seeded (w0, l, mu): one stick event at t* = I w0 / (mu l m g) (1e-10 of t*), the spin
    # falling linearly until then (1e-10 of w0), the centre still, lambda_T3 = -mu m g sign(w0)
    # (the drilling row's force: the torque over l), no translation's friction; nothing after.
    rng = random.Random(3)
    for k in range(4):
        w0 = rng.choice((-1, 1)) * rng.uniform(1.0, 30.0)
        l, mu = rng.uniform(0.002, 0.03), rng.uniform(0.1, 0.9)
        t_star = I_SPHERE * abs(w0) / (mu * l * M_SPHERE * G)
        events, rows = run(cli, "spin%d" % k, "sliding_sphere.toml", spin_sets((0, 0, w0)) + [
            "x'=0", "mu=%r" % mu, "contacts.floor.drilling=%r" % l,
            "solver.t_end=%r" % (1.5 * t_star), "output.samples=41"])
        expect([e["guard"] for e in events] == ["stick:floor"], "one stick event", k,
               [e["guard"] for e in events])
        expect(abs(float(events[0]["t"]) - t_star) < 1e-10 * t_star, "the spin stops at t*", k,
               events[0]["t"], t_star)
        rate = mu * l * M_SPHERE * G / I_SPHERE
        for row in rows:
            t = float(row["t"])
            w = world_spin(row)
            want = math.copysign(max(abs(w0) - rate * t, 0.0), w0)
            expect(abs(w[2] - want) < 1e-10 * abs(w0) and abs(w[0]) + abs(w[1]) < 1e-12,
                   "the spin falls linearly", k, t, w, want)
            expect(abs(float(row["x"])) + abs(float(row["y"])) < 1e-15, "the centre stays", k, t)
            if t < t_star * (1 - 1e-9):
                expect(abs(float(row["lambda_T3:floor"]) + math.copysign(mu * M_SPHERE * G, w0))
                       < 1e-10 * M_SPHERE * G and abs(float(row["lambda_T1:floor"])) +
                       abs(float(row["lambda_T2:floor"])) < 1e-12, "the torque is mu l m g", k,
                       t, row["lambda_T3:floor"])
        print("spin %d: w0 %.3g l %.3g mu %.2f, stops at %.6g s" % (k, w0, l, mu, t_star))
    # Dropped from h spinning: the impact takes no drilling impulse (the spin about the normal is
    # the same after it), then the spin stops t* after the landing at sqrt(2 h / g).
    w0, l, mu, h = 12.0, 0.01, 0.4, 0.2
    t_land = math.sqrt(2 * h / G)
    t_star = I_SPHERE * w0 / (mu * l * M_SPHERE * G)
    events, _ = run(cli, "dropped", "sliding_sphere.toml", spin_sets((0, 0, w0)) + [
        "x'=0", "z=%r" % (R_SPHERE + h), "mu=%r" % mu, "contacts.floor.drilling=%r" % l,
        "solver.t_end=%r" % (t_land + 1.5 * t_star)])
    expect([e["guard"] for e in events] == ["impact:floor", "stick:floor"],
           "a landing, then the spin's stop", [e["guard"] for e in events])
    before, after = [body_state(events[0], side) for side in ("before", "after")]
    spin = [(rotation(q) @ body_rates(q, dq))[2] for _, _, q, dq in (before, after)]
    expect(abs(float(events[0]["t"]) - t_land) < 1e-10 and abs(spin[1] - spin[0]) < 1e-12 * w0,
           "no drilling impulse", events[0]["t"], spin)
    expect(abs(float(events[1]["t"]) - (t_land + t_star)) < 1e-10 * t_star,
           "the spin stops t* after the landing", events[1]["t"], t_land + t_star)


def stop_together(s0, u0, A, B):
    """The instant the coupled slip (s, u) reaches zero, and s as a function of u."""
    k = A / B
    C = s0 / u0 ** k
    T = quad(lambda u: math.hypot(C * u ** k, u) / (B * u), 0.0, u0, epsabs=0.0, epsrel=1e-13,
             limit=200)[0]
    return T, (lambda u: C * u ** k)


@case
def sliding_and_spinning_stop_together(cli):
    # 6 seeded launches (v0 in a random direction, spin w0 about the vertical, l, mu): one stick
    # event, when both the slip and the spin vanish, at the quadrature's T (1e-9 of T); at every
    # sample before it the slip as the closed form's s(u) of the spin (1e-8 of s0).
    rng = random.Random(5)
    for k in range(6):
        th = rng.uniform(0, 2 * math.pi)
        v0, w0 = rng.uniform(0.3, 3.0), rng.choice((-1, 1)) * rng.uniform(5.0, 60.0)
        l, mu = rng.uniform(0.005, 0.04), rng.uniform(0.1, 0.8)
        A, B = 3.5 * mu * G, 2.5 * (l / R_SPHERE) ** 2 * mu * G
        T, s_of_u = stop_together(v0, l * abs(w0), A, B)
        events, rows = run(cli, "both%d" % k, "sliding_sphere.toml", spin_sets((0, 0, w0)) + [
            "x'=%r" % (v0 * math.cos(th)), "y'=%r" % (v0 * math.sin(th)), "mu=%r" % mu,
            "contacts.floor.drilling=%r" % l, "solver.t_end=%r" % (1.3 * T),
            "output.samples=61", "solver.rtol=1e-12", "solver.atol=1e-14"])
        expect([e["guard"] for e in events] == ["stick:floor"], "one stick event", k,
               [e["guard"] for e in events])
        t_stop = float(events[0]["t"])
        expect(abs(t_stop - T) < 1e-9 * T, "they stop together at T", k, t_stop, T)
        worst = 0.0
        for row in rows:
            if float(row["t"]) >= t_stop:
                continue
            _, v, q, dq = body_state(row)
            w = rotation(q) @ body_rates(q, dq)
            slip = v + np.cross(w, np.array([0.0, 0.0, -R_SPHERE]))
            worst = max(worst, abs(np.hypot(slip[0], slip[1]) - s_of_u(l * abs(w[2]))) / v0)
        expect(worst < 1e-8, "the slip is s(u) of the spin", k, worst)
        print("launch %d: v0 %.3g w0 %.3g l %.3g mu %.2f: T %.9g, event %.9g, worst %.1e" %
              (k, v0, w0, l, mu, T, t_stop, worst))


@case
def the_common_stop_is_the_same_in_cm_far_away_and_late(cli):
    # The sliding and spinning sphere in cm (r, l, g, v in cm), moved 1e6 along x and y, started
    # at t0 = 1e9: the stop at the same instant after the start (1e-10 s; 1e-6 s at 1e9, the
    # clock's ulp there 1.2e-7 s).
    v0, w0, l, mu = 1.4, 25.0, 0.02, 0.35
    base = spin_sets((0, 0, w0)) + ["x'=%r" % v0, "y'=0", "mu=%r" % mu]
    events, _ = run(cli, "si", "sliding_sphere.toml", base + [
        "contacts.floor.drilling=%r" % l, "solver.t_end=1.0"])
    t_si = float(events[0]["t"])
    for name, sets, t0, tol in (
            ("cm", ["r=5.0", "g=981.0", "x'=%r" % (100 * v0), "contacts.floor.drilling=%r" %
                    (100 * l), "z=5.0"], 0.0, 1e-10),
            ("far", ["x=1e6", "y=-1e6", "contacts.floor.drilling=%r" % l], 0.0, 1e-10),
            ("late", ["initial.t=1e9", "contacts.floor.drilling=%r" % l], 1e9, 1e-6)):
        moved, _ = run(cli, name, "sliding_sphere.toml", base + sets + [
            "solver.t_end=%r" % (t0 + 1.0)])
        expect([e["guard"] for e in moved] == ["stick:floor"] and
               abs(float(moved[0]["t"]) - t0 - t_si) < tol, "the same stop", name,
               [(e["guard"], e["t"]) for e in moved], t_si)


@case
def a_box_spinning_on_its_face_stops_at_the_closed_form(cli):
    # Four corners sliding on their circles and drilling: the spin stops at
    # I w0 / (mu m g sqrt(2 a^2 + l^2)) (1e-10), the centre still.
    m, a = 1.0, 0.1
    I = 2.0 / 3.0 * m * a * a
    for k, (w0, l, mu) in enumerate([(4.0, 0.02, 0.5), (-9.0, 0.05, 0.3)]):
        t_star = I * abs(w0) / (mu * m * G * math.sqrt(2 * a * a + l * l))
        sets = ["z=%r" % a, "x'=0", "y'=0", "z'=0", "mu=%r" % mu, "e=0",
                "solver.t_end=%r" % (1.5 * t_star)] + spin_sets((0, 0, w0))
        sets += ["contacts.c%d.drilling=%r" % (c, l) for c in range(1, 9)]
        events, rows = run(cli, "box%d" % k, "cube_drop_friction.toml", sets)
        sticks = [e for e in events if e["guard"].startswith("stick:")]
        expect(sticks and abs(float(sticks[0]["t"]) - t_star) < 1e-10 * t_star,
               "the spin stops at the closed form", k, [(e["guard"], e["t"]) for e in events],
               t_star)
        expect(max(abs(float(r["x"])) + abs(float(r["y"])) for r in rows) < 1e-12,
               "the centre stays", k)
        print("box %d: w0 %g l %g mu %g: stops at %.9g s" % (k, w0, l, mu, t_star))


@case
def random_sphere_drops_under_every_law_keep_their_invariants(cli):
    # 12 seeded spheres with drilling thrown and spinning at random (mu, e, l, height), under
    # newton_coulomb and the three Routh laws in turn, through bounces, the Zeno hand-over,
    # sliding and rolling: every run reaches t_end, the sphere never below the floor (1e-12 m),
    # its energy never rising between samples (1e-12 of its scale).
    rng = random.Random(9)
    for k in range(12):
        sets = thrown_sphere_sets(rng, k, 40.0, 2.0, 0.1, 0.8, 0.5) + [
            "contacts.floor.drilling=%r" % rng.uniform(0.001, 0.05), "solver.t_end=3",
            "output.samples=301"]
        _, rows = run(cli, "sphere%d" % k, "sliding_sphere.toml", sets)
        expect_sphere_invariants(rows, (k, LAWS[k % 4]))


@case
def random_cube_drops_with_drilling_keep_their_invariants(cli):
    # 8 seeded drops of the cube (random orientation, spin, mu, e, height, drilling l at every
    # corner) through bounces, rocking and sliding: a status at the end of every run (a stop names
    # its cause), no corner below the floor (1e-9 m), energy never gained between samples (1e-9 of
    # its scale), and at least 7 at rest at the end with every closed corner sticking (measured
    # 8; of 12 seeds 11: one stops where only the cone contact problem, which has no drilling
    # row, could decide).
    rng = random.Random(17)
    rested = 0
    for k in range(8):
        q = np.array([rng.gauss(0, 1) for _ in range(4)])
        q /= np.linalg.norm(q)
        w = [rng.uniform(-20, 20) for _ in range(3)]
        mu, e, z = rng.uniform(0.1, 1.0), rng.uniform(0.0, 0.7), rng.uniform(0.2, 0.6)
        l = rng.uniform(0.005, 0.05)
        sets = cube_start(q=q, z=z, w=w) + ["mu=%r" % mu, "e=%r" % e, "solver.t_end=2.5",
                                            "output.samples=501"]
        sets += ["contacts.c%d.drilling=%r" % (c, l) for c in range(1, 9)]
        out = os.path.join(cli.work, "drop%d" % k)
        args = ["run", cli.model("cube_drop_friction.toml"), "--out", out]
        for x in sets:
            args += ["--set", x]
        cli.run(*args)
        summary = read_summary(out)
        rows = read_csv(os.path.join(out, "trajectory.csv"))
        expect(summary["status"] in ("end-time-reached", "reset-failed"), "ends with a status", k,
               summary["status"], summary.get("message"))
        if summary["status"] != "end-time-reached":
            expect("Painleve" in summary["message"] or "drilling" in summary["message"],
                   "a stop names its cause", k, summary["message"])
        expect(min(lowest_corner(r) for r in rows) > -1e-9, "no penetration", k)
        es = [cube_energy(r) for r in rows]
        scale = max(abs(x) for x in es)
        expect(all(b <= a + 1e-9 * scale for a, b in zip(es, es[1:])), "energy never gained", k,
               max(b - a for a, b in zip(es, es[1:])))
        if summary["status"] == "end-time-reached":
            rested += all(p.startswith("stick:") for p in rows[-1]["mode"].split("&"))
    expect(rested >= 7, "the drops come to rest sticking", rested)


@case
def the_flow_map_jacobian_through_the_common_stop(cli):
    # `saltus sensitivity` of the sphere sliding and spinning with drilling through the stick
    # event where both stop: the columns for the start's x', y', q1', q3' against central
    # differences of whole runs (step 1e-6), within 1e-4 of the column's size.
    start = {"x'": 1.2, "y'": -0.5, "q1'": 2.0, "q3'": 6.0}
    base = ["--set", "solver.t_end=0.5", "--set", "contacts.floor.drilling=0.02"]
    for k, v in start.items():
        base += ["--set", "%s=%r" % (k, v)]
    out = os.path.join(cli.work, "sensitivity")
    code, stdout, stderr = cli.run("sensitivity", cli.model("sliding_sphere.toml"), "--out", out,
                                   *base)
    expect_exit(code, 0, stdout, stderr, "sensitivity")
    with open(os.path.join(out, "sensitivity.json")) as f:
        J = np.array(json.load(f)["flow_map_jacobian"])
    names = ["x", "y", "z", "q0", "q1", "q2", "q3", "x'", "y'", "z'", "q0'", "q1'", "q2'", "q3'"]
    events = read_csv(os.path.join(out, "events.csv"))
    expect([r["guard"] for r in events] == ["stick:floor"], "through the stop", events)

    for name, value in start.items():
        column = np.array(difference_column(cli, cli.model("sliding_sphere.toml"), base[1::2],
                                            names, name, value))
        got = J[:, names.index(name)]
        miss = np.abs(column - got).max()
        expect(miss < 1e-4 * max(1.0, np.abs(got).max()), "column " + name, miss, column, got)
        print("column %s: %.1e" % (name, miss))


def expect_friction_length_refused(cli, key):
    """`key = length` (drilling, rolling) refused at its line by `saltus check`: without friction,
    zero, negative, and on a contact without a point."""
    with open(cli.model("sliding_sphere.toml")) as f:
        text = f.read()
    law = 'law = "newton_coulomb"'
    expect_refused_edits(cli, text, (
        ("frictionless", law + "\ne = 0.0\nmu = \"mu\"",
         'law = "newton"\ne = 0.0\n%s = 0.01' % key, key + " without friction"),
        ("zero", law, law + "\n%s = 0.0" % key, "expected a positive length"),
        ("negative", law, law + "\n%s = \"-r\"" % key, "expected a positive length"),
    ), "floor")
    expect_refused_edits(cli, text, (
        ("no_point", "[solver]",
         '[[contacts]]\nname = "wall"\ngap = "x + 1"\n%s = 0.01\n\n[solver]' % key,
         "has %s but no point" % key),
    ), "wall")


@case
def drilling_is_refused_where_it_cannot_act(cli):
    expect_friction_length_refused(cli, "drilling")


if __name__ == "__main__":
    main(CASES)
