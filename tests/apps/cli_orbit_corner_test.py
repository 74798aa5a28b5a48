#!/usr/bin/env python3
"""End-to-end tests of `saltus orbit` and `saltus sensitivity` where resets meet at one instant
(issue 46 item 1): a chain of resets that every nearby start takes (the orbit's structure) and a
fixed point on a corner of the return map (each side's multipliers reported).

The boosted wall, written as a user would: a damped oscillator x'' + c x' + x = 0 in x <= 0
rebounds from the wall x = 0 (v -> -e v) into "boost", where the guard -v - vmin fires once the
leftward speed reaches vmin and kicks, v -> v - k, back to "free". Leaving the wall with speed u
the oscillator returns after pi / w_d with speed q u, q = exp(-c pi / (2 w_d)) [derived]; with
e q u > vmin the kick fires at the rebound's instant, so the cycle has u = k / (1 - e q) and the
multiplier e q. Expected values are these closed forms, computed here.

Usage: cli_orbit_corner_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py and cli_analysis_test.py.
"""
import math
import os

from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


C, E, K, A = 0.3, 0.7, 1.0, -7.0
WD = math.sqrt(1 - C * C / 4)
Q = math.exp(-C * math.pi / (2 * WD))
U = K / (1 - E * Q)
PERIOD = math.pi / WD
T_MIN = math.atan2(2 * WD, C) / WD  # the minimum of x after leaving the wall
X_MIN = -(U / WD) * math.exp(-C * T_MIN / 2) * math.sin(WD * T_MIN)


def model(cli, vmin, name, x0=-1.3, v0=0.4, length=1.0):
    """The boosted wall with lengths in units of `length` metres (x, v, k, vmin, a scaled)."""
    vmin, x0, v0 = vmin * length, x0 * length, v0 * length
    k, a = K * length, A * length
    text = f"""
[model]
name = "boosted_wall"

[parameters]
c = {C}
e = {E}
k = {k!r}
vmin = {vmin!r}
a = {a!r}

[initial]
mode = "free"

[states]
x = {x0!r}
v = {v0!r}

[modes.free]
flow = ["x' = v", "v' = -x - c*v"]

[[modes.free.guards]]
name = "wall"
value = "x"
direction = "rising"
reset = ["v = -e*v"]
target = "boost"

[modes.boost]
flow = ["x' = v", "v' = a"]

[[modes.boost.guards]]
name = "kick"
value = "-v - vmin"
direction = "rising"
reset = ["v = v - k"]
target = "free"

[solver]
t_end = 10.0
rtol = 1e-12
atol = 1e-14
"""
    path = os.path.join(cli.work, name + ".toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def orbit(cli, path, name, t0=0.0):
    out = os.path.join(cli.work, name)
    code, stdout, stderr = cli.run("orbit", path, "--section", "v=0,+", "--out", out,
                                   "--no-plot", "--set", "initial.t=%r" % t0, "--set",
                                   "solver.t_end=%r" % (t0 + 10.0))
    expect_exit(code, 0, stdout, stderr, "orbit of " + name)
    return read_json(out, "orbit.json"), stdout


@case
def orbit_through_resets_chained_at_one_instant(cli):
    # vmin well below the rebound speed: the kick is carried across by every rebound near the
    # cycle. Refused before ("events 0 and 1 ... reset the state at the same t"); now the
    # composite jump's saltation matrix: the cycle's point, period and multiplier e q (1e-8).
    o, stdout = orbit(cli, model(cli, 0.5 * E * Q * U, "chained"), "chained")
    expect(o["status"] == "converged" and "corner" not in o, "converged, no corner", o)
    expect(abs(o["state"]["x"] - X_MIN) < 1e-8 * (1 + U), "cycle point", o["state"], X_MIN)
    expect(abs(o["return_time"] - PERIOD) < 1e-8, "period", o["return_time"], PERIOD)
    expect(o["resets_per_period"] == 2, "two resets per period", o["resets_per_period"])
    mods = sorted((m["re"] for m in o["multipliers"]), reverse=True)
    expect(abs(mods[0] - E * Q) < 1e-8 and abs(mods[1]) < 1e-8, "multipliers e q and 0", mods)
    # Continued in the kick k over [1, 1.5]: every branch point on the closed form (1e-8).
    out = os.path.join(cli.work, "chained_branch")
    code, stdout, stderr = cli.run("orbit", model(cli, 0.5 * E * Q * U, "chained"), "--section",
                                   "v=0,+", "--continue", "k=1.0:1.5", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "continuation through the chain")
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) >= 5 and float(rows[-1]["k"]) > 1.45, "branch points", len(rows))
    for r in rows:
        x_min = X_MIN * float(r["k"]) / K  # the cycle scales with k
        expect(abs(float(r["x"]) - x_min) < 1e-8 * (1 + U), "branch point", r, x_min)
    # sensitivity.json names the chain: one matrix through both resets.
    out = os.path.join(cli.work, "chained_sensitivity")
    code, stdout, stderr = cli.run("sensitivity", model(cli, 0.5 * E * Q * U, "chained"), "--out",
                                   out, "--set", "solver.t_end=2.0")
    expect_exit(code, 0, stdout, stderr, "sensitivity through a chain")
    s = read_json(out, "sensitivity.json")
    expect(s["status"] == "ok" and s["events"][0]["guard"] == "wall" and
           s["events"][0]["through_event"] == s["events"][0]["event"] + 1,
           "the wall's matrix runs through the kick", s["events"])


@case
def chains_and_corners_do_not_depend_on_units_or_the_time_origin(cli):
    # The chained cycle and the corner cycle with lengths in centimetres (x, v, k, vmin, a times
    # 100) and from t0 = 1e6: the same period (1e-8, 1e-8 + the clock's 1e-16 t0 per event), the
    # cycle point scaled by 100 (1e-8 relative), the same multipliers (1e-8), the corner found
    # with its two sides and the kicked side's e q.
    for length, t0 in ((100.0, 0.0), (1.0, 1e6)):
        tag = "%g_%g" % (length, t0)
        clock = 1e-8 + 1e-15 * t0
        o, _ = orbit(cli, model(cli, 0.5 * E * Q * U, "chained_" + tag, length=length),
                     "chained_" + tag, t0)
        expect(o["status"] == "converged" and "corner" not in o, "chained " + tag, o)
        expect(abs(o["return_time"] - PERIOD) < clock, "chained period " + tag, o["return_time"])
        expect(abs(o["state"]["x"] / length - X_MIN) < 1e-8 * (1 + U), "chained point " + tag,
               o["state"])
        mods = sorted((m["re"] for m in o["multipliers"]), reverse=True)
        expect(abs(mods[0] - E * Q) < 1e-8, "chained multiplier " + tag, mods)
        o, _ = orbit(cli, model(cli, E * Q * U, "corner_" + tag, length=length),
                     "corner_" + tag, t0)
        expect(o["status"] == "converged" and "corner" in o and len(o["corner"]["sides"]) == 2,
               "corner " + tag, o)
        expect(abs(o["state"]["x"] / length - X_MIN) < 1e-8 * (1 + U), "corner point " + tag,
               o["state"])
        carried = [sd for sd in o["corner"]["sides"] if "at once" in sd["sequence"]]
        expect(len(carried) == 1 and abs(carried[0]["multipliers"][0]["re"] - E * Q) < 1e-8,
               "corner's kicked side " + tag, o["corner"]["sides"])


@case
def orbit_on_a_corner_reports_both_sides(cli):
    # vmin at the cycle's own rebound speed e q u: the cycle lies on a corner of the return map
    # (faster rebounds kick at once, slower ones after a moment in "boost"). Newton converges to
    # the closed-form point; orbit.json's corner names both events and gives each side's
    # multipliers: the carried side's is e q (1e-8), the other side's is the map's slope from
    # plain runs to its side (1e-4).
    path = model(cli, E * Q * U, "corner")
    o, stdout = orbit(cli, path, "corner")
    expect(o["status"] == "converged", "converged", o)
    expect(abs(o["state"]["x"] - X_MIN) < 1e-8 * (1 + U), "cycle point", o["state"], X_MIN)
    expect(abs(o["return_time"] - PERIOD) < 1e-8, "period", o["return_time"], PERIOD)
    corner = o.get("corner")
    expect(corner and "'wall'" in corner["message"] and "'kick'" in corner["message"],
           "the corner named", o)
    expect(len(corner["sides"]) == 2, "two sides", corner)
    carried = [s for s in corner["sides"] if "at once" in s["sequence"]]
    moment = [s for s in corner["sides"] if "after a moment in mode 'boost'" in s["sequence"]]
    expect(len(carried) == 1 and len(moment) == 1, "one side each", corner["sides"])
    expect(abs(carried[0]["multipliers"][0]["re"] - E * Q) < 1e-8, "carried side's e q",
           carried[0]["multipliers"], E * Q)
    expect("corner" in stdout and "after a moment" in stdout, "sides printed", stdout)
    # A continuation cannot start on the corner (no tangent): refused, saying so.
    code, stdout_c, stderr_c = cli.run("orbit", path, "--section", "v=0,+", "--continue",
                                       "k=1.0:1.2", "--out", os.path.join(cli.work, "cc"),
                                       "--no-plot")
    expect(code == 2 and "lies on a corner of the map" in stderr_c, "continuation refused",
           code, stderr_c)

    # The slow side's slope: x_min after one period from x_min + h, by plain runs.
    def next_minimum(x):
        out = os.path.join(cli.work, "corner_run")
        code, stdout, stderr = cli.run("orbit", path, "--section", "v=0,+", "--out", out,
                                       "--no-plot", "--max-iterations", "0", "--set",
                                       "x=%r" % x, "--set", "v=0.0")
        expect(code in (0, 2), "map evaluated", code, stdout, stderr)
        return read_json(out, "orbit.json")
    x0 = o["state"]["x"]
    h = 1e-6 * (1 + U)
    # --max-iterations 0 evaluates the guess: residual = |P(x) - x|; P(x)_x from the message is
    # not printed, so take the slope from the sides' monodromy instead and check it against the
    # residuals' change (P(x0 + h) - (x0 + h)) - (P(x0) - x0) = (slope - 1) h.
    r0 = next_minimum(x0)["residual"]
    r1 = next_minimum(x0 + h)["residual"]
    slope = moment[0]["multipliers"][0]["re"]
    expect(abs(abs(r1 - r0) - abs(slope - 1) * h) < 1e-4 * h, "the slow side's slope",
           r0, r1, slope)


if __name__ == "__main__":
    main(CASES)
