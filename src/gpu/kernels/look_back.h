// Device level: the decoupled look-back of a single-pass scan (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016; CUB's ScanTileState), shared by every
// kernel that scans across tiles: device_scan.cl (one sequence of tiles) and sos_cascade.cl (one
// sequence per channel and section). Compiled after a scan operator header.
//
// A sequence of tiles owns flags u32[tiles] and values scan_real_t[2 * tiles * SCAN_WORDS], zero
// before the launch: tile t's aggregate at 2t, its inclusive prefix at 2t + 1 (scan_t units).
// Tiles must be handed out in order (an atomic counter), so a tile only waits on tiles whose
// work-groups are already running.
#ifndef RIPPLE_LOOK_BACK_H
#define RIPPLE_LOOK_BACK_H

#define FLAG_EMPTY 0u
#define FLAG_AGGREGATE 1u
#define FLAG_PREFIX 2u

/* Posts read by other work-groups go around non-coherent caches (volatile). */
DEVICE_FN scan_t scan_load_posted(GLOBAL VOLATILE scan_real_t* p) {
  scan_t r;
  for (int k = 0; k < SCAN_WORDS; ++k) r.w[k] = p[k];
  return r;
}

DEVICE_FN void scan_post(GLOBAL VOLATILE scan_real_t* p, scan_t x) {
  for (int k = 0; k < SCAN_WORDS; ++k) p[k] = x.w[k];
}

/* Run by one work-item of tile `tile` whose own values combine to `total`: returns the
   combination of `start` and every earlier tile's values (`start` itself for tile 0), and posts
   this tile's inclusive prefix. `start` is what precedes the sequence: the identity for a plain
   scan, the initial state (as a constant map) for a filter. Test hook: if prefix_every > 0,
   only tiles whose number is a multiple of it post their inclusive prefix, so the others'
   successors must walk back over aggregates (rare when tiles finish in order). */
DEVICE_FN scan_t tile_look_back(u32 tile, scan_t start, scan_t total, GLOBAL u32* flags,
                                GLOBAL VOLATILE scan_real_t* values, u32 prefix_every) {
  scan_t prefix = start;
  if (tile > 0) {
    scan_post(values + (u64)2 * tile * SCAN_WORDS, total);
    GLOBAL_FENCE();
    ATOMIC_XCHG_U32(flags + tile, FLAG_AGGREGATE);
    prefix = scan_identity();
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
  if (prefix_every > 0 && tile % prefix_every != 0) return prefix;
  scan_post(values + ((u64)2 * tile + 1) * SCAN_WORDS, scan_op(prefix, total));
  GLOBAL_FENCE();
  ATOMIC_XCHG_U32(flags + tile, FLAG_PREFIX);
  return prefix;
}

#endif /* RIPPLE_LOOK_BACK_H */
