#!/usr/bin/python3
"""Tables of bench/run_fbm_bench.sh (the Frictional Bounce Model, saltus against Siconos
Moreau-Jean; issue 32 item 4(b)). Reads the JSON lines the runner wrote into DIR.

  compare_fbm.py DIR REPEATS                 the Markdown tables
  compare_fbm.py --landing-time FILE V_B     the time of V_B's first Painleve landing (B < 0 before
                                             it) in saltus's rtol 1e-14 run, else of its first
                                             landing after 0.02 s (the runner's start)
"""

import json
import math
import os
import statistics
import sys

REF_RTOL = 1e-14


def lines(path):
    with open(path) as f:
        return [json.loads(s) for s in f if s.strip()]


def saltus_run(runs, v_b, rtol):
    for r in runs:
        if r.get("tool") == "saltus" and r["v_b"] == v_b and r["rtol"] == rtol:
            return r
    return None


def painleve_landing(run):
    for e in run["landings"]:
        if e["B"] < 0.0:
            return e
    return next(e for e in run["landings"] if e["t"] > 0.02)


def nearest(landings, t, window):
    best = min(landings, key=lambda e: abs(e["t"] - t), default=None)
    return best if best is not None and abs(best["t"] - t) <= window else None


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}e}"


def landing_table(d, v_bs, ref_runs):
    print("### The first Painleve landing from the same state (saltus's, 1 ms before it)\n")
    print("Reference: saltus rtol 1e-14. Errors against it; for Siconos the landing time is the "
          "end of the step whose P_N turns positive and (P_N, P_T) that step's impulse; "
          "'next' is the landing that ends the following hop.\n")
    print("| v_b | B before | tool | landing t | error t | P_N | P_T | error P (max) | "
          "error v after (max) | error next landing t |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for v_b in v_bs:
        ref = saltus_run(ref_runs, v_b, REF_RTOL)
        e = painleve_landing(ref)
        nxt = next((x for x in ref["landings"] if x["t"] > e["t"] + 1e-6), None)
        print(f"| {v_b} | {e['B']:.4f} | saltus rtol 1e-14 | {e['t']:.9f} | | {e['P_N']:.8f} | "
              f"{e['P_T']:.8f} | | | |")
        rows = []
        for rtol in (1e-8, 1e-10, 1e-12, 1e-13):
            r = saltus_run(ref_runs, v_b, rtol)
            rows.append((f"saltus rtol {rtol:.0e}", r["landings"]))
        path = os.path.join(d, f"siconos_landing_{v_b}.jsonl")
        for s in lines(path) if os.path.exists(path) else []:
            rows.append((f"Siconos MJ h = {s['h']:.0e}", s["landings"]))
        for name, landings in rows:
            got = nearest(landings, e["t"], 1e-3)
            if got is None:
                print(f"| | | {name} | not found within 1 ms | | | | | | |")
                continue
            dp = max(abs(got["P_N"] - e["P_N"]), abs(got["P_T"] - e["P_T"]))
            dv = max(abs(a - b) for a, b in zip(got["v_after"], e["v_after"]))
            dn = None
            if nxt is not None:
                later = [x for x in landings if x["t"] > got["t"] + 1e-6]
                dn = abs(later[0]["t"] - nxt["t"]) if later else None
            print(f"| | | {name} | {got['t']:.9f} | {fmt(abs(got['t'] - e['t']))} | "
                  f"{got['P_N']:.8f} | {got['P_T']:.8f} | {fmt(dp)} | {fmt(dv)} | {fmt(dn)} |")
    print()


def matched(landings, ref, window=1e-3):
    """Landings matched to the reference in order until one parts by more than `window`."""
    n, worst = 0, 0.0
    for a, b in zip(landings, ref):
        if abs(a["t"] - b["t"]) > window:
            break
        n, worst = n + 1, max(worst, abs(a["t"] - b["t"]))
    return n, worst


def whole_table(d, v_bs, ref_runs):
    print("### The whole run, 0 to 2 s\n")
    print("Landings (impacts after a flight) against saltus rtol 1e-14, in order, until one "
          "parts by more than 1 ms; apexes: tops of hops in flight in [0, 2] s.\n")
    print("| v_b | tool | landings in 2 s | matched in order | largest time error there | "
          "apexes in 2 s | status |")
    print("|---|---|---|---|---|---|---|")
    whole = lines(os.path.join(d, "siconos_whole.jsonl"))
    for v_b in v_bs:
        ref = saltus_run(ref_runs, v_b, REF_RTOL)
        ref_l = [e for e in ref["landings"] if 0.02 < e["t"] <= 2.0]
        for rtol in (1e-8, 1e-10, 1e-12, 1e-13, 1e-14):
            r = saltus_run(ref_runs, v_b, rtol)
            got = [e for e in r["landings"] if 0.02 < e["t"] <= 2.0]
            n, worst = matched(got, ref_l)
            apex = sum(1 for t in r["apexes"] if t <= 2.0)
            print(f"| {v_b} | saltus rtol {rtol:.0e} | {len(got)} | {n} | {fmt(worst)} | {apex} | "
                  f"{r['status']} |")
        for s in whole:
            if s["v_b"] != v_b:
                continue
            got = [e for e in s["landings"] if 0.02 < e["t"] <= 2.0]
            n, worst = matched(got, ref_l)
            print(f"| {v_b} | Siconos MJ h = {s['h']:.0e} | {len(got)} | {n} | {fmt(worst)} | "
                  f"{len(s['apexes'])} | min gap {s['min_gap']:.1e} |")
    print()


def time_table(d, v_bs, repeats,
               saltus_timed="Simulator::run only (model loaded and system built before)"):
    print(f"### CPU time of the 2 s run (median of {repeats} interleaved repeats)\n")
    print(f"saltus: {saltus_timed}; Siconos: the computeOneStep/nextStep loop only (model built "
          "before).\n")
    print("| v_b | tool | CPU s (median) | spread (min-max) |")
    print("|---|---|---|---|")
    samples = {}
    for r in range(repeats):
        for s in lines(os.path.join(d, f"saltus_time_{r}.jsonl")):
            samples.setdefault((s["v_b"], f"saltus rtol {s['rtol']:.0e}"), []).append(s["cpu_s"])
        for s in lines(os.path.join(d, f"siconos_time_{r}.jsonl")):
            samples.setdefault((s["v_b"], f"Siconos MJ h = {s['h']:.0e}"), []).append(s["cpu_s"])
    for v_b in v_bs:
        for (vb, name), xs in samples.items():
            if vb != v_b:
                continue
            print(f"| {v_b} | {name} | {statistics.median(xs):.4g} | "
                  f"{min(xs):.3g}-{max(xs):.3g} |")
    print()


def main(argv):
    if len(argv) == 4 and argv[1] == "--landing-time":
        ref = saltus_run(lines(argv[2]), float(argv[3]), REF_RTOL)
        print(repr(painleve_landing(ref)["t"]))
        return 0
    d, repeats = argv[1], int(argv[2])
    ref_runs = lines(os.path.join(d, "saltus_ref.jsonl"))
    v_bs = sorted({r["v_b"] for r in ref_runs})
    landing_table(d, v_bs, ref_runs)
    whole_table(d, v_bs, ref_runs)
    time_table(d, v_bs, repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
