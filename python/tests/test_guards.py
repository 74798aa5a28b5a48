"""Guards from Python: Model.guards lists every mode's guards with their jump sets (`when`), as
the file writes them; a guard without `when` has None; the jump set acts in the runs the package
makes (the strikes of the walker-like rotor are those of `saltus run`)."""
import numpy as np

import saltus
from conftest import model_path

ROTOR = model_path("rotor_jump_set.toml")


def test_the_jump_set_of_a_guard_is_its_when():
    (strike,) = saltus.load(ROTOR).guards
    assert isinstance(strike, saltus.Guard)
    assert strike.mode == "roll" and strike.name == "strike"
    assert strike.direction == "rising" and strike.when == "cos(th) < 0"
    assert strike.targets == ["roll"] and strike.terminal is False


def test_the_passive_walker_strikes_only_ahead_of_the_stance_foot():
    walker = saltus.load(model_path("passive_walker.toml"))
    assert [(g.name, g.when) for g in walker.guards] == [("heel_strike", "theta < 0")]
    events = walker.run().events
    # Every strike is at phi = 2 theta with theta < 0 (the crossings beside the scuff and the
    # landings of the transition on the surface pass).
    theta, phi = np.asarray(events["theta_before"]), np.asarray(events["phi_before"])
    assert len(theta) >= 8 and np.all(theta < 0) and np.allclose(phi, 2 * theta, atol=1e-9)


def test_a_guard_without_when_and_state_chosen_targets():
    text = """
[states]
x = 1.0
v = 0.0
[initial]
mode = "low"
[modes.low]
flow = ["x' = v", "v' = -1"]
[[modes.low.guards]]
name = "floor"
value = "-x"
direction = "either"
terminal = true
[[modes.low.guards.targets]]
target = "high"
when = "v < -2"
[[modes.low.guards.targets]]
reset = ["v = -v"]
[modes.high]
flow = ["x' = v", "v' = 0"]
[solver]
t_end = 1.0
"""
    (floor,) = saltus.load_string(text).guards
    assert floor.when is None and floor.direction == "either" and floor.terminal is True
    assert floor.targets == ["high", "low"]
    assert saltus.load(model_path("bouncing_rod.toml")).guards == []
