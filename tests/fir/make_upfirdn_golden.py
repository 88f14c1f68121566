#!/usr/bin/env python3
"""scipy.signal.upfirdn reference values for tests/fir. Usage: make_upfirdn_golden.py OUT_DIR.

cases.txt lines: "<case> up=<u> down=<d> axis=<a>" with <case>.h.npy, <case>.x.npy, <case>.y.npy."""
import os
import sys

import numpy as np
import scipy.signal as ss

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)
lines = []


def case(h, x, up, down, axis=-1):
    name = f"u{len(lines)}"
    y = ss.upfirdn(h, x, up, down, axis=axis)
    for part, v in (("h", h), ("x", x), ("y", y)):
        np.save(os.path.join(out, f"{name}.{part}.npy"), np.ascontiguousarray(v))
    lines.append(f"{name} up={up} down={down} axis={axis}")


for taps in (1, 2, 7, 16, 79):
    for up, down in ((1, 1), (1, 2), (1, 10), (2, 1), (3, 2), (2, 3), (5, 7), (7, 5), (4, 4), (10, 1)):
        for n in (1, 5, 100, 1001):
            h = rng.standard_normal(taps)
            case(h, rng.standard_normal(n), up, down)
case(rng.standard_normal(33), rng.standard_normal((4, 500)), 3, 2, axis=-1)
case(rng.standard_normal(33), rng.standard_normal((500, 3)), 2, 5, axis=0)
case(rng.standard_normal(12), rng.standard_normal((3, 200, 2)), 1, 3, axis=1)
case(rng.standard_normal(20), (rng.standard_normal(300) + 1j * rng.standard_normal(300)), 4, 3)
case(rng.standard_normal(20).astype(np.float32), rng.standard_normal(300).astype(np.float32), 2, 3)
case(rng.standard_normal(801), rng.standard_normal(100000), 1, 1)
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
