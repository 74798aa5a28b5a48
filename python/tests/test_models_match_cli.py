"""Every model in models/ through the package gives what `saltus run` writes, to the last bit."""
import csv
import glob
import json
import os

import pytest

import saltus
from conftest import SOURCE, bits, cell, run_cli

MODELS = sorted(glob.glob(os.path.join(SOURCE, "models", "*.toml")))

# How each run is documented to end (the model file's header comment): the status name, and the
# command's exit status, 0 for a run that succeeded (end-time-reached, terminal-event, or zeno:
# a run stopped at the accumulation point counts as a success, docs/MODEL_FORMAT.md) and 2 for a
# failed one. Every file of models/ as it is runs to its end: end-time-reached, except the Zeno
# examples with zeno_policy = "stop" whose accumulation comes before t_end (cross_reflection and
# superelastic_interval: "the run stops with status zeno"; steady_zeno: t_Z = 1.10 < t_end = 10);
# elastic_spasmodic stops at t_end = 1.5706, 1e-4 before its accumulation. frictional_bounce with
# mu = 0.55 goes on through Moreau-Jean stretches where its sliding tip meets a Painleve
# situation (issue 32's bridge; events.csv's note column), and with painleve = "stop" is the
# documented failure: "the run ends with the reset-failed status naming the contact, t and B".
# Anything else (a status, an exit status 2 on both sides) fails the test.
ZENO_STOPS = {"cross_reflection.toml", "steady_zeno.toml", "superelastic_interval.toml"}
# bouncing_ball_wear: "the run ends after the reset that makes n = 5 (status terminal-event)".
TERMINATES = {"bouncing_ball_wear.toml"}


def documented_end(path):
    name = os.path.basename(path)
    return "zeno" if name in ZENO_STOPS else \
        "terminal-event" if name in TERMINATES else "end-time-reached"


RUNS = [(path, (), documented_end(path), 0) for path in MODELS]
RUNS.append((os.path.join(SOURCE, "models", "frictional_bounce.toml"), ("v_b=1.0",),
             "end-time-reached", 0))
RUNS.append((os.path.join(SOURCE, "models", "frictional_bounce.toml"), ("mu=0.55",),
             "end-time-reached", 0))
RUNS.append((os.path.join(SOURCE, "models", "frictional_bounce.toml"),
             ("mu=0.55", "mechanics.painleve=stop"), "reset-failed", 2))


def run_id(run):
    path, overrides = run[0], run[1]
    return " ".join([os.path.basename(path), *overrides])


def test_models_folder_is_not_empty():
    assert len(MODELS) >= 10
    for name in ZENO_STOPS:
        assert os.path.join(SOURCE, "models", name) in MODELS, name


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def expect_same_table(rows, table, label_columns, name):
    assert len(rows) == len(table), f"{name}: {len(rows)} CSV rows, {len(table)} in the package"
    header = list(rows[0].keys()) if rows else []
    numeric = [c for c in header if c not in label_columns]
    for c in numeric:
        assert c in table.columns, f"{name}: column {c} missing from the package's table"
    for i, row in enumerate(rows):
        for c in label_columns:
            if c in row:
                assert row[c] == table.labels[c][i], f"{name} row {i} column {c}"
        for c in numeric:
            got = table.values[i, table.columns.index(c)]
            assert bits(cell(row[c])) == bits(got) or (row[c] == "" and got != got), \
                f"{name} row {i} column {c}: CSV {row[c]!r}, package {got!r}"


@pytest.mark.parametrize("path, overrides, status, exit_status", RUNS, ids=map(run_id, RUNS))
def test_model_equals_cli_to_the_last_bit(cli, scratch, path, overrides, status, exit_status):
    out = scratch / "run"
    sets = [arg for o in overrides for arg in ("--set", o)]
    done = run_cli(cli, "run", path, "--out", str(out), *sets)
    assert done.returncode == exit_status, done.stderr
    if exit_status != 0:
        assert f"the run failed ({status})" in done.stderr, done.stderr
    run = saltus.load(path, set=list(overrides)).run(check=False)
    assert run.status == status, run.message
    assert run.succeeded == (exit_status == 0), run.message
    expect_same_table(read_csv(out / "trajectory.csv"), run.trajectory, ["mode"], "trajectory")
    expect_same_table(read_csv(out / "events.csv"), run.events,
                      ["guard", "mode_before", "mode_after", "note"], "events")
    with open(out / "summary.json") as f:
        summary = json.load(f)
    assert summary["status"] == status and summary["succeeded"] == (exit_status == 0)
    for key in ("status", "succeeded", "message", "t_final", "jumps", "final_mode", "zeno_time",
                "events_per_guard", "steps", "rhs_evaluations", "parameters"):
        assert run.summary[key] == summary[key], key
    assert run.status == summary["status"] and run.message == summary["message"]


def test_overrides_equal_cli_set(cli, scratch):
    path = os.path.join(SOURCE, "models", "bouncing_ball.toml")
    out = scratch / "run"
    done = run_cli(cli, "run", path, "--out", str(out), "--set", "e=0.55", "--set",
                   "solver.integrator=dop853", "--set", "h0=1.25")
    assert done.returncode == 0, done.stderr
    model = saltus.load(path, e=0.55, set=["solver.integrator=dop853"]).with_values(h0=1.25)
    assert model.parameters["e"] == 0.55 and model.parameters["h0"] == 1.25
    run = model.run()
    expect_same_table(read_csv(out / "trajectory.csv"), run.trajectory, ["mode"], "trajectory")
    expect_same_table(read_csv(out / "events.csv"), run.events,
                      ["guard", "mode_before", "mode_after"], "events")


def test_model_from_string_equals_model_from_file():
    path = os.path.join(SOURCE, "models", "bouncing_ball.toml")
    with open(path) as f:
        text = f.read()
    a = saltus.load(path, e=0.3).run()
    b = saltus.load_string(text, name=path, e=0.3).run()
    assert (a.trajectory.values.tobytes() == b.trajectory.values.tobytes())
    assert a.events.values.tobytes() == b.events.values.tobytes()
    assert len(a.events) > 5
