#!/usr/bin/env python3
"""Cross-checks the `ripple` program against numpy: `ripple fft` results against numpy.fft,
and ripple's .npy reader and writer against numpy's (numpy writes the inputs, including
Fortran-order, big-endian and version 2.0 files; numpy reads ripple's outputs).

Usage: numpy_check.py PATH_TO_RIPPLE. Exits 77 (CTest: skipped) when numpy is not importable.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("numpy is not importable; skipping the numpy cross-check")
    sys.exit(77)

RIPPLE = sys.argv[1]
rng = np.random.default_rng(20240521)


def crandom(shape, dtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def rrandom(shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def save_v2(path, array):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=(2, 0))


# (name, input array, ripple arguments, numpy reference, expected output dtype)
CASES = [
    ("c64 fft", crandom((3, 40), np.complex64), [], np.fft.fft, np.complex64),
    ("c128 fft, prime length", crandom((97,), np.complex128), [], np.fft.fft, np.complex128),
    ("c128 fft 3-d batch", crandom((2, 3, 64), np.complex128), [], np.fft.fft, np.complex128),
    ("c128 ifft ortho", crandom((4, 30), np.complex128), ["--inverse", "--norm", "ortho"],
     lambda a: np.fft.ifft(a, norm="ortho"), np.complex128),
    ("c64 ifft forward", crandom((5, 12), np.complex64), ["-i", "--norm", "forward"],
     lambda a: np.fft.ifft(a, norm="forward"), np.complex64),
    ("c64 fft n=50 (padded)", crandom((2, 40), np.complex64), ["--n", "50"],
     lambda a: np.fft.fft(a, n=50), np.complex64),
    ("f32 rfft", rrandom((6, 100), np.float32), [], np.fft.rfft, np.complex64),
    ("f64 rfft odd", rrandom((3, 45), np.float64), [], np.fft.rfft, np.complex128),
    ("f64 rfft n=50 forward", rrandom((3, 64), np.float64), ["--n", "50", "--norm", "forward"],
     lambda a: np.fft.rfft(a, n=50, norm="forward"), np.complex128),
    ("c128 irfft", crandom((3, 17), np.complex128), ["--real-output"], np.fft.irfft, np.float64),
    ("c64 irfft n=33 ortho", crandom((2, 17), np.complex64), ["-r", "--n", "33", "--norm", "ortho"],
     lambda a: np.fft.irfft(a, n=33, norm="ortho"), np.float32),
    ("Fortran-order input", np.asfortranarray(crandom((8, 6), np.complex128)), [], np.fft.fft,
     np.complex128),
    ("big-endian input", crandom((4, 10), np.complex128).astype(">c16"), [], np.fft.fft, np.complex128),
    ("big-endian real input", rrandom((16,), np.float32).astype(">f4"), [], np.fft.rfft, np.complex64),
]


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, array, args, reference, out_dtype) in enumerate(CASES):
            src = os.path.join(tmp, f"in{index}.npy")
            dst = os.path.join(tmp, f"out{index}.npy")
            if index % 2:
                save_v2(src, array)  # every other input in format version 2.0
            else:
                np.save(src, array)
            run = subprocess.run([RIPPLE, "fft", src, dst, *args], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL {name}: exit {run.returncode}: {run.stderr.strip()}")
                failures += 1
                continue
            got = np.load(dst)
            want = reference(array.astype(array.dtype.newbyteorder("=")))
            tol = 2e-6 if out_dtype in (np.complex64, np.float32) else 1e-12
            error = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-300)
            ok = got.dtype == out_dtype and got.shape == want.shape and error <= tol
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {array.dtype.str}{array.shape} -> "
                  f"{got.dtype.str}{got.shape}, relative error {error:.2e} (tolerance {tol:.0e})")
            failures += not ok
    print(f"{len(CASES) - failures} of {len(CASES)} cases agree with numpy {np.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
