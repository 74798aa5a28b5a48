#!/usr/bin/env python3
"""End-to-end tests of contact coefficients that follow run-time parameters (a rigid contact's
e, mu, e_t written as an expression of [parameters], model/runtime_contact_laws.hpp):
`saltus bifurcation` and `saltus orbit --continue` in a restitution coefficient and in a friction
coefficient of mechanical models, with one load.

Usage: cli_contact_parameters_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt); the helpers are those of cli_test.py and cli_analysis_test.py.
Expected values come from closed forms computed there, or from the model loaded with the value.
"""
import math
import os

from cli_analysis_test import A, T, W, closed_form, read_json
from cli_orbit_any_start_test import doubling_in_e
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def write_oscillator(cli, sigma):
    """The impact oscillator x'' + x = A cos(w t) below a stop at sigma, written as mechanics:
    its contact's restitution is the parameter e."""
    (x0, v0), _, _ = closed_form(sigma)
    path = os.path.join(cli.work, "mech_oscillator.toml")
    with open(path, "w") as f:
        f.write(f"""
[model]
name = "mech_oscillator"
[parameters]
A = {A}
w = {W}
sigma = {sigma}
e = 0.8
[coordinates]
x = {{ initial = {x0!r}, velocity = {v0!r} }}
[mechanics]
kinetic_energy = "0.5*x'^2"
potential_energy = "0.5*x^2 - A*x*cos(w*t)"
[[contacts]]
name = "stop"
gap = "sigma - x"
e = "e"
[solver]
t_end = 25.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
""")
    return path


@case
def bifurcation_in_a_contact_restitution(cli):
    # At sigma = 0 the period-1 orbit is stable for every e < 1 (multipliers of modulus e): each
    # value's points are its closed form.
    model = write_oscillator(cli, 0.0)
    out = os.path.join(cli.work, "diagram")
    code, stdout, stderr = cli.run("bifurcation", model, "--vary", "e=0.6:0.9:4", "--period",
                                   repr(T), "--discard", "200", "--keep", "4", "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "bifurcation in e")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    expect(len(rows) == 16, "4 values x 4 points", len(rows))
    for r in rows:
        (x, v), _, _ = closed_form(0.0, float(r["parameter"]))
        expect(abs(float(r["x"]) - x) < 1e-7 and abs(float(r["x'"]) - v) < 1e-7, "closed form",
               r, (x, v))
    # A value the contact cannot take is that value's status, not a crash.
    code, stdout, stderr = cli.run("bifurcation", model, "--vary", "e=0.9:1.1:2", "--period",
                                   repr(T), "--discard", "20", "--keep", "2", "--out", out,
                                   "--no-plot")
    expect_exit(code, 1, stdout, stderr, "e = 1.1")
    expect("mech_oscillator.toml" in stderr and "restitution e = 1.1" in stderr, "message",
           stderr)


@case
def orbit_continues_in_a_contact_restitution(cli):
    # At sigma = 0.075 the period-1 orbit period-doubles at the e of the closed form.
    model = write_oscillator(cli, 0.075)
    out = os.path.join(cli.work, "branch")
    code, stdout, stderr = cli.run("orbit", model, "--period", repr(T), "--numerical-resets",
                                   "--set", "e=0.5", "--continue", "e=0.5:0.3", "--out", out,
                                   "--no-plot", timeout=600)
    expect_exit(code, 0, stdout, stderr, "orbit --continue e of a contact")
    o = read_json(out, "orbit.json")
    expect(o["parameter_derivative"].startswith("central differences"), "derivative", o)
    pd = [b for b in o["bifurcations"] if b["kind"] == "period doubling"]
    e_pd = doubling_in_e(0.075)
    expect(len(pd) == 1 and abs(pd[0]["parameter"] - e_pd) < 1e-7, "doubling", pd, e_pd)
    for r in read_csv(os.path.join(out, "branch.csv")):
        (x, v), _, _ = closed_form(0.075, float(r["parameter"]))
        expect(abs(float(r["x"]) - x) < 1e-8 and abs(float(r["x'"]) - v) < 1e-8, "branch", r)


@case
def bifurcation_in_a_friction_coefficient_equals_reloads(cli):
    # models/frictional_bounce.toml in mu, every value from the model's start (--restart): each
    # value's rows are, digit for digit, those of the model loaded with that mu.
    out = os.path.join(cli.work, "mu")
    args = ["--restart", "--section", "apex", "--discard", "10", "--keep", "3", "--no-plot"]
    code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"), "--vary",
                                   "mu=0.3:0.5:3", "--out", out, *args)
    expect_exit(code, 0, stdout, stderr, "bifurcation in mu")
    rows = read_csv(os.path.join(out, "bifurcation.csv"))
    for mu in (0.3, 0.4, 0.5):
        at = [r for r in rows if math.isclose(float(r["parameter"]), mu)]
        ref_out = os.path.join(cli.work, f"mu_{mu}")
        code, stdout, stderr = cli.run("bifurcation", cli.model("frictional_bounce.toml"),
                                       "--set", f"mu={at[0]['parameter']}", "--vary",
                                       "v_b=0.3:0.3:1", "--out", ref_out, *args)
        expect_exit(code, 0, stdout, stderr, f"mu = {mu} loaded")
        ref = read_csv(os.path.join(ref_out, "bifurcation.csv"))
        states = [k for k in ref[0] if k not in ("parameter", "point", "status")]
        expect(len(at) == 3 and [[r[k] for k in states] for r in at] ==
               [[r[k] for k in states] for r in ref], f"mu = {mu}", at, ref)


if __name__ == "__main__":
    main(CASES, "cli_contact_parameters_test.py")
