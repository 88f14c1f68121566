"""What the Python benchmark drivers record about the run: the machine, its load, the commit,
and the machine tag in result file names, and where the results go. Shared by iir_vs_scipy.py,
multirate/multirate_vs_scipy.py and the GPU drivers in gpu/."""
import json
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_avg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def machine():
    """(CPU model, logical cores, memory as text)."""
    cpu = platform.processor() or platform.machine()
    mem = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    mem = "%.0f GiB" % (int(line.split()[1]) / 1048576)
                    break
    except OSError:
        pass
    return cpu, os.cpu_count() or 1, mem


def default_tag(cpu, cores):
    """e.g. amd-epyc-7b13-2c: the first three words of the CPU model and the core count."""
    t = re.sub(r"\([^)]*\)", "", cpu.lower())
    t = re.sub(r"[^a-z0-9]+", "-", t).strip("-")
    return "%s-%dc" % ("-".join(t.split("-")[:3]), cores)


def git_commit():
    """The commit and whether the tree differs from it; where there is no git repository (a copy
    of the tree on a GPU machine), $RIPPLE_COMMIT, which the caller sets (bench/gpu/run.sh)."""
    if os.environ.get("RIPPLE_COMMIT"):
        return os.environ["RIPPLE_COMMIT"]
    try:
        c = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return c + (" (working tree has uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def nvidia_driver():
    """The NVIDIA kernel driver's version as nvidia-smi reports it (e.g. 580.159.03), or None."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def run_json(cmd, json_path):
    """Runs a benchmark executable that writes its results to json_path; returns them (the file
    removed) and its exit status. Exits naming the executable if it wrote none."""
    print("$", " ".join(cmd), flush=True)
    rc = subprocess.run(cmd).returncode
    if not os.path.exists(json_path):
        sys.exit("%s failed (exit %d)" % (os.path.basename(cmd[0]), rc))
    with open(json_path) as f:
        data = json.load(f)
    os.remove(json_path)
    return data, rc


def save_results(prefix, device_name, stamp, text, data):
    """Writes bench/results/<prefix>-<device tag>-<stamp>.md (the printed text) and .json (data);
    returns the path without extension. The tag is the device name in lower-case words."""
    tag = re.sub(r"[^A-Za-z0-9]+", "-", device_name).strip("-").lower()[:40]
    base = os.path.join(ROOT, "bench", "results", "%s-%s-%s" % (prefix, tag, stamp))
    with open(base + ".md", "w") as f:
        f.write(text)
    with open(base + ".json", "w") as f:
        json.dump(data, f, indent=1)
    print("saved", base + ".md")
    return base
