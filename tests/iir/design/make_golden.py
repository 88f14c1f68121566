#!/usr/bin/env python3
"""Reference values for the IIR design tests, from scipy.signal (and numpy for the RBJ cookbook).

Usage: make_golden.py OUT_DIR. Writes .npy files only (float64 / complex128: the formats
ripple's npy reader takes). Deterministic (fixed seeds) and fast (about a second).

Case tables are float64 matrices whose columns are documented next to each writer below; the
C++ tests (design_test_util.hpp) read the same columns. Variable-length results (sections,
zeros, poles, polynomials) are concatenated in one array per quantity, with each case's offset
and count in its table row.
"""
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy import signal

OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)

KINDS = ("butter", "cheby1", "cheby2")
BTYPES = ("lowpass", "highpass", "bandpass", "bandstop")
PAIRINGS = ("nearest", "keep_odd", "minimal")
# Ripple / attenuation (dB) per kind: cheby1 takes rp, cheby2 takes rs; butter has none.
RIPPLE = {"butter": 0.0, "cheby1": 0.5, "cheby2": 40.0}


def save(name, array):
    np.save(OUT / f"{name}.npy", np.ascontiguousarray(array))


class Packed:
    """Concatenates variable-length arrays; offset() returns where the next one starts."""

    def __init__(self, dtype, width=None):
        self.parts, self.count, self.dtype, self.width = [], 0, dtype, width

    def add(self, values):
        values = np.asarray(values, dtype=self.dtype)
        if self.width is not None:
            values = values.reshape(-1, self.width)
        start = self.count
        self.parts.append(values)
        self.count += values.shape[0]
        return start, values.shape[0]

    def array(self):
        if not self.parts:
            shape = (0, self.width) if self.width else (0,)
            return np.zeros(shape, self.dtype)
        return np.concatenate(self.parts)


def design(kind, order, wn, btype, fs, output):
    if kind == "butter":
        return signal.butter(order, wn, btype, output=output, fs=fs)
    if kind == "cheby1":
        return signal.cheby1(order, RIPPLE[kind], wn, btype, output=output, fs=fs)
    return signal.cheby2(order, RIPPLE[kind], wn, btype, output=output, fs=fs)


def design_cases():
    """(kind, order, btype, wn, fs) for every design compared with scipy."""
    single = (1e-3, 3e-3, 0.01, 0.05, 0.1, 0.25, 0.45, 0.7, 0.9)
    bands = ((1e-3, 2e-3), (1e-3, 0.45), (0.01, 0.05), (0.1, 0.3), (0.2, 0.45), (0.45, 0.9))
    cases = []
    for kind in KINDS:
        for order in range(1, 13):
            for btype in BTYPES:
                for wn in (single if btype in ("lowpass", "highpass") else bands):
                    cases.append((kind, order, btype, wn, None))
    # With a sample rate: Wn in the units of fs.
    for kind in KINDS:
        for order in (1, 2, 5, 8):
            cases.append((kind, order, "lowpass", 100.0, 1000.0))
            cases.append((kind, order, "highpass", 20.0, 44100.0))
            cases.append((kind, order, "bandpass", (300.0, 3400.0), 8000.0))
            cases.append((kind, order, "bandstop", (49.0, 51.0), 500.0))
    return cases


def write_designs():
    """design_cases: [kind, order, btype, wn0, wn1 (0 if none), fs (0 if none), sos offset,
    sos rows, zpk z offset, z count, p offset, p count, k]; design_sos (rows, 6); design_z,
    design_p complex; plus the transfer functions: design_tf_cases [b offset, b count, a offset,
    a count] and design_b, design_a for orders <= 6 (higher ones are too ill-conditioned to
    compare coefficient by coefficient), one row per design case (counts 0 when absent)."""
    table, tf_table = [], []
    sos_all, z_all, p_all = Packed(np.float64, 6), Packed(np.complex128), Packed(np.complex128)
    b_all, a_all = Packed(np.float64), Packed(np.float64)
    for kind, order, btype, wn, fs in design_cases():
        # iirfilter's output='sos' and 'ba' are zpk2sos / zpk2tf of its 'zpk' output.
        z, p, k = design(kind, order, wn, btype, fs, "zpk")
        sos = signal.zpk2sos(z, p, k)
        wn_pair = (wn, 0.0) if np.isscalar(wn) else wn
        so, sn = sos_all.add(sos)
        zo, zn = z_all.add(z)
        po, pn = p_all.add(p)
        table.append([KINDS.index(kind), order, BTYPES.index(btype), wn_pair[0], wn_pair[1],
                      fs or 0.0, so, sn, zo, zn, po, pn, k])
        if order <= 6:
            b, a = signal.zpk2tf(z, p, k)
            bo, bn = b_all.add(b)
            ao, an = a_all.add(a)
            tf_table.append([bo, bn, ao, an])
        else:
            tf_table.append([0, 0, 0, 0])
    save("design_cases", np.array(table, dtype=np.float64))
    save("design_sos", sos_all.array())
    save("design_z", z_all.array())
    save("design_p", p_all.array())
    save("design_tf_cases", np.array(tf_table, dtype=np.float64))
    save("design_b", b_all.array())
    save("design_a", a_all.array())


def random_roots(rng, n_pairs, n_real):
    pairs = rng.uniform(0.1, 1.2, n_pairs) * np.exp(1j * rng.uniform(0.05, np.pi - 0.05, n_pairs))
    reals = rng.uniform(-1.2, 1.2, n_real)
    roots = np.concatenate([pairs, pairs.conj(), reals.astype(complex)])
    return rng.permutation(roots)


def write_zpk2sos():
    """zpk2sos_cases: [pairing, z offset, z count, p offset, p count, k, sos offset, sos rows];
    zpk2sos_z, zpk2sos_p complex; zpk2sos_sos (rows, 6). Random systems with every mix of
    conjugate pairs and real roots, and designed systems, each with every pairing scipy
    accepts (minimal needs at least as many poles as zeros)."""
    rng = np.random.default_rng(20240603)
    systems = []
    for n_zp in range(0, 4):
        for n_zr in range(0, 4):
            for n_pp in range(0, 4):
                for n_pr in range(0, 4):
                    if n_zp + n_zr + n_pp + n_pr == 0:
                        continue
                    z = random_roots(rng, n_zp, n_zr)
                    p = random_roots(rng, n_pp, n_pr)
                    systems.append((z, p, rng.uniform(0.1, 3.0)))
    for kind, order, btype, wn in (("butter", 5, "lowpass", 0.2), ("cheby1", 4, "bandpass", (0.1, 0.3)),
                                   ("cheby2", 7, "highpass", 0.05), ("cheby2", 3, "bandstop", (0.2, 0.6)),
                                   ("butter", 1, "lowpass", 0.5), ("cheby1", 9, "lowpass", 0.01)):
        systems.append(design(kind, order, wn, btype, None, "zpk"))
    systems.append((np.array([]), np.array([]), 2.5))  # no roots: one gain-only section
    systems.append((np.array([-1, -0.5 - 0.5j, -0.5 + 0.5j]), np.array([0.75, 0.8 + 0.1j, 0.8 - 0.1j]), 1.0))

    table = []
    z_all, p_all, sos_all = Packed(np.complex128), Packed(np.complex128), Packed(np.float64, 6)
    for z, p, k in systems:
        for pairing in PAIRINGS:
            if pairing == "minimal" and len(z) > len(p):
                continue
            try:
                sos = signal.zpk2sos(z, p, k, pairing=pairing)
            except (AssertionError, IndexError, ValueError):
                continue  # scipy cannot pair this mix; not a reference
            zo, zn = z_all.add(z)
            po, pn = p_all.add(p)
            so, sn = sos_all.add(sos)
            table.append([PAIRINGS.index(pairing), zo, zn, po, pn, k, so, sn])
    save("zpk2sos_cases", np.array(table, dtype=np.float64))
    save("zpk2sos_z", z_all.array())
    save("zpk2sos_p", p_all.array())
    save("zpk2sos_sos", sos_all.array())


def separated(roots):
    """True when no two roots are within 1e-3 of each other (no repeated roots)."""
    roots = np.asarray(roots)
    d = np.abs(roots[:, None] - roots[None, :]) + np.eye(len(roots))
    return len(roots) < 2 or d.min() > 1e-3


def write_tf_conversions():
    """tf_cases: [b offset, b count, a offset, a count, sos offset, sos rows, simple roots]
    with tf_b, tf_a and tf_sos = scipy's tf2sos(b, a): designed transfer functions of orders
    1..8 plus random ones with roots in |x| < 1.2. "Simple roots" is 1 when no zero and no pole
    is repeated (cheby2 and random systems): their roots are well conditioned. Butterworth and
    Chebyshev I have zeros of multiplicity N at -1 (and +1), which any root finder only gets to
    about eps^(1/N), differently from LAPACK.
    sos2tf_cases: [sos offset, rows, b offset, b count, a offset, a count] with sos2tf_sos,
    sos2tf_b, sos2tf_a = scipy's sos2tf(sos) of designed sections."""
    rng = np.random.default_rng(7)
    systems = []
    for kind in KINDS:
        for order in range(1, 9):
            systems.append(design(kind, order, 0.3, "lowpass", None, "zpk"))
            systems.append(design(kind, min(order, 4), (0.2, 0.5), "bandpass", None, "zpk"))
    for n in range(1, 9):
        z = random_roots(rng, n // 2, n % 2)
        p = random_roots(rng, n // 2, n % 2) * 0.9
        systems.append((z, p, rng.uniform(0.5, 2)))
    table = []
    b_all, a_all, sos_all = Packed(np.float64), Packed(np.float64), Packed(np.float64, 6)
    for z, p, k in systems:
        b, a = signal.zpk2tf(z, p, k)
        sos = signal.tf2sos(b, a)
        bo, bn = b_all.add(b)
        ao, an = a_all.add(a)
        so, sn = sos_all.add(sos)
        table.append([bo, bn, ao, an, so, sn, separated(z) and separated(p)])
    save("tf_cases", np.array(table, dtype=np.float64))
    save("tf_b", b_all.array())
    save("tf_a", a_all.array())
    save("tf_sos", sos_all.array())

    table = []
    sos_all, b_all, a_all = Packed(np.float64, 6), Packed(np.float64), Packed(np.float64)
    for kind in KINDS:
        for order in (1, 2, 3, 6, 10, 12):
            for btype, wn in (("lowpass", 0.1), ("bandstop", (0.2, 0.4))):
                sos = design(kind, order, wn, btype, None, "sos")
                b, a = signal.sos2tf(sos)
                so, sn = sos_all.add(sos)
                bo, bn = b_all.add(b)
                ao, an = a_all.add(a)
                table.append([so, sn, bo, bn, ao, an])
    save("sos2tf_cases", np.array(table, dtype=np.float64))
    save("sos2tf_sos", sos_all.array())
    save("sos2tf_b", b_all.array())
    save("sos2tf_a", a_all.array())


def write_sosfreqz():
    """sosfreqz_cases: [sos offset, rows, mode (0 count, 1 explicit), n or frequency count,
    whole, fs (0 = default 2 pi), frequency offset, result offset]; sosfreqz_sos,
    sosfreqz_freqs (explicit frequencies), sosfreqz_w, sosfreqz_h."""
    filters = [signal.butter(4, 0.2, output="sos"), signal.cheby1(7, 1.0, (0.1, 0.4), "bandpass", output="sos"),
               signal.cheby2(12, 60.0, 0.01, output="sos"), signal.butter(3, 1000.0, "highpass", fs=48000.0, output="sos")]
    table = []
    sos_all, f_all, w_all, h_all = Packed(np.float64, 6), Packed(np.float64), Packed(np.float64), Packed(np.complex128)
    for sos in filters:
        so, sn = sos_all.add(sos)
        for n, whole, fs in ((512, False, None), (1, False, None), (7, True, None), (100, False, 48000.0),
                             (33, True, 1000.0), (0, False, None)):
            kwargs = {} if fs is None else {"fs": fs}
            w, h = signal.sosfreqz(sos, worN=n, whole=whole, **kwargs)
            wo, _ = w_all.add(w)
            h_all.add(h)
            table.append([so, sn, 0, n, whole, fs or 0.0, 0, wo])
        for freqs, fs in ((np.array([0.0, 0.1, 1.0, np.pi, 3.0]), None), (np.array([0.0, 50.0, 1000.0, 23999.0]), 48000.0)):
            kwargs = {} if fs is None else {"fs": fs}
            w, h = signal.sosfreqz(sos, worN=freqs, **kwargs)
            fo, fn = f_all.add(freqs)
            wo, _ = w_all.add(w)
            h_all.add(h)
            table.append([so, sn, 1, fn, 0, fs or 0.0, fo, wo])
    save("sosfreqz_cases", np.array(table, dtype=np.float64))
    save("sosfreqz_sos", sos_all.array())
    save("sosfreqz_freqs", f_all.array())
    save("sosfreqz_w", w_all.array())
    save("sosfreqz_h", h_all.array())

    # freqz of a transfer function: [b offset, b count, a offset, a count, n, whole, fs, result offset].
    table = []
    b_all, a_all, w_all, h_all = Packed(np.float64), Packed(np.float64), Packed(np.float64), Packed(np.complex128)
    tfs = (signal.butter(3, 0.3), signal.cheby1(5, 0.5, (0.2, 0.3), "bandpass"), (np.array([1.0, 2.0, 1.0]), np.array([1.0])))
    for b, a in tfs:
        bo, bn = b_all.add(b)
        ao, an = a_all.add(a)
        for n, whole, fs in ((64, False, None), (9, True, 100.0)):
            kwargs = {} if fs is None else {"fs": fs}
            w, h = signal.freqz(b, a, worN=n, whole=whole, **kwargs)
            wo, _ = w_all.add(w)
            h_all.add(h)
            table.append([bo, bn, ao, an, n, whole, fs or 0.0, wo])
    save("freqz_cases", np.array(table, dtype=np.float64))
    save("freqz_b", b_all.array())
    save("freqz_a", a_all.array())
    save("freqz_w", w_all.array())
    save("freqz_h", h_all.array())


RBJ_TYPES = ("lowpass", "highpass", "bandpass", "notch", "allpass", "peaking", "low_shelf", "high_shelf")


def rbj(kind, f0, fs, q, gain_db):
    """The Audio EQ Cookbook, written independently of the C++ (numpy, direct formulas)."""
    w0 = 2 * np.pi * f0 / fs
    cw, sw = np.cos(w0), np.sin(w0)
    alpha = sw / (2 * q)
    A = 10 ** (gain_db / 40)
    if kind == "lowpass":
        b, a = [(1 - cw) / 2, 1 - cw, (1 - cw) / 2], [1 + alpha, -2 * cw, 1 - alpha]
    elif kind == "highpass":
        b, a = [(1 + cw) / 2, -(1 + cw), (1 + cw) / 2], [1 + alpha, -2 * cw, 1 - alpha]
    elif kind == "bandpass":
        b, a = [alpha, 0, -alpha], [1 + alpha, -2 * cw, 1 - alpha]
    elif kind == "notch":
        b, a = [1, -2 * cw, 1], [1 + alpha, -2 * cw, 1 - alpha]
    elif kind == "allpass":
        b, a = [1 - alpha, -2 * cw, 1 + alpha], [1 + alpha, -2 * cw, 1 - alpha]
    elif kind == "peaking":
        b, a = [1 + alpha * A, -2 * cw, 1 - alpha * A], [1 + alpha / A, -2 * cw, 1 - alpha / A]
    elif kind == "low_shelf":
        s = 2 * np.sqrt(A) * alpha
        b = [A * ((A + 1) - (A - 1) * cw + s), 2 * A * ((A - 1) - (A + 1) * cw), A * ((A + 1) - (A - 1) * cw - s)]
        a = [(A + 1) + (A - 1) * cw + s, -2 * ((A - 1) + (A + 1) * cw), (A + 1) + (A - 1) * cw - s]
    else:
        s = 2 * np.sqrt(A) * alpha
        b = [A * ((A + 1) + (A - 1) * cw + s), -2 * A * ((A - 1) + (A + 1) * cw), A * ((A + 1) + (A - 1) * cw - s)]
        a = [(A + 1) - (A - 1) * cw + s, 2 * ((A - 1) - (A + 1) * cw), (A + 1) - (A - 1) * cw - s]
    b, a = np.array(b, float), np.array(a, float)
    return np.concatenate([b / a[0], a / a[0]])


def write_rbj():
    """rbj_cases: [type, f0, fs, Q, gain_db]; rbj_sos (cases, 6)."""
    table, rows = [], []
    for t, kind in enumerate(RBJ_TYPES):
        for fs in (8000.0, 44100.0, 96000.0):
            for f0 in (20.0, 1000.0, 3900.0):
                for q in (0.1, 1 / np.sqrt(2), 4.0, 30.0):
                    for gain in ((-24.0, -3.0, 0.0, 6.0, 18.0) if t >= 5 else (0.0,)):
                        table.append([t, f0, fs, q, gain])
                        rows.append(rbj(kind, f0, fs, q, gain))
    save("rbj_cases", np.array(table, dtype=np.float64))
    save("rbj_sos", np.array(rows, dtype=np.float64))


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # BadCoefficients from high-order 'ba' designs
        write_designs()
        write_zpk2sos()
        write_tf_conversions()
        write_sosfreqz()
        write_rbj()


main()
