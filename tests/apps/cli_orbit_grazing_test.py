#!/usr/bin/env python3
"""End-to-end tests of `saltus orbit`'s grazing: the grazing parameter located to the orbits'
accuracy (src/analysis/grazing_point.cpp) and Nordmark's law past it, on
models/impact_oscillator.toml (x'' + x = A cos(w t) below a stop at sigma, v -> -e v).

The period-1 orbit grazes where the free response P cos(w t), P = A / (1 - w^2), touches the
stop: sigma_g = |P|. Below it the impact speed is V = delta / c + O(delta^2), delta = sigma_g -
sigma, c = (1 + e) cot(T/2) / 2, and the largest multiplier is K / delta + O(1),
K = (1 + e)^2 a (1 + cos T) / 2, a = -w^2 |P| the apex acceleration (derived in
tests/analysis/grazing_point_test.cpp): the multipliers change like 1 / delta, not 1 / sqrt(delta).

Usage: cli_orbit_grazing_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py and cli_analysis_test.py.
"""
import math
import os

from cli_analysis_test import A, E, T, W, closed_form, read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


P = A / (1 - W * W)
SIGMA_G = abs(P)
# `saltus orbit --tol`'s default: each orbit within ~TOL (1 + |x|) of the true one; the located
# parameter inherits it over p(s) of slope <= 1, so 10 TOL (1 + |p|) bounds its error.
TOL = 1e-9


def grazing(cli, name, continue_range, sets):
    out = os.path.join(cli.work, name)
    args = ["orbit", cli.model("impact_oscillator.toml"), "--period", repr(T), "--continue",
            continue_range, "--no-plot", "--out", out]
    for s in sets:
        args += ["--set", s]
    code, stdout, stderr = cli.run(*args)
    # A branch that ends at a grazing point is a complete one (exit 0).
    expect_exit(code, 0, stdout, stderr, "orbit --continue " + continue_range)
    o = read_json(out, "orbit.json")
    expect(o["bifurcations"] and o["bifurcations"][-1]["kind"] == "grazing", "grazing", o)
    b = o["bifurcations"][-1]
    row = read_csv(os.path.join(out, "bifurcations.csv"))[-1]
    expect(row["kind"] == "grazing", "bifurcations.csv", row)
    return b, row, stdout


@case
def orbit_locates_the_grazing_from_both_sides(cli):
    # Up from sigma = 0 on the impacting orbit, down from 0.3 on the free one.
    below, row_below, stdout = grazing(cli, "below", "sigma=0:0.3", [])
    x, v = closed_form(0.0)[0]
    above, row_above, _ = grazing(cli, "above", "sigma=0.3:0",
                                  [f"x={P!r}", "v=0", "sigma=0.3"])
    for b, row, side in ((below, row_below, "impacting side"), (above, row_above, "smooth side")):
        bound = 10 * TOL * (1 + SIGMA_G)
        expect(abs(b["parameter"] - SIGMA_G) <= bound, "located grazing", b, SIGMA_G)
        expect(side in b["message"] and "located from the" in b["message"], "how", b["message"])
        # The located orbit is the free response at t = 0 with the stop at its apex: (P, 0).
        expect(abs(float(row["x"]) - P) <= bound and abs(float(row["v"])) <= bound, "orbit", row)
        expect(float(row["sigma"]) == b["parameter"], "its parameter", row)
    expect("located from the impacting side" in stdout, "printed", stdout)
    # The smooth side's multipliers there: the free oscillation's, exp(+-i T).
    for m in above["multipliers"]:
        expect(abs(m["abs"] - 1) < 1e-9 and abs(abs(math.atan2(m["im"], m["re"])) - T) < 1e-9,
               "free multipliers", above["multipliers"])


@case
def grazing_curves_in_a_second_parameter_are_the_closed_form(cli):
    # --curve continues the branch's grazing in the plane (sigma, Q): every point is located
    # again, from the branch's side, so each is on sigma_g = |A / (1 - w^2)| to the locator's
    # accuracy (10 TOL, as a located grazing): in the forcing amplitude A (a line through 0) from
    # the impacting side and from the smooth side, and in e (sigma_g does not depend on it).
    for name, rng, sets, curve in (
            ("impacting", "sigma=0:0.3", [], "A=0.8:1.2"),
            ("smooth", "sigma=0.3:0", [f"x={P!r}", "v=0", "sigma=0.3"], "A=0.8:1.2"),
            ("restitution", "sigma=0:0.3", [], "e=0.5:0.9")):
        out = os.path.join(cli.work, name)
        args = ["orbit", cli.model("impact_oscillator.toml"), "--period", repr(T), "--continue",
                rng, "--curve", curve, "--no-plot", "--out", out]
        for s in sets:
            args += ["--set", s]
        code, stdout, stderr = cli.run(*args)
        expect_exit(code, 0, stdout, stderr, name + ": orbit --curve " + curve)
        q, lo, hi = curve.split("=")[0], *map(float, curve.split("=")[1].split(":"))
        rows = [r for r in read_csv(os.path.join(out, "curves.csv")) if r["kind"] == "grazing"]
        qs = [float(r[q]) for r in rows]
        expect(len(rows) >= 8 and qs[0] == lo and qs[-1] == hi, name + ": the whole range", qs)
        expect(all(a < b for a, b in zip(qs, qs[1:])), name + ": ordered along q", qs)
        for r in rows:
            a = float(r["A"]) if q == "A" else A
            want = abs(a / (1 - W * W))
            expect(abs(float(r["sigma"]) - want) <= 10 * TOL * (1 + want), name, r, want)
        o = read_json(out, "orbit.json")
        c = [j for j in o["curves"] if j["kind"] == "grazing"]
        expect(len(c) == 1 and c[0]["status"] == "continued", name + ": orbit.json", o["curves"])


@case
def orbit_locates_the_grazing_in_decimetres(cli):
    # The same oscillator with lengths in dm (A, x, v, sigma times 10): the grazing at 10 sigma_g
    # (relative 10 TOL). Up from sigma = 0 the corrector fails 1.2e-5 before it, where the
    # absolute grazing_tolerance (1e-6) is not yet reached; the grazing located ahead from the
    # branch's last points ends the branch there instead of a partial branch.
    k = 10.0
    x0, v0 = closed_form(0.0)[0]
    b, row, stdout = grazing(cli, "decimetres", "sigma=0:%r" % (0.3 * k),
                             ["A=%r" % (A * k), "x=%r" % (x0 * k), "v=%r" % (v0 * k)])
    expect(abs(b["parameter"] / k - SIGMA_G) <= 10 * TOL * (1 + SIGMA_G), "located grazing",
           b["parameter"] / k - SIGMA_G)
    expect(abs(float(row["x"]) / k - P) <= 1e-7, "the grazing orbit", row)


def final_state(cli, out, state, t_end=T):
    """(x, v) at t_end of a plain run of the model file from `state` at t = 0."""
    args = ["run", cli.model("impact_oscillator.toml"), "--out", out, "--set", f"t_end={t_end!r}"]
    for name, value in state.items():
        args += ["--set", f"{name}={value!r}"]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, "run " + repr(state))
    last = read_csv(os.path.join(out, "trajectory.csv"))[-1]
    expect(float(last["t"]) == t_end, "the run ends at t_end", last)
    return [float(last["x"]), float(last["v"])]


@case
def orbit_grazing_does_not_depend_on_the_time_origin(cli):
    # The stroboscopic instant moved to t0 = 1.3 (the file's [initial] t): the same sigma_g from
    # both sides, the orbit there the free response's state at t0.
    t0 = 1.3
    b, row, _ = grazing(cli, "shifted", "sigma=0.3:0",
                        ["initial.t=1.3", "sigma=0.3", f"x={P * math.cos(W * t0)!r}",
                         f"v={-P * W * math.sin(W * t0)!r}"])
    bound = 10 * TOL * (1 + SIGMA_G)
    expect(abs(b["parameter"] - SIGMA_G) <= bound, "time origin", b, SIGMA_G)
    expect(abs(float(row["x"]) - P * math.cos(W * t0)) <= bound and
           abs(float(row["v"]) + P * W * math.sin(W * t0)) <= bound, "orbit at t0", row)
    # The impacting orbit's state at t0 (sigma = 0): a plain run from its closed form at t = 0.
    x, v = closed_form(0.0)[0]
    xs, vs = final_state(cli, os.path.join(cli.work, "to_t0"), dict(x=x, v=v), t0)
    b, _, _ = grazing(cli, "shifted_below", "sigma=0:0.3",
                      ["initial.t=1.3", f"x={xs!r}", f"v={vs!r}"])
    expect(abs(b["parameter"] - SIGMA_G) <= bound, "time origin, impacting side", b, SIGMA_G)


@case
def orbit_multipliers_past_the_grazing_follow_nordmarks_law(cli):
    # sigma = sigma_g - delta, delta = 1e-2 ... 1e-6: the largest multiplier of `saltus orbit`
    # (saltation matrices) against K / delta, the log-log slope against -1, and against the
    # eigenvalues of central differences of the time-T map by plain `saltus run`s (no saltation).
    a = -W * W * SIGMA_G
    K = (1 + E) ** 2 * a * (1 + math.cos(T)) / 2
    deltas, largest = [], []
    for k, delta in enumerate((1e-2, 1e-3, 1e-4, 1e-5, 1e-6)):
        sigma = SIGMA_G - delta
        (x, v), _, speed = closed_form(sigma)
        out = os.path.join(cli.work, f"nordmark{k}")
        code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                       repr(T), "--set", f"sigma={sigma!r}", "--set", f"x={x!r}",
                                       "--set", f"v={v!r}", "--no-plot", "--out", out)
        expect_exit(code, 0, stdout, stderr, f"orbit at delta {delta}")
        o = read_json(out, "orbit.json")
        l1 = o["multipliers"][0]["re"]
        # The orbit within ~TOL of the true one: its impact speed within ~TOL of V.
        orbit_error = 10 * TOL / speed
        expect(abs(l1 * delta / K - 1) <= 10 * delta + orbit_error, "K / delta", delta, l1, K)
        deltas.append(delta)
        largest.append(l1)
        if delta < 1e-4:
            continue  # the runs' own tangential impacts limit the differences below (C++ test)
        # h = 1e-3 V^2 / |a|: the formula's error ~1e-6 (the map's curvature is ~|a| / V^2).
        h = 1e-3 * speed * speed / abs(a)
        x0 = [o["state"]["x"], o["state"]["v"]]
        fd = [[0.0, 0.0], [0.0, 0.0]]
        for j, name in enumerate(("x", "v")):
            up, down = dict(x=x0[0], v=x0[1], sigma=sigma), dict(x=x0[0], v=x0[1], sigma=sigma)
            up[name] += h
            down[name] -= h
            pu = final_state(cli, os.path.join(cli.work, "up"), up)
            pd = final_state(cli, os.path.join(cli.work, "down"), down)
            for i in range(2):
                fd[i][j] = (pu[i] - pd[i]) / (2 * h)
        tr, det = fd[0][0] + fd[1][1], fd[0][0] * fd[1][1] - fd[0][1] * fd[1][0]
        by_runs = tr / 2 + math.copysign(math.sqrt(max(tr * tr / 4 - det, 0.0)), tr)
        expect(abs(by_runs / l1 - 1) <= 1e-4, "runs vs saltation", delta, by_runs, l1)
    for k in range(1, len(deltas)):
        slope = math.log(largest[k] / largest[k - 1]) / math.log(deltas[k] / deltas[k - 1])
        expect(abs(slope + 1) <= 10 * deltas[k - 1], "exponent", deltas[k - 1], slope)


if __name__ == "__main__":
    main(CASES, "cli_orbit_grazing_test.py")
