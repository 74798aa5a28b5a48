#!/usr/bin/env python3
"""End-to-end tests of Routh's impulse process in space (issue 48, stage 3): the laws
routh_newton, routh_poisson and routh_stronge on body-point contacts with Coulomb's cone.

The reference is written here, independently of saltus's C++: the contact's matrix
A = 1/m + (|r|^2 - r r^T) / I of a cube corner (isotropic inertia, r from the centre to the
corner), the contact velocity v- = v + w x r before the impact, and the process integrated by
SciPy's solve_ivp (DOP853) in the normal impulse p: dP_T/dp = -mu v_T / |v_T| while the corner
slips, the slip's stop, the compression's end (v_N = 0) and the ending (Newton v_N = -e v_N-,
Poisson p = (1 + e) p_c, Stronge int v_N dp = (1 - e^2) int over the compression) as events;
at rest, stick while |B^-1 a| <= mu (B = A_TT, a = A_TN), else slip along the direction s with
a - mu B s along +s.

- Tilted cubes thrown sideways and spinning, dropped on a corner: the first impact's impulses
  and the velocities after it against the reference, the slip turning during the impact.
- A sphere (no coupling) under every Routh law: the same events as newton_coulomb.
- A cube landing flat (four corners at once): the event's note says that Routh's process is
  taken as Newton's e with e_t = 0 in a simultaneous impact.

Usage: cli_spatial_routh_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt), run by Debian's python3 (NumPy, SciPy).
"""
import math
import os
import random

import numpy as np
from scipy.integrate import solve_ivp

from cli_test import expect, expect_exit, main, read_csv, run_with_sets
from quaternion_kinematics import body_rates, body_state, q_rate, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


M, A_HALF = 1.0, 0.1
I = 2.0 / 3.0 * M * A_HALF ** 2
CORNERS = [np.array([sx, sy, sz]) * A_HALF for sz in (-1, 1) for sy in (-1, 1) for sx in (-1, 1)]
LAWS = ("routh_newton", "routh_poisson", "routh_stronge")


def routh_reference(A, v_minus, mu, e, ending):
    """Routh's process in space from contact velocity v_minus = (v_N, v_T1, v_T2) with contact
    matrix A: the impulse (P_N, P_T1, P_T2) and the largest turn of the slip direction."""
    a, B = A[1:, 0], A[1:, 1:]
    speed = np.linalg.norm(v_minus)
    stop = 1e-9 * speed

    def vel(p, y):
        return v_minus + A @ np.array([p, y[0], y[1]])

    def slip(p, y):
        v = vel(p, y)
        d = v[1:] / np.linalg.norm(v[1:])
        return [-mu * d[0], -mu * d[1], v[0]]

    state = {"compressed": False, "p_c": None, "W_c": None}

    def ending_value(p, y):
        if ending == "routh_newton":
            return vel(p, y)[0] + e * v_minus[0]
        if ending == "routh_poisson":
            return p - (1 + e) * state["p_c"]
        return y[2] - (1 - e * e) * state["W_c"]

    p, y = 0.0, np.zeros(3)  # (P_T1, P_T2, W_N)
    turn, start_dir = 0.0, None
    resting = np.linalg.norm(v_minus[1:]) <= stop
    ray = None
    for _ in range(12):
        if state["compressed"] and ending_value(p, y) >= 0 or (
                state["compressed"] and e == 0):
            break
        if not resting and ray is None:
            # Slip, integrated: the events are the stop, the compression's end and the ending.
            def stopped(pp, yy):
                return np.linalg.norm(vel(pp, yy)[1:]) - stop
            stopped.terminal, stopped.direction = True, -1
            comp = lambda pp, yy: vel(pp, yy)[0]
            comp.terminal, comp.direction = True, 1
            end = lambda pp, yy: ending_value(pp, yy)
            end.terminal, end.direction = True, 1
            events = [stopped, end if state["compressed"] else comp]
            sol = solve_ivp(slip, (p, p + 1e3 * speed / np.linalg.eigvalsh(A)[0]), y,
                            method="DOP853", rtol=1e-13, atol=1e-15 * speed /
                            np.linalg.eigvalsh(A)[-1], events=events, dense_output=True)
            d0 = vel(p, y)[1:] / np.linalg.norm(vel(p, y)[1:])
            start_dir = d0 if start_dir is None else start_dir
            for pp in np.linspace(p, sol.t[-1], 50):
                d = vel(pp, sol.sol(pp))[1:]
                turn = max(turn, math.acos(min(1.0, max(-1.0, d @ start_dir / np.linalg.norm(d)))))
            which = [k for k in range(2) if sol.t_events[k].size]
            expect(which, "the reference's slip ends in an event", sol.message)
            k = min(which, key=lambda j: sol.t_events[j][0])
            p, y = sol.t_events[k][0], sol.y_events[k][0]
            if k == 0:  # the slip stopped: finish it along its direction
                v = vel(p, y)
                d = v[1:] / np.linalg.norm(v[1:])
                rate = d @ (a - mu * B @ d)
                dp = np.linalg.norm(v[1:]) / -rate
                a_n = A[0, 0] - mu * A[0, 1:] @ d
                y = y + np.array([-mu * d[0] * dp, -mu * d[1] * dp, v[0] * dp + 0.5 * a_n * dp * dp])
                p += dp
                resting = True
                continue
            if not state["compressed"]:
                state.update(compressed=True, p_c=p, W_c=y[2])
                continue
            break
        # Affine: stick, or slip along the ray.
        k_T = -np.linalg.solve(B, a)
        if ray is None and np.linalg.norm(k_T) > mu:
            ths = np.linspace(0, 2 * math.pi, 7201)
            def cross(th):
                s = np.array([math.cos(th), math.sin(th)])
                f = a - mu * B @ s
                return f[0] * s[1] - f[1] * s[0], f @ s
            roots = []
            for lo, hi in zip(ths, ths[1:]):
                if (cross(lo)[0] < 0) == (cross(hi)[0] < 0):
                    continue
                for _ in range(60):
                    mid = 0.5 * (lo + hi)
                    if (cross(mid)[0] < 0) == (cross(lo)[0] < 0):
                        lo = mid
                    else:
                        hi = mid
                if cross(lo)[1] > 0:
                    roots.append(np.array([math.cos(lo), math.sin(lo)]))
            expect(len(roots) == 1, "one restart direction", roots)
            ray = roots[0]
        if ray is not None:
            k_T = -mu * ray
        a_n = A[0, 0] + A[0, 1:] @ k_T
        v_N = vel(p, y)[0]
        if not state["compressed"]:
            dp = -v_N / a_n
        elif ending == "routh_newton":
            dp = (-e * v_minus[0] - v_N) / a_n
        elif ending == "routh_poisson":
            dp = (1 + e) * state["p_c"] - p
        else:
            R = (1 - e * e) * state["W_c"] - y[2]
            dp = 2 * R / (v_N + math.sqrt(v_N * v_N + 2 * a_n * R))
        y = y + np.array([k_T[0] * dp, k_T[1] * dp, v_N * dp + 0.5 * a_n * dp * dp])
        p += dp
        if not state["compressed"]:
            state.update(compressed=True, p_c=p, W_c=y[2])
            continue
        break
    return np.array([p, y[0], y[1]]), turn


def run(cli, name, sets, model, code=0):
    return run_with_sets(cli, name, cli.model(model), sets, code)


def start(q, z, v, w):
    q = np.array(q, dtype=float)
    dq = q_rate(q, np.array(w, dtype=float))
    sets = ["z=%r" % z] + ["%s'=%r" % (n, v[k]) for k, n in enumerate("xyz")]
    sets += ["q%d=%r" % (k, q[k]) for k in range(4)] + ["q%d'=%r" % (k, dq[k]) for k in range(4)]
    return sets


def law_of_every_corner(law):
    return ["contacts.c%d.law=%s" % (k, law) for k in range(1, 9)]


@case
def first_impacts_of_tilted_cubes_follow_rouths_process(cli):
    # 9 seeded drops (random orientation, sideways throw, spin, mu, e), three per law: the first
    # impact's P_N and |P_T| against the reference (1e-9 of P_N), the centre's velocity change
    # P / m and the spin's I^-1 (r x P) after it (1e-9), Stronge never gaining energy, and the
    # slip turning during the impact in some of them (the reference's turn above 0.1 rad).
    rng = random.Random(48)
    turned, worst = 0, 0.0
    for k in range(9):
        law = LAWS[k % 3]
        q = np.array([rng.gauss(0, 1) for _ in range(4)])
        q /= np.linalg.norm(q)
        v = np.array([rng.uniform(-2, 2), rng.uniform(-2, 2), 0.0])
        w = np.array([rng.uniform(-8, 8) for _ in range(3)])
        mu, e = rng.uniform(0.1, 0.9), rng.uniform(0.0, 0.9)
        events, _ = run(cli, "tilted%d" % k, start(q, 0.5, v, w) + law_of_every_corner(law) + [
            "mu=%r" % mu, "e=%r" % e, "solver.t_end=0.33"], "cube_drop_friction.toml", code=None)
        hit = events[0]
        expect(hit["guard"].startswith("impact:") and "simultaneous" not in hit.get("note", ""),
               "a single corner's impact first", k, hit["guard"], hit.get("note"))
        c, v_c, q_b, dq_b = body_state(hit, "before")
        R = rotation(q_b)
        w_world = R @ body_rates(q_b, dq_b)
        r = min((R @ p for p in CORNERS), key=lambda x: x[2])
        A_world = np.eye(3) / M + (r @ r * np.eye(3) - np.outer(r, r)) / I
        order = [2, 0, 1]  # (N, T1, T2) = (z, x, y)
        A = A_world[np.ix_(order, order)]
        v_minus = (v_c + np.cross(w_world, r))[order]
        P, turn = routh_reference(A, v_minus, mu, e, law)
        turned += turn > 0.1
        P_N, P_T = float(hit["impulse_n"]), float(hit["impulse_t"])
        err = max(abs(P_N - P[0]), abs(P_T - math.hypot(P[1], P[2]))) / P[0]
        worst = max(worst, err)
        expect(err < 1e-9, "impulses as the reference", k, law, P_N, P_T, P, err)
        P_world = np.zeros(3)
        P_world[order] = P
        _, v_after, q_a, dq_a = body_state(hit, "after")
        w_after = rotation(q_a) @ body_rates(q_a, dq_a)
        expect(np.abs(v_after - v_c - P_world / M).max() < 1e-9 * P[0] / M and
               np.abs(w_after - w_world - np.cross(r, P_world) / I).max() <
               1e-9 * P[0] * A_HALF / I, "the velocities after as the impulse says", k,
               v_after - v_c - P_world / M)
        if law == "routh_stronge":
            expect(float(hit["energy_change"]) <= 1e-12, "Stronge never gains energy", k,
                   hit["energy_change"])
        print("drop %d %s mu %.2f e %.2f: P_N %.6g |P_T| %.6g, slip turned %.3f rad, err %.1e" %
              (k, law, mu, e, P_N, P_T, turn, err))
    expect(turned >= 3, "the slip turns during some impacts", turned)
    print("worst %.1e" % worst)


@case
def rouths_process_is_the_same_in_cm_far_away_and_late(cli):
    # The model's cube under routh_stronge, thrown sideways and spinning, in cm (a = 10, g = 981),
    # moved 1e6 along x and y, started at t0 = 1e9: the same guards and event times through its
    # first bounces (1e-10 s; 1e-6 s at 1e9), the first impact's impulses scaled by 100 in cm
    # (1e-9 of it).
    q = np.array([0.9101698900938521, 0.3390474346996321, -0.05124200797543446,
                  0.23240452837410358])  # the file's orientation
    dq = q_rate(q, np.array([3.0, -2.0, 1.5]))
    throw = ["x'=0.8", "y'=-0.3"] + ["q%d'=%r" % (k, dq[k]) for k in range(4)]
    base = throw + law_of_every_corner("routh_stronge") + ["solver.t_end=0.5"]
    runs = {}
    for name, sets in (("m", base),
                       ("cm", law_of_every_corner("routh_stronge") + [
                           "x'=80.0", "y'=-30.0", "a=10.0", "g=981.0", "z=50.0",
                           "solver.t_end=0.5"] + throw[2:]),
                       ("far", base + ["x=1e6", "y=-1e6"]),
                       ("late", base[:-1] + ["initial.t=1e9", "solver.t_end=%r" % (1e9 + 0.5)])):
        events, _ = run(cli, "inv_" + name, sets, "cube_drop_friction.toml")
        runs[name] = events
    m = runs["m"]
    expect(len(m) >= 3 and m[0]["guard"].startswith("impact:"), "several events",
           [e["guard"] for e in m])
    for name, t0, close, scale in (("cm", 0.0, 1e-10, 100.0), ("far", 0.0, 1e-10, 1.0),
                                   ("late", 1e9, 1e-6, 1.0)):
        other = runs[name]
        expect(len(other) == len(m) and all(
            x["guard"] == y["guard"] and abs(float(x["t"]) - (float(y["t"]) - t0)) <= close
            for x, y in zip(m, other)), "same events", name,
            [(e["guard"], e["t"]) for e in other])
        P = float(m[0]["impulse_n"])
        expect(abs(float(other[0]["impulse_n"]) / scale - P) < 1e-9 * P and
               abs(float(other[0]["impulse_t"]) / scale - float(m[0]["impulse_t"])) < 1e-9 * P,
               "the same first impulses", name, other[0]["impulse_n"], P)


ROD_IN_SPACE = """
[model]
name = "painleve_rod_in_space"
time_unit = "s"

[parameters]
m = 1.0
l = 1.0
J = "m*l^2/3"
g = 9.81
mu = 3.0

[coordinates]
x = { initial = 0.0, velocity = 0.0 }
y = { initial = 0.0, velocity = 0.0 }
z = { initial = 0.5, velocity = 0.0 }
q0 = { initial = 1.0, velocity = 0.0 }
q1 = { initial = 0.0, velocity = 0.0 }
q2 = { initial = 0.0, velocity = 0.0 }
q3 = { initial = 0.0, velocity = 0.0 }

[mechanics]
gravity = [0.0, 0.0, "-g"]

[[bodies]]
name = "rod"
mass = "m"
inertia = ["1e-3*J", "J", "J"]
quaternion = ["q0", "q1", "q2", "q3"]
position = ["x", "y", "z"]

[[contacts]]
name = "tip"
body = "rod"
point = ["-l", 0, 0]
law = "newton_coulomb"
e = 0.0
mu = "mu"

[solver]
t_end = 0.05
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
"""


def rod_in_space(cli, th, thdot):
    """ROD_IN_SPACE written into the work folder, and the --set values that turn it by th about -y
    with the rate thdot about -y (the planar rod's angle and rate): (path, sets)."""
    path = os.path.join(cli.work, "rod_in_space.toml")
    with open(path, "w") as f:
        f.write(ROD_IN_SPACE)
    q = np.array([math.cos(th / 2), 0.0, -math.sin(th / 2), 0.0])  # turned by -th about y
    dq = q_rate(q, np.array([0.0, -thdot, 0.0]))
    return path, ["q%d=%r" % (k, q[k]) for k in range(4)] + ["q%d'=%r" % (k, dq[k])
                                                             for k in range(4)]


@case
def the_painleve_rod_in_space_takes_lecornus_impulse_as_the_planar_rod(cli):
    # Genot and Brogliato's dynamic jam in space: the Painleve rod (m = l = 1, J = 1/3, mu = 3)
    # as a body in space whose tip slides in the x-z plane towards the first root of B, where
    # the normal force grows without bound. The jam (painleve:tip) is resolved by Lecornu's
    # impact without collision, Routh's process in space started at v_N = 0 (before, the run
    # stopped there). Against the planar rod of models/painleve_rounded_rod.toml (a = 0), whose
    # jam tests/model/painleve_jam_model_test.cpp checks against an independent integration:
    # the event's time (1e-9 s), the velocities after it (1e-8 of the slip), the impulses on the
    # cone's edge (|P_T| = mu P_N), the tip's slip at rest after it, the motion in the plane.
    th, thdot, v_t, mu = 0.40, 1.0, -30.0, 3.0
    xdot = v_t - math.sin(th) * thdot
    planar_out = os.path.join(cli.work, "planar_rod")
    status, stdout, stderr = cli.run(
        "run", cli.model("painleve_rounded_rod.toml"), "--out", planar_out, "--set", "a=0",
        "--set", "mu=%r" % mu, "--set", "theta0=%r" % th, "--set", "theta'=%r" % thdot,
        "--set", "y'=%r" % (math.cos(th) * thdot), "--set", "x'=%r" % xdot,
        "--set", "solver.t_end=0.05")
    expect_exit(status, 0, stdout, stderr, "planar rod")
    planar = [e for e in read_csv(os.path.join(planar_out, "events.csv"))
              if e["guard"] == "painleve:tip"]
    expect(planar, "the planar rod's jam")
    path, turn = rod_in_space(cli, th, thdot)
    out = os.path.join(cli.work, "space_rod")
    args = ["run", path, "--out", out, "--set", "z=%r" % math.sin(th), "--set", "x'=%r" % xdot,
            "--set", "z'=%r" % (math.cos(th) * thdot)]
    for s in turn:
        args += ["--set", s]
    status, stdout, stderr = cli.run(*args)
    expect_exit(status, 0, stdout, stderr, "rod in space")
    events = read_csv(os.path.join(out, "events.csv"))
    jam = [e for e in events if e["guard"] == "painleve:tip"]
    expect(jam, "the jam in space", [e["guard"] for e in events])
    p, e = planar[0], jam[0]
    expect(abs(float(e["t"]) - float(p["t"])) < 1e-9, "at the planar jam's time", e["t"], p["t"])
    _, v_after, q_a, dq_a = body_state(e, "after")
    w_after = rotation(q_a) @ body_rates(q_a, dq_a)
    want = np.array([float(p["x'_after"]), float(p["y'_after"]), -float(p["theta'_after"])])
    got = np.array([v_after[0], v_after[2], w_after[1]])
    expect(np.abs(got - want).max() < 1e-8 * abs(v_t), "the velocities after as the planar rod's",
           got, want)
    expect(abs(v_after[1]) + abs(w_after[0]) + abs(w_after[2]) < 1e-12, "in the plane", v_after,
           w_after)
    P_N, P_T = float(e["impulse_n"]), float(e["impulse_t"])
    expect(abs(P_T - mu * P_N) < 1e-9 * P_T and abs(P_N - float(p["impulse_n"])) < 1e-8 * P_N,
           "on the cone's edge, the planar impulse", P_N, P_T, p["impulse_n"])
    # The slip brought to rest; the tip then leaves the floor, as the planar one does.
    c_a = np.array([float(e[n + "_after"]) for n in "xyz"])
    tip = rotation(q_a) @ np.array([-1.0, 0.0, 0.0])
    slip = v_after + np.cross(w_after, tip)
    expect(abs(slip[0]) + abs(slip[1]) < 1e-9 * abs(v_t) and abs(c_a[2] + tip[2]) < 1e-12,
           "the tip at rest on the floor after it", slip, c_a + tip)
    expect(e["mode_after"] == p["mode_after"] == "free", "then free, as the planar rod",
           e["mode_after"], p["mode_after"])
    print("jam at %.12f s (planar %.12f), P_N %.9g, |P_T| %.9g" % (float(e["t"]), float(p["t"]),
                                                                 P_N, P_T))


@case
def the_jam_in_space_is_the_same_in_cm_far_away_and_late(cli):
    # The rod in space of the case above in cm (l = 100, g = 981), moved 1e6 along x and y, and
    # started at t0 = 1e9: the jam at the same instant after the start (1e-10 s; 1e-6 s at 1e9),
    # its normal impulse 100 times larger in cm (1e-8).
    th, thdot, v_t = 0.40, 1.0, -30.0
    xdot = v_t - math.sin(th) * thdot
    path, turn = rod_in_space(cli, th, thdot)

    def jam(name, sets, scale=1.0):
        slide = ["z=%r" % (scale * math.sin(th)), "x'=%r" % (scale * xdot),
                 "z'=%r" % (scale * math.cos(th) * thdot)]
        events, _ = run_with_sets(cli, name, path, turn + slide + sets)
        hit = [e for e in events if e["guard"] == "painleve:tip"]
        expect(hit, "the jam", name, [e["guard"] for e in events])
        return float(hit[0]["t"]), float(hit[0]["impulse_n"])
    t_m, P_m = jam("jam_m", [])
    for name, sets, scale, t0, close in (
            ("jam_cm", ["l=100.0", "g=981.0"], 100.0, 0.0, 1e-10),
            ("jam_far", ["x=1e6", "y=-1e6"], 1.0, 0.0, 1e-10),
            ("jam_late", ["initial.t=1e9", "solver.t_end=%r" % (1e9 + 0.05)], 1.0, 1e9, 1e-6)):
        t, P = jam(name, sets, scale)
        expect(abs(t - t0 - t_m) < close and abs(P / scale - P_m) < 1e-8 * P_m,
               "the same jam", name, t - t0, t_m, P / scale, P_m)


@case
def a_sphere_takes_every_routh_law_as_newton_and_coulomb(cli):
    # A sphere's lowest point has no coupling (A_NT = 0, B isotropic): each Routh law gives the
    # events of newton_coulomb (times 1e-12 s, impulses 1e-10 of the first's) through bounces.
    sets = ["contacts.floor.e=0.6", "contacts.floor.mu=0.3", "z=0.6", "x'=1.5", "y'=-0.7",
            "solver.t_end=0.9"]
    base, _ = run(cli, "sphere_newton", sets, "sliding_sphere.toml")
    impacts = [r for r in base if r["guard"].startswith("impact:")]
    expect(len(impacts) >= 2, "the sphere bounces", [r["guard"] for r in base])
    scale = float(impacts[0]["impulse_n"])
    for law in LAWS:
        events, _ = run(cli, "sphere_" + law, sets + ["contacts.floor.law=" + law],
                        "sliding_sphere.toml")
        expect([r["guard"] for r in events] == [r["guard"] for r in base], "the same events", law,
               [r["guard"] for r in events])
        for a, b in zip(events, base):
            expect(abs(float(a["t"]) - float(b["t"])) < 1e-12 and all(
                abs(float(a[k] or 0) - float(b[k] or 0)) < 1e-10 * scale
                for k in ("impulse_n", "impulse_t")), "the same event", law, a["guard"], a["t"],
                b["t"])


@case
def a_flat_landing_says_routh_is_taken_as_newton(cli):
    # Four corners at once (a face landing flat): one cone problem with Newton's e, e_t = 0, said
    # in the note.
    events, _ = run(cli, "flat", start((1.0, 0.0, 0.0, 0.0), 0.3, (0.4, 0.0, 0.0), (0, 0, 0)) +
                    law_of_every_corner("routh_stronge") + ["solver.t_end=0.3"],
                    "cube_drop_friction.toml", code=None)
    notes = [r.get("note", "") for r in events if r["guard"].startswith("impact:")]
    expect(notes and "simultaneous" in notes[0] and
           "taken as Newton's e with e_t = 0" in notes[0], "the note says so", notes[:1])


if __name__ == "__main__":
    main(CASES)
