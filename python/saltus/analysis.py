"""The analysis commands from Python: ``saltus.orbit``, ``saltus.bifurcation``,
``saltus.sensitivity``, ``saltus.lyapunov`` and ``saltus.equilibrium`` run ``saltus orbit`` (...)
in this process, with
the command's options and into the command's output folder, and read its files back.

    r = saltus.orbit("models/passive_walker.toml", "out/branch", section="theta=0,-",
                     min_time=1, continue_={"gamma": (0.009, 0.016)}, plot=False)
    r.orbit["bifurcations"], r.branch["gamma"], r.complete

Keyword options become the command's options by these rules, so that every option of
``saltus orbit --help`` (and of the other commands) is a keyword:

- the name: "_" becomes "-" and a trailing "_" is dropped: ``max_step=0.003`` is
  ``--max-step 0.003``, ``continue_`` (continue is a Python keyword) is ``--continue``;
- None leaves the option out (the command's default);
- True is the flag alone (``switch_at_pd=True``: ``--switch-at-pd``), False leaves it out,
  except for the negated flags of ``_NEGATED`` (``plot=False``: ``--no-plot``);
- a dict gives one NAME=VALUE per item, the option repeated, a tuple value joined with ":":
  ``continue_={"d": (0.3, 0.31)}`` is ``--continue d=0.3:0.31``, ``set={"e": 0.5}`` is
  ``--set e=0.5``, ``vary={"A": (0.1, 0.9, 9)}`` is ``--vary A=0.1:0.9:9``;
- a list repeats the option: ``cyclic=["x", "s"]`` is ``--cyclic x --cyclic s``;
- a number is written with every digit (a float's repr), a string as it is
  (``continue_="d=0.3:0.31"``, ``section="v=0,+"``).

``model`` is a path or a :class:`saltus.Model` loaded from a file (its overrides, then the
values of its run-time parameters, are passed as ``--set`` before the ``set`` keyword's). The command's exit status decides the outcome: 0
returns a complete result; 2 (no orbit, a partial branch, values of a diagram with fewer
points, no derivative or no exponents: the files say why) returns a result whose ``complete``
is False; 1 (bad model or options; nothing was run) and 3 (output error) raise
:class:`saltus.CommandError` with the command's message, as does an option the command does
not know (nothing is run then).
"""

import numbers
import os
import sys

from . import _core
from .errors import CommandError
from .model import Model, _override_text
from .results import (BifurcationResult, EquilibriumResult, LyapunovResult, OrbitResult,
                      SensitivityResult)

# Keywords whose False is a flag of its own (the commands' "!--no-plot").
_NEGATED = {"plot": "--no-plot"}
# Exit statuses that return a result: 0 complete, 2 partial (the files say why).
_RESULT_STATUSES = (0, 2)


def _text(value):
    """A value as the command line takes it (a float with every digit: repr round-trips)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{value!r} is not a number or a string")


def _item_text(name, value):
    """NAME=VALUE of a dict item; a tuple or list value joined with ':' (NAME=A:B[:N])."""
    if isinstance(value, (tuple, list)):
        return f"{name}=" + ":".join(_text(v) for v in value)
    return f"{name}={_text(value)}"


def _option(keyword):
    return "--" + (keyword[:-1] if keyword.endswith("_") else keyword).replace("_", "-")


def _keyword_args(keyword, value):
    flag = _option(keyword)
    if value is None:
        return []
    if isinstance(value, bool):
        if keyword in _NEGATED:
            return [] if value else [_NEGATED[keyword]]
        return [flag] if value else []
    if isinstance(value, dict):
        return [a for name, v in value.items() for a in (flag, _item_text(name, v))]
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in (flag, _text(v))]
    return [flag, _text(value)]


def options_to_args(options):
    """The command-line arguments of keyword `options`, by the rules of this module's docstring.

    Raises TypeError naming the keyword for a value that has no command-line text.
    """
    args = []
    for keyword, value in options.items():
        try:
            args += _keyword_args(keyword, value)
        except TypeError as e:
            raise TypeError(f"{keyword}={value!r}: {e}") from None
    return args


def _model_args(model):
    """The model file and the --set arguments of a Model's overrides, then of the values its
    run-time parameters have now (``set_parameters``)."""
    if isinstance(model, Model):
        if model._source[0] != "file":
            raise TypeError("the analysis commands read model files; this Model was loaded from "
                            "a string (write it to a file and pass its path)")
        values = model.parameters
        overrides = model.overrides + [_override_text(n, values[n])
                                       for n in model.runtime_parameters]
        return model._source[1], [a for o in overrides for a in ("--set", o)]
    return os.fspath(model), []


def command_args(name, model, out, options):
    """The arguments of ``saltus NAME MODEL --out OUT OPTIONS...`` (without the program name)."""
    path, sets = _model_args(model)
    options = dict(options)
    sets += options_to_args({"set": options.pop("set", None)})
    return [name, path, "--out", os.fspath(out), *sets, *options_to_args(options)]


def run_command(args, quiet=False):
    """Runs ``saltus ARGS...`` in this process; returns (exit status, stdout text, stderr text).

    The GIL is released while it runs; what the command prints is printed as it comes unless
    `quiet` (and kept either way).
    """
    sys.stdout.flush()
    sys.stderr.flush()
    return _core.command([str(a) for a in args], not quiet)


def _run(name, result_class, model, out, quiet, options):
    args = command_args(name, model, out, options)
    status, stdout, stderr = run_command(args, quiet)
    if status not in _RESULT_STATUSES:
        raise CommandError(args, status, stderr)
    return result_class(args, status, os.fspath(out), stdout, stderr)


def orbit(model, out, quiet=False, **options):
    """``saltus orbit MODEL --out OUT ...``: a periodic orbit, its Floquet multipliers and, with
    ``continue_={"NAME": (A, B)}``, its branch with bifurcations (``curve``, ``switch_at_pd``).

    Options: ``period`` or ``section``, ``min_time``, ``horizon``, ``continue_``, ``curve``,
    ``points``, ``step``, ``max_step``, ``switch_at_pd``, ``numerical_resets``, ``tol``,
    ``max_iterations``, ``cyclic``, ``show``, ``set``, ``plot`` (``saltus orbit --help``).
    Returns an :class:`saltus.results.OrbitResult`; raises :class:`saltus.CommandError` for a
    bad model or options.
    """
    return _run("orbit", OrbitResult, model, out, quiet, options)


def bifurcation(model, out, quiet=False, **options):
    """``saltus bifurcation MODEL --out OUT --vary NAME=A:B:N ...``: a brute-force diagram.

    Options: ``vary`` (``{"NAME": (A, B, N)}`` or "NAME=A:B:N"), ``period`` or ``section``,
    ``discard``, ``keep``, ``horizon``, ``restart``, ``show``, ``set``, ``plot``. Returns a
    :class:`saltus.results.BifurcationResult` (``complete`` False when some values gave fewer
    points).
    """
    return _run("bifurcation", BifurcationResult, model, out, quiet, options)


def sensitivity(model, out, quiet=False, **options):
    """``saltus sensitivity MODEL --out OUT ...``: the Jacobian of the hybrid flow map with every
    event's saltation matrix, and d x / d p for ``parameters=[...]``.

    Options: ``t_end``, ``numerical_resets``, ``parameters``, ``set``. Returns a
    :class:`saltus.results.SensitivityResult` (``complete`` False when the run failed or has no
    derivative; sensitivity.json says why).
    """
    return _run("sensitivity", SensitivityResult, model, out, quiet, options)


def lyapunov(model, out, quiet=False, **options):
    """``saltus lyapunov MODEL --out OUT ...``: the Lyapunov exponents of a run.

    Options: ``t_end``, ``window``, ``transient``, ``max_events``, ``numerical_resets``,
    ``set``. Returns a :class:`saltus.results.LyapunovResult` (``complete`` False without
    exponents; lyapunov.json says why).
    """
    return _run("lyapunov", LyapunovResult, model, out, quiet, options)


def equilibrium(model, out, quiet=False, **options):
    """``saltus equilibrium MODEL --out OUT ...``: the equilibria of the model's modes and, with
    ``continue_``, their branches with folds, Hopf and boundary-equilibrium bifurcations.

    Options: ``mode`` (a list), ``continue_`` (``{"NAME": (A, B)}`` or "NAME=A:B"),
    ``max_step``, ``set``, ``plot``, ``show``. Returns a :class:`saltus.results.EquilibriumResult` (``complete``
    False when none was found or a branch stopped short; equilibria.json says why).
    """
    return _run("equilibrium", EquilibriumResult, model, out, quiet, options)
