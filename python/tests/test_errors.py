"""Each kind of malformed model raises its own exception with file, line and column; failed
runs raise RunFailedError with the engine's status and message; bad sweeps raise EngineError.
Places and message parts are those of tests/model/malformed_model_test.cpp (same data files)."""
import os

import pytest

import saltus
from conftest import data_path, model_path

MALFORMED = [
    ("toml_syntax.toml", saltus.TomlSyntaxError, 12, 1, "TOML syntax"),
    ("unknown_symbol.toml", saltus.UnknownSymbolError, 10, 26, "unknown symbol 'gravity'"),
    ("wrong_arity.toml", saltus.ArityError, 10, 30, "'max' takes at least 2 arguments"),
    ("reset_unknown_mode.toml", saltus.UnknownModeError, 15, 10, "unknown mode 'flite'"),
    ("reset_unknown_state.toml", saltus.UnknownStateError, 15, 11, "'w' is not a state"),
    ("missing_initial.toml", saltus.MissingValueError, 6, 5, "state 'v' has no initial value"),
    ("non_scalar_guard.toml", saltus.ExpressionError, 14, 9, "a guard is a scalar function"),
    ("drawing_unknown_symbol.toml", saltus.UnknownSymbolError, 20, 35, "unknown symbol 'angle'"),
]


@pytest.mark.parametrize("name,cls,line,column,text", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_kind_raises_its_exception(name, cls, line, column, text):
    path = data_path(name)
    with pytest.raises(cls) as caught:
        saltus.load(path)
    e = caught.value
    assert isinstance(e, saltus.ModelError) and isinstance(e, saltus.SaltusError)
    assert (e.file, e.line, e.column) == (path, line, column)
    assert text in e.problem and "expected" in e.problem
    assert f"{path}:{line}:{column}: error:" in str(e)
    # The exception types are distinct: no other kind's class matches.
    for _, other, *_ in MALFORMED:
        if other is not cls:
            assert not isinstance(e, other)


def test_every_problem_of_a_file_is_carried():
    with pytest.raises(saltus.UnknownSymbolError) as caught:
        saltus.load(data_path("unknown_symbol.toml"))
    assert [(d.line, d.column) for d in caught.value.diagnostics] == [(10, 26), (15, 18)]


def test_unknown_parameter_override():
    with pytest.raises(saltus.UnknownParameterError) as caught:
        saltus.load(model_path("bouncing_ball.toml"), restitution=0.5)
    assert caught.value.file == "--set" and "'restitution'" in caught.value.problem


def test_string_model_errors_name_the_given_file():
    with pytest.raises(saltus.TomlSyntaxError) as caught:
        saltus.load_string("[states\nx = 1\n", name="mine.toml")
    assert caught.value.file == "mine.toml" and caught.value.line == 1


@pytest.mark.parametrize("name,status,parts", [
    ("division_by_zero.toml", "non-finite-state", ["guard 'impact'", "mode 'flight'", "t = 0.4515"]),
    ("nan_flow.toml", "non-finite-state", ["mode 'flight'", "NaN"]),
    ("inconsistent_algebraic.toml", "newton-failure", ["mode 'rest'", "cannot be made consistent"]),
])
def test_failed_run_raises_with_status_and_message(name, status, parts):
    model = saltus.load(data_path(name))
    with pytest.raises(saltus.RunFailedError) as caught:
        model.run()
    e = caught.value
    assert e.status == status and e.run.status == status and not e.run.succeeded
    for p in parts:
        assert p in e.message
    # check=False returns the failed run with its trajectory up to the failure.
    r = model.run(check=False)
    assert r.status == status and r.summary["succeeded"] is False


@pytest.mark.parametrize("vary,collect,cause", [
    (["e=0.9:0.1:5"], ["zeno_time"], "empty"),
    (["e=0.1:0.9"], ["zeno_time"], "three fields"),
    (["restitution=0.1:0.9:3"], ["zeno_time"], "restitution"),
    (["e=0.1:0.9:3"], ["no_such_quantity"], "no_such_quantity"),
])
def test_bad_sweep_raises_engine_error(vary, collect, cause):
    with pytest.raises(saltus.EngineError) as caught:
        saltus.sweep(model_path("bouncing_ball.toml"), vary, collect)
    assert cause in str(caught.value)


def test_sweep_of_a_malformed_file_raises_its_kind():
    with pytest.raises(saltus.UnknownSymbolError):
        saltus.sweep(data_path("unknown_symbol.toml"), ["g=1:2:2"], ["t_final"])


def test_a_contact_key_its_law_ignores_is_a_model_error_at_its_line():
    # No kind of its own: a plain ModelError with file, line and column (issue 34).
    path = data_path("ignored_contact_keys.toml")
    with pytest.raises(saltus.ModelError) as caught:
        saltus.load(path)
    e = caught.value
    assert (e.file, e.line, e.column) == (path, 23, 6)
    assert "does not read 'mu'" in e.problem and "expected" in e.problem
    for _, other, *_ in MALFORMED:
        assert not isinstance(e, other)


def test_nothing_was_left_unclassified_in_the_data_folder():
    # Every malformed data file that fails to load is covered above (the rest fail at run time).
    loads = {"division_by_zero.toml", "nan_flow.toml", "inconsistent_algebraic.toml"}
    names = sorted(os.listdir(os.path.dirname(data_path("x"))))
    covered = {m[0] for m in MALFORMED} | loads | {"ignored_contact_keys.toml"}
    assert [n for n in names if n.endswith(".toml") and n not in covered] == []
