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

template <class T>
struct IirKernels {
  std::size_t lanes;  // values per SIMD vector
  /// Filters every lane of buf in place through `count` <= kMaxFusedSections sections in
  /// direct form II transposed, exactly scipy's recurrence. coef holds b0 b1 b2 a1 a2 per
  /// section; state[(2*s + i) * pitch + j] is state z_i of section s for lane j, read at the
  /// start and written back at the end.
  void (*cascade)(T* buf, std::size_t rows, std::size_t pitch, const T* coef, std::size_t count, T* state);
  /// As cascade, straight from lanes that are unit-stride runs to lanes that are unit-stride
  /// runs: sample t of lane j is read at in[j * in_lane_stride + t] and written at
  /// out[j * out_lane_stride + t], t < rows, j < pitch (in == out is fine). Rows from
  /// `stream_from` on are final results not read again soon: where the runs' vectors are
  /// aligned they are stored non-temporally (no read for ownership of the lines, which makes
  /// an ordinary store cost a third more memory traffic), and fenced before the call returns;
  /// stream_from >= rows streams nothing.
  void (*cascade_runs)(const T* in, std::ptrdiff_t in_lane_stride, T* out, std::ptrdiff_t out_lane_stride,
                       std::size_t rows, std::size_t pitch, const T* coef, std::size_t count, T* state,
                       std::size_t stream_from);
  /// One section over every lane from `state` ([i * pitch + j], updated), after first adding
  /// the previous section's free response to the input of rows t < r_rows when r_in is given:
  /// x[t][j] += r_in[2t] * sigma_in[j] + r_in[2t+1] * sigma_in[pitch + j].
  void (*section)(T* buf, std::size_t rows, std::size_t pitch, const T* coef, T* state, const T* r_in,
                  const T* sigma_in, std::size_t r_rows);
  /// Adds a free response to every lane: buf[t][j] += r[2t] * sigma[j] + r[2t+1] * sigma[pitch + j].
  void (*add_free_response)(T* buf, std::size_t rows, std::size_t pitch, const T* r, const T* sigma);
  /// Adds free responses from states of `order` values to `lanes` unit-stride runs:
  /// out[j * out_lane_stride + t] = in[j * in_lane_stride + t] + sum_k h[k * h_stride + t] *
  /// sigma[j * order + k], t < rows (in == out is fine). With `stream`, results are stored
  /// non-temporally where they are vector-aligned and order <= 8 (one pass), as cascade_runs'
  /// streamed rows.
  void (*add_state_responses)(const T* in, std::ptrdiff_t in_lane_stride, T* out, std::ptrdiff_t out_lane_stride,
                              std::size_t lanes, std::size_t rows, const T* h, std::size_t h_stride,
                              std::size_t order, const T* sigma, bool stream);
  /// Staging of lanes that are unit-stride runs lane_stride apart: buf[t][j] <-> seq[j *
  /// lane_stride + t], for t < rows, j < pitch.
  void (*stage_in)(T* buf, std::size_t rows, std::size_t pitch, const T* seq, std::ptrdiff_t lane_stride);
  /// stage_out adds a free response (as section's r_in, sigma_in, at least to rows t < r_rows)
  /// on the way when r is given.
  void (*stage_out)(const T* buf, std::size_t rows, std::size_t pitch, T* seq, std::ptrdiff_t lane_stride,
                    const T* r, const T* sigma, std::size_t r_rows);
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
