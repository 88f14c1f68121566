// Device level: a cascade of second-order sections over many channels in one pass over memory
// (scipy's sosfilt on rows of a channels x n array), by a single-pass scan with decoupled
// look-back per section. Compiled after dialect.h, scan_op_affine2.h, warp_scan.h, block_scan.h,
// block_load_store.h, look_back.h and biquad.h, with -DBLOCK (work-items per group, a multiple
// of WARP_SIZE) and -DITEMS (samples per work-item).
//
// Each work-group takes the next tile number from an atomic counter (so it only waits on tiles
// handed out before its own, whose groups are running) and loads its tile of TILE = BLOCK *
// ITEMS samples of one channel once, coalesced, into registers. Then for each section in turn:
//   1. every work-item runs its ITEMS samples from a zero state (in the carries' precision):
//      with A^ITEMS, the affine map of its run (biquad.h);
//   2. the maps (in the section's carry basis, biquad.h) are scanned across the warp (shuffles,
//      or local memory), the block (block_scan.h) and the tiles before (look_back.h: the
//      channel's sequence for this section, which starts from the channel's initial state):
//      each work-item now knows the true state at its first sample, and tile t's section k
//      waited only on the posts of tiles < t for section k;
//   3. every work-item filters its samples again from that state, in the data precision: the
//      section's output, which is the next section's input, still in registers.
// The tile is stored once at the end. The work-item holding a channel's last sample writes its
// final states.
//
// x, y: channels x n, row-major (y == x allowed). coef: SOS_COEF_WORDS per section (biquad.h).
// state: (sections, channels, 2), scipy's zi layout for rows filtered along their last axis;
// read as the initial state if state_mode & 1 (else zero), overwritten with the final state if
// state_mode & 2. tile_state: u32[1 + channels * sections * tiles_per_channel], zero before the
// launch: [0] the tile counter, then the look-back flags of sequence (channel, section);
// tile_values: scan_real_t[2 * SCAN_WORDS] per flag. test_prefix_every: 0, or look_back.h's
// test hook. Launch channels * tiles_per_channel groups.
#ifndef BLOCK
#error "sos_cascade.cl needs -DBLOCK"
#endif
#ifndef ITEMS
#error "sos_cascade.cl needs -DITEMS"
#endif

/* Groups of BLOCK work-items, up to 1024 (tuning, the benchmark's tile sweep): the bound keeps
   ptxas within the registers that many threads have. */
KERNEL_GROUP(BLOCK) sos_cascade_tiles(GLOBAL const real_t* x, GLOBAL real_t* y, u64 n, u32 channels,
                                      u32 tiles_per_channel, u32 sections, GLOBAL const scan_real_t* coef,
                                      GLOBAL real_t* state, u32 state_mode, GLOBAL u32* tile_state,
                                      GLOBAL scan_real_t* tile_values, u32 test_prefix_every) {
  LOCAL real_t stage[SAMPLE_STAGE_WORDS];
  LOCAL scan_t scratch[BLOCK] ALIGNED(16);
  LOCAL scan_t warp_totals[BLOCK / WARP_SIZE] ALIGNED(16);
  LOCAL look_back_t look_back ALIGNED(16);
  LOCAL u32 tile_slot;
  const u32 tid = LOCAL_ID(0);
  if (tid == 0) tile_slot = ATOMIC_ADD_U32(tile_state, 1u);
  BARRIER();
  const u32 channel = tile_slot / tiles_per_channel;
  const u32 tile = tile_slot % tiles_per_channel;
  const u64 first = (u64)tile * TILE;
  const u64 mine = first + (u64)tid * ITEMS; /* this work-item's first sample */
  const int count = mine >= n ? 0 : (n - mine >= (u64)ITEMS ? ITEMS : (int)(n - mine));
  const bool holds_last = count > 0 && mine + (u64)count == n;

  real_t u[ITEMS];
  block_load_reals(x + (u64)channel * n, first, n, stage, u);
  for (u32 k = 0; k < sections; ++k) {
    GLOBAL const scan_real_t* c = coef + (u64)k * SOS_COEF_WORDS;
    const u64 zi = ((u64)k * channels + channel) * 2;
    const scan_t map = biquad_items_map(c, u, count);
    scan_t total;
    const scan_t before = block_exclusive_scan(map, scratch, warp_totals, &total);
    /* The channel's initial state enters as the constant map s -> zi before tile 0. */
    scan_t start = scan_identity();
    start.w[0] = start.w[3] = (scan_real_t)0;
    if (tile == 0 && (state_mode & 1u))
      biquad_mat_apply(c + SOS_TO_MODAL, (scan_real_t)state[zi], (scan_real_t)state[zi + 1], &start.w[4],
                       &start.w[5]);
    const u64 seq = ((u64)channel * sections + k) * tiles_per_channel;
    const scan_t tile_prefix = tile_look_back(tile, start, total, tile_state + 1 + seq,
                                              tile_values + seq * 2 * SCAN_WORDS, test_prefix_every, &look_back);
    /* A constant map: its b is the true state (carry basis) before this work-item's first
       sample. */
    const scan_t running = scan_op(tile_prefix, before);
    scan_real_t z0, z1;
    biquad_mat_apply(c + SOS_TO_STATE, running.w[4], running.w[5], &z0, &z1);
    biquad_filter_items(biquad_load(c), u, (real_t)z0, (real_t)z1);
    if (holds_last && (state_mode & 2u)) {
      const scan_t after = scan_op(running, map);
      biquad_mat_apply(c + SOS_TO_STATE, after.w[4], after.w[5], &z0, &z1);
      state[zi] = (real_t)z0;
      state[zi + 1] = (real_t)z1;
    }
  }
  block_store_reals(y + (u64)channel * n, first, n, stage, u);
}
