// Warp level: inclusive scan of scan_t (from the scan operator header compiled before this one)
// across each warp of WARP_SIZE consecutive work-items. With shuffles (CUDA) the lanes exchange
// registers and no memory or barrier is used; without (OpenCL C 1.2, or -DRIPPLE_NO_SHUFFLE) the
// same Kogge-Stone steps go through `scratch` (one scan_t per work-item of the group) with
// barriers, so then every work-item of the group must call it together. Work-group sizes are
// multiples of WARP_SIZE.
#ifndef RIPPLE_WARP_SCAN_H
#define RIPPLE_WARP_SCAN_H

#if RIPPLE_HAS_SHUFFLE
DEVICE_FN scan_t warp_shuffle_up(scan_t x, u32 delta) {
  scan_t r;
#pragma unroll
  for (int k = 0; k < SCAN_WORDS; ++k) r.w[k] = SHFL_UP_REAL(x.w[k], delta);
  return r;
}

DEVICE_FN scan_t warp_inclusive_scan(scan_t x, u32 lane, LOCAL_PTR scan_t* scratch) {
  (void)scratch;
#pragma unroll
  for (u32 delta = 1; delta < WARP_SIZE; delta <<= 1) {
    scan_t up = warp_shuffle_up(x, delta);
    if (lane >= delta) x = scan_op(up, x);
  }
  return x;
}
#else
DEVICE_FN scan_t warp_inclusive_scan(scan_t x, u32 lane, LOCAL_PTR scan_t* scratch) {
  const u32 tid = LOCAL_ID(0);
  scratch[tid] = x;
  BARRIER();
  for (u32 delta = 1; delta < WARP_SIZE; delta <<= 1) {
    if (lane >= delta) x = scan_op(scratch[tid - delta], x);
    BARRIER();
    scratch[tid] = x;
    BARRIER();
  }
  return x;
}
#endif

#endif /* RIPPLE_WARP_SCAN_H */
