// CIC decimators and interpolators (Hogenauer 1981). Registers are 64-bit unsigned integers:
// arithmetic modulo 2^64 agrees with arithmetic modulo 2^B for the Hogenauer width B <= 64, so
// the wrap-around of the integrators cancels in the combs and the output, reduced to B bits and
// sign-extended, is exact.
#include <algorithm>
#include <bit>
#include <utility>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

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

template <class In>
CicDecimator<In>::CicDecimator(const CicSpec& spec, std::size_t channels)
    : spec_(spec), channels_(channels), bits_(cic_register_bits(spec)) {
  check_input<In>(spec, channels);
  reset();
}

template <class In>
void CicDecimator<In>::reset() {
  integrators_.assign(channels_ * spec_.stages, 0);
  combs_.assign(channels_ * spec_.stages * spec_.delay, 0);
  comb_pos_ = 0;
  phase_ = 0;
}

namespace {

// One channel of a block: the stages' states live in registers (N is a compile-time constant
// for the common cases), the integrators run every sample and the combs every R-th, writing
// outputs `channels` apart. Returns the number of outputs.
template <unsigned N, class In>
std::size_t decimate_channel(const In* x, std::size_t channels, std::size_t frames, unsigned ratio, unsigned m,
                             unsigned phase, std::size_t comb_pos, std::uint64_t* integrators, std::uint64_t* delays,
                             unsigned bits, std::int64_t* out) {
  std::uint64_t s[N];
  for (unsigned k = 0; k < N; ++k) s[k] = integrators[k];
  std::size_t outputs = 0;
  for (std::size_t t = 0; t < frames;) {
    // Integrate up to the next output sample.
    const std::size_t run = std::min<std::size_t>(frames - t, ratio - phase);
    for (std::size_t i = 0; i < run; ++i) {
      std::uint64_t v = static_cast<std::uint64_t>(static_cast<std::int64_t>(x[(t + i) * channels]));
      for (unsigned k = 0; k < N; ++k) v = s[k] += v;
    }
    t += run;
    phase += static_cast<unsigned>(run);
    if (phase < ratio) break;
    phase = 0;
    std::uint64_t v = s[N - 1];
    for (unsigned k = 0; k < N; ++k) {
      std::uint64_t& old = delays[k * m + comb_pos];
      const std::uint64_t y = v - old;
      old = v;
      v = y;
    }
    comb_pos = comb_pos + 1 == m ? 0 : comb_pos + 1;
    out[outputs++ * channels] = sign_extend(v, bits);
  }
  for (unsigned k = 0; k < N; ++k) integrators[k] = s[k];
  return outputs;
}

template <class In>
using DecimateFn = std::size_t (*)(const In*, std::size_t, std::size_t, unsigned, unsigned, unsigned, std::size_t,
                                   std::uint64_t*, std::uint64_t*, unsigned, std::int64_t*);

template <class In, unsigned... Ns>
DecimateFn<In> pick(unsigned n, std::integer_sequence<unsigned, Ns...>) {
  DecimateFn<In> fn = nullptr;
  ((n == Ns + 1 ? (fn = &decimate_channel<Ns + 1, In>, 0) : 0), ...);
  return fn;
}

}  // namespace

template <class In>
std::size_t CicDecimator<In>::process(std::span<const In> x, std::vector<std::int64_t>& out) {
  if (x.size() % channels_ != 0) {
    throw InvalidArgument("CIC: the block has " + std::to_string(x.size()) + " values, not a multiple of the " +
                          std::to_string(channels_) + " channels");
  }
  const std::size_t frames = x.size() / channels_, n = spec_.stages, m = spec_.delay, first = out.size();
  const std::size_t outputs = (phase_ + frames) / spec_.ratio;
  out.resize(first + outputs * channels_);
  const DecimateFn<In> fixed = pick<In>(spec_.stages, std::make_integer_sequence<unsigned, 8>());
  for (std::size_t c = 0; c < channels_; ++c) {
    std::uint64_t* integ = integrators_.data() + c * n;
    std::uint64_t* delays = combs_.data() + c * n * m;
    std::int64_t* dst = out.data() + first + c;
    if (fixed != nullptr) {
      fixed(x.data() + c, channels_, frames, spec_.ratio, spec_.delay, phase_, comb_pos_, integ, delays, bits_, dst);
      continue;
    }
    // More than 8 stages: the same loop with the states in memory.
    unsigned phase = phase_;
    std::size_t pos = comb_pos_, k_out = 0;
    for (std::size_t t = 0; t < frames; ++t) {
      std::uint64_t v = static_cast<std::uint64_t>(static_cast<std::int64_t>(x[t * channels_ + c]));
      for (std::size_t k = 0; k < n; ++k) v = integ[k] += v;
      if (++phase < spec_.ratio) continue;
      phase = 0;
      for (std::size_t k = 0; k < n; ++k) {
        std::uint64_t& old = delays[k * m + pos];
        const std::uint64_t y = v - old;
        old = v;
        v = y;
      }
      pos = (pos + 1) % m;
      dst[k_out++ * channels_] = sign_extend(v, bits_);
    }
  }
  comb_pos_ = (comb_pos_ + outputs) % m;
  phase_ = static_cast<unsigned>((phase_ + frames) % spec_.ratio);
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
