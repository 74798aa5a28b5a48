#!/usr/bin/env python3
"""End-to-end tests of issue 33's format items: jump sets (a guard's `when`), shared flows
(flow = "@mode"), [initial] project, --set output.samples over a file's sample_interval, and
messages printed once.

Usage: cli_jump_sets_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py.
"""
import math
import os

from cli_test import expect, expect_exit, main, read_csv, read_summary

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# A walker-like rotor: th' = w, w' = a. Its one guard sin(2 th) rises through zero twice per
# turn (th = 0 and th = pi); only the crossing with cos(th) < 0 is a strike.
ROTOR = """[model]
name = "rotor"
[parameters]
a = 0.5
e = 0.8
c = 0.3
delta = 0.2
[states]
th = -0.3
w = 1.0
[modes.roll]
flow = ["th' = w", "w' = a"]
[[modes.roll.guards]]
name = "strike"
value = "sin(2*th)"
direction = "rising"
when = "cos(th) < 0"
reset = ["th = th - pi - delta", "w = e*w + c"]
[solver]
t_end = 20.0
rtol = 1e-12
atol = 1e-12
h_max = 0.2  # sin(2 th) turns within the long steps of a polynomial flow (ARCHITECTURE rule 1)
[output]
sample_interval = 0.001
"""
WHEN_LINE = 17  # the line of `when` in ROTOR


def write(cli, name, text):
    path = os.path.join(cli.work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def strikes(a=0.5, e=0.8, c=0.3, delta=0.2, th=-0.3, w=1.0, t_end=20.0):
    """Strike times of the rotor in closed form: th reaches pi after s with
    a/2 s^2 + w s + th - pi = 0; the reset sets th = -delta, w = e (w + a s) + c."""
    t, out = 0.0, []
    while True:
        s = (-w + math.sqrt(w * w - 2 * a * (th - math.pi))) / a
        if t + s > t_end:
            return out
        t += s
        out.append(t)
        th, w = -delta, e * (w + a * s) + c


@case
def jump_set_counts_only_its_crossings(cli):
    model = write(cli, "rotor.toml", ROTOR)
    for delta in ("0.2", "0"):  # 0: the reset lands on the surface, outside the jump set
        out = os.path.join(cli.work, "run" + delta)
        code, stdout, stderr = cli.run("run", model, "--set", "delta=" + delta,
                                       "--set", "output.samples=101", "--out", out)
        expect_exit(code, 0, stdout, stderr, "run of the rotor, delta = " + delta)
        events = read_csv(os.path.join(out, "events.csv"))
        want = strikes(delta=float(delta))
        expect(len(events) == len(want) and all(e["guard"] == "strike" for e in events),
               "events are not the strikes", len(events), len(want))
        worst = max(abs(float(e["t"]) - t) for e, t in zip(events, want))
        expect(worst < 1e-8, "strike times differ from the closed form by %g" % worst)
        s = read_summary(out)
        expect(s["events_per_guard"] == {"roll/strike": len(want)}, "events per guard", s)
    # Without the jump set the crossing at th = 0 fires and the walker's reset-failed follows.
    plain = write(cli, "plain.toml", ROTOR.replace('when = "cos(th) < 0"\n', ""))
    code, stdout, stderr = cli.run("run", plain, "--set", "delta=0", "--out",
                                   os.path.join(cli.work, "plain"))
    expect_exit(code, 2, stdout, stderr, "run without the jump set")
    expect("reset-failed" in stdout + stderr, "the failure is not reset-failed", stdout, stderr)


@case
def jump_set_bad_input_is_refused(cli):
    for when, cause in (('"th"', "guard 'strike' of mode 'roll' when 'th' is not a condition"),
                        ('"foo < 1"', "unknown symbol 'foo'"),
                        ("2", "when is an integer; expected a condition")):
        bad = write(cli, "bad.toml", ROTOR.replace('"cos(th) < 0"', when))
        for args in (("check", bad), ("run", bad, "--out", os.path.join(cli.work, "o"))):
            code, stdout, stderr = cli.run(*args)
            expect_exit(code, 1, stdout, stderr, args[0] + " with when = " + when)
            expect(f"{bad}:{WHEN_LINE}:" in stderr and cause in stderr,
                   "the refusal names neither the line nor the cause", stderr)
    # NaN where the guard crosses (sqrt(2 - th) at th = pi): a failed run naming the guard, its
    # condition and the value; the crossing at th = 0 (condition false) passed before it.
    nan = write(cli, "nan.toml", ROTOR.replace('"cos(th) < 0"', '"sqrt(2 - th) < 0"'))
    out = os.path.join(cli.work, "nan")
    code, stdout, stderr = cli.run("run", nan, "--out", out)
    expect_exit(code, 2, stdout, stderr, "run with a NaN condition")
    s = read_summary(out)
    expect(s["status"] == "non-finite-state" and not s["succeeded"], "status", s)
    for part in ("guard 'strike'", "mode 'roll'", "when = 'sqrt(2 - th) < 0'", "is nan"):
        expect(part in s["message"], part + " not in the message", s["message"])
    expect(abs(s["t_final"] - strikes()[0]) < 1e-8, "not stopped at the first strike", s)


@case
def shared_flow_runs_and_bad_references_are_refused(cli):
    two = ROTOR.replace("[modes.roll]", "[initial]\nmode = \"roll\"\n[modes.roll]") + \
        '[modes.spare]\nflow = "@roll"\n'
    code, stdout, stderr = cli.run("check", write(cli, "two.toml", two))
    expect_exit(code, 0, stdout, stderr, "check of a mode sharing a flow")
    for flow, cause in (('"@walk"', "mode 'spare' flow '@walk' names no mode"),
                        ('"@spare"', "names the mode itself")):
        bad = write(cli, "bad.toml", two.replace('"@roll"', flow))
        code, stdout, stderr = cli.run("check", bad)
        expect_exit(code, 1, stdout, stderr, "check of flow = " + flow)
        expect(cause in stderr and bad + ":" in stderr, "the cause is not named", stderr)


# A particle above the plane 0.6 x + 0.8 y = 0, 0.9 um inside it at the start.
SLOPE = """[model]
name = "slope"
[parameters]
m1 = 1.0
m2 = 3.0
g = 9.81
[coordinates]
x = { initial = 0.0, velocity = 0.2 }
y = { initial = -1.125e-6, velocity = 0.0 }
[mechanics]
kinetic_energy = "0.5*(m1*x'^2 + m2*y'^2)"
potential_energy = "m2*g*y"
[[contacts]]
name = "plane"
gap = "0.6*x + 0.8*y"
e = 0.5
[initial]
project = 1e-6
[solver]
t_end = 0.2
"""


@case
def projection_of_an_inconsistent_start(cli):
    model = write(cli, "slope.toml", SLOPE)
    out = os.path.join(cli.work, "slope")
    code, stdout, stderr = cli.run("run", model, "--out", out)
    expect_exit(code, 0, stdout, stderr, "run of a start 0.9 um inside the plane")
    expect("projected" in stdout and "contact 'plane'" in stdout, "no projection line", stdout)
    p = read_summary(out)["initial_projection"]
    # dq = -M^-1 w g / (w^T M^-1 w), w = (0.6, 0.8), g = -0.9e-6, M = diag(1, 3).
    g, wmw = -0.9e-6, 0.36 + 0.64 / 3
    dx, dy = -0.6 * g / wmw, -0.8 / 3 * g / wmw
    expect(abs(p["violated"]["contact 'plane'"] - 0.9e-6) < 1e-18 and p["tolerance"] == 1e-6,
           "violation", p)
    expect(abs(p["change"]["x"] - dx) < 1e-18 and abs(p["change"]["y"] - dy) < 1e-18 and
           abs(p["size"] - max(dx, dy)) < 1e-18, "projection differs from the closed form", p)
    # More than the tolerance: refused naming the model, the contact and the value.
    for args in (("check", model), ("run", model, "--out", out)):
        code, stdout, stderr = cli.run(*args, "--set", "y=-2.5e-6")
        expect_exit(code, 1, stdout, stderr, args[0] + " of a start 2 um inside")
        for part in ("model 'slope'", "contact 'plane' by 2e-06", "[initial] project = 1e-06"):
            expect(part in stderr, part + " is not named", stderr)
    # Without the option the start is refused as before, pointing at it.
    plain = write(cli, "plain.toml", SLOPE.replace("[initial]\nproject = 1e-6\n", ""))
    code, stdout, stderr = cli.run("check", plain)
    expect_exit(code, 1, stdout, stderr, "check without [initial] project")
    expect("penetrates the contact" in stderr and "[initial] project" in stderr,
           "the refusal does not name the option", stderr)


@case
def set_output_samples_overrides_sample_interval(cli):
    model = write(cli, "rotor.toml", ROTOR)  # sample_interval = 0.001: 20001 samples
    out = os.path.join(cli.work, "samples")
    code, stdout, stderr = cli.run("run", model, "--set", "output.samples=11", "--out", out)
    expect_exit(code, 0, stdout, stderr, "run with output.samples=11")
    rows = read_csv(os.path.join(out, "trajectory.csv"))
    times = sorted({float(r["t"]) for r in rows})
    expect(times == [2.0 * i for i in range(11)], "not 11 samples", len(rows), times[:5])
    code, stdout, stderr = cli.run("run", model, "--set", "output.sample_interval=5",
                                   "--out", out)
    expect_exit(code, 0, stdout, stderr, "run with output.sample_interval=5")
    times = sorted({float(r["t"]) for r in read_csv(os.path.join(out, "trajectory.csv"))})
    expect(times == [0.0, 5.0, 10.0, 15.0, 20.0], "sample_interval not taken", times)


@case
def check_prints_each_problem_once(cli):
    # A run that fails at t0 (the rod's mass matrix with m = -1), a malformed condition, and a
    # mistake in a flow two modes share (written once, reported once; a copied flow reported it
    # in each copy).
    bad = write(cli, "bad.toml", ROTOR.replace('"cos(th) < 0"', '"th"'))
    two = ROTOR.replace("[modes.roll]", "[initial]\nmode = \"roll\"\n[modes.roll]").replace(
        "w' = a", "w' = gg") + '[modes.spare]\nflow = "@roll"\n'
    shared = write(cli, "shared.toml", two)
    for args in (("check", cli.model("bouncing_rod.toml"), "--set", "m=-1"), ("check", bad),
                 ("check", shared)):
        code, stdout, stderr = cli.run(*args)
        expect_exit(code, 1, stdout, stderr, " ".join(args))
        lines = [line for line in stderr.splitlines() if ": error: " in line]
        expect(len(lines) == 1, "the problem is printed %d times" % len(lines), stderr)


if __name__ == "__main__":
    main(CASES, "cli_jump_sets_test.py")
