#!/usr/bin/env python3
"""End-to-end tests of `saltus lyapunov` (issue 46 item 5): the exponents of the vibrating table in
lyapunov.json, runs without exponents as a status, bad options refused.

Usage: cli_lyapunov_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py. The comparison with two nearby
trajectories is tests/analysis/lyapunov_table_test.cpp's.
"""
import math
import os
import re

from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


CHAOTIC = ["--set", "A=0.8", "--set", "e=0.85"]  # models/vibrating_table.toml: y0 = 1, v0 = 0


@case
def lyapunov_of_the_vibrating_table(cli):
    # Holmes' ball in a chaotic regime: one positive exponent; the flight keeps volume and each
    # impact has det S = e^2, so the exponents sum to 2 log(e) N / T (N impacts averaged).
    out = os.path.join(cli.work, "lyapunov_table")
    code, stdout, stderr = cli.run("lyapunov", cli.model("vibrating_table.toml"), *CHAOTIC,
                                   "--t-end", "300", "--window", "0.5", "--transient", "20",
                                   "--out", out)
    expect_exit(code, 0, stdout, stderr, "lyapunov of the vibrating table")
    expect(os.listdir(out) == ["lyapunov.json"], "files", os.listdir(out))
    j = read_json(out, "lyapunov.json")
    expect(j["status"] == "ok" and j["states"] == ["y", "v"], "status", j["status"], j["message"])
    lam = j["exponents"]
    expect(len(lam) == 2 and lam[0] > 0.2 and lam[0] >= lam[1], "a positive exponent", lam)
    expect(j["averaging_time"] == 280 and j["window"] == 0.5 and j["qr_steps"] == 600,
           "windows", j["averaging_time"], j["window"], j["qr_steps"])
    volume = 2 * math.log(0.85) * j["events"] / 280
    expect(j["events"] > 50 and abs(j["sum"] - volume) < 1e-8 and
           abs(j["impact_log_volume"] / 280 - volume) < 1e-10, "volume", j["sum"], volume)
    points = j["checkpoints"]
    expect(len(points) == 560 and points[0]["t"] == 20.5 and points[-1]["t"] == 300, "checkpoints",
           len(points), points[0], points[-1])
    expect(points[-1]["estimates"] == lam, "the last running estimate", points[-1], lam)
    expect(all(s >= 0 for s in j["spread"]), "spread", j["spread"])
    printed = re.findall(r"lambda_(\d)\s+(\S+) per s", stdout)
    expect([float(v) for _, v in printed] == [float(f"{x:.10g}") for x in lam], "printed", stdout)


@case
def lyapunov_without_exponents_is_a_status(cli):
    # A chattering table (the model has no sticking mode) ends at its Zeno point: exit 2, a
    # status naming the guard and no numbers. The relay's sliding entry collapses its direction.
    out = os.path.join(cli.work, "lyapunov_zeno")
    code, stdout, stderr = cli.run("lyapunov", cli.model("vibrating_table.toml"), "--set", "A=0.3",
                                   "--set", "e=0.5", "--window", "0.5", "--out", out)
    expect_exit(code, 2, stdout, stderr, "a chattering table")
    j = read_json(out, "lyapunov.json")
    expect(j["status"] == "zeno point" and "guard 'impact'" in j["message"], "status", j)
    expect(j["exponents"] is None and j["sum"] is None, "no numbers", j["exponents"])
    expect("no exponents (zeno point)" in stderr, "stderr", stderr)
    out = os.path.join(cli.work, "lyapunov_relay")
    code, stdout, stderr = cli.run("lyapunov", cli.model("relay_sign.toml"), "--window", "0.25",
                                   "--out", out)
    expect_exit(code, 0, stdout, stderr, "a relay that slides")
    j = read_json(out, "lyapunov.json")
    expect(j["collapsed"] == 1 and j["exponents"] == [None] and "collapsed" in j["message"],
           "collapse", j)


@case
def lyapunov_bad_input_is_refused(cli):
    out = os.path.join(cli.work, "lyapunov_never")
    model = cli.model("vibrating_table.toml")
    code, stdout, stderr = cli.run("lyapunov", model, "--window", "abc", "--out", out)
    expect(code not in (0, 2, 3) and "--window" in stderr, "--window abc", code, stderr)
    for args, cause in [
        (["--window", "-1"], "--window -1 must be a positive time"),
        (["--window", "0"], "--window 0 must be a positive time"),
        (["--transient", "20"], "t_end = 20 must be after t_start + --transient = 20"),
        (["--t-end", "5", "--transient", "8"], "t_end = 5 must be after"),
        (["--max-events", "0"], "--max-events 0 must be >= 1"),
        (["--set", "nosuch=1"], "nosuch"),
    ]:
        code, stdout, stderr = cli.run("lyapunov", model, *args, "--out", out)
        expect_exit(code, 1, stdout, stderr, " ".join(args))
        expect(cause in stderr, "the cause is not named", cause, stderr)
    expect(not os.path.exists(out), "a refused run wrote " + out)
    code, stdout, stderr = cli.run("lyapunov", "--help")
    expect_exit(code, 0, stdout, stderr, "lyapunov --help")
    named = re.findall(r"(?:models|docs)/[A-Za-z0-9_]+\.(?:toml|md)", stdout)
    expect(named and all(os.path.isfile(os.path.join(cli.source, p)) for p in named),
           "--help names files that exist", named)


if __name__ == "__main__":
    main(CASES, "cli_lyapunov_test.py")
