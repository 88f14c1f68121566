// Device level: the decoupled look-back of a single-pass scan (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016; CUB's ScanTileState), shared by every
// kernel that scans across tiles: device_scan.cl (one sequence of tiles) and sos_cascade.cl (one
// sequence per channel and section). Compiled after a scan operator header.
//
// A sequence of tiles owns flags u32[tiles], zero (EMPTY) before the launch, and values
// scan_real_t[2 * tiles * SCAN_WORDS], which need no clearing (a slot is read only after its
// flag says it was written): tile t's aggregate at 2t, its inclusive prefix at 2t + 1 (scan_t
// units).
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

/* Local memory of the look-back, declared by the kernel (LOCAL look_back_t). */
typedef struct {
  scan_t value[WARP_SIZE]; /* the window: predecessor end - 1 - i's inclusive prefix or aggregate */
  u32 flag[WARP_SIZE];
  scan_t prefix; /* the result, read by every work-item */
  u32 done;
} look_back_t;

/* Called by every work-item of tile `tile`'s group (it has barriers; callers keep a barrier
   between two calls), whose values combine to `total` and `start` (both read from work-item
   0): returns, to every work-item, the combination of `start` and every earlier tile's values
   (`start` itself for tile 0), and posts this tile's inclusive prefix. `start` is what precedes
   the sequence: the identity for a plain scan, the initial state (as a constant map) for a
   filter. The walk is CUB's warp-wide look-back: work-items 0..WARP_SIZE-1 each wait for and
   read one predecessor, so a walk over aggregates takes one memory round trip per WARP_SIZE
   tiles, not one per tile; work-item 0 combines the window up to the nearest inclusive prefix.
   Tiles below a posted inclusive prefix have all posted (each prefix was combined from posts
   back to an earlier prefix, and tile 0 posts one), so waiting for the whole window costs
   nothing beyond the nearest prefix. Test hook: if prefix_every > 0, only tiles whose number is
   a multiple of it post their inclusive prefix, so the others' successors must walk back over
   aggregates (rare when tiles finish in order). */
DEVICE_FN scan_t tile_look_back(u32 tile, scan_t start, scan_t total, GLOBAL u32* flags,
                                GLOBAL VOLATILE scan_real_t* values, u32 prefix_every, LOCAL_PTR look_back_t* lb) {
  const u32 tid = LOCAL_ID(0);
  if (tid == 0) {
    lb->done = tile == 0;
    if (tile > 0) {
      scan_post(values + (u64)2 * tile * SCAN_WORDS, total);
      GLOBAL_FENCE();
      ATOMIC_XCHG_U32(flags + tile, FLAG_AGGREGATE);
    }
  }
  BARRIER();
  scan_t walked = scan_identity(); /* work-item 0: the predecessors combined so far */
  u32 end = tile;                  /* predecessors below `end` are still to read */
  while (!lb->done) {
    if (tid < WARP_SIZE && tid < end) {
      const u32 j = end - 1 - tid;
      u32 flag;
      do {
        flag = ATOMIC_LOAD_U32(flags + j);
      } while (flag == FLAG_EMPTY);
      GLOBAL_FENCE();
      lb->flag[tid] = flag;
      lb->value[tid] = scan_load_posted(values + ((u64)2 * j + (flag == FLAG_PREFIX ? 1 : 0)) * SCAN_WORDS);
    }
    BARRIER();
    if (tid == 0)
      for (u32 i = 0; i < WARP_SIZE && i < end; ++i) {
        walked = scan_op(lb->value[i], walked);
        if (lb->flag[i] == FLAG_PREFIX) {
          lb->done = 1;
          break;
        }
      }
    end = end > WARP_SIZE ? end - WARP_SIZE : 0; /* tile 0 posts a prefix: done before end is 0 */
    BARRIER();
  }
  if (tid == 0) {
    const scan_t prefix = tile == 0 ? start : walked;
    lb->prefix = prefix;
    if (prefix_every == 0 || tile % prefix_every == 0) {
      scan_post(values + ((u64)2 * tile + 1) * SCAN_WORDS, scan_op(prefix, total));
      GLOBAL_FENCE();
      ATOMIC_XCHG_U32(flags + tile, FLAG_PREFIX);
    }
  }
  BARRIER();
  return lb->prefix;
}

#endif /* RIPPLE_LOOK_BACK_H */
