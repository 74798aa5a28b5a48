#!/usr/bin/python3
"""Prints the JSON lines written by run_peers.sh as a Markdown table.

Usage: peers_table.py [peers.jsonl] [--problems ball,drag,...]
"""

import argparse
import json
import os


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("path", nargs="?",
                    default=os.path.join(here, "..", "results", "peers.jsonl"))
    ap.add_argument("--problems", default="")
    a = ap.parse_args()
    wanted = set(filter(None, a.problems.split(",")))
    rows = [json.loads(line) for line in open(a.path) if line.strip()]
    print("| problem | tool | setting | impacts | max impact-time error (s) | rhs evals "
          "| rhs/impact | wall (s) | us/impact | x < -1e-12 | hung |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    order = {"ball": 0, "drag": 1, "ensemble": 2, "ball-zeno": 3}
    rows.sort(key=lambda r: (order.get(r["problem"], 9), r["tool"]))
    for r in rows:
        if wanted and r["problem"] not in wanted:
            continue
        n = r["impacts"]
        rhs = r["rhs_evals"]
        per = rhs / n if rhs is not None and n else None
        print(f"| {r['problem']} | {r['tool']} | {r['setting']} | {n} "
              f"| {fmt(r['max_impact_time_error'], '.1e')} | {fmt(rhs, 'd')} "
              f"| {fmt(per, '.1f')} | {fmt(r['wall_s'], '.3g')} "
              f"| {fmt(r['us_per_impact'], '.3g')} | {'yes' if r['penetration'] else 'no'} "
              f"| {'yes' if r.get('hung') else 'no'} |")


if __name__ == "__main__":
    main()
