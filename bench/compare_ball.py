#!/usr/bin/python3
"""Side-by-side table of saltus and its peers on the bouncing-ball problems, with ratios.

Usage: compare_ball.py SALTUS.jsonl PEERS.jsonl
Both files hold one JSON object per line (schema of bench/peers/run_peers.sh). For every peer
line the saltus line of the same problem is chosen (for drag: the same rtol; otherwise the
tightest saltus setting), and the ratio peer_time / saltus_time per impact is printed: above 1
means saltus is faster. Errors are max |t_impact - reference| in seconds.
"""
import json
import re
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def rtol_of(setting):
    m = re.search(r"rtol=([0-9.eE+-]+)", setting or "")
    return float(m.group(1)) if m else None


def main():
    saltus = load(sys.argv[1])
    peers = load(sys.argv[2]) if len(sys.argv) > 2 else []
    by_problem = {}
    for s in saltus:
        by_problem.setdefault(s["problem"], []).append(s)

    def match(p):
        cands = by_problem.get(p["problem"], [])
        if not cands:
            return None
        if p["problem"] == "drag":
            r = rtol_of(p["setting"])
            same = [c for c in cands if rtol_of(c["setting"]) == r]
            if same:
                return same[0]
        return min(cands, key=lambda c: rtol_of(c["setting"]) or 1.0)

    print("| problem | saltus setting | saltus error (s) | saltus us/impact | peer | peer setting "
          "| peer error (s) | peer us/impact | time ratio peer/saltus | peer fell through |")
    print("|---|---|---:|---:|---|---|---:|---:|---:|---|")
    for s in sorted(saltus, key=lambda r: (r["problem"], rtol_of(r["setting"]) or 0)):
        print(f"| {s['problem']} | {s['setting']} | {s['max_impact_time_error']:.1e} "
              f"| {s['us_per_impact']:.3g} | saltus | | | | | "
              f"{'yes' if s['penetration'] else 'no'} |")
    for p in peers:
        s = match(p)
        if s is None:
            continue
        ratio = (p["us_per_impact"] / s["us_per_impact"]
                 if p.get("us_per_impact") and s["us_per_impact"] else None)
        err = p.get("max_impact_time_error")
        print(f"| {p['problem']} | {s['setting']} | {s['max_impact_time_error']:.1e} "
              f"| {s['us_per_impact']:.3g} | {p['tool']} | {p['setting']} "
              f"| {'-' if err is None else format(err, '.1e')} "
              f"| {'-' if not p.get('us_per_impact') else format(p['us_per_impact'], '.3g')} "
              f"| {'-' if ratio is None else format(ratio, '.1f')} "
              f"| {'yes' if p.get('penetration') else 'no'}{' (hung)' if p.get('hung') else ''} |")


if __name__ == "__main__":
    main()
