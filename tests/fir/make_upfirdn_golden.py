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
    for up, down in ((1, 1), (1, 2), (1, 10), (2, 1), (3, 2), (2, 3), (5, 7), (7, 5), (4, 4), (10, 1), (11, 3)):
        for n in (1, 5, 100, 1001):
            h = rng.standard_normal(taps)
            case(h, rng.standard_normal(n), up, down)
case(rng.standard_normal(33), rng.standard_normal((4, 500)), 3, 2, axis=-1)
case(rng.standard_normal(33), rng.standard_normal((500, 3)), 2, 5, axis=0)
case(rng.standard_normal(12), rng.standard_normal((3, 200, 2)), 1, 3, axis=1)
case(rng.standard_normal(20), (rng.standard_normal(300) + 1j * rng.standard_normal(300)), 4, 3)
case(rng.standard_normal(20).astype(np.float32), rng.standard_normal(300).astype(np.float32), 2, 3)
case(rng.standard_normal(801), rng.standard_normal(100000), 1, 1)
# Longer than one copy buffer of the strided and complex paths (8192 values).
case(rng.standard_normal(79), rng.standard_normal(30000) + 1j * rng.standard_normal(30000), 1, 10)
case(rng.standard_normal(40), rng.standard_normal((20000, 2)), 3, 2, axis=0)
# Eight phases or more are computed in output order (src/fir/polyphase.cpp): complex (strided
# output), float32, a strided axis, and phases of 1..6 whole vectors and more.
case(rng.standard_normal(50), rng.standard_normal(3000) + 1j * rng.standard_normal(3000), 9, 4)
case(rng.standard_normal(100).astype(np.float32), rng.standard_normal(5000).astype(np.float32), 8, 3)
case(rng.standard_normal(61), rng.standard_normal((700, 3)), 13, 16, axis=0)
for taps in (16, 64, 96, 150, 300):
    case(rng.standard_normal(taps), rng.standard_normal(2000), 12, 5)
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")

# resample_poly: "resample <case> up=<u> down=<d> axis=<a> window=<spec|taps> padtype=<p>"
res = []
for up, down in ((1, 1), (2, 1), (1, 2), (3, 2), (2, 3), (3, 5), (160, 147), (147, 160), (1, 10), (10, 1), (4, 6)):
    for n in (1, 7, 100, 1001):
        x = rng.standard_normal(n)
        name = f"r{len(res)}"
        np.save(os.path.join(out, f"{name}.x.npy"), x)
        np.save(os.path.join(out, f"{name}.y.npy"), ss.resample_poly(x, up, down))
        res.append(f"{name} up={up} down={down} axis=0 window=kaiser,5.0 padtype=constant")
for window in ("hamming", "kaiser,8.0"):
    for padtype in ("constant", "mean", "median", "minimum", "maximum"):
        x = rng.standard_normal(503) + 3.0
        name = f"r{len(res)}"
        win = window if "," not in window else ("kaiser", 8.0)
        np.save(os.path.join(out, f"{name}.x.npy"), x)
        np.save(os.path.join(out, f"{name}.y.npy"), ss.resample_poly(x, 5, 3, window=win, padtype=padtype))
        res.append(f"{name} up=5 down=3 axis=0 window={window} padtype={padtype}")
x = rng.standard_normal((300, 4))
np.save(os.path.join(out, "r_nd.x.npy"), x)
np.save(os.path.join(out, "r_nd.y.npy"), ss.resample_poly(x, 3, 4, axis=0))
res.append("r_nd up=3 down=4 axis=0 window=kaiser,5.0 padtype=constant")
x = rng.standard_normal((4, 300)).astype(np.float32)
np.save(os.path.join(out, "r_f32.x.npy"), x)
np.save(os.path.join(out, "r_f32.y.npy"), ss.resample_poly(x, 2, 3, axis=1))
res.append("r_f32 up=2 down=3 axis=1 window=kaiser,5.0 padtype=constant")
x = rng.standard_normal(20000).astype(np.float32)  # the benchmark's 48 k -> 44.1 k, float32
np.save(os.path.join(out, "r_f32_441.x.npy"), x)
np.save(os.path.join(out, "r_f32_441.y.npy"), ss.resample_poly(x, 147, 160))
res.append("r_f32_441 up=147 down=160 axis=0 window=kaiser,5.0 padtype=constant")
taps = ss.firwin(31, 0.3)
x = rng.standard_normal(200)
np.save(os.path.join(out, "r_taps.x.npy"), x)
np.save(os.path.join(out, "r_taps.h.npy"), taps)
np.save(os.path.join(out, "r_taps.y.npy"), ss.resample_poly(x, 3, 2, window=taps))
res.append("r_taps up=3 down=2 axis=0 window=taps padtype=constant")
with open(os.path.join(out, "resample.txt"), "w") as f:
    f.write("\n".join(res) + "\n")
