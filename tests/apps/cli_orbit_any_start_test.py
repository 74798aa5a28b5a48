#!/usr/bin/env python3
"""End-to-end tests of `saltus orbit` from any start and `saltus bifurcation` restarting time
(issue 33): a guess off the section in another mode, terminal guards, --tol, --max-iterations,
--cyclic with its drift, --continue in a parameter of the file, --show, the mode column.

Usage: cli_orbit_any_start_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt); the helpers are those of cli_test.py and cli_analysis_test.py.
Expected values come from closed forms computed here.
"""
import math
import os

from cli_analysis_test import A, T, W, read_json
from cli_test import expect, expect_exit, has_matplotlib, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


C, K = 0.3, 1.0  # the energising wall: x'' + c x' + x = 0 against x = 0, v -> -(v + k)
WD = math.sqrt(1 - C * C / 4)
Q = math.exp(-C * math.pi / (2 * WD))
U = K / (1 - Q)  # speed leaving the wall on the limit cycle
PERIOD = math.pi / WD


def cycle(s):
    """(x, v) on the limit cycle s after leaving the wall."""
    a = -(U / WD) * math.exp(-C * s / 2)
    return a * math.sin(WD * s), a * (WD * math.cos(WD * s) - C / 2 * math.sin(WD * s))


def rising_crossing(level):
    """s where the cycle crosses x = level rising (after its minimum), by bisection."""
    lo, hi = math.atan2(2 * WD, C) / WD, PERIOD
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if cycle(mid)[0] < level:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


# Two modes: "out" from the wall to the turning point, "back" from there to the wall; s advances
# at rate a and by L at each impact (a walker's progress: nothing reads it); with TH, th = x +
# const (nothing reads it either, and it closes every period).
WALL = f"""
[model]
name = "wall"

[parameters]
c = {C}
k = {K}
a = 0.7
L = 0.25

[states]
x = -1.0
v = -0.5
s = 5.0
TH_STATE

[initial]
mode = "out"

[modes.out]
flow = ["x' = v", "v' = -x - c*v", "s' = a"TH_FLOW]

[[modes.out.guards]]
name = "turn"
value = "v"
target = "back"

[modes.back]
flow = ["x' = v", "v' = -x - c*v", "s' = a"TH_FLOW]

[[modes.back.guards]]
name = "wall"
value = "x"
target = "out"
reset = ["v = -(v + k)", "s = s + L"]
TERMINAL

[solver]
t_end = 40.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
"""


def write_model(cli, name, terminal=False, th=False, mode="out"):
    path = os.path.join(cli.work, name + ".toml")
    text = WALL.replace("TERMINAL", "terminal = true" if terminal else "")
    text = text.replace("TH_STATE", "th = 0.0" if th else "")
    text = text.replace("TH_FLOW", ", \"th' = v\"" if th else "")
    with open(path, "w") as f:
        f.write(text.replace('mode = "out"', 'mode = "' + mode + '"'))
    return path


@case
def orbit_from_a_start_off_the_section_in_another_mode(cli):
    # The guess (x = -1, v = -0.5 in "out") is off the section x = -0.5 rising, which only "back"
    # crosses: it is run to its first crossing and the cycle is found there.
    model = write_model(cli, "wall")
    out = os.path.join(cli.work, "orbit")
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "orbit from off the section")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "converged" and o["mode"] == "back", "status and mode", o)
    expect(o["start"]["moved"] and "first crossing" in o["start"]["message"], "start", o)
    expect("start      the guess" in stdout, "the start is printed", stdout)
    _, v = cycle(rising_crossing(-0.5))
    expect(abs(o["state"]["x"] + 0.5) < 1e-9 and abs(o["state"]["v"] - v) < 1e-8, "closed form",
           o["state"], v)
    expect(abs(o["return_time"] - PERIOD) < 1e-8, "period", o["return_time"], PERIOD)
    mults = sorted(m["abs"] for m in o["multipliers"])
    expect(abs(mults[-1] - Q) < 1e-8, "multiplier q", mults, Q)
    # s drifts by a T + L per period (closed form).
    drift = {d["state"]: d for d in o["cyclic"]}
    expect(abs(drift["s"]["drift"] - (0.7 * PERIOD + 0.25)) < 1e-8, "drift", drift)
    expect(abs(drift["s"]["drift_rate"] - (0.7 * PERIOD + 0.25) / PERIOD) < 1e-8, "rate", drift)
    expect("drift      s:" in stdout, "the drift is printed", stdout)
    # Without --cyclic, s cannot close: no orbit (exit 2, a status, not a number sent away).
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--out", out, "--no-plot")
    expect_exit(code, 2, stdout, stderr, "orbit without --cyclic")
    o = read_json(out, "orbit.json")
    expect(o["status"] != "converged" and "no periodic orbit" in stderr, "not converged", o)


@case
def orbit_cyclic_state_that_does_not_drift_is_reported(cli):
    model = write_model(cli, "wall", th=True)
    out = os.path.join(cli.work, "orbit")
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "th", "--out", out, "--no-plot")
    expect_exit(code, 1, stdout, stderr, "--cyclic th")
    expect("--cyclic: 'th' does not drift" in stderr and "wall.toml" in stderr, "message", stderr)
    o = read_json(out, "orbit.json")
    expect(o["status"] == "converged" and "th" in o["cyclic_problem"], "orbit.json", o)
    drift = {d["state"]: d["drift"] for d in o["cyclic"]}
    expect(abs(drift["th"]) < 1e-8, "th closes", drift)
    # v is read by the flow: its translation changes the map (its column of DP is not e_v).
    plain = write_model(cli, "plain_wall")
    code, stdout, stderr = cli.run("orbit", plain, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "v", "--out", out, "--no-plot")
    expect_exit(code, 1, stdout, stderr, "--cyclic v")
    expect("'v' is not a translation symmetry" in stderr, "message", stderr)
    for bad, why in ((["--cyclic", "nosuch"], "'nosuch' is not a state"),
                     (["--cyclic", "s", "s"], "'s' is named twice"),
                     (["--tol", "0"], "--tol must be a positive number"),
                     (["--tol", "-1e-9"], "--tol must be a positive number"),
                     (["--max-iterations", "-1"], "--max-iterations must be >= 0"),
                     (["--show", "nosuch"], "--show: 'nosuch' is not a state")):
        code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time",
                                       "0.5", "--out", out, "--no-plot", *bad)
        expect_exit(code, 1, stdout, stderr, " ".join(bad))
        expect(why in stderr, "message", bad, stderr)


@case
def orbit_continues_with_a_cyclic_state(cli):
    # The energising wall continued in its kick k with s cyclic: s is held at the start's value,
    # (x, v) follow the closed form of each k (the cycle scales with k), q is the multiplier and
    # s's trivial 1 is a 0.
    model = write_model(cli, "wall")
    out = os.path.join(cli.work, "branch")
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "--continue", "k=1:1.5", "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "--cyclic with --continue")
    o = read_json(out, "orbit.json")
    held = o["cyclic"][0]
    expect(held["state"] == "s" and held["column_error"] < 1e-6, "cyclic", o["cyclic"])
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) >= 5 and "left [1, 1.5]" in o["stop_reason"], "to k = 1.5", len(rows), o)
    for r in rows:
        k = float(r["parameter"])
        v = k / K * cycle(rising_crossing(-0.5 * K / k))[1]
        expect(abs(float(r["x"]) + 0.5) < 1e-9 and abs(float(r["v"]) - v) < 1e-8, "closed form",
               r, v)
        expect(abs(float(r["s"]) - held["held"]) < 1e-12, "s held", r, held)
        expect(abs(float(r["period"]) - PERIOD) < 1e-8, "period", r)
    # On the section: q, the section's 0 for the trivial 1, and s's 0.
    moduli = sorted(m["abs"] for m in o["multipliers"])
    expect(len(moduli) == 3 and moduli[1] < 1e-9 and abs(moduli[2] - Q) < 1e-8, "q, 0, 0",
           moduli)
    # v is read by the flow: not a translation symmetry, refused before the branch is continued.
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "v", "--continue", "k=1:1.5", "--out", out,
                                   "--no-plot")
    expect_exit(code, 1, stdout, stderr, "--cyclic v with --continue")
    expect("'v' is not a translation symmetry" in stderr and "wall.toml" in stderr, "message",
           stderr)


@case
def orbit_terminal_guard_before_the_section_is_a_status(cli):
    model = write_model(cli, "terminal_wall", terminal=True)
    out = os.path.join(cli.work, "orbit")
    # The guess runs to x = -0.5 rising in "back"; from there the wall stops the run before the
    # next crossing: no return.
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "--out", out, "--no-plot")
    expect_exit(code, 2, stdout, stderr, "terminal wall")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "terminal event", "status", o)
    expect("terminal guard 'wall'" in o["message"] and "no return" in o["message"], "message", o)
    expect("no periodic orbit" in stderr and "wall" in stderr, "stderr", stderr)
    # Off the section and heading for the wall: the first crossing is never reached.
    model = write_model(cli, "terminal_back", terminal=True, mode="back")
    code, stdout, stderr = cli.run("orbit", model, "--section", "v=0,+", "--min-time", "0.5",
                                   "--set", "x=-0.1", "--set", "v=1", "--out", out, "--no-plot")
    expect_exit(code, 2, stdout, stderr, "terminal before the first crossing")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "terminal event" and not o["start"]["moved"], "status", o)
    expect("terminal guard 'wall'" in o["message"], "message", o)


@case
def orbit_tolerance_and_iterations(cli):
    model = write_model(cli, "wall")
    out = os.path.join(cli.work, "orbit")
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "--max-iterations", "0", "--out", out,
                                   "--no-plot")
    expect_exit(code, 2, stdout, stderr, "--max-iterations 0")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "not converged" and "in 0 Newton steps" in o["message"], "status", o)
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "--tol", "1e-4", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "--tol 1e-4")
    loose = read_json(out, "orbit.json")
    scale = 1 + max(abs(v) for k, v in loose["state"].items() if k != "s")
    expect(loose["residual"] <= 1e-4 * scale, "residual within --tol", loose)
    code, stdout, stderr = cli.run("orbit", model, "--section", "x=-0.5,+", "--min-time", "0.5",
                                   "--cyclic", "s", "--tol", "1e-11", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "--tol 1e-11")
    tight = read_json(out, "orbit.json")
    expect(tight["iterations"] >= loose["iterations"], "more steps", loose, tight)
    _, v = cycle(rising_crossing(-0.5))
    expect(abs(tight["state"]["v"] - v) < 1e-9, "closed form", tight["state"], v)


def doubling_in_e(sigma):
    """e in [0.3, 0.5] where tr M = -(1 + e^2) on the impact oscillator's period-1 orbit."""
    def f(e):
        p, t2 = A / (1 - W * W), math.tan(T / 2)
        a, b = (1 - e) * t2 * p, (1 + e) * p * W
        delta, c = math.atan2(b, a), (1 - e) * t2 * sigma / math.hypot(a, b)
        for sign in (1, -1):
            phase = math.fmod(delta + sign * math.acos(c) + 4 * math.pi, 2 * math.pi)
            speed = (p * W * math.sin(phase) - (sigma - p * math.cos(phase)) * t2) / e
            if speed > 0:
                k = (1 + e) * (A * math.cos(phase) - sigma) / speed
                return -2 * e * math.cos(T) + k * math.sin(T) + (1 + e * e)
        raise ValueError("no orbit")
    lo, hi = 0.3, 0.5
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if (f(mid) > 0) == (f(lo) > 0):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@case
def orbit_continues_in_a_parameter_of_the_file(cli):
    # models/impact_oscillator.toml: e is a parameter; at sigma = 0.075 the period-1 orbit
    # period-doubles at the e of the closed form (tr M = -(1 + e^2)).
    out = os.path.join(cli.work, "e")
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--set", "sigma=0.075", "--set", "e=0.5",
                                   "--continue", "e=0.5:0.3", "--show", "v", "--out", out)
    expect_exit(code, 0, stdout, stderr, "orbit --continue e")
    o = read_json(out, "orbit.json")
    expect(o["parameter"] == "e" and o["parameter_derivative"].startswith("exact"), "e", o)
    pd = [b for b in o["bifurcations"] if b["kind"] == "period doubling"]
    e_pd = doubling_in_e(0.075)
    expect(len(pd) == 1 and abs(pd[0]["parameter"] - e_pd) < 1e-8, "doubling", pd, e_pd)
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) >= 5 and all(0.3 - 1e-12 <= float(r["e"]) <= 0.5 + 1e-12 for r in rows),
           "branch in e", len(rows))
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "branch.png")), "branch.png")
    # An unknown name is refused naming the states.
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--continue", "nosuch=0:1", "--out", out)
    expect_exit(code, 1, stdout, stderr, "--continue nosuch")
    expect("nosuch" in stderr, "message", stderr)


@case
def orbit_continues_a_runtime_parameter_of_a_mechanical_model(cli):
    # The impact oscillator written as mechanics (no [modes]): sigma, a parameter in the contact's
    # gap, is kept at run time and d P / d sigma differenced; the branch and its doubling are the
    # closed form's (cli_analysis_test.py).
    from cli_analysis_test import closed_form, doubling_sigma
    (x0, v0), _, _ = closed_form(0.0)
    path = os.path.join(cli.work, "mech_oscillator.toml")
    with open(path, "w") as f:
        f.write(f"""
[model]
name = "mech_oscillator"
[parameters]
A = {A}
w = {W}
sigma = 0.0
[coordinates]
x = {{ initial = {x0!r}, velocity = {v0!r} }}
[mechanics]
kinetic_energy = "0.5*x'^2"
potential_energy = "0.5*x^2 - A*x*cos(w*t)"
[[contacts]]
name = "stop"
gap = "sigma - x"
e = 0.8
[solver]
t_end = 25.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
""")
    out = os.path.join(cli.work, "sigma")
    code, stdout, stderr = cli.run("orbit", path, "--period", repr(T), "--numerical-resets",
                                   "--continue", "sigma=0:0.1", "--out", out, "--no-plot",
                                   timeout=600)
    expect_exit(code, 0, stdout, stderr, "orbit --continue sigma of a mechanical model")
    o = read_json(out, "orbit.json")
    expect(o["parameter_derivative"].startswith("central differences"), "derivative", o)
    pd = [b for b in o["bifurcations"] if b["kind"] == "period doubling"]
    expect(len(pd) == 1 and abs(pd[0]["parameter"] - doubling_sigma()) < 1e-7, "doubling", pd,
           doubling_sigma())
    for r in read_csv(os.path.join(out, "branch.csv")):
        (x, v), _, _ = closed_form(float(r["sigma"]))
        expect(abs(float(r["x"]) - x) < 1e-8 and abs(float(r["x'"]) - v) < 1e-8, "branch", r)


@case
def orbit_branch_plot_leaves_out_the_section_coordinate(cli):
    # The one-mode wall continued in k on the section v = 0 rising: every branch point is the
    # cycle's lowest point (closed form, linear in k through u = k / (1 - q)); v is 0 there up
    # to round-off, so branch.png draws x unless --show says otherwise.
    path = os.path.join(cli.work, "one_mode_wall.toml")
    with open(path, "w") as f:
        f.write(f"""
[model]
name = "one_mode_wall"
[parameters]
c = {C}
k = {K}
[states]
x = -1.5
v = 0.0
[modes.free]
flow = ["x' = v", "v' = -x - c*v"]
[[modes.free.guards]]
name = "wall"
value = "x"
reset = ["v = -(v + k)"]
[solver]
t_end = 40.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
""")
    s_min = math.atan2(2 * WD, C) / WD
    for show, drawn in (([], "x"), (["--show", "v"], "v")):
        out = os.path.join(cli.work, "branch_" + drawn)
        code, stdout, stderr = cli.run("orbit", path, "--section", "v=0,+", "--min-time", "0.5",
                                       "--continue", "k=1:1.2", "--points", "5", "--out", out,
                                       *show)
        expect_exit(code, 0, stdout, stderr, "orbit --continue k " + " ".join(show))
        for r in read_csv(os.path.join(out, "branch.csv")):
            x_min = cycle(s_min)[0] * float(r["k"]) / K
            expect(abs(float(r["x"]) - x_min) < 1e-8 and abs(float(r["v"])) < 1e-9, "branch", r)
        if has_matplotlib():
            expect("branch.png shows " + drawn + " against k" in stdout, "drawn", stdout)


@case
def bifurcation_rows_do_not_depend_on_the_order_of_values(cli):
    # The impact oscillator's period-1 orbit is the attractor below the doubling: every value
    # gives the closed-form point whichever way the values are swept, and each row's mode.
    from cli_analysis_test import closed_form
    rows = {}
    for name, vary in (("up", "sigma=0:0.06:4"), ("down", "sigma=0.06:0:4")):
        out = os.path.join(cli.work, name)
        code, stdout, stderr = cli.run("bifurcation", cli.model("impact_oscillator.toml"),
                                       "--vary", vary, "--period", repr(T), "--discard", "200",
                                       "--keep", "2", "--out", out, "--no-plot")
        expect_exit(code, 0, stdout, stderr, "bifurcation " + name)
        rows[name] = read_csv(os.path.join(out, "bifurcation.csv"))
        expect(all(r["mode"] == "free" and r["status"] == "ok" for r in rows[name]), "mode",
               rows[name])
    for r in rows["up"]:
        match = [d for d in rows["down"] if d["point"] == r["point"] and
                 math.isclose(float(d["parameter"]), float(r["parameter"]))]
        expect(len(match) == 1, "the same value", r)
        (x, v), _, _ = closed_form(float(r["sigma"]))
        for row in (r, match[0]):
            expect(abs(float(row["x"]) - x) < 1e-7 and abs(float(row["v"]) - v) < 1e-7,
                   "closed form", row, (x, v))
    # The wall: the section x = -0.5 rising is crossed in "back" (the mode column says so), and
    # the default horizon comes from the return time (t_end = 40 would hold only ~13 returns).
    model = write_model(cli, "wall")
    out = os.path.join(cli.work, "wall")
    code, stdout, stderr = cli.run("bifurcation", model, "--vary", "k=1:1.2:2", "--section",
                                   "x=-0.5,+", "--discard", "60", "--keep", "3", "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "bifurcation of the wall")
    expect("horizon" in stdout and "return time" in stdout, "horizon printed", stdout)
    wall = read_csv(os.path.join(out, "bifurcation.csv"))
    expect(len(wall) == 6 and all(r["mode"] == "back" for r in wall), "mode column", wall)
    first = [r for r in wall if float(r["parameter"]) == 1.0]
    _, v = cycle(rising_crossing(-0.5))
    expect(all(abs(float(r["v"]) - v) < 1e-6 for r in first), "k = 1 on the cycle", first, v)


if __name__ == "__main__":
    main(CASES, "cli_orbit_any_start_test.py")
