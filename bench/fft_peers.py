#!/usr/bin/env python3
"""Times the Python FFT peers (numpy.fft, scipy.fft, and mkl_fft / ducc0 when importable) on
bench_fft's case list, single-threaded by default, and prints a table. Given the CSV of a
bench_fft run (--ripple-csv), it runs exactly that run's cases and adds ripple/peer ratios.

Timing follows bench_fft: each sample repeats the call for at least --min-time seconds, the
median of --samples samples is reported, and the peers' samples are interleaved so machine
noise falls on all of them. Python's call overhead (about a microsecond) is included, which
matters only for the smallest sizes. numpy.fft and scipy.fft allocate their output on every
call; ducc0 writes into a preallocated array.

Missing numpy is not an error: the script says so and exits 0.
"""
import argparse
import csv
import math
import os
import statistics
import sys
import time

# Keep in step with bench/fft_cases.cpp (full_lists / quick_lists).
FULL = {
    "pow2": [1 << k for k in range(4, 23)],
    "smooth": [60, 243, 1000, 3125, 4800, 6561, 15625, 16807, 100000, 1000000],
    "prime": [17, 1009, 65537, 999983],
    "batch": [64, 100, 125, 256, 1024],
    "nd": [(4096, 4096), (256, 256, 256)],
}
QUICK = {
    "pow2": [1 << k for k in range(6, 21, 2)],
    "smooth": [60, 243, 1000, 3125, 6561, 100000],
    "prime": [17, 1009, 65537],
    "batch": [64, 100, 125, 256, 1024],
    "nd": [(1024, 1024), (128, 128, 128)],
}
KINDS = ["c2c-f32", "c2c-f64", "r2c-f32"]
CATEGORIES = ["pow2", "smooth", "prime", "batch", "other", "nd"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="short list, 3 samples of >= 0.05 s")
    p.add_argument("--kind", default="", help="comma list of " + ", ".join(KINDS))
    p.add_argument("--category", default="", help="comma list of " + ", ".join(CATEGORIES))
    p.add_argument("--sizes", default="", help="N[xB],... instead of the default list")
    p.add_argument("--max-n", type=int, default=0, help="skip sizes above this")
    p.add_argument("--batch-mb", type=int, default=64, help="input MiB of the batch cases")
    p.add_argument("--threads", type=int, default=1, help="threads for every peer (default 1)")
    p.add_argument("--samples", type=int, default=None, help="samples per case (default 5)")
    p.add_argument("--min-time", type=float, default=None, help="seconds per sample (default 0.15)")
    p.add_argument("--peers", default="numpy,scipy,mkl_fft,ducc0", help="which peers to try")
    p.add_argument("--ripple-csv", default="", help="bench_fft --csv output: its cases, plus ratios")
    p.add_argument("--no-error", action="store_true", help="skip the accuracy check")
    p.add_argument("--csv", default="", help="write the peers' rows as CSV")
    a = p.parse_args()
    if a.samples is None:
        a.samples = 3 if a.quick else 5
    if a.min_time is None:
        a.min_time = 0.05 if a.quick else 0.15
    return a


def classify(n):
    if n & (n - 1) == 0:
        return "pow2"
    if n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1)):
        return "prime"
    m = n
    for p in (2, 3, 5, 7):
        while m % p == 0:
            m //= p
    return "smooth" if m == 1 else "other"


def input_bytes(kind, n):
    return n * {"c2c-f32": 8, "c2c-f64": 16, "r2c-f32": 4}[kind]


def make_cases(a):
    """(kind, category, n, batch, shape, embed) in bench_fft's order; shape is None for 1-D cases,
    embed None but for an embedded N-D case (bench_fft --shapes AxB@CxD: the array it lies in)."""
    kinds = [k for k in a.kind.split(",") if k] or KINDS
    cats = [c for c in a.category.split(",") if c] or CATEGORIES
    for k in kinds:
        if k not in KINDS:
            sys.exit(f"fft_peers: unknown kind {k!r}")
    lists = QUICK if a.quick else FULL
    batch_bytes = (min(a.batch_mb, 8) if a.quick else a.batch_mb) << 20
    cases = []
    for k in kinds:
        if a.sizes:
            items = []
            for item in a.sizes.split(","):
                n, _, b = item.partition("x")
                n, b = int(n), int(b or 1)
                items.append(("batch" if b > 1 else classify(n), n, b, None))
        else:
            items = [(cat, n, 1, None) for cat in ("pow2", "smooth", "prime") for n in lists[cat]]
            items += [("batch", n, max(1, batch_bytes // input_bytes(k, n)), None) for n in lists["batch"]]
            items += [("nd", math.prod(s), 1, s) for s in lists["nd"]]
        for cat, n, b, shape in items:
            if cat in cats and (a.max_n == 0 or n <= a.max_n):
                cases.append((k, cat, n, b, shape, None))
    return cases


def read_ripple_csv(path):
    """{(kind, n, batch, shape, embed): row} and the case list, from bench_fft --csv (shape None
    for 1-D cases: 4096x4096 and 256x256x256 have the same n; embed the array after '@')."""
    rows, cases = {}, []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            text = r.get("shape") or ""
            sizes, _, embedding = text.partition("@")
            nd = r["category"] == "nd" and "x" in sizes
            shape = tuple(int(d) for d in sizes.split("x")) if nd else None
            embed = tuple(int(d) for d in embedding.split("x")) if nd and embedding else None
            key = (r["kind"], int(r["n"]), int(r["batch"]), shape, embed)
            rows[key] = r
            cases.append((r["kind"], r["category"], key[1], key[2], shape, embed))
    return rows, cases


def load_peers(names, threads, np):
    """{name: (c2c(x) -> y, r2c(x) -> y)}; a peer whose import fails is skipped silently."""
    peers = {}
    if "numpy" in names:
        peers["numpy"] = (lambda x: np.fft.fft(x, axis=-1), lambda x: np.fft.rfft(x, axis=-1))
    if "scipy" in names:
        try:
            import scipy.fft as sf
            peers["scipy"] = (lambda x: sf.fft(x, axis=-1, workers=threads),
                              lambda x: sf.rfft(x, axis=-1, workers=threads))
        except ImportError:
            pass
    if "mkl_fft" in names:
        try:
            try:
                import mkl
                mkl.set_num_threads(threads)
            except ImportError:
                pass
            try:
                from mkl_fft.interfaces import numpy_fft as mf
                peers["mkl_fft"] = (lambda x: mf.fft(x, axis=-1), lambda x: mf.rfft(x, axis=-1))
            except ImportError:
                import mkl_fft
                peers["mkl_fft"] = (lambda x: mkl_fft.fft(x, axis=-1),
                                    lambda x: mkl_fft.rfft_numpy(x, axis=-1))
        except (ImportError, AttributeError):
            pass
    if "ducc0" in names:
        try:
            import ducc0

            outputs = {}  # one preallocated output per (shape, dtype, kind), as a C++ caller would

            def output(x, real):
                key = (x.shape, x.dtype, real)
                if key not in outputs:
                    outputs.clear()
                    shape = x.shape[:-1] + (x.shape[-1] // 2 + 1,) if real else x.shape
                    outputs[key] = np.empty(shape, dtype=np.result_type(x.dtype, np.complex64))
                return outputs[key]

            def ducc_c2c(x):
                return ducc0.fft.c2c(x, axes=(x.ndim - 1,), forward=True, nthreads=threads,
                                     out=output(x, False))

            def ducc_r2c(x):
                return ducc0.fft.r2c(x, axes=(x.ndim - 1,), forward=True, nthreads=threads,
                                     out=output(x, True))

            peers["ducc0"] = (ducc_c2c, ducc_r2c)
        except ImportError:
            pass
    return peers


def nd_peers(peers, threads, np):
    """The same peers over every axis (fftn / rfftn), for the 2-D and 3-D cases."""
    out = {}
    if "numpy" in peers:
        out["numpy"] = (np.fft.fftn, np.fft.rfftn)
    if "scipy" in peers:
        import scipy.fft as sf
        out["scipy"] = (lambda x: sf.fftn(x, workers=threads), lambda x: sf.rfftn(x, workers=threads))
    if "mkl_fft" in peers:
        try:
            from mkl_fft.interfaces import numpy_fft as mf
            out["mkl_fft"] = (mf.fftn, mf.rfftn)
        except ImportError:
            pass
    if "ducc0" in peers:
        import ducc0
        out["ducc0"] = (lambda x: ducc0.fft.c2c(x, forward=True, nthreads=threads),
                        lambda x: ducc0.fft.r2c(x, forward=True, nthreads=threads))
    return out


def make_input(np, kind, n, batch, nd_shape=None, embed=None):
    """Random input of the case; an embedded case's is a view of the array it lies in."""
    rng = np.random.default_rng(n * 1000003 + batch)
    shape = embed or nd_shape or ((batch, n) if batch > 1 else (n,))
    if kind == "r2c-f32":
        x = rng.uniform(-1, 1, shape).astype(np.float32)
    else:
        dt = np.complex64 if kind == "c2c-f32" else np.complex128
        x = (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dt)
    return x[tuple(slice(0, d) for d in nd_shape)] if embed else x


def reference(np, kind, x, nd=False):
    """The transform in higher precision: long double through scipy (pocketfft) when there,
    else double through numpy (then the f64 errors are only indicative). nd: over every axis."""
    axes = tuple(range(x.ndim)) if nd else (-1,)
    try:
        import scipy.fft as sf
        wide = x.astype(np.longdouble if kind == "r2c-f32" else np.clongdouble)
        return (sf.rfftn if kind == "r2c-f32" else sf.fftn)(wide, axes=axes)
    except ImportError:
        wide = x.astype(np.float64 if kind == "r2c-f32" else np.complex128)
        return (np.fft.rfftn if kind == "r2c-f32" else np.fft.fftn)(wide, axes=axes)


def rel_l2(np, y, ref):
    ref = ref.astype(np.clongdouble)
    d = y.astype(np.clongdouble) - ref
    return float(np.sqrt(np.sum(np.abs(d) ** 2) / np.sum(np.abs(ref) ** 2)))


def calibrate(f, target):
    reps = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        t = time.perf_counter() - t0
        if t >= target / 8 or reps >= 1 << 30:
            return max(1, math.ceil(target * reps / t)) if t > 0 else reps
        reps *= 16 if t <= 0 else min(16, max(2, int(target / 4 / t)))


def time_peers(funcs, a):
    """Median seconds per call for each of funcs (a dict), samples interleaved."""
    reps = {name: calibrate(f, a.min_time) for name, f in funcs.items()}
    samples = {name: [] for name in funcs}
    names = list(funcs)
    for s in range(a.samples):
        order = names if s % 2 == 0 else names[::-1]
        for name in order:
            f, r = funcs[name], reps[name]
            t0 = time.perf_counter()
            for _ in range(r):
                f()
            samples[name].append((time.perf_counter() - t0) / r)
    return {name: statistics.median(v) for name, v in samples.items()}


def micros(sec):
    us = sec * 1e6
    for limit, fmt in ((1, "%.4f"), (10, "%.3f"), (100, "%.2f"), (1000, "%.1f")):
        if us < limit:
            return fmt % us
    return "%.0f" % us


def geomean(values):
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def main():
    a = parse_args()
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, str(a.threads))
    try:
        import numpy as np
    except ImportError:
        print("fft_peers: numpy is not installed; no Python peers timed "
              "(scripts/install-deps.sh installs numpy and scipy).")
        return 0

    ripple_rows, cases = {}, make_cases(a)
    if a.ripple_csv:
        ripple_rows, cases = read_ripple_csv(a.ripple_csv)
    peers = load_peers([p for p in a.peers.split(",") if p], a.threads, np)
    if not peers:
        print("fft_peers: none of the peers could be imported")
        return 0

    versions = {"numpy": np.__version__}
    for mod in ("scipy", "mkl_fft", "ducc0"):
        if mod in peers and mod in sys.modules:
            versions[mod] = getattr(sys.modules[mod], "__version__", "?")
    print("# python peers: " + ", ".join(f"{k} {v}" for k, v in versions.items() if k in peers))
    print(f"# threads: {a.threads}; timing: {a.samples} samples of >= {a.min_time} s, median per call")
    if a.ripple_csv:
        print(f"# ripple times from {a.ripple_csv}; ratio = ripple / peer (below 1: ripple faster)")
    print()

    names = list(peers)
    cols = "".join(f" {p + '_us':>11} {p[:5] + '_GF/s':>10}" for p in names)
    cols += "".join(f" {p[:5] + '_err':>10}" for p in names) if not a.no_error else ""
    if ripple_rows:
        cols += f" {'ripple_us':>11}" + "".join(f" {'r/' + p[:6]:>8}" for p in names)
    print(f"{'kind':<8} {'cat':<6} {'N':>11} {'batch':>7}" + cols)

    out_rows, ratios = [], {p: {} for p in names}
    multi = nd_peers(peers, a.threads, np)
    for kind, cat, n, batch, shape, embed in cases:
        x = make_input(np, kind, n, batch, shape, embed)
        which = 1 if kind == "r2c-f32" else 0
        table = multi if shape else peers
        funcs = {p: (lambda f=table[p][which]: f(x)) for p in names if p in table}
        times = time_peers(funcs, a)
        flops = (2.5 if kind == "r2c-f32" else 5.0) * n * math.log2(n) * batch
        errs = {}
        if not a.no_error:
            ref = reference(np, kind, x, nd=shape is not None)
            errs = {p: rel_l2(np, funcs[p](), ref) for p in funcs}
        size = "x".join(map(str, shape)) if shape else str(n)
        if embed:
            size += "@" + "x".join(map(str, embed))
        line = f"{kind:<8} {cat:<6} {size:>11} {batch:>7}"
        line += "".join(f" {micros(times[p]):>11} {flops / times[p] * 1e-9:>10.2f}" if p in times
                        else f" {'-':>11} {'-':>10}" for p in names)
        line += "".join(f" {errs[p]:>10.2e}" for p in errs)
        rip = ripple_rows.get((kind, n, batch, shape, embed), {}).get("ripple_s", "")
        if ripple_rows:
            line += f" {micros(float(rip)) if rip else '-':>11}"
            for p in names:
                if rip and p in times:
                    q = float(rip) / times[p]
                    ratios[p].setdefault(cat, []).append(q)
                    line += f" {q:>8.3f}"
                else:
                    line += f" {'-':>8}"
        print(line, flush=True)
        for p in times:
            out_rows.append({"kind": kind, "category": cat, "n": n, "shape": size, "batch": batch, "peer": p,
                             "seconds": times[p], "gflops": flops / times[p] * 1e-9,
                             "rel_err": errs.get(p, ""), "ripple_s": rip})

    if ripple_rows:
        print("\n== ripple / peer, geometric means (below 1: ripple faster) ==")
        for p in names:
            per_cat = "  ".join(f"{c} {geomean(v):.3f} ({len(v)})" for c, v in ratios[p].items())
            every = [q for v in ratios[p].values() for q in v]
            print(f"{p:<8} all {geomean(every):.3f} ({len(every)})  {per_cat}")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out_rows[0]) if out_rows else ["kind"])
            w.writeheader()
            w.writerows(out_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
