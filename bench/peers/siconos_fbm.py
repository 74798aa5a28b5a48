#!/usr/bin/python3
"""Peer benchmark: Siconos (python3-siconos 4.4) Moreau-Jean time stepping on the Frictional
Bounce Model of models/frictional_bounce.toml (issue 32 item 4(b)), with the model file's values.

Stick: m = 1, L = 0.5, J = gamma m L^2 (gamma = 0.02), q = (x, y, theta) of its centre of mass in
the belt's frame, held by spring-dampers k_x = k_y = 1000, k_r = 100, c_x = c_y = 1, c_r = 5e-4
whose rest point moves at -v_b (k_x (x + v_b t), c_x (x' + v_b)), pressed by press = 3 mm, its
tip on the belt: gap y - L sin(theta), tangent x - L cos(theta), Coulomb mu (--mu, 0.49 by default), plastic
(e = 0, e_T = 0). Starts touching at rest, theta0 = 1.14. A LagrangianLinearTIDS (M = diag(m, m,
J), K, C, time-dependent fExt from the C plugin bench/peers/fbm_plugin.c, compiled by this
script with cc), one Interaction with a LagrangianScleronomousR (gap and tangent from the plugin)
and a NewtonImpactFrictionNSL(0, 0, mu, 2). Simulation: TimeStepping + MoreauJeanOSI(theta =
0.5) + FrictionContact(2) solved by the 2D Lemke solver, fixed step h.

Observed per step (end of the step t_{k+1}): the contact's impulse lambda(1) = (P_N, P_T) over the
step. A landing is a step whose P_N turns positive after a step with P_N = 0 (the flight); its
time is the end of that step (resolution h) and its impulse that step's (P_N, P_T): the impact
impulse plus h times the contact force, O(h). A lift-off is the first step with P_N = 0 after
one with P_N > 0. An apex is a flight step (P_N = 0) whose y' turns from > 0 to <= 0 (saltus's
`apex` section in mode free).

--start T0,x,y,theta,x',y',theta' starts the run at T0 from that state (a saltus state just before
a landing: the impact resolutions compared from the same state) instead of the model's initial
state at 0; --t-end is then the end time.

Timing: time.process_time() and time.perf_counter() around the stepping loop of a run that
observes nothing (computeOneStep / nextStep only, model built outside the loop); with --observe a
second, observed run gives the landings (deterministic, so once is enough). --no-timing: only the
observed run.

One JSON object per (v_b, h) on stdout:
  {"tool": "siconos-mj", "v_b", "h", "t_end", "steps", "cpu_s", "wall_s", and with --observe
   "landings": [{"t", "P_N", "P_T", "v_after"}], "liftoffs": [t], "apexes": [t],
   "q_end", "v_end", "min_gap"}
Run with Debian's /usr/bin/python3.
--mu sets Coulomb's coefficient (default the model's 0.49; 0.55 is above the Painleve bound
mu_P(theta0) = 0.511, bench/run_fbm_painleve_bench.sh).
Usage: siconos_fbm.py [--v-b 1.0,1.5] [--h 1e-3,1e-4] [--t-end 2] [--start T0,q...,v...]
                      [--mu MU] [--observe] [--no-timing]
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn

M, L, GAMMA, G = 1.0, 0.5, 0.02, 9.81
J = GAMMA * M * L * L
E = 0.0
K_X, K_Y, K_R = 1000.0, 1000.0, 100.0
C_X, C_Y, C_R = 1.0, 1.0, 0.0005
THETA0, PRESS = 1.14, 0.003


def plugin_path():
    """Compiles fbm_plugin.c (once) into the peers' build folder; returns its stem."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    build = os.environ.get("SALTUS_PEERS_BUILD", os.path.join(root, "build-peers"))
    os.makedirs(build, exist_ok=True)
    src = os.path.join(here, "fbm_plugin.c")
    lib = os.path.join(build, "fbm_plugin.so")
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-DLENGTH={L!r}", "-o", lib, src, "-lm"],
                       check=True)
    return lib[: -len(".so")]  # Siconos appends the suffix


def build(v_b, h, t_end, plugin, start, mu):
    t0, q0, v0 = 0.0, [0.0, L * math.sin(THETA0), THETA0], [0.0, 0.0, 0.0]
    if start:
        t0, q0, v0 = start[0], start[1:4], start[4:7]
    stick = sk.LagrangianLinearTIDS(q0, v0, np.diag([M, M, J]))
    stick.setKPtr(np.diag([K_X, K_Y, K_R]))
    stick.setCPtr(np.diag([C_X, C_Y, C_R]))
    stick.setzPtr(np.array([K_X, C_X, v_b, M * G, K_Y, L * math.sin(THETA0) - PRESS, K_R, THETA0]))
    stick.setComputeFExtFunction(plugin, "fext_holder")
    n_steps = int(math.ceil((t_end - t0) / h - 1e-9))
    # the model's final time must lie beyond the last step (else Siconos asserts on NaN)
    nsds = sk.NonSmoothDynamicalSystem(t0, t0 + (n_steps + 2) * h)
    nsds.insertDynamicalSystem(stick)
    rel = sk.LagrangianScleronomousR(f"{plugin}:h_tip", f"{plugin}:jacobian_tip")
    inter = sk.Interaction(sk.NewtonImpactFrictionNSL(E, 0.0, mu, 2), rel)
    nsds.link(inter, stick)
    osnsp = sk.FrictionContact(2, sn.SICONOS_FRICTION_2D_LEMKE)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(t0, h), sk.MoreauJeanOSI(0.5), osnsp)
    return stick, inter, sim, n_steps


def gap(q):
    return q[1] - L * math.sin(q[2])


def timed_run(v_b, h, t_end, plugin, start, mu):
    _, _, sim, n_steps = build(v_b, h, t_end, plugin, start, mu)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(n_steps):
        sim.computeOneStep()
        sim.nextStep()
    return time.process_time() - c0, time.perf_counter() - w0, n_steps


def observed_run(v_b, h, t_end, plugin, start, mu):
    stick, inter, sim, n_steps = build(v_b, h, t_end, plugin, start, mu)
    landings, liftoffs, apexes = [], [], []
    # the model starts touching (its first contact step is no landing); a --start state in flight
    prev_pn, prev_vy = (0.0 if start else 1.0), float(stick.velocity()[1])
    min_gap = gap(stick.q())
    for _ in range(n_steps):
        sim.computeOneStep()
        t = sim.nextTime()
        q, v = stick.q(), stick.velocity()
        lam = inter.lambda_(1)
        p_n, p_t = float(lam[0]), float(lam[1])
        min_gap = min(min_gap, gap(q))
        if p_n > 0.0 and prev_pn <= 0.0:
            landings.append(dict(t=t, P_N=p_n, P_T=p_t, v_after=[float(x) for x in v]))
        elif p_n <= 0.0 and prev_pn > 0.0:
            liftoffs.append(t)
        if p_n <= 0.0 and prev_vy > 0.0 and v[1] <= 0.0:
            apexes.append(t)
        prev_pn, prev_vy = p_n, float(v[1])
        sim.nextStep()
    q, v = stick.q(), stick.velocity()
    return dict(landings=landings, liftoffs=liftoffs, apexes=apexes, q_end=[float(x) for x in q],
                v_end=[float(x) for x in v], min_gap=min_gap)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--v-b", default="1.0,1.5")
    ap.add_argument("--h", default="1e-3,1e-4")
    ap.add_argument("--t-end", type=float, default=2.0)
    ap.add_argument("--start", default="")
    ap.add_argument("--mu", type=float, default=0.49)
    ap.add_argument("--observe", action="store_true")
    ap.add_argument("--no-timing", action="store_true")
    args = ap.parse_args()
    plugin = plugin_path()
    start = [float(x) for x in args.start.split(",")] if args.start else []
    if start and len(start) != 7:
        ap.error("--start takes T0 and the six states")
    for v_b in (float(s) for s in args.v_b.split(",")):
        for h in (float(s) for s in args.h.split(",")):
            t0 = start[0] if start else 0.0
            line = dict(tool="siconos-mj", v_b=v_b, h=h, mu=args.mu, t0=t0, t_end=args.t_end,
                        steps=int(math.ceil((args.t_end - t0) / h - 1e-9)), cpu_s=None,
                        wall_s=None)
            if not args.no_timing:
                line["cpu_s"], line["wall_s"], _ = timed_run(v_b, h, args.t_end, plugin, start, args.mu)
            if args.observe or args.no_timing:
                line.update(observed_run(v_b, h, args.t_end, plugin, start, args.mu))
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    sys.exit(main())
