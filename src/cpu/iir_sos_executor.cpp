// Section cascades on the CPU (see iir_sos_executor.hpp). Three ways to run a line:
//  - channels side by side: W lines (W = SIMD width, or a few times W) share a staging block,
//    lane j = line j, and the recurrence runs as it is, vertically in SIMD;
//  - one line scanned in time: J = kScanVectors * W lanes each filter L consecutive samples
//    through the whole cascade from a zero state (the same fused kernel as channels), a serial
//    scan in long double of the cascade's affine block maps Z -> M^L Z + E gives every lane's
//    true start state, and each lane adds the cascade's free response c M^t Z on the way out;
//  - serially, exactly as scipy, for short lines, short tails and unstable sections.
// One long line with several threads is split into ranges filtered at once from a zero state;
// the cascade's carries (2K states, long double) are then scanned over the ranges and each
// range adds the free response of its true start state, which decays after a few time
// constants. While a block computes, the next block's cache lines are requested.
#include "cpu/iir_sos_executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "cpu/iir_kernels.hpp"
#include "iir/tuning.hpp"

namespace ripple::cpu {
namespace {

using iir::detail::Biquad;
using iir::detail::Real;
using iir::detail::SosPlan;
namespace tuning = iir::tuning;

// The cascade's free response still to be added to a staging block: rows of c M^t (`states`
// values each) and per-lane true start states (sigma[k * lanes + j]).
template <class U>
struct PendingCorrection {
  const U* rows = nullptr;
  const U* sigma = nullptr;
  std::size_t states = 0;
  std::size_t count = 0;  // rows of the block it changes
};

// scipy's recurrence, one sample at a time; st holds 2 states per section.
template <class T>
void serial_cascade(const SosPlan<T>& plan, const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os,
                    std::size_t n, T* st) {
  const std::size_t sections = plan.sections;
  for (std::size_t t = 0; t < n; ++t) {
    T x = in[static_cast<std::ptrdiff_t>(t) * is];
    for (std::size_t s = 0; s < sections; ++s) {
      const T* c = plan.section_coef(s);
      T* z = st + 2 * s;
      const T y = c[0] * x + z[0];
      z[0] = c[1] * x - c[3] * y + z[1];
      z[1] = c[2] * x - c[4] * y;
      x = y;
    }
    out[static_cast<std::ptrdiff_t>(t) * os] = x;
  }
}

// Copies rows [t0, t0 + rows) of `pitch` lanes (lane j starts at base[j], samples `stride`
// apart) into buf[t][j], and back.
// True when lane j starts right after lane j - 1 (interleaved channels): rows are then
// contiguous runs of `pitch` values.
template <class T>
bool lanes_adjacent(const T* const* base, std::size_t pitch) {
  for (std::size_t j = 1; j < pitch; ++j) {
    if (base[j] != base[0] + j) return false;
  }
  return true;
}

// Copies rows [t0, t0 + rows) of `pitch` lanes (lane j starts at base[j], samples `stride`
// apart) into buf[t][j], and back. Interleaved lanes move a row at a time; otherwise a lane
// at a time, so a line with unit stride is read sequentially.
// The distance between consecutive lanes when it is the same for all, else 0.
template <class T>
std::ptrdiff_t uniform_lane_stride(const T* const* base, std::size_t pitch) {
  const std::ptrdiff_t step = pitch > 1 ? base[1] - base[0] : 1;
  for (std::size_t j = 2; j < pitch; ++j) {
    if (base[j] - base[j - 1] != step) return 0;
  }
  return step;
}

template <class T>
void stage_in(T* buf, std::size_t rows, std::size_t pitch, const T* const* base, std::ptrdiff_t stride,
              std::size_t t0) {
  const auto first = static_cast<std::ptrdiff_t>(t0) * stride;
  if (stride == 1) {
    if (const std::ptrdiff_t lane_stride = uniform_lane_stride(base, pitch); lane_stride != 0) {
      iir_kernels<T>().stage_in(buf, rows, pitch, base[0] + first, lane_stride);
      return;
    }
  }
  if (lanes_adjacent(base, pitch)) {
    for (std::size_t t = 0; t < rows; ++t) {
      std::memcpy(buf + t * pitch, base[0] + first + static_cast<std::ptrdiff_t>(t) * stride, pitch * sizeof(T));
    }
    return;
  }
  for (std::size_t j = 0; j < pitch; ++j) {
    const T* src = base[j] + first;
    for (std::size_t t = 0; t < rows; ++t) buf[t * pitch + j] = src[static_cast<std::ptrdiff_t>(t) * stride];
  }
}

// With r != nullptr, a free response is added on the way out (see IirKernels::stage_out).
// With a pending correction, it is added on the way out.
template <class T>
void stage_out(T* buf, std::size_t rows, std::size_t pitch, T* const* base, std::ptrdiff_t stride, std::size_t t0,
               const PendingCorrection<T>& pending = {}) {
  const IirKernels<T>& kernels = iir_kernels<T>();
  const auto first = static_cast<std::ptrdiff_t>(t0) * stride;
  if (stride == 1) {
    if (const std::ptrdiff_t lane_stride = uniform_lane_stride(base, pitch); lane_stride != 0) {
      kernels.stage_out(buf, rows, pitch, base[0] + first, lane_stride, pending.rows, pending.states, pending.sigma,
                        pending.count);
      return;
    }
  }
  if (pending.rows != nullptr && pending.count > 0) {
    kernels.add_free_response(buf, std::min(rows, pending.count), pitch, pending.rows, pending.states,
                              pending.sigma);
  }
  if (lanes_adjacent(base, pitch)) {
    for (std::size_t t = 0; t < rows; ++t) {
      std::memcpy(base[0] + first + static_cast<std::ptrdiff_t>(t) * stride, buf + t * pitch, pitch * sizeof(T));
    }
    return;
  }
  for (std::size_t j = 0; j < pitch; ++j) {
    T* dst = base[j] + first;
    for (std::size_t t = 0; t < rows; ++t) dst[static_cast<std::ptrdiff_t>(t) * stride] = buf[t * pitch + j];
  }
}

// Where rows [t0, t0 + rows) of `pitch` lanes (lane j at base[j], samples `stride` apart) lie
// as runs of bytes for BlockPrefetch: one run per lane when the lanes are unit-stride and a
// uniform distance apart, one run of whole rows when they are adjacent (interleaved frames).
// False for other layouts (nothing is prefetched then).
template <class T>
bool lane_runs(const T* const* base, std::size_t pitch, std::ptrdiff_t stride, std::size_t t0, std::size_t rows,
               const char*& first, std::ptrdiff_t& run_stride, std::size_t& run_bytes, std::size_t& runs) {
  const T* start = base[0] + static_cast<std::ptrdiff_t>(t0) * stride;
  if (stride == 1) {
    if (const std::ptrdiff_t lane_stride = uniform_lane_stride(base, pitch); lane_stride != 0) {
      first = reinterpret_cast<const char*>(start);
      run_stride = lane_stride * static_cast<std::ptrdiff_t>(sizeof(T));
      run_bytes = rows * sizeof(T);
      runs = pitch;
      return true;
    }
  }
  if (stride > 0 && lanes_adjacent(base, pitch)) {
    first = reinterpret_cast<const char*>(start);
    run_stride = 0;
    run_bytes = rows * static_cast<std::size_t>(stride) * sizeof(T);
    runs = 1;
    return true;
  }
  return false;
}

// A prefetch of the next block of a channel group: its input lines for reading and its output
// lines for writing, spread over about `steps` kernel steps.
template <class T>
BlockPrefetch next_block_prefetch(const SosLines<T>& lines, std::size_t c0, std::size_t pitch, std::size_t t0,
                                  std::size_t rows, std::size_t steps) {
  BlockPrefetch p;
  if (rows == 0) return p;
  const char* in = nullptr;
  const char* out = nullptr;
  std::size_t in_bytes = 0, out_bytes = 0, in_runs = 0, out_runs = 0;
  const bool read = lane_runs<T>(lines.in.data() + c0, pitch, lines.in_stride, t0, rows, in, p.read_stride, in_bytes,
                                 in_runs);
  const bool write = lane_runs<T>(const_cast<const T* const*>(lines.out.data()) + c0, pitch, lines.out_stride, t0,
                                  rows, out, p.write_stride, out_bytes, out_runs);
  if (read && write && (in_bytes != out_bytes || in_runs != out_runs)) return p;  // differently shaped: skip
  if (!read && !write) return p;
  p.read = read ? in : nullptr;
  p.write = write ? const_cast<char*>(out) : nullptr;
  p.run_bytes = read ? in_bytes : out_bytes;
  p.runs = read ? in_runs : out_runs;
  const std::size_t line_count = p.runs * ((p.run_bytes + 63) / 64);
  p.rate = (256 * line_count + std::max<std::size_t>(steps, 1) - 1) / std::max<std::size_t>(steps, 1);
  return p;
}

// Lines [c0, c0 + pitch) side by side in SIMD lanes.
template <class T>
void run_channel_group(const SosPlan<T>& plan, const SosLines<T>& lines, std::size_t c0, std::size_t pitch,
                       T* state) {
  const IirKernels<T>& kernels = iir_kernels<T>();
  const std::size_t sections = plan.sections;
  const std::size_t block = tuning::kChannelBlockRows;
  core::Scratch scratch;
  T* buf = scratch.get<T>(block * pitch);
  T* st = scratch.get<T>(2 * sections * pitch);
  for (std::size_t j = 0; j < pitch; ++j) {
    for (std::size_t k = 0; k < 2 * sections; ++k) st[k * pitch + j] = state[(c0 + j) * 2 * sections + k];
  }
  const std::size_t vectors = (pitch + kernels.lanes - 1) / kernels.lanes;
  for (std::size_t t0 = 0; t0 < lines.length; t0 += block) {
    const std::size_t rows = std::min(block, lines.length - t0);
    stage_in(buf, rows, pitch, lines.in.data() + c0, lines.in_stride, t0);
    const std::size_t next_rows = std::min(block, lines.length - t0 - rows);
    BlockPrefetch prefetch = next_block_prefetch(lines, c0, pitch, t0 + rows, next_rows, rows * vectors);
    for (std::size_t s = 0; s < sections; s += kMaxFusedSections) {
      const std::size_t count = std::min(kMaxFusedSections, sections - s);
      kernels.cascade(buf, rows, pitch, plan.section_coef(s), count, st + 2 * s * pitch, &prefetch);
    }
    stage_out(buf, rows, pitch, lines.out.data() + c0, lines.out_stride, t0);
  }
  for (std::size_t j = 0; j < pitch; ++j) {
    for (std::size_t k = 0; k < 2 * sections; ++k) state[(c0 + j) * 2 * sections + k] = st[k * pitch + j];
  }
}

// Lanes of the time scan and the shortest line worth scanning.
template <class T>
std::size_t scan_lanes() {
  return iir_kernels<T>().lanes * tuning::kScanVectors;
}

// Filters every lane of a scan block through the whole cascade from a zero state, then scans
// the lanes' end states E_j (2K each) into their true start states: sigma[k * lanes + j] gets
// lane j's start state, carry (2K values) goes from the block's start state to its end state:
// Z_{j+1} = map Z_j + E_j, in long double (next: room for 2K values).
template <class U>
void filter_scan_block(U* values, std::size_t rows, std::size_t lanes, const U* coef, std::size_t sections,
                       const Real* map, U* state, U* sigma, Real* carry, Real* next, BlockPrefetch& prefetch) {
  const IirKernels<U>& kernels = iir_kernels<U>();
  const std::size_t n = 2 * sections;
  std::fill(state, state + n * lanes, U(0));
  for (std::size_t s = 0; s < sections; s += kMaxFusedSections) {
    const std::size_t count = std::min(kMaxFusedSections, sections - s);
    kernels.cascade(values, rows, lanes, coef + 5 * s, count, state + 2 * s * lanes, &prefetch);
  }
  Real* z = carry;
  for (std::size_t j = 0; j < lanes; ++j) {
    for (std::size_t k = 0; k < n; ++k) sigma[k * lanes + j] = U(z[k]);
    for (std::size_t i = 0; i < n; ++i) {
      Real acc = state[i * lanes + j];
      const Real* m = map + i * n;
      for (std::size_t k = 0; k < n; ++k) acc += m[k] * z[k];
      next[i] = acc;
    }
    std::copy(next, next + n, z);
  }
}

// One line (or a range of one) scanned in time. carry (2K values) is the cascade's state at
// the start and, on return, at the end of the range.
template <class T>
void scan_range(const SosPlan<T>& plan, const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t n,
                Real* carry) {
  const IirKernels<T>& kernels = iir_kernels<T>();
  const std::size_t lanes = scan_lanes<T>();
  const std::size_t sections = plan.sections;
  const std::size_t states = plan.states();
  core::Scratch scratch;
  T* values = scratch.get<T>(lanes * plan.block_rows);
  double* wide = plan.wide ? scratch.get<double>(lanes * plan.block_rows) : nullptr;
  T* st = scratch.get<T>(states * lanes);
  T* sigma = scratch.get<T>(states * lanes);
  double* st_wide = plan.wide ? scratch.get<double>(states * lanes) : nullptr;
  double* sigma_wide = plan.wide ? scratch.get<double>(states * lanes) : nullptr;
  const T** in_lanes = scratch.get<const T*>(lanes);
  T** out_lanes = scratch.get<T*>(lanes);
  Real* next_carry = scratch.get<Real>(states);
  Real* partial_map = nullptr;  // M^rows of a last, shorter block (and room to compute it)
  std::size_t pos = 0;
  while (n - pos >= lanes * tuning::kScanMinRows) {
    const std::size_t rows = std::min(plan.block_rows, (n - pos) / lanes);
    for (std::size_t j = 0; j < lanes; ++j) {
      const auto at = static_cast<std::ptrdiff_t>(pos + j * rows);
      in_lanes[j] = in + at * is;
      out_lanes[j] = out + at * os;
    }
    stage_in(values, rows, lanes, in_lanes, is, 0);
    // The next block is the next lanes * rows samples of the line, requested over the
    // cascade pass (about a row of steps per lane vector).
    BlockPrefetch prefetch;
    const std::size_t next = pos + lanes * rows;
    const std::size_t next_count = std::min(lanes * plan.block_rows, n - next);
    if (next_count > 0) {
      prefetch.read = is == 1 ? reinterpret_cast<const char*>(in + next) : nullptr;
      prefetch.write = os == 1 ? reinterpret_cast<char*>(out + next) : nullptr;
      prefetch.run_bytes = next_count * sizeof(T);
      prefetch.runs = 1;
      const std::size_t steps = std::max<std::size_t>(1, rows * lanes / kernels.lanes);
      prefetch.rate = (256 * ((prefetch.run_bytes + 63) / 64) + steps - 1) / steps;
    }
    const Real* map = plan.block_map.data();
    if (rows != plan.block_rows) {
      if (partial_map == nullptr) partial_map = scratch.get<Real>(3 * states * states);
      iir::detail::matrix_power(plan.cascade.m.data(), states, rows, partial_map, partial_map + states * states);
      map = partial_map;
    }
    if (plan.wide) {
      // Float data whose cascade has lightly damped sections: the block is filtered,
      // corrected and rounded in double.
      const std::size_t count = rows * lanes;
      for (std::size_t i = 0; i < count; ++i) wide[i] = double(values[i]);
      filter_scan_block(wide, rows, lanes, plan.coef_wide.data(), sections, map, st_wide, sigma_wide, carry,
                        next_carry, prefetch);
      const std::size_t corrected = std::min(rows, plan.correct_rows);
      if (corrected > 0) {
        iir_kernels<double>().add_free_response(wide, corrected, lanes, plan.free_rows_wide.data(), states,
                                                sigma_wide);
      }
      for (std::size_t i = 0; i < count; ++i) values[i] = T(wide[i]);
      stage_out(values, rows, lanes, out_lanes, os, 0);
    } else {
      filter_scan_block(values, rows, lanes, plan.coef.data(), sections, map, st, sigma, carry, next_carry, prefetch);
      stage_out(values, rows, lanes, out_lanes, os, 0,
                PendingCorrection<T>{plan.free_rows.data(), sigma, states, plan.correct_rows});
    }
    pos += lanes * rows;
  }
  if (pos < n) {
    T* z = scratch.get<T>(states);
    for (std::size_t k = 0; k < states; ++k) z[k] = T(carry[k]);
    const auto at = static_cast<std::ptrdiff_t>(pos);
    serial_cascade(plan, in + at * is, is, out + at * os, os, n - pos, z);
    for (std::size_t k = 0; k < states; ++k) carry[k] = z[k];
  }
}

// Adds to out[0..n) the cascade's response to start state z with zero input, until it has
// decayed far below the last bit of the result.
template <class T>
void add_cascade_free_response(const SosPlan<T>& plan, const std::vector<Real>& start, T* out, std::ptrdiff_t os,
                               std::size_t n) {
  std::vector<double> z(start.begin(), start.end());
  double scale = 0.0;
  for (double v : z) scale = std::max(scale, std::abs(v));
  if (scale == 0.0) return;
  const double stop = scale * tuning::kFreeResponseDecay;
  for (std::size_t t = 0; t < n; ++t) {
    double u = 0.0;
    for (std::size_t s = 0; s < plan.sections; ++s) {
      const Biquad& q = plan.biquads[s];
      const double y = q.b0 * u + z[2 * s];
      z[2 * s] = q.b1 * u - q.a1 * y + z[2 * s + 1];
      z[2 * s + 1] = q.b2 * u - q.a2 * y;
      u = y;
    }
    T& o = out[static_cast<std::ptrdiff_t>(t) * os];
    o = T(double(o) + u);
    if ((t & 255) == 255) {
      double left = 0.0;
      for (double v : z) left = std::max(left, std::abs(v));
      if (left < stop) return;
    }
  }
}

// One line: scanned (over several threads when long enough), or serial.
template <class T>
void run_line(const SosPlan<T>& plan, const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t n,
              T* state, unsigned threads) {
  const std::size_t order = plan.states();
  if (!plan.stable || n < scan_lanes<T>() * tuning::kScanMinRows) {
    serial_cascade(plan, in, is, out, os, n, state);
    return;
  }
  const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(threads, n / tuning::kMinSamplesPerThread));
  // Carries in the thread's scratch arena: a stream of blocks does not allocate here.
  core::Scratch scratch;
  Real* carry = scratch.get<Real>(parts * order);
  std::fill(carry, carry + parts * order, Real(0));
  for (std::size_t k = 0; k < order; ++k) carry[k] = state[k];
  auto begin = [&](std::size_t r) { return n * r / parts; };
  core::parallel_for(parts, static_cast<unsigned>(parts), [&](std::size_t r) {
    const auto b = static_cast<std::ptrdiff_t>(begin(r));
    scan_range(plan, in + b * is, is, out + b * os, os, begin(r + 1) - begin(r), carry + r * order);
  });
  if (parts == 1) {
    for (std::size_t k = 0; k < order; ++k) state[k] = T(carry[k]);
    return;
  }
  // carry[r] is range r's end state as if it had started from zero (range 0 started from the
  // true state). The true start of range r is the true end of range r - 1.
  std::vector<std::vector<Real>> start(parts);
  std::vector<Real> end(carry, carry + order);
  for (std::size_t r = 1; r < parts; ++r) {
    start[r] = end;
    const auto m = iir::detail::matrix_power(plan.cascade.m, order, begin(r + 1) - begin(r));
    end = iir::detail::matrix_apply(m, start[r]);
    for (std::size_t k = 0; k < order; ++k) end[k] += carry[r * order + k];
  }
  for (std::size_t k = 0; k < order; ++k) state[k] = T(end[k]);
  core::parallel_for(parts - 1, static_cast<unsigned>(parts - 1), [&](std::size_t i) {
    const std::size_t r = i + 1;
    const auto b = static_cast<std::ptrdiff_t>(begin(r));
    add_cascade_free_response(plan, start[r], out + b * os, os, begin(r + 1) - begin(r));
  });
}

}  // namespace

template <class T>
void run_sos_cascade(const iir::detail::SosPlan<T>& plan, const SosLines<T>& lines, T* state, unsigned threads) {
  const std::size_t count = lines.in.size();
  if (count == 0 || lines.length == 0 || plan.sections == 0) return;
  threads = std::max(threads, 1u);
  const std::size_t w = iir_kernels<T>().lanes;
  // Full groups of W lines go side by side in lanes, a few vectors per work item when there
  // are enough to keep every thread busy; the rest run one line at a time.
  const std::size_t vectors = count / w;
  const std::size_t per_item = std::clamp<std::size_t>(vectors / threads, 1, tuning::kScanVectors);
  const std::size_t group_items = (vectors + per_item - 1) / per_item;
  const std::size_t singles = count - vectors * w;
  const std::size_t items = group_items + singles;
  const auto line_threads = static_cast<unsigned>(std::max<std::size_t>(1, threads / items));
  const std::size_t sections = plan.sections;
  core::parallel_for(items, threads, [&](std::size_t i) {
    if (i < group_items) {
      const std::size_t c0 = i * per_item * w;
      const std::size_t pitch = std::min(per_item, vectors - i * per_item) * w;
      run_channel_group(plan, lines, c0, pitch, state);
    } else {
      const std::size_t c = vectors * w + (i - group_items);
      run_line(plan, lines.in[c], lines.in_stride, lines.out[c], lines.out_stride, lines.length,
               state + c * 2 * sections, line_threads);
    }
  });
}

template void run_sos_cascade<float>(const iir::detail::SosPlan<float>&, const SosLines<float>&, float*, unsigned);
template void run_sos_cascade<double>(const iir::detail::SosPlan<double>&, const SosLines<double>&, double*,
                                      unsigned);

}  // namespace ripple::cpu
