// CIC decimators and interpolators (Hogenauer 1981). Registers are unsigned integers of 32 or
// 64 bits: arithmetic modulo 2^32 or 2^64 agrees with arithmetic modulo 2^B for the Hogenauer
// width B up to that size, so the wrap-around of the integrators cancels in the combs and the
// output, reduced to B bits and sign-extended, is exact. The decimator takes the narrowest
// (twice the SIMD lanes with 32 bits); the interpolator uses 64.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>

#include "cpu/cic_kernels.hpp"
#include "ripple/error.hpp"
#include "ripple/multirate.hpp"

namespace ripple::multirate {
namespace {

std::int64_t sign_extend(std::uint64_t v, unsigned bits) {
  const unsigned shift = 64 - bits;
  return static_cast<std::int64_t>(v << shift) >> shift;
}

void check_spec(const CicSpec& s) {
  if (s.stages == 0 || s.ratio == 0 || s.delay == 0 || s.input_bits == 0) {
    throw InvalidArgument("CIC: stages, ratio, delay and input_bits must be >= 1; got N = " + std::to_string(s.stages) +
                          ", R = " + std::to_string(s.ratio) + ", M = " + std::to_string(s.delay) +
                          ", input_bits = " + std::to_string(s.input_bits));
  }
  if (s.input_bits > 32) throw InvalidArgument("CIC: input_bits must be at most 32, got " + std::to_string(s.input_bits));
}

template <class In>
void check_input(const CicSpec& s, std::size_t channels) {
  if (channels == 0) throw InvalidArgument("CIC: channels must be at least 1, got 0");
  if (s.input_bits > 8 * sizeof(In)) {
    throw InvalidArgument("CIC: input_bits " + std::to_string(s.input_bits) + " is wider than the " +
                          std::to_string(8 * sizeof(In)) + "-bit input type");
  }
}

}  // namespace

unsigned cic_register_bits(const CicSpec& spec) {
  check_spec(spec);
  // ceil(N log2(R M)) computed exactly: the smallest g with 2^g >= (R M)^N.
  const unsigned __int128 rm = static_cast<unsigned __int128>(spec.ratio) * spec.delay;
  unsigned __int128 power = 1;
  unsigned growth = 0;
  for (unsigned k = 0; k < spec.stages; ++k) {
    power *= rm;
    while ((static_cast<unsigned __int128>(1) << growth) < power) {
      if (++growth > 64) break;
    }
    if (growth > 64) break;
  }
  const unsigned bits = spec.input_bits + growth;
  if (bits > 64) {
    throw InvalidArgument("CIC: the register width input_bits + ceil(N log2(R M)) = " + std::to_string(bits) +
                          " exceeds 64 bits (N = " + std::to_string(spec.stages) + ", R = " + std::to_string(spec.ratio) +
                          ", M = " + std::to_string(spec.delay) + ")");
  }
  return bits;
}

double cic_gain(const CicSpec& spec) {
  return std::pow(double(spec.ratio) * double(spec.delay), double(spec.stages));
}

double cic_response(const CicSpec& spec, double f) {
  const double rm = double(spec.ratio) * double(spec.delay);
  if (f == 0.0) return 1.0;
  const double num = std::sin(std::numbers::pi * rm * f), den = rm * std::sin(std::numbers::pi * f);
  return std::pow(std::abs(num / den), double(spec.stages));
}

// ---- decimator ----
//
// The input is cut into chunks of up to four segments (cpu/cic_kernels.hpp). An integrate
// kernel runs the integrators over the segments side by side, the first from the true state,
// the others from zero, and keeps the last integrator's output at every frame. A segment's
// true output is its zero-state output plus the zero-input response of its true starting
// states c_k, a polynomial in the frame number n of degree < N:
//   sum over k of C(n + N - k - 1, N - k) c_k   (k = 1..N, n = 1 at the segment's first frame).
// The combs, N differences at the output rate, cancel any polynomial of degree < N, so only
// outputs whose comb window reaches back across a segment boundary need the true values; they
// are recomputed directly from them. The combs run as one vectorized pass of differences over
// the decimated values of a chunk, after the last N M outputs of the previous one.

namespace {

// Frames of one segment are at most this many bytes of registers: a chunk's integrator
// outputs stay in the L1/L2 cache until the decimation reads them.
constexpr std::size_t kSegmentBytes = 8192;
// Several segments only when each has at least this many frames (else one).
constexpr std::size_t kMinSegmentFrames = 256;
// Most segments of one chunk (cpu::CicKernels: 2 blocks, or 4 lanes).
constexpr std::size_t kMaxSegments = 4;

// Frames the integrate kernel takes at a time (1 without it).
template <class In, class W>
std::size_t step_frames(std::size_t channels, std::size_t stages) {
  const auto& kernels = cpu::cic_kernels<In, W>();
  return kernels.supports(channels, stages) ? kernels.step_values / channels : 1;
}

// The integrate kernel's work without SIMD (any channel count, any number of stages).
template <class In, class W>
void integrate_scalar(const In* x, std::size_t channels, std::size_t stages, std::size_t frames, W* states, W* last) {
  for (std::size_t t = 0; t < frames; ++t) {
    for (std::size_t c = 0; c < channels; ++c) {
      W v = static_cast<W>(static_cast<std::int64_t>(x[t * channels + c]));
      for (std::size_t k = 0; k < stages; ++k) v = states[k * channels + c] += v;
      last[t * channels + c] = v;
    }
  }
}

}  // namespace

template <class In>
CicDecimator<In>::CicDecimator(const CicSpec& spec, std::size_t channels)
    : spec_(spec), channels_(channels), bits_(cic_register_bits(spec)) {
  check_input<In>(spec, channels);
  const std::size_t width = bits_ <= 32 ? 4 : 8;
  const std::size_t step = width == 4 ? step_frames<In, std::uint32_t>(channels, spec.stages)
                                      : step_frames<In, std::uint64_t>(channels, spec.stages);
  segment_frames_ = std::max(step, kSegmentBytes / (channels * width) / step * step);
  // C(n + d - 1, d) = C(n + d - 2, d) + C(n + d - 2, d - 1), at [n * N + d]: the N values a
  // frame n needs share a cache line.
  const std::size_t stages = spec.stages;
  binomials_.assign((segment_frames_ + 1) * stages, 0);
  for (std::size_t n = 0; n <= segment_frames_; ++n) {
    binomials_[n * stages] = 1;
    for (std::size_t d = 1; d < stages && n > 0; ++d) {
      binomials_[n * stages + d] = binomials_[(n - 1) * stages + d] + binomials_[n * stages + d - 1];
    }
  }
  // Work space, in registers: states and starting states of the segments, their integrator
  // outputs, the history and a chunk's decimated values, true values around a segment
  // boundary, the outputs recomputed at each boundary, the next history, and the comb's
  // passes for more stages than its fused kernel takes.
  const std::size_t n = spec.stages, h = n * spec.delay * channels, segments = kMaxSegments;
  const std::size_t outputs = (segments * segment_frames_ / spec.ratio + 1) * channels;
  const std::size_t words = 2 * segments * n * channels + segments * segment_frames_ * channels + 2 * (h + outputs) +
                            (segments + 3) * h;
  if (width == 4) {
    work32_.assign(words, 0);
  } else {
    work64_.assign(words, 0);
  }
  chunk_out_.assign(outputs, 0);
  reset();
}

template <class In>
void CicDecimator<In>::reset() {
  integrators_.assign(channels_ * spec_.stages, 0);
  history_.assign(channels_ * spec_.stages * spec_.delay, 0);
  phase_ = 0;
}

template <class In>
template <class W>
W* CicDecimator<In>::work() {
  if constexpr (sizeof(W) == 4) {
    return work32_.data();
  } else {
    return work64_.data();
  }
}

namespace {

// dst[j * channels + c] = src[j * stride + c]: the decimated frames of one chunk.
template <class W>
void gather_frames(const W* src, std::size_t stride, std::size_t count, std::size_t channels, W* dst) {
  const auto copy = [&](auto width) {
    constexpr std::size_t kWidth = decltype(width)::value;
    for (std::size_t j = 0; j < count; ++j) std::memcpy(dst + j * kWidth, src + j * stride, kWidth * sizeof(W));
  };
  switch (channels) {
    case 1: return copy(std::integral_constant<std::size_t, 1>());
    case 2: return copy(std::integral_constant<std::size_t, 2>());
    case 4: return copy(std::integral_constant<std::size_t, 4>());
    default:
      for (std::size_t j = 0; j < count; ++j) std::memcpy(dst + j * channels, src + j * stride, channels * sizeof(W));
  }
}

}  // namespace

template <class In>
template <class W>
void CicDecimator<In>::decimate(const In* x, std::size_t frames, std::vector<std::int64_t>& out) {
  using S = std::make_signed_t<W>;
  const std::size_t channels = channels_, n = spec_.stages, ratio = spec_.ratio, m = spec_.delay;
  const std::size_t h = n * m * channels;
  const std::size_t max_outputs = (kMaxSegments * segment_frames_ / ratio + 1) * channels;
  const auto& kernels = cpu::cic_kernels<In, W>();
  const bool simd = kernels.supports(channels, n);
  const std::size_t step = step_frames<In, W>(channels, n);
  const std::size_t block_segments = simd ? std::min(kernels.max_segments, kMaxSegments) : 1;
  // The lane kernel (two channels, one frame of each segment per vector), when there is one.
  const std::size_t lane_segments =
      simd && channels == 2 && kernels.integrate_lanes != nullptr && kernels.lane_segments <= kMaxSegments
          ? kernels.lane_segments
          : 0;
  W* states = work<W>();                                        // [segment][stage][channel]
  W* starts = states + kMaxSegments * n * channels;             // true states at each segment's start
  W* last = starts + kMaxSegments * n * channels;               // the last integrator at every frame
  W* decimated = last + kMaxSegments * segment_frames_ * channels;  // history, then this chunk's outputs
  W* around = decimated + h + max_outputs;                      // true values around a boundary
  W* fixed = around + 2 * h;                                    // outputs recomputed at each boundary
  W* next_history = fixed + (kMaxSegments - 1) * h;
  W* passes = next_history + h;
  std::int64_t* results = chunk_out_.data();
  // The comb as one sum: (1 - z^-M)^N has coefficient (-1)^k C(N, k) at delay k M.
  W comb[cpu::kCicMaxStages + 1] = {};
  if (n <= cpu::kCicMaxStages) {
    comb[0] = 1;
    for (std::size_t k = 1; k <= n; ++k) {
      for (std::size_t i = k; i > 0; --i) comb[i] = comb[i] - comb[i - 1];
    }
  }

  while (frames > 0) {
    // Segments side by side: the lane kernel's, the block kernel's, or one (the scalar loop
    // for fewer frames than a SIMD step).
    std::size_t segments = 1, length = 0;
    bool vector = simd, interleaved = false;
    if (lane_segments > 1 && frames >= lane_segments * kMinSegmentFrames) {
      segments = lane_segments;
      interleaved = true;
      length = std::min(segment_frames_, frames / segments) / 4 * 4;
    } else if (block_segments > 1 && frames >= block_segments * kMinSegmentFrames) {
      segments = block_segments;
      length = std::min(segment_frames_, frames / segments) / step * step;
    } else {
      length = std::min(segment_frames_, frames) / step * step;
      if (length == 0) {
        length = frames;
        vector = false;
      }
    }
    const std::size_t chunk = segments * length;
    // Where frame t of segment s is in `last`.
    const auto at = [&](std::size_t s, std::size_t t) {
      return interleaved ? (t * segments + s) * channels : (s * length + t) * channels;
    };

    // Integrators: segment 0 from the true state, the others from zero.
    for (std::size_t i = 0; i < n * channels; ++i) starts[i] = states[i] = static_cast<W>(integrators_[i]);
    std::fill(states + n * channels, states + segments * n * channels, W(0));
    if (interleaved) {
      kernels.integrate_lanes(x, n, length, states, last);
    } else if (vector) {
      kernels.integrate(x, channels, n, length, segments, states, last);
    } else {
      integrate_scalar(x, channels, n, length, states, last);
    }
    // True starting states of the later segments, and the true state at the chunk's end:
    // integrator k's zero-input response after L frames is sum over i <= k of
    // C(L + k - i - 1, k - i) c_i.
    for (std::size_t b = 1; b <= segments; ++b) {
      W* end = b < segments ? starts + b * n * channels : next_history;  // next_history as scratch
      const W* zero_state = states + (b - 1) * n * channels;
      const W* start = starts + (b - 1) * n * channels;
      for (std::size_t k = 0; k < n; ++k) {
        for (std::size_t c = 0; c < channels; ++c) {
          W v = zero_state[k * channels + c];
          if (b > 1) {
            for (std::size_t i = 0; i <= k; ++i) v += static_cast<W>(binomials_[length * n + k - i]) * start[i * channels + c];
          }
          end[k * channels + c] = v;
        }
      }
    }
    for (std::size_t i = 0; i < n * channels; ++i) integrators_[i] = next_history[i];

    // This chunk's outputs (frames first, first + R, ...), after the history; output j is in
    // segment (first + j R) / L.
    const std::size_t first = ratio - 1 - phase_, outputs = (phase_ + chunk) / ratio;
    const auto first_output_in = [&](std::size_t b) {
      return std::min(outputs, b * length > first ? (b * length - first + ratio - 1) / ratio : std::size_t{0});
    };
    for (std::size_t i = 0; i < h; ++i) decimated[i] = static_cast<W>(history_[i]);
    for (std::size_t b = 0; b < segments; ++b) {
      const std::size_t j0 = first_output_in(b), j1 = first_output_in(b + 1);
      if (j1 > j0) {
        gather_frames(last + at(b, first + j0 * ratio - b * length), at(0, ratio) - at(0, 0), j1 - j0, channels,
                      decimated + h + j0 * channels);
      }
    }
    // The true value of output j (negative j: the history).
    const auto true_value = [&](std::ptrdiff_t j, std::size_t c) {
      W v = decimated[static_cast<std::ptrdiff_t>(h) + j * static_cast<std::ptrdiff_t>(channels) + static_cast<std::ptrdiff_t>(c)];
      if (j < 0) return v;
      const std::size_t t = first + static_cast<std::size_t>(j) * ratio;
      if (t < length) return v;
      std::size_t b = 1;
      while (t >= (b + 1) * length) ++b;
      const std::uint64_t* binomial = binomials_.data() + (t - b * length + 1) * n;
      const W* start = starts + b * n * channels + c;
      for (std::size_t i = 0; i < n; ++i) v += static_cast<W>(binomial[n - 1 - i]) * start[i * channels];
      return v;
    };
    // At each boundary, the outputs whose comb window starts in an earlier segment: from the
    // true values of outputs [from - N M, to).
    for (std::size_t b = 1; b < segments; ++b) {
      const std::size_t from = first_output_in(b), to = std::min(outputs, from + n * m);
      const std::ptrdiff_t lo = static_cast<std::ptrdiff_t>(from) - static_cast<std::ptrdiff_t>(n * m);
      for (std::ptrdiff_t j = lo; j < static_cast<std::ptrdiff_t>(to); ++j) {
        for (std::size_t c = 0; c < channels; ++c) around[static_cast<std::size_t>(j - lo) * channels + c] = true_value(j, c);
      }
      W* fix = fixed + (b - 1) * h;
      for (std::size_t j = from; j < to; ++j) {
        for (std::size_t c = 0; c < channels; ++c) {
          W y = 0;
          for (std::size_t k = 0; k <= n; ++k) y += comb[k] * around[(j + n * m - from - k * m) * channels + c];
          fix[(j - from) * channels + c] = y;
        }
      }
    }
    for (std::size_t q = 0; q < n * m; ++q) {
      const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(outputs) - static_cast<std::ptrdiff_t>(n * m - q);
      for (std::size_t c = 0; c < channels; ++c) next_history[q * channels + c] = true_value(j, c);
    }

    kernels.comb(decimated + h, outputs * channels, m * channels, n, results, passes);
    for (std::size_t b = 1; b < segments; ++b) {
      const std::size_t from = first_output_in(b), to = std::min(outputs, from + n * m);
      for (std::size_t i = 0; i < (to - from) * channels; ++i) results[from * channels + i] = static_cast<S>(fixed[(b - 1) * h + i]);
    }
    out.insert(out.end(), results, results + outputs * channels);
    for (std::size_t i = 0; i < h; ++i) history_[i] = next_history[i];

    phase_ = static_cast<unsigned>((phase_ + chunk) % ratio);
    x += chunk * channels;
    frames -= chunk;
  }
}

template <class In>
std::size_t CicDecimator<In>::process(std::span<const In> x, std::vector<std::int64_t>& out) {
  if (x.size() % channels_ != 0) {
    throw InvalidArgument("CIC: the block has " + std::to_string(x.size()) + " values, not a multiple of the " +
                          std::to_string(channels_) + " channels");
  }
  const std::size_t frames = x.size() / channels_, first = out.size();
  if (bits_ <= 32) {
    decimate<std::uint32_t>(x.data(), frames, out);
  } else {
    decimate<std::uint64_t>(x.data(), frames, out);
  }
  return out.size() - first;
}

template <class In>
std::size_t CicDecimator<In>::process(std::span<const In> x, std::vector<float>& out) {
  scratch_.clear();
  process(x, scratch_);
  const double scale = 1.0 / (cic_gain(spec_) * std::ldexp(1.0, int(spec_.input_bits) - 1));
  for (std::int64_t v : scratch_) out.push_back(static_cast<float>(double(v) * scale));
  return scratch_.size();
}

// ---- interpolator ----

template <class In>
CicInterpolator<In>::CicInterpolator(const CicSpec& spec, std::size_t channels)
    : spec_(spec), channels_(channels), bits_(cic_register_bits(spec)) {
  check_input<In>(spec, channels);
  reset();
}

template <class In>
void CicInterpolator<In>::reset() {
  integrators_.assign(channels_ * spec_.stages, 0);
  combs_.assign(channels_ * spec_.stages * spec_.delay, 0);
  comb_pos_ = 0;
}

template <class In>
std::size_t CicInterpolator<In>::process(std::span<const In> x, std::vector<std::int64_t>& out) {
  if (x.size() % channels_ != 0) {
    throw InvalidArgument("CIC: the block has " + std::to_string(x.size()) + " values, not a multiple of the " +
                          std::to_string(channels_) + " channels");
  }
  const std::size_t frames = x.size() / channels_, n = spec_.stages, m = spec_.delay, first = out.size();
  std::vector<std::uint64_t> comb_out(channels_);
  for (std::size_t t = 0; t < frames; ++t) {
    for (std::size_t c = 0; c < channels_; ++c) {
      std::uint64_t v = static_cast<std::uint64_t>(static_cast<std::int64_t>(x[t * channels_ + c]));
      std::uint64_t* delays = combs_.data() + c * n * m;
      for (std::size_t k = 0; k < n; ++k) {
        std::uint64_t& old = delays[k * m + comb_pos_];
        const std::uint64_t y = v - old;
        old = v;
        v = y;
      }
      comb_out[c] = v;
    }
    comb_pos_ = (comb_pos_ + 1) % m;
    for (unsigned r = 0; r < spec_.ratio; ++r) {
      for (std::size_t c = 0; c < channels_; ++c) {
        std::uint64_t* s = integrators_.data() + c * n;
        std::uint64_t v = r == 0 ? comb_out[c] : 0;
        for (std::size_t k = 0; k < n; ++k) v = s[k] += v;
        out.push_back(sign_extend(v, bits_));
      }
    }
  }
  return out.size() - first;
}

template class CicDecimator<std::int16_t>;
template class CicDecimator<std::int32_t>;
template class CicInterpolator<std::int16_t>;
template class CicInterpolator<std::int32_t>;

}  // namespace ripple::multirate
