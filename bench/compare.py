#!/usr/bin/env python3
"""Compares two bench_fft runs (their --json or --csv files), case by case: how ripple's time
and its ratio to FFTW changed. The ratio is the better guide across runs on a noisy or
different machine, since FFTW's time in the same run cancels the machine's speed.

    python3 bench/compare.py before.json after.json [--threshold 0.05]

Prints one line per case present in both, marking changes beyond the threshold, then the
geometric means of new/old for ripple's time and for the ratio, overall and per category.
"""
import argparse
import csv
import json
import math
import sys


def load(path):
    """{(kind, n, batch, shape): (category, ripple_s, ratio)} from a bench_fft JSON or CSV file
    (shape: "4096x4096" for the 2-D/3-D cases, whose n can coincide, else "")."""
    rows = {}
    if path.endswith(".json"):
        with open(path) as f:
            for r in json.load(f)["rows"]:
                rip = r["ripple"]["median_s"] if r["ripple"] else None
                shape = r.get("shape", "") if r["category"] == "nd" else ""
                rows[(r["kind"], r["n"], r["batch"], shape)] = (r["category"], rip, r["ratio"])
    else:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                rip = float(r["ripple_s"]) if r["ripple_s"] else None
                ratio = float(r["ratio"]) if r["ratio"] else None
                shape = r.get("shape", "") if r["category"] == "nd" else ""
                rows[(r["kind"], int(r["n"]), int(r["batch"]), shape)] = (r["category"], rip, ratio)
    return rows


def geomean(v):
    v = [x for x in v if x and x > 0]
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--threshold", type=float, default=0.05, help="mark changes above this (0.05 = 5%%)")
    a = p.parse_args()
    old, new = load(a.old), load(a.new)
    keys = [k for k in new if k in old]
    if not keys:
        print("compare: no case in common")
        return 1
    print(f"{'kind':<8} {'cat':<6} {'N':>11} {'batch':>7} {'old_us':>10} {'new_us':>10} "
          f"{'new/old':>8} {'old_ratio':>9} {'new_ratio':>9}")
    speed, ratio, per_cat = [], [], {}
    for k in keys:
        cat, t0, q0 = old[k]
        _, t1, q1 = new[k]
        s = t1 / t0 if t0 and t1 else None
        r = q1 / q0 if q0 and q1 else None
        if s:
            speed.append(s)
        if r:
            ratio.append(r)
            per_cat.setdefault(cat, []).append(r)
        mark = ""
        if r and abs(math.log(r)) > math.log1p(a.threshold):
            mark = "  faster" if r < 1 else "  SLOWER"
        fmt = lambda x, spec: format(x, spec) if x else "-"
        print(f"{k[0]:<8} {cat:<6} {k[3] or k[1]:>11} {k[2]:>7} {fmt(t0 and t0 * 1e6, '10.3f'):>10} "
              f"{fmt(t1 and t1 * 1e6, '10.3f'):>10} {fmt(s, '8.3f'):>8} {fmt(q0, '9.3f'):>9} "
              f"{fmt(q1, '9.3f'):>9}{mark}")
    print(f"\n{len(keys)} cases in both; geomean new/old: ripple time {geomean(speed):.3f}, "
          f"ratio to FFTW {geomean(ratio):.3f} (below 1: better)")
    print("ratio new/old by category: " +
          "  ".join(f"{c} {geomean(v):.3f} ({len(v)})" for c, v in per_cat.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
