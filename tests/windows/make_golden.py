#!/usr/bin/env python3
"""scipy.signal.get_window reference values for tests/windows. Usage: make_golden.py OUT_DIR.

Writes <case>.npy files and OUT_DIR/cases.txt lines "<case> <window spec> <n> <fftbins 0|1>"."""
import os
import sys

import numpy as np
import scipy.signal as ss

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
specs = [("boxcar",), ("triang",), ("bartlett",), ("hann",), ("hamming",), ("blackman",), ("blackmanharris",),
         ("nuttall",), ("flattop",), ("cosine",), ("tukey", 0.25), ("tukey", 0.5), ("tukey", 0.9), ("kaiser", 0.0),
         ("kaiser", 8.6), ("kaiser", 14.0), ("gaussian", 7.0), ("gaussian", 0.5), ("general_hamming", 0.6)]
lines = []
for spec in specs:
    for n in (1, 2, 3, 4, 7, 8, 16, 31, 64, 255, 1024):
        for fftbins in (False, True):
            window = spec[0] if len(spec) == 1 else spec
            w = ss.get_window(window, n, fftbins=fftbins)
            text = spec[0] if len(spec) == 1 else f"{spec[0]},{spec[1]!r}"
            case = f"w{len(lines)}"
            np.save(os.path.join(out, case + ".npy"), w)
            lines.append(f"{case} {text} {n} {int(fftbins)}")
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
