// Device level: a cascade of second-order sections over many channels, one work-item per
// channel running scipy's sosfilt recurrence serially (the least arithmetic, no scan): the path
// for many channels of moderate length, and for cascades the scan does not apply to (a pole on
// or outside the unit circle). Compiled after dialect.h, scan_op_affine2.h and biquad.h, with
// -DBLOCK (channels per work-group), -DCHUNK (samples per channel staged at a time) and
// -DMAX_SECTIONS (the length of each work-item's array of section states; the cascade may have
// fewer). The array is indexed by the run-time section number, so it lives on the stack (L1:
// 128 bytes for 16 float sections, ptxas reports) and is read and written once per section per
// chunk, not per sample: a chunk's samples go through a section in registers.
//
// Rows of the channels x n input are read and written coalesced through local memory: a group
// stages CHUNK consecutive samples of its BLOCK channels (consecutive work-items read
// consecutive samples of a row), each work-item filters its row of the stage through every
// section, and the group writes the stage back. The rows are padded to CHUNK + 1 words so the
// per-row phase touches distinct banks.
//
// x, y: channels x n, row-major (y == x allowed). coef: SOS_COEF_WORDS per section (biquad.h).
// state: (sections, channels, 2), read if state_mode & 1 (else zero), written if state_mode & 2.
// Launch ceil(channels / BLOCK) groups of BLOCK work-items.
#ifndef BLOCK
#error "sos_channels.cl needs -DBLOCK"
#endif
#ifndef CHUNK
#error "sos_channels.cl needs -DCHUNK"
#endif
#ifndef MAX_SECTIONS
#error "sos_channels.cl needs -DMAX_SECTIONS"
#endif
#define ROW_WORDS (CHUNK + 1)

KERNEL sos_cascade_channels(GLOBAL const real_t* x, GLOBAL real_t* y, u64 n, u32 channels,
                            u32 sections, GLOBAL const scan_real_t* coef, GLOBAL real_t* state,
                            u32 state_mode) {
  LOCAL real_t stage[BLOCK * ROW_WORDS];
  const u32 tid = LOCAL_ID(0);
  const u32 first_channel = GROUP_ID(0) * BLOCK;
  const u32 rows = channels - first_channel < BLOCK ? channels - first_channel : BLOCK;
  const bool active = tid < rows;
  const u32 channel = first_channel + tid;

  real_t z[2 * MAX_SECTIONS];
  for (u32 k = 0; k < sections; ++k) {
    const u64 zi = ((u64)k * channels + channel) * 2;
    const bool read = active && (state_mode & 1u);
    z[2 * k] = read ? state[zi] : (real_t)0;
    z[2 * k + 1] = read ? state[zi + 1] : (real_t)0;
  }
  for (u64 t0 = 0; t0 < n; t0 += CHUNK) {
    const u32 len = n - t0 < (u64)CHUNK ? (u32)(n - t0) : CHUNK;
    for (u32 j = tid; j < rows * CHUNK; j += BLOCK) {
      const u32 r = j / CHUNK, col = j % CHUNK;
      if (col < len) stage[r * ROW_WORDS + col] = x[(u64)(first_channel + r) * n + t0 + col];
    }
    BARRIER();
    if (active) {
      real_t v[CHUNK];
#pragma unroll
      for (int i = 0; i < CHUNK; ++i) v[i] = stage[tid * ROW_WORDS + i];
      for (u32 k = 0; k < sections; ++k) {
        const biquad_t q = biquad_load(coef + (u64)k * SOS_COEF_WORDS);
        real_t z0 = z[2 * k], z1 = z[2 * k + 1];
#pragma unroll
        for (int i = 0; i < CHUNK; ++i)
          if ((u32)i < len) v[i] = biquad_step(q, v[i], &z0, &z1);
        z[2 * k] = z0;
        z[2 * k + 1] = z1;
      }
#pragma unroll
      for (int i = 0; i < CHUNK; ++i) stage[tid * ROW_WORDS + i] = v[i];
    }
    BARRIER();
    for (u32 j = tid; j < rows * CHUNK; j += BLOCK) {
      const u32 r = j / CHUNK, col = j % CHUNK;
      if (col < len) y[(u64)(first_channel + r) * n + t0 + col] = stage[r * ROW_WORDS + col];
    }
    BARRIER();
  }
  if (active && (state_mode & 2u))
    for (u32 k = 0; k < sections; ++k) {
      const u64 zi = ((u64)k * channels + channel) * 2;
      state[zi] = z[2 * k];
      state[zi + 1] = z[2 * k + 1];
    }
}
