#!/usr/bin/env python3
"""Writes scipy.signal reference results for ripple's IIR filtering tests.

Usage: make_golden.py OUT_DIR

Each case is a set of .npy files <case>.<part>.npy (x, sos or b/a, zi, y, zf) and one line in
OUT_DIR/cases.txt: "<function> <case> key=value ...". Deterministic (fixed seeds), a few seconds.
"""
import os
import sys

import numpy as np
import scipy.signal as ss

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
lines = []
rng = np.random.default_rng(20261121)


def save(case, **arrays):
    for part, value in arrays.items():
        np.save(os.path.join(out, f"{case}.{part}.npy"), np.ascontiguousarray(value))


def signal(shape, dtype):
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


# sosfilt: designs across orders, cutoffs and families, 1-D, float64 and float32.
designs = []
for order in range(1, 13):
    for wn in (1e-3, 0.01, 0.1, 0.45):
        designs.append((f"butter{order}_{wn}", ss.butter(order, wn, output="sos")))
        designs.append((f"cheby1_{order}_{wn}", ss.cheby1(order, 1.0, wn, output="sos")))
        designs.append((f"cheby2_{order}_{wn}", ss.cheby2(order, 40.0, wn, output="sos")))
designs.append(("butter4_bandpass", ss.butter(4, [0.1, 0.3], btype="bandpass", output="sos")))
designs.append(("cheby1_5_highpass", ss.cheby1(5, 0.5, 0.2, btype="highpass", output="sos")))
designs.append(("cheby2_6_bandstop", ss.cheby2(6, 30, [0.2, 0.25], btype="bandstop", output="sos")))
for name, sos in designs:
    x = signal(3000, np.float64)
    save(f"d_{name}", sos=sos, x=x, y=ss.sosfilt(sos, x))
    lines.append(f"sosfilt d_{name} axis=-1 zi=0")
    sos32 = sos.astype(np.float32)
    x32 = x.astype(np.float32)
    save(f"f_{name}", sos=sos32, x=x32, y=ss.sosfilt(sos32, x32))
    lines.append(f"sosfilt f_{name} axis=-1 zi=0")

# sosfilt: n-D shapes on every axis, with and without zi, real and complex.
sos = ss.butter(6, 0.15, output="sos")
for shape in ((2000,), (7, 900), (3, 4, 600), (600, 5)):
    for axis in range(-len(shape), len(shape)):
        for dtype in (np.float64, np.float32, np.complex128):
            tag = {np.float64: "f64", np.float32: "f32", np.complex128: "c128"}[dtype]
            case = f"nd_{'x'.join(map(str, shape))}_ax{axis}_{tag}"
            x = signal(shape, dtype)
            s = sos.astype(np.float32) if dtype == np.float32 else sos
            zi_shape = [s.shape[0]] + list(shape)
            zi_shape[axis % len(shape) + 1] = 2
            zi = signal(zi_shape, dtype)
            y, zf = ss.sosfilt(s, x, axis=axis, zi=zi)
            save(case, sos=s, x=x, zi=zi, y=y, zf=zf)
            lines.append(f"sosfilt {case} axis={axis} zi=1")
            y0 = ss.sosfilt(s, x, axis=axis)
            save(case + "_nozi", sos=s, x=x, y=y0)
            lines.append(f"sosfilt {case}_nozi axis={axis} zi=0")

# sosfilt_zi for several designs.
for name, sos in designs[::7]:
    save(f"zi_{name}", sos=sos, zi=ss.sosfilt_zi(sos))
    lines.append(f"sosfilt_zi zi_{name}")

# sosfiltfilt: padtypes and padlens, 1-D and 2-D on both axes.
for name, sos in (("b4", ss.butter(4, 0.1, output="sos")), ("c6", ss.cheby1(6, 1, 0.3, output="sos")),
                  ("b3z", ss.butter(3, 0.2, output="sos"))):
    for padtype in ("odd", "even", "constant", "none"):
        for padlen in (None, 0, 5, 40):
            pt = None if padtype == "none" else padtype
            for shape, axis in (((500,), -1), ((4, 300), 1), ((300, 4), 0)):
                x = signal(shape, np.float64)
                case = f"ff_{name}_{padtype}_{padlen}_{'x'.join(map(str, shape))}_ax{axis}"
                save(case, sos=sos, x=x, y=ss.sosfiltfilt(sos, x, axis=axis, padtype=pt, padlen=padlen))
                lines.append(f"sosfiltfilt {case} axis={axis} padtype={padtype} padlen={-1 if padlen is None else padlen}")

# lfilter: transfer functions of several orders, FIR, a[0] != 1, zi (broadcast too), n-D.
tfs = [("b1", ss.butter(1, 0.2)), ("b3", ss.butter(3, 0.1)), ("c5", ss.cheby1(5, 1, 0.3)),
       ("fir", (ss.firwin(15, 0.2), np.array([1.0]))), ("scaled", (np.array([0.5, 0.2, 0.1]), np.array([2.0, -0.4, 0.1]))),
       ("longb", (np.array([1.0, 0.5, 0.25, 0.125, 0.0625]), np.array([1.0, -0.3])))]
for name, (b, a) in tfs:
    order = max(len(a), len(b)) - 1
    for shape, axis in (((800,), -1), ((5, 400), 1), ((400, 3), 0), ((2, 3, 200), -1)):
        x = signal(shape, np.float64)
        case = f"lf_{name}_{'x'.join(map(str, shape))}_ax{axis}"
        save(case, b=b, a=a, x=x, y=ss.lfilter(b, a, x, axis=axis))
        lines.append(f"lfilter {case} axis={axis} zi=0")
        zi_shape = list(shape)
        zi_shape[axis % len(shape)] = order
        zi = signal(zi_shape, np.float64)
        y, zf = ss.lfilter(b, a, x, axis=axis, zi=zi)
        save(case + "_zi", b=b, a=a, x=x, zi=zi, y=y, zf=zf)
        lines.append(f"lfilter {case}_zi axis={axis} zi=1")
    if len(shape) == 3:  # zi broadcast over a length-1 dimension
        bshape = [1, 3, order]
        zi = signal(bshape, np.float64)
        x = signal((2, 3, 200), np.float64)
        y, zf = ss.lfilter(b, a, x, axis=-1, zi=zi)
        save(f"lf_{name}_bcast", b=b, a=a, x=x, zi=zi, y=y, zf=zf)
        lines.append(f"lfilter lf_{name}_bcast axis=-1 zi=1")
    save(f"lzi_{name}", b=b, a=a, zi=ss.lfilter_zi(b, a))
    lines.append(f"lfilter_zi lzi_{name}")

with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"{len(lines)} cases written to {out}")
