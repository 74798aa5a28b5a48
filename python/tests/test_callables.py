"""Hybrid systems of Python callables (saltus.System): the bouncing ball against its closed form
and against the same model file, a thermostat's two modes, a mode of another size, terminal
transitions, seeded random drops, and each bad callable a CallableError naming it."""
import math
import os

import numpy as np
import pytest

import saltus

G = 9.81


def impact_times(h, e, t_end):
    """Closed form: the ball falls for T = sqrt(2 h / g), then flies 2 T e^k between impacts."""
    fall = math.sqrt(2 * h / G)
    times, t, k = [], fall, 0
    while t <= t_end and k < 200:
        times.append(t)
        k += 1
        t += 2 * fall * e**k
    return np.array(times)


def ball(e=0.8, reset=None, guard=None, flow=None):
    def flight(t, x):
        return [x[1], -G]

    def floor(t, x):
        return -x[0]

    def bounce(t, x):
        return np.array([x[0], -e * x[1]])

    impact = saltus.Transition("impact", guard or floor, "rising", reset=reset or bounce,
                               target="flight")
    return saltus.System(["x", "v"], {"flight": saltus.Mode(flow or flight, [impact])},
                         name="ball")


BALL_TOML = """
[model]
name = "ball"
[parameters]
g = 9.81
e = 0.8
[states]
x = { initial = 1.0 }
v = { initial = 0.0 }
[modes.flight]
flow = ["x' = v", "v' = -g"]
[[modes.flight.guards]]
name = "impact"
value = "-x"
direction = "rising"
target = "flight"
reset = ["v = -e*v"]
[solver]
t_end = 2.0
rtol = 1e-10
atol = 1e-12
"""


def test_ball_from_callables_against_closed_form():
    run = ball().run(x0=[1.0, 0.0], t_end=2.0, rtol=1e-10, atol=1e-12)
    assert run.status == "end-time-reached" and run.succeeded
    ev = run.events
    expected = impact_times(1.0, 0.8, 2.0)
    assert len(ev) == len(expected) == 3
    assert np.max(np.abs(ev["t"] - expected)) < 1e-9
    assert ev["guard"] == ["impact"] * 3 and ev["mode_after"] == ["flight"] * 3
    assert np.allclose(ev["v_after"], -0.8 * ev["v_before"], rtol=1e-14, atol=0)
    assert run.trajectory.columns[:4] == ["t", "j", "x", "v"]
    # A Python guard is sampled, and the summary says so.
    assert run.summary["sampled_guards"] == ["mode 'flight' guard 'impact'"]


def test_ball_from_callables_matches_the_model_file():
    from_file = saltus.load_string(BALL_TOML, name="ball.toml").run()
    from_python = ball().run(x0=[1.0, 0.0], t_end=2.0, rtol=1e-10, atol=1e-12)
    a, b = from_file.events, from_python.events
    assert len(a) == len(b) == 3
    assert np.max(np.abs(a["t"] - b["t"])) < 1e-9
    assert np.max(np.abs(a["v_after"] - b["v_after"])) < 1e-9
    # Same sample times (1001, as [output] samples), same states to the integrator's accuracy.
    ta, tb = from_file.trajectory, from_python.trajectory
    assert np.array_equal(ta["t"], tb["t"])
    assert np.max(np.abs(ta["x"] - tb["x"])) < 1e-8


def test_a_gradient_resolves_the_zeno_point_as_the_model_file_does():
    # Past t_inf: without a gradient the accumulation is taken as reached once recognised (5
    # events); with it the run resolves impacts on to the hand-over tolerance, as the file does.
    t_inf = math.sqrt(2 / G) * 1.8 / 0.2
    text = BALL_TOML.replace("t_end = 2.0", f"t_end = {1.2 * t_inf!r}")
    from_file = saltus.load_string(text).run()
    impact = saltus.Transition("impact", lambda t, x: -x[0], reset=lambda t, x: [x[0], -0.8 * x[1]],
                               target="flight", gradient=lambda t, x: ([-1.0, 0.0], 0.0))
    system = saltus.System(["x", "v"], {"flight": saltus.Mode(lambda t, x: [x[1], -G], [impact])})
    with_gradient = system.run([1.0, 0.0], 1.2 * t_inf, rtol=1e-10, atol=1e-12)
    sampled_only = ball().run([1.0, 0.0], 1.2 * t_inf, rtol=1e-10, atol=1e-12)
    assert from_file.status == with_gradient.status == sampled_only.status == "zeno"
    assert len(with_gradient.events) == len(from_file.events) > 50 and len(sampled_only.events) < 10
    assert np.max(np.abs(with_gradient.events["t"] - from_file.events["t"])) < 1e-9
    for run in (with_gradient, sampled_only):
        assert abs(run.zeno_time - t_inf) < 1e-9
    newton = system.run([1.0, 0.0], 2.0, rtol=1e-10, atol=1e-12, root_finder="newton")
    assert np.max(np.abs(newton.events["t"] - impact_times(1.0, 0.8, 2.0))) < 1e-9


def test_thermostat_two_modes_and_a_terminal_transition():
    # on: T' = k (Th - T) until T = 22; off: T' = -k T until T = 18; stop at t = 5.
    k, th = 1.0, 30.0
    modes = {
        "on": saltus.Mode(lambda t, x: [k * (th - x[0])],
                          [saltus.Transition("hot", lambda t, x: x[0] - 22.0, target="off"),
                           saltus.Transition("stop", lambda t, x: t - 5.0, terminal=True)]),
        "off": saltus.Mode(lambda t, x: [-k * x[0]],
                           [saltus.Transition("cold", lambda t, x: x[0] - 18.0, "falling",
                                              target="on"),
                            saltus.Transition("stop", lambda t, x: t - 5.0, terminal=True)]),
    }
    run = saltus.System(["T"], modes, name="thermostat").run([18.0], 10.0, mode="on",
                                                             rtol=1e-12, atol=1e-12)
    assert run.status == "terminal-event"
    heat, cool = math.log((th - 18) / (th - 22)) / k, math.log(22 / 18) / k
    expected, t, on = [], 0.0, True
    while True:
        t += heat if on else cool
        if t > 5.0:
            break
        expected.append(t)
        on = not on
    ev = run.events
    assert ev["guard"][:-1] == [("hot", "cold")[i % 2] for i in range(len(expected))]
    assert np.max(np.abs(ev["t"][:-1] - expected)) < 1e-9
    assert ev["guard"][-1] == "stop" and abs(ev["t"][-1] - 5.0) < 1e-9
    assert run.summary["final_mode"] == ("off" if len(expected) % 2 else "on")


def test_a_reset_into_a_mode_of_another_size():
    # At the impact the ball stops bouncing and slides: u = |v-| decays as u' = -c u.
    c = 2.0
    modes = {
        "flight": saltus.Mode(lambda t, x: [x[1], -G],
                              [saltus.Transition("land", lambda t, x: -x[0],
                                                 reset=lambda t, x: [abs(x[1])],
                                                 target="slide")]),
        "slide": saltus.Mode(lambda t, x: [-c * x[0]], size=1),
    }
    run = saltus.System(["x", "v"], modes).run([1.0, 0.0], 1.0, rtol=1e-11, atol=1e-13)
    fall = math.sqrt(2 / G)
    (t_land,) = run.events["t"]
    assert abs(t_land - fall) < 1e-9 and run.events["mode_after"] == ["slide"]
    tr = run.trajectory
    assert tr["mode"][-1] == "slide" and math.isnan(tr["v"][-1])
    assert abs(tr["x"][-1] - G * fall * math.exp(-c * (1.0 - fall))) < 1e-8


def test_random_drops_end_with_a_status_and_match_the_closed_form():
    rng = np.random.default_rng(47)
    for _ in range(25):
        h, e = rng.uniform(0.05, 3.0), rng.uniform(0.2, 0.9)
        t_inf = math.sqrt(2 * h / G) * (1 + e) / (1 - e)
        t_end = rng.uniform(0.1, 1.2) * t_inf
        run = ball(e).run([h, 0.0], t_end, rtol=1e-10, atol=1e-12, check=False)
        assert run.status in ("end-time-reached", "zeno"), (h, e, t_end, run.message)
        times = run.events["t"]
        expected = impact_times(h, e, t_end)[:len(times)]
        if run.status == "end-time-reached":
            assert len(times) == len(impact_times(h, e, t_end)), (h, e, t_end)
        assert len(times) > 0 or t_end < math.sqrt(2 * h / G)
        assert np.max(np.abs(times - expected), initial=0.0) < 1e-9, (h, e, t_end)


def test_a_flow_that_raises_names_itself_and_chains_the_exception(scratch):
    def flight(t, x):
        if t > 0.3:
            raise ZeroDivisionError("no flow here")
        return [x[1], -G]

    with pytest.raises(saltus.CallableError) as caught:
        ball(flow=flight).run([1.0, 0.0], 2.0)
    e = caught.value
    assert isinstance(e, saltus.EngineError)
    assert isinstance(e.__cause__, ZeroDivisionError) and e.__cause__.__traceback__ is not None
    assert e.callable.endswith("flight") and e.role == "the flow of mode 'flight'"
    assert e.t > 0.3 and len(e.x) == 2
    text = str(e)
    assert "flight (the flow of mode 'flight') raised ZeroDivisionError: no flow here" in text
    assert "at t = " in text and "x = [" in text
    assert not os.listdir(scratch)  # no run came back, so nothing of it was written


def test_a_guard_returning_nan_names_itself():
    def floor(t, x):
        return math.nan if x[0] < 0.5 else -x[0]

    with pytest.raises(saltus.CallableError) as caught:
        ball(guard=floor).run([1.0, 0.0], 2.0)
    e = caught.value
    assert e.__cause__ is None and e.role == "the guard 'impact' of mode 'flight'"
    assert "floor (the guard 'impact' of mode 'flight') returned nan at t = " in str(e)
    assert e.x[0] < 0.5


def test_a_reset_of_the_wrong_length_names_itself():
    def bounce(t, x):
        return [x[0], -x[1], 0.0]

    with pytest.raises(saltus.CallableError) as caught:
        ball(reset=bounce).run([1.0, 0.0], 2.0)
    e = caught.value
    assert "bounce (the reset of guard 'impact' of mode 'flight') returned 3 values; " \
           "expected 2 (mode 'flight' has 2 states)" in str(e)
    assert abs(e.t - math.sqrt(2 / G)) < 1e-9


def test_other_bad_returns_and_raises():
    def bounce(t, x):
        raise ValueError("bad bounce")

    with pytest.raises(saltus.CallableError, match="raised ValueError: bad bounce") as caught:
        ball(reset=bounce).run([1.0, 0.0], 2.0)
    assert isinstance(caught.value.__cause__, ValueError)
    with pytest.raises(saltus.CallableError, match=r"returned 'up', not a number"):
        ball(guard=lambda t, x: "up").run([1.0, 0.0], 2.0)
    with pytest.raises(saltus.CallableError, match=r"returned None; expected 2"):
        ball(flow=lambda t, x: None).run([1.0, 0.0], 2.0)
    with pytest.raises(saltus.CallableError, match=r"returned an array of shape \(2, 1\)"):
        ball(flow=lambda t, x: np.zeros((2, 1))).run([1.0, 0.0], 2.0)
    bad_gradient = saltus.Transition("impact", lambda t, x: -x[0], target="flight",
                                     gradient=lambda t, x: [-1.0, 0.0])
    system = saltus.System(["x", "v"], {"flight": saltus.Mode(lambda t, x: [x[1], -G],
                                                              [bad_gradient])})
    with pytest.raises(saltus.CallableError, match=r"\(the gradient of guard 'impact' of mode "
                       r"'flight'\) returned \[-1.0, 0.0\]; expected a pair \(dp/dx, dp/dt\)"):
        system.run([1.0, 0.0], 2.0)

    def interrupted(t, x):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # not wrapped: the user's Ctrl-C
        ball(flow=interrupted).run([1.0, 0.0], 2.0)


def test_a_flow_returning_nan_fails_the_run_naming_it():
    def flight(t, x):
        return [x[1], math.nan if t > 0.2 else -G]

    with pytest.raises(saltus.RunFailedError) as caught:
        ball(flow=flight).run([1.0, 0.0], 2.0)
    assert caught.value.status == "non-finite-state"
    assert "flight (the flow of mode 'flight') returned [" in caught.value.message


def test_bad_descriptions_are_refused():
    with pytest.raises(saltus.EngineError, match="targets 'landed'"):
        saltus.System(["x"], {"a": saltus.Mode(lambda t, x: [0.0], [
            saltus.Transition("g", lambda t, x: x[0], target="landed")])})
    with pytest.raises(saltus.EngineError, match="x0 has 1 values"):
        ball().run([1.0], 1.0)
    with pytest.raises(saltus.EngineError, match="radau5 needs"):
        ball().run([1.0, 0.0], 1.0, integrator="radau5")


def test_a_successful_run_writes_the_files_of_saltus_run(scratch):
    run = ball().run([1.0, 0.0], 1.0, guard_samples=8, record_steps=True)
    run.write(scratch / "ball")
    assert sorted(os.listdir(scratch / "ball")) == ["events.csv", "summary.json", "trajectory.csv"]
    assert run.summary["model"] == "ball" and run.summary["modes"] == ["flight"]
