#!/usr/bin/env python3
"""End-to-end tests of Coulomb friction in space on a curved body with an offset centre of mass
(issue 48, stage 3): models/tippe_top.toml, the tippe top as an eccentric sphere (radius R,
centre of mass a = alpha R below the geometric centre, I1 = I2, I3, quaternion orientation)
sliding on a rough floor, against tippe_top_oracle.py (Newton-Euler with the sliding Coulomb
force and the normal force from the contact's second derivative, solve_ivp DOP853 at rtol 1e-12,
atol 1e-14; SciPy, nothing from saltus):

- The file's top turns over while sliding: mode slip:floor at every sample and no event; the
  centre of mass, the symmetry axis R e3, the angular velocity and lambda_N at every sample
  equal the reference; the tilt passes pi/2 at the reference's time; energy never gained;
  Jellett's integral J = L . (R z - a e3) (L the angular momentum about the centre of mass) kept
  (it is conserved by any force at the contact point P = O - R z, so by sliding friction:
  tippe_top_oracle.py's docstring). Run on, it sticks (rolls) where the reference's slip
  vanishes.
- 4 seeded random tops, two in the band 1 - alpha < I1 / I3 < 1 where the top turns over and two
  with I1 / I3 < 1 - alpha that fall back upright, each compared with the reference over the
  window where the reference slides (slip speed above 0.02 m/s) on the floor (N above 0.1 m g)
  with theta below 2.5 rad; those that fall back stick where the reference's slip vanishes.

Usage: cli_tippe_top_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE),
run by Debian's python3 (NumPy, SciPy).
"""
import os
import random

import numpy as np

import tippe_top_oracle as oracle
from cli_analysis_test import run_outputs
from cli_test import expect, main
from quaternion_kinematics import body_rates, rotation

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# Agreement with the reference at every sample, relative to R (centre of mass, axis), to the
# spin (angular velocity) and to m g (normal force). Measured (saltus's dop853 against SciPy's
# DOP853, both at rtol 1e-12, atol 1e-14): 6.1e-12 (centre), 6.0e-12 (axis), 1.6e-12 (angular
# velocity), 1.5e-11 (N) for the file's top; at most 5.0e-11 (N; 1.8e-11 the axis) over the
# random tops.
CLOSE = 1e-9
# The tilt's pi/2 crossing, from saltus's samples (a cubic Hermite of e3 . z with its rate
# (w x e3) . z between the two samples around it) against the reference's event: measured
# 9.3e-10 s for the file's top (samples every 0.002 s; 2.5e-11 s every 0.0005 s: the
# interpolation's error, not the solvers'), at most 7.2e-9 s for the random tops (0.003 s).
CLOSE_T = 1e-7
# Jellett's integral along saltus's trajectory, relative to |L0| (R + a): measured 4.2e-13.
CLOSE_J = 1e-9
# Where the slip vanishes (past the sliding window), saltus's stick event against the
# reference's slip reaching 1e-12 m/s: measured 2.8e-14 s (file) and at most 3.9e-13 s.
CLOSE_STICK = 1e-10


def params(p):
    """--set values for the oracle's parameters p."""
    return ["%s=%r" % (k, p[k]) for k in ("m", "g", "R", "alpha", "k1", "k3", "mu", "theta0",
                                           "spin")]


def run(cli, name, sets=()):
    return run_outputs(cli, cli.model("tippe_top.toml"), os.path.join(cli.work, name), sets)


def states(rows):
    """Arrays over the samples: t, c, v, A (rotation), W (body rates), w (world rates), N."""
    out = {k: [] for k in ("t", "c", "v", "A", "W", "w", "N")}
    for r in rows:
        q = np.array([float(r["q%d" % i]) for i in range(4)])
        dq = np.array([float(r["q%d'" % i]) for i in range(4)])
        A, W = rotation(q), body_rates(q, dq)
        out["t"].append(float(r["t"]))
        out["c"].append([float(r[n]) for n in "xyz"])
        out["v"].append([float(r[n + "'"]) for n in "xyz"])
        out["A"].append(A)
        out["W"].append(W)
        out["w"].append(A @ W)
        out["N"].append(float(r["lambda_N:floor"]))
    return {k: np.array(x) for k, x in out.items()}


def crossing(s):
    """The first time e3 . z falls through 0 in saltus's samples: a cubic Hermite of e3 . z and
    its rate (w x e3) . z between the two samples around it, its root by bisection (None if e3 . z
    stays positive)."""
    f = s["A"][:, 2, 2]
    df = np.array([np.cross(w, A[:, 2])[2] for w, A in zip(s["w"], s["A"])])
    below = np.nonzero(f <= 0.0)[0]
    if not len(below):
        return None
    k = below[0]
    t0, t1 = s["t"][k - 1], s["t"][k]
    h = t1 - t0

    def hermite(x):
        u = (x - t0) / h
        return ((2 * u ** 3 - 3 * u ** 2 + 1) * f[k - 1] + (u ** 3 - 2 * u ** 2 + u) * h * df[k - 1]
                + (-2 * u ** 3 + 3 * u ** 2) * f[k] + (u ** 3 - u ** 2) * h * df[k])
    lo, hi = t0, t1
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if hermite(mid) > 0 else (lo, mid)
    return 0.5 * (lo + hi)


def compare(name, p, s, ref_s):
    """saltus's samples s against the reference's at the same times: the worst relative errors
    of the centre of mass, the axis R e3, the world angular velocity and N."""
    R, mg = p["R"], p["m"] * p["g"]
    err = {"c": np.abs(s["c"] - ref_s["c"]).max() / R,
           "axis": np.abs(R * s["A"][:, :, 2] - ref_s["axis"]).max() / R,
           "w": np.abs(s["w"] - ref_s["w"]).max() / p["spin"],
           "N": np.abs(s["N"] - ref_s["N"]).max() / mg}
    for k, e in err.items():
        expect(e < CLOSE, "%s: %s as the reference at every sample" % (name, k), err)
    return err


def energy(p, s):
    """T + V = 1/2 m |v|^2 + 1/2 W . I W + m g z at saltus's samples."""
    return np.array([oracle.energy(c, v, W, p) for c, v, W in zip(s["c"], s["v"], s["W"])])


def check_invariants(name, p, s):
    """Energy never gained from sample to sample (1e-12 of its scale: it falls at mu N |u|) and
    Jellett's integral kept (CLOSE_J of |L0| (R + a))."""
    e = energy(p, s)
    expect(all(b <= a + 1e-12 * abs(e[0]) for a, b in zip(e, e[1:])),
           name + ": energy never gained", np.diff(e).max())
    J = np.array([oracle.jellett(A, W, p) for A, W in zip(s["A"], s["W"])])
    scale = np.linalg.norm(oracle.moments(p) * s["W"][0]) * p["R"] * (1 + p["alpha"])
    drift = np.abs(J - J[0]).max() / scale
    expect(drift < CLOSE_J, name + ": Jellett's integral kept", drift, J[0])
    return drift


def expect_stick_where_the_slip_vanishes(cli, name, p, sets=()):
    """Run on past the sliding window: one event, stick:floor, where the reference's slip speed
    reaches zero (to 1e-12 m/s, within CLOSE_STICK), the run ending at t_end rolling."""
    ref = oracle.solve(p, 1.0, slip_stop=1e-12)
    expect(ref["stopped_by"] == "slip", name + ": the reference's slip vanishes", ref)
    events, _, summary = run(cli, name + "_stick", list(sets) + [
        "solver.t_end=%r" % (1.05 * ref["t_end"])])
    expect(len(events) == 1 and events[0]["guard"] == "stick:floor" and
           events[0]["mode_after"] == "stick:floor", name + ": one stick event", events)
    t = float(events[0]["t"])
    expect(abs(t - ref["t_end"]) < CLOSE_STICK, name + ": sticks where the slip vanishes", t,
           ref["t_end"])
    expect(summary["status"] == "end-time-reached" and summary["final_mode"] == "stick:floor",
           name + ": rolls on to t_end", summary["message"], summary["final_mode"])


def expect_sliding_throughout(name, events, rows, summary):
    expect(summary["status"] == "end-time-reached", name + ": ends at t_end", summary["message"])
    expect(not events, name + ": no event", events)
    expect(all(r["mode"] == "slip:floor" for r in rows), name + ": slip:floor at every sample",
           sorted({r["mode"] for r in rows}))


@case
def the_sliding_top_inverts_as_the_scipy_reference(cli):
    # The file's top (m = 15 g, R = 2 cm, alpha = 0.3, I1 / I3 = 0.903, mu = 0.3, 180 rad/s about
    # the vertical, tilted 0.1 rad) to t_end = 0.42 s, sampled every 0.002 s.
    p = oracle.default_params()
    events, rows, summary = run(cli, "file")
    expect_sliding_throughout("file", events, rows, summary)
    s = states(rows)
    ref = oracle.solve(p, 0.42)
    expect(ref["stopped_by"] is None, "the reference slides to t_end", ref["stopped_by"])
    ref_s = oracle.samples(ref, s["t"], p)
    # The reference itself: sliding (slip above 0.02 m/s), on the floor (N above 0.7 m g).
    expect(ref_s["slip"].min() > 0.02 and ref_s["N"].min() > 0.7 * p["m"] * p["g"],
           "the reference slides on the floor", ref_s["slip"].min(), ref_s["N"].min())
    compare("file", p, s, ref_s)
    # The tilt: from 0.1 through pi/2 (at 0.3258 s) to above 2.3 rad, saltus's samples' crossing
    # at the reference's event time.
    theta = np.arccos(np.clip(s["A"][:, 2, 2], -1, 1))
    expect(abs(theta[0] - 0.1) < 1e-12 and theta[-1] > 2.3 and theta.max() < 2.5,
           "the top turns over", theta[0], theta[-1], theta.max())
    t_inv = crossing(s)
    expect(ref["t_invert"] is not None and abs(ref["t_invert"] - 0.3258) < 1e-4,
           "the reference turns over at 0.3258 s", ref["t_invert"])
    expect(t_inv is not None and abs(t_inv - ref["t_invert"]) < CLOSE_T,
           "theta = pi/2 at the reference's time", t_inv, ref["t_invert"])
    check_invariants("file", p, s)
    # The centre of mass rises: the energy lost pays for it and more.
    e = energy(p, s)
    expect(s["c"][-1][2] > s["c"][0][2] + 1.5 * p["alpha"] * p["R"] and e[-1] < e[0],
           "the centre of mass rises", s["c"][-1][2], s["c"][0][2])
    # Past t_end the slip vanishes at t = 0.4536 s (theta near 2.56): saltus sticks there.
    expect_stick_where_the_slip_vanishes(cli, "file", p)
    # 211 samples, 0 to t_end every 0.002 s (sample_interval = 0.002, t_end = 0.42).
    expect(len(rows) == 211 and abs(s["t"][-1] - 0.42) < 1e-12, "samples 0, 0.002, ..., 0.42",
           len(rows), s["t"][-1])


def random_top(rng, inverting):
    """A top with 1 - alpha < I1 / I3 < 1 (it turns over when spun fast enough) or
    I1 / I3 < 1 - alpha (it falls back upright), started as the file's top."""
    p = oracle.default_params()
    p["alpha"] = rng.uniform(0.27, 0.33)
    p["mu"] = rng.uniform(0.2, 0.3)
    p["spin"] = rng.uniform(160.0, 190.0)
    p["theta0"] = rng.uniform(0.1, 0.2)
    p["k3"] = rng.uniform(0.13, 0.16)
    ratio = rng.uniform(0.9, 0.98) if inverting else rng.uniform(0.5, 0.62)
    p["k1"] = ratio * p["k3"]
    return p


@case
def random_tops_invert_or_not_as_the_reference(cli):
    # The window of each top: to 0.6 s, or where the reference's slip falls to 0.02 m/s, its
    # normal force to 0.1 m g, or its tilt reaches 2.5 rad (the first of these). saltus runs to
    # that window's end (201 samples) in slip:floor without events, equal to the reference at
    # every sample, crossing pi/2 at the reference's time or, for the tops that fall back, not
    # crossing it and ending less tilted than they started, then sticking where the reference's
    # slip vanishes. The tops that turn over slide to 0.6 s and to theta = 2.5 at 0.496 s; those
    # that fall back slide briefly (windows 0.018 s and 0.016 s, sticking at 0.049 s, 0.018 s).
    rng = random.Random(48)
    for k in range(4):
        p = random_top(rng, k % 2 == 0)
        name = "top%d" % k
        ref = oracle.solve(p, 0.6, theta_stop=2.5, slip_stop=0.02, normal_stop=0.1)
        t_end = ref["t_end"]
        expect(t_end > 0.01, name + ": the reference slides a while", p, ref["stopped_by"], t_end)
        events, rows, summary = run(cli, name, params(p) + ["solver.t_end=%r" % t_end,
                                                            "output.samples=201"])
        expect_sliding_throughout(name, events, rows, summary)
        s = states(rows)
        ref_s = oracle.samples(ref, s["t"], p)
        expect(ref_s["N"].min() > 0.05 * p["m"] * p["g"] and ref_s["slip"].min() > 0.015,
               name + ": the reference slides on the floor at every sample", p)
        compare(name, p, s, ref_s)
        check_invariants(name, p, s)
        theta = np.arccos(np.clip(s["A"][:, 2, 2], -1, 1))
        t_inv = crossing(s)
        if k % 2 == 0:
            expect(ref["t_invert"] is not None and t_inv is not None and
                   abs(t_inv - ref["t_invert"]) < CLOSE_T, name + ": turns over at the "
                   "reference's time", p, t_inv, ref["t_invert"])
        else:
            expect(ref["t_invert"] is None and t_inv is None and theta[-1] < theta[0],
                   name + ": falls back as the reference", p, theta[0], theta[-1])
            expect_stick_where_the_slip_vanishes(cli, name, p, params(p))


if __name__ == "__main__":
    main(CASES)
