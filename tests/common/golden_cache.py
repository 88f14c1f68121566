"""Runs a golden-file generator once per content, for every build directory that needs it.

    golden_cache.py SCRIPT OUT_DIR CACHE_DIR

`make test` runs the unit tests in two builds (Release and ASan); both need the same scipy
goldens, and generating them costs ~20 s of CPU each time. The result depends only on the
script's text and the Python, numpy and scipy versions, so it is kept in CACHE_DIR under a hash
of those and copied (hard-linked where possible) into OUT_DIR. A cache entry appears atomically
(generated beside it, then renamed), so an interrupted run never leaves a partial one.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata


def cache_key(script):
    digest = hashlib.sha256()
    with open(script, "rb") as f:
        digest.update(f.read())
    for package in ("numpy", "scipy"):
        digest.update(f"{package}={metadata.version(package)}\n".encode())
    digest.update(sys.version.encode())
    name = os.path.basename(os.path.dirname(os.path.abspath(script)))
    return f"{name}-{os.path.basename(script).removesuffix('.py')}-{digest.hexdigest()[:16]}"


def link_or_copy_tree(source, target):
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    for entry in os.listdir(source):
        src, dst = os.path.join(source, entry), os.path.join(target, entry)
        if os.path.isdir(src):
            link_or_copy_tree(src, dst)
            continue
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: golden_cache.py SCRIPT OUT_DIR CACHE_DIR")
    script, out_dir, cache_dir = sys.argv[1:]
    entry = os.path.join(cache_dir, cache_key(script))
    if not os.path.isdir(entry):
        os.makedirs(cache_dir, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".staging-", dir=cache_dir)
        try:
            subprocess.run([sys.executable, script, staging], check=True)
            try:
                os.rename(staging, entry)
            except OSError:  # another run finished the same entry first
                if not os.path.isdir(entry):
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    link_or_copy_tree(entry, out_dir)


if __name__ == "__main__":
    main()
