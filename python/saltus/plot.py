"""Plots of runs and sweeps on matplotlib: states against time, phase portrait of chosen
variables, hybrid time domain, contact forces and impulses, sweep quantities.

Each function takes a run (a :class:`saltus.Run`, or anything with ``trajectory``, ``events``
and ``summary`` whose tables answer ``table[name]`` and list ``columns``) or a sweep result,
draws one figure and returns it. This module imports nothing else of saltus, so that
scripts/plot_run.py (behind ``saltus plot``) draws its files with these same functions from
the CSV files of a run.
"""

import numpy as np


def _plt():
    import matplotlib.pyplot as plt
    return plt


def _label(name, units):
    unit = (units or {}).get(name, "")
    return f"{name} [{unit}]" if unit else name


def _time_label(run):
    unit = run.summary.get("time_unit", "")
    return f"t [{unit}]" if unit else "t"


def _title(run, what):
    name = run.summary.get("model", "")
    return f"{name}: {what}" if name else what


def state_columns(run):
    """The trajectory's state and algebraic columns (everything but t, j and mode)."""
    return [c for c in run.trajectory.columns if c not in ("t", "j")]


def default_phase_variables(run):
    """(q, q') for the first coordinate whose velocity is a column (a mechanical model); else the
    first two states. None when the run has a single variable."""
    names = state_columns(run)
    for n in names:
        if n + "'" in names:
            return n, n + "'"
    return (names[0], names[1]) if len(names) >= 2 else None


def states(run, variables=None):
    """Every state (or `variables`) against time, with the events' pre-jump values marked and
    the Zeno time as a dashed line."""
    plt = _plt()
    names = list(variables or state_columns(run))
    units = run.summary.get("units", {})
    fig, axes = plt.subplots(max(len(names), 1), 1, figsize=(8, 2.2 * max(len(names), 1) + 0.8),
                             sharex=True, squeeze=False)
    tr, ev = run.trajectory, run.events
    jumps = [i for i, g in enumerate(ev["guard"]) if g != "zeno-handover"]
    zeno = run.summary.get("zeno_time")
    for ax, name in zip(axes[:, 0], names):
        ax.plot(tr["t"], tr[name], lw=1)
        if name + "_before" in ev.columns and jumps:
            ax.plot(np.asarray(ev["t"])[jumps], np.asarray(ev[name + "_before"])[jumps], "rv",
                    ms=3, label="events")
        if zeno is not None:
            ax.axvline(zeno, color="k", ls="--", lw=0.8, label="Zeno time")
        ax.set_ylabel(_label(name, units))
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(_time_label(run))
    if jumps or zeno is not None:
        axes[0, 0].legend(loc="best", fontsize=8)
    axes[0, 0].set_title(_title(run, "states against time"))
    fig.tight_layout()
    return fig


def phase(run, x=None, y=None):
    """Phase portrait `y` against `x` (default: :func:`default_phase_variables`), one colour
    per mode. Raises KeyError naming the columns when `x` or `y` is not one."""
    plt = _plt()
    if x is None or y is None:
        chosen = default_phase_variables(run)
        if chosen is None:
            raise KeyError("a phase portrait needs two variables; the run has "
                           + ", ".join(state_columns(run)))
        x, y = chosen
    tr = run.trajectory
    for n in (x, y):
        if n not in tr.columns:
            raise KeyError(f"'{n}' is not a variable of the run; expected one of "
                           + ", ".join(state_columns(run)))
    units = run.summary.get("units", {})
    fig, ax = plt.subplots(figsize=(6, 5))
    modes = list(tr["mode"])
    xs, ys = np.asarray(tr[x], dtype=float), np.asarray(tr[y], dtype=float)
    for mode in dict.fromkeys(modes):
        keep = np.array([m == mode for m in modes])
        ax.plot(np.where(keep, xs, np.nan), np.where(keep, ys, np.nan), lw=1, label=mode)
    ax.set_xlabel(_label(x, units))
    ax.set_ylabel(_label(y, units))
    ax.legend(loc="best", fontsize=8)
    ax.set_title(_title(run, "phase portrait"))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def hybrid_time(run):
    """The hybrid time domain: the jump count j against t (a step at every event)."""
    plt = _plt()
    tr, ev = run.trajectory, run.events
    t = np.asarray(tr["t"], dtype=float)
    ev_t, ev_j = list(np.asarray(ev["t"], dtype=float)), list(np.asarray(ev["j"], dtype=float))
    t0, t1 = (t[0], t[-1]) if len(t) else (0.0, 0.0)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.step([t0] + ev_t + [t1], [0] + ev_j + [ev_j[-1] if ev_j else 0], where="post")
    ax.set_xlabel(_time_label(run))
    ax.set_ylabel("jump count j")
    ax.set_title(_title(run, "hybrid time domain"))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def force_columns(run):
    """Contact-force columns: the trajectory's algebraic states (a rest mode's lambda, ...), a
    mechanical model's lambda_N:<contact> / lambda_T:<contact>, and the events' reset outputs (impulses, energy change, ...) as (table, column) pairs."""
    names = set(run.summary.get("algebraic_states", [])) | set(run.summary.get("contact_forces", []))
    found = [("trajectory", c) for c in run.trajectory.columns
             if c in names or any(part in names for part in c.split("|"))]
    tr_cols = set(state_columns(run))
    ev = run.events
    skip = {"t", "j", "retrigger", "chained", "observation"}
    found += [("events", c) for c in ev.columns
              if c not in skip and not c.endswith("_before") and not c.endswith("_after")
              and c not in tr_cols]
    return found


def contact_forces(run):
    """Contact forces against time (algebraic forces as lines, event impulses as stems);
    None when the run has no such column."""
    cols = force_columns(run)
    if not cols:
        return None
    plt = _plt()
    units = run.summary.get("units", {})
    fig, axes = plt.subplots(len(cols), 1, figsize=(8, 2.2 * len(cols) + 0.8), sharex=True,
                             squeeze=False)
    for ax, (where, name) in zip(axes[:, 0], cols):
        table = run.trajectory if where == "trajectory" else run.events
        t, v = np.asarray(table["t"], dtype=float), np.asarray(table[name], dtype=float)
        if where == "trajectory":
            ax.plot(t, v, lw=1)
        else:
            ok = ~np.isnan(v)
            ax.vlines(t[ok], 0, v[ok], lw=1)
            ax.plot(t[ok], v[ok], "o", ms=3)
        ax.set_ylabel(_label(name, units) + ("" if where == "trajectory" else " (at events)"))
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(_time_label(run))
    axes[0, 0].set_title(_title(run, "contact forces and event outputs (impulses, ...)"))
    fig.tight_layout()
    return fig


def sweep(result, quantity, axis=None):
    """A collected `quantity` against a varied `axis` (default: every axis, one panel each);
    failed points (NaN) are left out and counted in the title."""
    plt = _plt()
    axes_names = [axis] if axis else list(result.axes)
    fig, panels = plt.subplots(1, len(axes_names), figsize=(5 * len(axes_names), 4), squeeze=False)
    q = np.asarray(result[quantity], dtype=float)
    missing = int(np.isnan(q).sum())
    for ax, name in zip(panels[0], axes_names):
        ax.plot(np.asarray(result[name], dtype=float), q, ".", ms=4)
        ax.set_xlabel(name)
        ax.set_ylabel(quantity)
        ax.grid(alpha=0.3)
    suffix = f" ({missing} point(s) without a value)" if missing else ""
    fig.suptitle(f"{quantity}{suffix}")
    fig.tight_layout()
    return fig
