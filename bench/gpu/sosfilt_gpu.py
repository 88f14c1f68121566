#!/usr/bin/env python3
"""Times ripple's GPU sosfilt (bench_gpu_sosfilt) beside the device's memcpy, cupyx.scipy.signal.
sosfilt (if cupy imports) and scipy.signal.sosfilt on the CPU, on the issue's shapes, and saves
the table. Run by bench/gpu/run.sh, which builds and checks first.

ripple's numbers (and the memcpy it is compared with) come from the C++ driver, which also checks
its results against the CPU and the serial recurrence. cupyx and scipy filter the same shapes,
float32, butter(order, 0.1) in sos form cast to float32; their data are normal random samples
(throughput does not depend on the values). GB/s counts bytes read + written once.
Targets (issue 4): 1 section >= 90% of memcpy, 4 sections >= 80%, >= 20x cupyx sosfilt.
"""
import argparse
import datetime
import os
import platform
import statistics
import sys
import time

try:
    import numpy as np
    import scipy.signal
except ImportError as e:
    sys.exit("sosfilt_gpu.py needs numpy and scipy (python3 -m pip install -r scripts/requirements.txt): %s" % e)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from bench_host import git_commit, nvidia_driver, run_json, save_results  # noqa: E402


def time_median(fn, reps, sync=lambda: None):
    fn()
    sync()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        t.append(time.perf_counter() - t0)
    return statistics.median(t)


def cupy_times(cases, reps):
    try:
        import cupy
        import cupyx.scipy.signal as csig
    except Exception as e:  # not installed, no CUDA, ...
        return None, "cupy not importable: %s" % e
    out = {}
    for c in cases:
        if c["name"].endswith(("-tiles", "-channels")):
            continue
        sos = cupy.asarray(scipy.signal.butter(2 * c["sections"], 0.1, output="sos").astype(np.float32))
        x = cupy.random.standard_normal((c["channels"], c["n"]), dtype=cupy.float32)
        if c["channels"] == 1:
            x = x[0]
        sync = cupy.cuda.Device().synchronize
        out[c["name"]] = time_median(lambda: csig.sosfilt(sos, x, axis=-1), max(1, reps // 3), sync)
        del x
        cupy.get_default_memory_pool().free_all_blocks()
    return out, "cupy %s" % cupy.__version__


def scipy_times(cases):
    out = {}
    rng = np.random.default_rng(1)
    for c in cases:
        if c["name"].endswith(("-tiles", "-channels")):
            continue
        sos = scipy.signal.butter(2 * c["sections"], 0.1, output="sos").astype(np.float32)
        x = rng.standard_normal((c["channels"], c["n"]), dtype=np.float32)
        out[c["name"]] = time_median(lambda: scipy.signal.sosfilt(sos, x, axis=-1), 1)
        del x
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", required=True, help="bench_gpu_sosfilt")
    ap.add_argument("--device", default="", help="ripple device id (default: the best GPU)")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="small sizes (PoCL, smoke runs)")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--no-scipy", action="store_true")
    ap.add_argument("--tiles", default="", help="tile shapes to sweep, BLOCKxITEMS,... or none "
                    "(default: bench_gpu_sosfilt's list)")
    a = ap.parse_args()

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M")
    json_tmp = os.path.join(ROOT, "bench", "results", ".gpu-sosfilt-%s.tmp.json" % stamp)
    os.makedirs(os.path.dirname(json_tmp), exist_ok=True)
    cmd = [a.exe, "--reps", str(a.reps), "--json", json_tmp] + (["--device", a.device] if a.device else [])
    cmd += ["--quick"] if a.quick else []
    cmd += ["--tiles", a.tiles] if a.tiles else []
    ripple, rc = run_json(cmd, json_tmp)
    cases = ripple["cases"]
    cupy, cupy_note = cupy_times(cases, a.reps)
    scipy_t = {} if a.no_scipy else scipy_times(cases)

    lines = []
    lines.append("# GPU sosfilt: %s (%s)" % (ripple["name"], ripple["device"]))
    lines.append("")
    lines.append("- driver: %s (NVIDIA kernel driver %s); runtime: %s" % (
        ripple["driver"], nvidia_driver() or "-", ripple["runtime"]))
    lines.append("- host: %s, %s; python %s, numpy %s, scipy %s; %s" % (
        platform.node(), platform.processor() or platform.machine(), platform.python_version(), np.__version__,
        scipy.__version__, cupy_note if cupy is None else cupy_note))
    commit = git_commit()
    lines.append("- ripple commit %s; command: %s; %s UTC; median of %d runs%s" % (
        commit, os.environ.get("RIPPLE_BENCH_COMMAND", " ".join(sys.argv)), stamp, ripple["reps"],
        "; QUICK sizes" if a.quick else ""))
    if not ripple["is_gpu"]:
        lines.append("- NOT A GPU (a CPU OpenCL device): the numbers only show the script works")
    lines.append("")
    lines.append("GB/s = bytes read + written once / time. float32, butter(2 x sections, 0.1).")
    lines.append("")
    lines.append("| case | sections | channels x n | path | ripple ms | GB/s | memcpy GB/s | of memcpy | target | "
                 "cupyx ms | vs cupyx | scipy CPU ms | vs scipy | check |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    verdicts = []
    for c in cases:
        frac = c["gbs"] / c["memcpy_gbs"]
        target = ""
        if not c["name"].endswith(("-tiles", "-channels")):
            need = 0.9 if c["sections"] == 1 else 0.8
            target = "%s (>= %d%%)" % ("PASS" if frac >= need else "FAIL", need * 100)
            verdicts.append(frac >= need)
        cu = cupy.get(c["name"]) if cupy else None
        vs_cu = ""
        if cu:
            ratio = cu / c["seconds"]
            vs_cu = "%.1fx %s" % (ratio, "PASS" if ratio >= 20 else "FAIL (>= 20x)")
            verdicts.append(ratio >= 20)
        sc = scipy_t.get(c["name"])
        lines.append("| %s | %d | %d x %d | %s | %.3f | %.1f | %.1f | %.1f%% | %s | %s | %s | %s | %s | %s |" % (
            c["name"], c["sections"], c["channels"], c["n"], c["path"], c["seconds"] * 1e3, c["gbs"],
            c["memcpy_gbs"], 100 * frac, target, "%.3f" % (cu * 1e3) if cu else "-", vs_cu or "-",
            "%.1f" % (sc * 1e3) if sc else "-", "%.1fx" % (sc / c["seconds"]) if sc else "-",
            "ok (CPU rel. L2 %.1e, %.2fx serial float error)" % (c["cpu_rel_l2"], c["serial_ratio"])
            if c["ok"] else "FAIL (CPU rel. L2 %.1e, %.2fx serial)" % (c["cpu_rel_l2"], c["serial_ratio"])))
    lines.append("")
    if cupy is None:
        lines.append("cupyx.scipy.signal.sosfilt: not measured (%s)." % cupy_note)
    lines.append("Targets met: %d of %d." % (sum(verdicts), len(verdicts)))
    sweep = ripple.get("tile_sweep", [])
    if sweep:
        memcpy = {c["name"]: c["memcpy_gbs"] for c in cases}
        lines.append("")
        lines.append("Tile sweep (tile path forced; the default shape is tuning.hpp's kSosBlock x kSosItems):")
        lines.append("")
        lines.append("| case | block x items | ms | GB/s | of memcpy | check |")
        lines.append("|---|---|---|---|---|---|")
        for t in sweep:
            shape = "%d x %d" % (t["block"], t["items"])
            if t["error"]:
                lines.append("| %s | %s | - | - | - | not run: %s |" % (t["name"], shape, t["error"]))
                continue
            lines.append("| %s | %s | %.3f | %.1f | %.1f%% | %s |" % (
                t["name"], shape, t["seconds"] * 1e3, t["gbs"], 100 * t["gbs"] / memcpy[t["name"]],
                "ok (CPU rel. L2 %.1e)" % t["cpu_rel_l2"] if t["ok"] else "FAIL (CPU rel. L2 %.1e)" % t["cpu_rel_l2"]))
    text = "\n".join(lines) + "\n"
    print()
    print(text)
    if not a.no_save:
        save_results("gpu-sosfilt", ripple["name"], stamp, text,
                     {"ripple": ripple, "cupy_seconds": cupy, "cupy": cupy_note, "scipy_seconds": scipy_t})
    return 0 if rc == 0 else rc


if __name__ == "__main__":
    sys.exit(main())
