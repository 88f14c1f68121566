#!/usr/bin/env python3
"""Multirate benchmark for issue 5: runs bench_multirate (ripple and plain scalar / csdr-style
loops, one thread) and times scipy.signal on the same kinds of signals in this process, then
prints one table of samples/s with the ratios against the issue's targets:
  CIC (5 stages, R = 8, cs16 in) >= 500 MS/s; FIR decimate-by-10 with 79 taps >= 300 MS/s;
  801-tap filter >= 100 MS/s; >= 5x scipy on upfirdn, resample_poly and welch; one core.
Every figure is the median of --runs timed calls. They are taken in --rounds interleaved rounds
(ripple's group of cases, then scipy's same cases, then the next group...; each round starts
with a warm-up call), so a change of the machine's load during the run reaches both sides of a
ratio instead of one. Results are saved to
bench/results/multirate-cpu-<tag>-<UTC date-time>.{md,json} unless --no-save.
Run through bench/multirate_run.sh BUILD_DIR.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from bench_host import default_tag, git_commit, load_avg, machine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--exe", required=True, help="path to bench_multirate")
    p.add_argument("--quick", action="store_true", help="2^18 samples, 3 runs (a smoke test)")
    p.add_argument("--runs", type=int, default=9, help="timed calls per implementation (median reported)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved ripple/scipy rounds the calls are split over")
    p.add_argument("--tag", default=os.environ.get("RIPPLE_BENCH_TAG", ""), help="machine tag in the file name")
    p.add_argument("--out-dir", default=os.path.join(os.path.dirname(HERE), "results"), help="where results go")
    p.add_argument("--no-save", action="store_true")
    return p.parse_args()










def one_thread_env():
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = "1"
    return env


def run_ripple(a, group, runs):
    cmd = [a.exe, "--runs", str(runs), "--only", group] + (["--n", str(1 << 18)] if a.quick else [])
    out = subprocess.run(cmd, capture_output=True, text=True, env=one_thread_env())
    if out.returncode != 0:
        sys.exit("multirate_vs_scipy.py: %s failed:\n%s" % (" ".join(cmd), out.stderr))
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return rows


def time_call(f, runs):
    f()
    seconds = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        seconds.append(time.perf_counter() - t)
    return seconds


# bench_multirate's --only groups and the scipy cases timed beside each.
GROUPS = {
    "cic": (),
    "fir": ("fir_dec10_79", "cic_comp_101_dec2_cf32", "fir_dec10_79_cf32"),
    "bandpass": ("bandpass_801",),
    "resample": ("resample_147_160", "resample_1_10"),
    "welch": ("welch_1024",),
}


def scipy_cases(n):
    import numpy as np
    from scipy import signal

    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(np.float32)
    z = (rng.standard_normal(n // 2) + 1j * rng.standard_normal(n // 2)).astype(np.complex64)
    h79 = signal.firwin(79, 0.1).astype(np.float32)
    h101 = signal.firwin(101, 0.45).astype(np.float32)  # same length as the CIC compensator
    h801 = signal.firwin(801, [0.1, 0.2], pass_zero="bandpass").astype(np.float32)
    return {
        "fir_dec10_79": ("scipy upfirdn", n, lambda: signal.upfirdn(h79, x, 1, 10)),
        "cic_comp_101_dec2_cf32": ("scipy upfirdn", n // 2, lambda: signal.upfirdn(h101, z, 1, 2)),
        "fir_dec10_79_cf32": ("scipy upfirdn", n // 2, lambda: signal.upfirdn(h79, z, 1, 10)),
        "bandpass_801": ("scipy oaconvolve", n, lambda: signal.oaconvolve(x, h801)),
        "resample_147_160": ("scipy resample_poly", n, lambda: signal.resample_poly(x, 147, 160)),
        "resample_1_10": ("scipy resample_poly", n, lambda: signal.resample_poly(x, 1, 10)),
        "welch_1024": ("scipy welch", n, lambda: signal.welch(x, nperseg=1024)),
    }


def run_all(a, n, runs, rounds):
    """Rows of every implementation, their timed calls pooled over the interleaved rounds."""
    cases = scipy_cases(n)
    pooled = {}  # (case, impl) -> row
    per_round = [runs // rounds + (1 if r < runs % rounds else 0) for r in range(rounds)]
    for k in per_round:
        if k == 0:
            continue
        for group, names in GROUPS.items():
            rows = run_ripple(a, group, k)
            for c in names:
                impl, m, f = cases[c]
                rows.append({"case": c, "impl": impl, "samples": m, "seconds": time_call(f, k)})
            for r in rows:
                key = (r["case"], r["impl"])
                if key in pooled:
                    pooled[key]["seconds"] += r["seconds"]
                else:
                    pooled[key] = r
    return list(pooled.values())


def msps(row):
    return row["samples"] / statistics.median(row["seconds"]) / 1e6


CASE_TITLES = {
    "cic5_r8_cs16": "CIC decimate, 5 stages, R = 8, cs16 IQ (MS/s = complex samples in)",
    "fir_dec10_79": "FIR decimate by 10, 79 taps, float32 in",
    "cic_comp_101_dec2_cf32": "CIC compensator (decimate 50's), 101 taps, decimate by 2, complex64 in",
    "fir_dec10_79_cf32": "FIR decimate by 10, 79 taps, complex64 in",
    "bandpass_801": "bandpass FIR, 801 taps, float32 in",
    "resample_147_160": "resample_poly 147/160 (48 k -> 44.1 k), float32",
    "resample_1_10": "resample_poly 1/10, float32",
    "welch_1024": "welch, nperseg 1024, hann, 50% overlap, float32",
}


def best(rows, case, prefix):
    c = [r for r in rows if r["case"] == case and r["impl"].startswith(prefix)]
    return max(c, key=msps) if c else None


def targets(rows):
    out = []

    def add(what, value, goal, unit):
        if value is None:
            return
        out.append((what, value, goal, unit, "met" if value >= goal else "NOT met"))

    cic = best(rows, "cic5_r8_cs16", "ripple")
    add("CIC 5 stages R = 8, cs16 (best ripple path)", cic and msps(cic), 500, "MS/s")
    fir = best(rows, "fir_dec10_79", "ripple")
    add("FIR decimate-by-10, 79 taps (best ripple path)", fir and msps(fir), 300, "MS/s")
    bp = best(rows, "bandpass_801", "ripple fir::Filter (FFT")
    add("801-tap bandpass (fir::Filter, automatic method)", bp and msps(bp), 100, "MS/s")
    for case, ours, theirs in (("fir_dec10_79", "ripple upfirdn", "scipy upfirdn"),
                               ("resample_147_160", "ripple resample_poly", "scipy resample_poly"),
                               ("resample_1_10", "ripple resample_poly", "scipy resample_poly"),
                               ("welch_1024", "ripple welch", "scipy welch")):
        a, b = best(rows, case, ours), best(rows, case, theirs)
        if a and b:
            add("%s vs %s (%s)" % (ours, theirs, case), msps(a) / msps(b), 5, "x scipy")
    return out


def render(rows, header):
    lines = header + ["", "| case | implementation | MS/s (median) | min..max | vs slowest |", "|---|---|---:|---|---:|"]
    for case in CASE_TITLES:
        c = [r for r in rows if r["case"] == case]
        if not c:
            continue
        slowest = min(msps(r) for r in c)
        for r in sorted(c, key=msps, reverse=True):
            t = r["seconds"]
            lo, hi = r["samples"] / max(t) / 1e6, r["samples"] / min(t) / 1e6
            lines.append("| %s | %s | %.1f | %.0f..%.0f | %.2fx |" % (CASE_TITLES[case], r["impl"], msps(r), lo, hi,
                                                                    msps(r) / slowest))
    lines += ["", "Targets (issue 5, one core):", "", "| target | measured | goal | |", "|---|---:|---:|---|"]
    for what, value, goal, unit, verdict in targets(rows):
        lines.append("| %s | %.1f %s | %g %s | %s |" % (what, value, unit, goal, unit, verdict))
    return "\n".join(lines) + "\n"


def main():
    a = parse_args()
    n = 1 << 18 if a.quick else 1 << 22
    runs = 3 if a.quick else a.runs
    rounds = max(1, min(a.rounds, runs))
    cpu, cores, _ = machine()
    load_before = load_avg()
    rows = run_all(a, n, runs, rounds)
    import numpy
    import scipy

    now = datetime.datetime.now(datetime.timezone.utc)
    command = os.environ.get("RIPPLE_BENCH_COMMAND", " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]))
    header = [
        "# Multirate benchmark (issue 5)",
        "",
        "- machine: %s, %d cores (os.cpu_count), one thread used by every implementation" % (cpu, cores),
        "- date: %s UTC; commit %s" % (now.strftime("%Y-%m-%d %H:%M"), git_commit()),
        "- command: `%s`" % command,
        "- load average (1, 5, 15 min) before / after: %s / %s (other jobs share the machine: absolute figures"
        " are depressed, ratios within a case are the comparison)" % (load_before, load_avg()),
        "- %d samples per case (complex cases: half as many complex samples), median of %d timed calls in %d"
        " interleaved rounds (ripple's cases of a group, then scipy's, group by group), each round after a warm-up"
        " call; numpy %s, scipy %s, Python %s" % (n, runs, rounds, numpy.__version__, scipy.__version__,
                                                 platform.python_version()),
        "- streaming implementations process 65536-sample blocks into reserved buffers; one-shot ones allocate"
        " their result as a user's call does",
    ]
    text = render(rows, header)
    print(text)
    if not a.no_save:
        os.makedirs(a.out_dir, exist_ok=True)
        base = os.path.join(a.out_dir, "multirate-cpu-%s-%s" % (a.tag or default_tag(cpu, cores),
                                                                now.strftime("%Y%m%d-%H%M")))
        with open(base + ".md", "w") as f:
            f.write(text)
        with open(base + ".json", "w") as f:
            json.dump({"header": header, "rows": rows}, f, indent=1)
        print("saved %s.md and .json" % base)


if __name__ == "__main__":
    main()
