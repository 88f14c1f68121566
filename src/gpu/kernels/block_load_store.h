// Block level: moves a tile of TILE = BLOCK * ITEMS scan_t values (SCAN_WORDS reals each)
// between global memory and registers in the blocked arrangement (work-item t holds values
// t * ITEMS ... t * ITEMS + ITEMS - 1), staged through local memory so that consecutive
// work-items touch consecutive words of global memory (coalesced), as CUB's
// BLOCK_LOAD_TRANSPOSE / BLOCK_STORE_TRANSPOSE. Values at or past n are the identity on load
// and are not written on store. Every work-item of the group must call these (barriers).
// `stage` is local memory of TILE * SCAN_WORDS reals, declared by the kernel.
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

#endif /* RIPPLE_BLOCK_LOAD_STORE_H */
