#!/usr/bin/env python3
"""Runs bench_gpu_fft (ripple's GPU FFT beside memcpy, cuFFT and VkFFT on one device), prints the
issue's targets with PASS/FAIL and saves bench/results/gpu-fft-<device>-<UTC date-time>.md (+ .json).
Run by bench/gpu/run.sh, which builds and checks first.

All numbers come from the C++ driver (see the top of bench/gpu/fft_gpu_bench.cpp for the cases,
the timing and the checks); this script only judges and formats them. GB/s counts one read of
the input and one write of the output; "speed vs X" is X's time / ripple's time (above 1: ripple
is faster).

Targets (issue 6, "Benchmark"):
  batched 1-D N <= 4096:  >= 85% of memcpy bandwidth and never slower than cuFFT (speed >= 1.0x)
  prime N (batched, single): >= 2x cuFFT's speed
  large N (single 1-D) and 3-D: within 1.0x of cuFFT's time (speed >= 1.0x)
  plan creation:          warm kernel cache < 1 ms; cold (compiling) < 150 ms (cuFFT's ~150 ms)
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from bench_host import git_commit, nvidia_driver, run_json, save_results  # noqa: E402


def short(name):
    """Column name of a peer: cuFFT, VkFFT-CUDA, VkFFT-OpenCL."""
    if name.startswith("VkFFT"):
        m = re.search(r"\((\w+)\)", name)
        return "VkFFT-" + (m.group(1) if m else "?")
    return name.split(" ")[0]


def ms(s):
    return "%.4f" % (s * 1e3) if s and s > 0 else "-"


def peer_cell(p, ripple):
    if p["status"] != "ok":
        return p["status"].split(":")[0]
    cell = ms(p["seconds"])
    if ripple["status"] == "ok":
        cell += " (%.2fx)" % (p["seconds"] / ripple["seconds"])
    if not p["ok"]:
        cell += " CHECK FAIL"
    return cell


def err_cell(c):
    r = c["ripple"]
    if r["status"] != "ok":
        return "-"
    if r["err_ref"] is None or r["err_ref"] < 0:
        return "not checked" if r["ok"] else "FAIL"
    return "%.1e (%.2f of bound)%s" % (r["err_ref"], r["err_ref"] / c["bound"], "" if r["ok"] else " FAIL")


def judge(c, cufft):
    """(target text, list of (target name, passed)) for one case."""
    r = c["ripple"]
    group, kind = c["group"], c["kind"]
    verdicts = []
    texts = []
    ran = r["status"] == "ok"
    frac = c["bytes"] / r["seconds"] / (c["bytes"] / c["memcpy_seconds"]) if ran and c["memcpy_seconds"] else None
    cu = next((p for p in c["peers"] if short(p["name"]) == "cuFFT" and p["status"] == "ok"), None)
    speed = cu["seconds"] / r["seconds"] if ran and cu else None
    if group == "batched":
        need = 0.85
        ok = ran and frac is not None and frac >= need
        verdicts.append(("batched >= 85% memcpy", ok))
        texts.append("%s memcpy" % ("PASS" if ok else "FAIL"))
        if cufft:
            need_speed = 2.0 if kind == "prime" else 1.0
            ok = speed is not None and speed >= need_speed
            name = "prime >= 2x cuFFT" if kind == "prime" else "batched >= cuFFT"
            verdicts.append((name, ok))
            texts.append("%s %s" % ("PASS" if ok else "FAIL", ">= 2x cuFFT" if kind == "prime" else ">= cuFFT"))
    elif group == "single" and kind == "prime" and cufft:
        ok = speed is not None and speed >= 2.0
        verdicts.append(("prime >= 2x cuFFT", ok))
        texts.append(("PASS" if ok else "FAIL") + " >= 2x cuFFT" + ("" if ran else " (ripple did not run)"))
    elif group in ("single", "r2c-1d", "3d", "r2c-3d") and cufft:
        ok = speed is not None and speed >= 1.0
        name = "large N within 1.0x cuFFT" if group in ("single", "r2c-1d") else "3-D within 1.0x cuFFT"
        verdicts.append((name, ok))
        texts.append(("PASS" if ok else "FAIL") + " <= cuFFT time" + ("" if ran else " (ripple did not run)"))
    return ", ".join(texts) or "-", verdicts


def prewarm(exe, case_options, processes):
    """Makes ripple's plans of the cases in `processes` processes at once (bench_gpu_fft
    --compile-only --shard i/N), filling the disk kernel cache the timed run then loads from.
    Returns the seconds it took. A failed shard is reported; the timed run still goes on (its
    own plans then compile what is missing, and its checks say whether they work)."""
    t0 = time.monotonic()
    procs = [subprocess.Popen([exe, "--compile-only", "--shard", "%d/%d" % (i, processes)] + case_options,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for i in range(processes)]
    for p in procs:
        out, _ = p.communicate()
        lines = out.strip().splitlines()
        if p.returncode != 0:
            print("prewarm shard FAILED (exit %d):\n%s" % (p.returncode, out.strip()), flush=True)
        elif lines:
            print(lines[-1], flush=True)
    spent = time.monotonic() - t0
    print("prewarm: %d processes, %.1f s" % (processes, spent), flush=True)
    return spent


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", help="bench_gpu_fft")
    ap.add_argument("--from-json", help="format and judge this bench_gpu_fft --json output (e.g. the "
                    "bench/results/.gpu-fft-*.tmp.json of a run that was cut off) instead of running")
    ap.add_argument("--device", default="", help="ripple device id (default: the best GPU)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="small sizes (PoCL, smoke runs)")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--prewarm", type=int, default=0, metavar="N",
                    help="first make ripple's plans of the cases in N processes at once (bench_gpu_fft "
                    "--compile-only), so the timed run loads its programs from the disk kernel cache instead "
                    "of compiling about one a second; their time counts against --time-limit")
    for opt in ("--sections", "--sizes", "--precisions", "--peers", "--mem-mib", "--time-limit"):
        ap.add_argument(opt, default=None, help="passed to bench_gpu_fft")
    a = ap.parse_args()

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M")
    if a.from_json:
        with open(a.from_json) as f:
            res = json.load(f)
        rc = 0
    else:
        if not a.exe:
            ap.error("--exe or --from-json is needed")
        # Rewritten after every case; $RIPPLE_BENCH_TMP puts it where a cut-off run still leaves it
        # (run.sh: the device tool's $OUT), under a plain name (a hidden file might not travel).
        tmp_dir = os.environ.get("RIPPLE_BENCH_TMP")
        json_tmp = (os.path.join(tmp_dir, "gpu-fft-partial-%s-%d.json" % (stamp, os.getpid())) if tmp_dir else
                    os.path.join(ROOT, "bench", "results", ".gpu-fft-%s-%d.tmp.json" % (stamp, os.getpid())))
        os.makedirs(os.path.dirname(json_tmp), exist_ok=True)
        cases = (["--device", a.device] if a.device else []) + (["--quick"] if a.quick else [])
        for opt in ("sections", "sizes", "precisions", "mem_mib"):
            if getattr(a, opt) is not None:
                cases += ["--" + opt.replace("_", "-"), getattr(a, opt)]
        time_limit = float(a.time_limit) if a.time_limit is not None else None
        if a.prewarm > 0:
            spent = prewarm(a.exe, cases, a.prewarm)
            if time_limit is not None:
                time_limit = max(1.0, time_limit - spent)
        cmd = [a.exe, "--reps", str(a.reps), "--json", json_tmp] + cases
        cmd += ["--peers", a.peers] if a.peers is not None else []
        cmd += ["--time-limit", "%g" % time_limit] if time_limit is not None else []
        res, rc = run_json(cmd, json_tmp)
    stamp = res.get("started", stamp)

    peer_names = []
    for c in res["cases"]:
        for p in c["peers"]:
            if short(p["name"]) not in peer_names:
                peer_names.append(short(p["name"]))
    cufft = "cuFFT" in peer_names

    L = []
    L.append("# GPU FFT: %s (%s)" % (res["name"], res["device"]))
    L.append("")
    L.append("- driver: %s (NVIDIA kernel driver %s); runtime: %s; arch: %s" % (
        res["driver"], nvidia_driver() or "-", res["runtime"], res["arch"]))
    commit = git_commit()
    L.append("- host: %s, %s; ripple commit %s" % (platform.node(), platform.processor() or platform.machine(), commit))
    L.append("- command: %s; %s UTC; median of %d samples; %d MiB of data per case%s" % (
        os.environ.get("RIPPLE_BENCH_COMMAND", " ".join(sys.argv)), stamp, res["reps"], res["mem_bytes"] >> 20,
        "; QUICK sizes" if res["quick"] else ""))
    L.append("- bench_gpu_fft command: %s" % res.get("command", "?"))
    for p in res["peers"]:
        L.append("- peer %s: %s" % (p["plugin"], p["name"] if p["name"] else "absent (%s)" % p["why"]))
    if not res.get("complete", True):
        L.append("- INCOMPLETE: %d of %d cases ran (time limit or cut off)" % (len(res["cases"]),
                                                                             res.get("planned_cases", 0)))
    if not res["is_gpu"]:
        L.append("- NOT A GPU (a CPU OpenCL device): the numbers only show that the benchmark works")
    L.append("")
    L.append("Forward, out of place, packed (but the innermost-batched table), random input. GB/s = (input + output bytes) / time. "
             "Peer cells: time in ms (peer time / ripple time: above 1.00x ripple is faster). "
             "Checks: ripple vs the CPU FFT in double (first, middle, last transform), peers vs ripple.")

    verdicts = []
    if res["plans"]:
        L.append("")
        L.append("## Plan creation")
        L.append("")
        L.append("ripple cold: kernel disk cache off, first plan of the size in the process (compiles); warm: "
                 "the same plan again (memory cache). Peers: first and second plan of the same case "
                 "(cuFFT's first plan in a process also loads the library's kernels).")
        L.append("")
        hdr = "| case | ripple cold ms (compiles) | ripple warm ms | " + " | ".join(
            "%s first / second ms" % n for n in peer_names) + " | target |"
        L.append(hdr)
        L.append("|" + "---|" * (4 + len(peer_names)))
        for p in res["plans"]:
            cells = []
            for n in peer_names:
                t = next((x for x in p["peers"] if short(x["name"]) == n), None)
                cells.append("%.2f / %.2f" % (t["first"] * 1e3, t["second"] * 1e3) if t and t["first"] is not None
                             and t["first"] >= 0 else "-")
            if p["ripple_status"] == "ok":
                # The cold target is for common sizes; "large tables" cases (2^21 reals, Bluestein
                # 10^6) spend their first plan on the host's tables, shown beside cuFFT's.
                warm_ok = p["ripple_warm"] < 1e-3
                verdicts.append(("plan warm < 1 ms", warm_ok))
                target = "%s warm" % ("PASS" if warm_ok else "FAIL")
                if "large tables" not in p["label"]:
                    cold_ok = p["ripple_cold"] < 0.150
                    verdicts.append(("plan cold < 150 ms", cold_ok))
                    target += ", %s cold" % ("PASS" if cold_ok else "FAIL")
                L.append("| %s x%d | %.2f (%d) | %.3f (%d) | %s | %s |" % (
                    p["label"], p["batch"], p["ripple_cold"] * 1e3, p["cold_compiles"], p["ripple_warm"] * 1e3,
                    p["warm_compiles"], " | ".join(cells), target))
            else:
                L.append("| %s | %s | - | %s | FAIL |" % (p["label"], p["ripple_status"], " | ".join(cells)))

    groups = [("batched", "f32", "Batched 1-D c2c, float"), ("batched", "f64", "Batched 1-D c2c, double"),
              ("single", "f32", "Single 1-D c2c, float"), ("single", "f64", "Single 1-D c2c, double"),
              ("staging", "f32", "Batched 1-D c2c, float, staged through local memory or not (each size's first "
               "row: ripple's default choice, with the peers; then the other choice, ripple alone; targets column: "
               "time against the first row's)"),
              ("staging", "f64", "Batched 1-D c2c, double, staged through local memory or not (as above)"),
              ("padding", "f32", "1-D c2c, float, local memory padded against bank conflicts or not (each size's first "
               "row: ripple's default, padded, with the peers; then unpadded, ripple alone; targets column: time "
               "against the first row's)"),
              ("padding", "f64", "Batched 1-D c2c, double, local memory padded or not (as above)"),
              ("caps", "f32", "Single 1-D c2c, float, by pass cap and column width (each size's first row: the "
               "plan's own passes, with the peers; then ripple alone with its passes capped at max_pass points "
               "and/or column groups of 64 or 128 bytes, the default 32, or every pass staged through local memory, "
               "or none; targets "
               "column: time against the first "
               "row's)"),
              ("2d", "f32", "2-D c2c, float"), ("3d", "f32", "3-D c2c, float"), ("r2c-3d", "f32", "3-D r2c, float"),
              ("r2c-1d", "f32", "Single 1-D r2c, float"),
              ("innermost", "f32", "Innermost-batched 1-D, float (element i of transform b at i x batch + b; no target "
               "of its own)")]
    checks_failed = 0
    for group, prec, title in groups:
        rows = [c for c in res["cases"] if c["group"] == group and c["precision"] == prec]
        if not rows:
            continue
        L.append("")
        L.append("## " + title)
        L.append("")
        L.append("| shape | kind | batch | memcpy GB/s | ripple ms | GB/s | of memcpy | error vs CPU double | " +
                 " | ".join(peer_names) + " | targets |")
        L.append("|" + "---|" * (9 + len(peer_names)))
        for c in rows:
            r = c["ripple"]
            memcpy = c["bytes"] / c["memcpy_seconds"] / 1e9 if c["memcpy_seconds"] else 0
            if r["status"] == "ok":
                gbs = c["bytes"] / r["seconds"] / 1e9
                rip = [ms(r["seconds"]), "%.1f" % gbs, "%.1f%%" % (100 * gbs / memcpy) if memcpy else "-"]
            else:
                rip = [r["status"].split(":")[0], "-", "-"]
            cells = []
            for n in peer_names:
                p = next((x for x in c["peers"] if short(x["name"]) == n), None)
                cells.append(peer_cell(p, r) if p else "-")
                if p and p["status"] == "ok" and not p["ok"]:
                    checks_failed += 1
            if r["status"] == "ok" and not r["ok"]:
                checks_failed += 1
            target, v = judge(c, cufft)
            verdicts += v
            kind_cell = (c["transform"] + " " + c["kind"]) if group == "innermost" else (c["kind"] or c["transform"])
            if group == "staging":
                first = next(x for x in rows if x["shape"] == c["shape"])
                staged = c.get("staged_io", -1)
                kind_cell = "%s, %s" % (c["kind"], "default" if staged < 0 else "staged" if staged else "direct")
                if staged >= 0 and r["status"] == "ok" and first["ripple"]["status"] == "ok":
                    target = "%.2fx the default's time" % (r["seconds"] / first["ripple"]["seconds"])
            if group == "padding":
                first = next(x for x in rows if x["shape"] == c["shape"])
                unpadded = c.get("pad_local", -1) == 0
                kind_cell = "%s, %s" % (c["kind"], "unpadded" if unpadded else "default")
                if unpadded and r["status"] == "ok" and first["ripple"]["status"] == "ok":
                    target = "%.2fx the default's time" % (r["seconds"] / first["ripple"]["seconds"])
            if group == "caps":
                split = r.get("describe", "").split(": ", 1)[-1].split(" (")[0]
                kind_cell = ("passes <= %d: " % c["max_pass"] if c.get("max_pass") else "plan's: ") + split
                if c.get("column_bytes"):
                    kind_cell += ", columns %d B" % c["column_bytes"]
                if c.get("staged_io", -1) >= 0:
                    kind_cell += ", staged" if c["staged_io"] else ", direct"
                if c.get("interleave", -1) == 0:
                    kind_cell += ", not interleaved"
                if r.get("pass_seconds"):
                    kind_cell += " (passes alone: %s ms)" % " + ".join("%.4f" % (x * 1e3) for x in r["pass_seconds"])
                first = next(x for x in rows if x["shape"] == c["shape"])
                if (c.get("max_pass") or c.get("column_bytes") or c.get("staged_io", -1) >= 0 or
                        c.get("interleave", -1) == 0) and r["status"] == "ok" \
                        and first["ripple"]["status"] == "ok":
                    target = "%.2fx the plan's time" % (r["seconds"] / first["ripple"]["seconds"])
            L.append("| %s | %s | %d | %.1f | %s | %s | %s |" % (
                "x".join(str(s) for s in c["shape"]), kind_cell, c["batch"], memcpy,
                " | ".join(rip), err_cell(c), " | ".join(cells + [target])))
        unsupported = sorted({c["ripple"]["status"] for c in rows if c["ripple"]["status"] != "ok"})
        for u in unsupported:
            L.append("")
            L.append("ripple: " + u)

    L.append("")
    L.append("## Targets")
    L.append("")
    if not cufft:
        L.append("cuFFT was not measured (%s): the targets against it are not evaluated." % next(
            (p["why"] for p in res["peers"] if p["plugin"] == "cufft"), "not requested"))
        L.append("")
    names = []
    for n, _ in verdicts:
        if n not in names:
            names.append(n)
    for n in names:
        got = [ok for m, ok in verdicts if m == n]
        L.append("- %s: %s (%d of %d)" % (n, "PASS" if all(got) else "FAIL", sum(got), len(got)))
    L.append("- result checks: %s" % ("all passed" if checks_failed == 0 else "%d FAILED" % checks_failed))
    not_run = [(short(p["name"]), "x".join(str(s) for s in c["shape"]), c["precision"], p["status"])
               for c in res["cases"] for p in c["peers"] if p["status"] != "ok"]
    if not_run:
        L.append("- peer runs that failed (%d): %s" % (len(not_run), "; ".join(
            "%s %s %s: %s" % x for x in not_run[:10]) + ("; ..." if len(not_run) > 10 else "")))
    text = "\n".join(L) + "\n"
    print()
    print(text)
    if not a.no_save:
        save_results("gpu-fft", res["name"], stamp, text, res)
    return 0 if rc == 0 and checks_failed == 0 else (rc or 3)


if __name__ == "__main__":
    sys.exit(main())
