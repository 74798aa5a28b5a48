#!/usr/bin/env python3
"""End-to-end tests of issue 47 items 2 and 3: discrete variables ([discrete]), a guard's
`terminate`, and named outputs ([outputs]) as trajectory.csv columns and sweep quantities,
on models/bouncing_ball_wear.toml against its closed form; bad input refused at its line with
no output folder written.

Usage: cli_discrete_outputs_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per
CASE, apps/CMakeLists.txt); the helpers are those of cli_test.py.
"""
import math
import os
import random

from cli_test import expect, expect_exit, has_matplotlib, main, read_csv, read_summary

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


WEAR = 0.99


def bounces(g, h0, e0, count=5):
    """Impact times and rebound speeds in closed form: the ball lands at t_1 = sqrt(2 h0/g) with
    s_1 = g t_1, rebounds at u_k = e0 WEAR^(k-1) s_k and lands again 2 u_k/g later."""
    t = math.sqrt(2 * h0 / g)
    s, e, times, speeds = g * t, e0, [], []
    for _ in range(count):
        times.append(t)
        u = e * s
        speeds.append(u)
        e *= WEAR
        t += 2 * u / g
        s = u
    return times, speeds


def num(v):
    return repr(float(v))


@case
def wearing_ball_stops_at_the_fifth_bounce(cli):
    rng = random.Random(4702)
    model = cli.model("bouncing_ball_wear.toml")
    for draw in range(3):
        h0, e0, g = rng.uniform(0.05, 20), rng.uniform(0.3, 0.97), rng.uniform(1, 25)
        times, speeds = bounces(g, h0, e0)
        T = math.sqrt(2 * h0 / g)
        # The same drop in metres and seconds, and in millimetres and milliseconds.
        for scale in (1.0, 1e3):
            what = "draw %d in %s" % (draw, "mm and ms" if scale > 1 else "m and s")
            out = os.path.join(cli.work, "run%d_%g" % (draw, scale))
            code, stdout, stderr = cli.run(
                "run", model, "--set", "g=" + num(g / scale), "--set", "h0=" + num(h0 * scale),
                "--set", "e0=" + num(e0), "--set", "t_end=" + num(1.2 * times[-1] * scale),
                "--set", "output.samples=301", "--out", out)
            expect_exit(code, 0, stdout, stderr, what)
            expect("terminal-event" in stdout and "terminate = 'n >= 5' holds" in stdout,
                   what + ": the report does not name the termination", stdout)
            s = read_summary(out)
            expect(s["status"] == "terminal-event" and s["succeeded"], what + ": status", s)
            expect("terminated by guard 'impact' of mode 'flight'" in s["message"] and
                   "its 5th event" in s["message"], what + ": message", s["message"])
            expect(s["discrete_states"] == ["n", "e_now"] and s["outputs"] == ["energy", "worn"]
                   and s["units"]["energy"] == "J", what + ": summary.json", s)
            events = read_csv(os.path.join(out, "events.csv"))
            expect(len(events) == 5, what + ": not five bounces", len(events))
            worst = max(abs(float(e["t"]) / scale - t) for e, t in zip(events, times))
            expect(worst <= 1e-10 * T, what + ": bounce times off the closed form by %g" % worst)
            expect([float(e["n_after"]) for e in events] == [1, 2, 3, 4, 5], what + ": n", events)
            expect(abs(s["t_final"] / scale - times[-1]) <= 1e-10 * T, what + ": t_final", s)
            rows = read_csv(os.path.join(out, "trajectory.csv"))
            header = list(rows[0].keys())
            expect(header == ["t", "j", "mode", "x", "v", "n", "e_now", "energy", "worn"],
                   what + ": trajectory.csv header", header)
            # energy = 1/2 m u_k^2 after bounce k (m = 1; k = j, the times are checked above),
            # 1/2 (g T)^2 before the first.
            top = 0.5 * (g * T) ** 2
            worst = 0.0
            for r in rows:
                k = int(r["j"])
                u = g * T if k == 0 else speeds[k - 1]
                # mm/ms is m/s: speeds and the energy per unit mass keep their values.
                worst = max(worst, abs(float(r["energy"]) - 0.5 * u * u) / top)
                expect(abs(float(r["worn"]) - (1 - WEAR ** k)) < 1e-15, what + ": worn", r)
            expect(worst < 1e-9, what + ": energy off the closed form by %g (relative)" % worst)
    # The outputs are variables of the plots: energy against x as the phase portrait.
    if has_matplotlib():
        code, stdout, stderr = cli.run("plot", out, "--phase", "x,energy")
        expect_exit(code, 0, stdout, stderr, "plot with --phase x,energy")
        for png in ("states.png", "phase.png"):
            expect(os.path.getsize(os.path.join(out, png)) > 1000, png + " not written")


@case
def sweep_collects_outputs_at_the_end(cli):
    out = os.path.join(cli.work, "sweep")
    code, stdout, stderr = cli.run("sweep", cli.model("bouncing_ball_wear.toml"), "--vary",
                                   "e0=0.5:0.9:3", "--collect",
                                   "final.energy,final.worn,final.n,t_final", "--no-plot",
                                   "--out", out)
    expect_exit(code, 0, stdout, stderr, "sweep")
    rows = read_csv(os.path.join(out, "sweep.csv"))
    expect(len(rows) == 3, "sweep.csv does not hold 3 points", rows)
    for r in rows:
        e0 = float(r["e0"])
        times, speeds = bounces(9.81, 1.0, e0)
        expect(r["status"] == "terminal-event" and r["succeeded"] == "1", "status", r)
        expect(float(r["final.n"]) == 5, "n", r)
        expect(abs(float(r["final.energy"]) - 0.5 * speeds[-1] ** 2) < 1e-9 * 9.81, "energy", r)
        expect(abs(float(r["final.worn"]) - (1 - WEAR ** 5)) < 1e-15, "worn", r)
        expect(abs(float(r["t_final"]) - times[-1]) < 1e-10, "t_final", r)
    code, stdout, stderr = cli.run("sweep", cli.model("bouncing_ball_wear.toml"), "--vary",
                                   "e0=0.5:0.9:3", "--collect", "final.power", "--out", out)
    expect(code != 0 and "final.power" in stderr and "outputs: energy, worn" in stderr,
           "an unknown output is not refused naming the outputs", stdout, stderr)


def write(cli, name, text):
    path = os.path.join(cli.work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def line_of(text, what):
    return text[:text.index(what)].count("\n") + 1


@case
def discrete_and_outputs_bad_input_is_refused(cli):
    with open(cli.model("bouncing_ball_wear.toml")) as f:
        base = f.read()
    flow = "flow = [\"x' = v\", \"v' = -g\"]"
    cases = (
        (base.replace(flow, "flow = [\"x' = v\", \"v' = -g\", \"n' = 1\"]"), "flow = [",
         "'n' is a discrete variable ([discrete])"),
        (base.replace('worn = "1 - e_now/e0"', 'worn = "1 - e_now/e_first"'), "worn =",
         "output 'worn': unknown symbol 'e_first'"),
        (base.replace('worn = "1 - e_now/e0"', 'worn = ["n", "x"]'), "worn =",
         "output 'worn' is an array; expected one scalar expression"),
        (base.replace('"n >= 5"', '"n - 5"'), "terminate =",
         "terminate 'n - 5' is not a condition"),
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
    main(CASES, "cli_discrete_outputs_test.py")
