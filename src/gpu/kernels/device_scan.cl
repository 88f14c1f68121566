// Device level: single-pass inclusive scan of n scan_t values with decoupled look-back (CUB's
// DeviceScan; Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016). Compiled after dialect.h, a scan operator header, warp_scan.h, block_scan.h,
// block_load_store.h and look_back.h, with -DBLOCK (work-items per group, a multiple of
// WARP_SIZE) and -DITEMS (values per work-item).
//
// Each work-group takes the next tile number from an atomic counter, so a group only ever waits
// on tiles handed out before its own: their groups are already running, and the scan cannot
// deadlock where work-groups start in any order (PoCL runs them as threads on CPU cores).
// A tile loads its TILE = BLOCK * ITEMS values (coalesced, block_load_store.h), scans them
// (serially per work-item, then block_scan.h), posts its aggregate, walks back over its
// predecessors' posts until one carries an inclusive prefix, posts its own inclusive prefix,
// and stores its values once.
//
// tile_state: u32[1 + tiles], zero before the launch: [0] the tile counter, then the flags of
// look_back.h. tile_values: the values of look_back.h. Launch exactly `tiles` groups of BLOCK
// work-items. in == out is allowed (a tile's values are read, then written, by its own group).
#ifndef BLOCK
#error "device_scan.cl needs -DBLOCK"
#endif
#ifndef ITEMS
#error "device_scan.cl needs -DITEMS"
#endif
KERNEL device_inclusive_scan(GLOBAL const real_t* in, GLOBAL real_t* out, u64 n,
                             GLOBAL u32* tile_state, GLOBAL scan_real_t* tile_values) {
  LOCAL real_t stage[TILE_WORDS];
  LOCAL scan_t scratch[BLOCK] ALIGNED(16);
  LOCAL scan_t warp_totals[BLOCK / WARP_SIZE] ALIGNED(16);
  LOCAL look_back_t look_back ALIGNED(16);
  LOCAL u32 tile_slot;
  const u32 tid = LOCAL_ID(0);
  if (tid == 0) tile_slot = ATOMIC_ADD_U32(tile_state, 1u);
  BARRIER();
  const u32 tile = tile_slot;
  const u64 first = (u64)tile * TILE;

  scan_t items[ITEMS];
  block_load(in, first, n, stage, items);
  for (int k = 1; k < ITEMS; ++k) items[k] = scan_op(items[k - 1], items[k]);

  scan_t total;
  const scan_t thread_prefix = block_exclusive_scan(items[ITEMS - 1], scratch, warp_totals, &total);
#ifdef SCAN_TEST_PREFIX_EVERY
  const u32 prefix_every = SCAN_TEST_PREFIX_EVERY; /* test hook, see look_back.h */
#else
  const u32 prefix_every = 0;
#endif
  const scan_t tile_prefix =
      tile_look_back(tile, scan_identity(), total, tile_state + 1, tile_values, prefix_every, &look_back);
  const scan_t running = scan_op(tile_prefix, thread_prefix);
  for (int k = 0; k < ITEMS; ++k) items[k] = scan_op(running, items[k]);
  block_store(out, first, n, stage, items);
}
