/* The element-wise steps of Bluestein's algorithm on the GPU for sizes whose convolution does
   not fit one kernel (src/gpu/device_fft_bluestein.cpp; fft_chirp.h has the algorithm and the
   tables):
     fft_chirp_in    work[b M + j] = x[base + b dist + j stride] c[j]  (j < N; 0 up to M)
     (forward FFT of M on work)
     fft_pointwise   work[b M + j] *= S[j]: S the spectrum of the chirp kernel
     (backward FFT of M on work)
     fft_chirp_out   y[base + b dist + k stride] = scale c[k] work[b M + k]  (k < N)
   Compiled after dialect.h and fft_chirp.h; one work-item an element, grid-stride loops. */

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
    work[g] = cmul(work[g], fft_chirp_spectrum(spectrum, g % m, dir));
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
