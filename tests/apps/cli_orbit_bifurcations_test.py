#!/usr/bin/env python3
"""End-to-end tests of `saltus orbit`'s Neimark-Sacker detection, period-doubling branch
switching (--switch-at-pd), orbits of modes with algebraic states, the vibrating table's fold and
doubling (and their curves in two parameters) and continued parameters that others are computed
from. The woodpecker toy's orbits: cli_woodpecker_test.py.

Usage: cli_orbit_bifurcations_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt); the helpers are those of cli_test.py and cli_analysis_test.py.
"""
import cmath
import math
import os
import random

from cli_analysis_test import T, closed_form, doubling_sigma, read_json
from cli_test import expect, expect_exit, has_matplotlib, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def orbit_reports_neimark_sacker_of_the_forced_damped_oscillator(cli):
    # models/forced_damped_oscillator.toml (a = 1, w = 2.5): the time-T map's multipliers
    # exp((-c/2 +- i sqrt(1 - c^2/4)) T) cross the unit circle at c = 0 with the angle T
    # (T < pi here); the response is x = Re(Z e^{i w t}), Z = a / (1 - w^2 + i c w).
    out = os.path.join(cli.work, "ns")
    code, stdout, stderr = cli.run("orbit", cli.model("forced_damped_oscillator.toml"),
                                   "--period", repr(T), "--continue", "c=0.4:-0.4", "--out", out)
    expect_exit(code, 0, stdout, stderr, "orbit --continue c")
    o = read_json(out, "orbit.json")
    kinds = [b["kind"] for b in o["bifurcations"]]
    expect(kinds == ["Neimark-Sacker"], "bifurcations", kinds)
    ns = o["bifurcations"][0]
    expect(abs(ns["parameter"]) < 1e-9 and abs(ns["angle"] - T) < 1e-9, "located", ns)
    expect(all(abs(m["abs"] - 1) < 1e-9 for m in ns["multipliers"]), "on the circle", ns)
    expect("Neimark-Sacker at " in stdout, "printed", stdout)
    rows = read_csv(os.path.join(out, "bifurcations.csv"))
    expect(len(rows) == 1 and rows[0]["kind"] == "Neimark-Sacker", "bifurcations.csv", rows)
    expect(abs(float(rows[0]["angle"]) - T) < 1e-9, "angle column", rows[0])
    branch = read_csv(os.path.join(out, "branch.csv"))
    expect(len(branch) >= 10, "branch points", len(branch))
    for r in branch:
        c = float(r["c"])
        z = 1 / complex(1 - 2.5 ** 2, 2.5 * c)
        expect(abs(float(r["x"]) - z.real) < 1e-9 and abs(float(r["v"]) + 2.5 * z.imag) < 1e-9,
               "branch point", r)
        modulus = abs(cmath.exp(complex(-c / 2, math.sqrt(1 - c * c / 4)) * T))
        expect(abs(float(r["largest_multiplier"]) - modulus) < 1e-9, "modulus", r)
        expect((r["stable"] == "1") == (c > 0), "stability", r)
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "branch.png")), "branch.png")


@case
def orbit_switches_to_the_period_two_branch(cli):
    # models/impact_oscillator.toml: the period-2 branch from the doubling at sigma_pd, both
    # points of each orbit in period2.csv (x and next_x = P(x)); against a brute-force run.
    out = os.path.join(cli.work, "pd")
    sigma_pd = doubling_sigma()
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--continue", "sigma=0:0.12", "--switch-at-pd",
                                   "--out", out)
    expect_exit(code, 0, stdout, stderr, "orbit --switch-at-pd")
    o = read_json(out, "orbit.json")
    p2 = o["period_2"]
    expect(p2["status"] == "continued" and abs(p2["at"] - sigma_pd) < 1e-7, "period_2", p2)
    rows = read_csv(os.path.join(out, "period2.csv"))
    expect(len(rows) == p2["points"] and len(rows) >= 10, "period2.csv rows", len(rows))
    (x_pd, v_pd), _, _ = closed_form(sigma_pd)
    at_pd = [r for r in rows if abs(float(r["sigma"]) - sigma_pd) < 1e-9]
    expect(len(at_pd) == 1, "the curve passes the doubling once", at_pd)
    expect(abs(float(at_pd[0]["x"]) - x_pd) < 1e-7 and abs(float(at_pd[0]["v"]) - v_pd) < 1e-7,
           "it meets the period-1 branch there", at_pd[0], (x_pd, v_pd))
    for r in rows:
        expect(float(r["sigma"]) > sigma_pd - 1e-9 and r["resets"] == "2", "side, impacts", r)
        if r is not at_pd[0]:
            expect(abs(float(r["x"]) - float(r["next_x"])) > 1e-4, "two distinct points", r)
    # The period-2 orbit doubles again (period 4) at the same sigma seen from either point.
    again = [b["parameter"] for b in p2["bifurcations"] if b["kind"] == "period doubling"]
    expect(len(again) == 2 and abs(again[0] - again[1]) < 1e-9 and again[0] > sigma_pd,
           "period 4", p2["bifurcations"])
    for b in p2["bifurcations"]:  # between the rows it is reported after
        k = b["after_point"]
        lo, hi = sorted([float(rows[k]["sigma"]), float(rows[k + 1]["sigma"])])
        expect(lo <= b["parameter"] <= hi, "after_point", b, rows[k], rows[k + 1])
    # The stable branch value nearest 1.05 sigma_pd against the attractor of a long run from
    # the model's initial state (further on, near the period-4 doubling, that run ends on
    # another, irregular attractor).
    past = [r for r in rows
            if 1.02 * sigma_pd < float(r["sigma"]) < 1.1 * sigma_pd and r["stable"] == "1"]
    expect(past, "a stable point in (1.02, 1.1) sigma_pd", rows)
    r = min(past, key=lambda r: abs(float(r["sigma"]) - 1.05 * sigma_pd))
    diagram = os.path.join(cli.work, "pd_diagram")
    code, stdout, stderr = cli.run("bifurcation", cli.model("impact_oscillator.toml"), "--vary",
                                   "sigma=%s:%s:1" % (r["sigma"], r["sigma"]), "--period", repr(T),
                                   "--discard", "400", "--keep", "2", "--out", diagram,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "bifurcation at the branch point")
    xs = sorted(float(d["x"]) for d in read_csv(os.path.join(diagram, "bifurcation.csv")))
    ours = sorted([float(r["x"]), float(r["next_x"])])
    expect(abs(xs[0] - ours[0]) < 1e-7 and abs(xs[1] - ours[1]) < 1e-7, "brute force", xs, ours)
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "branch.png")), "branch.png")
    # Without a doubling on the branch: exit 2 and the reason.
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--continue", "sigma=0:0.05", "--switch-at-pd",
                                   "--out", out, "--no-plot")
    expect_exit(code, 2, stdout, stderr, "no doubling to switch at")
    expect("no period doubling on the branch" in stderr, "says why", stderr)
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--switch-at-pd", "--out", out)
    expect_exit(code, 1, stdout, stderr, "--switch-at-pd without --continue")
    expect("give --continue" in stderr, "says why", stderr)


@case
def orbit_of_a_dae_mode(cli):
    # models/impact_oscillator_dae.toml: the impact oscillator with its acceleration z as an
    # algebraic state. With c = 0 it is the same system: the closed-form orbit, det M = e^2, and
    # along sigma the same doubling and grazing. With c = 0.1, z jumps at each impact (it
    # depends on v) and det M = e^2 exp(-c T) (det S = e^2 at each impact, exp of the integral of
    # the divergence -c on the arcs).
    out = os.path.join(cli.work, "dae")
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator_dae.toml"), "--period",
                                   repr(T), "--set", "x=-0.7", "--set", "v=0.1", "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "orbit of a DAE mode")
    o = read_json(out, "orbit.json")
    (x, v), _, _ = closed_form(0.0)
    expect(o["status"] == "converged" and o["resets_per_period"] == 1, "status", o)
    expect(abs(o["state"]["x"] - x) < 1e-8 and abs(o["state"]["v"] - v) < 1e-8, "orbit", o, x, v)
    moduli = [m["abs"] for m in o["multipliers"]]
    expect(len(moduli) == 2 and all(abs(m - 0.8) < 1e-7 for m in moduli), "multipliers", moduli)
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator_dae.toml"), "--period",
                                   repr(T), "--continue", "sigma=0:0.3", "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "continuation of a DAE mode")
    o = read_json(out, "orbit.json")
    kinds = [b["kind"] for b in o["bifurcations"]]
    expect(kinds == ["period doubling", "grazing"], "bifurcations", kinds)
    expect(abs(o["bifurcations"][0]["parameter"] - doubling_sigma()) < 1e-7, "doubling",
           o["bifurcations"][0])
    expect(abs(o["bifurcations"][1]["parameter"] - 1 / (2.5 ** 2 - 1)) < 1e-5, "grazing",
           o["bifurcations"][1])
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator_dae.toml"), "--period",
                                   repr(T), "--set", "c=0.1", "--set", "x=-0.7", "--set",
                                   "v=0.1", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "orbit of the damped DAE mode")
    o = read_json(out, "orbit.json")
    det = o["multipliers"][0]["abs"] * o["multipliers"][1]["abs"]
    expect(o["status"] == "converged" and abs(det - 0.64 * math.exp(-0.1 * T)) < 1e-8, "det M",
           det, o["multipliers"])


# x relaxes to s (x' = s - x: the orbit of every period is x = s) while s <= 0.5; beyond, the
# flow is NaN (min(sqrt(0.5 - s), 0) is 0 below the cliff), so no map and no orbit exist there.
# switching = "smooth": the min() is kept in the flow as written (as a switch, its surface
# sqrt(0.5 - s) = 0 would be a guard that is NaN beyond the cliff: the same failure, named so).
CLIFF = """[model]
name = "cliff"

[states]
x = 0.0
s = 0.0

[modes.only]
flow = ["x' = s - x + min(sqrt(0.5 - s), 0)", "s' = 0"]

[solver]
t_end = 1.0
integrator = "dop853"
rtol = 1e-10
atol = 1e-12
switching = "smooth"
"""


def table_orbit(A, w, e, g, t_origin, t):
    """The vibrating table's period-1 orbits at instant t [derived]: one impact per period
    T = 2 pi / w at table phase phi, v+ = g T / 2 after it (a flight of T returns to the same
    table height), so (1 + e) A w cos(phi) = (1 - e) g T / 2. Both roots phi = +-acos(.),
    each as (y, v) at t: the flight since the last impact."""
    T = 2 * math.pi / w
    c = (1 - e) * g * T / 2 / ((1 + e) * A * w)
    out = []
    for phi in (math.acos(c), 2 * math.pi - math.acos(c)):
        s = math.fmod(t - t_origin - phi / w, T)
        s = s + T if s < 0 else s
        out.append((A * math.sin(phi) + g * T / 2 * s - g * s * s / 2, g * T / 2 - g * s))
    return out


@case
def orbit_finds_the_vibrating_tables_fold_from_the_files_instant(cli):
    # Issue 46: the ball on a vibrating table (models/vibrating_table.toml). Its period-1 orbit
    # exists for A >= A_fold = (1 - e) pi g / ((1 + e) w^2) [derived, table_orbit], where the
    # impact sits at the table's phase 0, the file's stroboscopic instant; it doubles where the
    # trace of the monodromy 1 + e^2 - (1 + e)^2 A w^2 sin(phi) / g is -(1 + e^2). Continued down
    # in A from the file's instant the branch stopped at the fold ("the initial state is on the
    # trigger side"); the map is now re-timed between the impacts. Random tables, one at
    # t = 1e6 (the table's phase origin and the run's start moved together), one in
    # milliseconds (w in rad/ms, g in m/ms^2: the same A at the fold and the doubling).
    rng = random.Random(46)
    for k in range(5):
        e = rng.uniform(0.3, 0.9)
        ms = 1000.0 if k == 4 else 1.0  # time unit: seconds, or milliseconds
        w = rng.uniform(math.pi, 4 * math.pi) / ms
        g = 9.81 / ms ** 2
        t_origin = 1e6 if k == 3 else 0.0
        fold = (1 - e) * math.pi * g / ((1 + e) * w * w)
        pd = g / ((1 + e) * w * w) * math.sqrt(4 * (1 + e * e) ** 2 / (1 + e) ** 2 +
                                               (math.pi * (1 - e)) ** 2)
        a_start = 1.05 * pd
        y0, v0 = table_orbit(a_start, w, e, g, t_origin, t_origin)[0]
        out = os.path.join(cli.work, "table%d" % k)
        sets = ["A=%r" % a_start, "e=%r" % e, "w=%r" % w, "y0=%r" % y0, "v0=%r" % v0,
                "g=%r" % g, "t0=%r" % t_origin, "initial.t=%r" % t_origin,
                "solver.t_end=%r" % (t_origin + 20 * ms),
                "output.sample_interval=%r" % (0.001 * ms)]
        args = ["orbit", cli.model("vibrating_table.toml"), "--period", repr(2 * math.pi / w),
                "--continue", "A=%r:%r" % (a_start, 0.8 * fold), "--out", out, "--no-plot"]
        for item in sets:
            args += ["--set", item]
        code, stdout, stderr = cli.run(*args)
        what = "table e = %.3f, w = %.3g, t0 = %g, time unit %g s" % (e, w, t_origin, 1 / ms)
        expect_exit(code, 0, stdout, stderr, what)
        o = read_json(out, "orbit.json")
        kinds = [b["kind"] for b in o["bifurcations"]]
        expect(kinds == ["period doubling", "fold"], what + ": bifurcations", kinds)
        tol = 1e-9 * (1 + 1e3 * (t_origin > 0))  # the clock's resolution at 1e6 s
        expect(abs(o["bifurcations"][0]["parameter"] - pd) < tol, what + ": doubling",
               o["bifurcations"][0]["parameter"] - pd)
        expect(abs(o["bifurcations"][1]["parameter"] - fold) < 1e-9, what + ": fold",
               o["bifurcations"][1]["parameter"] - fold)
        expect(o["rephasings"] >= 1 and "instant    moved" in stdout, what + ": re-timed", stdout)
        rows = read_csv(os.path.join(out, "branch.csv"))
        expect(len(rows) >= 20, what + ": points", len(rows))
        worst = 0.0
        for r in rows:
            t = float(r["t_state"])
            expect(t_origin <= t < t_origin + 2 * math.pi / w, what + ": instant", r)
            exact = table_orbit(float(r["A"]), w, e, g, t_origin, t)
            worst = max(worst, min(max(abs(float(r["y"]) - y), abs(float(r["v"]) - v))
                                   for y, v in exact))
        expect(worst < 1e-7 * (1 + 1e3 * (t_origin > 0)), what + ": branch points", worst)


def table_fold_and_doubling(w, e, g):
    """A at the vibrating table's fold and period doubling [derived, table_orbit and the case
    above]: the fold where cos(phi) = 1, the doubling where tr M = -(1 + e^2)."""
    fold = (1 - e) * math.pi * g / ((1 + e) * w * w)
    pd = g / ((1 + e) * w * w) * math.sqrt(4 * (1 + e * e) ** 2 / (1 + e) ** 2 +
                                           (math.pi * (1 - e)) ** 2)
    return fold, pd


@case
def orbit_traces_the_tables_fold_and_doubling_curves_in_A_and_e(cli):
    # Issue 46 item 3: the branch in A finds the doubling and the fold; --curve e=0.3:0.9 follows
    # each in the (A, e) plane. Every curve point (at least 20 per curve, e from 0.3 to 0.9
    # exactly) against A_fold(e) and A_pd(e), and its state against the closed-form orbit at its
    # instant (the fold curve keeps its impact at the table's phase 0, so it is followed at a
    # re-timed instant). A random table in seconds, one in milliseconds and one at t = 1e6.
    rng = random.Random(463)
    for k in range(3):
        e0 = rng.uniform(0.45, 0.75)
        ms = 1000.0 if k == 1 else 1.0
        w = rng.uniform(math.pi, 4 * math.pi) / ms
        g = 9.81 / ms ** 2
        t_origin = 1e6 if k == 2 else 0.0
        fold0, pd0 = table_fold_and_doubling(w, e0, g)
        a_start = 1.05 * pd0
        y0, v0 = table_orbit(a_start, w, e0, g, t_origin, t_origin)[0]
        out = os.path.join(cli.work, "curves%d" % k)
        args = ["orbit", cli.model("vibrating_table.toml"), "--period", repr(2 * math.pi / w),
                "--continue", "A=%r:%r" % (a_start, 0.8 * fold0), "--curve", "e=0.3:0.9",
                "--max-step", "0.02",
                "--out", out] + ([] if k == 0 and has_matplotlib() else ["--no-plot"])
        for item in ["A=%r" % a_start, "e=%r" % e0, "w=%r" % w, "y0=%r" % y0, "v0=%r" % v0,
                     "g=%r" % g, "t0=%r" % t_origin, "initial.t=%r" % t_origin,
                     "solver.t_end=%r" % (t_origin + 20 * ms),
                     "output.sample_interval=%r" % (0.001 * ms)]:
            args += ["--set", item]
        code, stdout, stderr = cli.run(*args)
        what = "table e = %.3f, w = %.3g, t0 = %g, time unit %g s" % (e0, w, t_origin, 1 / ms)
        expect_exit(code, 0, stdout, stderr, what)
        o = read_json(out, "orbit.json")
        expect(o["curve_parameters"] == ["A", "e"], what + ": curve parameters", o)
        kinds = [c["kind"] for c in o["curves"]]
        expect(kinds == ["period doubling", "fold"], what + ": curves", kinds)
        # e is loaded as a state the map keeps: its trivial multiplier 1 is no multiplier of
        # the orbit (else no point would be stable); between the fold and the doubling the
        # orbit is stable.
        branch = read_csv(os.path.join(out, "branch.csv"))
        expect("multiplier1_re" in branch[0] and "multiplier2_re" not in branch[0],
               what + ": two multipliers", list(branch[0]))
        stable = [float(r["A"]) for r in branch if r["stable"] == "1"]
        expect(stable and min(stable) > fold0 - 1e-9 and max(stable) < pd0 + 1e-9,
               what + ": stable between the fold and the doubling", (stable, fold0, pd0))
        rows = read_csv(os.path.join(out, "curves.csv"))
        tol = 1e-9  # the corrector's tolerance (measured 4e-15; 9e-12 at t = 1e6)
        for index, entry in enumerate(o["curves"]):
            expect(entry["status"] == "continued", what + ": " + entry["kind"], entry)
            pts = [r for r in rows if int(r["curve"]) == index]
            expect(len(pts) >= 20 and len(pts) == entry["points"], what + ": points", len(pts))
            es = [float(r["e"]) for r in pts]
            expect(abs(es[0] - 0.3) < 1e-12 and abs(es[-1] - 0.9) < 1e-12,
                   what + ": e from 0.3 to 0.9", (es[0], es[-1]))
            worst_a = worst_state = 0.0
            for r in pts:
                e, a = float(r["e"]), float(r["A"])
                fold, pd = table_fold_and_doubling(w, e, g)
                worst_a = max(worst_a, abs(a - (fold if entry["kind"] == "fold" else pd)))
                t = float(r["t_state"])
                exact = table_orbit(a, w, e, g, t_origin, t) if entry["kind"] != "fold" else \
                    table_orbit(fold * (1 + 1e-15), w, e, g, t_origin, t)
                worst_state = max(worst_state, min(max(abs(float(r["y"]) - y),
                                                       abs(float(r["v"]) - v) * ms)
                                                   for y, v in exact))
            expect(worst_a < tol, what + ": " + entry["kind"] + " curve A(e)", worst_a)
            expect(worst_state < 1e-6 * (1 + 1e3 * (t_origin > 0)),
                   what + ": " + entry["kind"] + " curve states", worst_state)
        if k == 0 and has_matplotlib():
            expect(os.path.getsize(os.path.join(out, "curves.png")) > 1000, "curves.png", out)


@case
def orbit_curve_bad_input_is_refused(cli):
    # --curve without --continue, on the continued parameter itself, with a range that leaves
    # out the file's value, on an unknown name, on a model that keeps its parameters at run
    # time: exit 1, naming the cause, nothing run.
    table = cli.model("vibrating_table.toml")
    cases = [
        (["--curve", "e=0.3:0.9"], "give --continue too"),
        (["--continue", "A=0.5:0.4", "--curve", "A=0.3:0.9"], "is the continued parameter"),
        (["--continue", "A=0.5:0.4", "--curve", "e=0.8:0.9"], "outside e=0.8:0.9"),
        (["--continue", "A=0.5:0.4", "--curve", "nope=0.8:0.9"], "nope"),
    ]
    for extra, why in cases:
        out = os.path.join(cli.work, "bad_curve")
        code, stdout, stderr = cli.run("orbit", table, "--period", "1", "--out", out,
                                       "--no-plot", *extra)
        expect_exit(code, 1, stdout, stderr, " ".join(extra))
        expect(why in stderr, "says why: " + why, stderr)
        expect(not os.path.exists(os.path.join(out, "orbit.json")), "nothing written", out)
    code, stdout, stderr = cli.run("orbit", cli.model("rocking_block.toml"), "--period", "1",
                                   "--continue", "e=0.5:0.4", "--curve", "mu=0.1:0.9",
                                   "--out", os.path.join(cli.work, "bad_curve"), "--no-plot")
    expect_exit(code, 1, stdout, stderr, "--curve on a mechanics model")
    expect("needs a model with [modes]" in stderr, "says why", stderr)


FORCED_IN_HERTZ = """
[model]
name = "forced_in_hertz"
[parameters]
f = 0.5
c = 0.1
w = "2*pi*f"
w2 = "w^2"
[states]
x = %s
v = 0.0
[modes.m]
flow = ["x' = v", "v' = -w2*x - c*v + cos(t)"]
[solver]
t_end = 10.0
rtol = 1e-12
atol = 1e-14
"""


@case
def orbit_continues_a_parameter_others_are_computed_from(cli):
    # Issue 47: x'' + c x' + w^2 x = cos(t) with w = 2 pi f written as the user would; --continue
    # f used to be refused ("parameter 'w' is computed from 'f', whose sensitivity is asked
    # for"). w and w2 now follow f; every branch point is the closed-form response at t = 0,
    # x = (w^2 - 1) / D, v = c / D, D = (w^2 - 1)^2 + c^2. An initial value computed from f is
    # refused naming the state and the parameter.
    model = os.path.join(cli.work, "forced_in_hertz.toml")
    with open(model, "w") as fh:
        fh.write(FORCED_IN_HERTZ % "0.1")
    out = os.path.join(cli.work, "hertz")
    code, stdout, stderr = cli.run("orbit", model, "--period", repr(2 * math.pi), "--continue",
                                   "f=0.5:0.7", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "--continue f")
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) >= 5 and abs(float(rows[-1]["f"]) - 0.7) < 0.05, "points", len(rows))
    worst = 0.0
    for r in rows:
        w2 = (2 * math.pi * float(r["f"])) ** 2
        d = (w2 - 1) ** 2 + 0.01
        worst = max(worst, abs(float(r["x"]) - (w2 - 1) / d), abs(float(r["v"]) - 0.1 / d))
    expect(worst < 1e-8, "every point against the closed form", worst)
    with open(model, "w") as fh:
        fh.write(FORCED_IN_HERTZ % '"0.1/w"')
    code, stdout, stderr = cli.run("orbit", model, "--period", repr(2 * math.pi), "--continue",
                                   "f=0.5:0.7", "--out", os.path.join(cli.work, "hertz_bad"),
                                   "--no-plot")
    expect_exit(code, 1, stdout, stderr, "an initial value computed from f")
    expect("state 'x' starts at an expression of 'w'" in stderr and
           "saltus orbit --continue" in stderr, "says why", stderr)


@case
def orbit_continuation_whose_corrector_fails_is_partial(cli):
    # Issue 34: a continuation that cannot go on before the end of its range is exit 2 with
    # status "corrector failed" and where it failed; the points found stay in branch.csv.
    model = os.path.join(cli.work, "cliff.toml")
    with open(model, "w") as f:
        f.write(CLIFF)
    out = os.path.join(cli.work, "cliff")
    code, stdout, stderr = cli.run("orbit", model, "--period", "1", "--continue", "s=0:1",
                                   "--out", out, "--no-plot")
    expect_exit(code, 2, stdout, stderr, "a continuation stopped by a failing corrector")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "corrector failed" and o["partial"] is True, "status", o)
    f = o["failure"]
    expect(0.5 - 1e-6 < f["parameter"] <= 0.5 and 0 < f["step"] <= 1e-7, "where", f)
    expect(f["residual"] is None and f["iterations"] == 0 and
           "the flow of mode 'only' produced NaN" in f["message"], "why", f)
    expect("the corrector failed after parameter" in o["stop_reason"] and
           "partial" in o["stop_reason"], "stop_reason", o["stop_reason"])
    expect("continuation failed: the corrector failed after parameter 0.4999" in stderr,
           "stderr names the failure", stderr)
    expect("points (partial)" in stdout, "stdout labels the branch", stdout)
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) == o["points"] and len(rows) >= 10, "branch.csv keeps the points", len(rows))
    expect(all(abs(float(r["x"]) - float(r["s"])) < 1e-8 and float(r["s"]) <= 0.5 for r in rows),
           "branch points", rows[-1])
    expect(float(rows[-1]["s"]) == f["parameter"], "the last point is where it failed", rows[-1])
    # Kept below the cliff, the same continuation is complete: exit 0, status "continued".
    code, stdout, stderr = cli.run("orbit", model, "--period", "1", "--continue", "s=0:0.4",
                                   "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "a continuation kept below the cliff")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "continued" and o["partial"] is False and "failure" not in o, "status",
           o)


if __name__ == "__main__":
    main(CASES, "cli_orbit_bifurcations_test.py")
