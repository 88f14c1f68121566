// Section cascades on the CPU (see iir_sos_executor.hpp). Three ways to run a line:
//  - channels side by side: W lines (W = SIMD width, or a few times W) share a staging block,
//    lane j = line j, and the recurrence runs as it is, vertically in SIMD;
//  - one unit-stride line scanned in time with the cascade fused (SosPlan::scan_fused): W runs
//    of L_f samples go through every section from a zero state straight to the output, a scan
//    of the cascade's block maps gives each run's true start state, and the run adds the
//    cascade's free response;
//  - other long lines scanned in time section by section: J = kScanVectors * W lanes each
//    filter L consecutive samples from a zero state, a serial scan of the affine block maps
//    z -> A^L z + e gives every block's true start state, and each block adds its free
//    response C A^t z;
//  - serially, exactly as scipy, for short lines, short tails and unstable sections.
// One long line with several threads is split into ranges filtered at once from a zero state;
// the cascade's carries (2K states, in double) are then scanned over the ranges and each range
// adds the free response of its true start state, which decays after a few time constants.
// Groups of channels fewer than the threads are split into ranges in the same way.
#include "cpu/iir_sos_executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/scratch.hpp"
#include "core/stream_copy.hpp"
#include "core/thread_pool.hpp"
#include "cpu/iir_kernels.hpp"
#include "iir/tuning.hpp"

namespace ripple::cpu {
namespace {

using iir::detail::Biquad;
using iir::detail::Mat2;
using iir::detail::Real;
using iir::detail::SosPlan;
using iir::detail::Vec2;
namespace tuning = iir::tuning;

// A section's free response still to be added to the staging block before the next section
// reads it: rows of C A^t and per-lane true start states, in the block's current precision.
template <class U>
struct PendingCorrection {
  const U* rows = nullptr;
  const U* sigma = nullptr;
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
template <class T>
void stage_out(T* buf, std::size_t rows, std::size_t pitch, T* const* base, std::ptrdiff_t stride, std::size_t t0,
               const PendingCorrection<T>& pending = {}) {
  const IirKernels<T>& kernels = iir_kernels<T>();
  const auto first = static_cast<std::ptrdiff_t>(t0) * stride;
  if (stride == 1) {
    if (const std::ptrdiff_t lane_stride = uniform_lane_stride(base, pitch); lane_stride != 0) {
      kernels.stage_out(buf, rows, pitch, base[0] + first, lane_stride, pending.rows, pending.sigma, pending.count);
      return;
    }
  }
  if (pending.rows != nullptr) {
    kernels.add_free_response(buf, std::min(rows, pending.count), pitch, pending.rows, pending.sigma);
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

// Lines [c0, c0 + pitch) side by side in SIMD lanes.
template <class T>
void run_channel_group(const SosPlan<T>& plan, const SosLines<T>& lines, std::size_t c0, std::size_t pitch,
                       T* state, bool stream_out) {
  const IirKernels<T>& kernels = iir_kernels<T>();
  const std::size_t sections = plan.sections;
  core::Scratch scratch;
  T* st = scratch.get<T>(2 * sections * pitch);
  for (std::size_t j = 0; j < pitch; ++j) {
    for (std::size_t k = 0; k < 2 * sections; ++k) st[k * pitch + j] = state[(c0 + j) * 2 * sections + k];
  }
  const std::ptrdiff_t in_lanes = lines.in_stride == 1 ? uniform_lane_stride(lines.in.data() + c0, pitch) : 0;
  const std::ptrdiff_t out_lanes = lines.out_stride == 1 ? uniform_lane_stride(lines.out.data() + c0, pitch) : 0;
  if (in_lanes != 0 && out_lanes != 0) {
    // Rows of a C-ordered array: filtered straight from the input to the output, the first
    // kMaxFusedSections sections on the way there, longer cascades in place on the output
    // (16 float channels x 2^20, 4 sections, into an existing array: 44 -> 12-20 ms against
    // the staging block on the 2-core Zen 3, the same as a memcpy of the data).
    for (std::size_t s = 0; s < sections; s += kMaxFusedSections) {
      const std::size_t count = std::min(kMaxFusedSections, sections - s);
      const bool last = s + count == sections;
      kernels.cascade_runs(s == 0 ? lines.in[c0] : lines.out[c0], s == 0 ? in_lanes : out_lanes, lines.out[c0],
                           out_lanes, lines.length, pitch, plan.section_coef(s), count, st + 2 * s * pitch,
                           last && stream_out ? 0 : lines.length);
    }
  } else {
    // Other layouts (interleaved frames, strided lines) through a staging block.
    const std::size_t block = tuning::kChannelBlockRows;
    T* buf = scratch.get<T>(block * pitch);
    for (std::size_t t0 = 0; t0 < lines.length; t0 += block) {
      const std::size_t rows = std::min(block, lines.length - t0);
      stage_in(buf, rows, pitch, lines.in.data() + c0, lines.in_stride, t0);
      for (std::size_t s = 0; s < sections; s += kMaxFusedSections) {
        const std::size_t count = std::min(kMaxFusedSections, sections - s);
        kernels.cascade(buf, rows, pitch, plan.section_coef(s), count, st + 2 * s * pitch);
      }
      stage_out(buf, rows, pitch, lines.out.data() + c0, lines.out_stride, t0);
    }
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


// The staging block of a time scan: in T, or widened to double for sections whose float
// blocks would be inaccurate (SosPlan::scan_wide).
template <class T>
struct ScanBlock {
  T* values = nullptr;
  double* wide = nullptr;  // lanes x rows doubles when T is float and a section needs them
  bool in_wide = false;
  PendingCorrection<T> pending;
  PendingCorrection<double> pending_wide;

  // Adds the pending correction, then moves the block to the precision the next section needs.
  void switch_to(bool want_wide, std::size_t rows, std::size_t lanes) {
    if (want_wide == in_wide) return;
    if (in_wide && pending_wide.rows != nullptr) {
      iir_kernels<double>().add_free_response(wide, std::min(rows, pending_wide.count), lanes, pending_wide.rows,
                                              pending_wide.sigma);
    } else if (!in_wide && pending.rows != nullptr) {
      iir_kernels<T>().add_free_response(values, std::min(rows, pending.count), lanes, pending.rows, pending.sigma);
    }
    pending = {};
    pending_wide = {};
    const std::size_t count = rows * lanes;
    if (want_wide) {
      for (std::size_t i = 0; i < count; ++i) wide[i] = double(values[i]);
    } else {
      for (std::size_t i = 0; i < count; ++i) values[i] = T(wide[i]);
    }
    in_wide = want_wide;
  }
};

// The next scan block is read as `lanes` short runs at once, which the hardware prefetchers do
// not follow well from memory; asking for its cache lines (and the output's, for writing)
// while this block computes hides part of that latency (2^24 float samples, 4 sections, one
// thread: about 2.4 -> 1.9-2.0 ns/sample on the 2-core Zen 3 VM, whose timings are noisy).
template <class T>
void prefetch_next_block(const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t count) {
  constexpr std::size_t kLine = 64 / sizeof(T);
  if (is == 1) {
    for (std::size_t i = 0; i < count; i += kLine) __builtin_prefetch(in + i, 0, 3);
  }
  if (os == 1) {
    for (std::size_t i = 0; i < count; i += kLine) __builtin_prefetch(out + i, 1, 3);
  }
}

// Runs section s over every lane of the block from a zero state (after the pending
// correction), then scans the lanes' end states into their true start states: sigma gets the
// start state of each lane (to correct this section's output), carry[s] the state after the
// block.
template <class U>
void scan_section(U* values, std::size_t rows, std::size_t lanes, const U* coef, const U* free_rows,
                  std::size_t correct_rows, const Mat2& block_map, U* state, U* sigma, PendingCorrection<U>& pending,
                  Vec2& carry) {
  std::fill(state, state + 2 * lanes, U(0));
  iir_kernels<U>().section(values, rows, lanes, coef, state, pending.rows, pending.sigma, pending.count);
  Vec2 z = carry;
  for (std::size_t j = 0; j < lanes; ++j) {
    sigma[j] = U(z[0]);
    sigma[lanes + j] = U(z[1]);
    const Vec2 next = iir::detail::apply(block_map, z);
    z = {next[0] + state[j], next[1] + state[lanes + j]};
  }
  carry = z;
  pending = {free_rows, sigma, correct_rows};
}

// The end of a range: serially from the carries, which then hold the state after it.
template <class T>
void serial_tail(const SosPlan<T>& plan, const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t n,
                 Vec2* carry) {
  if (n == 0) return;
  core::Scratch scratch;
  T* z = scratch.get<T>(2 * plan.sections);
  for (std::size_t s = 0; s < plan.sections; ++s) {
    z[2 * s] = T(carry[s][0]);
    z[2 * s + 1] = T(carry[s][1]);
  }
  serial_cascade(plan, in, is, out, os, n, z);
  for (std::size_t s = 0; s < plan.sections; ++s) carry[s] = {z[2 * s], z[2 * s + 1]};
}

// One unit-stride line (or a range of one) scanned in time with the whole cascade fused (see
// SosPlan::scan_fused): each block is W runs of L_f consecutive samples, filtered through
// every section from a zero state straight from the input to the output (the channel kernel,
// its lanes being the runs, L_f apart); a serial scan in long double of z -> M^(L_f) z + e_j
// over the runs gives each run's true start state z_j, and the run adds the cascade's free
// response h_t . z_j while it is still in cache; with stream_out, the rows past the response
// go straight to memory. carry as in scan_range.
template <class T>
void scan_range_fused(const SosPlan<T>& plan, const T* in, T* out, std::size_t n, Vec2* carry, bool stream_out) {
  const IirKernels<T>& kernels = iir_kernels<T>();
  const std::size_t lanes = kernels.lanes;
  const std::size_t sections = plan.sections;
  const std::size_t order = 2 * sections;
  core::Scratch scratch;
  T* state = scratch.get<T>(order * lanes);
  T* sigma = scratch.get<T>(order * lanes);
  Real* z = scratch.get<Real>(order);
  Real* next = scratch.get<Real>(order);
  Real* end = scratch.get<Real>(order);
  // The corrected rows in whole cache lines (the free-response table is zero past its last
  // row), so the rows after them start on vector boundaries.
  constexpr std::size_t kLine = 64 / sizeof(T);
  const std::size_t line_correct_rows = (plan.fused_correct_rows + kLine - 1) / kLine * kLine;
  T* head = stream_out ? scratch.get<T>(lanes * std::min(plan.fused_rows, line_correct_rows)) : nullptr;
  for (std::size_t k = 0; k < order; ++k) z[k] = carry[k / 2][k % 2];
  std::shared_ptr<const std::vector<Real>> partial_transition;
  std::size_t pos = 0;
  while (n - pos >= lanes * tuning::kScanMinRows) {
    const std::size_t rows = std::min(plan.fused_rows, (n - pos) / lanes);
    const Real* m = plan.fused_transition.data();
    if (rows != plan.fused_rows) {
      partial_transition = plan.cascade_power(rows);
      m = partial_transition->data();
    }
    std::fill(state, state + order * lanes, T(0));
    const auto lane_stride = static_cast<std::ptrdiff_t>(rows);
    const std::size_t correct_rows = std::min(rows, line_correct_rows);
    // With stream_out the rows that the free response changes are filtered into `head` and
    // leave it corrected, streamed; the others are streamed as they are filtered. (Written
    // to the output first, they would cost a read for ownership there.)
    const std::size_t head_rows = stream_out ? correct_rows : 0;
    const auto head_stride = static_cast<std::ptrdiff_t>(head_rows);
    for (std::size_t s = 0; s < sections; s += kMaxFusedSections) {
      const std::size_t count = std::min(kMaxFusedSections, sections - s);
      const bool last = s + count == sections;
      const T* coef = plan.section_coef(s);
      T* st = state + 2 * s * lanes;
      if (head_rows > 0) {
        kernels.cascade_runs(s == 0 ? in + pos : head, s == 0 ? lane_stride : head_stride, head, head_stride,
                             head_rows, lanes, coef, count, st, head_rows);
      }
      const std::size_t from = pos + head_rows;
      kernels.cascade_runs(s == 0 ? in + from : out + from, lane_stride, out + from, lane_stride, rows - head_rows,
                           lanes, coef, count, st, last && stream_out ? 0 : rows);
    }
    for (std::size_t j = 0; j < lanes; ++j) {
      for (std::size_t k = 0; k < order; ++k) sigma[j * order + k] = T(z[k]);
      for (std::size_t i = 0; i < order; ++i) end[i] = state[i * lanes + j];
      iir::detail::matrix_apply_add(m, order, z, end, next);
      std::copy(next, next + order, z);
    }
    kernels.add_state_responses(head_rows > 0 ? head : out + pos, head_rows > 0 ? head_stride : lane_stride,
                                out + pos, lane_stride, lanes, correct_rows, plan.fused_free_rows.data(),
                                plan.fused_free_stride, order, sigma, stream_out);
    pos += lanes * rows;
  }
  for (std::size_t k = 0; k < order; ++k) carry[k / 2][k % 2] = z[k];
  serial_tail(plan, in + pos, 1, out + pos, 1, n - pos, carry);
}

// One line (or a range of one) scanned in time. carry[s] is section s's state at the start
// and, on return, at the end of the range.
template <class T>
void scan_range(const SosPlan<T>& plan, const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t n,
                Vec2* carry, bool stream_out) {
  if (plan.scan_fused && is == 1 && os == 1) {
    scan_range_fused(plan, in, out, n, carry, stream_out);
    return;
  }
  const std::size_t lanes = scan_lanes<T>();
  const std::size_t sections = plan.sections;
  const bool any_wide = std::find(plan.scan_wide.begin(), plan.scan_wide.end(), true) != plan.scan_wide.end();
  core::Scratch scratch;
  ScanBlock<T> block;
  block.values = scratch.get<T>(lanes * plan.block_rows);
  block.wide = any_wide ? scratch.get<double>(lanes * plan.block_rows) : nullptr;
  T* st = scratch.get<T>(2 * lanes);
  double* st_wide = any_wide ? scratch.get<double>(2 * lanes) : nullptr;
  T* sigma[2] = {scratch.get<T>(2 * lanes), scratch.get<T>(2 * lanes)};
  double* sigma_wide[2] = {any_wide ? scratch.get<double>(2 * lanes) : nullptr,
                           any_wide ? scratch.get<double>(2 * lanes) : nullptr};
  const T** in_lanes = scratch.get<const T*>(lanes);
  T** out_lanes = scratch.get<T*>(lanes);
  std::size_t pos = 0;
  while (n - pos >= lanes * tuning::kScanMinRows) {
    const std::size_t rows = std::min(plan.block_rows, (n - pos) / lanes);
    for (std::size_t j = 0; j < lanes; ++j) {
      const auto at = static_cast<std::ptrdiff_t>(pos + j * rows);
      in_lanes[j] = in + at * is;
      out_lanes[j] = out + at * os;
    }
    stage_in(block.values, rows, lanes, in_lanes, is, 0);
    prefetch_next_block(in + static_cast<std::ptrdiff_t>(pos + lanes * rows) * is, is,
                        out + static_cast<std::ptrdiff_t>(pos + lanes * rows) * os, os,
                        std::min(lanes * rows, n - pos - lanes * rows));
    for (std::size_t s = 0; s < sections; ++s) {
      const Mat2 a = rows == plan.block_rows ? plan.block_transition[s]
                                             : iir::detail::power(iir::detail::transition(plan.biquads[s]), rows);
      const bool wide = plan.scan_wide[s];
      block.switch_to(wide, rows, lanes);
      if (wide) {
        scan_section(block.wide, rows, lanes, plan.section_coef_wide(s), plan.section_free_rows_wide(s),
                     plan.correct_rows[s], a, st_wide, sigma_wide[s % 2], block.pending_wide, carry[s]);
      } else {
        scan_section(block.values, rows, lanes, plan.section_coef(s), plan.section_free_rows(s), plan.correct_rows[s],
                     a, st, sigma[s % 2], block.pending, carry[s]);
      }
    }
    block.switch_to(false, rows, lanes);
    stage_out(block.values, rows, lanes, out_lanes, os, 0, block.pending);
    block.pending = {};
    pos += lanes * rows;
  }
  const auto at = static_cast<std::ptrdiff_t>(pos);
  serial_tail(plan, in + at * is, is, out + at * os, os, n - pos, carry);
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

// Whether the fused table holds the cascade's free response until it decays (below what a
// result can show): a range's correction is then one vectorized pass over its first rows.
template <class T>
bool free_response_in_table(const SosPlan<T>& plan) {
  return plan.scan_fused && plan.fused_correct_rows < plan.fused_rows;
}

// A line of n samples cut into ranges [r * step, min((r + 1) * step, n)), r < count, that
// threads filter at once, each from a zero state (range 0 from the true one) before the
// carries correct it.
struct LineRanges {
  std::size_t n = 0, step = 0, count = 1;
  std::size_t begin(std::size_t r) const { return std::min(r * step, n); }
  std::size_t length(std::size_t r) const { return begin(r + 1) - begin(r); }
};

// Lines of the fused scan whose free response the table holds are cut into whole fused blocks,
// several ranges per thread handed out as threads come free, so that a thread that starts late
// (a woken one, 50-200 us on the 2-core VM) or runs slower (its vCPU shared with another
// machine) takes fewer. Other lines get one range per thread, since their corrections run
// serially in double. Ranges start on cache lines where the line does.
template <class T>
LineRanges line_ranges(const SosPlan<T>& plan, std::size_t n, bool fused, unsigned threads) {
  const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(threads, n / tuning::kMinSamplesPerThread));
  if (parts == 1) return {n, n, 1};
  const std::size_t block = iir_kernels<T>().lanes * plan.fused_rows;
  const std::size_t blocks = fused ? n / block : 0;
  std::size_t step = 0;
  if (free_response_in_table(plan) && blocks >= parts * tuning::kMinFusedBlocksPerThread) {
    step = block * std::max<std::size_t>(1, blocks / (parts * tuning::kFusedRangesPerThread));
  } else {
    constexpr std::size_t kLine = 64 / sizeof(T);
    step = ((n + parts - 1) / parts + kLine - 1) / kLine * kLine;
  }
  return {n, step, (n + step - 1) / step};
}

// Adds to ranges 1.. of a line their free responses from start[r * order..] (the true states
// where they begin). From the fused table, in one pass per thread over it for the ranges that
// span its rows (each of its vectors serves several ranges), else serially in double.
template <class T>
void add_range_free_responses(const SosPlan<T>& plan, const LineRanges& ranges, const Real* start, T* out,
                              std::ptrdiff_t os, bool table, unsigned threads) {
  const std::size_t order = 2 * plan.sections;
  const std::size_t corrected = ranges.count - 1;
  if (!table) {
    core::parallel_for(corrected, threads, [&](std::size_t i) {
      const std::size_t r = i + 1;
      const Real* z = start + r * order;
      T* at = out + static_cast<std::ptrdiff_t>(ranges.begin(r)) * os;
      add_cascade_free_response(plan, std::vector<Real>(z, z + order), at, os, ranges.length(r));
    });
    return;
  }
  core::Scratch scratch;
  T* sigma = scratch.get<T>(ranges.count * order);
  for (std::size_t k = order; k < ranges.count * order; ++k) sigma[k] = T(start[k]);
  const std::size_t rows = plan.fused_correct_rows;
  const bool short_last = ranges.length(ranges.count - 1) < rows;
  const std::size_t together = corrected - (short_last ? 1 : 0);
  const std::size_t chunks = std::min<std::size_t>(threads, together);
  const IirKernels<T>& kernels = iir_kernels<T>();
  const auto stride = static_cast<std::ptrdiff_t>(ranges.step);
  core::parallel_for(chunks + (short_last ? 1 : 0), threads, [&](std::size_t i) {
    if (i == chunks) {
      const std::size_t r = ranges.count - 1;
      T* at = out + ranges.begin(r);
      kernels.add_state_responses(at, 0, at, 0, 1, ranges.length(r), plan.fused_free_rows.data(),
                                  plan.fused_free_stride, order, sigma + r * order, false);
      return;
    }
    const std::size_t r0 = 1 + together * i / chunks, r1 = 1 + together * (i + 1) / chunks;
    T* at = out + ranges.begin(r0);
    kernels.add_state_responses(at, stride, at, stride, r1 - r0, rows, plan.fused_free_rows.data(),
                                plan.fused_free_stride, order, sigma + r0 * order, false);
  });
}

// One line: scanned (over several threads when long enough), or serial.
template <class T>
void run_line(const SosPlan<T>& plan, const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t n,
              T* state, unsigned threads, bool stream_out) {
  const std::size_t sections = plan.sections;
  if (plan.block_rows == 0 || n < scan_lanes<T>() * tuning::kScanMinRows) {
    serial_cascade(plan, in, is, out, os, n, state);
    return;
  }
  const bool fused = plan.scan_fused && is == 1 && os == 1;
  const LineRanges ranges = line_ranges(plan, n, fused, threads);
  const std::size_t parts = ranges.count;
  // Carries in the thread's scratch arena: a stream of blocks does not allocate here.
  core::Scratch scratch;
  Vec2* carry = scratch.get<Vec2>(parts * sections);
  std::fill(carry, carry + parts * sections, Vec2{0, 0});
  for (std::size_t s = 0; s < sections; ++s) carry[s] = {state[2 * s], state[2 * s + 1]};
  core::parallel_for(parts, threads, [&](std::size_t r) {
    const auto b = static_cast<std::ptrdiff_t>(ranges.begin(r));
    scan_range(plan, in + b * is, is, out + b * os, os, ranges.length(r), carry + r * sections, stream_out);
  });
  if (parts == 1) {
    for (std::size_t s = 0; s < sections; ++s) {
      state[2 * s] = T(carry[s][0]);
      state[2 * s + 1] = T(carry[s][1]);
    }
    return;
  }
  // carry[r] is range r's end state as if it had started from zero (range 0 started from the
  // true state). The true start of range r is the true end of range r - 1. The ranges have at
  // most two lengths (all but the last equal), so each transition is computed once.
  const std::size_t order = 2 * sections;
  Real* start = scratch.get<Real>(parts * order);
  Real* end = scratch.get<Real>(order);
  Real* zero_end = scratch.get<Real>(order);
  for (std::size_t k = 0; k < order; ++k) end[k] = carry[k / 2][k % 2];
  std::size_t power_length = 0;
  std::shared_ptr<const std::vector<Real>> power;
  for (std::size_t r = 1; r < parts; ++r) {
    if (ranges.length(r) != power_length) {
      power_length = ranges.length(r);
      power = plan.cascade_power(power_length);
    }
    Real* z = start + r * order;
    std::copy(end, end + order, z);
    for (std::size_t k = 0; k < order; ++k) zero_end[k] = carry[r * sections + k / 2][k % 2];
    iir::detail::matrix_apply_add(power->data(), order, z, zero_end, end);
  }
  for (std::size_t k = 0; k < order; ++k) state[k] = T(end[k]);
  add_range_free_responses(plan, ranges, start, out, os, fused && free_response_in_table(plan), threads);
}

// Lines [first, first + rows) samples in: the same lines, shorter.
template <class T>
SosLines<T> lines_range(const SosLines<T>& lines, std::size_t first, std::size_t rows) {
  SosLines<T> range = lines;
  range.length = rows;
  for (const T*& p : range.in) p += static_cast<std::ptrdiff_t>(first) * lines.in_stride;
  for (T*& p : range.out) p += static_cast<std::ptrdiff_t>(first) * lines.out_stride;
  return range;
}

// Groups of channels too few to keep every thread busy, each split in time into `parts` ranges
// filtered at once (range 0 from the true state, the others from zero), as run_line splits
// one line: the ranges' end states are then scanned in double into every range's true start
// state, and each range adds the cascade's free response from it.
template <class T>
void run_groups_in_ranges(const SosPlan<T>& plan, const SosLines<T>& lines, std::size_t groups, std::size_t pitch,
                          T* state, std::size_t parts, unsigned threads, bool stream_out) {
  const std::size_t count = lines.in.size();
  const std::size_t order = 2 * plan.sections;
  const auto begin = [&](std::size_t r) { return lines.length * r / parts; };
  std::vector<SosLines<T>> ranges;
  for (std::size_t r = 0; r < parts; ++r) ranges.push_back(lines_range(lines, begin(r), begin(r + 1) - begin(r)));
  // Range r's states for every line, as run_channel_group reads and writes them.
  std::vector<T> range_state(parts * count * order, T(0));
  std::copy(state, state + count * order, range_state.begin());
  core::parallel_for(groups * parts, threads, [&](std::size_t i) {
    const std::size_t g = i / parts, r = i % parts;
    const std::size_t c0 = g * pitch;
    run_channel_group(plan, ranges[r], c0, std::min(pitch, count - c0), range_state.data() + r * count * order,
                      stream_out);
  });
  // start[(r * count + c) * order + k]: line c's true state where range r begins (r >= 1).
  std::vector<Real> start(parts * count * order), end(count * order);
  std::copy(range_state.begin(), range_state.begin() + count * order, end.begin());
  std::vector<Real> zero_end(order);
  for (std::size_t r = 1; r < parts; ++r) {
    std::copy(end.begin(), end.end(), start.begin() + r * count * order);
    const auto m = plan.cascade_power(begin(r + 1) - begin(r));
    for (std::size_t c = 0; c < count; ++c) {
      const T* range_end = range_state.data() + (r * count + c) * order;
      std::copy(range_end, range_end + order, zero_end.begin());
      iir::detail::matrix_apply_add(m->data(), order, start.data() + (r * count + c) * order, zero_end.data(),
                                    end.data() + c * order);
    }
  }
  for (std::size_t i = 0; i < count * order; ++i) state[i] = T(end[i]);
  // The free responses: from the fused scan's table where it holds them until they decay,
  // for rows of a C-ordered array (several lines per vector, as the fused scan adds them),
  // else line by line in double.
  const std::ptrdiff_t out_lanes = lines.out_stride == 1 ? uniform_lane_stride(lines.out.data(), count) : 0;
  const bool table = plan.scan_fused && plan.fused_correct_rows < plan.fused_rows && out_lanes != 0;
  const std::size_t chunks = table ? std::min<std::size_t>(threads, count) : count;
  core::parallel_for((parts - 1) * chunks, threads, [&](std::size_t i) {
    const std::size_t r = 1 + i / chunks, chunk = i % chunks;
    const std::size_t c0 = count * chunk / chunks, c1 = count * (chunk + 1) / chunks;
    const auto b = static_cast<std::ptrdiff_t>(begin(r));
    const std::size_t rows = begin(r + 1) - begin(r);
    const Real* z = start.data() + (r * count + c0) * order;
    if (!table) {
      add_cascade_free_response(plan, std::vector<Real>(z, z + order), lines.out[c0] + b * lines.out_stride,
                                lines.out_stride, rows);
      return;
    }
    core::Scratch scratch;
    T* sigma = scratch.get<T>((c1 - c0) * order);
    for (std::size_t k = 0; k < (c1 - c0) * order; ++k) sigma[k] = T(z[k]);
    T* out = lines.out[c0] + b;
    iir_kernels<T>().add_state_responses(out, out_lanes, out, out_lanes, c1 - c0,
                                         std::min(rows, plan.fused_correct_rows), plan.fused_free_rows.data(),
                                         plan.fused_free_stride, order, sigma, false);
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
  // Results larger than the caches go to memory without first being read (see cascade_runs).
  const bool stream_out = count * lines.length * sizeof(T) >= core::kStreamOutFromBytes;
  // Fewer groups than threads (16 float channels on AVX-512 are one): the idle threads take
  // ranges of the lines in time instead, where the plan has the cascade's transition.
  std::size_t parts = 1;
  if (singles == 0 && plan.block_rows != 0)
    parts = std::min<std::size_t>(threads / group_items, lines.length / tuning::kMinSamplesPerThread);
  if (parts > 1) return run_groups_in_ranges(plan, lines, group_items, per_item * w, state, parts, threads, stream_out);
  core::parallel_for(items, threads, [&](std::size_t i) {
    if (i < group_items) {
      const std::size_t c0 = i * per_item * w;
      const std::size_t pitch = std::min(per_item, vectors - i * per_item) * w;
      run_channel_group(plan, lines, c0, pitch, state, stream_out);
    } else {
      const std::size_t c = vectors * w + (i - group_items);
      run_line(plan, lines.in[c], lines.in_stride, lines.out[c], lines.out_stride, lines.length,
               state + c * 2 * sections, line_threads, stream_out);
    }
  });
}

template void run_sos_cascade<float>(const iir::detail::SosPlan<float>&, const SosLines<float>&, float*, unsigned);
template void run_sos_cascade<double>(const iir::detail::SosPlan<double>&, const SosLines<double>&, double*,
                                      unsigned);

}  // namespace ripple::cpu
