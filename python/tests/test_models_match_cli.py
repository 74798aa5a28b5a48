"""Every model in models/ through the package gives what `saltus run` writes, to the last bit."""
import csv
import glob
import json
import os

import pytest

import saltus
from conftest import SOURCE, bits, cell, run_cli

MODELS = sorted(glob.glob(os.path.join(SOURCE, "models", "*.toml")))


def test_models_folder_is_not_empty():
    assert len(MODELS) >= 10


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


@pytest.mark.parametrize("path", MODELS, ids=os.path.basename)
def test_model_equals_cli_to_the_last_bit(cli, scratch, path):
    out = scratch / "run"
    done = run_cli(cli, "run", path, "--out", str(out))
    assert done.returncode in (0, 2), done.stderr
    run = saltus.load(path).run(check=False)
    assert (done.returncode == 0) == run.succeeded
    expect_same_table(read_csv(out / "trajectory.csv"), run.trajectory, ["mode"], "trajectory")
    expect_same_table(read_csv(out / "events.csv"), run.events,
                      ["guard", "mode_before", "mode_after"], "events")
    with open(out / "summary.json") as f:
        summary = json.load(f)
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
