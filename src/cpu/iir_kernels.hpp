// The CPU executor's SIMD kernels for biquad cascades, one table per element type, chosen once
// for the best SIMD target of this machine (Highway dynamic dispatch).
//
// Every kernel works on a staging block `buf` of `rows` rows by `pitch` lanes (row-major,
// pitch a multiple of IirKernels::lanes, 64-byte aligned): lane j is an independent signal
// (a channel, or a sub-block of one long signal), row t its sample t.
#pragma once

#include <cstddef>

namespace ripple::cpu {

/// Most sections one cascade() call fuses; longer cascades are several calls.
inline constexpr std::size_t kMaxFusedSections = 4;

/// The cache lines of the next staging block, requested a few at a time while this block
/// computes, so that memory and arithmetic overlap: a block staged from memory right after the
/// previous one was filtered waits for memory with the FMA units idle (measured: half the time
/// of 16 x 2^20 float channels), and asking for all of it at once only stalls on the few
/// outstanding misses a core allows. `runs` runs of `run_bytes` bytes, read from `read` and to
/// be written at `write` (either may be null), consecutive runs `*_stride` bytes apart. Kernels
/// call step() once per row of vectors they filter; each step earns `rate` / 256 lines (of
/// each), so the requests spread over the block's work.
struct BlockPrefetch {
  const char* read = nullptr;
  char* write = nullptr;
  std::ptrdiff_t read_stride = 0;
  std::ptrdiff_t write_stride = 0;
  std::size_t run_bytes = 0;
  std::size_t runs = 0;
  std::size_t rate = 0;
  std::size_t credit = 0;  // cursor: the next line is at run `run`, byte `offset`
  std::size_t run = 0;
  std::size_t offset = 0;

  [[gnu::always_inline]] inline void step() {
    credit += rate;
    while (credit >= 256 && run < runs) {
      credit -= 256;
      const auto at = static_cast<std::ptrdiff_t>(run);
      if (read != nullptr) __builtin_prefetch(read + at * read_stride + static_cast<std::ptrdiff_t>(offset), 0, 3);
      if (write != nullptr) __builtin_prefetch(write + at * write_stride + static_cast<std::ptrdiff_t>(offset), 1, 3);
      offset += 64;
      if (offset >= run_bytes) {
        offset = 0;
        ++run;
      }
    }
  }
};

template <class T>
struct IirKernels {
  std::size_t lanes;  // values per SIMD vector
  /// Filters every lane of buf in place through `count` <= kMaxFusedSections sections in
  /// direct form II transposed, exactly scipy's recurrence. coef holds b0 b1 b2 a1 a2 per
  /// section; state[(2*s + i) * pitch + j] is state z_i of section s for lane j, read at the
  /// start and written back at the end. prefetch (may be null) is stepped once per row.
  void (*cascade)(T* buf, std::size_t rows, std::size_t pitch, const T* coef, std::size_t count, T* state,
                  BlockPrefetch* prefetch);
  /// Adds the cascade's free response from per-lane states to every lane:
  /// buf[t][j] += sum_{k < n} r[t * n + k] * sigma[k * pitch + j].
  void (*add_free_response)(T* buf, std::size_t rows, std::size_t pitch, const T* r, std::size_t n,
                            const T* sigma);
  /// Staging of lanes that are unit-stride runs lane_stride apart: buf[t][j] <-> seq[j *
  /// lane_stride + t], for t < rows, j < pitch.
  void (*stage_in)(T* buf, std::size_t rows, std::size_t pitch, const T* seq, std::ptrdiff_t lane_stride);
  /// stage_out adds a free response (as add_free_response, to rows t < r_rows) on the way
  /// when r is given.
  void (*stage_out)(const T* buf, std::size_t rows, std::size_t pitch, T* seq, std::ptrdiff_t lane_stride,
                    const T* r, std::size_t n, const T* sigma, std::size_t r_rows);
};

const IirKernels<float>& iir_kernels_f32();
const IirKernels<double>& iir_kernels_f64();

template <class T>
const IirKernels<T>& iir_kernels() {
  if constexpr (sizeof(T) == sizeof(float)) {
    return iir_kernels_f32();
  } else {
    return iir_kernels_f64();
  }
}

}  // namespace ripple::cpu
