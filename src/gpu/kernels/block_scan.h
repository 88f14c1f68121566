// Block level: scan of one scan_t per work-item across a 1-D work-group of BLOCK work-items
// (a multiple of WARP_SIZE), built on warp_scan.h as CUB's BlockScanWarpScans: each warp scans,
// the last lane of each warp posts the warp's total, and each work-item folds the totals of the
// warps before its own (few: BLOCK / WARP_SIZE). Every work-item of the group must call it.
// Local memory: scratch[BLOCK] and warp_totals[BLOCK / WARP_SIZE], declared by the kernel,
// ALIGNED(16) (dialect.h: the loop over warp_totals compiles to 16-byte loads).
#ifndef RIPPLE_BLOCK_SCAN_H
#define RIPPLE_BLOCK_SCAN_H

#define BLOCK_WARPS (BLOCK / WARP_SIZE)

/* Returns the exclusive prefix of work-item LOCAL_ID(0) (identity for the first) and sets
   *total to the whole group's aggregate. */
DEVICE_FN scan_t block_exclusive_scan(scan_t x, LOCAL_PTR scan_t* scratch,
                                      LOCAL_PTR scan_t* warp_totals, scan_t* total) {
  const u32 tid = LOCAL_ID(0);
  const u32 lane = tid % WARP_SIZE;
  const u32 warp = tid / WARP_SIZE;
  scan_t inclusive = warp_inclusive_scan(x, lane, scratch);
  if (lane == WARP_SIZE - 1) warp_totals[warp] = inclusive;
  BARRIER();
  scan_t warp_prefix = scan_identity();
  scan_t all = scan_identity();
  for (u32 w = 0; w < BLOCK_WARPS; ++w) {
    if (w == warp) warp_prefix = all;
    all = scan_op(all, warp_totals[w]);
  }
  *total = all;
  inclusive = scan_op(warp_prefix, inclusive);
  /* the exclusive prefix is the inclusive value of the work-item before */
  scratch[tid] = inclusive;
  BARRIER();
  scan_t exclusive = tid == 0 ? scan_identity() : scratch[tid - 1];
  BARRIER();
  return exclusive;
}

#endif /* RIPPLE_BLOCK_SCAN_H */
