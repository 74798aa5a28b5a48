#!/usr/bin/python3
"""Peer benchmark: Siconos (python3-siconos 4.4) Moreau-Jean time stepping on the rocking block
of issue 11, the problem of models/rocking_block.toml with the issue's anchors.

Block: half-width a = 0.25, half-height h = 0.5, m = 1, I_c = m (a^2 + h^2) / 3, g = 9.81,
q = (x, y, theta) of the centre, tilted theta0 = 0.2 rad with its lowest (left) corner 0.1 m
above the floor, released at rest. Each bottom corner is an Interaction with a
LagrangianScleronomousR (gap and tangent of the corner, compiled C plugin
bench/peers/rocking_block_plugin.c, the same expressions as the model's contacts) and a
NewtonImpactFrictionNSL (Newton e = 0.5, e_T = 0, Coulomb mu = 0.5). Simulation: TimeStepping +
MoreauJeanOSI(theta = 0.5) + FrictionContact(2) solved by the 2D Lemke solver (exact pivoting;
the default NSGS stops at tolerance 1e-4), fixed step h.

An impact of a corner is a step whose normal impulse lambda(1)[0] turns positive after a step
where it was zero; its time is the end of that step (resolution h), as in siconos_ball.py.
Energy = m (x'^2 + y'^2) / 2 + I_c theta'^2 / 2 + m g y at the end of that step. Settling time:
the end of the last step in which a corner carried no impulse (from then on both corners are in
contact at every step).

Timing: time.process_time() (CPU of this process) and time.perf_counter() around the stepping
loop of a run that observes nothing (computeOneStep / nextStep only; the model is built outside
the loop). With --observe a second, observed run gives the impacts, energies and settling
time (deterministic, so once is enough).

One JSON object per h on stdout:
  {"tool": "siconos-mj", "h", "t_end", "steps", "cpu_s", "wall_s", and with --observe
   "impacts": [{"t", "corner", "energy"}], "settle_t", "energy_end", "q_end", "v_end",
   "min_gap"}
Run with Debian's /usr/bin/python3.
Usage: siconos_rocking_block.py [--h 1e-3,1e-4,1e-5] [--t-end 2] [--observe]
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

A, H, M, G = 0.25, 0.5, 1.0, 9.81
E, MU = 0.5, 0.5
THETA0, DROP = 0.2, 0.1
I_C = M * (A * A + H * H) / 3.0
CORNERS = ("left", "right")


def plugin_path():
    """Compiles rocking_block_plugin.c (once) into the peers' build folder; returns its stem."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    build = os.environ.get("SALTUS_PEERS_BUILD", os.path.join(root, "build-peers"))
    os.makedirs(build, exist_ok=True)
    src = os.path.join(here, "rocking_block_plugin.c")
    lib = os.path.join(build, "rocking_block_plugin.so")
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-DHALF_WIDTH={A!r}",
                        f"-DHALF_HEIGHT={H!r}", "-o", lib, src, "-lm"], check=True)
    return lib[: -len(".so")]  # Siconos appends the suffix


def initial_q():
    # lowest corner (left, theta0 > 0): y - a sin(theta0) - h cos(theta0) = DROP
    return [0.0, DROP + A * math.sin(THETA0) + H * math.cos(THETA0), THETA0]


def build(h, t_end, plugin):
    block = sk.LagrangianLinearTIDS(initial_q(), [0.0, 0.0, 0.0], np.diag([M, M, I_C]))
    block.setFExtPtr(np.array([0.0, -M * G, 0.0]))
    n_steps = int(math.ceil(t_end / h - 1e-9))
    # the model's final time must lie beyond the last step (else Siconos asserts on NaN)
    nsds = sk.NonSmoothDynamicalSystem(0.0, (n_steps + 2) * h)
    nsds.insertDynamicalSystem(block)
    inters = []
    for c in CORNERS:
        rel = sk.LagrangianScleronomousR(f"{plugin}:h_{c}", f"{plugin}:jacobian_{c}")
        inter = sk.Interaction(sk.NewtonImpactFrictionNSL(E, 0.0, MU, 2), rel)
        nsds.link(inter, block)
        inters.append(inter)
    osnsp = sk.FrictionContact(2, sn.SICONOS_FRICTION_2D_LEMKE)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), osnsp)
    return block, inters, sim, n_steps


def energy(q, v):
    return 0.5 * M * (v[0] ** 2 + v[1] ** 2) + 0.5 * I_C * v[2] ** 2 + M * G * q[1]


def gaps(q):
    return [q[1] + s * A * math.sin(q[2]) - H * math.cos(q[2]) for s in (-1.0, 1.0)]


def timed_run(h, t_end, plugin):
    block, inters, sim, n_steps = build(h, t_end, plugin)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(n_steps):
        sim.computeOneStep()
        sim.nextStep()
    return time.process_time() - c0, time.perf_counter() - w0, n_steps


def observed_run(h, t_end, plugin):
    block, inters, sim, n_steps = build(h, t_end, plugin)
    impacts, prev = [], [0.0, 0.0]
    settle, min_gap = 0.0, min(gaps(block.q()))
    for _ in range(n_steps):
        sim.computeOneStep()
        t = sim.nextTime()
        q, v = block.q(), block.velocity()
        min_gap = min(min_gap, *gaps(q))
        lam = [inter.lambda_(1)[0] for inter in inters]
        for k in range(2):
            if lam[k] > 0.0 and prev[k] <= 0.0:
                impacts.append(dict(t=t, corner=CORNERS[k], energy=energy(q, v)))
        if min(lam) <= 0.0:
            settle = t
        prev = lam
        sim.nextStep()
    q, v = block.q(), block.velocity()
    return dict(impacts=impacts, settle_t=settle, energy_end=energy(q, v), q_end=list(q),
                v_end=list(v), min_gap=min_gap)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--h", default="1e-3,1e-4,1e-5")
    ap.add_argument("--t-end", type=float, default=2.0)
    ap.add_argument("--observe", action="store_true")
    args = ap.parse_args()
    plugin = plugin_path()
    for h in (float(s) for s in args.h.split(",")):
        cpu, wall, steps = timed_run(h, args.t_end, plugin)
        line = dict(tool="siconos-mj", h=h, t_end=args.t_end, steps=steps, cpu_s=cpu, wall_s=wall)
        if args.observe:
            line.update(observed_run(h, args.t_end, plugin))
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    sys.exit(main())
