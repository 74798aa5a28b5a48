"""saltus.orbit, bifurcation, sensitivity and lyapunov run the command in-process: the same
options give the same files as the `saltus` command, byte for byte (the passive walker's
continuation, seeded random tables, balls and diagrams); results read back against closed
forms; bad options raise with the command's message and write nothing; exit status 2 is a
partial result."""
import math
import os
import random
import re

import numpy as np
import pytest

import saltus
from saltus.analysis import options_to_args
from conftest import model_path, run_cli

WALKER = model_path("passive_walker.toml")
TABLE = model_path("vibrating_table.toml")
BALL = model_path("bouncing_ball.toml")
OSCILLATOR = model_path("impact_oscillator.toml")
T_OSCILLATOR = 2 * math.pi / 2.5  # models/impact_oscillator.toml's forcing period


def files(folder):
    """{name: bytes} of every file of an output folder; summary.json without its wall time (the
    one line that differs between two runs of the same command)."""
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
        if name == "summary.json":
            out[name] = re.sub(rb'\n  "wall_seconds": [^\n]*', b"", out[name])
    return out


def expect_same_folders(cli_folder, python_folder):
    a, b = files(cli_folder), files(python_folder)
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name] == b[name], name


def table_orbit(A, w, e, g, t):
    """The vibrating table's period-1 orbits at instant t (tests/apps/cli_orbit_bifurcations_test.py
    derives them): one impact per period T = 2 pi / w at table phase phi with v+ = g T / 2, so
    (1 + e) A w cos(phi) = (1 - e) g T / 2. Both roots, each as (y, v, phi) at t."""
    T = 2 * math.pi / w
    c = (1 - e) * g * T / 2 / ((1 + e) * A * w)
    out = []
    for phi in (math.acos(c), 2 * math.pi - math.acos(c)):
        s = math.fmod(t - phi / w, T)
        s = s + T if s < 0 else s
        out.append((A * math.sin(phi) + g * T / 2 * s - g * s * s / 2, g * T / 2 - g * s, phi))
    return out


def test_options_become_the_commands_arguments():
    args = options_to_args({"period": 0.1, "continue_": {"A": (0.5, 0.05)}, "points": 40,
                            "switch_at_pd": True, "numerical_resets": False, "plot": False,
                            "cyclic": ["x", "s"], "max_step": 1 / 3, "show": None,
                            "set": {"e": 0.5, "solver.integrator": "radau5"}})
    assert args == ["--period", "0.1", "--continue", "A=0.5:0.05", "--points", "40",
                    "--switch-at-pd", "--no-plot", "--cyclic", "x", "--cyclic", "s",
                    "--max-step", "0.3333333333333333", "--set", "e=0.5",
                    "--set", "solver.integrator=radau5"]
    assert options_to_args({"continue_": "d=0.3:0.31", "plot": True}) == ["--continue",
                                                                          "d=0.3:0.31"]
    with pytest.raises(TypeError, match="period"):
        options_to_args({"period": {"a": object()}})


def test_walker_continuation_gives_the_commands_branch_file(cli, scratch):
    # docs/ANALYSIS.md's worked example: the gait continued in the slope past its doubling.
    command = scratch / "command"
    done = run_cli(cli, "orbit", WALKER, "--section", "theta=0,-", "--min-time", "1",
                   "--continue", "gamma=0.009:0.016", "--out", str(command), "--no-plot")
    assert done.returncode == 0, done.stderr
    r = saltus.orbit(WALKER, scratch / "python", section="theta=0,-", min_time=1,
                     continue_={"gamma": (0.009, 0.016)}, plot=False)
    assert r.complete and r.status == 0
    with open(command / "branch.csv", "rb") as a, open(r.path("branch.csv"), "rb") as b:
        assert a.read() == b.read()
    expect_same_folders(command, r.out)  # orbit.json and bifurcations.csv too
    assert done.stdout.splitlines()[:-1] == r.stdout.splitlines()[:-1]  # the last names --out
    (pd,) = r.orbit["bifurcations"]
    assert pd["kind"] == "period doubling" and r.bifurcations["kind"] == ["period doubling"]
    assert abs(pd["parameter"] - 0.015088437941) < 1e-8  # docs/ANALYSIS.md (SciPy's, 1.3e-13)
    gamma = r.branch["gamma"]
    assert len(r.branch) == r.orbit["points"] and gamma[0] == 0.009
    assert np.array_equal(r.branch["stable"] == 1, gamma < pd["parameter"])
    assert r.period2 is None and r.curves is None


def test_orbit_of_the_vibrating_table_meets_its_closed_form(scratch, capfd):
    # Between the fold (A = 0.138) and the doubling (A = 0.291) of e = 0.7, w = 2 pi, g = 9.81:
    # from the closed-form orbit moved by 1e-3, Newton returns to it.
    A, w, e, g = 0.2, 2 * math.pi, 0.7, 9.81
    (y, v, phi), _ = table_orbit(A, w, e, g, 0.0)
    # A Model: its overrides and its run-time parameters' values now are the command's --set.
    model = saltus.load(TABLE, runtime=["A"], y0=y + 1e-3, v0=v).set_parameters(A=A)
    out = scratch / "table"
    r = saltus.orbit(model, out, period=1.0, plot=False, quiet=True)
    assert capfd.readouterr().out == ""  # quiet: kept in r.stdout, not printed
    assert "orbit      converged" in r.stdout
    assert r.command[:10] == ["orbit", TABLE, "--out", str(out), "--set", f"y0={y + 1e-3!r}",
                              "--set", f"v0={v!r}", "--set", "A=0.2"]
    o = r.orbit
    assert r.complete and o["status"] == "converged" and o["resets_per_period"] == 1
    assert abs(o["state"]["y"] - y) < 1e-9 and abs(o["state"]["v"] - v) < 1e-9
    # The monodromy's trace 1 + e^2 - (1 + e)^2 A w^2 sin(phi) / g and determinant e^2.
    m = r.multipliers
    trace = 1 + e * e - (1 + e) ** 2 * A * w * w * math.sin(phi) / g
    assert abs(m.sum().real - trace) < 1e-7 and abs(np.prod(m).real - e * e) < 1e-7
    assert o["stable"] is True and np.all(np.abs(m) < 1)


def test_a_section_never_crossed_is_a_partial_result(scratch):
    r = saltus.orbit(BALL, scratch / "none", section="x=100,+", min_time=0.1, horizon=1,
                     plot=False, quiet=True)
    assert r.status == 2 and not r.complete
    assert r.orbit["status"] == "map failed" and "was not crossed" in r.orbit["message"]
    assert r.multipliers is None and r.branch is None


BAD = [
    ({"perod": 1.0}, "--perod"),                                   # not an option of orbit
    ({"period": T_OSCILLATOR, "continue_": {"nosuch": (0, 1)}}, "is not a state"),
    ({"section": "v=0,-", "min_time": -1}, "min_time = -1 must be > 0"),
    ({"section": "x=0,"}, "direction"),
    ({"period": "two"}, "--period"),
]


@pytest.mark.parametrize("options,cause", BAD, ids=[c for _, c in BAD])
def test_bad_options_raise_with_the_commands_message_and_write_nothing(cli, scratch, options,
                                                                       cause):
    out = scratch / "bad"
    with pytest.raises(saltus.CommandError) as caught:
        saltus.orbit(OSCILLATOR, out, quiet=True, **options)
    e = caught.value
    assert isinstance(e, saltus.EngineError) and e.status not in (0, 2)
    assert cause in e.message and cause in str(e) and "saltus orbit" in str(e)
    assert not out.exists()
    done = run_cli(cli, *e.command)  # the same arguments: the same status and message
    assert done.returncode == e.status and done.stderr.strip() == e.message
    assert not out.exists()


def test_python_side_refusals_run_nothing(scratch):
    out = scratch / "bad"
    with pytest.raises(TypeError, match="period"):
        saltus.orbit(OSCILLATOR, out, period=[object()])
    text = open(OSCILLATOR).read()
    with pytest.raises(TypeError, match="string"):
        saltus.orbit(saltus.load_string(text, name="x.toml"), out, period=T_OSCILLATOR)
    with pytest.raises(saltus.CommandError, match="nosuch.toml"):
        saltus.lyapunov(model_path("nosuch.toml"), out, quiet=True)
    assert not out.exists()


def test_seeded_random_analyses_equal_the_command(cli, scratch):
    rng = random.Random(47)
    for k in range(3):
        # A table between its fold and its doubling, continued in A; a Model half of the time.
        e = rng.uniform(0.5, 0.8)
        w, g = 2 * math.pi, 9.81
        fold = (1 - e) * math.pi * g / ((1 + e) * w * w)
        A = rng.uniform(1.5 * fold, 2.0 * fold)
        (y, v, _), _ = table_orbit(A, w, e, g, 0.0)
        sets = {"A": A, "e": e, "y0": y, "v0": v}
        cli_sets = [a for n, x in sets.items() for a in ("--set", f"{n}={x!r}")]
        what = f"table {k}: A = {A!r}, e = {e!r}"
        command = scratch / f"table{k}_command"
        done = run_cli(cli, "orbit", TABLE, "--period", "1.0", "--continue",
                       f"A={A!r}:{1.2 * A!r}", "--points", "12", "--out", str(command),
                       "--no-plot", *cli_sets)
        model = saltus.load(TABLE, **sets) if k % 2 else TABLE
        r = saltus.orbit(model, scratch / f"table{k}_python", period=1.0,
                         continue_={"A": (A, 1.2 * A)}, points=12, plot=False, quiet=True,
                         set=None if k % 2 else sets)
        assert r.status == done.returncode, (what, done.stderr, r.stderr)
        expect_same_folders(command, r.out)
        assert len(r.branch) >= 2, what

        # The bouncing ball's flow-map Jacobian at a random restitution and an end time before
        # its Zeno point sqrt(2 h0 / g) (1 + e) / (1 - e) (no derivative there).
        e = rng.uniform(0.3, 0.9)
        t_end = rng.uniform(0.3, 0.9) * math.sqrt(2 / 9.81) * (1 + e) / (1 - e)
        command = scratch / f"ball{k}_command"
        done = run_cli(cli, "sensitivity", BALL, "--set", f"e={e!r}", "--t-end", repr(t_end),
                       "--parameters", "e", "--out", str(command))
        r = saltus.sensitivity(BALL, scratch / f"ball{k}_python", set={"e": e}, t_end=t_end,
                               parameters=["e"], quiet=True)
        assert r.status == done.returncode == 0, done.stderr
        expect_same_folders(command, r.out)
        # e is loaded as a state of rate 0 for d / d e; each impact v+ = -e v- scales the
        # (x, v) volume by e^2.
        assert r.sensitivity["states"] == ["x", "v", "e"] and r.jacobian.shape == (3, 3)
        assert r.parameter_sensitivity.shape == (2, 1)
        assert np.array_equal(r.parameter_sensitivity[:, 0], r.jacobian[:2, 2])
        impacts = r.events["guard"].count("impact")
        assert r.summary["status"] == "end-time-reached" and impacts >= 1
        assert abs(np.linalg.det(r.jacobian[:2, :2]) - e ** (2 * impacts)) < 1e-9, (e, impacts)

    # A diagram of the impact oscillator and the chaotic table's exponents.
    sigma = rng.uniform(0.02, 0.06)
    command = scratch / "diagram_command"
    done = run_cli(cli, "bifurcation", OSCILLATOR, "--vary", f"sigma=0:{sigma!r}:3", "--period",
                   repr(T_OSCILLATOR), "--discard", "50", "--keep", "4", "--out", str(command),
                   "--no-plot")
    r = saltus.bifurcation(OSCILLATOR, scratch / "diagram_python", vary={"sigma": (0, sigma, 3)},
                           period=T_OSCILLATOR, discard=50, keep=4, plot=False, quiet=True)
    assert r.status == done.returncode == 0, done.stderr
    expect_same_folders(command, r.out)
    assert len(r.diagram) == 12 and r.diagram["status"] == ["ok"] * 12
    command = scratch / "lyapunov_command"
    done = run_cli(cli, "lyapunov", TABLE, "--set", "A=0.8", "--set", "e=0.85", "--t-end", "60",
                   "--window", "0.5", "--transient", "10", "--out", str(command))
    r = saltus.lyapunov(TABLE, scratch / "lyapunov_python", set=["A=0.8", "e=0.85"], t_end=60,
                        window=0.5, transient=10, quiet=True)
    assert r.status == done.returncode == 0, done.stderr
    expect_same_folders(command, r.out)
    assert r.complete and len(r.exponents) == 2 and r.exponents[0] > 0 > r.exponents[1]
    # A node's branch through its boundary-equilibrium point (mu = c^2 = 0.25).
    beb = model_path("boundary_equilibrium.toml")
    command = scratch / "equilibrium_command"
    done = run_cli(cli, "equilibrium", beb, "--continue", "mu=0.1:0.5", "--out", str(command),
                   "--no-plot")
    r = saltus.equilibrium(beb, scratch / "equilibrium_python", continue_={"mu": (0.1, 0.5)},
                           plot=False, quiet=True)
    assert r.status == done.returncode == 0, done.stderr
    expect_same_folders(command, r.out)
    point = r.equilibria["branches"][0]["bifurcations"][0]
    assert point["boundary_kind"] == "persistence" and abs(point["parameter"] - 0.25) < 1e-12
    assert len(r.branches["mu"]) == r.equilibria["branches"][0]["points"]


def test_a_command_releases_the_gil(scratch):
    # While a diagram runs in another thread, this thread keeps running Python code (as
    # test_sweep.py's test_sweep_releases_the_gil for sweeps).
    import threading
    import time

    span = {}

    def work():
        span["start"] = time.perf_counter()
        saltus.bifurcation(OSCILLATOR, scratch / "gil", vary={"sigma": (0, 0.06, 8)},
                           period=T_OSCILLATOR, discard=400, keep=4, plot=False, quiet=True)
        span["end"] = time.perf_counter()

    ticks = []
    t = threading.Thread(target=work)
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.0005)
    t.join()
    length = span["end"] - span["start"]
    inside = [x for x in ticks if span["start"] + 0.25 * length < x < span["end"] - 0.25 * length]
    assert len(inside) >= 3, (length, len(ticks))
