"""Run-time parameters from Python: a model loaded once with runtime=[...] and changed by
set_parameters runs as the model loaded with the value as an override (numbers equal, up to the
sign of a zero); values computed from one at load time and unknown names are refused."""
import random

import numpy as np
import pytest

import saltus
from conftest import bits, model_path

BALL = model_path("bouncing_ball.toml")


def same(a, b):
    """Bit for bit, except the sign of a zero (-e*v is the constant 0 when e = 0 is folded)."""
    return bits(a) == bits(b) or (a == 0.0 and b == 0.0)


def test_set_parameters_then_run_equals_a_reload():
    model = saltus.load(BALL, runtime=["e", "g"])
    assert model.runtime_parameters == ["g", "e"]  # in [parameters] order
    rng = random.Random(20261124)
    for _ in range(5):
        e, g = rng.uniform(0.0, 0.95), rng.uniform(1.0, 20.0)
        run = model.set_parameters(e=e, g=g).run()
        assert model.parameters["e"] == e and model.parameters["g"] == g
        ref = saltus.load(BALL, e=e, g=g).run()
        assert run.status == ref.status
        assert same(run.zeno_time, ref.zeno_time)
        for name in ("t", "x", "v"):
            a, b = np.asarray(run.trajectory[name]), np.asarray(ref.trajectory[name])
            assert a.shape == b.shape and all(same(x, y) for x, y in zip(a, b)), name


def test_a_run_keeps_the_values_it_was_made_with():
    model = saltus.load(BALL, runtime=["e"])
    first = model.set_parameters(e=0.3).run()
    model.set_parameters(e=0.6)
    assert first.summary["parameters"]["e"]["value"] == 0.3
    assert model.run().summary["parameters"]["e"]["value"] == 0.6


def test_values_computed_at_load_time_and_unknown_names_are_refused():
    # h0 is the initial value of x: it would not follow a new value.
    with pytest.raises(saltus.ModelError) as caught:
        saltus.load(BALL, runtime=["h0"])
    assert "reads run-time parameter 'h0'" in str(caught.value)
    model = saltus.load(BALL, runtime=["e"])
    with pytest.raises(saltus.EngineError, match="run-time parameters: e"):
        model.set_parameters(g=1.0)
