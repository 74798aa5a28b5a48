#!/usr/bin/env python3
# Over 450 lines on purpose: one case per CTest test, with the shared driver (Cli, expect, main)
# that cli_analysis_test.py imports; cases are grouped by command.
"""End-to-end tests of the `saltus` command: exit status, output files and their contents.

Usage: cli_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR
Each CASE is one CTest test (apps/CMakeLists.txt); it exits non-zero with a message when any
expectation fails. A regex on the output cannot see the exit status; this driver checks both.
"""
import csv
import json
import math
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Cli:
    def __init__(self, binary, source, work):
        self.binary, self.source, self.work = binary, source, work
        self.models = os.path.join(source, "models")

    def model(self, name):
        return os.path.join(self.models, name)

    def run(self, *args, timeout=120, preexec_fn=None):
        p = subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=timeout,
                           preexec_fn=preexec_fn)
        return p.returncode, p.stdout, p.stderr


def expect(condition, what, *context):
    if not condition:
        detail = "\n".join(str(c) for c in context)
        raise AssertionError(what + ("\n" + detail if detail else ""))


def expect_exit(code, wanted, out, err, what):
    expect(code == wanted, f"{what}: exit status {code}, expected {wanted}", "stdout: " + out,
           "stderr: " + err)


def expect_refused_edits(cli, text, edits, named):
    """Each edit (name, old, new, says) of a model file's `text` is refused by `saltus check`:
    exit 1, a message holding `says` and `named` (the body or contact) at a line of the file."""
    for name, old, new, says in edits:
        bad = text.replace(old, new, 1)
        expect(bad != text, name + ": the file changed")
        path = os.path.join(cli.work, name + ".toml")
        with open(path, "w") as f:
            f.write(bad)
        code, stdout, stderr = cli.run("check", path)
        expect_exit(code, 1, stdout, stderr, name)
        expect(says in stderr and named in stderr and re.search(r"toml:\d+", stderr),
               name + ": named at its line", stderr)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run_with_sets(cli, name, model, sets, code=0):
    """`saltus run model --set s ...` into work/name, its exit checked against `code` (None: not
    checked): (events.csv rows, trajectory.csv rows)."""
    out = os.path.join(cli.work, name)
    args = ["run", model, "--out", out]
    for s in sets:
        args += ["--set", s]
    status, stdout, stderr = cli.run(*args)
    if code is not None:
        expect_exit(status, code, stdout, stderr, name)
    return read_csv(os.path.join(out, "events.csv")), read_csv(os.path.join(out, "trajectory.csv"))


def difference_column(cli, model, sets, names, name, value, step=1e-6):
    """d x(t_end) / d `name` at `value` by central differences of two whole `saltus run`s of
    `model` with the --set values `sets` and name = value +- step: the states `names` of
    trajectory.csv's last row, as a list (for a flow-map Jacobian's column)."""
    ends = []
    for sign in (1.0, -1.0):
        run_dir = os.path.join(cli.work, "difference")
        args = ["run", model, "--out", run_dir]
        for s in list(sets) + ["%s=%r" % (name, value + sign * step)]:
            args += ["--set", s]
        code, out, err = cli.run(*args)
        expect_exit(code, 0, out, err, "difference run " + name)
        last = read_csv(os.path.join(run_dir, "trajectory.csv"))[-1]
        ends.append([float(last[n]) for n in names])
    return [(a - b) / (2.0 * step) for a, b in zip(*ends)]


def read_summary(folder):
    with open(os.path.join(folder, "summary.json")) as f:
        return json.load(f)


def folder_bytes(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def leftovers_beside(folder):
    parent = os.path.dirname(os.path.abspath(folder))
    base = os.path.basename(os.path.abspath(folder))
    return [n for n in os.listdir(parent) if n.startswith("." + base + ".saltus-new")]


def failing_run_args(cli, out):
    # Three events allowed, the ball bounces more often: the run ends with event-cap.
    return ["run", cli.model("bouncing_ball.toml"), "--set", "max_events=3", "--out", out]


@case
def run_bouncing_ball(cli):
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "run")
    expect(re.search(r"flight/impact: [0-9]+", stdout), "no impact count in the report", stdout)
    summary = read_summary(out)
    expect(summary["succeeded"] is True, "summary.json: succeeded is not true", summary)
    expect(summary["status"] == "end-time-reached", "summary.json status", summary["status"])
    impacts = summary["events_per_guard"]["flight/impact"]
    events = [r for r in read_csv(os.path.join(out, "events.csv")) if r["guard"] == "impact"]
    expect(impacts > 10 and len(events) == impacts, "events.csv and summary.json disagree",
           impacts, len(events))
    trajectory = read_csv(os.path.join(out, "trajectory.csv"))
    expect(float(trajectory[0]["t"]) == 0.0 and float(trajectory[-1]["t"]) == 5.0,
           "trajectory.csv does not cover [0, 5]", trajectory[0], trajectory[-1])
    expect(sorted(os.listdir(out)) == ["events.csv", "summary.json", "trajectory.csv"],
           "unexpected files in the output folder", os.listdir(out))


@case
def the_last_sample_is_at_t_end(cli):
    # Sample times t_start + span i / (n - 1) round above t_end for some spans (0.42 * 10 / 10 =
    # 0.42000000000000004), and that sample was never recorded: the last row is t_end itself,
    # and there are as many rows as samples, for spans and counts that round either way.
    for t_start, t_end, sets in ((0.0, 0.42, ["output.samples=11"]),
                                 (0.0, 0.44, ["output.samples=11"]),
                                 (0.0, 0.42, ["output.sample_interval=0.002"]),
                                 (0.1, 0.7, ["output.samples=7"]),
                                 (0.3, 1.0, ["output.sample_interval=0.1"])):
        out = os.path.join(cli.work, "samples")
        args = ["run", cli.model("bouncing_ball.toml"), "--out", out, "--set",
                "solver.t_end=%r" % t_end, "--set", "initial.t=%r" % t_start]
        for s in sets:
            args += ["--set", s]
        code, stdout, stderr = cli.run(*args)
        expect_exit(code, 0, stdout, stderr, " ".join(sets))
        rows = read_csv(os.path.join(out, "trajectory.csv"))
        count = (int(sets[0].split("=")[1]) if "samples=" in sets[0]
                 else round((t_end - t_start) / float(sets[0].split("=")[1])) + 1)
        expect(float(rows[-1]["t"]) == t_end and len(rows) == count, "the last sample at t_end",
               t_end, sets, rows[-1]["t"], len(rows), count)


@case
def strict_refuses_a_degraded_run(cli):
    # The rounded Painleve rod above its critical mu starts with a Moreau-Jean stretch: the run
    # succeeds, degraded (issue 44 item 3); --strict makes that exit 4, the files written.
    out = os.path.join(cli.work, "rod")
    args = ["run", cli.model("painleve_rounded_rod.toml"), "--set", "mu=1.2", "--out", out]
    code, stdout, stderr = cli.run(*args)
    expect_exit(code, 0, stdout, stderr, "run of a degraded run without --strict")
    expect(re.search(r"status +end-time-reached \(degraded: [0-9]+ Moreau-Jean stretch", stdout),
           "the status line does not say degraded", stdout)
    summary = read_summary(out)
    expect(summary["degraded"] is True, "summary.json: degraded is not true", summary)
    intervals = summary["degraded_intervals"]
    expect(len(intervals) == len(summary["bridge_stretches"]) >= 1,
           "degraded_intervals and bridge_stretches disagree", intervals)
    expect(all(a <= b for a, b in intervals), "an interval ends before it starts", intervals)
    # Each stretch states its scheme's accuracy: Moreau-Jean, theta = 1/2, first order in step.
    for st in summary["bridge_stretches"]:
        expect(st["accuracy"] == {"scheme": "moreau-jean", "theta": 0.5, "order": 1}
               and st["step"] > 0, "a stretch's accuracy is not stated", st)
    expect(summary["not_evaluated_in_stretches"] == [], "the rod has no observers", summary)
    # A stroboscopic section is not evaluated inside the stretch: the report and summary.json
    # name it.
    with open(cli.model("painleve_rounded_rod.toml")) as f:
        text = f.read()
    clocked = os.path.join(cli.work, "clocked_rod.toml")
    with open(clocked, "w") as f:
        f.write(text + '\n[[sections]]\nname = "clock"\nperiod = 0.001\n')
    clocked_out = os.path.join(cli.work, "clocked")
    code, stdout, stderr = cli.run("run", clocked, "--set", "mu=1.2", "--out", clocked_out)
    expect_exit(code, 0, stdout, stderr, "run of the clocked rod")
    expect("not evaluated inside the Moreau-Jean stretches: 'clock'" in stdout,
           "the report does not name the section left out of the stretches", stdout)
    expect(read_summary(clocked_out)["not_evaluated_in_stretches"] == ["clock"],
           "summary.json does not name the section", read_summary(clocked_out))
    code, stdout, stderr = cli.run(*args, "--strict")
    expect_exit(code, 4, stdout, stderr, "run --strict of a degraded run")
    expect("--strict" in stderr, "--strict's refusal does not name itself", stderr)
    expect(read_summary(out)["degraded"] is True, "--strict did not write summary.json")
    ball = os.path.join(cli.work, "ball")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", ball,
                                   "--strict")
    expect_exit(code, 0, stdout, stderr, "run --strict of an event-driven run")
    expect(read_summary(ball)["degraded"] is False, "the ball's run is degraded")
    expect(read_summary(ball)["degraded_intervals"] == [], "the ball has degraded intervals")


@case
def zero_atol_of_a_state_is_a_note(cli):
    """[solver] atol as a table of the states' own values: a state's atol of 0 leaves it no scale
    where it is 0; it takes the default, and the report and summary.json say so (issue 34)."""
    with open(cli.model("bouncing_ball.toml")) as f:
        text = f.read()
    text = text.replace("[solver]\n", '[solver]\natol = { default = 1e-11, x = 0 }\n', 1)
    text = "\n".join(l for l in text.split("\n") if not l.startswith("atol = 1e"))
    model = os.path.join(cli.work, "zero_atol.toml")
    with open(model, "w") as f:
        f.write(text)
    out = os.path.join(cli.work, "zero_atol")
    code, stdout, stderr = cli.run("run", model, "--out", out)
    expect_exit(code, 0, stdout, stderr, "run with atol.x = 0")
    note = "[solver] atol.x = 0 gives state 'x' no scale where it is 0; it takes the default atol 1e-11"
    expect("note       " + note in stdout, "no note in the report", stdout)
    expect(read_summary(out).get("notes") == [note], "summary.json notes", read_summary(out))


@case
def rerun_replaces_a_plotted_folder(cli):
    """A folder `saltus run --plot` filled (forces.png included) is saltus's own: a second run
    into it replaces it (it once refused, naming forces.png)."""
    if not has_matplotlib():
        return
    out = os.path.join(cli.work, "box")
    box = cli.model("box_sliding_two_corners.toml")
    code, stdout, stderr = cli.run("run", box, "--out", out, "--plot")
    expect_exit(code, 0, stdout, stderr, "run --plot")
    expect("forces.png" in os.listdir(out), "no forces.png for the box", os.listdir(out))
    header = read_csv(os.path.join(out, "trajectory.csv"))[0].keys()
    expect("lambda_N:trailing" in header and "lambda_T:leading" in header,
           "no contact-force columns", list(header))
    code, stdout, stderr = cli.run("run", box, "--out", out)
    expect_exit(code, 0, stdout, stderr, "second run into the plotted folder")
    expect("forces.png" not in os.listdir(out), "the folder was not replaced", os.listdir(out))


@case
def check_every_model(cli):
    models = sorted(f for f in os.listdir(cli.models) if f.endswith(".toml"))
    expect(models, "no model files in " + cli.models)
    code, stdout, stderr = cli.run("check", *[cli.model(m) for m in models])
    expect_exit(code, 0, stdout, stderr, "check")
    for m in models:
        expect(cli.model(m) + ": ok" in stdout, m + " not reported ok", stdout)


@case
def check_malformed_fails(cli):
    bad = os.path.join(cli.source, "tests", "model", "data", "unknown_symbol.toml")
    code, stdout, stderr = cli.run("check", bad)
    expect_exit(code, 1, stdout, stderr, "check of a malformed model")
    expect(re.search(re.escape(bad) + r":[0-9]+:[0-9]+: error: ", stderr),
           "the problem does not name file:line:column", stderr)


@case
def run_help_names_existing_files(cli):
    for command in ("run", "sweep"):
        code, stdout, stderr = cli.run(command, "--help")
        expect_exit(code, 0, stdout, stderr, command + " --help")
        expect("Examples" in stdout, f"no examples in {command} --help", stdout)
        named = re.findall(r"models/[A-Za-z0-9_]+\.toml", stdout)
        expect(named, f"{command} --help names no model file", stdout)
        for path in named:
            expect(os.path.isfile(os.path.join(cli.source, path)),
                   f"{command} --help names missing " + path)


@case
def failed_run_writes_labelled_outputs(cli):
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run(*failing_run_args(cli, out))
    expect_exit(code, 2, stdout, stderr, "failed run")
    expect("event-cap" in stderr, "stderr does not say why the run failed", stderr)
    summary = read_summary(out)
    expect(summary["status"] == "event-cap" and summary["succeeded"] is False,
           "summary.json does not label the failure", summary)
    expect(summary["message"], "summary.json has no message", summary)
    events = read_csv(os.path.join(out, "events.csv"))
    expect(len(events) == 3, "events.csv should hold the 3 events before the cap", len(events))
    trajectory = read_csv(os.path.join(out, "trajectory.csv"))
    expect(len(trajectory) > 1, "trajectory.csv is empty", len(trajectory))
    last_t = float(trajectory[-1]["t"])
    expect(last_t <= summary["t_final"] and last_t >= float(events[-1]["t"]) - 0.01,
           "trajectory.csv does not reach the failure", last_t, summary["t_final"])


@case
def failed_run_replaces_old_summary(cli):
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "first run")
    with open(os.path.join(out, "states.png"), "wb") as f:  # a plot of the first run
        f.write(b"old plot")
    code, stdout, stderr = cli.run(*failing_run_args(cli, out))
    expect_exit(code, 2, stdout, stderr, "failed second run")
    expect(read_summary(out)["status"] == "event-cap", "old summary.json left in place",
           read_summary(out))
    expect(sorted(os.listdir(out)) == ["events.csv", "summary.json", "trajectory.csv"],
           "files of the first run left beside the second's", os.listdir(out))
    expect(not leftovers_beside(out), "temporary folder left behind", leftovers_beside(out))


@case
def write_failure_leaves_old_folder(cli):
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "first run")
    before = folder_bytes(out)
    # The second run's trajectory.csv is small (one sample a second) and its events.csv large:
    # with files limited to 8 KiB, the write fails midway, after trajectory.csv.
    with open(cli.model("bouncing_ball.toml")) as f:
        text = f.read()
    expect("sample_interval = 0.005" in text, "bouncing_ball.toml changed its [output]")
    sparse = os.path.join(cli.work, "sparse_ball.toml")
    with open(sparse, "w") as f:
        f.write(text.replace("sample_interval = 0.005", "sample_interval = 1.0"))

    def small_file_limit():
        # Writes past 8 KiB fail with EFBIG (SIGXFSZ ignored) instead of killing the process.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    code, stdout, stderr = cli.run("run", sparse, "--out", out, preexec_fn=small_file_limit)
    expect_exit(code, 3, stdout, stderr, "run whose events.csv cannot be written")
    expect("events.csv" in stderr, "the error does not name the file", stderr)
    expect(folder_bytes(out) == before, "the old output folder was changed (runs mixed)",
           sorted(folder_bytes(out)))
    expect(not leftovers_beside(out), "half-written folder left behind", leftovers_beside(out))


@case
def foreign_folder_not_replaced(cli):
    out = os.path.join(cli.work, "mine")
    os.makedirs(out)
    with open(os.path.join(out, "notes.txt"), "w") as f:
        f.write("not saltus output")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", out)
    expect_exit(code, 3, stdout, stderr, "run into a folder with a foreign file")
    expect("notes.txt" in stderr, "the error does not name the foreign file", stderr)
    expect(os.listdir(out) == ["notes.txt"], "the folder was changed", os.listdir(out))


@case
def model_path_not_a_regular_file(cli):
    fifo = os.path.join(cli.work, "model.fifo")
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", cli.models):
        for command in ("run", "check"):
            try:
                code, stdout, stderr = cli.run(command, path, timeout=20)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{command} {path} did not return within 20 s")
            expect_exit(code, 1, stdout, stderr, f"{command} {path}")
            expect(path + ": error: the model file is" in stderr,
                   "the refusal does not name the file", stderr)


@case
def check_refuses_what_run_fails_on_at_t0(cli):
    for override, cause in (("g=1/0", "parameter 'g' = inf is not finite"),
                            ("max_events=1e12", "exceeds the limit of 1000000000")):
        code, stdout, stderr = cli.run("check", cli.model("bouncing_ball.toml"), "--set", override)
        expect_exit(code, 1, stdout, stderr, "check --set " + override)
        expect(cli.model("bouncing_ball.toml") + ": error: " in stderr and cause in stderr,
               "the problem does not name the file and the cause", stderr)
    code, stdout, stderr = cli.run("check", cli.model("bouncing_rod.toml"), "--set", "m=-1")
    expect_exit(code, 1, stdout, stderr, "check of a rod with m = -1")
    expect("positive definite" in stderr, "the mass matrix is not named", stderr)


def has_matplotlib():
    return subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"],
                          capture_output=True).returncode == 0


def read_npy_float64(path):
    """A 2-d '<f8' .npy file (format 1.0) read without numpy: (shape, values row by row); the
    same file through numpy.load when numpy is there."""
    with open(path, "rb") as f:
        data = f.read()
    expect(data[:8] == b"\x93NUMPY\x01\x00", "not an .npy 1.0 file", path)
    length = int.from_bytes(data[8:10], "little")
    header = data[10:10 + length].decode("latin1")
    expect((10 + length) % 64 == 0 and header.endswith("\n"), "npy header padding", header)
    expect("'descr': '<f8'" in header and "'fortran_order': False" in header, "npy header", header)
    shape = tuple(int(n) for n in re.search(r"'shape': \((\d+), (\d+)\)", header).groups())
    values = struct.unpack("<%dd" % (shape[0] * shape[1]), data[10 + length:])
    try:
        import numpy
        loaded = numpy.load(path)
        expect(loaded.shape == shape and list(loaded.ravel()) == list(values), "numpy.load", path)
    except ImportError:
        pass
    return shape, values


@case
def sweep_writes_table_and_plots(cli):
    out = os.path.join(cli.work, "sweep")
    code, stdout, stderr = cli.run("sweep", cli.model("bouncing_ball.toml"), "--vary",
                                   "e=0.2:0.8:4", "--vary", "h0=1:2:2", "--collect",
                                   "zeno_time,events.count,final.x", "--threads", "2",
                                   "--set", "t_end=20", "--out", out)
    plotted = has_matplotlib()
    expect_exit(code, 0 if plotted else 3, stdout, stderr, "sweep")
    rows = read_csv(os.path.join(out, "sweep.csv"))
    expect(list(rows[0].keys()) == ["e", "h0", "status", "succeeded", "zeno_time",
                                    "events.count", "final.x"], "sweep.csv header", rows[0])
    expect(len(rows) == 8, "sweep.csv does not hold 8 points", rows)
    for r in rows:
        e, h0 = float(r["e"]), float(r["h0"])
        t_inf = (2 * h0 / 9.81) ** 0.5 * (1 + e) / (1 - e)
        expect(r["status"] == "end-time-reached" and r["succeeded"] == "1", "status", r)
        expect(abs(float(r["zeno_time"]) - t_inf) < 1e-6 * t_inf, "Zeno time off", r, t_inf)
    # sweep.npy: the same numbers, bit for bit (status in sweep_columns.json).
    shape, table = read_npy_float64(os.path.join(out, "sweep.npy"))
    with open(os.path.join(out, "sweep_columns.json")) as f:
        columns = json.load(f)
    expect(columns["columns"] == ["e", "h0", "succeeded", "zeno_time", "events.count", "final.x"]
           and columns["status"] == [r["status"] for r in rows], "sweep_columns.json", columns)
    expect(shape == (8, 6), "sweep.npy shape", shape)
    for i, r in enumerate(rows):
        for k, name in enumerate(columns["columns"]):
            expect(table[i * 6 + k] == float(r[name]), "sweep.npy differs from sweep.csv", i, name,
                   table[i * 6 + k], r[name])
    pngs = sorted(n for n in os.listdir(out) if n.endswith(".png"))
    wanted = ["sweep_events.count.png", "sweep_final.x.png", "sweep_zeno_time.png"]
    expect(pngs == (wanted if plotted else []), "plots in the sweep folder", pngs)
    # The folder is saltus's own: a second sweep replaces it as a whole.
    code, stdout, stderr = cli.run("sweep", cli.model("bouncing_ball.toml"), "--vary",
                                   "e=0.5:0.5:1", "--collect", "t_final", "--no-plot", "--out", out)
    expect_exit(code, 0, stdout, stderr, "second sweep into the same folder")
    expect(sorted(os.listdir(out)) == ["sweep.csv", "sweep.npy", "sweep_columns.json"]
           and len(read_csv(os.path.join(out, "sweep.csv"))) == 1,
           "the second sweep did not replace the folder", os.listdir(out))


@case
def sweep_failed_points_are_rows(cli):
    out = os.path.join(cli.work, "sweep")
    code, stdout, stderr = cli.run("sweep", cli.model("bouncing_ball.toml"), "--vary",
                                   "h0=-1:1:3", "--collect", "zeno_time", "--no-plot", "--out", out)
    expect_exit(code, 2, stdout, stderr, "sweep with a failing point")
    expect("1 of 3 points failed" in stderr and "h0=-1: invalid-input" in stderr,
           "the failed point is not reported", stderr)
    rows = read_csv(os.path.join(out, "sweep.csv"))
    expect([r["status"] for r in rows][0] == "invalid-input" and rows[0]["zeno_time"] == "nan",
           "the failed point's row", rows)
    expect(all(r["succeeded"] == "1" for r in rows[1:]), "the other points", rows)


@case
def sweep_bad_input_is_refused(cli):
    ball = cli.model("bouncing_ball.toml")
    out = os.path.join(cli.work, "never")
    for args, cause in [
        (["--vary", "e=0.9:0.1:5", "--collect", "zeno_time"], "the range is empty"),
        (["--vary", "e=0.1:0.9", "--collect", "zeno_time"], "expected three fields"),
        (["--vary", "e=0.1:0.9:0", "--collect", "zeno_time"], "N must be a whole number"),
        (["--vary", "ee=0.1:0.9:3", "--collect", "zeno_time"],
         "'ee' is not a parameter or state"),
        (["--vary", "e=0.1:0.9:3", "--collect", "zeno_time,bounces"],
         "unknown quantity 'bounces'"),
        (["--vary", "e=0.1:0.9:3", "--collect", "final.q"], "'final.q' names no state"),
        (["--vary", "e=0.1:0.9:3", "--random", "0", "--collect", "zeno_time"],
         "the number of points must be at least 1"),
    ]:
        code, stdout, stderr = cli.run("sweep", ball, *args, "--out", out)
        expect_exit(code, 1, stdout, stderr, "sweep " + " ".join(args))
        expect(cause in stderr and "nothing was run" in stderr, "the cause is not named", cause,
               stderr)
        expect(not os.path.exists(out), "a refused sweep wrote " + out)


@case
def sweep_random_points_repeat_with_seed(cli):
    tables = []
    for seed, name in [("3", "a"), ("3", "b"), ("4", "c")]:
        out = os.path.join(cli.work, name)
        code, stdout, stderr = cli.run("sweep", cli.model("bouncing_ball.toml"), "--vary",
                                       "e=0.2:0.6:1", "--vary", "h0=1:2:1", "--random", "6",
                                       "--seed", seed, "--collect", "zeno_time", "--no-plot",
                                       "--out", out)
        expect_exit(code, 0, stdout, stderr, "random sweep, seed " + seed)
        with open(os.path.join(out, "sweep.csv")) as f:
            tables.append(f.read())
        rows = read_csv(os.path.join(out, "sweep.csv"))
        expect(len(rows) == 6, "not 6 random points", rows)
        expect(all(0.2 <= float(r["e"]) < 0.6 and 1 <= float(r["h0"]) < 2 for r in rows),
               "a random point outside its range", rows)
    expect(tables[0] == tables[1], "the same seed gave different tables", *tables[:2])
    expect(tables[0] != tables[2], "seeds 3 and 4 gave the same table")



@case
def rod_landing_flat(cli):
    # Both ends land at once: one impact set, rebound e v without spin (v = sqrt(2 g h)).
    model = cli.model("rod_landing_flat.toml")
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run("run", model, "--out", out)
    expect_exit(code, 0, stdout, stderr, "run")
    first = read_csv(os.path.join(out, "events.csv"))[0]
    v = (2 * 9.81 * 1.0) ** 0.5
    expect(abs(float(first["t"]) - (2 * 1.0 / 9.81) ** 0.5) <= 1e-9, "landing time", first)
    expect(abs(float(first["y'_after"]) - 0.6 * v) <= 1e-9 * v, "rebound speed", first)
    expect(float(first["theta'_after"]) == 0.0, "spin after a flat landing", first)
    # e = 0: both ends stay closed (the contact-force LCP over both): the rod rests flat.
    code, stdout, stderr = cli.run("run", model, "--set", "e=0", "--out", out + "_plastic")
    expect_exit(code, 0, stdout, stderr, "run with e = 0")
    last = read_csv(os.path.join(out + "_plastic", "trajectory.csv"))[-1]
    expect(abs(float(last["y"])) <= 1e-9 and abs(float(last["theta"])) <= 1e-9 and
           abs(float(last["y'"])) <= 1e-9, "rod at rest on the table", last)
    # Resting flat at t0: both ends closed from the start.
    code, stdout, stderr = cli.run("check", model, "--set", "h=0")
    expect_exit(code, 0, stdout, stderr, "check of a rod resting flat")

@case
def box_sliding_two_corners(cli):
    # Both corners slide, the box stops at v0 / (mu g) after v0^2 / (2 mu g) and both corners stick.
    model = cli.model("box_sliding_two_corners.toml")
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run("run", model, "--out", out)
    expect_exit(code, 0, stdout, stderr, "run")
    events = read_csv(os.path.join(out, "events.csv"))
    v0, mu, g = 2.0, 0.4, 9.81
    expect(len(events) == 1 and events[0]["guard"].startswith("stick:") and
           abs(float(events[0]["t"]) - v0 / (mu * g)) <= 1e-9, "one stick event at v0/(mu g)",
           events)
    last = read_csv(os.path.join(out, "trajectory.csv"))[-1]
    expect(abs(float(last["x"]) - v0 * v0 / (2 * mu * g)) <= 1e-9 and
           abs(float(last["x'"])) <= 1e-9 and abs(float(last["theta"])) <= 1e-9,
           "stopped after v0^2/(2 mu g), flat", last)


@case
def rocking_block(cli):
    # Plastic corner impacts (Housner's ratio 1 - 1.5 sin^2(alpha) of theta'), settling flat.
    model = cli.model("rocking_block.toml")
    out = os.path.join(cli.work, "out")
    code, stdout, stderr = cli.run("run", model, "--out", out)
    expect_exit(code, 0, stdout, stderr, "run")
    impacts = [r for r in read_csv(os.path.join(out, "events.csv"))
               if r["guard"].startswith("impact:")]
    ratio = 1 - 1.5 * math.sin(math.atan(0.25 / 0.5)) ** 2
    expect(len(impacts) >= 4, "impacts", impacts)
    for r in impacts[:4]:
        got = float(r["theta'_after"]) / float(r["theta'_before"])
        expect(abs(got - ratio) <= 1e-9, "Housner ratio", r, got, ratio)
    last = read_csv(os.path.join(out, "trajectory.csv"))[-1]
    expect(abs(float(last["theta"])) <= 1e-9 and abs(float(last["theta'"])) <= 1e-9,
           "settled flat", last)
    # Its [drawing]: the corner points never below the floor (beyond the contact tolerance),
    # both on it at the end, the block a 2a x 2h polygon; the animation draws from it.
    drawing = read_csv(os.path.join(out, "drawing.csv"))
    expect(min(min(float(r["left.y0"]), float(r["right.y0"])) for r in drawing) >= -1e-9,
           "a drawn corner below the floor")
    end = drawing[-1]
    expect(abs(float(end["left.y0"])) <= 1e-9 and abs(float(end["right.y0"])) <= 1e-9 and
           abs(float(end["block.x1"]) - float(end["block.x0"]) - 0.5) <= 1e-9 and
           abs(float(end["block.y2"]) - 1.0) <= 1e-9, "drawn flat at the end", end)
    code, stdout, stderr = cli.run("animate", out, "--frames", "6", "--fps", "5")
    plotted = has_matplotlib()
    expect_exit(code, 0 if plotted else 3, stdout, stderr, "animate")
    if plotted:
        expect(gif_frames(os.path.join(out, "animation.gif")) == 6, "frames of animation.gif")


def gif_frames(path):
    """Frames of a GIF, counted by Debian's Pillow (the python3 running this may lack it)."""
    p = subprocess.run(["/usr/bin/python3", "-c", "import sys; from PIL import Image; "
                        "im = Image.open(sys.argv[1]); print(im.format, im.n_frames)", path],
                       capture_output=True, text=True)
    expect(p.returncode == 0, "Pillow cannot read " + path, p.stderr)
    fmt, n = p.stdout.split()
    expect(fmt == "GIF", path + " is not a GIF", fmt)
    return int(n)


@case
def animate_rod(cli):
    # A model with [drawing]: run writes drawing.csv (one row per trajectory sample) and
    # drawing.json; animate draws them into animation.gif with the requested number of frames.
    out = os.path.join(cli.work, "rod")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_rod.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "run")
    expect(sorted(os.listdir(out)) == ["drawing.csv", "drawing.json", "events.csv", "summary.json",
                                       "trajectory.csv"], "files of a run with a drawing",
           os.listdir(out))
    drawing = read_csv(os.path.join(out, "drawing.csv"))
    trajectory = read_csv(os.path.join(out, "trajectory.csv"))
    expect(len(drawing) == len(trajectory) and drawing[-1]["t"] and
           abs(float(drawing[-1]["t"]) - float(trajectory[-1]["t"])) < 1e-9,
           "drawing.csv does not follow the trajectory", len(drawing), len(trajectory))
    code, stdout, stderr = cli.run("animate", out, "--frames", "12", "--fps", "5")
    plotted = has_matplotlib()
    expect_exit(code, 0 if plotted else 3, stdout, stderr, "animate")
    if plotted:
        expect(gif_frames(os.path.join(out, "animation.gif")) == 12, "frames of animation.gif")
    # The folder, animation included, is saltus's own: a second run replaces it.
    code, stdout, stderr = cli.run("run", cli.model("bouncing_rod.toml"), "--out", out, "--animate")
    expect_exit(code, 0 if plotted else 3, stdout, stderr, "run --animate into the same folder")
    if plotted:
        expect(gif_frames(os.path.join(out, "animation.gif")) == 200, "default frame count")


@case
def animate_refuses_folder_without_drawing(cli):
    out = os.path.join(cli.work, "ball")
    code, stdout, stderr = cli.run("run", cli.model("bouncing_ball.toml"), "--out", out)
    expect_exit(code, 0, stdout, stderr, "run")
    code, stdout, stderr = cli.run("animate", out)
    expect_exit(code, 3, stdout, stderr, "animate without a drawing")
    expect("no [drawing] section" in stderr, "the cause is not named", stderr)
    expect("animation.gif" not in os.listdir(out), "an animation was written")


@case
def check_drawing_unknown_symbol(cli):
    bad = os.path.join(cli.source, "tests", "model", "data", "drawing_unknown_symbol.toml")
    code, stdout, stderr = cli.run("check", bad)
    expect_exit(code, 1, stdout, stderr, "check of a drawing with an unknown symbol")
    expect(re.search(re.escape(bad) + r":20:35: error: .*unknown symbol 'angle'", stderr),
           "the problem does not name file:line:column and the symbol", stderr)
    code, stdout, stderr = cli.run("run", bad, "--out", os.path.join(cli.work, "out"))
    expect_exit(code, 1, stdout, stderr, "run of a drawing with an unknown symbol")
    expect(not os.path.exists(os.path.join(cli.work, "out")), "a refused run wrote files")


def main(cases=None, script="cli_test.py"):
    """Runs the case named by argv[1] (cli_analysis_test.py passes its own cases)."""
    cases = CASES if cases is None else cases
    if len(sys.argv) != 5 or sys.argv[1] not in cases:
        sys.exit("usage: " + script + " {" + "|".join(cases) + "} SALTUS SOURCE_DIR WORK_DIR")
    name, binary, source, work = sys.argv[1:]
    work = os.path.join(work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        cases[name](Cli(binary, source, work))
    except AssertionError as e:
        print(f"FAILED {name}: {e}")
        sys.exit(1)
    print(f"passed {name}")


if __name__ == "__main__":
    main()
