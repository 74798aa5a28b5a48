#!/usr/bin/python3
"""Markdown tables of the cube-drop peers' JSON lines (siconos_cube.py, mujoco_cube): per run
(tool, mu, e, h) the first three impacts (time, corner; Siconos: the end of the impact step and,
in brackets, the corner height's zero crossing; MuJoCo: the touch time), the resting time, the
face on the floor and the centre at t_end, the deepest corner, the CPU time of the stepping
loop, and the bounce measures; then the first impact against the rigid closed form where one
was printed.
Usage: cube_peers_table.py FILE.jsonl ..."""

import json
import sys


def face_down(R):
    """The body face on the floor: the body axis whose world z component is closest to -1 or 1."""
    zrow = R[6:9]
    j = max(range(3), key=lambda k: abs(zrow[k]))
    return ("+" if zrow[j] < 0 else "-") + "xyz"[j], abs(zrow[j])


def fmt(x, spec=".4g"):
    return "-" if x is None else format(x, spec)


def main():
    runs, checks = [], []
    for path in sys.argv[1:]:
        bounce = {}
        with open(path) as f:
            for line in f:
                d = json.loads(line)
                if d["event"] == "bounce":
                    bounce[d["h"]] = d
                elif d["event"] == "summary":
                    runs.append((d, bounce.get(d["h"])))
    print("| tool | mu | e | h | first three impacts (t (crossing), corner) | rest_t | face down | "
          "centre at t_end | min gap | CPU (s) | bounce / notes |")
    print("|---|---:|---:|---:|---|---:|---|---|---:|---:|---|")
    for d, b in sorted(runs, key=lambda r: (r[0]["mu"], r[0]["e"], r[0]["tool"], -r[0]["h"])):
        first = d.get("first_impacts") or d.get("first_contacts") or []
        # Siconos: end of the impact step (the corner height's zero crossing); MuJoCo: touch time
        imp = ", ".join(f"{x[0]:.5f}" + (f" ({x[2]:.5f})" if len(x) > 2 and x[2] is not None
                                          else "") + f" {x[1]}" for x in first)
        face, how = face_down(d["final"]["R"])
        centre = ", ".join(f"{x:.4f}" for x in d["final"]["centre"])
        if d["tool"] == "mujoco":
            note = (f"e flat {b['e_flat']:.4f}, tilted {b['e_tilted_corner']:.4f}, first corner "
                    f"{fmt(d['e_first_contact'])}; zeta {b['zeta']:.4f}" if b else "")
        else:
            note = (f"{d['impacts']} impacts; fc3d unconverged {d['nsgs_unconverged_steps']}"
                    f"/{d['nsgs_solves']} (max residual {d['max_nsgs_residual']:.1e})")
        tail = d.get("tail_max_corner_speed")
        if d["rest_t"] is None and tail is not None:
            note += f"; not at rest: corner speed up to {tail:.1e} in the last 10 %"
        print(f"| {d['tool']} | {d['mu']:g} | {d['e']:g} | {d['h']:g} | {imp} | "
              f"{fmt(d['rest_t'], '.4f')} | {face} ({how:.6f}) | {centre} | "
              f"{d['min_gap']:.2e} | {d['cpu_s']:.3g} | {note} |")
        cf = d.get("first_impact_vs_closed_form") or d.get("first_contact_vs_closed_form")
        if cf:
            checks.append((d, cf))
    if checks:
        print()
        print("| tool | mu | e | h | t - t1 (s) | crossing - t1 (s) | same corner | "
              "P_N rel. error | error of v after | error of w after |")
        print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
        for d, cf in checks:
            print(f"| {d['tool']} | {d['mu']:g} | {d['e']:g} | {d['h']:g} | {cf['dt']:.3e} | "
                  f"{fmt(cf.get('dt_gap0'), '.3e')} | {cf['same_corner']} | "
                  f"{fmt(cf.get('P_N_rel'), '.2e')} | {fmt(cf.get('v_after_err'), '.2e')} | "
                  f"{fmt(cf.get('omega_after_err'), '.2e')} |")


if __name__ == "__main__":
    main()
