// Thread level: one second-order section of a cascade. scipy's sosfilt recurrence (direct form
// II transposed) and the affine map of a section's state over a run of samples (the mathematics
// is in src/iir/state_space.hpp):
//   y = b0 u + z0,  z0' = b1 u - a1 y + z1,  z1' = b2 u - a2 y
// is z' = A z + B u with A = [[-a1, 1], [-a2, 0]], so a run of ITEMS samples takes a state s to
// A^ITEMS s + e, e being the state reached from zero: an element of the affine2 scan, built from
// the input on the fly. Compiled after dialect.h and scan_op_affine2.h; the runs need -DITEMS.
//
// Carries live in a basis chosen per section on the host: w = T^-1 z. For lightly damped poles
// near z = 1 the DF2T matrix A is far from normal (entries of A^t grow like t before they decay),
// so composing its maps loses digits; in the modal basis A' = T^-1 A T is a scaled rotation (or
// diagonal), whose powers never grow, and only the two conversions pay T's condition number.
// (T is the identity where that is not better.)
//
// The host gives each section SOS_COEF_WORDS scan_real_t words: b0 b1 b2 a1 a2 (already rounded
// to real_t, so the recurrence is exactly the data precision's), then row-major 2x2 matrices
// P' = T^-1 A^ITEMS T, A' = T^-1 A T, T and T^-1, computed in long double and rounded once to
// the carries' precision.
#ifndef RIPPLE_BIQUAD_H
#define RIPPLE_BIQUAD_H

#define SOS_COEF_WORDS 21
#define SOS_POWER 5
#define SOS_STEP 9
#define SOS_TO_STATE 13
#define SOS_TO_MODAL 17

/* m (2x2 at c[at]) times (v0, v1). */
DEVICE_FN void biquad_mat_apply(GLOBAL const scan_real_t* m, scan_real_t v0, scan_real_t v1, scan_real_t* r0,
                                scan_real_t* r1) {
  *r0 = m[0] * v0 + m[1] * v1;
  *r1 = m[2] * v0 + m[3] * v1;
}

typedef struct {
  real_t b0, b1, b2, a1, a2;
} biquad_t;

DEVICE_FN biquad_t biquad_load(GLOBAL const scan_real_t* c) {
  biquad_t q;
  q.b0 = (real_t)c[0];
  q.b1 = (real_t)c[1];
  q.b2 = (real_t)c[2];
  q.a1 = (real_t)c[3];
  q.a2 = (real_t)c[4];
  return q;
}

/* One sample through the section: returns y and advances the state (z0, z1). */
DEVICE_FN real_t biquad_step(biquad_t q, real_t u, real_t* z0, real_t* z1) {
  const real_t y = q.b0 * u + *z0;
  *z0 = q.b1 * u - q.a1 * y + *z1;
  *z1 = q.b2 * u - q.a2 * y;
  return y;
}

#ifdef ITEMS /* runs of ITEMS samples held by one work-item (sos_cascade.cl) */

/* u[0..ITEMS) becomes the section's output, starting from the true state (z0, z1) at u[0]. */
DEVICE_FN void biquad_filter_items(biquad_t q, real_t* u, real_t z0, real_t z1) {
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) u[j] = biquad_step(q, u[j], &z0, &z1);
}

/* The map of the first `count` (<= ITEMS) samples of u through section c, in the carry basis:
   w -> P' w + T^-1 e, with e run from a zero state in the carries' precision; P' from the host
   for a full run, A'^count built here for the last, partial run of a signal (the identity when
   count is 0). */
DEVICE_FN scan_t biquad_items_map(GLOBAL const scan_real_t* c, const real_t* u, int count) {
  const scan_real_t b0 = c[0], b1 = c[1], b2 = c[2], a1 = c[3], a2 = c[4];
  scan_real_t z0 = (scan_real_t)0, z1 = (scan_real_t)0;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    if (j < count) {
      const scan_real_t x = (scan_real_t)u[j];
      const scan_real_t y = b0 * x + z0;
      z0 = b1 * x - a1 * y + z1;
      z1 = b2 * x - a2 * y;
    }
  }
  scan_t m = scan_identity();
  if (count == ITEMS) {
    for (int k = 0; k < 4; ++k) m.w[k] = c[SOS_POWER + k];
  } else {
    GLOBAL const scan_real_t* s = c + SOS_STEP;
    for (int j = 0; j < count; ++j) { /* P := A' P */
      const scan_real_t p00 = m.w[0], p01 = m.w[1], p10 = m.w[2], p11 = m.w[3];
      m.w[0] = s[0] * p00 + s[1] * p10;
      m.w[1] = s[0] * p01 + s[1] * p11;
      m.w[2] = s[2] * p00 + s[3] * p10;
      m.w[3] = s[2] * p01 + s[3] * p11;
    }
  }
  biquad_mat_apply(c + SOS_TO_MODAL, z0, z1, &m.w[4], &m.w[5]);
  return m;
}

#endif /* ITEMS */

#endif /* RIPPLE_BIQUAD_H */
