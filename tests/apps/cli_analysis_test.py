#!/usr/bin/env python3
"""End-to-end tests of the analysis commands of `saltus` (sensitivity, orbit, bifurcation).

Usage: cli_analysis_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py.
"""
import json
import os
import shutil
import sys

from cli_test import Cli, expect, expect_exit, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def read_json(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


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


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in CASES:
        sys.exit("usage: cli_analysis_test.py {" + "|".join(CASES) + "} SALTUS SOURCE_DIR WORK")
    name, binary, source, work = sys.argv[1:]
    work = os.path.join(work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        CASES[name](Cli(binary, source, work))
    except AssertionError as e:
        print(f"FAILED {name}: {e}")
        sys.exit(1)
    print(f"passed {name}")


if __name__ == "__main__":
    main()
