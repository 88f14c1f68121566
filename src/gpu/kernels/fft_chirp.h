/* Bluestein's tables as the host stores them (src/gpu/device_fft_bluestein.cpp), read by the
   one-kernel transform with his steps fused in (fft_c2c.cl with FFT_BLUESTEIN_N): his whole DFT
   in one kernel, or the passes of a longer convolution. With c[j] = e^{dir pi i j^2 / N}, the DFT of N is
     X[k] = c[k] sum_j (x[j] c[j]) conj(c[k - j]),
   a cyclic convolution of length M >= 2N - 1: the chirp table holds the forward chirp's conjugate
   (cos, sin)(pi j^2 / N), j < N, the spectrum table the DFT of M of the extended conj(c) for the
   forward direction, scaled by 1/M. The backward direction uses their conjugates (the extended
   chirp is symmetric, so its spectrum is too), so dir (-1 forward, +1 backward) picks both.
   Compiled after dialect.h. */
#ifndef RIPPLE_FFT_CHIRP_H
#define RIPPLE_FFT_CHIRP_H

/* c[j] for the direction dir. */
DEVICE_FN complex_t fft_chirp(GLOBAL const complex_t* chirp, u64 j, real_t dir) {
  const complex_t c = chirp[j];
  return cmake(c.x, dir * c.y);
}

/* Entry j of the chirp kernel's spectrum for the direction dir. */
DEVICE_FN complex_t fft_chirp_spectrum(GLOBAL const complex_t* spectrum, u64 j, real_t dir) {
  const complex_t s = spectrum[j];
  return cmake(s.x, -dir * s.y);
}

#endif
