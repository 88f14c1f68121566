// Block level: moves a tile of TILE = BLOCK * ITEMS values between global memory and registers
// in the blocked arrangement (work-item t holds values t * ITEMS ... t * ITEMS + ITEMS - 1),
// staged through local memory so that consecutive work-items touch consecutive words of global
// memory (coalesced), as CUB's BLOCK_LOAD_TRANSPOSE / BLOCK_STORE_TRANSPOSE. Values are scan_t
// (SCAN_WORDS reals each; the identity past n) or plain real_t samples (zero past n); values at
// or past n are not written on store. Every work-item of the group must call these (barriers).
// `stage` is local memory of TILE_WORDS (scan_t) or SAMPLE_STAGE_WORDS (samples) reals, declared
// by the kernel.
#ifndef RIPPLE_BLOCK_LOAD_STORE_H
#define RIPPLE_BLOCK_LOAD_STORE_H

#define TILE (BLOCK * ITEMS)
#define TILE_WORDS (TILE * SCAN_WORDS)

/* items[k] = value first + LOCAL_ID(0) * ITEMS + k of `in`, or the identity past n. */
DEVICE_FN void block_load(GLOBAL const real_t* in, u64 first, u64 n, LOCAL_PTR real_t* stage, scan_t* items) {
  const u32 tid = LOCAL_ID(0);
  const u64 base = first * SCAN_WORDS, end = n * SCAN_WORDS;
  for (u32 j = tid; j < TILE_WORDS; j += BLOCK)
    if (base + j < end) stage[j] = in[base + j];
  BARRIER();
  for (int k = 0; k < ITEMS; ++k) {
    const u32 v = tid * ITEMS + k;
    if (first + v < n) {
      for (int w = 0; w < SCAN_WORDS; ++w) items[k].w[w] = stage[v * SCAN_WORDS + w];
    } else {
      items[k] = scan_identity();
    }
  }
  BARRIER();
}

/* Value first + LOCAL_ID(0) * ITEMS + k of `out` = items[k], for values before n. */
DEVICE_FN void block_store(GLOBAL real_t* out, u64 first, u64 n, LOCAL_PTR real_t* stage, const scan_t* items) {
  const u32 tid = LOCAL_ID(0);
  for (int k = 0; k < ITEMS; ++k)
    for (int w = 0; w < SCAN_WORDS; ++w) stage[(tid * ITEMS + k) * SCAN_WORDS + w] = items[k].w[w];
  BARRIER();
  const u64 base = first * SCAN_WORDS, end = n * SCAN_WORDS;
  for (u32 j = tid; j < TILE_WORDS; j += BLOCK)
    if (base + j < end) out[base + j] = stage[j];
  BARRIER();
}

/* Samples are staged with one pad word after every 32, so that both the coalesced phase
   (consecutive j) and the blocked phase (stride ITEMS) hit distinct banks. */
#define SAMPLE_STAGE(i) ((i) + ((i) >> 5))
#define SAMPLE_STAGE_WORDS (TILE + TILE / 32 + 1)

/* items[k] = sample first + LOCAL_ID(0) * ITEMS + k of `in`, or 0 past n. */
DEVICE_FN void block_load_reals(GLOBAL const real_t* in, u64 first, u64 n, LOCAL_PTR real_t* stage, real_t* items) {
  const u32 tid = LOCAL_ID(0);
  for (u32 j = tid; j < TILE; j += BLOCK) stage[SAMPLE_STAGE(j)] = first + j < n ? in[first + j] : (real_t)0;
  BARRIER();
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) items[k] = stage[SAMPLE_STAGE(tid * ITEMS + k)];
  BARRIER();
}

/* Sample first + LOCAL_ID(0) * ITEMS + k of `out` = items[k], for samples before n. */
DEVICE_FN void block_store_reals(GLOBAL real_t* out, u64 first, u64 n, LOCAL_PTR real_t* stage, const real_t* items) {
  const u32 tid = LOCAL_ID(0);
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) stage[SAMPLE_STAGE(tid * ITEMS + k)] = items[k];
  BARRIER();
  for (u32 j = tid; j < TILE; j += BLOCK)
    if (first + j < n) out[first + j] = stage[SAMPLE_STAGE(j)];
  BARRIER();
}

#endif /* RIPPLE_BLOCK_LOAD_STORE_H */
