#!/usr/bin/env python3
"""scipy.signal.welch, spectrogram and stft reference values for tests/spectral.
Usage: make_golden.py OUT_DIR.

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
iq = rng.standard_normal(3000) + 1j * rng.standard_normal(3000) + np.exp(0.7j * np.arange(3000))
case(iq, nperseg=256)  # complex data: two-sided
case(iq.astype(np.complex64), nperseg=128, detrend="linear", scaling="spectrum")
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")

# spectrogram: "spectrogram <case> ..." lines in spectrogram.txt, files <case>.{x,f,t,s}.npy
spec_lines = []


def spec_case(x, **kw):
    name = f"s{len(spec_lines)}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f, t, s = ss.spectrogram(x, **kw)
    for part, v in (("x", x), ("f", f), ("t", t), ("s", s)):
        np.save(os.path.join(out, f"{name}.{part}.npy"), np.ascontiguousarray(v))
    spec_lines.append(f"{name} fs={kw.get('fs', 1.0)!r} nperseg={kw.get('nperseg', 'none')} "
                      f"noverlap={kw.get('noverlap', 'none')} nfft={kw.get('nfft', 'none')} axis={kw.get('axis', -1)} "
                      f"onesided={int(kw.get('return_onesided', True))} mode={kw.get('mode', 'psd')} "
                      f"detrend={kw.get('detrend', 'constant') or 'none'}")


spec_case(rng.standard_normal(3000))
spec_case(rng.standard_normal(3000), fs=8000.0, nperseg=128, noverlap=64)
spec_case(rng.standard_normal(1000), nperseg=100, nfft=128, return_onesided=False)
spec_case(rng.standard_normal((2, 1500)), nperseg=200, axis=-1)
spec_case(rng.standard_normal((1500, 2)), nperseg=200, axis=0)
chirp = ss.chirp(np.arange(4000) / 4000.0, 50, 1.0, 900) + 0.1 * rng.standard_normal(4000)
for mode in ("complex", "magnitude", "angle", "phase"):
    spec_case(chirp, fs=4000.0, nperseg=256, mode=mode)
spec_case(rng.standard_normal((2, 800, 2)), nperseg=100, axis=1, mode="phase", return_onesided=False)
spec_case(iq, fs=2.4e6, nperseg=256, noverlap=0)  # complex data: two-sided psd
spec_case(iq.astype(np.complex64), nperseg=128, mode="magnitude", detrend=False)
with open(os.path.join(out, "spectrogram.txt"), "w") as f:
    f.write("\n".join(spec_lines) + "\n")

# stft: "<case> ..." lines in stft.txt, files <case>.{x,f,t,z}.npy
stft_lines = []


def stft_case(x, **kw):
    name = f"t{len(stft_lines)}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f, t, z = ss.stft(x, **kw)
    for part, v in (("x", x), ("f", f), ("t", t), ("z", z)):
        np.save(os.path.join(out, f"{name}.{part}.npy"), np.ascontiguousarray(v))
    stft_lines.append(f"{name} fs={kw.get('fs', 1.0)!r} window={kw.get('window', 'hann')} "
                      f"nperseg={kw.get('nperseg', 256)} noverlap={kw.get('noverlap', 'none')} "
                      f"nfft={kw.get('nfft', 'none')} axis={kw.get('axis', -1)} "
                      f"onesided={int(kw.get('return_onesided', True))} boundary={kw.get('boundary', 'zeros')} "
                      f"padded={int(kw.get('padded', True))} scaling={kw.get('scaling', 'spectrum')} "
                      f"detrend={kw.get('detrend', False) or 'none'}")


stft_case(chirp)
stft_case(chirp, fs=4000.0, nperseg=255, noverlap=200, nfft=300)
for boundary in ("even", "odd", "constant", None):
    stft_case(chirp[:1001], nperseg=64, boundary=boundary)
stft_case(chirp[:1001], nperseg=64, boundary=None, padded=False)
stft_case(chirp[:50], nperseg=64)  # shorter than a segment
stft_case(chirp, nperseg=128, scaling="psd", detrend="linear", return_onesided=False)
stft_case(rng.standard_normal((3, 500)).astype(np.float32), nperseg=50, window="hamming")
stft_case(rng.standard_normal((500, 2)), nperseg=60, axis=0)
stft_case(iq, nperseg=100, noverlap=75)
with open(os.path.join(out, "stft.txt"), "w") as f:
    f.write("\n".join(stft_lines) + "\n")
