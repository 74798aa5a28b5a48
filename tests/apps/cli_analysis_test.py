#!/usr/bin/env python3
"""End-to-end tests of the analysis commands of `saltus` (sensitivity, orbit, bifurcation).

Usage: cli_analysis_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py.
"""
import json
import math
import os
import re
import sys

from cli_test import expect, expect_exit, has_matplotlib, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def read_json(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def run_outputs(cli, model_path, out, sets):
    """`saltus run` of the model file with each `--set` of sets into out (exit 0 expected):
    events.csv and trajectory.csv as lists of rows, and summary.json."""
    args = ["run", model_path, "--out", out]
    for s in sets:
        args += ["--set", s]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, out)
    return (read_csv(os.path.join(out, "events.csv")),
            read_csv(os.path.join(out, "trajectory.csv")), read_json(out, "summary.json"))


def final_state(cli, model, out, sets):
    args = ["run", cli.model(model), "--out", out]
    for s in sets:
        args += ["--set", s]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, "run " + " ".join(sets))
    last = read_csv(os.path.join(out, "trajectory.csv"))[-1]
    return [float(last["x"]), float(last["v"])]


@case
def sensitivity_matches_differences_of_runs(cli):
    # The ball (h0 = 1, e = 0.8, g = 9.81) bounces twice before t = 1.2. The flow-map Jacobian of
    # sensitivity.json against central differences of `saltus run` from perturbed initial states
    # (each run locates its impacts again): ~1e-8 at rtol 1e-12 with step 1e-4.
    tight = ["rtol=1e-12", "atol=1e-14", "t_end=1.2"]
    out = os.path.join(cli.work, "sens")
    args = ["sensitivity", cli.model("bouncing_ball.toml"), "--out", out]
    for s in tight:
        args += ["--set", s]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, "sensitivity")
    expect(sorted(os.listdir(out)) ==
           ["events.csv", "sensitivity.json", "summary.json", "trajectory.csv"],
           "unexpected files", os.listdir(out))
    s = read_json(out, "sensitivity.json")
    expect(s["status"] == "ok", "status", s)
    impacts = [r for r in read_csv(os.path.join(out, "events.csv")) if r["guard"] == "impact"]
    expect(len(impacts) == 2 and len(s["events"]) == 2, "two impacts expected", impacts, s["events"])
    e = 0.8
    for ev in s["events"]:
        # v -> -e v at x = 0 under a volume-keeping flow: det S = e^2 (Clark-Bloch Example 1).
        expect(abs(ev["hybrid_jacobian"] - e * e) < 1e-9, "det S", ev)
        expect(ev["numerical_derivatives"] is False, "the model's reset is symbolic", ev)
    jac = s["flow_map_jacobian"]
    det = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0]
    expect(abs(det - e ** 4) < 1e-9 and abs(s["volume_factor"] - e ** 4) < 1e-9, "det", jac)
    h = 1e-4
    x0 = [1.0, 0.0]
    names = ["x", "v"]
    for k in range(2):
        up = [x0[i] + (h if i == k else 0.0) for i in range(2)]
        down = [x0[i] - (h if i == k else 0.0) for i in range(2)]
        a = final_state(cli, "bouncing_ball.toml", os.path.join(cli.work, "up"),
                        tight + [f"{n}={repr(v)}" for n, v in zip(names, up)])
        b = final_state(cli, "bouncing_ball.toml", os.path.join(cli.work, "down"),
                        tight + [f"{n}={repr(v)}" for n, v in zip(names, down)])
        for i in range(2):
            fd = (a[i] - b[i]) / (2 * h)
            expect(abs(fd - jac[i][k]) <= 1e-6 * max(1.0, abs(fd)),
                   f"J[{i}][{k}] = {jac[i][k]} vs central difference {fd}")


@case
def sensitivity_without_derivative_is_a_status(cli):
    # The rod's impact law has no exact derivative: exit 2, the files are written, and
    # sensitivity.json names the event and why instead of a matrix.
    out = os.path.join(cli.work, "rod")
    code, stdout, stderr = cli.run("sensitivity", cli.model("bouncing_rod.toml"), "--out", out,
                                   "--t-end", "0.5")
    expect_exit(code, 2, stdout, stderr, "sensitivity of the rod")
    s = read_json(out, "sensitivity.json")
    expect(s["status"] == "not differentiable" and s["flow_map_jacobian"] is None, "status", s)
    expect("no derivative" in s["message"] and "guard '" in s["message"], "message", s["message"])
    expect("no derivative" in stderr, "stderr names the cause", stderr)
    # Allowed, the documented fallback gives a matrix and flags every event.
    code, stdout, stderr = cli.run("sensitivity", cli.model("bouncing_rod.toml"), "--out", out,
                                   "--t-end", "0.5", "--numerical-resets")
    expect_exit(code, 0, stdout, stderr, "sensitivity --numerical-resets")
    s = read_json(out, "sensitivity.json")
    expect(s["status"] == "ok" and len(s["events"]) > 0, "status", s)
    expect(all(ev["numerical_derivatives"] for ev in s["events"]), "flags", s["events"])


@case
def sensitivity_parameters_of_a_mechanical_model(cli):
    # The rod's d x(t_end) / d (e, mu) (its impact law differenced, allowed) against central
    # differences of `saltus run --set e=...` (step 1e-4, rtol 1e-12: agreement ~1e-7).
    tight = ["rtol=1e-12", "atol=1e-14"]
    out = os.path.join(cli.work, "rod_dp")
    args = ["sensitivity", cli.model("bouncing_rod.toml"), "--out", out, "--t-end", "0.5",
            "--numerical-resets", "--parameters", "e,mu"]
    for s in tight:
        args += ["--set", s]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, "sensitivity --parameters e,mu")
    s = read_json(out, "sensitivity.json")
    expect(s["status"] == "ok" and s["parameters"] == ["e", "mu"], "status", s)
    expect(s["parameter_derivatives"].startswith("central differences"), "flag", s)
    states = ["x", "y", "theta", "x'", "y'", "theta'"]
    p = s["parameter_sensitivity"]
    expect(len(p) == len(states) and all(len(r) == 2 for r in p), "shape", p)
    h = 1e-4
    for k, (name, value) in enumerate([("e", 0.8), ("mu", 0.3)]):
        rows = []
        for v in (value + h, value - h):
            run_out = os.path.join(cli.work, "rod_run")
            code, stdout, stderr = cli.run("run", cli.model("bouncing_rod.toml"), "--out", run_out,
                                           "--t-end", "0.5", "--set", f"{name}={v!r}",
                                           *sum([["--set", t] for t in tight], []))
            expect_exit(code, 0, stdout, stderr, f"run {name}={v}")
            last = read_csv(os.path.join(run_out, "trajectory.csv"))[-1]
            expect(abs(float(last["t"]) - 0.5) < 1e-12, "last sample at t_end", last)
            rows.append([float(last[n]) for n in states])
        for i in range(len(states)):
            fd = (rows[0][i] - rows[1][i]) / (2 * h)
            expect(abs(fd - p[i][k]) <= 1e-6 * max(1.0, abs(fd)),
                   f"d {states[i]} / d {name} = {p[i][k]} vs central difference {fd}")
    # A name that is not a parameter: exit 1, the file and the name in the message.
    code, stdout, stderr = cli.run("sensitivity", cli.model("bouncing_rod.toml"), "--out", out,
                                   "--parameters", "nosuch")
    expect_exit(code, 1, stdout, stderr, "unknown parameter")
    expect("bouncing_rod.toml" in stderr and "no parameter 'nosuch'" in stderr, "message", stderr)


@case
def analysis_help_names_existing_files(cli):
    for command in ("sensitivity", "orbit", "bifurcation"):
        code, stdout, stderr = cli.run(command, "--help")
        expect_exit(code, 0, stdout, stderr, command + " --help")
        expect("Examples" in stdout and "Exit status" in stdout, command + " --help", stdout)
        named = re.findall(r"(?:models|docs)/[A-Za-z0-9_]+\.(?:toml|md)", stdout)
        expect(named, f"{command} --help names no file", stdout)
        for path in named:
            expect(os.path.isfile(os.path.join(cli.source, path)),
                   f"{command} --help names missing " + path)


@case
def run_reports_the_zeno_kind(cli):
    # summary.json and the report of `saltus run` say steady (the ball) or spasmodic (Example 4).
    for model, kind in (("bouncing_ball.toml", "steady"), ("superelastic_interval.toml",
                                                            "spasmodic")):
        out = os.path.join(cli.work, kind)
        code, stdout, stderr = cli.run("run", cli.model(model), "--out", out)
        expect_exit(code, 0, stdout, stderr, "run " + model)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        expect(summary["zeno_kind"] == kind, model + ": zeno_kind", summary)
        evidence = summary["zeno_kind_evidence"]
        expect(evidence["resets"] >= 4 and evidence["text"].startswith(kind), "evidence", evidence)
        if kind == "spasmodic":
            expect(evidence["size_growth_per_reset"] >= 1.1, "growth", evidence)
        else:
            expect(evidence["last_size"] <= evidence["first_size"], "bounded", evidence)
        expect("zeno kind  " + kind in stdout, "the report names the kind", stdout)


# The impact oscillator of models/impact_oscillator.toml (A = 1, w = 2.5, e = 0.8): its period-1
# orbit in closed form [derived in tests/analysis/impact_oscillator.hpp], written again here.
A, W, E = 1.0, 2.5, 0.8
T = 2 * math.pi / W


def closed_form(sigma, e=E):
    """(x, v) at t = 0 on the period-1 orbit, the impact phase and speed."""
    p = A / (1 - W * W)
    t2 = math.tan(T / 2)
    a, b = (1 - e) * t2 * p, (1 + e) * p * W
    delta, c = math.atan2(b, a), (1 - e) * t2 * sigma / math.hypot(a, b)
    for sign in (1, -1):
        phase = math.fmod(delta + sign * math.acos(c) + 4 * math.pi, 2 * math.pi)
        speed = (p * W * math.sin(phase) - (sigma - p * math.cos(phase)) * t2) / e
        if speed <= 0:
            continue
        c1, c2 = sigma - p * math.cos(phase), p * W * math.sin(phase) - e * speed
        s = T - phase / W
        return (c1 * math.cos(s) + c2 * math.sin(s) + p,
                -c1 * math.sin(s) + c2 * math.cos(s)), phase, speed
    return None


def doubling_sigma():
    """sigma where tr M = -2 e cos T + k sin T equals -(1 + e^2), k = (1+e)(A cos phi - sigma)/V."""
    def f(sigma):
        _, phase, speed = closed_form(sigma)
        k = (1 + E) * (A * math.cos(phase) - sigma) / speed
        return -2 * E * math.cos(T) + k * math.sin(T) + (1 + E * E)
    lo, hi = 0.0, abs(A / (1 - W * W)) * (1 - 1e-9)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if (f(mid) > 0) == (f(lo) > 0):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@case
def orbit_finds_and_continues_the_impact_oscillator(cli):
    out = os.path.join(cli.work, "orbit")
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--set", "x=-0.7", "--set", "v=0.1", "--out", out)
    expect_exit(code, 0, stdout, stderr, "orbit")
    o = read_json(out, "orbit.json")
    (x, v), _, _ = closed_form(0.0)
    expect(o["status"] == "converged", "status", o)
    expect(abs(o["state"]["x"] - x) < 1e-8 and abs(o["state"]["v"] - v) < 1e-8, "orbit", o, x, v)
    expect(o["constant_states"] == ["sigma"], "sigma is constant", o["constant_states"])
    # A complex pair of modulus e (det M = e^2, the flow keeps volume).
    moduli = [m["abs"] for m in o["multipliers"]]
    expect(len(moduli) == 2 and all(abs(m - E) < 1e-7 for m in moduli), "multipliers", moduli)
    expect(o["stable"] is True and o["resets_per_period"] == 1, "stable, one impact", o)
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "floquet.png")), "floquet.png")
    out = os.path.join(cli.work, "branch")
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--continue", "sigma=0:0.3", "--out", out)
    expect_exit(code, 0, stdout, stderr, "orbit --continue")
    o = read_json(out, "orbit.json")
    kinds = [b["kind"] for b in o["bifurcations"]]
    expect(kinds == ["period doubling", "grazing"], "bifurcations", kinds)
    expect(abs(o["bifurcations"][0]["parameter"] - doubling_sigma()) < 1e-7, "doubling",
           o["bifurcations"][0], doubling_sigma())
    expect(abs(o["bifurcations"][1]["parameter"] - abs(A / (1 - W * W))) < 1e-5, "grazing",
           o["bifurcations"][1])
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) == o["points"] and len(rows) >= 10, "branch.csv rows", len(rows))
    for r in rows:
        (x, v), _, _ = closed_form(float(r["parameter"]))
        expect(abs(float(r["x"]) - x) < 1e-7 and abs(float(r["v"]) - v) < 1e-7, "branch point", r)
        expect((r["stable"] == "1") == (float(r["parameter"]) < doubling_sigma()), "stability", r)
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "branch.png")), "branch.png")


@case
def bifurcation_diagram_agrees_with_the_branch(cli):
    out = os.path.join(cli.work, "diagram")
    code, stdout, stderr = cli.run("bifurcation", cli.model("impact_oscillator.toml"), "--vary",
                                   "sigma=0:0.06:4", "--period", repr(T), "--discard", "200",
                                   "--keep", "4", "--out", out)
    expect_exit(code, 0, stdout, stderr, "bifurcation")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    expect(len(rows) == 16, "4 values x 4 points", len(rows))
    for r in rows:
        (x, v), _, _ = closed_form(float(r["sigma"]))
        expect(abs(float(r["x"]) - x) < 1e-7 and abs(float(r["v"]) - v) < 1e-7, "diagram point",
               r, (x, v))
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "bifurcation.png")), "bifurcation.png")
    # Past the doubling: two points alternating.
    sigma = 1.05 * doubling_sigma()
    code, stdout, stderr = cli.run("bifurcation", cli.model("impact_oscillator.toml"), "--vary",
                                   f"sigma={sigma!r}:{sigma!r}:1", "--period", repr(T),
                                   "--discard", "400", "--keep", "4", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "bifurcation past the doubling")
    xs = [float(r["x"]) for r in read_csv(os.path.join(out, "bifurcation.csv"))]
    expect(abs(xs[0] - xs[2]) < 1e-7 and abs(xs[1] - xs[3]) < 1e-7 and abs(xs[0] - xs[1]) > 1e-2,
           "period 2", xs)


@case
def frictional_bounce_diagram_has_points_at_every_belt_speed(cli):
    # Issue 32: from v_b = 0.98 on, the landings are Painleve slips; before Routh's process was
    # followed through slip stop and stick, 52 of 96 values of docs/ANALYSIS.md's diagram were
    # empty. Every value of a 20-value diagram over [0.1, 2] now gives its points on the section.
    # At mu = 0.55 > mu_P(theta0) every value meets Painleve situations (the stick turning into a
    # slip with B <= 0, several motions) and goes on with the free motion: points at every value.
    for mu in ("0.49", "0.55"):
        out = os.path.join(cli.work, "fbm_all_" + mu)
        code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"),
                                       "--vary", "v_b=0.1:2:20", "--set", "mu=" + mu, "--restart",
                                       "--section", "apex", "--discard", "40", "--keep", "4",
                                       "--show", "y", "--out", out)
        expect_exit(code, 0, stdout, stderr, f"a diagram through the Painleve landings, mu {mu}")
        rows = read_csv(os.path.join(out, "bifurcation.csv"))
        values = sorted({float(r["parameter"]) for r in rows})
        expect(len(values) == 20, "20 values", values)
        for v in values:
            at = [r for r in rows if float(r["parameter"]) == v]
            expect(len(at) == 4 and all(r["status"] == "ok" for r in at),
                   f"points at v_b = {v}, mu = {mu}", at)
            # On the section y' = 0, falling: the apex of a hop or of an oscillation.
            expect(all(abs(float(r["y'"])) < 1e-9 for r in at), f"y' = 0 at v_b = {v}", at)
            resolved = int(at[0]["bridge_stretches"]) + int(at[0]["painleve_lift_offs"])
            expect(resolved > 0 if mu == "0.55" else resolved == 0,
                   f"Painleve resolutions at v_b = {v}, mu = {mu}", at)


@case
def bifurcation_in_a_run_time_parameter_goes_on_through_painleve_situations(cli):
    # models/frictional_bounce.toml: the belt speed is a parameter (kept at run time), the section
    # a [[sections]] entry seen in every mode. At mu = 0.49 both v_b = 0.3 and 1.2 hop (1.2 lands
    # through Painleve slips that Routh's process ends in stick) without a Moreau-Jean stretch; at
    # mu = 0.55 > mu_P(theta0) = 0.511 the sliding tip meets a Painleve situation at both speeds
    # (several motions): each value goes on with the free motion, as `saltus run` does, and its
    # points are that run's apexes digit for digit; with painleve = "stop" the rows name the stop.
    out = os.path.join(cli.work, "fbm")
    code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"), "--vary",
                                   "v_b=0.3:1.2:2", "--restart", "--section", "apex",
                                   "--discard", "40", "--keep", "5", "--show", "y", "--out", out)
    expect_exit(code, 0, stdout, stderr, "bifurcation through Painleve landings")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    for v_b in (0.3, 1.2):
        at = [r for r in rows if math.isclose(float(r["parameter"]), v_b)]
        expect(len(at) == 5 and all(r["status"] == "ok" for r in at), f"hops at {v_b}", at)
        expect(all(r["bridge_stretches"] == "0" and r["painleve_lift_offs"] == "0" for r in at),
               f"no Painleve resolution at {v_b}", at)
    out = os.path.join(cli.work, "fbm_bridged")
    code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"), "--vary",
                                   "v_b=0.3:1.2:2", "--set", "mu=0.55", "--restart", "--section",
                                   "apex", "--discard", "40", "--keep", "5", "--horizon", "3",
                                   "--show", "y", "--out", out)
    expect_exit(code, 0, stdout, stderr, "bifurcation through Painleve situations")
    expect("lift-offs (the free motion among several)" in stdout, "says so", stdout)
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    for v_b in (0.3, 1.2):
        at = [r for r in rows if math.isclose(float(r["parameter"]), v_b)]
        expect(len(at) == 5 and all(r["status"] == "ok" for r in at), f"points at {v_b}", at)
        expect(all(int(r["painleve_lift_offs"]) > 0 for r in at), f"lift-offs at {v_b}", at)
        run_out = os.path.join(cli.work, f"fbm_run_{v_b}")
        # The value the diagram ran (0.3 + 0.9 is not 1.2), as it printed it: 17 digits.
        code, stdout, stderr = cli.run("run", cli.model("frictional_bounce.toml"), "--set",
                                       "mu=0.55", "--set", "v_b=" + at[0]["parameter"], "--set",
                                       "solver.t_end=3", "--out", run_out)
        expect_exit(code, 0, stdout, stderr, f"run at v_b = {v_b}")
        # The run logs the apex at t = 0 (its start), which the diagram does not count.
        apexes = [e for e in read_csv(os.path.join(run_out, "events.csv"))
                  if e["guard"] == "apex" and float(e["t"]) > 0]
        expect(len(apexes) >= 45, f"45 apexes in the run at {v_b}", len(apexes))
        for k, r in enumerate(at):
            for s in ("x", "y", "theta", "x'", "y'", "theta'"):
                expect(r[s] == apexes[40 + k][s + "_before"], f"apex {41 + k} {s} at {v_b}",
                       (r, apexes[40 + k]))
    out = os.path.join(cli.work, "fbm_stop")
    code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"), "--vary",
                                   "v_b=0.3:1.2:2", "--set", "mu=0.55", "--set",
                                   "mechanics.painleve=stop", "--restart", "--section",
                                   "apex", "--discard", "40", "--keep", "5", "--show", "y",
                                   "--out", out)
    expect_exit(code, 2, stdout, stderr, "bifurcation with a Painleve stop")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    fast = [r for r in rows if math.isclose(float(r["parameter"]), 1.2)]
    expect(any(r["point"] == "-1" and "Painleve" in r["status"] for r in fast), "stop at 1.2",
           fast)
    expect("v_b = 1.2" in stderr and "Painleve" in stderr, "the stop is printed", stderr)
    if has_matplotlib():
        expect(os.path.exists(os.path.join(out, "bifurcation.png")), "bifurcation.png")
    code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"), "--vary",
                                   "v_b=0.3:1.2:2", "--section", "apex", "--show", "nosuch",
                                   "--out", out)
    expect_exit(code, 1, stdout, stderr, "an unknown --show")
    expect("nosuch" in stderr, "names it", stderr)


@case
def orbit_bad_input_is_a_status(cli):
    out = os.path.join(cli.work, "bad")
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--continue", "e=0:1", "--out", out)
    # A parameter of the file is continued since issue 33 (loaded as a state of rate 0).
    expect_exit(code, 0, stdout, stderr, "a parameter of the file")
    expect(read_json(out, "orbit.json")["parameter_derivative"].startswith("exact"), "exact",
           read_json(out, "orbit.json"))
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--period",
                                   repr(T), "--continue", "nosuch=0:1", "--out", out)
    expect_exit(code, 1, stdout, stderr, "an unknown name")
    expect("is not a state" in stderr and "sigma" in stderr, "lists the states", stderr)
    code, stdout, stderr = cli.run("orbit", cli.model("bouncing_ball.toml"), "--section",
                                   "x=100,+", "--min-time", "0.1", "--horizon", "1", "--out", out)
    expect_exit(code, 2, stdout, stderr, "a section never crossed")
    o = read_json(out, "orbit.json")
    expect(o["status"] == "map failed" and "was not crossed" in o["message"], "status", o)
    expect("monodromy" not in o and "multipliers" not in o, "no matrix", o)
    # Without --min-time it is stated from the start's first return (issue 46); a negative one
    # is refused.
    code, stdout, stderr = cli.run("orbit", cli.model("bouncing_ball.toml"), "--section",
                                   "v=0,-", "--min-time", "-1", "--out", out)
    expect_exit(code, 1, stdout, stderr, "a negative --min-time")
    expect("min_time = -1 must be > 0" in stderr, "says why", stderr)
    code, stdout, stderr = cli.run("orbit", cli.model("impact_oscillator.toml"), "--section",
                                   "x=0,", "--out", out)
    expect_exit(code, 1, stdout, stderr, "a bad direction")
    expect("direction" in stderr, "names the direction", stderr)


if __name__ == "__main__":
    main(CASES, "cli_analysis_test.py")
