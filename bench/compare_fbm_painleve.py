#!/usr/bin/python3
"""Tables of bench/run_fbm_painleve_bench.sh (the Frictional Bounce Model at mu = 0.55, saltus's
bridged runs against Siconos Moreau-Jean; issue 32 item 4). Reads the JSON lines in DIR.

  compare_fbm_painleve.py DIR REPEATS HORIZON
"""

import os
import sys

from compare_fbm import fmt, lines, saltus_run, time_table

REF_RTOL = 1e-14
WINDOW = 1e-3  # events further apart than this are not the same event


def saltus_events(run, horizon):
    """saltus's event times by kind: Painleve points (its lift-offs there, or the stretches'
    starts), apexes, landings."""
    return {
        "painleve": [t for t in run["painleve_points"] if t <= horizon],
        "apex": [t for t in run["apexes"] if t <= horizon],
        "landing": [e["t"] for e in run["landings"] if e["t"] <= horizon],
    }


def siconos_events(s, horizon):
    """Siconos's: lift-offs after the first 1 ms (the start's own settling; the Painleve points are
    among them), apexes, landings."""
    return {
        "painleve": [t for t in s["liftoffs"] if 1e-3 < t <= horizon],
        "apex": [t for t in s["apexes"] if t <= horizon],
        "landing": [e["t"] for e in s["landings"] if 1e-3 < e["t"] <= horizon],
    }


def matched(times, ref):
    """Reference events with an event of the tool within WINDOW (events of one kind are 20 ms or
    more apart, so the nearest is the same event), and the largest time error among them."""
    n, worst = 0, 0.0
    for b in ref:
        err = min((abs(a - b) for a in times), default=float("inf"))
        if err <= WINDOW:
            n, worst = n + 1, max(worst, err)
    return n, worst


def events_table(d, v_bs, horizon):
    print(f"### Event times from the start to {horizon} s at mu = 0.55\n")
    print("Reference: saltus rtol 1e-14 (bridged). Painleve points: saltus's lift-offs there; "
          "Siconos has no such event, so its lift-offs (the end of the first step with P_N = 0 "
          "after contact; they include the ordinary ones) nearest to them; apexes: tops of the "
          "hops in flight; landings: impacts after a flight (Siconos's include the O(h) "
          "re-landings of a step after a lift-off). Each: the tool's count, then how many of the "
          "reference's have one of the tool's within 1 ms, and the largest time error among "
          "those.\n")
    print("| v_b | tool | Painleve points | apexes | landings | largest error |")
    print("|---|---|---|---|---|---|")
    runs = lines(os.path.join(d, "saltus_events.jsonl"))
    peers = lines(os.path.join(d, "siconos_events.jsonl"))
    for v_b in v_bs:
        ref = saltus_events(saltus_run(runs, v_b, REF_RTOL), horizon)
        rows = [(f"saltus rtol {r:.0e}", saltus_events(saltus_run(runs, v_b, r), horizon))
                for r in (1e-8, 1e-10, 1e-12, 1e-14)]
        rows += [(f"Siconos MJ h = {s['h']:.0e}", siconos_events(s, horizon))
                 for s in peers if s["v_b"] == v_b]
        for name, ev in rows:
            cells, worst = [], 0.0
            for kind in ("painleve", "apex", "landing"):
                n, w = matched(ev[kind], ref[kind])
                cells.append(f"{len(ev[kind])} ({n} of {len(ref[kind])})")
                worst = max(worst, w)
            print(f"| {v_b} | {name} | {' | '.join(cells)} | {fmt(worst)} |")
    print()


def main(argv):
    d, repeats, horizon = argv[1], int(argv[2]), float(argv[3])
    v_bs = sorted({r["v_b"] for r in lines(os.path.join(d, "saltus_events.jsonl"))})
    events_table(d, v_bs, horizon)
    time_table(d, v_bs, repeats, "the bridged run, event-driven pieces and Moreau-Jean stretches "
               "(model loaded and system built before)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
