// The NCO: a phase accumulator in 64-bit fixed point (exactly periodic for frequencies that are
// rational multiples of fs / 2^64, no drift however long it runs), sin/cos from the phase.
#include <cmath>
#include <numbers>
#include <string>

#include "ripple/error.hpp"
#include "ripple/multirate.hpp"

namespace ripple::multirate {
namespace {
constexpr double kTurn = 18446744073709551616.0;  // 2^64: one full turn of phase

// A number of turns as 64-bit fixed point, modulo one turn (negative values wrap).
std::uint64_t fixed_turns(double turns) {
  const long double fraction = static_cast<long double>(turns) - std::floor(static_cast<long double>(turns));
  const long double scaled = std::ldexp(fraction, 64);
  return scaled >= std::ldexp(1.0L, 64) ? 0 : static_cast<std::uint64_t>(scaled);
}
}  // namespace

Nco::Nco(double frequency, double fs, double phase) {
  if (!(fs > 0) || !std::isfinite(fs)) throw InvalidArgument("Nco: fs must be a positive number, got " + std::to_string(fs));
  if (!std::isfinite(frequency) || std::abs(frequency) > fs / 2) {
    throw InvalidArgument("Nco: frequency " + std::to_string(frequency) + " is outside [-fs/2, fs/2] = [" +
                          std::to_string(-fs / 2) + ", " + std::to_string(fs / 2) + "]");
  }
  if (!std::isfinite(phase)) throw InvalidArgument("Nco: phase must be finite, got " + std::to_string(phase));
  step_ = fixed_turns(frequency / fs);
  phase_ = fixed_turns(phase / (2 * std::numbers::pi));
}

template <class T>
void Nco::mix(std::span<const std::complex<T>> x, std::span<std::complex<T>> y) {
  if (y.size() != x.size()) {
    throw InvalidArgument("Nco::mix: y has " + std::to_string(y.size()) + " values but x has " + std::to_string(x.size()));
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double angle = double(phase_) / kTurn * 2 * std::numbers::pi;
    const std::complex<T> rot(T(std::cos(angle)), T(std::sin(angle)));
    y[i] = x[i] * rot;
    phase_ += step_;
  }
}

template <class T>
void Nco::mix(std::span<const T> x, std::span<std::complex<T>> y) {
  if (y.size() != x.size()) {
    throw InvalidArgument("Nco::mix: y has " + std::to_string(y.size()) + " values but x has " + std::to_string(x.size()));
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double angle = double(phase_) / kTurn * 2 * std::numbers::pi;
    y[i] = std::complex<T>(T(double(x[i]) * std::cos(angle)), T(double(x[i]) * std::sin(angle)));
    phase_ += step_;
  }
}

template void Nco::mix<float>(std::span<const std::complex<float>>, std::span<std::complex<float>>);
template void Nco::mix<double>(std::span<const std::complex<double>>, std::span<std::complex<double>>);
template void Nco::mix<float>(std::span<const float>, std::span<std::complex<float>>);
template void Nco::mix<double>(std::span<const double>, std::span<std::complex<double>>);

}  // namespace ripple::multirate
