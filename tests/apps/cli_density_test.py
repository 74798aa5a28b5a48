#!/usr/bin/env python3
"""End-to-end tests of `saltus density` (issue 12): a built-in billiard or a model file.

Usage: cli_density_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py.
"""
import os
import re

from cli_test import expect, expect_exit, has_matplotlib, main, read_csv, read_summary

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def density_writes_histogram_and_repeats_with_seed(cli):
    out, again = os.path.join(cli.work, "density"), os.path.join(cli.work, "density_again")
    args = ["density", "--system", "disk", "--set", "B=1.2,R=0.3", "--maps", "2000",
            "--discard", "10", "--grid", "20", "10", "--trajectories", "4", "--seed", "7"]
    code, stdout, stderr = cli.run(*args, "--threads", "2", "--out", out)
    plotted = has_matplotlib()
    expect_exit(code, 0 if plotted else 3, stdout, stderr, "density")
    rows = read_csv(os.path.join(out, "density.csv"))
    expect(len(rows) == 200 and list(rows[0].keys()) ==
           ["ix", "iy", "x_centre", "y_centre", "count", "fraction"], "density.csv", rows[:1])
    s = read_summary(out)
    expect(s["binned"] == 2000 and s["maps_done"] == 4 * (500 + 10) and s["outside_grid"] == 0,
           "summary counts", s)
    expect(s["parameters"]["B"] == 1.2 and s["parameters"]["R"] == 0.3, "parameters", s)
    expect(sum(int(r["count"]) for r in rows) == 2000, "counts do not add up to the maps")
    # The disk keeps its energy (projection after every step, elastic impacts).
    expect(s["max_relative_energy_error"] < 1e-9, "energy error", s)
    with open(os.path.join(out, "density.npy"), "rb") as f:
        expect(f.read(6) == b"\x93NUMPY", "density.npy is not a NumPy file")
    expect(os.path.exists(os.path.join(out, "density.png")) == plotted, "density.png")
    # Convergence: checkpoints at a hundredth and a tenth of each trajectory's 500 binned maps
    # (a thousandth is no map), 4 trajectories: 20 and 200 maps, their L1 distance to the final
    # histogram in [0, 2] and falling, as in convergence.csv.
    conv = s["convergence"]
    expect([c["maps"] for c in conv] == [20, 200], "convergence checkpoints", conv)
    expect(all(0.0 < c["l1_to_final"] <= 2.0 and 0.0 < c["independent_sampling_l1"] <= 2.0
               for c in conv) and conv[1]["l1_to_final"] < conv[0]["l1_to_final"],
           "convergence distances", conv)
    crows = read_csv(os.path.join(out, "convergence.csv"))
    expect([int(r["maps"]) for r in crows] == [20, 200] and
           [float(r["l1_to_final"]) for r in crows] == [c["l1_to_final"] for c in conv],
           "convergence.csv", crows)
    expect(os.path.exists(os.path.join(out, "convergence.png")) == plotted, "convergence.png")
    # Same seed and trajectories on one thread: the same histogram.
    code, stdout, stderr = cli.run(*args, "--threads", "1", "--no-plot", "--out", again)
    expect_exit(code, 0, stdout, stderr, "density again")
    expect(read_csv(os.path.join(again, "density.csv")) == rows, "not repeatable with the seed")


@case
def density_bad_input_is_refused(cli):
    out = os.path.join(cli.work, "never")
    for args, cause in [
        (["--system", "pendulum"], "unknown system 'pendulum'"),
        (["--system", "sleigh", "--set", "radius=1"], "has no parameter 'radius'"),
        (["--system", "sleigh", "--set", "L=1.5"], "does not fit in the table"),
        (["--system", "disk", "--set", "e=2"], "must be in [0, 1]"),
        (["--system", "disk", "--vars", "x,psi"], "has no coordinate 'psi'"),
        (["--system", "disk", "--maps", "3", "--trajectories", "4"], "must be >= --trajectories"),
    ]:
        code, stdout, stderr = cli.run("density", *args, "--out", out)
        expect_exit(code, 1, stdout, stderr, "density " + " ".join(args))
        expect(cause in stderr and "nothing was run" in stderr, "the cause is not named", cause,
               stderr)
        expect(not os.path.exists(out), "a refused density run wrote " + out)


@case
def density_of_a_model_file(cli):
    # The sleigh of models/chaplygin_sleigh.toml: every map binned, energy kept (e = 1), the
    # model's parameters in the summary, the plot titled with the file's name; the same seed
    # gives the same histogram.
    model = cli.model("chaplygin_sleigh.toml")
    out, again = os.path.join(cli.work, "density_model"), os.path.join(cli.work, "dm_again")
    args = ["density", model, "--range", "-2", "2", "-1", "1", "--maps", "1500", "--discard",
            "10", "--grid", "20", "10", "--trajectories", "3", "--seed", "5", "--set", "v0=0.8"]
    code, stdout, stderr = cli.run(*args, "--threads", "2", "--out", out)
    plotted = has_matplotlib()
    expect_exit(code, 0 if plotted else 3, stdout, stderr, "density of a model file")
    expect(os.path.exists(os.path.join(out, "density.png")) == plotted, "density.png")
    rows = read_csv(os.path.join(out, "density.csv"))
    s = read_summary(out)
    expect(s["model"].endswith("chaplygin_sleigh.toml") and s["parameters"]["v0"] == 0.8,
           "model and parameters", s)
    expect(s["binned"] == 1500 and s["maps_done"] == 3 * (500 + 10) and s["outside_grid"] == 0,
           "summary counts", s)
    expect(sum(int(r["count"]) for r in rows) == 1500, "counts do not add up to the maps")
    expect(s["max_relative_energy_error"] < 1e-9, "energy error", s)
    code, stdout, stderr = cli.run(*args, "--threads", "1", "--no-plot", "--out", again)
    expect_exit(code, 0, stdout, stderr, "density of a model file again")
    expect(read_csv(os.path.join(again, "density.csv")) == rows, "not repeatable with the seed")


def sleigh_with(cli, name, line):
    # models/chaplygin_sleigh.toml with `line` added to its [mechanics], its units left out: the
    # lines added write their constants as bare numbers (a unit check would refuse them first).
    with open(cli.model("chaplygin_sleigh.toml")) as f:
        text = re.sub(r'(,\s*)?\bunit\s*=\s*"[^"]*"', "", f.read())
        text = re.sub(r'(?m)^time_unit\s*=.*$', "", text)
    path = os.path.join(cli.work, name)
    with open(path, "w") as f:
        f.write(text.replace("[mechanics]\n", "[mechanics]\n" + line + "\n", 1))
    return path


@case
def density_of_a_model_with_a_potential(cli):
    # Issue 34: the sleigh in a harmonic well is integrated as it is (no projection onto its
    # kinetic energy) and its energy error is that of T + V.
    model = sleigh_with(cli, "well.toml", 'potential_energy = "0.5*(x^2 + y^2)"')
    out = os.path.join(cli.work, "density_well")
    code, stdout, stderr = cli.run("density", model, "--range", "-2", "2", "-1", "1", "--maps",
                                   "200", "--discard", "0", "--grid", "10", "5",
                                   "--trajectories", "2", "--threads", "2", "--no-plot",
                                   "--out", out)
    expect_exit(code, 0, stdout, stderr, "density of a model with a potential")
    s = read_summary(out)
    expect(s["invariant_projection"] is False and s["max_relative_energy_error"] < 1e-7,
           "energy", s)
    expect("not projected: the model has a potential" in stdout, "stdout", stdout)


@case
def density_of_a_model_file_bad_input_is_refused(cli):
    sleigh, ball = cli.model("chaplygin_sleigh.toml"), cli.model("bouncing_ball.toml")
    forced = sleigh_with(cli, "forced.toml", "forces = { theta = \"-0.1*theta'\" }")
    timed = sleigh_with(cli, "timed.toml", 'potential_energy = "0.1*x*t"')
    out = os.path.join(cli.work, "never_model")
    for args, cause in [
        ([forced, "--range", "-2", "2", "-1", "1"],
         forced + ": saltus density needs a model whose energy is conserved"),
        ([forced, "--range", "-2", "2", "-1", "1"],
         "[mechanics] forces gives a generalised force on 'theta'"),
        ([timed, "--range", "-2", "2", "-1", "1"], "[mechanics] potential_energy reads t"),
        ([sleigh], "--range XLO XHI YLO YHI is required"),
        ([sleigh, "--range", "2", "-2", "-1", "1"], "XLO < XHI"),
        ([sleigh, "--range", "-2", "2", "-1", "1", "--vars", "x,psi"], "has no state 'psi'"),
        ([sleigh, "--system", "sleigh"], "either a MODEL file or --system"),
        ([ball, "--range", "0", "1", "0", "1"], "needs a model with [mechanics] constraints"),
        ([sleigh, "--range", "-2", "2", "-1", "1", "--set", "nope=1"], "nope"),
    ]:
        code, stdout, stderr = cli.run("density", *args, "--out", out)
        expect_exit(code, 1, stdout, stderr, "density " + " ".join(args))
        expect(cause in stderr and "nothing was run" in stderr, "the cause is not named", cause,
               stderr)
        expect(not os.path.exists(out), "a refused density run wrote " + out)


if __name__ == "__main__":
    main(CASES, "cli_density_test.py")
