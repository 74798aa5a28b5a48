"""Plot helpers draw the columns they are asked for; `saltus plot --phase` chooses the phase
portrait's variables and refuses unknown ones."""
import os

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import saltus  # noqa: E402
from saltus import plot  # noqa: E402
from conftest import model_path, run_cli  # noqa: E402


def drawn(ax):
    """(x, y) of every line of the axes, NaN gaps removed, concatenated."""
    xs = np.concatenate([np.asarray(l.get_xdata(), float) for l in ax.get_lines()])
    ys = np.concatenate([np.asarray(l.get_ydata(), float) for l in ax.get_lines()])
    keep = ~np.isnan(xs)
    return xs[keep], ys[keep]


def test_phase_draws_the_chosen_columns():
    run = saltus.load(model_path("bouncing_ball.toml")).run()
    fig = plot.phase(run, "v", "x")
    x, y = drawn(fig.axes[0])
    keep = ~np.isnan(run.trajectory["v"])
    assert np.array_equal(np.sort(x), np.sort(run.trajectory["v"][keep]))
    assert np.array_equal(np.sort(y), np.sort(run.trajectory["x"][keep]))
    assert fig.axes[0].get_xlabel() == "v [m/s]" and fig.axes[0].get_ylabel() == "x [m]"
    with pytest.raises(KeyError, match="'w' is not a variable"):
        plot.phase(run, "x", "w")


def test_mechanical_default_is_q_against_q_dot():
    run = saltus.load(model_path("bouncing_rod.toml")).run(check=False)
    q, q_dot = plot.default_phase_variables(run)
    assert q_dot == q + "'" and q in run.trajectory.columns
    ax = plot.phase(run).axes[0]
    assert ax.get_xlabel().split(" ")[0] == q and ax.get_ylabel().split(" ")[0] == q_dot


def test_forces_sweep_states_and_hybrid_time():
    run = saltus.load(model_path("bouncing_ball.toml")).run()
    cols = plot.force_columns(run)
    assert ("trajectory", "lambda") in cols
    assert plot.contact_forces(run) is not None
    assert len(plot.states(run).axes) == len(plot.state_columns(run))
    steps = plot.hybrid_time(run).axes[0].get_lines()[0]
    assert max(steps.get_ydata()) == len(run.events)
    r = saltus.sweep(model_path("bouncing_ball.toml"), ["e=0.3:0.7:5"], ["zeno_time"])
    x, y = drawn(plot.sweep(r, "zeno_time").axes[0])
    assert np.array_equal(x, r["e"]) and np.array_equal(y, r["zeno_time"])


def test_cli_plot_phase_option(cli, scratch):
    out = str(scratch / "rod")
    done = run_cli(cli, "run", model_path("bouncing_rod.toml"), "--out", out)
    assert done.returncode in (0, 2), done.stderr
    done = run_cli(cli, "plot", out, "--phase", "x,x'")
    assert {"x", "x'"} <= set(saltus.load(model_path("bouncing_rod.toml")).states)
    assert done.returncode == 0, done.stderr
    assert os.path.getsize(os.path.join(out, "phase.png")) > 0
    done = run_cli(cli, "plot", out, "--phase", "x,nope")
    assert done.returncode == 3 and "'nope' is not a variable" in done.stderr
