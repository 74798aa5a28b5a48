#!/usr/bin/python3
"""Peer benchmark (issue 48): a cube dropped on a plane with Coulomb friction in space, in
Siconos 4.4 (Debian's python3-siconos) Moreau-Jean time stepping with a 3D friction-contact
problem (fc3d). No saltus code.

Problem (SI): homogeneous cube, half side a = 0.1, m = 1, inertia I = (2/3) m a^2 about every
axis through the centre, gravity g = 9.81 along -z, floor z = 0. Contacts: the 8 corners
c1..c8 = (-+a, -+a, -+a) in body axes, in the order of models/cube_drop.toml (x fastest, then y,
then z), each with Newton restitution e (normal), tangential restitution 0 and Coulomb mu.
Initial state: centre (0, 0, 0.5), at rest, rotation R = Rz(phi) Rx(theta) Rz(psi) with the ZXZ
Euler angles (phi, theta, psi) = (0.1, 0.7, 0.4) in saltus's convention (docs/MODEL_FORMAT.md,
[[bodies]] `orientation`; src/model/loader/bodies_reader.cpp): Rz, Rx the usual right-handed
rotation matrices about the fixed z and x axes, their product taken as written (so intrinsic
z-x'-z''), and R maps body axes to world axes (corner in the world = c + R p). `--R` overrides
it with a row-major matrix.

Siconos model:
- The cube is a NewtonEulerDS: q = (centre, unit quaternion q0..q3), velocity = (centre
  velocity in the world, angular velocity in BODY axes), scalar mass and inertia matrix; weight
  as a constant fExt. Quaternions have no pole, so the tumbling cube needs no chart switch (a
  Lagrangian 6-dof form with ZXZ angles would be singular when the cube lies on a face, where
  theta = 0 or pi).
- One Interaction per corner: a NewtonEuler3DR subclassed in Python (SWIG director) whose
  computeh writes the corner's height as the gap y[0] and sets the contact point pc1 (corner in
  the world), pc2 (its foot on the floor) and the normal nc = +z. Siconos builds the local frame
  (normal, two tangents from orthoBaseFromVector) and the Jacobian from pc1 and nc itself
  (NewtonEuler3DR::computeJachqT). The contact vectors are written in place (pc1()[:] = ...):
  replacing them with setpc1 / setnc from Python segfaults (the converted vector is not kept
  alive). Unlike the rocking block's LagrangianScleronomousR, this director does not crash; the
  price is a Python call per corner per evaluation.
- NewtonImpactFrictionNSL(e, 0, mu, 3); FrictionContact(3) solved by SICONOS_FRICTION_3D_NSGS
  (FC3D_NSGS; local solver FC3D_ONECONTACT_NSN_GP_HYBRID, Siconos' default) with tolerance
  1e-12 (--nsgs-tol) and at most 10000 sweeps (--nsgs-max-iter). With two or four corners on
  the floor (an edge, a face) the contact problem is redundant (its impulses are not unique)
  and NSGS converges slowly: some steps stop at the sweep cap with a residual of ~1e-6 (the
  summary counts them); the trajectory moves by ~1e-9 between caps 1e4 and 1e5.
  MoreauJeanOSI(theta = 0.5); TimeStepping with fixed step h and its Newton loop (tolerance
  1e-10) for the nonlinear relations.

Observables (a time-stepping method resolves impacts only to the step h):
- impact: a step whose normal impulse P_N = lambda(1)[0] of a corner turns positive after a
  step where it was zero; time t = the end of that step; t_gap0 = the last downward zero
  crossing of the corner's height, interpolated linearly inside its step, if it lies in this step
  or the one before (null otherwise: Moreau-Jean activates a contact from the predicted gap
  y + h/2 y' at the start of a step, so the impulse comes up to a step after the crossing, or
  before the height reaches zero). P_T = the tangential
  impulse as a world vector (lambda(1)[1] t1 + lambda(1)[2] t2, t1 and t2 read from the
  relation's Jacobian).
  Velocities after = those at the end of the step; before = those at the end of the previous
  step. Kinetic energy T = m |v|^2 / 2 + I |w|^2 / 2 before and after.
- rest: the corners' speeds |v + R (w x p)| at every step end; rest_threshold = rest_rel x the
  first impact's approach speed |v_N^-| (rest_rel = 1e-3 by default); rest_t = the first step end
  from which all eight speeds stay below the threshold until t_end (null if they do not);
  tail_max_corner_speed = the largest corner speed over the last 10 % of the steps.
- the final pose (centre, rotation matrix, quaternion) and velocities.
- closed form (printed when the start has no angular velocity, so the cube translates): free
  fall until the lowest corner reaches z = 0 (t_1 from z_low + v_z t - g t^2 / 2 = 0) and, when
  mu = 0, the frictionless single-corner impact P_N = -(1 + e) v_N^- / (1/m + |r x n|^2 / I),
  v+ = v- + P_N n / m, w+ = (r x n) P_N / I in world axes (r = R p, n = +z); the summary's
  first_impact_vs_closed_form compares the first impact with it.

Timing: time.process_time() (CPU) and time.perf_counter() (wall) around the stepping loop of a
run that observes nothing (computeOneStep / nextStep only; the model is built outside the loop);
a second run observes (deterministic, so once is enough); --no-timed-run skips the first and
reports the observed loop's time instead.

Output: one JSON object per line: {"event": "setup"} (parameters, R, corner heights at t = 0,
closed form), per h {"event": "impact", ...} for every impact and {"event": "summary", ...}.
Siconos prints object dumps on the C++ stdout when it throws, so fd 1 is moved to stderr and the
JSON lines go to a duplicate of the original stdout.
Run with Debian's /usr/bin/python3.
Usage: siconos_cube.py [--mu 0.5] [--e 0.5] [--h 1e-3,1e-4] [--t-end 1.5]
         [--R r11,...,r33] [--x0 x,y,z] [--v0 vx,vy,vz] [--omega0 wx,wy,wz (world)]
         [--rest-rel 1e-3] [--nsgs-tol 1e-12] [--nsgs-max-iter 10000] [--no-timed-run]
         [--max-impacts 200]
"""

import argparse
import json
import math
import os
import sys
import time

# one BLAS thread: process CPU time should be that of the simulation, not of spinning threads
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 (after the thread settings)
import siconos.kernel as sk
import siconos.numerics as sn

A, M, G = 0.1, 1.0, 9.81
I_C = 2.0 / 3.0 * M * A * A
ANGLES = (0.1, 0.7, 0.4)  # ZXZ (phi, theta, psi) of models/cube_drop.toml
NEWTON_TOL = 1e-10
# c1..c8 as in models/cube_drop.toml: x changes fastest, then y, then z
CORNERS = [np.array([sx * A, sy * A, sz * A]) for sz in (-1, 1) for sy in (-1, 1) for sx in (-1, 1)]
NAMES = [f"c{k + 1}" for k in range(8)]
OUT = sys.stdout


def emit(obj):
    OUT.write(json.dumps(obj) + "\n")
    OUT.flush()


def zxz(phi, theta, psi):
    """R = Rz(phi) Rx(theta) Rz(psi), body axes to world axes (saltus's convention)."""
    def rz(a):
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])

    c, s = math.cos(theta), math.sin(theta)
    rx = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    return rz(phi) @ rx @ rz(psi)


def quat_from_rot(R):
    """Unit quaternion (w, x, y, z) with q p q* = R p; the largest of the four candidates is
    computed from the diagonal first, so the division is well conditioned for every R."""
    t = np.trace(R)
    cands = [t, R[0, 0], R[1, 1], R[2, 2]]
    k = int(np.argmax(cands))
    if k == 0:
        w = 0.5 * math.sqrt(1.0 + t)
        q = [w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w),
             (R[1, 0] - R[0, 1]) / (4 * w)]
    else:
        i, j, l = k - 1, k % 3, (k + 1) % 3
        x = 0.5 * math.sqrt(1.0 + 2 * R[i, i] - t)
        q = [0.0] * 4
        q[1 + i] = x
        q[0] = (R[l, j] - R[j, l]) / (4 * x)
        q[1 + j] = (R[j, i] + R[i, j]) / (4 * x)
        q[1 + l] = (R[l, i] + R[i, l]) / (4 * x)
    q = np.array(q)
    return q / np.linalg.norm(q)


def rot_from_quat(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


class CornerR(sk.NewtonEuler3DR):
    """Gap and contact frame of one corner p (body axes) against the floor z = 0."""

    def __init__(self, p):
        sk.NewtonEuler3DR.__init__(self)
        self.p = np.array(p, dtype=float)
        self.nc()[:] = (0.0, 0.0, 1.0)  # in place: setnc() from Python segfaults

    def computeh(self, time, q0, y):
        c = q0[:3] + rot_from_quat(q0[3:7]) @ self.p
        self.pc1()[:] = c
        self.pc2()[:] = (c[0], c[1], 0.0)
        y[0] = c[2]
        y[1] = 0.0  # tangential "positions": not used by the fc3d law (velocities are)
        y[2] = 0.0


def kinetic(v):
    return 0.5 * M * float(v[:3] @ v[:3]) + 0.5 * I_C * float(v[3:] @ v[3:])


def corner_velocities(q, v):
    """World velocities of the 8 corners: v_c + R (w_body x p)."""
    R = rot_from_quat(q[3:7])
    return [v[:3] + R @ np.cross(v[3:], p) for p in CORNERS]


def build(args, h):
    q0 = np.concatenate([args.x0, quat_from_rot(args.R)])
    w_body = args.R.T @ args.omega0  # Siconos' angular velocity is in body axes
    cube = sk.NewtonEulerDS(q0, np.concatenate([args.v0, w_body]), M, np.eye(3) * I_C)
    cube.setFExtPtr(np.array([0.0, 0.0, -M * G]))
    n_steps = int(math.ceil(args.t_end / h - 1e-9))
    nsds = sk.NonSmoothDynamicalSystem(0.0, (n_steps + 2) * h)  # beyond the last step
    nsds.insertDynamicalSystem(cube)
    inters, rels = [], []
    for p in CORNERS:
        rel = CornerR(p)
        inter = sk.Interaction(sk.NewtonImpactFrictionNSL(args.e, 0.0, args.mu, 3), rel)
        nsds.link(inter, cube)
        inters.append(inter)
        rels.append(rel)
    osnsp = sk.FrictionContact(3, sn.SICONOS_FRICTION_3D_NSGS)
    opts = osnsp.numericsSolverOptions()
    opts.dparam[sn.SICONOS_DPARAM_TOL] = args.nsgs_tol
    opts.iparam[sn.SICONOS_IPARAM_MAX_ITER] = args.nsgs_max_iter
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), osnsp)
    sim.setNewtonTolerance(NEWTON_TOL)
    sim.setNewtonMaxIteration(50)
    return dict(cube=cube, inters=inters, rels=rels, sim=sim, osnsp=osnsp, n_steps=n_steps,
                opts=opts, keep=(nsds,))


def timed_run(args, h):
    m = build(args, h)
    sim = m["sim"]
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(m["n_steps"]):
        sim.computeOneStep()
        sim.nextStep()
    return time.process_time() - c0, time.perf_counter() - w0, m["n_steps"]


def observed_run(args, h):
    m = build(args, h)
    sim, cube, inters, rels, opts = m["sim"], m["cube"], m["inters"], m["rels"], m["opts"]
    prev_pn = [0.0] * 8
    q_prev, v_prev = np.array(cube.q()), np.array(cube.velocity())
    impacts, first_speed = [], None
    tail_speed = 0.0
    last_moving_t = 0.0  # end of the last step with a corner at or above the threshold
    speeds_end = []
    z_prev = [float((q_prev[:3] + rot_from_quat(q_prev[3:]) @ p)[2]) for p in CORNERS]
    min_gap = min(z_prev)
    crossing = [None] * 8  # last downward zero crossing of each corner's height
    max_resid, max_sweeps, max_newton, unconverged, solves = 0.0, 0, 0, 0, 0
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(m["n_steps"]):
        opts.dparam[sn.SICONOS_DPARAM_RESIDU] = -1.0  # stays negative if no fc3d is solved
        sim.computeOneStep()
        t = sim.nextTime()
        q, v = np.array(cube.q()), np.array(cube.velocity())
        R = rot_from_quat(q[3:])
        max_newton = max(max_newton, sim.getNewtonNbIterations())
        z_now = [float((q[:3] + R @ p)[2]) for p in CORNERS]
        min_gap = min(min_gap, min(z_now))
        for k in range(8):
            if z_prev[k] > 0.0 >= z_now[k]:
                crossing[k] = t - h + h * z_prev[k] / (z_prev[k] - z_now[k])
        lam = [np.array(inter.lambda_(1)) for inter in inters]
        pn = [float(l[0]) if l.size else 0.0 for l in lam]
        if opts.dparam[sn.SICONOS_DPARAM_RESIDU] >= 0.0:
            solves += 1
            max_resid = max(max_resid, float(opts.dparam[sn.SICONOS_DPARAM_RESIDU]))
            max_sweeps = max(max_sweeps, int(opts.iparam[sn.SICONOS_IPARAM_ITER_DONE]))
            unconverged += opts.dparam[sn.SICONOS_DPARAM_RESIDU] > args.nsgs_tol
        new = [k for k in range(8) if pn[k] > 0.0 and prev_pn[k] <= 0.0]
        if new and len(impacts) < args.max_impacts:
            vc_before = corner_velocities(q_prev, v_prev)
            vc_after = corner_velocities(q, v)
            for k in new:
                J = np.array(rels[k].jachqT())
                tangents = J[1:3, :3]  # rows: t1, t2 in world axes
                pt = lam[k][1] * tangents[0] + lam[k][2] * tangents[1]
                if first_speed is None:
                    first_speed = abs(float(vc_before[k][2]))
                # the corner height's last zero crossing, if within this step or the one
                # before (Moreau-Jean activates a contact from the predicted gap y + h/2 y' at
                # the start of a step: the impulse comes up to a step after the crossing, or a
                # step before it)
                t_gap0 = crossing[k] if crossing[k] is not None and t - crossing[k] < 2 * h \
                    else None
                impacts.append(dict(
                    t=t, t_gap0=t_gap0, corner=NAMES[k], P_N=pn[k], P_T=pt.tolist(),
                    active=[NAMES[j] for j in range(8) if pn[j] > 0.0],
                    vN_before=float(vc_before[k][2]), vN_after=float(vc_after[k][2]),
                    vT_after=vc_after[k][:2].tolist(),
                    v_after=v[:3].tolist(), omega_world_after=(R @ v[3:]).tolist(),
                    omega_body_after=v[3:].tolist(),
                    ke_before=kinetic(v_prev), ke_after=kinetic(v)))
        prev_pn = pn
        z_prev = z_now
        speed = max(float(np.linalg.norm(c)) for c in corner_velocities(q, v))
        speeds_end.append((t, speed))
        if first_speed is None or speed >= args.rest_rel * first_speed:
            last_moving_t = t
        if len(speeds_end) > m["n_steps"] - m["n_steps"] // 10:  # the last 10 % of the run
            tail_speed = max(tail_speed, speed)
        q_prev, v_prev = q, v
        sim.nextStep()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    threshold = args.rest_rel * first_speed if first_speed else None
    rest_t = None
    if threshold is not None and speeds_end[-1][1] < threshold:
        # the first step end after the last one with a corner at or above the threshold
        rest_t = next(t for t, _ in speeds_end if t > last_moving_t + 0.5 * h)
    q, v = np.array(cube.q()), np.array(cube.velocity())
    R = rot_from_quat(q[3:])
    return dict(impacts=impacts, rest_threshold=threshold, rest_t=rest_t,
                tail_max_corner_speed=tail_speed,
                final=dict(centre=q[:3].tolist(), R=R.reshape(-1).tolist(),
                           quaternion=q[3:].tolist(), v=v[:3].tolist(),
                           omega_world=(R @ v[3:]).tolist(),
                           max_corner_speed=speeds_end[-1][1], ke=kinetic(v),
                           energy=kinetic(v) + M * G * float(q[2])),
                min_gap=min_gap, max_nsgs_residual=max_resid, max_nsgs_sweeps=max_sweeps,
                nsgs_solves=solves, nsgs_unconverged_steps=int(unconverged),
                max_newton_iterations=max_newton, cpu_observed_s=cpu, wall_observed_s=wall)


def closed_form(args):
    """Free fall to the lowest corner, then its frictionless single-corner impact (omega0 = 0)."""
    R = args.R
    heights = [float((args.x0 + R @ p)[2]) for p in CORNERS]
    k = int(np.argmin(heights))
    order = sorted(heights)
    vz = float(args.v0[2])
    t1 = (vz + math.sqrt(vz * vz + 2 * G * heights[k])) / G
    vn = vz - G * t1
    out = dict(t1=t1, corner=NAMES[k], vN_before=vn, second_lowest_gap=order[1] - order[0])
    if args.mu == 0.0:
        r = R @ CORNERS[k]
        n = np.array([0.0, 0.0, 1.0])
        rxn = np.cross(r, n)
        pn = -(1 + args.e) * vn / (1 / M + float(rxn @ rxn) / I_C)
        v_before = args.v0 + np.array([0.0, 0.0, -G * t1])
        v_after = v_before + pn * n / M
        w_after = rxn * pn / I_C
        out.update(P_N=pn, v_after=v_after.tolist(), omega_world_after=w_after.tolist(),
                   omega_body_after=(R.T @ w_after).tolist(),
                   vN_after=float(v_after[2] + np.cross(w_after, r)[2]),
                   ke_before=0.5 * M * float(v_before @ v_before),
                   ke_after=0.5 * M * float(v_after @ v_after)
                   + 0.5 * I_C * float(w_after @ w_after))
    return out


def vec(s, n):
    x = [float(t) for t in s.split(",")]
    if len(x) != n:
        raise argparse.ArgumentTypeError(f"expected {n} comma-separated numbers, got {s!r}")
    return np.array(x)


def main():
    global OUT
    OUT = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(2, 1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mu", type=float, default=0.5)
    ap.add_argument("--e", type=float, default=0.5)
    ap.add_argument("--h", default="1e-3,1e-4", help="comma-separated steps")
    ap.add_argument("--t-end", type=float, default=1.5)
    ap.add_argument("--R", type=lambda s: vec(s, 9).reshape(3, 3), default=zxz(*ANGLES),
                    help="initial rotation, body to world, row-major r11,...,r33")
    ap.add_argument("--x0", type=lambda s: vec(s, 3), default=np.array([0.0, 0.0, 0.5]))
    ap.add_argument("--v0", type=lambda s: vec(s, 3), default=np.zeros(3))
    ap.add_argument("--omega0", type=lambda s: vec(s, 3), default=np.zeros(3),
                    help="initial angular velocity, world axes")
    ap.add_argument("--rest-rel", type=float, default=1e-3)
    ap.add_argument("--nsgs-tol", type=float, default=1e-12)
    ap.add_argument("--nsgs-max-iter", type=int, default=10000)
    ap.add_argument("--max-impacts", type=int, default=200, help="impacts listed per run")
    ap.add_argument("--no-timed-run", action="store_true")
    args = ap.parse_args()
    R = args.R
    if np.abs(R @ R.T - np.eye(3)).max() > 1e-9 or np.linalg.det(R) < 0:
        ap.error("--R is not a rotation matrix (to 1e-9)")
    setup = dict(event="setup", tool="siconos-mj-fc3d", a=A, m=M, g=G, I=I_C, mu=args.mu,
                 e=args.e, t_end=args.t_end, x0=args.x0.tolist(), v0=args.v0.tolist(),
                 omega0_world=args.omega0.tolist(), R=R.reshape(-1).tolist(),
                 R_convention="R = Rz(phi) Rx(theta) Rz(psi), body to world; default ZXZ "
                              "(0.1, 0.7, 0.4) unless --R",
                 corner_heights_t0={NAMES[k]: float((args.x0 + R @ p)[2])
                                    for k, p in enumerate(CORNERS)},
                 solver="FrictionContact(3) SICONOS_FRICTION_3D_NSGS (FC3D_NSGS, local "
                        f"FC3D_ONECONTACT_NSN_GP_HYBRID), tol {args.nsgs_tol:g}, at most "
                        f"{args.nsgs_max_iter} sweeps; MoreauJeanOSI(0.5); NewtonEulerDS + "
                        "NewtonEuler3DR per corner",
                 note="time stepping: impacts are resolved only to the step h (time = end "
                      "of the step whose P_N turns positive)")
    if float(np.linalg.norm(args.omega0)) == 0.0:
        setup["closed_form"] = closed_form(args)
    emit(setup)
    for h in (float(s) for s in args.h.split(",")):
        line = dict(event="summary", tool="siconos-mj-fc3d", h=h, mu=args.mu, e=args.e,
                    t_end=args.t_end)
        if not args.no_timed_run:
            cpu, wall, steps = timed_run(args, h)
            line.update(steps=steps, cpu_s=cpu, wall_s=wall)
        obs = observed_run(args, h)
        if args.no_timed_run:
            line.update(steps=int(math.ceil(args.t_end / h - 1e-9)), cpu_s=obs["cpu_observed_s"],
                        wall_s=obs["wall_observed_s"])
        for imp in obs["impacts"]:
            emit(dict(event="impact", tool="siconos-mj-fc3d", h=h, **imp))
        line.update({k: v for k, v in obs.items() if k != "impacts"})
        line["impacts"] = len(obs["impacts"])
        line["first_impacts"] = [(i["t"], i["corner"], i["t_gap0"]) for i in obs["impacts"][:3]]
        line["first_impact_per_corner"] = {
            c: next((i["t"] for i in obs["impacts"] if i["corner"] == c), None) for c in NAMES}
        cf = setup.get("closed_form")
        if cf and obs["impacts"]:
            first = obs["impacts"][0]
            line["first_impact_vs_closed_form"] = dict(
                dt=first["t"] - cf["t1"], same_corner=first["corner"] == cf["corner"],
                dt_gap0=None if first["t_gap0"] is None else first["t_gap0"] - cf["t1"],
                **({} if "P_N" not in cf else dict(
                    P_N_rel=first["P_N"] / cf["P_N"] - 1.0,
                    v_after_err=float(np.linalg.norm(np.subtract(first["v_after"],
                                                                 cf["v_after"]))),
                    omega_after_err=float(np.linalg.norm(np.subtract(
                        first["omega_world_after"], cf["omega_world_after"]))))))
        line["note"] = ("Moreau-Jean time stepping: impact times resolved to h only; rest_t "
                        "= first step end from which every corner speed stays below "
                        "rest_threshold = rest_rel * |v_N^-| of the first impact")
        line["rest_rel"] = args.rest_rel
        emit(line)


if __name__ == "__main__":
    sys.exit(main())
