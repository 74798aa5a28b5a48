#!/usr/bin/env python3
"""End-to-end tests of flows written with sign() (issue 45): `saltus orbit` of a relay feedback
system against Tsypkin's closed form, and the saltation matrices of its crossings in
`saltus sensitivity`.

Usage: cli_switching_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt). Expected values come from closed forms computed here.
"""
import math
import os

from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# models/relay_feedback.toml: x' = A x + B u, A = -I + N (N the lower shift), B = (k, 0, 0),
# u = -d sign(x3). e^{A h} = e^{-h} (I + N h + N^2 h^2 / 2).
def expm(h):
    e = math.exp(-h)
    return [[e, 0, 0], [e * h, e, 0], [e * h * h / 2, e * h, e]]


def mat_vec(m, v):
    return [sum(m[i][j] * v[j] for j in range(3)) for i in range(3)]


def solve(m, b):
    """m x = b for a 3x3 m, by Cramer's rule."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    out = []
    for k in range(3):
        mk = [[b[i] if j == k else m[i][j] for j in range(3)] for i in range(3)]
        out.append(det(mk) / d)
    return out


A = [[-1, 0, 0], [1, -1, 0], [0, 1, -1]]


def on_half(x0, t, kd):
    """The state t after x0 with u = -kd (y > 0): e^{At} x0 + A^-1 (e^{At} - I) B u."""
    p = expm(t)
    forced = solve(A, mat_vec([[p[i][j] - (i == j) for j in range(3)] for i in range(3)],
                              [-kd, 0, 0]))
    return [a + b for a, b in zip(mat_vec(p, x0), forced)]


def symmetric_start(h, kd):
    """x0 on y = 0 where y turns positive, with x(h) = -x0 under u = -kd:
    (e^{Ah} + I) x0 = -A^-1 (e^{Ah} - I) B u."""
    p = expm(h)
    forced = solve(A, mat_vec([[p[i][j] - (i == j) for j in range(3)] for i in range(3)],
                              [-kd, 0, 0]))
    return solve([[p[i][j] + (i == j) for j in range(3)] for i in range(3)],
                 [-c for c in forced])


def half_period(kd):
    """The smallest h > 0 with y(0) = x0[2] = 0 (Tsypkin's condition), by bisection."""
    hs = [0.05 * i for i in range(1, 200)]
    vals = [symmetric_start(h, kd)[2] for h in hs]
    for a, b, fa, fb in zip(hs, hs[1:], vals, vals[1:]):
        if fa * fb < 0:
            for _ in range(200):
                m = 0.5 * (a + b)
                if (symmetric_start(m, kd)[2] > 0) == (fa > 0):
                    a, fa = m, symmetric_start(m, kd)[2]
                else:
                    b = m
            return 0.5 * (a + b)
    raise AssertionError("no half period found")


@case
def orbit_of_relay_feedback_is_tsypkins(cli):
    # The symmetric unimodal cycle: period 2h from the closed form (1e-9), the state where x1
    # falls through 0 on it (the cycle from x0, by the same closed forms), and multipliers.
    model = cli.model("relay_feedback.toml")
    out = os.path.join(cli.work, "relay_orbit")
    code, stdout, stderr = cli.run("orbit", model, "--section", "x1=0,-", "--min-time", "1",
                                   "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "orbit of the relay feedback system")
    o = read_json(out, "orbit.json")
    h = half_period(1.0)
    expect(o["status"] == "converged" and abs(o["return_time"] - 2 * h) < 1e-9, "period",
           o["return_time"], 2 * h)
    expect(o["mode"] == "loop[x3>0]", "the section is crossed while y > 0", o["mode"])
    # On the cycle from x0 (y turning positive, x2 > 0, u = -1): x1 = -1 + (x1(0) + 1) e^{-t}
    # falls through 0 at t = log(1 + x1(0)), inside the half period.
    x0 = symmetric_start(h, 1.0)
    expect(x0[1] > 0 and x0[0] > 0 and math.log(1 + x0[0]) < h, "the cycle's shape", x0, h)
    point = on_half(x0, math.log(1 + x0[0]), 1.0)
    st = o["state"]
    expect(all(abs(st[n] - v) < 1e-8 for n, v in zip(("x1", "x2", "x3"), point)),
           "the section point on the cycle", st, point)
    mult = sorted(m["abs"] for m in o["multipliers"])
    expect(mult[0] < 1e-12 and all(0 < m < 1 for m in mult[1:]), "stable cycle", mult)


@case
def sensitivity_of_relay_crossings_is_filippovs_saltation(cli):
    # Each crossing of y = x3 = 0 (guard cross:x3) has S = I + (f+ - f-) e3^T / (f-)_3 with
    # f+ - f- = (-2 k d sign, 0, 0) and (f-)_3 = x2 - x3 at the event, and det S = (f+)_3/(f-)_3
    # = 1 (the relay acts on x1 only): the hybrid Jacobian Theorem 14 gives.
    model = cli.model("relay_feedback.toml")
    out = os.path.join(cli.work, "relay_sensitivity")
    code, stdout, stderr = cli.run("sensitivity", model, "--set", "solver.t_end=6", "--out", out)
    expect_exit(code, 0, stdout, stderr, "sensitivity of the relay feedback system")
    s = read_json(out, "sensitivity.json")
    events = read_csv(os.path.join(out, "events.csv"))
    crossings = [e for e in s["events"] if e["guard"].startswith("cross:")]
    expect(len(crossings) >= 2, "crossings differentiated", s["events"])
    for e in crossings:
        row = events[e["event"]]
        x2, x3 = float(row["x2_before"]), float(row["x3_before"])
        jump = -2.0 if e["mode_after"] == "loop[x3>0]" else 2.0
        expected = [[1, 0, jump / (x2 - x3)], [0, 1, 0], [0, 0, 1]]
        got = e["saltation"]
        expect(all(abs(got[i][j] - expected[i][j]) < 1e-9 * (1 + abs(expected[i][j]))
                   for i in range(3) for j in range(3)), "saltation", got, expected)
        expect(abs(e["hybrid_jacobian"] - 1.0) < 1e-12, "hybrid Jacobian", e)


STICK_SLIP = """[model]
name = "self_excited_stick_slip"
[parameters]
F = 1.0
vb = 0.5
c = -0.1
[states]
x = 1.4
v = 0.0
[modes.belt]
flow = ["x' = v", "v' = -x - c*(v - vb) - F*sign(v - vb)"]
[[sections]]
name = "turn"
value = "v"
direction = "falling"
[solver]
t_end = 40
rtol = 1e-12
atol = 1e-12
"""


def stick_slip_cycle(F, vb, c):
    """The stick-slip cycle of x'' + c (x' - vb) + x = -F sign(x' - vb), c < 0 [derived]: the
    stick (Filippov sliding on v = vb) ends where the friction needed, x, reaches F; the slip from
    (F, vb) is y = x - (F + c vb), y'' + c y' + y = 0, until v returns to vb at x_a < F; the
    stick then carries x from x_a to F at speed vb. Returns (period, x where v falls through 0)."""
    w = math.sqrt(1 - c * c / 4)
    a = -c * vb
    b = (vb + c * a / 2) / w

    def y(t):
        return math.exp(-c * t / 2) * (a * math.cos(w * t) + b * math.sin(w * t))

    def v(t):
        e = math.exp(-c * t / 2)
        return e * ((-c / 2) * (a * math.cos(w * t) + b * math.sin(w * t)) +
                    w * (-a * math.sin(w * t) + b * math.cos(w * t)))

    def root(f, lo, hi):
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if (f(mid) > 0) == (f(lo) > 0):
                lo = mid
            else:
                hi = mid
        return 0.5 * (lo + hi)

    # v falls below vb at once (v' = 0, v'' = -vb); sample to bracket its zero and its return.
    ts = [k * 1e-3 for k in range(1, 20000)]
    t0 = next(t for t, u in zip(ts, ts[1:]) if v(t) > 0 >= v(u))
    turn = root(v, t0, t0 + 1e-3)
    t1 = next(t for t, u in zip(ts, ts[1:]) if t > turn and v(t) - vb < 0 <= v(u) - vb)
    back = root(lambda t: v(t) - vb, t1, t1 + 1e-3)
    x_a = F + c * vb + y(back)
    return back + (F - x_a) / vb, F + c * vb + y(turn)


@case
def orbit_through_sliding_and_its_continuation(cli):
    # Issue 45 item 3: a self-excited stick-slip oscillator (negative damping c about the belt
    # speed) written with sign(): its cycle sticks (slides on v = vb) once per period. `saltus
    # orbit` on the section v = 0 falling, against the closed form (period and x there, 1e-8);
    # its multipliers are 0 (the stick forgets the state). Continued in vb over [0.5, 0.6],
    # every point against the closed form.
    model = os.path.join(cli.work, "stick_slip.toml")
    with open(model, "w") as f:
        f.write(STICK_SLIP)
    out = os.path.join(cli.work, "orbit")
    code, stdout, stderr = cli.run("orbit", model, "--section", "turn", "--out", out,
                                   "--no-plot")
    expect_exit(code, 0, stdout, stderr, "orbit through sliding")
    o = read_json(out, "orbit.json")
    period, x_turn = stick_slip_cycle(1.0, 0.5, -0.1)
    expect(o["status"] == "converged" and abs(o["return_time"] - period) < 1e-8, "period",
           o["return_time"], period)
    expect(abs(o["state"]["x"] - x_turn) < 1e-8 and abs(o["state"]["v"]) < 1e-8, "x at the turn",
           o["state"], x_turn)
    expect(all(m["abs"] < 1e-8 for m in o["multipliers"]), "multipliers 0", o["multipliers"])
    out = os.path.join(cli.work, "branch")
    code, stdout, stderr = cli.run("orbit", model, "--section", "turn", "--continue",
                                   "vb=0.5:0.6", "--out", out, "--no-plot")
    expect_exit(code, 0, stdout, stderr, "continuation through sliding")
    rows = read_csv(os.path.join(out, "branch.csv"))
    expect(len(rows) >= 3 and float(rows[-1]["vb"]) > 0.55, "branch points", len(rows))
    for r in rows:
        vb = float(r["vb"])
        period, x_turn = stick_slip_cycle(1.0, vb, -0.1)
        expect(abs(float(r["period"]) - period) < 1e-8 and abs(float(r["x"]) - x_turn) < 1e-8,
               "branch point at vb = %r" % vb, r, period, x_turn)


# Issue 46 item 2: sliding bifurcations of a limit cycle. Below y = c the flow is r' = r (mu -
# r^2), theta' = 1 (the circle r = sqrt(mu) attracts); above it the flow is (-1, x - x0), which
# pushes back onto y = c where x < x0, so y = c slides where the lower flow rises into it.
# Written with sign() as a user would.
CIRCLE = """
[model]
name = "circle_and_line"

[parameters]
c = {c!r}
x0 = {x0!r}
mu = {mu!r}

[states]
x = {x!r}
y = 0.0

[modes.m]
flow = ["x' = (1 - sign(y - c))/2*(-y + x*(mu - x^2 - y^2)) + (1 + sign(y - c))/2*(-1)",
        "y' = (1 - sign(y - c))/2*(x + y*(mu - x^2 - y^2)) + (1 + sign(y - c))/2*(x - x0)"]

[solver]
t_end = 20.0
rtol = 1e-12
atol = 1e-14
"""


def crossing_sliding_mu(c, x0):
    """mu where the cycle's upward crossing of y = c reaches x = x0, the sliding region's end
    [derived]: the cycle leaves the sliding region where the lower flow is tangent to y = c (the
    root x_e < 0 of x + c (mu - x^2 - c^2) = 0) and, by the lower flow in closed form (r^2 =
    mu / (1 + (mu / r0^2 - 1) e^(-2 mu t)), theta = theta0 + t), comes back to y = c at x0.
    Bisection on mu."""
    def miss(mu):
        xe = (1 - math.sqrt(1 + 4 * c * c * (mu - c * c))) / (2 * c)
        r0 = xe * xe + c * c
        t = 2 * math.pi - (math.atan2(c, xe) - math.atan2(c, x0))
        return mu / (1 + (mu / r0 - 1) * math.exp(-2 * mu * t)) - (x0 * x0 + c * c)
    lo, hi = c * c + 1e-9, c * c + 4 * x0 * x0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if miss(lo) * miss(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


@case
def orbit_locates_and_names_sliding_bifurcations(cli):
    # Grazing-sliding: the circle r = sqrt(mu) touches y = c at mu = c^2 [derived], at the top,
    # where the lower flow is tangent: beyond it the cycle lands on y = c, slides and leaves
    # (x0 = 1 keeps the upper flow pushing back near the top). Continued in mu from either side
    # (and from t0 = 1e6): the grazing within 1e-8 (1 + c^2), named grazing-sliding.
    # Crossing-sliding: with x0 > 0 the cycle crosses y = c upward beyond x0 (a moment above,
    # then lands and slides) and lands directly below it; the bifurcation is where the crossing
    # reaches x0 (crossing_sliding_mu). From the crossing side the located mu within 1e-8; from
    # the sliding side, where no evidence vanishes, the bisection of the event sequence within
    # 2e-9 (1 + mu); named crossing-sliding.
    def bifurcation(name, c, x0, mu_from, mu_to, x, t0=0.0):
        model = os.path.join(cli.work, name + ".toml")
        with open(model, "w") as f:
            f.write(CIRCLE.format(c=c, x0=x0, mu=mu_from, x=x))
        out = os.path.join(cli.work, name)
        code, stdout, stderr = cli.run("orbit", model, "--section", "y=0,+", "--continue",
                                       "mu=%r:%r" % (mu_from, mu_to), "--set",
                                       "initial.t=%r" % t0, "--set",
                                       "solver.t_end=%r" % (t0 + 20.0), "--out", out,
                                       "--no-plot")
        expect_exit(code, 0, stdout, stderr, name)
        b = read_json(out, "orbit.json")["bifurcations"]
        expect(len(b) == 1 and b[0]["kind"] == "grazing", name + ": one grazing", b)
        return b[0]
    for c in (0.5, 0.8):
        for lower, t0 in ((True, 0.0), (False, 0.0), (True, 1e6)):
            a, z = (0.8 * c * c, 1.2 * c * c) if lower else (1.2 * c * c, 0.8 * c * c)
            name = "grazing_sliding_%g_%s_%g" % (c, lower, t0)
            b = bifurcation(name, c, 1.0, a, z, math.sqrt(a), t0)
            expect(abs(b["parameter"] - c * c) < 1e-8 * (1 + c * c), name + ": mu = c^2",
                   b["parameter"], c * c)
            expect(b.get("sliding_kind") == "grazing-sliding", name + ": named", b)
    c, x0 = 0.5, 0.3
    mu = crossing_sliding_mu(c, x0)
    b = bifurcation("crossing_sliding_down", c, x0, 0.38, 0.30, 0.62)
    expect(abs(b["parameter"] - mu) < 1e-8, "crossing-sliding located", b["parameter"], mu)
    expect(b.get("sliding_kind") == "crossing-sliding", "crossing-sliding named", b)
    # At mu just past the crossing-sliding the cycle crosses y = c 1.6e-8 beyond x0: the flight
    # above stays below round-off and the upper flow turns back while the state is a round-off
    # under y = c. Those runs integrated the upper flow below the surface (11.6 under it by
    # t = 12), silently; `past:` now takes the crossing. 20 starts: no sample of an upper mode
    # lies under the surface by more than 1e-8.
    model = os.path.join(cli.work, "past.toml")
    with open(model, "w") as f:
        f.write(CIRCLE.format(c=c, x0=x0, mu=0.34254002825, x=0.55))
    pasts = 0
    for i in range(20):
        out = os.path.join(cli.work, "past")
        code, stdout, stderr = cli.run("run", model, "--out", out, "--set",
                                       "x=%r" % (0.55 + 0.0005 * i), "--set", "solver.t_end=12")
        expect_exit(code, 0, stdout, stderr, "run past the crossing-sliding")
        under = [float(r["y"]) - c for r in read_csv(os.path.join(out, "trajectory.csv"))
                 if ">0]" in r["mode"]]
        lowest = min(under or [0.0])
        expect(lowest > -1e-8, "upper flow kept above the surface", i, lowest)
        pasts += sum(r["guard"].startswith("past:")
                     for r in read_csv(os.path.join(out, "events.csv")))
    expect(pasts >= 5, "the crossings taken by past:", pasts)
    b = bifurcation("crossing_sliding_up", c, x0, 0.30, 0.38, 0.55)
    expect(abs(b["parameter"] - mu) < 2e-9 * (1 + mu), "crossing-sliding from the sliding side",
           b["parameter"], mu)
    expect("by bisection of the event sequence" in b["message"], "located by bisection", b)
    expect(b.get("sliding_kind") == "crossing-sliding", "named from the sliding side", b)

if __name__ == "__main__":
    main(CASES, "cli_switching_test.py")
