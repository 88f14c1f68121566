/* Real-input (r2c) and real-output (c2r) FFTs of even N = 2H through complex FFTs of H
   (src/gpu/device_fft_real.cpp). The reals x[2j], x[2j+1] are the parts of z[j], j < H; with Z
   the FFT of z (size H), W = e^{-2 pi i / N} and
     Fe[k] = (Z[k] + conj Z[H-k]) / 2,  Fo[k] = (Z[k] - conj Z[H-k]) / (2i)   (Z[H] = Z[0]):
       r2c   X[k] = Fe[k] + W^k Fo[k],  k <= H
       c2r   Z[k] = (X[k] + conj X[H-k]) + i W^-k (X[k] - conj X[H-k]),  k < H,
             then z = the unnormalized backward FFT of Z holds x[2j] + i x[2j+1]
   (the imaginary parts of X[0] and X[H] are ignored, as numpy.fft.irfft does). The table holds
   W^k for k <= H, computed in long double and rounded once. Reals are at
   line_at(b) + i * stride; complex values at line_at(b) + k * stride (elements of their types),
   line_at(b) = offset + (b / inner) dist_outer + (b % inner) dist: one level of batch (inner =
   batch), or two (the rows of a multi-dimensional array), from a base the caller loops over
   where lines lie in a third. Compiled after dialect.h; one work-item an
   element, grid-stride loops. */

DEVICE_FN i64 line_at(u64 b, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  return offset + (i64)(b / inner) * dist_outer + (i64)(b % inner) * dist;
}

/* z[b H + j] = x[2j] + i x[2j+1] of transform b (layouts the complex FFT cannot read directly). */
KERNEL fft_r2c_pack(GLOBAL const real_t* in, GLOBAL complex_t* z, u64 h, u64 batch,
                    i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  const u64 total = batch * h, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / h, j = g % h;
    const i64 at = line_at(b, dist, inner, dist_outer, offset) + (i64)(2 * j) * stride;
    z[g] = cmake(in[at], in[at + stride]);
  }
}

KERNEL fft_r2c_post(GLOBAL const complex_t* z, GLOBAL complex_t* out, GLOBAL const complex_t* tw, u64 h, u64 batch,
                    i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset, real_t scale) {
  const u64 total = batch * (h + 1), step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / (h + 1), k = g % (h + 1);
    const complex_t zk = z[b * h + k % h], zc = cconj(z[b * h + (h - k) % h]);
    const complex_t s = cadd(zk, zc), d = csub(zk, zc);
    const complex_t fo = cmake(d.y, -d.x); /* (zk - zc) / i, times 2 */
    const complex_t x = cadd(s, cmul(tw[k], fo));
    out[line_at(b, dist, inner, dist_outer, offset) + (i64)k * stride] = cscale(x, (real_t)0.5 * scale);
  }
}

KERNEL fft_c2r_pre(GLOBAL const complex_t* in, GLOBAL complex_t* z, GLOBAL const complex_t* tw, u64 h, u64 batch,
                   i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset, real_t scale) {
  const u64 total = batch * h, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / h, k = g % h;
    const i64 base = line_at(b, dist, inner, dist_outer, offset);
    complex_t xk = in[base + (i64)k * stride], xh = in[base + (i64)(h - k) * stride];
    if (k == 0) { /* X[0] and X[H] are real */
      xk.y = (real_t)0;
      xh.y = (real_t)0;
    }
    const complex_t xc = cconj(xh);
    const complex_t s = cadd(xk, xc), d = cmul(cconj(tw[k]), csub(xk, xc));
    z[g] = cscale(cmake(s.x - d.y, s.y + d.x), scale); /* s + i d */
  }
}

/* x[2j] = Re z[b H + j], x[2j+1] = Im z[b H + j] (layouts the complex FFT cannot write directly). */
KERNEL fft_c2r_unpack(GLOBAL const complex_t* z, GLOBAL real_t* out, u64 h, u64 batch,
                      i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  const u64 total = batch * h, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / h, j = g % h;
    const i64 at = line_at(b, dist, inner, dist_outer, offset) + (i64)(2 * j) * stride;
    const complex_t v = z[g];
    out[at] = v.x;
    out[at + stride] = v.y;
  }
}

/* Odd N: through a complex FFT of N (twice the work of the even path).
   z[b N + j] = x[j] + 0i. */
KERNEL fft_r2c_widen(GLOBAL const real_t* in, GLOBAL complex_t* z, u64 n, u64 batch,
                     i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  const u64 total = batch * n, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / n, j = g % n;
    z[g] = cmake(in[line_at(b, dist, inner, dist_outer, offset) + (i64)j * stride], (real_t)0);
  }
}

/* X[k] = Z[b N + k] for k <= N/2, into the output layout (Z already scaled). */
KERNEL fft_r2c_half(GLOBAL const complex_t* z, GLOBAL complex_t* out, u64 n, u64 batch,
                    i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  const u64 h = n / 2 + 1, total = batch * h, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / h, k = g % h;
    out[line_at(b, dist, inner, dist_outer, offset) + (i64)k * stride] = z[b * n + k];
  }
}

/* The Hermitian spectrum of N values from its first N/2 + 1 (X[0] taken as real):
   Z[b N + k] = X[k] for k <= N/2, conj X[N - k] above. */
KERNEL fft_c2r_expand(GLOBAL const complex_t* in, GLOBAL complex_t* z, u64 n, u64 batch,
                      i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  const u64 total = batch * n, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / n, k = g % n;
    const i64 base = line_at(b, dist, inner, dist_outer, offset);
    complex_t v = k <= n / 2 ? in[base + (i64)k * stride] : cconj(in[base + (i64)(n - k) * stride]);
    if (k == 0) v.y = (real_t)0;
    z[g] = v;
  }
}

/* x[j] = Re z[b N + j], into the output layout. */
KERNEL fft_c2r_narrow(GLOBAL const complex_t* z, GLOBAL real_t* out, u64 n, u64 batch,
                      i64 stride, i64 dist, u64 inner, i64 dist_outer, i64 offset) {
  const u64 total = batch * n, step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 g = GLOBAL_ID(0); g < total; g += step) {
    const u64 b = g / n, j = g % n;
    out[line_at(b, dist, inner, dist_outer, offset) + (i64)j * stride] = z[g].x;
  }
}
