#!/usr/bin/env python3
"""End-to-end test of issue 47 item 5, the unit check: `saltus check` and `saltus run` refuse a
flow whose sides differ in dimension (x' = g with x in m and g in m/s^2) and a unit string that
is not a unit, each at its line with both dimensions or the bad token, and write no output
folder; the model with its units right passes.

Usage: cli_units_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt); the helpers are those of cli_test.py.
"""
import os

from cli_test import expect, expect_exit, main

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def write(cli, name, text):
    path = os.path.join(cli.work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def line_of(text, what):
    return text[:text.index(what)].count("\n") + 1


@case
def check_refuses_unit_errors(cli):
    with open(cli.model("bouncing_ball.toml")) as f:
        base = f.read()
    good = write(cli, "good.toml", base)
    code, stdout, stderr = cli.run("check", good)
    expect_exit(code, 0, stdout, stderr, "check of models/bouncing_ball.toml")
    cases = (
        (base.replace("\"x' = v\"", "\"x' = g\""), "flow = [",
         "mode 'flight' flow: 'x' = g': the right side has dimension m s^-2, the left side x' "
         "has m s^-1 (x in 'm', t in 's')"),
        (base.replace('unit = "m/s^2"', 'unit = "meters per fortnight"'), "g = {",
         "unit 'meters per fortnight' of parameter 'g': 'meters' is not a unit"),
    )
    for text, at, cause in cases:
        bad = write(cli, "bad.toml", text)
        line = line_of(text, at)
        out = os.path.join(cli.work, "never")
        for args in (("check", bad), ("run", bad, "--out", out)):
            code, stdout, stderr = cli.run(*args)
            expect_exit(code, 1, stdout, stderr, args[0] + ": " + cause)
            expect(f"{bad}:{line}:" in stderr and cause in stderr,
                   "the refusal names neither the line nor the cause", f"{bad}:{line}:", stderr)
        expect(not os.path.exists(out), "a refused model wrote an output folder", out)


if __name__ == "__main__":
    main(CASES, "cli_units_test.py")
