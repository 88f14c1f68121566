// Device level: single-pass inclusive scan of n scan_t values with decoupled look-back (CUB's
// DeviceScan; Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016). Compiled after dialect.h, a scan operator header, warp_scan.h, block_scan.h and
// block_load_store.h, with -DBLOCK (work-items per group, a multiple of WARP_SIZE) and -DITEMS
// (values per work-item).
//
// Each work-group takes the next tile number from an atomic counter, so a group only ever waits
// on tiles handed out before its own: their groups are already running, and the scan cannot
// deadlock where work-groups start in any order (PoCL runs them as threads on CPU cores).
// A tile loads its TILE = BLOCK * ITEMS values (coalesced, block_load_store.h), scans them
// (serially per work-item, then block_scan.h), posts its aggregate, walks back over its
// predecessors' posts until one carries an inclusive prefix, posts its own inclusive prefix,
// and stores its values once.
//
// tile_state: u32[1 + tiles], zero before the launch: [0] the tile counter, [1 + t] tile t's
// flag. tile_values: real_t[2 * tiles * SCAN_WORDS]: tile t's aggregate at 2t, inclusive prefix
// at 2t + 1 (in scan_t units). Launch exactly `tiles` groups of BLOCK work-items. in == out is
// allowed (a tile's values are read, then written, by its own group only).
#ifndef BLOCK
#error "device_scan.cl needs -DBLOCK"
#endif
#ifndef ITEMS
#error "device_scan.cl needs -DITEMS"
#endif
#define FLAG_EMPTY 0u
#define FLAG_AGGREGATE 1u
#define FLAG_PREFIX 2u

/* Posts read by other work-groups go around non-coherent caches (volatile). */
DEVICE_FN scan_t scan_load_posted(GLOBAL VOLATILE real_t* p) {
  scan_t r;
  for (int k = 0; k < SCAN_WORDS; ++k) r.w[k] = p[k];
  return r;
}

DEVICE_FN void scan_post(GLOBAL VOLATILE real_t* p, scan_t x) {
  for (int k = 0; k < SCAN_WORDS; ++k) p[k] = x.w[k];
}

/* Run by one work-item of the tile: returns the aggregate of every tile before `tile`. */
DEVICE_FN scan_t tile_look_back(u32 tile, scan_t total, GLOBAL u32* flags,
                                GLOBAL VOLATILE real_t* values) {
  scan_t prefix = scan_identity();
  if (tile > 0) {
    scan_post(values + (u64)2 * tile * SCAN_WORDS, total);
    GLOBAL_FENCE();
    ATOMIC_XCHG_U32(flags + tile, FLAG_AGGREGATE);
    u32 j = tile - 1;
    for (;;) {
      u32 flag;
      do {
        flag = ATOMIC_LOAD_U32(flags + j);
      } while (flag == FLAG_EMPTY);
      GLOBAL_FENCE();
      if (flag == FLAG_PREFIX) {
        prefix = scan_op(scan_load_posted(values + ((u64)2 * j + 1) * SCAN_WORDS), prefix);
        break;
      }
      prefix = scan_op(scan_load_posted(values + (u64)2 * j * SCAN_WORDS), prefix);
      --j; /* tile 0 always posts a prefix, so j stays >= 0 */
    }
  }
#ifdef SCAN_TEST_PREFIX_EVERY
  /* Test hook: only every SCAN_TEST_PREFIX_EVERY-th tile posts its inclusive prefix, so the
     others' successors must walk back over aggregates (rare when tiles finish in order). */
  if (tile % SCAN_TEST_PREFIX_EVERY != 0) return prefix;
#endif
  scan_post(values + ((u64)2 * tile + 1) * SCAN_WORDS, scan_op(prefix, total));
  GLOBAL_FENCE();
  ATOMIC_XCHG_U32(flags + tile, FLAG_PREFIX);
  return prefix;
}

KERNEL device_inclusive_scan(GLOBAL const real_t* in, GLOBAL real_t* out, u64 n,
                             GLOBAL u32* tile_state, GLOBAL real_t* tile_values) {
  LOCAL real_t stage[TILE_WORDS];
  LOCAL scan_t scratch[BLOCK];
  LOCAL scan_t warp_totals[BLOCK / WARP_SIZE];
  LOCAL scan_t tile_prefix;
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
  if (tid == 0) tile_prefix = tile_look_back(tile, total, tile_state + 1, tile_values);
  BARRIER();
  const scan_t running = scan_op(tile_prefix, thread_prefix);
  for (int k = 0; k < ITEMS; ++k) items[k] = scan_op(running, items[k]);
  block_store(out, first, n, stage, items);
}
