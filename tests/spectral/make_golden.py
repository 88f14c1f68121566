#!/usr/bin/env python3
"""scipy.signal.welch reference values for tests/spectral. Usage: make_golden.py OUT_DIR.

cases.txt lines: "<case> fs=.. window=<spec|values> nperseg=<n|none> noverlap=<n|none> nfft=<n|none>
detrend=<none|constant|linear> onesided=<0|1> scaling=<density|spectrum> average=<mean|median> axis=<a>";
files <case>.x.npy, <case>.f.npy, <case>.p.npy (and <case>.w.npy for explicit windows)."""
import os
import sys
import warnings

import numpy as np
import scipy.signal as ss

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
lines = []


def case(x, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant", onesided=True,
         scaling="density", average="mean", axis=-1):
    name = f"w{len(lines)}"
    if isinstance(window, np.ndarray):
        np.save(os.path.join(out, f"{name}.w.npy"), window)
        win_text, win = "values", window
    else:
        win_text = window
        win = window if "," not in window else (window.split(",")[0], float(window.split(",")[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f, p = ss.welch(x, fs=fs, window=win, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                        detrend=False if detrend == "none" else detrend, return_onesided=onesided,
                        scaling=scaling, average=average, axis=axis)
    for part, v in (("x", x), ("f", f), ("p", p)):
        np.save(os.path.join(out, f"{name}.{part}.npy"), np.ascontiguousarray(v))
    opt = lambda v: "none" if v is None else str(v)
    lines.append(f"{name} fs={fs!r} window={win_text} nperseg={opt(nperseg)} noverlap={opt(noverlap)} nfft={opt(nfft)} "
                 f"detrend={detrend} onesided={int(onesided)} scaling={scaling} average={average} axis={axis}")


x = rng.standard_normal(5000) + 0.5 * np.sin(0.3 * np.arange(5000)) + 0.001 * np.arange(5000)
case(x)
case(x, fs=48000.0, nperseg=512)
case(x, nperseg=300, noverlap=100, nfft=512)
case(x, nperseg=257, window="hamming", detrend="linear")
case(x, nperseg=128, detrend="none", scaling="spectrum")
case(x, nperseg=256, average="median")
case(x, nperseg=255, average="median", onesided=False)
case(x, nperseg=64, onesided=False, nfft=100)
case(x, window="kaiser,8.0", nperseg=200, noverlap=199)
case(x, window=ss.get_window("blackman", 333), noverlap=50)
case(x[:100])  # shorter than the default nperseg
case(x[:7], nperseg=7, noverlap=0)
case(rng.standard_normal((3, 2000)), nperseg=128, axis=-1)
case(rng.standard_normal((2000, 3)), nperseg=128, axis=0)
case(rng.standard_normal((2, 900, 2)), nperseg=100, axis=1, average="median")
case(rng.standard_normal(4096).astype(np.float32), nperseg=512)
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")

# spectrogram: "spectrogram <case> ..." lines in spectrogram.txt, files <case>.{x,f,t,s}.npy
spec_lines = []


def spec_case(x, **kw):
    name = f"s{len(spec_lines)}"
    f, t, s = ss.spectrogram(x, **kw)
    for part, v in (("x", x), ("f", f), ("t", t), ("s", s)):
        np.save(os.path.join(out, f"{name}.{part}.npy"), np.ascontiguousarray(v))
    spec_lines.append(f"{name} fs={kw.get('fs', 1.0)!r} nperseg={kw.get('nperseg', 'none')} "
                      f"noverlap={kw.get('noverlap', 'none')} nfft={kw.get('nfft', 'none')} axis={kw.get('axis', -1)} "
                      f"onesided={int(kw.get('return_onesided', True))}")


spec_case(rng.standard_normal(3000))
spec_case(rng.standard_normal(3000), fs=8000.0, nperseg=128, noverlap=64)
spec_case(rng.standard_normal(1000), nperseg=100, nfft=128, return_onesided=False)
spec_case(rng.standard_normal((2, 1500)), nperseg=200, axis=-1)
spec_case(rng.standard_normal((1500, 2)), nperseg=200, axis=0)
with open(os.path.join(out, "spectrogram.txt"), "w") as f:
    f.write("\n".join(spec_lines) + "\n")
