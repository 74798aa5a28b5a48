#!/usr/bin/env python3
"""End-to-end tests of `saltus equilibrium` (issue 46, boundary-equilibrium bifurcations):
equilibria and pseudo-equilibria of modes, their branches, folds, Hopf points and
boundary-equilibrium bifurcations against closed forms.

Usage: cli_equilibrium_test.py CASE SALTUS_BINARY SOURCE_DIR WORK_DIR (one CTest test per CASE,
apps/CMakeLists.txt). Expected values come from closed forms computed here.
"""
import math
import os
import random

from cli_analysis_test import read_json
from cli_test import expect, expect_exit, main, read_csv

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# models/boundary_equilibrium.toml with its states in units L times smaller (X = L x, Y = L y):
#   below Y = L c: X' = L mu - X^2 / L, Y' = X - Y;   above: X' = L d - X, Y' = -L k.
# The node X = Y = L sqrt(mu) reaches the surface at mu = c^2. The pseudo-equilibrium x = X / L
# is the root x > c (admissible) of g(x) = (x - c)(d - x) + k (mu - x^2); the sliding flow on the
# surface is x' = g(x) / (x - c + k), so its eigenvalue is g'(x) / (x - c + k) there,
# g'(x) = d + c - 2 x - 2 k x. At the bifurcation dx/dmu = -k / g'(c): persistence where
# g'(c) < 0 (d < c (1 + 2k)), a nonsmooth fold where g'(c) > 0.
PLANE = """
[model]
name = "plane"
[parameters]
mu = {mu!r}
c = {c!r}
d = {d!r}
k = {k!r}
L = {L!r}
[states]
X = {{ initial = {X!r} }}
Y = {{ initial = {Y!r} }}
[modes.plane]
flow = ["X' = (1 - sign(Y - L*c))/2*(L*mu - X^2/L) + (1 + sign(Y - L*c))/2*(L*d - X)",
        "Y' = (1 - sign(Y - L*c))/2*(X - Y) - (1 + sign(Y - L*c))/2*L*k"]
[solver]
t_end = 10.0
rtol = 1e-10
atol = {atol!r}
"""


def write(cli, name, text, **values):
    path = os.path.join(cli.work, name + ".toml")
    with open(path, "w") as f:
        f.write(text.format(**values))
    return path


def equilibrium(cli, model, out, *args, code=0):
    # --no-plot unless the case asks for the plot (matplotlib costs a second a run).
    plot = () if "--plot" in args else ("--no-plot",)
    status, stdout, stderr = cli.run("equilibrium", model, "--out", out, *args, *plot)
    expect_exit(status, code, stdout, stderr, out)
    return read_json(out, "equilibria.json"), stdout


@case
def boundary_equilibrium_bifurcations_of_a_filippov_node(cli):
    # 10 seeded random planes, half persistence and half nonsmooth fold, some in units 100 times
    # smaller (atol with them): every boundary point at mu = c^2 within 1e-10 (1 + c^2), at
    # X = Y = L c, of the predicted kind, the node and the pseudo-equilibrium meeting there on
    # the predicted sides; the pseudo-equilibrium past it against its closed form and eigenvalue
    # against g'/(x - c + k).
    rng = random.Random(46)
    for n in range(10):
        c, k = rng.uniform(0.3, 1.5), rng.uniform(0.5, 2.0)
        fold = n % 2 == 1
        d = c * (1 + 2 * k) * (rng.uniform(1.3, 2.0) if fold else rng.uniform(0.3, 0.8))
        L = 100.0 if n % 3 == 0 else 1.0
        mu0, mu1 = 0.4 * c * c, 1.6 * c * c
        guess = 0.9 * L * math.sqrt(mu0)
        model = write(cli, "plane%d" % n, PLANE, mu=mu0, c=c, d=d, k=k, L=L, X=guess, Y=guess,
                      atol=1e-12 * L)
        out = os.path.join(cli.work, "plane%d" % n)
        j, stdout = equilibrium(cli, model, out, "--continue", "mu=%r:%r" % (mu0, mu1))
        node = [e for e in j["equilibria"] if not e["pseudo"]]
        expect(len(node) == 1, "one regular equilibrium from the guess", j["equilibria"])
        expect(abs(node[0]["x"]["X"] - L * math.sqrt(mu0)) < 1e-12 * L, "the node",
               node[0], L * math.sqrt(mu0))
        expect(node[0]["admissible"] and node[0]["stable"], "an admissible stable node", node[0])
        events = [e for b in j["branches"] for e in b["bifurcations"] if e["kind"] == "boundary"]
        expect(events, "a boundary point", stdout)
        expect(all(b["reached_end"] for b in j["branches"]), "every branch reached the end",
               j["branches"])
        want = "nonsmooth-fold" if fold else "persistence"
        for e in events:
            expect(e["located"], "located", e)
            expect(abs(e["parameter"] - c * c) < 1e-10 * (1 + c * c), "mu* = c^2",
                   e["parameter"], c * c)
            x = e["equilibrium"]["x"]
            expect(abs(x["X"] - L * c) < 1e-9 * L and abs(x["Y"] - L * c) < 1e-9 * L,
                   "at X = Y = L c", x, L * c)
            expect(e["boundary_kind"] == want, "kind " + want, e["message"])
            sides = {m["pseudo"]: m["side"] for m in e["meeting"]}
            expect(len(e["meeting"]) == 2 and sides.get(False) == -1, "the node, admissible "
                   "for mu < mu*", e["meeting"])
            expect(sides.get(True) == (-1 if fold else 1), "the pseudo-equilibrium's side",
                   e["meeting"])
        # The pseudo-equilibrium on its admissible side: g is the quadratic
        # -(1 + k) x^2 + (c + d) x + k mu - c d; its root beyond c nearest to it.
        mu = c * c * (0.95 if fold else 1.05)
        qa, qb, qc = -(1 + k), c + d, k * mu - c * d
        roots = [(-qb + sgn * math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa) for sgn in (1, -1)]
        root = min(r for r in roots if r > c)
        sliding = [m["mode"] for m in events[0]["meeting"] if m["pseudo"]][0]
        out2 = out + "_pseudo"
        j2, _ = equilibrium(cli, model, out2, "--set", "mu=%r" % mu, "--set",
                            "X=%r" % (L * root * 1.01), "--set", "Y=%r" % (L * c), "--mode",
                            sliding)
        p = j2["equilibria"][0]
        expect(p["pseudo"] and p["admissible"], "an admissible pseudo-equilibrium", p)
        expect(abs(p["x"]["X"] - L * root) < 1e-10 * L * (1 + root), "the pseudo-equilibrium",
               p["x"], L * root)
        slope = (d + c - 2 * root - 2 * k * root) / (root - c + k)
        expect(len(p["eigenvalues"]) == 1 and abs(p["eigenvalues"][0][0] - slope) < 1e-8 *
               (1 + abs(slope)), "its eigenvalue on the surface", p["eigenvalues"], slope)
        expect(p["stable"] == (slope < 0) and p["attracting"], "its stability", p)


@case
def equilibrium_fold_and_branch_against_closed_form(cli):
    # The node and the saddle x = y = +-sqrt(mu) of the lower region meet in a fold at mu = 0:
    # continued from mu = c^2/4 down to -c^2/10, the branch turns there and leaves the range
    # at its start. Every point: x = y, x^2 = mu, admissible where y < c, stable where x > 0,
    # eigenvalues -2 x and -1; the fold at mu = 0 within 1e-10 c^2. branches.png is drawn.
    for c, L in ((0.5, 1.0), (0.8, 1000.0)):
        mu0 = c * c / 4
        model = write(cli, "fold%g" % c, PLANE, mu=mu0, c=c, d=0.6, k=1.0, L=L,
                      X=0.9 * L * math.sqrt(mu0), Y=0.9 * L * math.sqrt(mu0), atol=1e-12 * L)
        out = os.path.join(cli.work, "fold%g" % c)
        j, stdout = equilibrium(cli, model, out, "--continue", "mu=%r:%r" % (mu0, -c * c / 10),
                                "--mode", "plane[Y - %g<0]" % (L * c), "--plot")
        with open(os.path.join(out, "branches.png"), "rb") as f:
            expect(f.read(8) == b"\x89PNG\r\n\x1a\n", "branches.png drawn")
        b = j["branches"][0]
        folds = [e for e in b["bifurcations"] if e["kind"] == "fold"]
        expect(len(folds) == 1 and abs(folds[0]["parameter"]) < 1e-10 * c * c, "fold at 0",
               b["bifurcations"])
        expect(min(abs(e[0]) for e in folds[0]["equilibrium"]["eigenvalues"]) < 1e-5,
               "a zero eigenvalue at the fold", folds[0]["equilibrium"])
        expect(b["reached_end"] and "left the range at its start" in b["message"],
               "turned back at the fold", b)
        rows = read_csv(os.path.join(out, "branches.csv"))
        expect(len(rows) == b["points"] and len(rows) > 10, "branch points", len(rows))
        saddles = 0
        for r in rows:
            x, y, mu = float(r["X"]) / L, float(r["Y"]) / L, float(r["mu"])
            expect(abs(x - y) < 1e-11 and abs(x * x - mu) < 1e-11, "x = y, x^2 = mu", r)
            expect(int(r["admissible"]) == (y < c), "admissible below the surface", r)
            if abs(mu) > 1e-6:
                expect(int(r["stable"]) == (x > 0), "the node stable, the saddle not", r)
                expect(abs(float(r["max_real_eigenvalue"]) - max(-2 * x, -1.0)) < 1e-9,
                       "largest eigenvalue max(-2x, -1)", r)
            saddles += x < 0
        expect(saddles > 3, "the saddle half of the branch", saddles)


# A damped oscillator whose rest position mu reaches a stop at x = s (an impact with
# restitution e): x' = v, v' = -w^2 (x - mu) + (mu - a) v. Eigenvalues (mu - a)/2 +- i
# sqrt(w^2 - (mu - a)^2/4): a Hopf point at mu = a with frequency w; the equilibrium (mu, 0) is
# admissible for mu < s and meets no other mode's equilibrium at mu = s.
STOP = """
[model]
name = "stop"
[parameters]
mu = {mu!r}
a = {a!r}
w = {w!r}
s = {s!r}
[states]
x = {{ initial = {mu!r} }}
v = {{ initial = 0.0 }}
[modes.free]
flow = ["x' = v", "v' = -w^2*(x - mu) + (mu - a)*v"]
[[modes.free.guards]]
name = "stop"
value = "x - s"
direction = "rising"
reset = ["v = -0.5*v"]
[solver]
t_end = 10.0
"""


@case
def equilibrium_hopf_and_impacting_boundary(cli):
    # 4 seeded random oscillators: the Hopf point at mu = a (1e-10 (1 + |a|)) with frequency w
    # (1e-9 w); the boundary point at mu = s (1e-10 (1 + |s|)), guard `stop`, one equilibrium
    # meeting there: unclassified.
    rng = random.Random(4646)
    for n in range(4):
        a, w = rng.uniform(-1.0, 1.0), rng.uniform(0.5, 3.0)
        s = a + rng.uniform(0.2, 1.0)
        mu0, mu1 = a - 0.5, s + 0.5
        model = write(cli, "stop%d" % n, STOP, mu=mu0, a=a, w=w, s=s)
        out = os.path.join(cli.work, "stop%d" % n)
        j, stdout = equilibrium(cli, model, out, "--continue", "mu=%r:%r" % (mu0, mu1))
        b = j["branches"][0]
        kinds = [e["kind"] for e in b["bifurcations"]]
        expect(kinds == ["hopf", "boundary"], "a Hopf point, then the stop", kinds, stdout)
        expect(all(e["located"] for e in b["bifurcations"]), "located", b["bifurcations"])
        hopf, stop = b["bifurcations"]
        expect(abs(hopf["parameter"] - a) < 1e-10 * (1 + abs(a)), "Hopf at mu = a",
               hopf["parameter"], a)
        expect(abs(hopf["frequency"] - w) < 1e-9 * w, "frequency w", hopf["frequency"], w)
        expect(abs(stop["parameter"] - s) < 1e-10 * (1 + abs(s)), "boundary at mu = s",
               stop["parameter"], s)
        expect(stop["guards"] == ["stop"] and stop["boundary_kind"] == "unclassified" and
               len(stop["meeting"]) == 1 and stop["meeting"][0]["side"] == -1,
               "the stop alone, admissible below s", stop)
        rows = read_csv(os.path.join(out, "branches.csv"))
        for r in rows:
            mu = float(r["mu"])
            expect(abs(float(r["x"]) - mu) < 1e-12 * (1 + abs(mu)), "x = mu", r)
            expect(int(r["admissible"]) == (mu < s), "admissible below the stop", r)
            if abs(mu - a) > 1e-6:
                expect(int(r["stable"]) == (mu < a), "stable below the Hopf point", r)


OFFSET_STOP = """
[model]
name = "stop_far"
[parameters]
mu = {mu!r}
a = {a!r}
w = {w!r}
s = {s!r}
o = {o!r}
[states]
x = {{ initial = {mu!r} }}
v = {{ initial = 0.0 }}
[modes.free]
flow = ["x' = v", "v' = -w^2*(x - mu) + (mu - o - a)*v"]
[[modes.free.guards]]
name = "stop"
value = "x - s - o"
direction = "rising"
reset = ["v = -0.5*v"]
[solver]
t_end = 10.0
"""


@case
def equilibria_do_not_depend_on_the_origin(cli):
    # The oscillator with its stop moved 1e6 along x (x, mu and the stop all by o = 1e6), its
    # range from the far end: the Hopf point at o + a and the stop at o + s within 4 ulps of
    # 1e6 (5e-10), the equilibrium meeting the stop found as at the origin (admissible below).
    a, w, s, o = 0.2, 1.5, 0.7, 1e6
    model = write(cli, "far", OFFSET_STOP, mu=o + s + 0.5, a=a, w=w, s=s, o=o)
    j, stdout = equilibrium(cli, model, os.path.join(cli.work, "far"), "--continue",
                            "mu=%r:%r" % (o + s + 0.5, o + a - 0.5))
    b = j["branches"][0]["bifurcations"]
    expect([e["kind"] for e in b] == ["boundary", "hopf"], "the stop, then Hopf", b, stdout)
    stop, hopf = b
    expect(abs(hopf["parameter"] - (o + a)) < 5e-10 and abs(hopf["frequency"] - w) < 1e-9,
           "Hopf at o + a", hopf["parameter"] - o)
    expect(abs(stop["parameter"] - (o + s)) < 5e-10, "the stop at o + s", stop["parameter"] - o)
    expect(len(stop["meeting"]) == 1 and stop["meeting"][0]["side"] == -1,
           "the equilibrium meets the stop, admissible below", stop["meeting"])


@case
def equilibrium_bad_input_is_refused(cli):
    model = os.path.join(cli.source, "models", "boundary_equilibrium.toml")
    for args, says in ((["--continue", "nosuch=0:1"], "nosuch"),
                       (["--continue", "mu=0.1:0.1"], "must differ"),
                       (["--continue", "mu=0.1"], "NAME=A:B"),
                       (["--mode", "nosuch"], "nosuch"),
                       (["--continue", "mu=0.1:0.5", "--max-step", "0"], "--max-step")):
        out = os.path.join(cli.work, "bad")
        code, stdout, stderr = cli.run("equilibrium", model, "--out", out, *args)
        expect_exit(code, 1, stdout, stderr, " ".join(args))
        expect(says in stderr and not os.path.exists(out), "names the problem: " + says, stderr)
    # No equilibrium of the upper region (its y' = -k): a status, and the file says why.
    out = os.path.join(cli.work, "none")
    j, _ = equilibrium(cli, model, out, "--mode", "plane[y - 0.5>0]", code=2)
    expect(not j["equilibria"] and "did not reach a root" in j["not_found"][0]["message"],
           "none found, said why", j)
    # A forced flow rests at one instant only; a flow that throws (the top's chart pole).
    for name, says in (("forced_damped_oscillator", "the flow depends on t"),
                       ("lagrange_top", "the flow failed: ")):
        out = os.path.join(cli.work, name)
        j, _ = equilibrium(cli, os.path.join(cli.source, "models", name + ".toml"), out, code=2)
        expect(not j["equilibria"] and says in j["not_found"][0]["message"], name + ": " + says,
               j["not_found"])


if __name__ == "__main__":
    main(CASES, "cli_equilibrium_test.py")
