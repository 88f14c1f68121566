// The NCO: a phase accumulator in 64-bit fixed point (exactly periodic for frequencies that are
// rational multiples of fs / 2^64, no drift however long it runs), sin/cos from the phase,
// resynchronized every 64 samples with a phasor rotation in between.
#include <algorithm>
#include <cmath>
#include <complex>
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

namespace {
// The oscillator's value at a fixed-point phase.
std::complex<double> phasor(std::uint64_t phase) {
  const double angle = double(phase) / kTurn * 2 * std::numbers::pi;
  return {std::cos(angle), std::sin(angle)};
}

// Runs the oscillator over n samples, calling put(i, rotation). sin/cos are exact only at
// every kResync-th sample of the stream; in between the phasor is rotated by the step in
// double, whose error after kResync products (~kResync * 1e-16) is far below float's and
// double's own rounding of the product with the sample. Resynchronizing at positions of the
// whole stream (not of the call) keeps chunked streaming bit-identical to one call.
template <class Put>
void run_oscillator(std::uint64_t& phase, std::uint64_t step, std::uint64_t& position, std::complex<double>& rotation,
                    std::size_t n, Put&& put) {
  constexpr std::uint64_t kResync = 64;
  const std::complex<double> turn = phasor(step);
  std::complex<double> rot = rotation;
  for (std::size_t i = 0; i < n; ++i) {
    if ((position + i) % kResync == 0) rot = phasor(phase + std::uint64_t(i) * step);
    put(i, rot);
    rot *= turn;
  }
  phase += std::uint64_t(n) * step;
  position += n;
  rotation = rot;
}
}  // namespace

template <class T>
void Nco::mix(std::span<const std::complex<T>> x, std::span<std::complex<T>> y) {
  if (y.size() != x.size()) {
    throw InvalidArgument("Nco::mix: y has " + std::to_string(y.size()) + " values but x has " + std::to_string(x.size()));
  }
  run_oscillator(phase_, step_, position_, rotation_, x.size(), [&](std::size_t i, std::complex<double> rot) {
    y[i] = x[i] * std::complex<T>(T(rot.real()), T(rot.imag()));
  });
}

template <class T>
void Nco::mix(std::span<const T> x, std::span<std::complex<T>> y) {
  if (y.size() != x.size()) {
    throw InvalidArgument("Nco::mix: y has " + std::to_string(y.size()) + " values but x has " + std::to_string(x.size()));
  }
  run_oscillator(phase_, step_, position_, rotation_, x.size(), [&](std::size_t i, std::complex<double> rot) {
    y[i] = std::complex<T>(T(double(x[i]) * rot.real()), T(double(x[i]) * rot.imag()));
  });
}

template void Nco::mix<float>(std::span<const std::complex<float>>, std::span<std::complex<float>>);
template void Nco::mix<double>(std::span<const std::complex<double>>, std::span<std::complex<double>>);
template void Nco::mix<float>(std::span<const float>, std::span<std::complex<float>>);
template void Nco::mix<double>(std::span<const double>, std::span<std::complex<double>>);

}  // namespace ripple::multirate
