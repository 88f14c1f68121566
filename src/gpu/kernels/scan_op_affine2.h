// Scan operator: composition of affine maps of the plane, x -> A x + b with A 2x2. A biquad in
// state-space form steps its state by such a map, so the states of a whole signal are the
// inclusive scan of the per-sample maps. scan_op(earlier, later) is the map "earlier, then
// later": (A_l A_e, A_l b_e + b_l). Layout: w = {a00, a01, a10, a11, b0, b1} (A row-major), in
// scan_real_t (double carries for float data where -DRIPPLE_SCAN_DOUBLE=1).
#ifndef RIPPLE_SCAN_OP_H
#define RIPPLE_SCAN_OP_H
#define SCAN_WORDS 6
typedef struct {
  scan_real_t w[SCAN_WORDS];
} scan_t;

DEVICE_FN scan_t scan_identity(void) {
  scan_t r;
  r.w[0] = (scan_real_t)1;
  r.w[1] = (scan_real_t)0;
  r.w[2] = (scan_real_t)0;
  r.w[3] = (scan_real_t)1;
  r.w[4] = (scan_real_t)0;
  r.w[5] = (scan_real_t)0;
  return r;
}

DEVICE_FN scan_t scan_op(scan_t e, scan_t l) {
  scan_t r;
  r.w[0] = l.w[0] * e.w[0] + l.w[1] * e.w[2];
  r.w[1] = l.w[0] * e.w[1] + l.w[1] * e.w[3];
  r.w[2] = l.w[2] * e.w[0] + l.w[3] * e.w[2];
  r.w[3] = l.w[2] * e.w[1] + l.w[3] * e.w[3];
  r.w[4] = l.w[0] * e.w[4] + l.w[1] * e.w[5] + l.w[4];
  r.w[5] = l.w[2] * e.w[4] + l.w[3] * e.w[5] + l.w[5];
  return r;
}
#endif
