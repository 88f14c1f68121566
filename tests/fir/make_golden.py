#!/usr/bin/env python3
"""scipy.signal.firwin / kaiserord reference values for tests/fir. Usage: make_golden.py OUT_DIR.

cases.txt lines: "firwin <case> numtaps=<n> cutoff=<c1,c2..> window=<spec> pass_zero=<...> scale=<0|1>
fs=<fs or none> width=<w or none>" and "kaiserord <case> ripple=<r> width=<w>"."""
import os
import sys

import numpy as np
import scipy.signal as ss

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
lines = []


def firwin_case(numtaps, cutoff, window="hamming", pass_zero=True, scale=True, fs=None, width=None):
    win = window if "," not in window else (window.split(",")[0], float(window.split(",")[1]))
    h = ss.firwin(numtaps, cutoff, window=win, pass_zero=pass_zero, scale=scale, fs=fs, width=width)
    case = f"f{len(lines)}"
    np.save(os.path.join(out, case + ".npy"), h)
    cut = ",".join(repr(float(c)) for c in np.atleast_1d(cutoff))
    pz = {True: "yes", False: "no"}.get(pass_zero, pass_zero)
    lines.append(f"firwin {case} numtaps={numtaps} cutoff={cut} window={window} pass_zero={pz} scale={int(scale)} "
                 f"fs={'none' if fs is None else repr(fs)} width={'none' if width is None else repr(width)}")


for numtaps in (1, 3, 15, 16, 79, 101, 801):
    for c in (0.01, 0.1, 0.45, 0.9):
        if numtaps == 1 and c > 0:
            firwin_case(1, c)
            continue
        firwin_case(numtaps, c)
        if numtaps % 2 == 1:
            firwin_case(numtaps, c, pass_zero=False)
            firwin_case(numtaps, c, pass_zero="highpass", window="blackman")
for window in ("hann", "blackmanharris", "kaiser,8.6", "boxcar", "tukey,0.3", "flattop", "triang"):
    firwin_case(63, [0.2, 0.4], window=window, pass_zero="bandpass")
    firwin_case(63, [0.2, 0.4], window=window, pass_zero="bandstop")
firwin_case(81, [0.1, 0.2, 0.5, 0.7], pass_zero=False)
firwin_case(81, [0.1, 0.2, 0.5, 0.7], pass_zero=True, scale=False)
firwin_case(79, 20000.0, fs=192000.0)
firwin_case(101, [1000.0, 3000.0], fs=48000.0, width=500.0, pass_zero="bandpass")
firwin_case(101, 0.3, width=0.05)
for ripple, width in ((8, 0.1), (21, 0.05), (40, 0.01), (60, 0.02), (80, 0.001), (-65, 0.2)):
    n, beta = ss.kaiserord(ripple, width)
    case = f"k{len(lines)}"
    np.save(os.path.join(out, case + ".npy"), np.array([n, beta], dtype=np.float64))
    lines.append(f"kaiserord {case} ripple={ripple!r} width={width!r}")
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
