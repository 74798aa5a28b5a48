#!/usr/bin/env python3
"""End-to-end tests of the compass-gait biped written in [mechanics] (models/compass_gait.toml,
issue 47 item 4): the stance foot a closed contact, the heel strike a plastic impact of the swing
foot gated by `when`, the legs swapped by `relabel`. Its steps, its gait's Floquet multipliers
(exact reset derivatives: no --numerical-resets) and its period doubling in the slope are checked
against compass_gait_oracle.py, an independent SciPy computation of Goswami et al.'s equations
with their angular-momentum transition.

Usage: cli_compass_gait_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt; run by /usr/bin/python3, which has SciPy).
"""
import math
import os

import compass_gait_oracle as oracle
from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


GAMMA = math.pi / 60  # the model file's slope, 3 degrees
SECTION = ["--section", "th1=0,-", "--cyclic", "x"]  # mid-stance; the walker moves along x
# Orbits are closed to --tol 1e-9 (1 + max|x|) at the model's rtol 1e-12; the oracle integrates at
# 1e-13: 1e-8 leaves a margin of 10 over the closing tolerance.
CLOSE = 1e-8


@case
def compass_gait_steps_are_the_papers_transitions(cli):
    out = os.path.join(cli.work, "run")
    code, stdout, stderr = cli.run("run", cli.model("compass_gait.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "saltus run")
    ref = oracle.gait(GAMMA)
    T = ref["step_time"]
    th, th_sw = ref["state_after_strike"][0], ref["state_after_strike"][1]
    w1, w2 = ref["state_after_strike"][2], ref["state_after_strike"][3]
    events = read_csv(os.path.join(out, "events.csv"))
    # t_end = 4 holds five steps of 0.734 s; each a strike of the swing foot ahead of the stance
    # foot (never at the scuff, where the swing foot is behind and below the slope), after which
    # the legs are swapped and foot 1 sticks again.
    expect(len(events) == 5, "five strikes", len(events))
    for k, e in enumerate(events, start=1):
        expect(e["guard"] == "impact:swing" and e["mode_after"] == "stick:stance", "strike", e)
        expect(abs(float(e["t"]) - k * T) < 1e-9 * k, "strike time", k, e["t"], k * T)
        after = [float(e[n + "_after"]) for n in ("th1", "th2", "th1'", "th2'")]
        want = [th, th_sw, w1, w2]
        expect(all(abs(a - b) < CLOSE for a, b in zip(after, want)), "state after", after, want)
        # The legs are swapped: th1+ is th2-, the old stance leg is the new swing leg.
        expect(float(e["th1_after"]) == float(e["th2_before"]) and
               float(e["th2_after"]) == float(e["th1_before"]), "legs swapped", e)
        # [outputs] of the stance foot's contact: its normal force is least at the end of the
        # step, its friction ratio largest at the start (the oracle's pivot force).
        expect(abs(float(e["stance_force_before"]) - ref["min_normal_force"]) <
               1e-7 * ref["min_normal_force"], "normal force", e["stance_force_before"],
               ref["min_normal_force"])
        expect(abs(float(e["friction_ratio_after"]) - ref["max_friction_ratio"]) < 1e-7,
               "friction ratio", e["friction_ratio_after"], ref["max_friction_ratio"])
    # The hip's advance per step is the step length 2 l sin(theta+).
    x = [float(e["x_after"]) for e in events]
    for a, b in zip(x, x[1:]):
        expect(abs((b - a) - ref["step_length"]) < CLOSE, "step length", b - a, ref["step_length"])


@case
def compass_gait_orbit_has_the_papers_multipliers(cli):
    out = os.path.join(cli.work, "gait")
    code, stdout, stderr = cli.run("orbit", cli.model("compass_gait.toml"), *SECTION, "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "saltus orbit (exact reset derivatives)")
    o = read_json(out, "orbit.json")
    ref = oracle.gait(GAMMA)
    expect(o["status"] == "converged" and o["resets_per_period"] == 1 and o["stable"] is True,
           "converged, one strike, stable", o)
    expect(abs(o["return_time"] - ref["step_time"]) < CLOSE, "step time", o["return_time"],
           ref["step_time"])
    # The 8-state section map: the step map's three multipliers, and zeros for what the strike
    # forgets (the closed contact's position and rates, the section's direction).
    got = sorted((complex(m["re"], m["im"]) for m in o["multipliers"]), key=abs, reverse=True)
    want = sorted(ref["multipliers"], key=abs, reverse=True)
    for w in want:
        expect(min(abs(g - w) for g in got[:3]) < CLOSE, "multiplier", w, got)
    expect(all(abs(g) < CLOSE for g in got[3:]), "the others vanish", got)


@case
def compass_gait_continuation_finds_the_period_doubling(cli):
    out = os.path.join(cli.work, "branch")
    code, stdout, stderr = cli.run("orbit", cli.model("compass_gait.toml"), *SECTION, "--continue",
                                   f"gamma={GAMMA!r}:0.08", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "saltus orbit --continue")
    rows = read_csv(os.path.join(out, "bifurcations.csv"))
    doublings = [float(r["parameter"]) for r in rows if r["kind"] == "period doubling"]
    want = oracle.period_doubling_slope(GAMMA, 0.08)
    expect(len(doublings) == 1 and abs(doublings[0] - want) < 1e-9, "period doubling",
           doublings, want)


@case
def compass_gait_in_millimetres_far_along_the_slope_and_later_walks_the_same(cli):
    # The same biped in mm (l = 1000 mm, g = 9810 mm/s^2), started 1e6 m down the slope and at
    # t0 = 1e6 s: the same strike times after t0, and the same angles and rates after each.
    runs = {}
    with open(cli.model("compass_gait.toml")) as f:
        text = f.read()
    far = text.replace('x = { initial = "-(a + b)*sin(th0)"', 'x = { initial = "1e6 - (a + b)*sin(th0)"')
    far = far.replace("[solver]\n", "[initial]\nt = 1e6\n\n[solver]\nt_end = 1000004.0\n", 1)
    far = far.replace("t_end = 4.0\n", "", 1)
    path = os.path.join(cli.work, "far.toml")
    with open(path, "w") as f:
        f.write(far)
    for name, model, sets in (
            ("m", cli.model("compass_gait.toml"), []),
            ("mm", cli.model("compass_gait.toml"),
             ["--set", "a=500", "--set", "b=500", "--set", "g=9810"]),
            ("far", path, [])):
        out = os.path.join(cli.work, name)
        code, stdout, stderr = cli.run("run", model, *sets, "--out", out)
        expect_exit(code, 0, stdout, stderr, "saltus run " + name)
        runs[name] = read_csv(os.path.join(out, "events.csv"))
    base = runs["m"]
    for name, t0 in (("mm", 0.0), ("far", 1e6)):
        other = runs[name]
        expect(len(other) == len(base), name + ": as many strikes", len(other), len(base))
        for a, b in zip(base, other):
            # The clock's round-off at 1e6 s is 1.2e-10 s; angles and rates are unit-free.
            expect(abs((float(b["t"]) - t0) - float(a["t"])) < 1e-12 + 4e-16 * t0, name, a, b)
            for n in ("th1_after", "th2_after", "th1'_after", "th2'_after"):
                expect(abs(float(a[n]) - float(b[n])) < 1e-9, name + " " + n, a[n], b[n])


@case
def compass_gait_relabel_that_is_no_symmetry_is_refused(cli):
    with open(cli.model("compass_gait.toml")) as f:
        text = f.read()
    bad = text.replace('relabel = ["th1 = th2", "th2 = th1"]', 'relabel = ["th1 = th2"]')
    line = next(i for i, s in enumerate(bad.splitlines(), 1) if s.startswith("relabel"))
    path = os.path.join(cli.work, "half_swap.toml")
    with open(path, "w") as f:
        f.write(bad)
    code, stdout, stderr = cli.run("run", path, "--out", os.path.join(cli.work, "never"))
    expect_exit(code, 1, stdout, stderr, "a relabel that moves one leg only")
    expect(f"half_swap.toml:{line}:" in stderr and "contact 'swing'" in stderr and
           "relabel" in stderr, "file, line, contact", stderr)
    expect(not os.path.exists(os.path.join(cli.work, "never")), "nothing written")
    # A `when` that is not a condition: at its line.
    bad = text.replace('when = "th2 > th1"', 'when = "th2 - th1"')
    path = os.path.join(cli.work, "bad_when.toml")
    with open(path, "w") as f:
        f.write(bad)
    code, stdout, stderr = cli.run("check", path)
    expect_exit(code, 1, stdout, stderr, "a when that is no condition")
    expect("bad_when.toml:" in stderr and "not a condition" in stderr, "named", stderr)


if __name__ == "__main__":
    main(CASES, "cli_compass_gait_test.py")
