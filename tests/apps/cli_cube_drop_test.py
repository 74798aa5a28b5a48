#!/usr/bin/env python3
"""End-to-end tests of frictionless impacts of a spatial rigid body (issue 48, stage 2):
models/cube_drop.toml, a cube whose eight corners are contacts on body points (gaps derived from
the body's frame), dropped on a corner, an edge and a face, against the closed form of a
frictionless impact of a rigid body [derived, Newton's law]: with r the lever arm from the centre
of mass to the contact point (for an edge or a face, by symmetry, the middle of the corners that
touch), n the floor's normal and I_w = R I R^T,
    P = -(1 + e) v_n / (1/m + (r x n) . I_w^-1 (r x n)),
    v+ = v- + P n / m,  w+ = w- + I_w^-1 (r x P n),
v_n the contact point's normal velocity before the impact. The cube falls from rest without
spin, so v_n is the centre's vertical velocity at the impact, sqrt(2 g h) for a fall of h.

Usage: cli_cube_drop_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt), run by Debian's python3 (NumPy).
"""
import os

import numpy as np

from cli_analysis_test import read_json
from cli_test import difference_column, expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


M, G, A = 1.0, 9.81, 0.1
I = 2.0 / 3.0 * M * A * A
CORNERS = {"c1": (-1, -1, -1), "c2": (1, -1, -1), "c3": (-1, 1, -1), "c4": (1, 1, -1),
           "c5": (-1, -1, 1), "c6": (1, -1, 1), "c7": (-1, 1, 1), "c8": (1, 1, 1)}


def rotation(phi, theta, psi):
    def rz(a):
        return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(theta), -np.sin(theta)],
                   [0, np.sin(theta), np.cos(theta)]])
    return rz(phi) @ rx @ rz(psi)


def omega_world(row, which, phi, theta, psi):
    """The angular velocity in the world frame from the Euler rates of events.csv's row."""
    dphi, dth, dpsi = (float(row[k + "_" + which]) for k in ("phi'", "theta'", "psi'"))
    w_body = np.array([dphi * np.sin(theta) * np.sin(psi) + dth * np.cos(psi),
                       dphi * np.sin(theta) * np.cos(psi) - dth * np.sin(psi),
                       dphi * np.cos(theta) + dpsi])
    return rotation(phi, theta, psi) @ w_body


def drop(cli, name, angles, e, t_end, z0=0.5, extra=()):
    out = os.path.join(cli.work, name)
    args = ["run", cli.model("cube_drop.toml"), "--out", out, "--set", "e=%r" % e,
            "--set", "solver.t_end=%r" % t_end, "--set", "z=%r" % z0]
    for k, v in zip(("phi", "theta", "psi"), angles):
        args += ["--set", "%s=%r" % (k, v)]
    code, stdout, stderr = cli.run(*args, *extra)
    expect_exit(code, 0, stdout, stderr, name)
    return read_csv(os.path.join(out, "events.csv"))


def check_first_impact(rows, angles, e, touching, what):
    """The first instant's impacts: the corners `touching`, then the closed form."""
    t0 = float(rows[0]["t"])
    at = [r for r in rows if float(r["t"]) == t0]
    expect(sorted(r["guard"] for r in at) == sorted("impact:" + c for c in touching),
           what + ": the corners that land", [r["guard"] for r in at], touching)
    first, last = at[0], at[-1]
    R = rotation(*angles)
    r = R @ (A * np.mean([np.array(CORNERS[c], dtype=float) for c in touching], axis=0))
    n = np.array([0.0, 0.0, 1.0])
    v = np.array([float(first[k + "'_before"]) for k in "xyz"])
    expect(np.abs(v[:2]).max() < 1e-12 and v[2] < 0, what + ": falling straight", v)
    Iw = R @ np.diag([I, I, I]) @ R.T
    rn = np.cross(r, n)
    P = -(1 + e) * v[2] / (1 / M + rn @ np.linalg.solve(Iw, rn))
    v_after = v + P * n / M
    w_after = np.linalg.solve(Iw, np.cross(r, P * n))
    got_v = np.array([float(last[k + "'_after"]) for k in "xyz"])
    got_w = omega_world(last, "after", *angles)
    scale = abs(v[2])
    expect(np.abs(got_v - v_after).max() < 1e-10 * scale, what + ": centre velocity",
           got_v, v_after)
    expect(np.abs(got_w - w_after).max() < 1e-10 * scale / A, what + ": angular velocity",
           got_w, w_after)
    # Energy: kept at e = 1, the normal velocity's loss otherwise.
    kinetic = 0.5 * M * got_v @ got_v + 0.5 * got_w @ Iw @ got_w
    before = 0.5 * M * v @ v
    if e == 1:
        expect(abs(kinetic - before) < 1e-10 * before, what + ": energy kept", kinetic, before)
    else:
        expect(kinetic < before * (1 - 1e-3), what + ": energy lost", kinetic, before)
    # The contact point's normal velocity after the impact is -e times the one before.
    vn_after = got_v[2] + np.cross(got_w, r)[2]
    expect(abs(vn_after + e * v[2]) < 1e-10 * scale, what + ": Newton's law at the point",
           vn_after, -e * v[2])


@case
def a_cube_dropped_on_a_corner_an_edge_and_a_face(cli):
    # Issue 48's must-show, frictionless: a corner (a generic tilt: c1 alone), an edge (tilted
    # about the body x axis: c1 and c2 at one instant), a face (theta = pi/2: the face y = -a,
    # corners c1, c2, c5, c6); e = 1 then e = 0.5; the post-impact velocities against the
    # closed form (1e-10), energy kept at e = 1, Newton's law at the contact point.
    for e in (1.0, 0.5):
        for angles, touching, what, t_end in (
                ((0.1, 0.7, 0.4), ["c1"], "corner", 0.27),
                ((0.0, 0.3, 0.0), ["c1", "c2"], "edge", 0.28),
                ((0.0, np.pi / 2, 0.0), ["c1", "c2", "c5", "c6"], "face", 0.29)):
            rows = drop(cli, "%s_%g" % (what, e), angles, e, t_end)
            check_first_impact(rows, angles, e, touching, "%s, e = %g" % (what, e))


@case
def a_cube_dropped_flat_comes_to_rest_at_the_zeno_time(cli):
    # The face drop at e = 0.5 bounces flat like a ball: impacts at t_1 = sqrt(2 h / g) and then
    # every 2 e^k v_1 / g, accumulating at t_1 + 2 e v_1 / (g (1 - e)) [derived], h = z0 - a.
    # There the run hands over to resting on the face (Zeno hand-over, then the contact set:
    # four corners hold three independent constraints, and one of them is let go at once) and
    # rests: z = a, every velocity 0 (1e-9), to t_end.
    e, z0 = 0.5, 0.5
    out = os.path.join(cli.work, "rest")
    code, stdout, stderr = cli.run("run", cli.model("cube_drop.toml"), "--out", out, "--set",
                                   "e=%r" % e, "--set", "z=%r" % z0, "--set", "phi=0.0",
                                   "--set", "theta=%r" % (np.pi / 2), "--set", "psi=0.0",
                                   "--set", "solver.t_end=2.0")
    expect_exit(code, 0, stdout, stderr, "flat drop to rest")
    s = read_json(out, "summary.json")
    t1 = np.sqrt(2 * (z0 - A) / G)
    t_zeno = t1 + 2 * e * G * t1 / (G * (1 - e))
    expect(s["status"] == "end-time-reached", "ends at t_end", s["status"])
    rows = read_csv(os.path.join(out, "events.csv"))
    hand = [r for r in rows if r["guard"] == "zeno-handover"]
    expect(len(hand) == 1 and abs(float(hand[0]["t"]) - t_zeno) < 1e-9, "the Zeno time",
           [r["t"] for r in hand], t_zeno)
    last = read_csv(os.path.join(out, "trajectory.csv"))[-1]
    expect(abs(float(last["z"]) - A) < 1e-9, "resting on the face", last["z"])
    expect(all(abs(float(last[k + "'"])) < 1e-9 for k in ("x", "y", "z", "phi", "theta", "psi")),
           "at rest", last)
    # A tumbling cube whose Zeno hand-over closed all four corners of a face (its forces were
    # NaN: four corners hold three independent constraints): it keeps three and rests.
    out = os.path.join(cli.work, "tumble")
    code, stdout, stderr = cli.run("run", cli.model("cube_drop.toml"), "--out", out, "--set",
                                   "e=0.6", "--set", "phi=0.2", "--set", "theta=1.2", "--set",
                                   "psi=0.5", "--set", "solver.t_end=1.5")
    expect_exit(code, 0, stdout, stderr, "tumbling drop to rest")
    rows = read_csv(os.path.join(out, "events.csv"))
    sets = [r["mode_after"] for r in rows if r["guard"] == "index-sets"]
    expect(sets and sets[-1].count("closed:") == 3, "three corners kept", sets)
    last = read_csv(os.path.join(out, "trajectory.csv"))[-1]
    expect(abs(float(last["z"]) - A) < 1e-9 and abs(float(last["z'"])) < 1e-9, "resting", last)


@case
def random_drops_never_penetrate_or_gain_energy(cli):
    # Issue 48's seeded randomized test, frictionless: cubes dropped from random heights and
    # orientations with random e. Every run ends with a status: the end time, or the ZXZ
    # chart's pole named (a tumbling cube can reach it; no chart is switched yet). At every
    # sample up to there no corner is below the floor (1e-9) and the energy T + V never exceeds
    # its start (1e-9 relative). The same drop moved by 1e6 along x and y has the same events
    # and Zeno points (times within 1e-9 of the span), up to 1e-4 s before a Zeno point.
    rng = np.random.default_rng(20261130)
    ends = {}
    for k in range(8):
        angles = (rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 2.6), rng.uniform(0, 2 * np.pi))
        e, z0, t_end = rng.uniform(0.3, 1.0), rng.uniform(0.3, 0.8), 1.2
        runs = []
        for shift in (0.0, 1e6):
            out = os.path.join(cli.work, "random%d_%g" % (k, shift))
            args = ["run", cli.model("cube_drop.toml"), "--out", out, "--set", "e=%r" % e,
                    "--set", "z=%r" % z0, "--set", "x=%r" % shift, "--set", "y=%r" % shift,
                    "--set", "solver.t_end=%r" % t_end]
            for name, v in zip(("phi", "theta", "psi"), angles):
                args += ["--set", "%s=%r" % (name, v)]
            code, stdout, stderr = cli.run(*args)
            s = read_json(out, "summary.json")
            pole = s["status"] == "reset-failed" and "chart-pole" in stderr + stdout
            expect(s["status"] == "end-time-reached" and code == 0 or pole and code == 2,
                   "drop %d ends with a status" % k, code, s["status"], stderr)
            ends[s["status"]] = ends.get(s["status"], 0) + 1
            runs.append(read_csv(os.path.join(out, "events.csv")))
            if shift:
                continue
            energy0 = None
            for row in read_csv(os.path.join(out, "trajectory.csv")):
                ph, th, ps = (float(row[n]) for n in ("phi", "theta", "psi"))
                R = rotation(ph, th, ps)
                c = np.array([float(row[n]) for n in "xyz"])
                lowest = min((c + R @ (A * np.array(p, dtype=float)))[2]
                             for p in CORNERS.values())
                expect(lowest > -1e-9, "drop %d: no corner below the floor" % k, row["t"], lowest)
                v = np.array([float(row[n + "'"]) for n in "xyz"])
                w = omega_world(dict((n + "_now", row[n]) for n in ("phi'", "theta'", "psi'")),
                                "now", ph, th, ps)
                energy = 0.5 * M * v @ v + 0.5 * I * w @ w + M * G * c[2]
                energy0 = energy if energy0 is None else energy0
                expect(energy <= energy0 * (1 + 1e-9), "drop %d: energy never gained" % k,
                       row["t"], energy, energy0)
        # Within 1e-4 s of a Zeno point the micro-impacts of an edge's two corners join or
        # part by round-off: the events are compared up to there, and the Zeno points' times.
        def settled(rows):
            zeno = [float(r["t"]) for r in rows if r["guard"] == "zeno-handover"]
            first = zeno[0] if zeno else np.inf
            return [r for r in rows if float(r["t"]) < first - 1e-4], zeno
        (a, zeno_a), (b, zeno_b) = settled(runs[0]), settled(runs[1])
        expect(len(a) == len(b) and all(abs(float(p["t"]) - float(q["t"])) < 1e-9 * t_end and
                                        p["guard"] == q["guard"] for p, q in zip(a, b)),
               "drop %d: the same events 1e6 away" % k, len(a), len(b))
        expect(len(zeno_a) == len(zeno_b) and
               all(abs(p - q) < 1e-9 * t_end for p, q in zip(zeno_a, zeno_b)),
               "drop %d: the same Zeno points 1e6 away" % k, zeno_a, zeno_b)
    expect(ends.get("end-time-reached", 0) >= 8, "most drops reach the end", ends)


SPHERE = """
[model]
name = "sphere_on_incline"

[parameters]
m = 1.0
g = {g!r}
r = 0.05
al = {al!r}
I = "2/5*m*r^2"

[coordinates]
x = {{ initial = 0.0, velocity = 0.0 }}
y = {{ initial = 0.0, velocity = 0.0 }}
z = {{ initial = 0.3, velocity = 0.0 }}
phi = {{ initial = 0.0, velocity = 0.0 }}
theta = {{ initial = 1.0, velocity = 0.0 }}
psi = {{ initial = 0.0, velocity = 0.0 }}

[mechanics]
gravity = [0.0, 0.0, "-g"]

[[bodies]]
name = "ball"
mass = "m"
inertia = ["I", "I", "I"]
orientation = ["phi", "theta", "psi"]
position = ["x", "y", "z"]

[[contacts]]
name = "incline"
body = "ball"
point = [0, 0, 0]
radius = "r"
plane = [0, "-2*sin(al)", "2*cos(al)", 0]   # not a unit normal: the gap divides by |n|
e = 0.0

[solver]
t_end = 0.6
integrator = "dop853"
rtol = 1e-12
atol = 1e-14

[output]
sample_interval = 0.01
"""


@case
def a_sphere_lands_on_a_frictionless_incline_and_slides(cli):
    # A sphere (a contact on its centre with a radius) dropped on the plane through the origin
    # with normal (0, -sin al, cos al), written twice as long: one plastic impact (e = 0), then
    # the contact stays closed and the centre slides at the radius from the plane (1e-9) with
    # acceleration g sin al down the slope (1e-9) [derived: no friction, no spin].
    for al in (0.3, 0.7):
        g = 9.81
        model = os.path.join(cli.work, "sphere_%g.toml" % al)
        with open(model, "w") as f:
            f.write(SPHERE.format(g=g, al=al))
        out = os.path.join(cli.work, "sphere_%g" % al)
        code, stdout, stderr = cli.run("run", model, "--out", out)
        expect_exit(code, 0, stdout, stderr, "sphere on the incline")
        events = read_csv(os.path.join(out, "events.csv"))
        expect([r["guard"] for r in events] == ["impact:incline"], "one impact", events)
        t_hit = float(events[0]["t"])
        n = np.array([0.0, -np.sin(al), np.cos(al)])
        down = np.array([0.0, -np.cos(al), -np.sin(al)])
        rows = [r for r in read_csv(os.path.join(out, "trajectory.csv"))
                if float(r["t"]) > t_hit + 0.01]
        expect(len(rows) > 10, "samples after the landing", len(rows))
        first = None
        for r in rows:
            c = np.array([float(r[k]) for k in "xyz"])
            v = np.array([float(r[k + "'"]) for k in "xyz"])
            expect(abs(n @ c - 0.05) < 1e-9, "on the incline", r["t"], n @ c)
            expect(abs(n @ v) < 1e-9, "no normal velocity", r["t"], n @ v)
            first = first or (float(r["t"]), down @ v)
            slope = (down @ v - first[1]) / max(float(r["t"]) - first[0], 1e-300)
            if float(r["t"]) > first[0]:
                expect(abs(slope - g * np.sin(al)) < 1e-9 * g, "g sin al down the slope",
                       r["t"], slope, g * np.sin(al))


@case
def the_flow_map_jacobian_through_corner_impacts_is_central_differences(cli):
    # `saltus sensitivity` of a spinning cube through two corner impacts (e = 0.5, t = 0.45): each
    # column of the flow-map Jacobian (saltation matrices of the spatial impacts) against central
    # differences of whole runs, step 1e-6: within 1e-4 of the column's size (the differences'
    # noise is the runs' tolerance over the step, measured 3e-6).
    start = {"x": 0.0, "y": 0.0, "z": 0.5, "phi": 0.3, "theta": 0.9, "psi": 0.2, "x'": 0.3,
             "y'": 0.0, "z'": 0.0, "phi'": 2.0, "theta'": 0.0, "psi'": -1.0}
    base = ["--set", "e=0.5", "--set", "solver.t_end=0.45"]
    for k, v in start.items():
        base += ["--set", "%s=%r" % (k, v)]
    out = os.path.join(cli.work, "sensitivity")
    code, stdout, stderr = cli.run("sensitivity", cli.model("cube_drop.toml"), "--out", out, *base)
    expect_exit(code, 0, stdout, stderr, "sensitivity")
    J = np.array(read_json(out, "sensitivity.json")["flow_map_jacobian"])
    impacts = [r for r in read_csv(os.path.join(out, "events.csv"))
               if r["guard"].startswith("impact:")]
    expect(len(impacts) == 2, "two corner impacts", [r["guard"] for r in impacts])

    sets = base[1::2]  # base is ["--set", value, ...]
    for k, (name, value) in enumerate(start.items()):
        column = np.array(difference_column(cli, cli.model("cube_drop.toml"), sets, list(start),
                                            name, value))
        miss = np.abs(column - J[:, k]).max()
        expect(miss < 1e-4 * max(1.0, np.abs(J[:, k]).max()), "column " + name, miss, column,
               J[:, k])


@case
def the_bodies_frames_and_their_3d_animation(cli):
    # `saltus run` of the cube writes bodies.csv (its centre and rotation at every sample) and
    # bodies.json (its corners, the floor, each impact's contact point); `saltus animate` draws
    # a 3-D animation.gif from them. The frames are the trajectory's (centre = x, y, z; rotation = the ZXZ
    # matrix of its angles, orthonormal), each impact's point is the corner c + R p of the state
    # before it, on the floor; a model with neither [drawing] nor [[bodies]] has nothing to
    # animate.
    out = os.path.join(cli.work, "animated")
    code, stdout, stderr = cli.run("run", cli.model("cube_drop.toml"), "--out", out, "--set",
                                   "e=0.5", "--set", "solver.t_end=0.5")
    expect_exit(code, 0, stdout, stderr, "the cube")
    code, stdout, stderr = cli.run("animate", out, "--frames", "12")
    expect_exit(code, 0, stdout, stderr, "animated cube")
    expect({"bodies.csv", "bodies.json", "animation.gif"} <= set(os.listdir(out)), "files",
           os.listdir(out))
    frames = read_csv(os.path.join(out, "bodies.csv"))
    states = read_csv(os.path.join(out, "trajectory.csv"))
    expect(len(frames) == len(states) > 100, "a frame per sample", len(frames), len(states))
    for f, x in zip(frames, states):
        R = np.array([[float(f["cube.r%d%d" % (i, j)]) for j in (1, 2, 3)] for i in (1, 2, 3)])
        expected = rotation(*(float(x[k]) for k in ("phi", "theta", "psi")))
        expect(np.abs(R - expected).max() < 1e-9 and np.abs(R.T @ R - np.eye(3)).max() < 1e-9,
               "the rotation", f["t"], R, expected)
        expect(all(abs(float(f["cube." + k]) - float(x[k])) < 1e-9 for k in "xyz"),
               "the centre", f["t"])
    body = read_json(out, "bodies.json")
    expect(body["planes"] == [[0.0, 0.0, 1.0, 0.0]] and
           [s["contact"] for s in body["bodies"][0]["shapes"]] == list(CORNERS), "the shapes",
           body["bodies"])
    before = {(r["t"], r["guard"]): r for r in read_csv(os.path.join(out, "events.csv"))}
    impacts = [e for e in body["events"] if e["guard"].startswith("impact:")]
    expect(len(impacts) >= 2, "impacts marked", body["events"])
    for e in impacts:
        row = [r for (t, g), r in before.items() if g == e["guard"] and abs(float(t) - e["t"]) <
               1e-12][0]
        R = rotation(*(float(row[k + "_before"]) for k in ("phi", "theta", "psi")))
        corner = (np.array([float(row[k + "_before"]) for k in "xyz"]) +
                  R @ (A * np.array(CORNERS[e["contact"]], dtype=float)))
        expect(np.abs(np.array(e["at"]) - corner).max() < 1e-12 and abs(e["at"][2]) < 1e-9,
               "the impact's corner on the floor", e, corner)
    from PIL import Image
    with Image.open(os.path.join(out, "animation.gif")) as gif:
        expect(gif.n_frames == 12, "12 frames", gif.n_frames)
    # Neither [drawing] nor [[bodies]]: nothing to animate.
    plain = os.path.join(cli.work, "plain")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", plain)
    expect_exit(code, 0, stdout, stderr, "the ball")
    code, stdout, stderr = cli.run("animate", plain)
    expect(code == 3 and "nothing to animate" in stderr, "refused", code, stderr)


@case
def point_contacts_refuse_what_they_cannot_do(cli):
    # A point on a body that is not a [[bodies]] body, a point with a gap too: refused at the
    # contact, naming it (exit 1).
    with open(cli.model("cube_drop.toml")) as f:
        text = f.read()
    for change, words in (
            (('body = "cube"\npoint = ["-a", "-a", "-a"]',
              'body = "box"\npoint = ["-a", "-a", "-a"]'), ["'c1'", "no [[bodies]] body"]),
            (('name = "c1"\n', 'name = "c1"\ngap = "z"\n'), ["'c1'", "both gap and point"]),
            (('name = "c1"\n', 'name = "c1"\nplane = [0, 0, "z", 0]\n'),
             ["'c1'", "plane depends on the coordinates"])):
        path = os.path.join(cli.work, "bad.toml")
        with open(path, "w") as f:
            f.write(text.replace(*change, 1))
        code, stdout, stderr = cli.run("check", path)
        expect(code == 1 and all(w in stderr for w in words), "refused: " + change[1],
               code, stderr)


if __name__ == "__main__":
    main(CASES, "cli_cube_drop_test.py")
