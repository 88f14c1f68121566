// Scan operator: addition of real_t. The simplest associative operator, used to test the scan
// layers (integer-valued inputs make every partial sum exact, so results compare bit for bit).
// A scan operator defines scan_t (SCAN_WORDS scan_real_t words in w[], the layout in memory),
// scan_identity() and scan_op(earlier, later), which must be associative.
#ifndef RIPPLE_SCAN_OP_H
#define RIPPLE_SCAN_OP_H
#define SCAN_WORDS 1
typedef struct {
  scan_real_t w[SCAN_WORDS];
} scan_t;

DEVICE_FN scan_t scan_identity(void) {
  scan_t r;
  r.w[0] = (scan_real_t)0;
  return r;
}

DEVICE_FN scan_t scan_op(scan_t earlier, scan_t later) {
  scan_t r;
  r.w[0] = earlier.w[0] + later.w[0];
  return r;
}
#endif
