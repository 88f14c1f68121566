/* The element-wise steps of Bluestein's algorithm on the GPU (sizes with a prime factor above 13,
   src/gpu/device_fft_bluestein.cpp). With c[j] = e^{dir pi i j^2 / N}, the DFT of size N is
     X[k] = c[k] sum_j (x[j] c[j]) conj(c[k - j]),
   a cyclic convolution of length M >= 2N - 1 (M 13-smooth) done by two FFTs of M:
     fft_chirp_in    work[b M + j] = x[base + b dist + j stride] c[j]  (j < N; 0 up to M)
     (forward FFT of M on work)
     fft_pointwise   work[b M + j] *= S[j]: S the spectrum of the extended conj(c), over M
     (backward FFT of M on work)
     fft_chirp_out   y[base + b dist + k stride] = scale c[k] work[b M + k]  (k < N)
   The host tables (in long double, rounded once) hold the forward chirp's conjugate
   (cos, sin)(pi j^2 / N) and the spectrum for the forward direction; the backward direction
   uses their conjugates (the extended chirp is symmetric, so its spectrum is too), so dir
   (-1 forward, +1 backward) picks both. Compiled after dialect.h; one work-item an element,
   grid-stride loops. */

DEVICE_FN complex_t fft_chirp(GLOBAL const complex_t* chirp, u64 j, real_t dir) {
  const complex_t c = chirp[j];
  return cmake(c.x, dir * c.y);
}

KERNEL fft_chirp_in(GLOBAL const complex_t* in, GLOBAL complex_t* work, GLOBAL const complex_t* chirp, u64 n, u64 m,
                    u64 batch, i64 in_base, i64 in_stride, i64 in_dist, real_t dir) {
  const u64 total = batch * m, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / m, j = g % m;
    work[g] = j < n ? cmul(in[in_base + (i64)b * in_dist + (i64)j * in_stride], fft_chirp(chirp, j, dir))
                    : cmake((real_t)0, (real_t)0);
  }
}

KERNEL fft_pointwise(GLOBAL complex_t* work, GLOBAL const complex_t* spectrum, u64 m, u64 batch, real_t dir) {
  const u64 total = batch * m, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const complex_t s = spectrum[g % m];
    work[g] = cmul(work[g], cmake(s.x, -dir * s.y));
  }
}

KERNEL fft_chirp_out(GLOBAL const complex_t* work, GLOBAL complex_t* out, GLOBAL const complex_t* chirp, u64 n, u64 m,
                     u64 batch, i64 out_base, i64 out_stride, i64 out_dist, real_t dir, real_t scale) {
  const u64 total = batch * n, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / n, k = g % n;
    out[out_base + (i64)b * out_dist + (i64)k * out_stride] = cscale(cmul(work[b * m + k], fft_chirp(chirp, k, dir)), scale);
  }
}
