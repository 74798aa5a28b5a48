#!/usr/bin/env python3
"""End-to-end tests of the worked example of docs/ANALYSIS.md: the simplest passive walker
(models/passive_walker.toml, one guard with a jump set) runs, `saltus orbit` finds its gait from a
start off the section with its Floquet multipliers, continuation in the slope gamma locates the
period doubling, and `saltus bifurcation` shows the period-1 and period-2 gaits.

Usage: cli_passive_walker_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt; run by /usr/bin/python3, which has SciPy). Expected values come from
passive_walker_oracle.py, an independent SciPy computation of the same walker.
"""
import os

import numpy as np

import passive_walker_oracle as oracle
from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


GAMMA = 0.009  # the model file's slope
SECTION = ["--section", "theta=0,-", "--min-time", "1"]  # mid-stance: the stance leg upright
STATES = ("theta", "phi", "dtheta", "dphi")
# The orbits are closed to --tol 1e-9 of the default (1e-9 (1 + max|x|)) and integrated at the
# model's rtol 1e-12: 1e-8 leaves a margin of 10 over the closing tolerance.
CLOSE = 1e-8


@case
def walker_strikes_only_ahead_of_the_stance_foot(cli):
    out = os.path.join(cli.work, "run")
    code, stdout, stderr = cli.run("run", cli.model("passive_walker.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "saltus run")
    events = read_csv(os.path.join(out, "events.csv"))
    # About ten steps of 3.88 in t_end = 40; each a strike on phi = 2 theta with theta < 0: the
    # crossing beside the scuff (theta ~ 0.014 > 0) and the transition's landing on the surface
    # (theta > 0) are not events.
    expect(len(events) == 10, "ten strikes", len(events))
    for e in events:
        th, ph = float(e["theta_before"]), float(e["phi_before"])
        expect(e["guard"] == "heel_strike" and th < -0.1 and abs(ph - 2 * th) < 1e-9, "strike",
               e)
        expect(abs(float(e["theta_after"]) + th) < 1e-15, "theta+ = -theta-", e)


@case
def walker_gait_from_a_start_off_the_section(cli):
    out = os.path.join(cli.work, "gait")
    code, stdout, stderr = cli.run("orbit", cli.model("passive_walker.toml"), *SECTION,
                                   "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "saltus orbit")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "converged" and o["start"]["moved"], "converged from off the section",
           o)
    z, step, jac = oracle.gait(GAMMA)
    mid = oracle.mid_stance(z, GAMMA)
    for name, value in zip(STATES, mid):
        expect(abs(o["state"][name] - value) < CLOSE, name, o["state"], mid)
    expect(abs(o["return_time"] - step) < CLOSE, "step time", o["return_time"], step)
    expect(o["resets_per_period"] == 1 and o["stable"] is True, "one strike, stable", o)
    # The section map's multipliers: the step map's pair (the same nonzero eigenvalues on any
    # section), a 0 for the trivial 1, and a 0 because the transition forgets phi'.
    got = sorted((complex(m["re"], m["im"]) for m in o["multipliers"]), key=abs)
    want = sorted(np.linalg.eigvals(jac), key=lambda m: m.imag)
    expect(len(got) == 4 and abs(got[0]) < CLOSE and abs(got[1]) < CLOSE, "two zeros", got)
    pair = sorted(got[2:], key=lambda m: m.imag)
    expect(all(abs(a - b) < CLOSE for a, b in zip(pair, want)), "multipliers", pair, want)


@case
def walker_min_time_is_stated_and_a_two_step_map_is_named(cli):
    # Issue 46 item 4: without --min-time the section map waits half-way between the heel strike
    # (the jump that leaves the section theta = 0 falling: theta from - to +) and the next
    # mid-stance, and says so; a --min-time beyond one step solves the two-step map, which the
    # period line now names (it was printed as "converged" with squared multipliers).
    z, step, jac = oracle.gait(GAMMA)
    mid = oracle.mid_stance(z, GAMMA)
    out = os.path.join(cli.work, "default")
    code, stdout, stderr = cli.run("orbit", cli.model("passive_walker.toml"), "--section",
                                   "theta=0,-", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "saltus orbit without --min-time")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "converged", "converged", o)
    expect(abs(o["return_time"] - step) < CLOSE, "one step", o["return_time"], step)
    for name, value in zip(STATES, mid):
        expect(abs(o["state"][name] - value) < CLOSE, name, o["state"], mid)
    mt = o["min_time"]
    expect(mt["from"] == "the start's first return" and 0 < mt["value"] < o["return_time"],
           "min_time stated", mt)
    expect(mt["t_start"] < mt["t_leave"] < mt["t_return"] and
           abs(mt["value"] - ((mt["t_leave"] + mt["t_return"]) / 2 - mt["t_start"])) < 1e-12,
           "half-way", mt)
    # The guess (off the gait) is left by its strike and back at mid-stance about a step later.
    expect(abs(mt["t_return"] - mt["t_start"] - step) < 0.05 * step and
           0.25 * step < mt["t_leave"] - mt["t_start"] < 0.75 * step, "the guess's own step", mt,
           step)
    expect("min-time   " in stdout and "half-way between leaving the section" in stdout,
           "stdout states min-time", stdout)
    expect("1 reset, 1 crossing of the section\n" in stdout, "period line", stdout)
    expect(o["section_crossings_before_return"] == 0, "first return", o)
    # --min-time 5 (one step is 3.88): the two-step map, named as such.
    out2 = os.path.join(cli.work, "two")
    code, stdout, stderr = cli.run("orbit", cli.model("passive_walker.toml"), "--section",
                                   "theta=0,-", "--min-time", "5", "--out", out2, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "saltus orbit --min-time 5")
    o2 = read_json(out2, "orbit.json")
    expect(abs(o2["return_time"] - 2 * step) < 2 * CLOSE, "two steps", o2["return_time"], step)
    expect(o2["resets_per_period"] == 2 and o2["section_crossings_before_return"] == 1,
           "two strikes, one skipped return", o2)
    expect(o2["min_time"] == {"value": 5, "from": "--min-time"}, "min_time given", o2["min_time"])
    expect("2 resets, 2 crossings of the section: the orbit returns to the section 2 times" in
           stdout, "stdout names the two-step map", stdout)
    # Its multipliers are the squares of the step map's.
    pair = sorted((complex(m["re"], m["im"]) for m in o2["multipliers"]), key=abs)[2:]
    want = [m * m for m in np.linalg.eigvals(jac)]
    expect(all(min(abs(a - b) for b in want) < 10 * CLOSE for a in pair), "squared", pair, want)


@case
def walker_diagram_says_how_each_run_ended(cli):
    # Issue 46 item 6: at a slope of 0.05 the walker falls over (no gait; its stance angle winds
    # on). The value's row says how the run ended and where it was, not only "0 of 4 points";
    # every row carries the run's status.
    out = os.path.join(cli.work, "fell")
    code, stdout, stderr = cli.run("bifurcation", cli.model("passive_walker.toml"), "--vary",
                                   "gamma=0.009:0.05:2", "--section", "theta=0,-", "--discard",
                                   "4", "--keep", "4", "--out", out, "--no-plot")
    expect_exit(code, 2, stdout, stderr, "a value without points")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    gait = [r for r in rows if abs(float(r["parameter"]) - 0.009) < 1e-12]
    fell = [r for r in rows if abs(float(r["parameter"]) - 0.05) < 1e-12]
    expect(len(gait) == 4 and all(r["status"] == "ok" and r["run"] == "terminal-event"
                                  for r in gait), "the gait's rows", gait)
    expect(len(fell) == 1 and fell[0]["point"] == "-1" and fell[0]["run"] == "end-time-reached",
           "the fall's row", fell)
    why = fell[0]["status"]
    expect("only 0 of 4 section points (after 4 discarded;" in why and
           "the run ended end-time-reached at t = " in why and "in mode 'stance' at x = (" in why,
           "says how and where the run ended", why)
    theta = float(why.split("at x = (")[1].split(";")[0])
    expect(abs(theta) > 10, "the stance angle wound on: the walker fell", theta)
    expect("gamma = 0.05: only 0 of 4" in stderr, "stderr names the value", stderr)


@case
def walker_continuation_in_the_slope_passes_the_period_doubling(cli):
    # The arclength step grows until the last step, which leaves [0.009, 0.016], jumps over the
    # doubling: that step is searched too. --max-step 0.003 gives a denser branch.
    gamma_pd = oracle.doubling_slope(0.0145, 0.0155)
    for extra in ([], ["--max-step", "0.003"]):
        out = os.path.join(cli.work, "branch")
        code, stdout, stderr = cli.run("orbit", cli.model("passive_walker.toml"), *SECTION,
                                       "--continue", "gamma=0.009:0.016", *extra, "--out", out,
                                       "--no-plot", timeout=600)
        expect_exit(code, 0, stdout, stderr, "saltus orbit --continue gamma " + " ".join(extra))
        o = read_json(out, "orbit.json")
        pd = [b for b in o["bifurcations"] if b["kind"] == "period doubling"]
        expect(len(pd) == 1, "one period doubling", extra, o["bifurcations"])
        print(f"period doubling {extra}: saltus {pd[0]['parameter']!r}, SciPy {gamma_pd!r}, "
              f"difference {pd[0]['parameter'] - gamma_pd:.3g}")
        expect(abs(pd[0]["parameter"] - gamma_pd) < 1e-8, "doubling slope", pd[0], gamma_pd)
        expect("left [0.009, 0.016]" in o["stop_reason"], "to the end of the range", o)
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) >= 10, "branch points", len(rows))
    for r in rows:
        gamma = float(r["parameter"])
        expect((r["stable"] == "1") == (gamma < gamma_pd), "stable before the doubling only", r)


@case
def walker_bifurcation_diagram_shows_period_one_then_two(cli):
    # Below the doubling every point is the gait's mid-stance state; past it the points
    # alternate between two states, a period-2 gait. The slope grows in steps of 0.0005, each
    # value started from the last gait (from the period-1 gait of 0.012 the walker falls at
    # 0.0165 within three steps).
    out = os.path.join(cli.work, "diagram")
    code, stdout, stderr = cli.run("bifurcation", cli.model("passive_walker.toml"), "--vary",
                                   "gamma=0.012:0.0165:10", *SECTION[:2], "--discard", "200",
                                   "--keep", "4", "--out", out, "--no-plot", timeout=600)
    expect_exit(code, 0, stdout, stderr, "saltus bifurcation")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    low = [r for r in rows if float(r["parameter"]) == 0.012]
    expect(all(r["status"] == "ok" for r in rows) and len(rows) == 40, "every value", rows)
    mid = oracle.mid_stance(oracle.gait(0.012)[0], 0.012)
    expect(len(low) == 4, "four points at 0.012", low)
    for r in low:
        expect(all(abs(float(r[n]) - v) < 1e-7 for n, v in zip(STATES, mid)), "period 1", r, mid)
    high = [float(r["dtheta"]) for r in rows if abs(float(r["parameter"]) - 0.0165) < 1e-12]
    expect(len(high) == 4 and abs(high[0] - high[2]) < 1e-7 and abs(high[1] - high[3]) < 1e-7
           and abs(high[0] - high[1]) > 1e-3, "period 2", high)
    # The period-2 gait of the SciPy step map (iterated from the period-1 gait at 0.012, as the
    # diagram's run is): its two mid-stance speeds.
    z = oracle.gait(0.012)[0]
    for _ in range(200):
        z = oracle.step(z[0], z[1], 0.0165)[0]
    two = []
    for _ in range(2):
        z = oracle.step(z[0], z[1], 0.0165)[0]
        two.append(oracle.mid_stance(z, 0.0165)[2])
    expect(abs(min(high) - min(two)) < 1e-7 and abs(max(high) - max(two)) < 1e-7,
           "the period-2 gait", high, two)


if __name__ == "__main__":
    main(CASES, "cli_passive_walker_test.py")
