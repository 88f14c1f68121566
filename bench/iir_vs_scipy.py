#!/usr/bin/env python3
"""ripple's IIR filtering (bench_iir) next to scipy.signal.sosfilt / sosfiltfilt, in one run:
samples/s of ripple on 1 thread and on all threads and of scipy, their ratios, the issue's
targets with PASS/FAIL, and a check that ripple's outputs agree with scipy's. See bench/README.md.

Both filter the same signal with the same coefficients: the driver writes each filter's sos
(scipy.signal.butter, output='sos') to an .npy file that bench_iir reads, and bench_iir's
signal (splitmix64 of the element index, seeded) is rebuilt here bit for bit in numpy. scipy
gets the sos cast to the signal's dtype (sos.astype(x.dtype), as scipy users do); bench_iir
rounds the coefficients the same way. Rows (channels) are filtered along the last axis.

Per row: bench_iir times ripple with its thread counts alternated, then scipy is timed here
(warm-up call, then --scipy-reps calls; median and min). scipy.signal's filters are single-
threaded C loops. Each timed call allocates its result, as a user's call does. The machine's
memory limit is timed beside them in the same units: numpy copying the input into a fresh array
and into an existing one; the targets say which goals lie above the fresh-array copy.

Check: bench_iir dumps the first and last --check-len samples of every row of its last output
per thread count; they are compared with the same samples of scipy's output. float64: the
relative L2 difference to scipy must be <= 1e-9. float32: both float32 outputs are compared with
scipy run in float64 on the same float32 samples and float32-rounded coefficients; ripple's
relative L2 error must be <= 2x scipy's own float32 error (or <= 1e-6).

The result (a markdown table and a JSON file) is saved as
bench/results/iir-cpu-<tag>-<UTC date-time>.{md,json} unless --no-save.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    import scipy
    import scipy.signal
except ImportError as e:  # the comparison is the point: no scipy, no benchmark
    sys.exit("iir_vs_scipy.py needs numpy and scipy (python3 -m pip install -r scripts/requirements.txt): %s" % e)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_host import default_tag, git_commit, load_avg, machine  # noqa: E402

ROOT = os.path.dirname(HERE)

# The rows: (bench_iir case, filter name, butter's Wn). The cases use butter(8, 0.1)
# (4 sections); case a is also run with the lightly damped butter(8, 0.01), whose sections
# ripple scans in double even for float32 signals.
FILTERS = {"b8-0.1": 0.1, "b8-0.01": 0.01}
ROWS = [
    ("a", "b8-0.1"),
    ("a", "b8-0.01"),
    ("b", "b8-0.1"),
    ("c1", "b8-0.1"),
    ("c16", "b8-0.1"),
]
DTYPES = {"f32": np.float32, "f64": np.float64}
F64_TOL = 1e-9      # float64: ||ripple - scipy|| / ||scipy||
F32_FACTOR = 2.0    # float32: ripple's error <= this x scipy's float32 error ...
F32_FLOOR = 1e-6    # ... or <= this


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"), help="build folder (default: build)")
    p.add_argument("--exe", default="", help="bench_iir path (default: BUILD/bench/bench_iir)")
    p.add_argument("--quick", action="store_true", help="small sizes (bench_iir --quick), 3 reps")
    p.add_argument("--cases", default="", help="comma list of a, b, c1, c16 (default: all)")
    p.add_argument("--dtypes", default="f32,f64", help="comma list of f32, f64")
    p.add_argument("--threads", type=int, default=0, help="ripple's 'all threads' figure (default: the CPUs usable)")
    p.add_argument("--reps", type=int, default=None, help="ripple's timed calls per thread count (default 21)")
    p.add_argument("--min-time", type=float, default=None, help="ripple: time each thread count >= SEC (default 2)")
    p.add_argument("--scipy-reps", type=int, default=None, help="scipy's timed calls (default 11)")
    p.add_argument("--seed", type=int, default=1, help="signal seed (default 1)")
    p.add_argument("--check-len", type=int, default=4096, help="samples checked at each end of every row")
    p.add_argument("--no-check", action="store_true", help="skip the output check")
    p.add_argument("--tag", default=os.environ.get("RIPPLE_BENCH_TAG", ""), help="machine tag in the file name")
    p.add_argument("--out-dir", default=os.path.join(HERE, "results"), help="where results are saved")
    p.add_argument("--no-save", action="store_true", help="print only")
    a = p.parse_args()
    if a.reps is None:
        a.reps = 3 if a.quick else 21
    if a.min_time is None:
        a.min_time = 0 if a.quick else 2.0
    if a.scipy_reps is None:
        a.scipy_reps = 3 if a.quick else 11
    a.exe = a.exe or os.path.join(a.build, "bench", "bench_iir")
    if a.threads <= 0:
        a.threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return a


def signal(seed, rows, n, dtype):
    """bench_iir's signal: x[i] = 2 * (splitmix64(seed, i) >> 11) * 2^-53 - 1 in double, rounded
    to dtype; i is the C-order index over (rows, n)."""
    out = np.empty(rows * n, dtype=dtype)
    chunk = 1 << 21
    u64 = np.uint64
    for start in range(0, rows * n, chunk):
        stop = min(rows * n, start + chunk)
        z = u64(seed) + (np.arange(start, stop, dtype=u64) + u64(1)) * u64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> u64(30))) * u64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> u64(27))) * u64(0x94D049BB133111EB)
        z ^= z >> u64(31)
        out[start:stop] = 2.0 * ((z >> u64(11)).astype(np.float64) * 2.0**-53) - 1.0
    return out.reshape(rows, n)


def scipy_filter(op):
    return scipy.signal.sosfilt if op == "sosfilt" else scipy.signal.sosfiltfilt


def time_scipy(op, sos, x, reps):
    """Warm-up call, then `reps` timed calls; seconds per call (median, min, max) and the output."""
    f = scipy_filter(op)
    y = f(sos, x, axis=-1)
    times = []
    for _ in range(reps):
        y = None  # the previous result is freed outside the timed span
        t0 = time.perf_counter()
        y = f(sos, x, axis=-1)
        times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times), "times_s": times,
            "reps": reps}, y


def time_copy(x, reps):
    """The machine's memory limit in the row's units: numpy copying x into a fresh array (a call
    that allocates its result, as sosfilt does: the fresh pages are faulted in and zeroed by the
    kernel) and into an existing one, single-threaded, alternated; seconds per call."""
    y = np.empty_like(x)
    np.copyto(y, x)
    fresh, into = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        z = x.copy()
        fresh.append(time.perf_counter() - t0)
        del z
        t0 = time.perf_counter()
        np.copyto(y, x)
        into.append(time.perf_counter() - t0)
    stats = lambda t: {"median_s": statistics.median(t), "min_s": min(t), "max_s": max(t), "times_s": t, "reps": reps}
    return {"fresh": stats(fresh), "into": stats(into)}


def ends(y, m):
    return np.concatenate([y[:, :m], y[:, -m:]], axis=1)


def rel_l2(a, ref):
    a = a.astype(np.float64)
    ref = ref.astype(np.float64)
    norm = np.linalg.norm(ref)
    return float(np.linalg.norm(a - ref) / (norm if norm > 0 else 1.0))










def run_bench_iir(a, case, dtype, sos_file, thread_list, dump_prefix):
    cmd = [a.exe, "--sos", sos_file, "--case", case, "--dtype", dtype,
           "--threads", ",".join(str(t) for t in thread_list), "--reps", str(a.reps),
           "--min-time", str(a.min_time), "--seed", str(a.seed)]
    if a.quick:
        cmd.append("--quick")
    if not a.no_check:
        cmd += ["--dump", dump_prefix, "--dump-len", str(a.check_len)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("bench_iir failed (exit %d): %s\n%s" % (out.returncode, " ".join(cmd), out.stderr))
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    return {r["threads"]: r for r in lines}


def check(row, dump_heads, y_scipy, x, sos_d, op, m):
    """Errors over the first and last m samples of every row (see the module docstring)."""
    got = {t: np.concatenate([np.load(h), np.load(tl)], axis=1) for t, (h, tl) in dump_heads.items()}
    ys = ends(y_scipy, m)
    if row["dtype"] == "f64":
        errs = {t: rel_l2(g, ys) for t, g in got.items()}
        worst = max(errs.values())
        return {"ripple_err": errs, "scipy_err": 0.0, "reference": "scipy float64",
                "tolerance": "<= %g" % F64_TOL, "ok": worst <= F64_TOL}
    ref = ends(scipy_filter(op)(sos_d.astype(np.float64), x.astype(np.float64), axis=-1), m)
    errs = {t: rel_l2(g, ref) for t, g in got.items()}
    s_err = rel_l2(ys, ref)
    limit = max(F32_FACTOR * s_err, F32_FLOOR)
    return {"ripple_err": errs, "scipy_err": s_err, "reference": "scipy float64 on the float32 data",
            "tolerance": "<= max(%g x scipy's, %g) = %.3g" % (F32_FACTOR, F32_FLOOR, limit),
            "ok": max(errs.values()) <= limit}


def msps(seconds, samples):
    return samples / seconds / 1e6


def spread(t):
    """Interquartile range over median of one competitor's per-call times (robust to the odd
    call that a page-fault storm or another process stretched; min and max are in the JSON)."""
    times = t["times_s"]
    if len(times) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(times, n=4, method="inclusive")
    return (q3 - q1) / t["median_s"]


def fmt_shape(ch, n):
    e = n.bit_length() - 1
    return "%dx2^%d" % (ch, e) if n == 1 << e else "%dx%d" % (ch, n)


def table(rows, nthreads, extra2):
    cols = ["case", "op", "shape", "filter", "dtype", "ripple 1T"]
    cols += ["ripple %dT" % nthreads] + (["ripple 2T"] if extra2 else []) + ["scipy", "copy new", "copy into"]
    cols += ["r1/scipy", "rN/scipy", "rN/r1"] + (["r2/r1"] if extra2 else [])
    cols += ["iqr", "ripple err", "scipy err", "check"]
    lines = []
    for r in rows:
        s = r["samples"]
        r1, rn, sc = r["ripple"][1], r["ripple"][nthreads], r["scipy"]
        v = [r["case"], r["op"], fmt_shape(r["channels"], r["n"]), r["filter"], r["dtype"],
             "%.1f" % msps(r1["median_s"], s), "%.1f" % msps(rn["median_s"], s)]
        if extra2:
            v.append("%.1f" % msps(r["ripple"][2]["median_s"], s))
        v.append("%.1f" % msps(sc["median_s"], s))
        v += ["%.1f" % msps(r["copy"]["fresh"]["median_s"], s), "%.1f" % msps(r["copy"]["into"]["median_s"], s)]
        v += ["%.2f" % (sc["median_s"] / r1["median_s"]), "%.2f" % (sc["median_s"] / rn["median_s"]),
              "%.2f" % (r1["median_s"] / rn["median_s"])]
        if extra2:
            v.append("%.2f" % (r1["median_s"] / r["ripple"][2]["median_s"]))
        worst_spread = max(spread(t) for t in list(r["ripple"].values()) + [sc])
        v.append("%.0f%%" % (100 * worst_spread))
        c = r.get("check")
        if c:
            v += ["%.1e" % max(c["ripple_err"].values()),
                  "ref" if r["dtype"] == "f64" else "%.1e" % c["scipy_err"], "ok" if c["ok"] else "BAD"]
        else:
            v += ["-", "-", "-"]
        lines.append(v)
    widths = [max(len(cols[i]), *(len(l[i]) for l in lines)) for i in range(len(cols))]
    left = 5  # text columns
    fmt = lambda vals: "  ".join(x.ljust(w) if i < left else x.rjust(w) for i, (x, w) in enumerate(zip(vals, widths)))
    return "\n".join([fmt(cols)] + [fmt(l) for l in lines])


def memory_table(rows, thread_list):
    """bench_iir's std::memcpy of the row's input over 1..N threads (fresh / existing output),
    next to ripple on as many threads: how far each figure is from what the memory allows."""
    cols = ["case", "shape", "dtype"]
    for t in thread_list:
        cols += ["ripple %dT" % t, "copy new %dT" % t, "copy into %dT" % t, "ripple/new %dT" % t]
    lines = []
    seen = set()
    for r in rows:
        key = (r["case"], r["dtype"], r["filter"])
        if key in seen:
            continue
        seen.add(key)
        s = r["samples"]
        v = [r["case"] + " " + r["filter"], fmt_shape(r["channels"], r["n"]), r["dtype"]]
        for t in thread_list:
            q = r["ripple"][t]
            v += ["%.1f" % msps(q["median_s"], s), "%.1f" % msps(q["copy_fresh_median_s"], s),
                  "%.1f" % msps(q["copy_into_median_s"], s), "%.2f" % (q["copy_fresh_median_s"] / q["median_s"])]
        lines.append(v)
    widths = [max(len(cols[i]), *(len(l[i]) for l in lines)) for i in range(len(cols))]
    fmt = lambda vals: "  ".join(x.ljust(w) if i < 3 else x.rjust(w) for i, (x, w) in enumerate(zip(vals, widths)))
    return "\n".join([fmt(cols)] + [fmt(l) for l in lines])


def targets(rows, nthreads, quick):
    """The issue's targets, row by row (medians)."""
    out = []
    defs = [
        ("1. single-threaded (a) >= 5x scipy", "a", 5.0, lambda r: r["scipy"]["median_s"] / r["ripple"][1]["median_s"]),
        ("2. single-threaded (b) >= 10x scipy", "b", 10.0, lambda r: r["scipy"]["median_s"] / r["ripple"][1]["median_s"]),
        ("3. 2 threads (a) >= 1.7x ripple's 1 thread", "a", 1.7,
         lambda r: r["ripple"][1]["median_s"] / r["ripple"][2]["median_s"] if 2 in r["ripple"] else None),
    ]
    verdicts = []
    for title, case, goal, ratio in defs:
        items = []
        for r in rows:
            if r["case"] != case:
                continue
            v = ratio(r)
            # The goal in samples/s next to the machine's limit: a call that returns a fresh
            # array cannot beat numpy copying into a fresh array (ratios vs ripple's own 1T
            # figure have no such limit of their own).
            goal_msps = goal * msps(r["scipy"]["median_s"], r["samples"]) if title[0] in "12" else None
            copy_msps = msps(r["copy"]["fresh"]["median_s"], r["samples"])
            items.append({"filter": r["filter"], "dtype": r["dtype"], "ratio": v,
                          "pass": None if v is None else v >= goal, "goal_msps": goal_msps,
                          "copy_fresh_msps": copy_msps,
                          "above_copy": None if goal_msps is None else goal_msps > copy_msps})
        known = [i for i in items if i["pass"] is not None]
        if not known:
            verdict = "n/a (not run)" if not items else "n/a (fewer than 2 threads)"
        else:
            bad = [i for i in known if not i["pass"]]
            verdict = "PASS" if not bad else "FAIL (%d of %d rows)" % (len(bad), len(known))
        out.append("%s: %s" % (title, verdict))
        for i in items:
            limit = ""
            if i["goal_msps"] is not None:
                limit = "  (goal %.0f Msamples/s, fresh-array copy %.0f%s)" % (
                    i["goal_msps"], i["copy_fresh_msps"], ": goal above the memory limit" if i["above_copy"] else "")
            out.append("     %-14s %s  %s%s" % (i["filter"], i["dtype"], "-" if i["ratio"] is None else
                                                "%.2fx %s" % (i["ratio"], "PASS" if i["pass"] else "FAIL"), limit))
        verdicts.append({"target": title, "goal": goal, "verdict": verdict, "rows": items})
    if quick:
        out.append("(--quick sizes: the targets are stated for the full sizes; indicative only)")
    return "\n".join(out), verdicts


def main():
    a = parse_args()
    if not os.access(a.exe, os.X_OK):
        sys.exit("iir_vs_scipy.py: %s not found; build it: ninja -C BUILD bench_iir" % a.exe)
    cases = [c for c in a.cases.split(",") if c] or ["a", "b", "c1", "c16"]
    dtypes = [d for d in a.dtypes.split(",") if d]
    for d in dtypes:
        if d not in DTYPES:
            sys.exit("iir_vs_scipy.py: unknown dtype %s" % d)
    thread_list = sorted({1, a.threads} | ({2} if a.threads > 2 else set()))
    extra2 = a.threads > 2
    cpu, cores, mem = machine()
    start = datetime.datetime.now(datetime.timezone.utc)
    commit = git_commit()
    load_before = load_avg()
    command = os.environ.get("RIPPLE_BENCH_COMMAND") or " ".join(shlex.quote(x) for x in [sys.executable] + sys.argv)
    print("# ripple IIR vs scipy.signal: %s, %d cores, load %s; numpy %s, scipy %s; threads %s" %
          (cpu, cores, load_before, np.__version__, scipy.__version__, thread_list), flush=True)

    rows = []
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-iir-") as tmp:
        sos_files = {}
        for name, wn in FILTERS.items():
            sos = scipy.signal.butter(8, wn, output="sos")
            sos_files[name] = (sos, os.path.join(tmp, "sos-%s.npy" % name))
            np.save(sos_files[name][1], sos)
        for case, fname in ROWS:
            if case not in cases:
                continue
            sos, sos_file = sos_files[fname]
            for dtype in dtypes:
                load_row = load_avg()
                prefix = os.path.join(tmp, "%s-%s-" % (case, fname))
                rip = run_bench_iir(a, case, dtype, sos_file, thread_list, prefix)
                first = rip[thread_list[0]]
                ch, n, op = first["channels"], first["n"], first["op"]
                x = signal(a.seed, ch, n, DTYPES[dtype])
                sos_d = sos.astype(DTYPES[dtype])
                sc, y = time_scipy(op, sos_d, x, a.scipy_reps)
                copy = time_copy(x, a.scipy_reps)
                row = {"case": case, "op": op, "channels": ch, "n": n, "samples": ch * n,
                       "filter": "butter(8,%g)" % FILTERS[fname], "dtype": dtype, "sections": sos.shape[0],
                       "ripple": rip, "scipy": sc, "copy": copy, "scipy_out_dtype": str(y.dtype), "load_before_row": load_row}
                if not a.no_check:
                    m = min(a.check_len, n)
                    heads = {t: (r["dump_head"], r["dump_tail"]) for t, r in rip.items()}
                    row["check"] = check(row, heads, y, x, sos_d, op, m)
                    row["check"]["samples_per_row_end"] = m
                del x, y
                rows.append(row)
                s = ch * n
                print("  %-4s %-11s %-9s %-14s %s  ripple %s Msamples/s, scipy %.1f%s" % (
                    case, op, fmt_shape(ch, n), row["filter"], dtype,
                    " / ".join("%dT %.1f" % (t, msps(rip[t]["median_s"], s)) for t in thread_list),
                    msps(sc["median_s"], s),
                    "" if a.no_check else ", check " + ("ok" if row["check"]["ok"] else "BAD")), flush=True)
    elapsed = time.perf_counter() - t_start
    load_after = load_avg()

    if not rows:
        sys.exit("iir_vs_scipy.py: no rows selected")
    tab = table(rows, a.threads, extra2) + "\n\n" + memory_table(rows, thread_list)
    tgt_text, tgt = targets(rows, a.threads, a.quick)
    simd = rows[0]["ripple"][1]["simd_target"]
    legend = (
        "Msamples/s = channels x samples per channel / median seconds per call, in millions. "
        "r1, rN%s: ripple on 1, %d%s threads; ratios of medians (above 1: ripple faster / threads help). "
        "copy new / copy into: numpy copying the row's input into a fresh array (x.copy(): allocation, the "
        "kernel's page faults and zeroing, read and write) / into an existing one (np.copyto), one thread: what the "
        "memory alone allows a call that returns a fresh array / that writes into one. "
        "Second table: bench_iir's std::memcpy of the same data over 1..N threads, timed alternately with ripple, "
        "into a fresh / an existing array; ripple/new: ripple's speed as a fraction of the fresh-array copy. "
        "iqr: largest interquartile range / median among the row's timings (min and max are in the JSON). "
        "ripple err: relative L2 difference over the first and last %d samples of each row, worst over thread "
        "counts; f64 rows against scipy's output ('ref'), f32 rows (both ripple and scipy) against scipy in "
        "float64 on the same float32 data and coefficients. check: f64 <= %g, f32 ripple <= max(%g x scipy's, %g)."
        % (", r2" if extra2 else "", a.threads, ", 2" if extra2 else "", a.check_len, F64_TOL, F32_FACTOR, F32_FLOOR))
    print()
    print(tab)
    print()
    print(tgt_text)
    print("\nload average before / after: %s / %s (%d cores); %.0f s" % (load_before, load_after, cores, elapsed))

    if a.no_save:
        return
    tag = a.tag or default_tag(cpu, cores)
    os.makedirs(a.out_dir, exist_ok=True)
    base = os.path.join(a.out_dir, "iir-cpu-%s-%s" % (tag, start.strftime("%Y%m%d-%H%M")))
    meta = {
        "date": start.strftime("%Y-%m-%d %H:%M:%S UTC"), "machine": cpu, "cores": cores, "memory": mem,
        "kernel": platform.system() + " " + platform.release(), "simd_target": simd,
        "load_before": load_before, "load_after": load_after, "git_commit": commit, "command": command,
        "bench_iir": a.exe, "python": platform.python_version(), "numpy": np.__version__,
        "scipy": scipy.__version__, "threads": thread_list, "ripple_reps": a.reps, "ripple_min_time_s": a.min_time,
        "scipy_reps": a.scipy_reps, "seed": a.seed, "quick": a.quick, "elapsed_s": round(elapsed, 1),
    }
    with open(base + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows, "targets": tgt}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("# ripple IIR filtering vs scipy.signal, %s\n\n" % meta["date"])
        f.write("- machine: %s; %d logical cores; %s; %s\n" % (cpu, cores, mem, meta["kernel"]))
        f.write("- SIMD target chosen by ripple: %s\n" % simd)
        f.write("- load average before / after: %s / %s (on %d cores; above ~0.5 per core the timings are "
                "noisy)\n" % (load_before, load_after, cores))
        f.write("- git commit at the start: %s\n" % commit)
        f.write("- command: `%s`\n" % command)
        f.write("- Python %s, numpy %s, scipy %s (scipy.signal's filters run on one thread)\n" %
                (meta["python"], np.__version__, scipy.__version__))
        more = " (more if needed for >= %g s)" % a.min_time if a.min_time > 0 else ""
        f.write("- ripple: %d timed calls per thread count%s, thread counts alternated, after 1 warm-up call "
                "each; scipy: %d timed calls after 1 warm-up; seed %d; run took %.0f s\n" %
                (a.reps, more, a.scipy_reps, a.seed, elapsed))
        f.write("- files: %s.json holds every timing (median, min, max) and check\n\n" % os.path.basename(base))
        f.write("## Samples/s (millions) and ratios\n\n```text\n%s\n```\n\n%s\n\n" % (tab, legend))
        f.write("## Targets (issue 3)\n\n```text\n%s\n```\n" % tgt_text)
    print("iir_vs_scipy.py: saved %s.md (.json)" % base)


if __name__ == "__main__":
    main()
