#!/usr/bin/python3
"""Tables of the cube drop with friction (issue 48): saltus (bench/cube_drop_bench.cpp) against
Siconos Moreau-Jean with fc3d (bench/peers/siconos_cube.py) and MuJoCo soft contacts
(bench/peers/mujoco_cube.c), run interleaved by bench/run_cube_bench.sh.

  compare_cube.py DIR REPEATS

DIR holds saltus_R.jsonl, siconos_R.jsonl and mujoco_R.jsonl for R = 0..REPEATS-1.
Reference: saltus at rtol 1e-12, atol 1e-14, checked here against saltus at rtol 1e-13 and 1e-14
and against a closed form of the first two impacts (free fall to the lowest corner; its
single-corner Newton-Coulomb impact, which sticks; the torque-free flight of the isotropic cube,
whose angular velocity is constant, to the next corner's contact by bisection).

Impact times: saltus, the located event; Siconos, the end of the step whose normal impulse turns
positive (in brackets: the corner height's zero crossing interpolated in that step or the one
before, a post-processing finer than the method); MuJoCo, the corner height's zero crossing
interpolated in the step where it first goes below zero (its soft contact starts there).
Rest time, aligned on the peers' definition: the first time from which every corner speed
|v + w x (R p)| stays below 1e-3 x |v_N-| of the first impact (2.58e-3 m/s) until t_end
(saltus: from its trajectory sampled every 1e-5 s; peers: at their step ends). saltus's own rest
time, the last event (after which every closed contact sticks), is shown beside it.
"""

import json
import math
import statistics
import sys

A, M, G, E, MU = 0.1, 1.0, 9.81, 0.5, 0.5
I_C = 2.0 / 3.0 * M * A * A
Q0 = (0.9101698900938521, 0.3390474346996321, -0.05124200797543446, 0.23240452837410358)
Z0 = 0.5
REFERENCE = 1e-12  # saltus rtol
CHECKS = (1e-13, 1e-14)
THRESHOLDS = (1e-3, 1e-2)  # s: "equal accuracy" in the first three impacts and the rest time
CORNERS = [(sx * A, sy * A, sz * A) for sz in (-1, 1) for sy in (-1, 1) for sx in (-1, 1)]
N_FIRST = 3


def rot(q):
    n = math.sqrt(sum(c * c for c in q))
    w, x, y, z = (c / n for c in q)
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def mat_vec(R, p):
    return [sum(R[i][j] * p[j] for j in range(3)) for i in range(3)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def rodrigues(w, tau, v):
    """v turned by the angle |w| tau about w."""
    n = math.sqrt(dot(w, w))
    if n == 0.0:
        return list(v)
    k = [c / n for c in w]
    th = n * tau
    kxv = cross(k, v)
    kv = dot(k, v)
    return [v[i] * math.cos(th) + kxv[i] * math.sin(th) + k[i] * kv * (1 - math.cos(th))
            for i in range(3)]


def closed_form():
    """The first impact (time, corner, impulse) and the second contact (time, corner), without
    saltus or the peers: free fall (the cube translates) until the lowest corner touches; the
    Newton-Coulomb impact at it with the corner arriving without tangential speed, so it sticks
    if the sticking impulse lies in the cone: W P = (0, 0, -(1 + e) u_N) with the Delassus
    matrix W = (1/m + |r|^2/I) Id - r r^T / I, whose inverse is (Id + m r r^T / I) / (1/m +
    |r|^2/I) (Sherman-Morrison); then v, w constant (isotropic inertia) until a corner's
    height reaches zero."""
    R = rot(Q0)
    rs = [mat_vec(R, p) for p in CORNERS]
    k = min(range(8), key=lambda i: rs[i][2])
    r = rs[k]
    t1 = math.sqrt(2 * (Z0 + r[2]) / G)
    u_n = -G * t1
    du = [0.0, 0.0, -(1 + E) * u_n]
    alpha = 1 / M + dot(r, r) / I_C
    P = [(du[i] + M / I_C * dot(r, du) * r[i]) / alpha for i in range(3)]
    stick = math.hypot(P[0], P[1]) <= MU * P[2]
    v = [P[0] / M, P[1] / M, u_n + P[2] / M]
    w = [c / I_C for c in cross(r, P)]
    c1 = [0.0, 0.0, Z0 - 0.5 * G * t1 * t1]

    def heights(tau):
        cz = c1[2] + v[2] * tau - 0.5 * G * tau * tau
        return [cz + rodrigues(w, tau, rs[i])[2] for i in range(8)]

    tau, dt = 1e-6, 1e-4  # the struck corner leaves at e |u_N|: it is not found again at once
    while min(heights(tau)) > 0.0:
        tau += dt
    j = min(range(8), key=lambda i: heights(tau)[i])
    lo, hi = tau - dt, tau
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if heights(mid)[j] > 0.0:
            lo = mid
        else:
            hi = mid
    return dict(t1=t1, corner1=f"c{k + 1}", P=P, stick=stick, t2=t1 + 0.5 * (lo + hi),
                corner2=f"c{j + 1}")


def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def face_down(R):
    """The body face on the floor: +z = the face of the corners c5..c8 (body +z points down)."""
    zrow = R[6:9]
    j = max(range(3), key=lambda k: abs(zrow[k]))
    return ("+" if zrow[j] < 0 else "-") + "xyz"[j]


def fmt(x, spec=".1e"):
    return "-" if x is None else format(x, spec)


class Run:
    """One tool and setting: what the tables need, from repeat 0, and the CPU of every repeat."""

    def __init__(self, tool, setting, key, first, rest, centre, R, impulse, status="ok",
                 note=""):
        self.tool, self.setting, self.key = tool, setting, key
        self.first = first  # [(t, corner, t_alt or None)]
        self.rest, self.centre, self.R, self.impulse = rest, centre, R, impulse
        self.status, self.note, self.cpu = status, note, []


def saltus_runs(lines):
    runs = []
    for d in lines:
        q = d["state_end"][3:7]
        R = [c for row in rot(q) for c in row]
        imp = [i for i in d["impacts"] if not i["chained"]]
        first = [(i["t"], i["corner"], None) for i in imp[:N_FIRST]]
        ok = d["status"] == "end-time-reached"
        run = Run("saltus", d["setting"], d["rtol"], first, d.get("rest_t_threshold"),
                  d["centre_end"], R, imp[0]["linear_impulse"] if imp else None,
                  d["status"], f"last event {d['rest_t']:.10f}" + (
                      f" ({d['final_mode']})" if ok else f"; stops: {d['message'][:60]}..."))
        run.line = d
        runs.append(run)
    return runs


def siconos_runs(lines):
    runs, first_impact = [], {}
    for d in lines:
        if d["event"] == "impact" and d["h"] not in first_impact:
            first_impact[d["h"]] = d
    for d in lines:
        if d["event"] != "summary":
            continue
        fi = first_impact.get(d["h"])
        impulse = None if fi is None else [fi["P_T"][0], fi["P_T"][1], fi["P_N"]]
        note = (f"{d['impacts']} impacts; fc3d unconverged {d['nsgs_unconverged_steps']}"
                f"/{d['nsgs_solves']}; min gap {d['min_gap']:.1e} m")
        runs.append(Run("siconos-mj-fc3d", f"h={d['h']:.0e}", d["h"],
                        [tuple(x) for x in d["first_impacts"]], d["rest_t"],
                        d["final"]["centre"], d["final"]["R"], impulse, note=note))
    return runs


def mujoco_runs(lines):
    runs, first_contact = [], {}
    for d in lines:
        if d["event"] == "contact" and d["h"] not in first_contact:
            first_contact[d["h"]] = d
    for d in lines:
        if d["event"] != "summary":
            continue
        fc = first_contact.get(d["h"])
        impulse = None if fc is None else [fc["P_T"][0], fc["P_T"][1], fc["P_N"]]
        tail = "" if d["rest_t"] is not None else \
            f"; never at rest: corner speed up to {d['tail_max_corner_speed']:.1e} m/s at the end"
        note = f"e of the first bounce {fmt(d['e_first_contact'], '.3f')}; min gap " \
               f"{d['min_gap']:.1e} m{tail}"
        runs.append(Run("mujoco", f"h={d['h']:.0e}", d["h"],
                        [(t, c, None) for t, c in d["first_contacts"]], d["rest_t"],
                        d["final"]["centre"], d["final"]["R"], impulse, note=note))
    return runs


def errors(run, ref):
    """Per first impact |t - t_ref| (None: missing or another corner), |t_alt - t_ref|, the rest
    time's error (None: never at rest), |centre - centre_ref| at t_end."""
    imp, alt = [], []
    for k in range(N_FIRST):
        if k >= len(run.first) or run.first[k][1] != ref.first[k][1]:
            imp.append(None)
            alt.append(None)
            continue
        imp.append(abs(run.first[k][0] - ref.first[k][0]))
        a = run.first[k][2]
        alt.append(None if a is None else abs(a - ref.first[k][0]))
    rest = None if run.rest is None else abs(run.rest - ref.rest)
    centre = math.dist(run.centre, ref.centre)
    return imp, alt, rest, centre


def max_error(run, ref):
    """The largest error of the first impacts and the rest time (inf if one is missing)."""
    imp, _, rest, _ = errors(run, ref)
    vals = imp + [rest]
    return math.inf if any(v is None for v in vals) else max(vals)


def main():
    tmp, repeats = sys.argv[1], int(sys.argv[2])
    med = statistics.median
    s_lines = [load(f"{tmp}/saltus_{r}.jsonl") for r in range(repeats)]
    c_lines = [load(f"{tmp}/siconos_{r}.jsonl") for r in range(repeats)]
    m_lines = [load(f"{tmp}/mujoco_{r}.jsonl") for r in range(repeats)]
    ours = saltus_runs(s_lines[0])
    for lines in s_lines:
        for d in lines:
            next(r for r in ours if r.key == d["rtol"]).cpu.append(d["cpu_s"])
    sic = siconos_runs(c_lines[0])
    for lines in c_lines:
        for d in lines:
            if d["event"] == "summary":
                next(r for r in sic if r.key == d["h"]).cpu.append(d["cpu_s"])
    muj = mujoco_runs(m_lines[0])
    for lines in m_lines:
        for d in lines:
            if d["event"] == "summary":
                next(r for r in muj if r.key == d["h"]).cpu.append(d["cpu_s"])
    ref = next(r for r in ours if r.key == REFERENCE)
    rl = ref.line
    cf = closed_form()
    load_cpu = med([d["load_cpu_s"] for lines in s_lines for d in lines])

    print(f"{repeats} interleaved repeats; CPU = medians over the repeats of one run each "
          f"(process CPU time of the simulation loop only: saltus one Simulator run after an "
          f"untimed one, its loading of the model file and building of its hybrid system, "
          f"{1e3 * load_cpu:.1f} ms, not included; Siconos computeOneStep/nextStep from Python; "
          f"MuJoCo the best of 5 mj_step loops).")
    print()
    print(f"Reference = saltus rtol {REFERENCE:g}, atol {1e-2 * REFERENCE:g}: status "
          f"{rl['status']}, {rl['events']} events, {len(rl['impacts'])} impacts; last event "
          f"{rl['rest_t']:.10f} s into {rl['final_mode']} (every closed contact sticking: "
          f"{rl['final_all_stick']}); after it the corners move by {rl['moved_after_rest']:.1e} m "
          f"at most, at {rl['max_corner_speed_after_rest']:.1e} m/s at most; rest time on the "
          f"peers' definition {rl['rest_t_threshold']:.5f} s (sampled every {rl['sample']:g} s; "
          f"threshold {rl['rest_threshold']:.3e} m/s); centre at t_end "
          f"({', '.join(f'{x:.6f}' for x in rl['centre_end'])}).")
    i0 = rl["impacts"][0]
    print(f"Closed form: first impact {cf['corner1']} at t1 = {cf['t1']:.17g} (reference "
          f"{ref.first[0][1]} at {ref.first[0][0]:.17g}, diff {abs(ref.first[0][0] - cf['t1']):.1e}"
          f" s), impulse (P_Tx, P_Ty, P_N) = ({', '.join(f'{x:.6f}' for x in cf['P'])}), "
          f"{'sticking' if cf['stick'] else 'NOT sticking'} (reference: max abs diff "
          f"{max(abs(a - b) for a, b in zip(i0['linear_impulse'], cf['P'])):.1e}); second contact "
          f"{cf['corner2']} at {cf['t2']:.17g} (reference {ref.first[1][1]} at "
          f"{ref.first[1][0]:.17g}, diff {abs(ref.first[1][0] - cf['t2']):.1e} s).")
    for chk in CHECKS:
        o = next((r for r in ours if r.key == chk), None)
        if o is None:
            continue
        ol = o.line
        ri, oi = rl["impacts"], ol["impacts"]
        n = 0
        d_imp = 0.0
        for a, b in zip(oi, ri):  # impacts in order while the corners agree
            if a["corner"] != b["corner"]:
                break
            d_imp = max(d_imp, abs(a["t"] - b["t"]))
            n += 1
        print(f"Check: saltus rtol {chk:g} ({ol['status']}, {len(oi)} impacts) against the "
              f"reference: first {n} impacts in the same order within {d_imp:.1e} s; last event "
              f"{abs(ol['rest_t'] - rl['rest_t']):.1e} s apart; peers'-definition rest time "
              f"{abs(ol['rest_t_threshold'] - rl['rest_t_threshold']):.1e} s; centre at t_end "
              f"{math.dist(ol['centre_end'], rl['centre_end']):.1e} m; final mode "
              f"{ol['final_mode']}.")
    print()

    # (a) and (b): first impacts, rest time, centre
    print("| tool | setting | status | first impacts (t, corner) | error of impacts 1, 2, 3 (s) |"
          " rest time (s) | rest time error (s) | centre at t_end | centre error (m) | face down |"
          " first impulse error | notes |")
    print("|---|---|---|---|---|---:|---:|---|---:|---|---:|---|")
    all_runs = ours + sic + muj
    for run in all_runs:
        imp, alt, rest, centre = errors(run, ref)
        firsts = ", ".join(f"{t:.6f}" + (f" ({a:.6f})" if a is not None else "") + f" {c}"
                           for t, c, a in run.first)
        errs = ", ".join(fmt(e) + (f" ({fmt(a)})" if a is not None else "")
                         for e, a in zip(imp, alt))
        d_p = None if run.impulse is None else max(
            abs(a - b) for a, b in zip(run.impulse, ref.impulse))
        print(f"| {run.tool} | {run.setting} | {run.status} | {firsts} | {errs} | "
              f"{fmt(run.rest, '.5f') if run.rest is not None else 'never'} | {fmt(rest)} | "
              f"{', '.join(f'{x:.5f}' for x in run.centre)} | {centre:.1e} | "
              f"{face_down(run.R)} | {fmt(d_p)} | {run.note} |")
    print()

    # (c): CPU, equal accuracy; ratios against saltus's cheapest setting within THRESHOLDS[0]
    def cheapest(runs, thr):
        ok = [r for r in runs if r.status in ("ok", "end-time-reached")
              and max_error(r, ref) <= thr]
        if runs is ours:
            ok = [r for r in ok if r.key != REFERENCE] or ok  # its error is 0 by definition
        return min(ok, key=lambda r: med(r.cpu)) if ok else None

    base = cheapest(ours, THRESHOLDS[0]) or ref
    print("| tool | setting | max error, first 3 impacts and rest time (s) | CPU median (ms) |"
          f" CPU range (ms) | CPU / saltus {base.setting} |")
    print("|---|---|---:|---:|---|---:|")
    for run in all_runs:
        w = max_error(run, ref)
        c = med(run.cpu)
        print(f"| {run.tool} | {run.setting} | {'-' if w == math.inf else f'{w:.1e}'} | "
              f"{1e3 * c:.2f} | {1e3 * min(run.cpu):.2f}-{1e3 * max(run.cpu):.2f} | "
              f"{c / med(base.cpu):.3g} |")
    print()
    for thr in THRESHOLDS:
        print(f"Equal accuracy at {thr:g} s (every one of the first {N_FIRST} impacts and the rest "
              f"time within {thr:g} s of the reference; the cheapest such setting of each tool):")
        best, never = {}, {}
        for tool, runs in (("saltus", ours), ("siconos-mj-fc3d", sic), ("mujoco", muj)):
            found = cheapest(runs, thr)
            if found:
                best[tool] = found
            else:
                never[tool] = min(runs, key=lambda r: max_error(r, ref))
        s = best.get("saltus")
        for tool in ("saltus", "siconos-mj-fc3d", "mujoco"):
            if tool in best:
                run = best[tool]
                ratio = "" if s is None or run is s else \
                    f", {med(run.cpu) / med(s.cpu):.0f}x saltus's CPU"
                print(f"  {tool}: {run.setting} (max error {max_error(run, ref):.1e} s), "
                      f"{1e3 * med(run.cpu):.2f} ms{ratio}")
            else:
                run = never[tool]
                w = max_error(run, ref)
                print(f"  {tool}: never (closest: {run.setting}, max error "
                      f"{'-' if w == math.inf else f'{w:.1e}'} s, {1e3 * med(run.cpu):.2f} ms)")
        print()


if __name__ == "__main__":
    main()
